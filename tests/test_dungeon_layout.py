"""Missions laid out as levels (mazeplugin.dungeon.layout, ``Mission.layout``, ``mp.dungeon_level``): over many
seeds per pattern the level is proven by the content engine every level uses, its tiles join exactly the rooms the
mission joins, the doors the tile solver passes are an order the mission can be played in, and the same (mission,
seed) gives the same bytes. benchmarks/bench_dungeon.py runs 1,000 seeds per pattern."""

from __future__ import annotations

import hashlib
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.dungeon import LAYOUT_STREAM, PATTERNS, Edge, Mission, MissionError, Node, least_rooms
from mazeplugin.dungeon.layout import layout
from mazeplugin.seeds import Random

from budget import examples


def made(pattern: str, seed: int, rooms: int = 16, locks: int = 2) -> Mission:
    return mp.mission(rooms=max(rooms, least_rooms(pattern, locks)), locks=locks, pattern=pattern, seed=seed)


def interiors(level: mp.Level) -> np.ndarray:
    """Each tile's room number (1, 2, ... in the layout's room order) inside a room's outline, else 0."""
    owner = np.zeros(level.tiles.shape, dtype=np.int32)
    for n, room in enumerate(level.options["layout"]["rooms"], start=1):
        x, y, w, h = room["x"], room["y"], room["width"], room["height"]
        owner[y + 1 : y + h - 1, x + 1 : x + w - 1] = n
    return owner


def joined_rooms(level: mp.Level) -> list:
    """Which rooms each corridor (a piece of floor outside every room) touches: one sorted pair of room ids each."""
    owner = interiors(level)
    names = [room["id"] for room in level.options["layout"]["rooms"]]
    floor = level.tiles == 0
    corridor = floor & (owner == 0)
    seen = np.zeros_like(corridor)
    h, w = corridor.shape
    pieces = []
    for y0, x0 in np.argwhere(corridor).tolist():
        if seen[y0, x0]:
            continue
        touched = set()
        seen[y0, x0] = True
        queue = deque([(x0, y0)])
        while queue:
            x, y = queue.popleft()
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= nx < w and 0 <= ny < h and floor[ny, nx]:
                    if owner[ny, nx]:
                        touched.add(names[owner[ny, nx] - 1])
                    elif not seen[ny, nx]:
                        seen[ny, nx] = True
                        queue.append((nx, ny))
        pieces.append(tuple(sorted(touched)))
    return sorted(pieces)


def doors_in_walk_order(level: mp.Level) -> list:
    doors = {t.tile: t for t in level.things if t.kind == "door"}
    order = []
    for tile in level.solution():
        if tile in doors and doors[tile] not in order:
            order.append(doors[tile])
    return order


def mission_reach(m: Mission, opened: list) -> set:
    """Rooms reached from the start on the mission (one-way edges their way only), with ``opened`` locked edges."""
    out = {node.id: [] for node in m.nodes}
    for edge in m.edges:
        if edge.kind == "locked" and edge.name not in opened:
            continue
        out[edge.a].append(edge.b)
        if edge.kind != "one-way":
            out[edge.b].append(edge.a)
    reached, queue = {m.start}, deque([m.start])
    while queue:
        for other in out[queue.popleft()]:
            if other not in reached:
                reached.add(other)
                queue.append(other)
    return reached


@settings(max_examples=examples(90), deadline=None)
@given(pattern=st.sampled_from(PATTERNS), seed=st.integers(0, 2**32 - 1), rooms=st.integers(8, 30),
       locks=st.integers(1, 4))
def test_every_dungeon_is_proven_by_the_content_engine_and_played_in_a_mission_order(pattern, seed, rooms, locks):
    m = made(pattern, seed, rooms, locks)
    level = m.layout()
    level.check()  # the proof every level gets: keys in order, each door needed, the exit reached
    walk = level.solution()
    assert walk[0] == level.entrance and walk[-1] == level.exit
    passed = doors_in_walk_order(level)
    locked = {edge.name for edge in m.edges_of("locked")}
    assert sorted(door.props["edge"] for door in passed) == sorted(locked)  # every mission lock is on the way
    holder = {node.key: node.id for node in m.nodes if node.kind == "key"}
    for n, door in enumerate(passed):
        edge = next(e for e in m.edges if e.name == door.props["edge"])
        reached = mission_reach(m, [d.props["edge"] for d in passed[:n]])
        assert holder[edge.key] in reached and (edge.a in reached or edge.b in reached)
        assert m.goal not in reached  # the mission needs this door too
    assert m.goal in mission_reach(m, sorted(locked))


