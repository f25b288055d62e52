"""Open areas in the maze model: open corners and rooms, drawn, walked, measured and saved."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples

import mazeplugin as mp
from mazeplugin import analysis
from mazeplugin.formats import jsonio
from mazeplugin.formats.rebuild import level_from_tiles
from mazeplugin.maze import Maze
from mazeplugin.tiles import Layout, Opening, base_tiles
from mazecheck import floor_components

PERFECT = [name for name in mp.algorithms() if mp.get_generator(name).perfect]


def open_rectangle(maze: Maze, x: int, y: int, w: int, h: int, room: int) -> None:
    """Make cells x..x+w-1, y..y+h-1 one open room numbered ``room`` (the test's own carving)."""
    maze.east[y : y + h, x : x + w - 1] = True
    maze.south[y : y + h - 1, x : x + w] = True
    maze.corners[y : y + h - 1, x : x + w - 1] = True
    maze.rooms[y : y + h, x : x + w] = room


@st.composite
def levels_with_a_room(draw):
    """A perfect maze with one rectangle opened into a room afterwards, as a Level with border markers."""
    algorithm = draw(st.sampled_from(PERFECT))
    width, height = draw(st.integers(2, 12)), draw(st.integers(2, 12))
    level = mp.generate(algorithm, width, height, seed=draw(st.integers(0, 2**32)))
    maze = level.maze.copy()
    w, h = draw(st.integers(2, width)), draw(st.integers(2, height))
    x, y = draw(st.integers(0, width - w)), draw(st.integers(0, height - h))
    open_rectangle(maze, x, y, w, h, 1)
    maze.check()
    openings = [Opening((0, 0), "west"), Opening((width - 1, height - 1), "east")]
    layout = Layout(width, height)
    return mp.Level(
        maze,
        layout=layout,
        entrance=layout.opening_tile(openings[0]),
        exit=layout.opening_tile(openings[1]),
        openings=openings,
    ), (x, y, w, h)


def test_open_corner_is_drawn_as_floor():
    maze = Maze(2, 2)
    open_rectangle(maze, 0, 0, 2, 2, 1)
    assert base_tiles(maze).tolist() == [
        [1, 1, 1, 1, 1],
        [1, 0, 0, 0, 1],
        [1, 0, 0, 0, 1],
        [1, 0, 0, 0, 1],
        [1, 1, 1, 1, 1],
    ]


def test_perfect_generators_never_open_corners_or_rooms():
    for name in PERFECT:
        maze = mp.generate(name, 9, 7, seed=3).maze
        assert not maze.corners.any() and not maze.rooms.any(), name


@settings(max_examples=examples(60), deadline=None)
@given(case=levels_with_a_room())
def test_open_areas_never_break_connectivity(case):
    level, _ = case
    labels = floor_components(level.tiles)
    assert len(np.unique(labels[level.tiles == mp.FLOOR])) == 1, "an open area cut the level in two"
    path = level.solution()
    assert path[0] == level.entrance and path[-1] == level.exit
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        assert abs(x0 - x1) + abs(y0 - y1) == 1 and level.tiles[y1, x1] == mp.FLOOR


@settings(max_examples=examples(60), deadline=None)
@given(case=levels_with_a_room())
def test_dead_ends_never_list_a_room_cell(case):
    level, (x, y, w, h) = case
    for cx, cy in level.dead_ends():
        assert not (x <= cx < x + w and y <= cy < y + h)
    assert level.stats().dead_ends == len(level.dead_ends())


@settings(max_examples=examples(60), deadline=None)
@given(case=levels_with_a_room())
def test_round_trips_keep_open_corners_and_rooms(case, tmp_path_factory):
    level, _ = case
    again = mp.from_json(level.to_json())
    path = tmp_path_factory.mktemp("npy") / "room.npy"
    level.save(path)
    for loaded in (again, mp.load(path)):
        assert np.array_equal(loaded.tiles, level.tiles)
        assert np.array_equal(loaded.maze.corners, level.maze.corners)
        assert np.array_equal(loaded.maze.rooms, level.maze.rooms)
        assert loaded.stats() == level.stats()
        assert loaded.solution() == level.solution()


@settings(max_examples=40, deadline=None)
@given(levels_with_a_room(), st.data())
def test_distances_through_open_rooms_are_breadth_first_tile_distances(case, data):
    level, _ = case
    floor = np.argwhere(level.tiles == mp.FLOOR)
    y, x = (int(v) for v in floor[data.draw(st.integers(0, len(floor) - 1))])
    dist = level.distances((x, y))
    # Recompute by a plain breadth-first search over the floor tiles.
    want = np.full(level.tiles.shape, -1)
    want[y, x] = 0
    frontier, d = [(x, y)], 0
    while frontier:
        d += 1
        nxt = []
        for fx, fy in frontier:
            for nx, ny in ((fx, fy - 1), (fx + 1, fy), (fx, fy + 1), (fx - 1, fy)):
                if level.is_floor((nx, ny)) and want[ny, nx] < 0:
                    want[ny, nx] = d
                    nxt.append((nx, ny))
        frontier = nxt
    assert np.array_equal(dist, want)


def test_a_room_is_one_place_in_the_stats():
    # One 3 x 3 room with a one-cell corridor off its east side: no loops, no
    # dead end inside the room, the corridor cell is the only dead end.
    maze = Maze(4, 3)
    maze.mask[0, 3] = maze.mask[2, 3] = False
    open_rectangle(maze, 0, 0, 3, 3, 1)
    maze.open(maze.cell_id(2, 1), maze.cell_id(3, 1))
    maze.check()
    s = analysis.stats(maze)
    assert (s.dead_ends, s.junctions, s.loops) == (1, 0, 0)
    assert analysis.dead_ends(maze) == [(3, 1)]


def test_two_doors_from_a_room_into_one_corridor_make_one_loop():
    maze = Maze(3, 3)
    open_rectangle(maze, 0, 0, 2, 2, 1)
    # Corridor 1,0 -> 2,0 -> 2,1 -> 1,1: the room's east side has two doors into it.
    maze.open_many([1, 2, 5], [2, 5, 4])
    maze.mask[2, :] = False
    maze.check()
    assert analysis.stats(maze).loops == 1


def test_braid_leaves_pillars_standing():
    # Braiding joins dead ends by opening walls only; corners stay wall.
    level = mp.generate("backtracker", 20, 20, seed=5, braid=1)
    assert not level.maze.corners.any()
    assert (level.tiles[0::2, 0::2] == mp.WALL).all()


def test_check_refuses_a_corner_whose_cells_are_not_joined():
    maze = Maze(2, 2)
    maze.open_many([0, 0, 1], [1, 2, 3])
    maze.corners[0, 0] = True
    with pytest.raises(ValueError, match=r"corner between cells \(0, 0\) and \(1, 1\) is open"):
        maze.check()


def test_check_refuses_a_room_split_in_two():
    maze = Maze(3, 1)
    maze.rooms[0, 0] = maze.rooms[0, 2] = 1
    with pytest.raises(ValueError, match="room 1's cells are not all joined"):
        maze.check()


def test_loaded_tilemap_with_a_loose_corner_is_refused():
    tiles = np.ones((5, 5), dtype=np.uint8)
    tiles[1:4, 1:4] = 0
    tiles[2, 1] = 1  # (0,0) and (0,1) no longer joined: the corner (2, 2) cannot be floor
    with pytest.raises(mp.LevelFormatError, match=r"tile \(2, 2\) is floor.*open area"):
        level_from_tiles(tiles)


def test_rebuilt_rooms_are_numbered_by_their_first_cell():
    maze = Maze(5, 2)
    open_rectangle(maze, 3, 0, 2, 2, 1)
    open_rectangle(maze, 0, 0, 2, 2, 2)
    maze.check()
    loaded = level_from_tiles(base_tiles(maze))
    assert loaded.maze.rooms.tolist() == [[1, 1, 0, 2, 2], [1, 1, 0, 2, 2]]
