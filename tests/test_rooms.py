"""Rooms in any generator: rooms=, doors=, room_size=, prefabs, and the errors for bad rooms."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazecheck import assert_pillars_are_wall, assert_valid_solution, digest, floor_components, pillared_prefabs

ROOM_GENERATORS = sorted(
    name for name in mp.algorithms() if mp.get_generator(name).masks and mp.get_generator(name).fills
)

VAULT = """
###+#####+###
#...........#
#.#.#...#.#.#
+...........+
#.#.#...#.#.#
#...........#
#######+#####
"""

INNER_WALL = """
#########
#...#...#
#...#...#
#.......#
###+#####
"""


def room_doors(maze: mp.Maze, number: int) -> int:
    """Open passages from room ``number`` to cells outside it, counted from the model."""
    a, b = maze.passages()
    ra, rb = maze.rooms.flat[a], maze.rooms.flat[b]
    return int(((ra == number) != (rb == number)).sum())


def assert_one_piece(level: mp.Level) -> None:
    labels = floor_components(level.tiles)
    assert len(np.unique(labels[level.tiles == mp.FLOOR])) == 1, "the level is in pieces"


@settings(max_examples=40, deadline=None)
@given(
    algorithm=st.sampled_from(ROOM_GENERATORS),
    width=st.integers(8, 24),
    height=st.integers(8, 20),
    count=st.integers(1, 3),
    seed=st.integers(0, 2**32),
    markers=st.sampled_from(["border", "farthest", "random"]),
)
def test_random_rooms_are_open_joined_and_the_level_is_one_piece(algorithm, width, height, count, seed, markers):
    try:
        level = mp.generate(algorithm, width, height, seed=seed, rooms=count, room_size=(2, 3), markers=markers)
    except ValueError as error:  # rooms thrown at random can leave no place for the last one
        assert "does not fit" in str(error)
        reject()
    maze = level.maze
    numbers = sorted(set(maze.rooms[maze.rooms > 0].tolist()))
    assert len(numbers) >= count
    for number in numbers:
        assert room_doors(maze, number) >= 1, f"room {number} has no door"
        # The room is open floor: every corner among its cells is open.
        r = maze.rooms == number
        inner = r[:-1, :-1] & r[1:, :-1] & r[:-1, 1:] & r[1:, 1:]
        assert (maze.corners[inner]).all()
    if algorithm != "rooms":  # the rooms generator fills dead ends in: cells leave the mask
        assert maze.mask.all()
    assert_one_piece(level)
    assert_valid_solution(level)
    assert_pillars_are_wall(level)
    assert not set(level.dead_ends()) & {tuple(c) for c in np.argwhere(maze.rooms > 0)[:, ::-1].tolist()}


@settings(max_examples=30, deadline=None)
@given(
    # The rooms generator fills dead-end corridors in afterwards, doors into them included.
    algorithm=st.sampled_from([name for name in ROOM_GENERATORS if name != "rooms"]),
    seed=st.integers(0, 2**32),
    doors=st.integers(1, 4),
)
def test_each_room_gets_the_doors_asked_for_where_it_has_room_for_them(algorithm, seed, doors):
    level = mp.generate(algorithm, 30, 20, seed=seed, rooms=[(2, 2, 4, 3), (20, 10, 5, 5)], doors=doors)
    assert room_doors(level.maze, 1) >= doors and room_doors(level.maze, 2) >= doors
    assert_one_piece(level)


def test_doors_as_a_chance_opens_more_doors_with_a_larger_chance():
    few = mp.generate("kruskal", 30, 20, seed=1, rooms=[(5, 5, 6, 6)], doors=0.0)
    many = mp.generate("kruskal", 30, 20, seed=1, rooms=[(5, 5, 6, 6)], doors=0.8)
    assert room_doors(few.maze, 1) == 1
    assert room_doors(many.maze, 1) > 6


def test_levels_without_rooms_are_unchanged_by_the_room_layer():
    for algorithm in ROOM_GENERATORS:
        plain = mp.generate(algorithm, 15, 11, seed=9)
        assert digest(mp.generate(algorithm, 15, 11, seed=9, rooms=0)) == digest(plain), algorithm
        assert digest(mp.generate(algorithm, 15, 11, seed=9, rooms=[])) == digest(plain), algorithm


def test_a_rectangle_room_lies_where_it_was_asked():
    level = mp.generate("kruskal", 40, 30, seed=7, rooms=[(4, 4, 8, 6), (28, 20, 6, 6)])
    rooms = level.maze.rooms
    assert (rooms[4:10, 4:12] == 1).all() and (rooms[20:26, 28:34] == 2).all()
    assert (rooms > 0).sum() == 8 * 6 + 6 * 6
    # The room's tiles are all floor, corners included.
    assert (level.tiles[2 * 4 + 1 : 2 * 10, 2 * 4 + 1 : 2 * 12] == mp.FLOOR).all()


def test_a_prefab_keeps_its_designed_inside():
    prefab = mp.Prefab.from_text(VAULT, at=(10, 8))
    level = mp.generate("backtracker", 40, 30, seed=7, rooms=[prefab])
    block = level.tiles[16 : 16 + 7, 20 : 20 + 13].copy()
    inside = prefab.tiles.copy()
    # Inside the outline the tiles are exactly the prefab's; the outline is wall but for doors at marks.
    assert (block[1:-1, 1:-1] == inside[1:-1, 1:-1]).all()
    opened = (block == mp.FLOOR) & (prefab.tiles == mp.WALL)
    assert opened.any() and (prefab.doors[opened]).all()


def test_a_prefab_with_an_inner_wall_is_one_room():
    prefab = mp.Prefab.from_text(INNER_WALL)
    level = mp.generate("wilson", 20, 14, seed=2, rooms=[prefab], doors=1)
    maze = level.maze
    assert maze.rooms.max() == 1 and (maze.rooms == 1).sum() == 8
    assert room_doors(maze, 1) == 1
    assert_valid_solution(level)


def test_prefabs_scale_with_corridor_and_wall():
    prefab = mp.Prefab.from_text(VAULT, at=(2, 3))
    base = mp.generate("prim", 12, 10, seed=4, rooms=[prefab])
    wide = mp.generate("prim", 12, 10, seed=4, rooms=[prefab], corridor=3, wall=2)
    assert np.array_equal(wide.tiles, wide.layout.expand(base.tiles))
    assert_valid_solution(wide)


def test_markers_may_sit_in_rooms():
    level = mp.generate("backtracker", 10, 8, seed=1, rooms=[(0, 0, 3, 3), (7, 5, 3, 3)])
    assert level.maze.rooms[0, 0] == 1 and level.maze.rooms[7, 9] == 2
    assert level.entrance == (0, 1) and level.exit == (20, 15)
    assert_valid_solution(level)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), prune=st.sampled_from([0.0, 1.0]))
def test_rooms_inside_the_rooms_generator_are_joined(seed, prune):
    level = mp.generate("rooms", 24, 18, seed=seed, rooms=[mp.Prefab.from_text(INNER_WALL)], prune=prune)
    assert_one_piece(level)
    assert_valid_solution(level)


@pytest.mark.parametrize("seed", [514, 547, 710])
def test_a_prefab_whose_door_faces_a_pocket_fenced_in_by_rooms_is_joined(seed):
    # The prefab's one door opens onto a few cells shut in by a room of the generator's and the border;
    # a corridor cannot reach them without a door in that room's wall (these seeds once raised
    # "a piece of the maze cannot be joined to the rest").
    prefab = mp.Prefab.from_text(INNER_WALL)
    level = mp.generate("rooms", 24, 18, seed=seed, rooms=[prefab], prune=1.0)
    assert_one_piece(level)
    assert_valid_solution(level)
    number = int(level.maze.rooms.max())  # the prefab: numbered after the generator's rooms
    assert room_doors(level.maze, number) == 1  # its doors stay where its mark is


def test_a_masked_level_keeps_rooms_inside_the_mask():
    heart = [".##...##.", "####.####", "#########", ".#######.", "..#####..", "...###...", "....#...."]
    level = mp.generate("wilson", 9, 7, seed=3, mask=heart, rooms=[(2, 2, 3, 2)])
    assert (level.maze.rooms[2:4, 2:5] == 1).all()
    assert_valid_solution(level)


def test_levels_with_rooms_round_trip_through_json():
    level = mp.generate("wilson", 20, 15, seed=5, rooms=[mp.Prefab.from_text(VAULT)], doors=2)
    again = mp.from_json(level.to_json())
    assert np.array_equal(again.tiles, level.tiles)
    assert np.array_equal(again.maze.corners, level.maze.corners)
    assert again.options["rooms"][0]["prefab"] == mp.Prefab.from_text(VAULT).to_text()
    # The recorded options make the same level again.
    options = dict(level.options)
    assert digest(mp.generate("wilson", 20, 15, seed=5, **options)) == digest(level)


# -- bad input ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs,error,match",
    [
        ({"rooms": [(0, 0, 4, 4), (2, 2, 4, 4)]}, ValueError, r"room 2 at \(2, 2\) overlaps room 1 at \(0, 0\)"),
        ({"rooms": [(8, 0, 4, 4)]}, ValueError, r"room 1 at \(8, 0\).*runs past the border"),
        ({"rooms": [(-1, 0, 4, 4)]}, ValueError, r"room 1 at \(-1, 0\).*runs past the border"),
        ({"rooms": [(0, 0, 20, 4)]}, ValueError, r"room 1 \(20 × 4 cells\) is too large for a 10 × 8-cell maze"),
        ({"rooms": [(0, 0, 2, 2)], "mask": ["..########"] + ["##########"] * 7}, ValueError, "room 1 at .* covers cells outside the mask"),
        ({"rooms": 30}, ValueError, r"room \d+ \(\d × \d cells\) does not fit"),
        ({"rooms": -1}, ValueError, "rooms must be from 0"),
        ({"rooms": 10**6}, ValueError, "rooms must be from 0 to 10,000"),
        ({"rooms": "3"}, TypeError, "rooms must be a count or a list"),
        ({"rooms": True}, TypeError, "not bool"),
        ({"rooms": [(0, 0, 3)]}, TypeError, r"rooms\[0\] must be an \(x, y, w, h\) rectangle"),
        ({"rooms": [(0, 0, 0, 3)]}, ValueError, "room 1 .* must be at least 1 × 1"),
        ({"rooms": 2, "doors": 0}, ValueError, "doors must be a count from 1 to 64"),
        ({"rooms": 2, "doors": 1.5}, ValueError, "or a chance from 0.0 to 1.0"),
        ({"rooms": 2, "doors": "many"}, TypeError, "doors must be a count"),
        ({"doors": 2}, ValueError, "doors= applies to rooms"),
        ({"room_size": (2, 3)}, ValueError, "room_size= applies to rooms"),
        ({"rooms": [(0, 0, 3, 3)], "room_size": (2, 3)}, ValueError, "room_size= sizes random rooms"),
        ({"rooms": 2, "room_size": (4, 2)}, ValueError, "room_size must satisfy"),
        ({"rooms": 2, "room_size": 3}, TypeError, "room_size must be a"),
    ],
)
def test_bad_rooms_are_refused_clearly(kwargs, error, match):
    with pytest.raises(error, match=match):
        mp.generate("backtracker", 10, 8, seed=1, **kwargs)


def test_generators_that_cannot_take_rooms_say_so():
    with pytest.raises(ValueError, match="'eller' cannot leave room for rooms"):
        mp.generate("eller", 10, 8, seed=1, rooms=1)
    with pytest.raises(ValueError, match="'union-find' leaves sealed cells"):
        mp.generate("union-find", 10, 8, seed=1, rooms=1)


def test_a_room_with_no_place_for_a_door_is_refused():
    closed = mp.Prefab.from_text("#+###\n#...#\n#####", at=(0, 0))  # its only mark faces the border
    with pytest.raises(ValueError, match=r"room 1 at \(0, 0\) has no place for a door"):
        mp.generate("kruskal", 6, 4, seed=1, rooms=[closed])


@pytest.mark.parametrize(
    "text,match",
    [
        ("###\n#.\n###", "rows must all have the same length: row 2 has 2 characters, row 1 has 3"),
        ("#####\n#...#\n#####", "prefab has no door marks"),
        ("#+##\n#..#\n####", r"\(2 × height \+ 1\) rows of \(2 × width \+ 1\) tiles"),
        ("#+###\n#.x.#\n#####", "row 2 has 'x'"),
        ("+####\n#...#\n#####", r"door mark at tile \(0, 0\) is not beside a floor cell"),
        ("#+###\n#.+.#\n#####", r"door mark at tile \(2, 1\) is inside the room"),
        ("#+###\n..#.#\n#####", r"outline tile \(0, 1\) is floor"),
        ("#+###\n#.#.#\n#####", "floor is in pieces"),
        ("#+###\n#..##\n#####", r"floor tile between cell \(0, 0\) and a solid cell"),
        ("#+###\n#.#.#\n#...#\n#...#\n#####", r"corner tile \(2, 2\) is floor, but the four cells"),
        ("", "prefab text is empty"),
    ],
)
def test_bad_prefab_text_is_refused_clearly(text, match):
    with pytest.raises(ValueError, match=match):
        mp.Prefab.from_text(text)


def test_prefab_at_must_be_a_cell():
    with pytest.raises(TypeError, match="prefab at= must be an"):
        mp.Prefab.from_text("#+#\n#.#\n###", at=(1.5, 2))


@settings(max_examples=40, deadline=None)
@given(prefab=pillared_prefabs(), seed=st.integers(0, 2**32), algorithm=st.sampled_from(["kruskal", "backtracker", "wilson"]))
def test_any_prefab_placed_at_random_is_joined_and_keeps_its_inside(prefab, seed, algorithm):
    level = mp.generate(algorithm, 14, 10, seed=seed, rooms=[prefab], markers="farthest")  # no opening in its outline
    maze = level.maze
    ys, xs = np.nonzero(maze.rooms == 1)
    x, y = int(xs.min()), int(ys.min())
    block = level.tiles[2 * y : 2 * (y + prefab.height) + 1, 2 * x : 2 * (x + prefab.width) + 1]
    assert (block[1:-1, 1:-1] == prefab.tiles[1:-1, 1:-1]).all()
    opened = (block == mp.FLOOR) & (prefab.tiles == mp.WALL)
    assert opened.any() and prefab.doors[opened].all()
    assert_one_piece(level)
    assert_valid_solution(level)