@settings(max_examples=examples(60), deadline=None)
@given(pattern=st.sampled_from(PATTERNS), seed=st.integers(0, 2**32 - 1))
def test_the_tiles_join_exactly_the_rooms_the_mission_joins(pattern, seed):
    m = made(pattern, seed, rooms=14, locks=1)
    level = m.layout()
    carved = sorted(tuple(sorted((e.a, e.b))) for e in m.edges if e.kind != "one-way")
    assert joined_rooms(level) == carved  # one corridor per edge, no other connection (a cycle stays a cycle)
    rooms = {room["id"]: room for room in level.options["layout"]["rooms"]}
    owner, names = interiors(level), [room["id"] for room in level.options["layout"]["rooms"]]

    def room_of(tile):
        return names[owner[tile[1], tile[0]] - 1]

    assert room_of(level.entrance) == m.start and room_of(level.exit) == m.goal
    for key in (t for t in level.things if t.kind == "key"):
        assert key.props["room"] == room_of(key.tile)
        assert m.node(room_of(key.tile)).kind == "key"
    for door in (t for t in level.things if t.kind == "door"):
        edge = next(e for e in m.edges if e.name == door.props["edge"])
        x, y = door.tile
        beside = {room_of(p) for p in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if owner[p[1], p[0]]}
        assert len(beside) == 1 and beside <= {edge.a, edge.b}  # on the boundary of one of its rooms
        if m.node(next(iter(beside))).kind != "lock":
            assert not any(m.node(end).kind == "lock" and m.node(end).key == edge.key for end in (edge.a, edge.b))
    assert set(rooms) == {node.id for node in m.nodes}


def test_the_same_mission_and_seed_give_the_same_level_and_seeds_tell_levels_apart():
    m = made("mixed", 11, rooms=20, locks=3)
    first, again = m.layout(), m.layout(seed=m.seed)
    assert first.tiles.tobytes() == again.tiles.tobytes() and first.things == again.things
    assert first.seed == m.seed and first.algorithm == "dungeon"
    assert mp.dungeon_level(rooms=20, locks=3, pattern="mixed", seed=11).tiles.tobytes() == first.tiles.tobytes()
    assert len({m.layout(seed=s).tiles.tobytes() for s in range(6)}) == 6
    assert LAYOUT_STREAM == (7, 1)
    before = Random.keyed(5, LAYOUT_STREAM).raw(3).tolist()
    m.layout(seed=5)
    assert Random.keyed(5, LAYOUT_STREAM).raw(3).tolist() == before
    digest = hashlib.sha256(mp.mission(rooms=12, locks=2, pattern="lock-and-key", seed=7).layout().tiles.tobytes())
    assert digest.hexdigest() == GOLDEN_TILES


GOLDEN_TILES = "9fa25fad564b1779865f734b9bbece9a7a4f4177da4a265bd7a98e74a4571dc9"


def test_prefabs_shape_the_rooms():
    vault = mp.Prefab.from_text("""
        #+#+#+#
        +.....+
        #.#.#.#
        +.....+
        #+#+#+#
    """)
    m = made("two-paths", 4, rooms=10, locks=1)
    level = m.layout(prefabs=[vault])
    level.check()
    assert all((room["width"], room["height"]) == (7, 5) for room in level.options["layout"]["rooms"])
    x, y = level.options["layout"]["rooms"][0]["x"], level.options["layout"]["rooms"][0]["y"]
    assert level.tiles[y + 2, x + 2] == mp.WALL  # the vault's pillar
    with pytest.raises(TypeError, match="prefabs"):
        m.layout(prefabs=["#.#"])
    blind = mp.Prefab.from_text("#####\n#...#\n###+#")
    with pytest.raises(MissionError, match="room 'start' has 2 corridors, and no prefab has that many possible doors"):
        m.layout(prefabs=[blind])
    level = m.layout(prefabs=[blind, vault])  # the one-door room is taken where one corridor leaves
    level.check()
    assert {(room["width"], room["height"]) for room in level.options["layout"]["rooms"]} == {(7, 5), (5, 3)}


