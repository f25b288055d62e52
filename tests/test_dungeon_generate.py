"""``mp.generate("dungeon", width, height, ...)``, ``level.mission`` and dungeon level codes (issue 33's names):
the dungeon fits the size asked or the error names it; the mission on the tiles accounts for every floor tile;
a code makes the same bytes again and a bad one is refused by name. The mission itself and its layout are
tested in test_dungeon_grammar.py and test_dungeon_layout.py."""

from __future__ import annotations

import numpy as np
import pytest

import mazeplugin as mp
from mazeplugin.dungeon import PATTERNS, MissionError, least_rooms


def dungeon(pattern: str, seed: object, rooms: int = 12, locks: int = 2, size: int = 32) -> mp.Level:
    return mp.generate("dungeon", size, size, seed=seed, rooms=max(rooms, least_rooms(pattern, locks)), locks=locks,
                       pattern=pattern)


@pytest.mark.parametrize("pattern", PATTERNS)
def test_generate_dungeon_gives_a_proven_level_of_exactly_the_size_asked(pattern):
    level = dungeon(pattern, 3, size=30)
    assert (level.width, level.height, level.tiles.shape) == (30, 30, (61, 61))
    assert level.algorithm == "dungeon" and level.seed == 3
    level.check()
    walk = level.solution()
    assert walk[0] == level.entrance and walk[-1] == level.exit
    assert dungeon(pattern, 3, size=30).tiles.tobytes() == level.tiles.tobytes()


def test_the_same_mission_in_a_larger_size_is_the_same_dungeon_framed_in_more_wall():
    small, large = dungeon("mixed", 5, size=28), dungeon("mixed", 5, size=44)
    assert large.tiles.sum() > small.tiles.sum()  # more wall round it
    assert large.mission.graph.to_dict() == small.mission.graph.to_dict()
    assert mp.dungeon_level(rooms=12, locks=1, pattern="mixed", seed=4).algorithm == "dungeon"  # still there


def test_a_mission_too_large_for_the_size_is_refused_naming_the_size_with_a_hint():
    with pytest.raises(MissionError, match=r"width=10, height=10.*more space.*fewer rooms"):
        mp.generate("dungeon", 10, 10, seed=1, rooms=20, locks=4)
    with pytest.raises(MissionError, match=r"width=22, height=12.*more space.*fewer rooms"):
        mp.generate("dungeon", 22, 12, seed=1, rooms=20, locks=4, attempts=2)
    assert isinstance(MissionError("x"), ValueError)


def test_a_mission_is_given_as_a_graph_a_dict_or_a_file(tmp_path):
    plan = mp.mission(rooms=10, locks=1, pattern="lock-and-key", seed=9)
    level = mp.generate("dungeon", 30, 30, mission=plan)
    assert level.seed == 9 and level.mission.graph.to_dict() == plan.to_dict()
    plan.save(tmp_path / "plan.json")
    for given in (plan.to_dict(), str(tmp_path / "plan.json"), tmp_path / "plan.json"):
        assert mp.generate("dungeon", 30, 30, mission=given).tiles.tobytes() == level.tiles.tobytes()
    other = mp.generate("dungeon", 30, 30, mission=plan, seed=10)
    assert other.seed == 10 and other.tiles.tobytes() != level.tiles.tobytes()
    with pytest.raises(ValueError, match=r"takes its rooms and locks from the mission.*'rooms'"):
        mp.generate("dungeon", 30, 30, mission=plan, rooms=10)
    with pytest.raises(TypeError, match="mission must be"):
        mp.generate("dungeon", 30, 30, mission=3)


@pytest.mark.parametrize("argument, value", [("keys", 2), ("markers", "farthest"), ("braid", 0.5), ("corridor", 2),
                                             ("grid", "hex"), ("wrap", "x"), ("weave", True), ("mask", ["##"]),
                                             ("require", {"dead_ends": (1, None)}), ("doors", 2)])
def test_arguments_a_dungeon_does_not_take_are_refused_by_name(argument, value):
    with pytest.raises(ValueError, match=f"does not take {argument}="):
        mp.generate("dungeon", 30, 30, seed=1, **{argument: value})
    with pytest.raises(TypeError, match="unexpected option 'size'"):
        mp.generate("dungeon", 30, 30, seed=1, size=3)
    with pytest.raises(ValueError, match="width"):
        mp.generate("dungeon", 0, 30, seed=1)


def test_level_mission_is_none_on_other_levels():
    assert mp.generate("kruskal", 5, 4, seed=1).mission is None
    assert mp.generate("wilson", 20, 16, seed=1, rooms=2, keys=1).mission is None


