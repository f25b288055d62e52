"""A dungeon's rooms (issue 33): polygon shapes (``shapes=``), maze rooms (``interior=``), and treasure and enemies
placed from the mission (``treasure=``, ``enemies=``). Each is opt-in: the dungeons made without them are today's
(tests/test_corpus.py and the other dungeon tests hold them), and the dungeons made with them are proven like
every dungeon — by the content engine (``level.check()``) and by the independent tile solver of
tests/test_dungeon_tile_oracle.py — with the tiles joining exactly the rooms the mission joins.
benchmarks/bench_dungeon.py runs 1,000 seeds per pattern with them."""

from __future__ import annotations

import numpy as np
import pytest

import mazeplugin as mp
from mazeplugin.dungeon import PATTERNS, SHAPES, MissionError, least_rooms
from mazeplugin.dungeon.shapes import shape_floor, shape_prefab
from test_dungeon_layout import joined_rooms
from test_dungeon_tile_oracle import TileOracle


def dungeon(pattern: str, seed: int, **options) -> mp.Level:
    rooms, locks = [(10, 1), (12, 2), (14, 3)][seed % 3]
    return mp.generate("dungeon", 44, 44, seed=seed, rooms=max(rooms, least_rooms(pattern, locks)), locks=locks,
                       pattern=pattern, **options)


def assert_proven(level: mp.Level) -> None:
    level.check()
    verdict = TileOracle(level).verdict()
    assert verdict["solvable"] and verdict["stranded"] == [] and verdict["needless"] == []
    graph = level.mission.graph
    carved = sorted(tuple(sorted((e.a, e.b))) for e in graph.edges if e.kind != "one-way")
    assert joined_rooms(level) == carved  # one corridor per edge and no other connection


def room_floor(level: mp.Level, room: dict) -> np.ndarray:
    """The room's cells that are floor, read off the tiles inside its outline."""
    x, y, w, h = room["x"], room["y"], room["width"], room["height"]
    return level.tiles[y + 1 : y + h - 1 : 2, x + 1 : x + w - 1 : 2] == mp.FLOOR


@pytest.mark.parametrize("shape", SHAPES)
def test_every_shape_is_one_piece_with_a_door_on_each_side_in_every_turn(shape):
    for w, h in ((3, 3), (4, 3), (4, 4), (5, 4)):
        for turn in range(4):
            floor = shape_floor(shape, w, h, turn)
            assert floor.shape == (h, w) and floor.sum() >= w + h - 1
            prefab = shape_prefab(shape, w, h, turn)  # a Prefab checks its floor is in one piece
            sides = {step for _, step in prefab.door_sides()}
            assert sides == {(0, -1), (0, 1), (-1, 0), (1, 0)}
            if shape != "rect":
                assert not floor.all()


@pytest.mark.parametrize("pattern", PATTERNS)
def test_polygon_rooms_are_laid_out_proven_and_joined_only_as_the_mission_says(pattern):
    shaped = 0
    for seed in range(4):
        level = dungeon(pattern, seed, shapes="mixed")
        assert_proven(level)
        for room in level.options["layout"]["rooms"]:
            assert room["shape"] in SHAPES
            floor = room_floor(level, room)
            shaped += not floor.all()
            if room["shape"] == "rect":
                assert floor.all()
    assert shaped > 0


def test_polygon_rooms_drawn_only_from_the_shapes_asked():
    level = dungeon("mixed", 2, shapes=("L", "plus"))
    assert {room["shape"] for room in level.options["layout"]["rooms"]} <= {"L", "plus", "rect"}
    assert {room["shape"] for room in level.options["layout"]["rooms"]} & {"L", "plus"}


@pytest.mark.parametrize("pattern", PATTERNS)
def test_maze_rooms_are_spanning_trees_and_the_dungeon_stays_proven(pattern):
    for seed in (1, 5):
        level = dungeon(pattern, seed, interior="backtracker", shapes="mixed")
        assert_proven(level)
        kinds = {node.id: node.kind for node in level.mission.graph.nodes}
        mazes = [room for room in level.options["layout"]["rooms"] if "interior" in room]
        assert {room["id"] for room in mazes} == {name for name, kind in kinds.items()
                                                  if kind not in ("start", "goal", "boss")}
        for room in mazes:
            x, y, w, h = room["x"], room["y"], room["width"], room["height"]
            inside = level.tiles[y + 1 : y + h - 1, x + 1 : x + w - 1] == mp.FLOOR
            cells = int(room_floor(level, room).sum())
            passages = int(inside.sum()) - cells
            assert passages == cells - 1  # a perfect maze: every cell joined, no loop