def test_a_mission_the_tiles_cannot_carry_is_refused_by_name():
    drop_only = Mission([Node("start", "start"), Node("a"), Node("goal", "goal")],
                        [Edge("start", "a", "one-way"), Edge("a", "goal")])
    with pytest.raises(MissionError, match="room 'a' is reached only through one-way edges"):
        drop_only.layout(seed=1)
    two_doors = Mission([Node("start", "start"), Node("k", "key", key="red"), Node("m"), Node("goal", "goal")],
                        [Edge("start", "k"), Edge("start", "m", "locked", key="red"),
                         Edge("m", "goal", "locked", key="red")])
    with pytest.raises(MissionError, match="key 'red' opens more than one door"):
        two_doors.layout(seed=1)
    with pytest.raises(MissionError, match="a mission of at most 200 rooms can be laid out; this one has 201"):
        mp.mission(rooms=201, locks=2, seed=1).layout()  # (its options would outgrow what a level file holds)
    with pytest.raises(ValueError, match="attempts must be an int from 1 to 64"):
        made("valve", 1).layout(attempts=0)
    with pytest.raises(TypeError, match="mission must be a mazeplugin.Mission"):
        layout("start-goal")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="mission must be a mazeplugin.Mission, a dict or a path"):
        mp.dungeon_level(42)  # type: ignore[arg-type]


def test_a_designers_mission_with_a_hidden_passage_lays_out_with_its_secret_marked():
    m = Mission.from_dict({"nodes": [{"id": "start", "kind": "start"}, {"id": "hall"}, {"id": "nook"},
                                     {"id": "k", "kind": "key", "key": "red"}, {"id": "goal", "kind": "goal"}],
                           "edges": [{"from": "start", "to": "hall"}, {"from": "hall", "to": "k"},
                                     {"from": "start", "to": "nook", "kind": "hidden"},
                                     {"from": "nook", "to": "hall"},
                                     {"from": "hall", "to": "goal", "kind": "locked", "key": "red"}]})
    level = mp.dungeon_level(m.to_dict(), seed=3)
    level.check()
    secrets = [t for t in level.things if t.kind == "secret"]
    assert [t.props["edge"] for t in secrets] == ["start-nook"] and level.is_floor(secrets[0].tile)
    assert level.seed == 3 and level.options["mission"] == m.to_dict()


@pytest.mark.parametrize("suffix", ["json", "tmx", "tmj"])
def test_a_dungeon_saves_and_loads_through_the_one_way(tmp_path, suffix):
    level = mp.dungeon_level(rooms=16, locks=2, pattern="hidden", seed=5)
    path = tmp_path / f"dungeon.{suffix}"
    level.save(path)
    back = mp.load(path)
    assert back.tiles.tobytes() == level.tiles.tobytes() and back.things == level.things
    assert (back.entrance, back.exit, back.algorithm, back.seed) == (level.entrance, level.exit, "dungeon", 5)
    assert Mission.from_dict(back.options["mission"]) == Mission.from_dict(level.options["mission"])
    back.check()
    assert back.solution() == level.solution()


def test_tiled_opens_a_dungeon_with_its_rooms_and_mission(tmp_path):
    pytmx = pytest.importorskip("pytmx")
    level = mp.dungeon_level(rooms=12, locks=1, pattern="lock-and-key", seed=8)
    level.save(tmp_path / "dungeon.tmx", tile=8)
    tiled = pytmx.TiledMap(str(tmp_path / "dungeon.tmx"))
    rooms = {obj.name: obj for obj in tiled.get_layer_by_name("rooms")}
    m = Mission.from_json(tiled.properties["mission"])
    assert set(rooms) == {node.id for node in m.nodes} and m == Mission.from_dict(level.options["mission"])
    for node in m.nodes:
        assert rooms[node.id].type == node.kind
    start = rooms[m.start]  # the entrance stands inside the start room's rectangle
    x, y = level.entrance
    assert start.x < x * 8 < start.x + start.width and start.y < y * 8 < start.y + start.height
    assert {obj.type for obj in tiled.get_layer_by_name("things")} == {"key", "door"}