@pytest.mark.parametrize("pattern", ["hidden", "mixed", "lock-and-key"])
def test_level_mission_accounts_for_every_floor_tile_and_every_door(pattern):
    level = dungeon(pattern, 11, rooms=14, locks=2)
    plan = level.mission
    graph = plan.graph
    assert [room.id for room in plan.nodes] == [node.id for node in graph.nodes]
    assert [edge.edge for edge in plan.edges] == list(graph.edges)
    covered = np.zeros(level.tiles.shape, dtype=bool)
    for room in plan.nodes:
        for x, y in room.tiles:
            assert level.tiles[y, x] == mp.FLOOR and plan.room_at((x, y)) == room
            covered[y, x] = True
    assert level.entrance in plan.room(graph.start).tiles and level.exit in plan.room(graph.goal).tiles
    doors = {(t.x, t.y) for t in level.things if t.kind == "door"}
    for edge in plan.edges:
        if edge.kind == "one-way":
            assert not edge.carved and edge.tiles == ()
            continue
        tiles = edge.tiles
        assert edge.carved and all(level.tiles[y, x] == mp.FLOOR for x, y in tiles)
        assert all(abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1 for p, q in zip(tiles, tiles[1:]))  # one walk
        assert plan.room_at(tiles[0]).id == edge.edge.a and plan.room_at(tiles[-1]).id == edge.edge.b
        assert all(plan.room_at(t) is None for t in tiles[1:-1])
        assert (edge.door is not None) == (edge.kind == "locked") and (edge.door is None or edge.door in tiles)
        assert (edge.secret is not None) == (edge.kind == "hidden")
        for x, y in tiles:
            assert not covered[y, x], "a corridor shares no tile with a room or another corridor"
            covered[y, x] = True
    assert {e.door for e in plan.edges if e.door} == doors
    assert np.array_equal(covered, level.tiles == mp.FLOOR)  # every floor tile is a room's or one edge's
    with pytest.raises(KeyError, match="no room 'nowhere'"):
        plan.room("nowhere")


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("seed", [0, "castle"])
def test_a_dungeon_level_code_makes_the_same_bytes_again(pattern, seed):
    level = dungeon(pattern, seed, size=34)
    code = mp.level_code(level)
    rooms = level.options["dungeon"]["rooms"]
    assert code == f"dungeon-{pattern}-34x34-{seed}+r{rooms}k2"
    again = mp.level_from_code(code)
    assert again.tiles.tobytes() == level.tiles.tobytes() and again.things == level.things
    assert (again.seed, again.entrance, again.exit, again.options) == (level.seed, level.entrance, level.exit,
                                                                       level.options)
    assert mp.level_code(again) == code


def test_a_short_dungeon_code_means_the_defaults():
    level = mp.level_from_code("dungeon-30x30-4")
    assert mp.level_code(level) == "dungeon-mixed-30x30-4+r12k1"
    assert mp.generate("dungeon", 30, 30, seed=4).tiles.tobytes() == level.tiles.tobytes()


@pytest.mark.parametrize("code, message", [
    ("dungeon-nosuch-30x30-7+r12k2", "'nosuch' is not a dungeon pattern"),
    ("dungeon-mixed-30x30-7+r12k2wrapx", "only r \\(rooms\\), k \\(locks\\).*not wrap"),
    ("dungeon-mixed-30x30-7+r12k1w", "not weave"),
    ("dungeon-mixed-hex30x30-7", "not grid hex"),
    ("dungeon-mixed-8x8-7+r20k4", "width=8, height=8.*more space"),
    ("dungeon-lock-and-key-30x30-7+r12k0", "locks=1 or more"),
])
def test_a_bad_dungeon_code_is_refused_clearly(code, message):
    with pytest.raises(ValueError, match=message):
        mp.level_from_code(code)


def test_a_dungeon_made_from_what_a_code_cannot_hold_has_no_code():
    plan = mp.mission(rooms=10, locks=1, pattern="two-paths", seed=2)
    for level, why in ((mp.generate("dungeon", 30, 30, mission=plan), "from a mission given to it"),
                       (mp.generate("dungeon", 30, 30, seed=2, branching=0.5), "made with branching="),
                       (mp.generate("dungeon", 30, 30, seed=2, attempts=8), "made with attempts="),
                       (mp.dungeon_level(plan), "from a mission given to it")):
        with pytest.raises(ValueError, match=f"no level code: it was (laid out )?{why}"):
            mp.level_code(level)
    with pytest.raises(ValueError, match="holds '\\+'"):
        mp.level_code(mp.generate("dungeon", 30, 30, seed="a+b"))


@pytest.mark.parametrize("suffix", ["json", "tmx", "tmj"])
def test_a_saved_dungeon_loads_with_its_code_and_its_mission_on_the_tiles(tmp_path, suffix):
    level = mp.generate("dungeon", 30, 30, seed=3, rooms=15, locks=2, pattern="hidden")
    level.save(tmp_path / f"d.{suffix}")
    back = mp.load(tmp_path / f"d.{suffix}")
    assert back.tiles.tobytes() == level.tiles.tobytes() and back.things == level.things
    assert mp.level_code(back) == mp.level_code(level) == "dungeon-hidden-30x30-3+r15k2"
    assert back.mission == level.mission