def test_maze_rooms_from_a_dict_and_their_own_stream():
    plan = mp.mission(rooms=12, locks=1, pattern="lock-and-key", seed=4)
    one = plan.layout(4, interior={"start": "wilson"})
    rooms = {room["id"]: room for room in one.options["layout"]["rooms"]}
    assert rooms["start"]["interior"] == "wilson" and "interior" not in rooms["goal"]
    assert_proven(one)
    other = plan.layout(4, interior={"start": "prim"})  # the same layout draws: only the start's inside differs
    assert [(r["x"], r["y"]) for r in other.options["layout"]["rooms"]] == [(r["x"], r["y"]) for r in
                                                                            one.options["layout"]["rooms"]]
    assert one.tiles.shape == other.tiles.shape and not np.array_equal(one.tiles, other.tiles)


def test_treasure_and_enemies_go_where_the_mission_says_and_the_proof_walls_the_patrols():
    level = dungeon("gauntlet", 0, treasure=3, enemies=3)
    assert_proven(level)
    plan = level.mission
    kinds = {room.id: room.kind for room in plan.nodes}
    treasure = [t for t in level.things if t.kind == "treasure"]
    enemies = [t for t in level.things if t.kind == "enemy"]
    assert len(treasure) == 3 and len(enemies) == 3
    boss = [room.id for room in plan.nodes if room.kind == "boss"]
    assert boss and enemies[0].props["room"] == boss[0]  # the boss's room is the first an enemy goes to
    for thing in treasure + enemies:
        room = plan.room(thing.props["room"])
        assert thing.tile in room.tiles and kinds[room.id] not in ("start", "goal")
    for enemy in enemies:
        assert all(tuple(t) in plan.room(enemy.props["room"]).tiles for t in enemy.props["patrol"])
    plain = dungeon("gauntlet", 0)
    assert np.array_equal(plain.tiles, level.tiles)  # its own stream: the same rooms, keys and doors
    assert [t for t in level.things if t.kind in ("key", "door")] == list(plain.things)


def test_enemies_in_maze_rooms_never_cut_a_way():
    for seed in range(6):
        level = dungeon("mixed", seed, interior="backtracker", enemies=4, treasure=2)
        assert_proven(level)  # level.check() walls every patrol and still reaches every key, treasure and the exit


def test_a_dungeon_code_holds_treasure_and_enemies_but_not_shapes_or_mazes():
    level = mp.generate("dungeon", 34, 34, seed=7, rooms=16, locks=2, pattern="gauntlet", treasure=2, enemies=1)
    code = mp.level_code(level)
    assert code == "dungeon-gauntlet-34x34-7+r16k2t2e1"
    again = mp.level_from_code(code)
    assert again.tiles.tobytes() == level.tiles.tobytes() and again.things == level.things
    for options, named in (({"shapes": "mixed"}, "shapes="), ({"interior": "backtracker"}, "interior=")):
        with pytest.raises(ValueError, match=f"no level code: it was made with {named}"):
            mp.level_code(mp.generate("dungeon", 34, 34, seed=7, **options))


@pytest.mark.parametrize("options, error, message", [
    ({"shapes": "star"}, ValueError, "'star' is not a room shape"),
    ({"shapes": []}, ValueError, "shapes must be"),
    ({"interior": "nosuch"}, ValueError, "interior: unknown algorithm 'nosuch'"),
    ({"interior": "union-find"}, ValueError, "leaves cells it is given unjoined"),
    ({"interior": "binary-tree", "shapes": "plus"}, ValueError, "cannot take a mask"),
    ({"interior": {"nowhere": "backtracker"}}, ValueError, "interior: the mission has no room 'nowhere'"),
    ({"interior": 3}, TypeError, "interior must be"),
    ({"treasure": -1}, ValueError, "treasure must be an int"),
    ({"enemies": 2.5}, ValueError, "enemies must be an int"),
    ({"enemies": 4000}, MissionError, "enemies=4000"),
])
def test_bad_room_options_are_refused_by_name(options, error, message):
    with pytest.raises(error, match=message):
        mp.dungeon_level(rooms=10, locks=1, pattern="gauntlet", seed=3, **options)


def test_prefabs_do_not_mix_with_shapes_or_mazes():
    with pytest.raises(ValueError, match="leave shapes= and interior= out"):
        mp.dungeon_level(rooms=10, seed=3, prefabs=[mp.Prefab.rectangle(3, 3)], shapes="mixed")


@pytest.mark.parametrize("suffix", ["json", "tmx"])
def test_a_dungeon_with_its_rooms_options_saves_and_loads_whole(tmp_path, suffix):
    level = mp.generate("dungeon", 48, 48, seed=7, rooms=16, locks=2, pattern="gauntlet", shapes=("L", "T"),
                        interior="backtracker", treasure=2, enemies=2)
    path = tmp_path / f"dungeon.{suffix}"
    level.save(path)
    back = mp.load(path)
    back.check()
    assert back.tiles.tobytes() == level.tiles.tobytes() and back.things == level.things
    assert back.options["dungeon"]["shapes"] == ["L", "T"] and back.options["dungeon"]["interior"] == "backtracker"
    assert [room.tiles for room in back.mission.nodes] == [room.tiles for room in level.mission.nodes]
