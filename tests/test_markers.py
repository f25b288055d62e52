"""Entrance and exit markers: where each mode puts them, and that they are always joined."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mazeplugin as mp
from mazecheck import assert_valid_solution


def test_border_markers_open_west_of_top_left_and_east_of_bottom_right():
    level = mp.generate("kruskal", 20, 15, seed=7)
    assert level.entrance == (0, 1)
    assert level.exit == (40, 29)
    assert level.tiles[1, 0] == mp.FLOOR and level.tiles[29, 40] == mp.FLOOR
    assert_valid_solution(level)


def _cell_tree_diameter(level: mp.Level) -> int:
    """Longest shortest path between two cells, by brute force over all cells."""
    cells = [(2 * x + 1, 2 * y + 1) for y in range(level.height) for x in range(level.width)]
    return max(int(level.distances(c)[1::2, 1::2].max()) for c in cells)


@pytest.mark.parametrize("algorithm", ["kruskal", "backtracker", "prim", "eller"])
@pytest.mark.parametrize("seed", range(4))
def test_farthest_markers_span_the_longest_path(algorithm, seed):
    level = mp.generate(algorithm, 7, 6, seed=seed, markers="farthest")
    path = level.solution()
    # In a perfect maze (no border openings here) the tile diameter is reached between cells.
    assert len(path) - 1 == _cell_tree_diameter(level)
    for x, y in (level.entrance, level.exit):
        assert x % 2 == 1 and y % 2 == 1, "farthest markers sit on cells"


@given(seed=st.integers(0, 10**9), width=st.integers(1, 12), height=st.integers(1, 12))
def test_random_markers_are_two_different_border_openings(seed, width, height):
    level = mp.generate("kruskal", width, height, seed=seed, markers="random")
    h, w = level.tiles.shape
    assert level.entrance != level.exit
    for x, y in (level.entrance, level.exit):
        assert x in (0, w - 1) or y in (0, h - 1)
        assert level.tiles[y, x] == mp.FLOOR
    assert_valid_solution(level)
    again = mp.generate("kruskal", width, height, seed=seed, markers="random")
    assert (again.entrance, again.exit) == (level.entrance, level.exit)


def test_random_markers_vary_with_the_seed():
    pairs = {
        (lvl.entrance, lvl.exit)
        for lvl in (mp.generate("prim", 10, 10, seed=s, markers="random") for s in range(30))
    }
    assert len(pairs) > 20


def test_no_markers():
    level = mp.generate("eller", 5, 5, seed=1, markers="none")
    assert level.entrance is None and level.exit is None
    assert (level.tiles[0, :] == mp.WALL).all() and (level.tiles[:, 0] == mp.WALL).all()
    with pytest.raises(ValueError, match="no entrance and exit"):
        level.solution()
    assert (level.marked() == level.tiles).all()


def test_caller_markers_on_cells_and_border():
    level = mp.generate("backtracker", 6, 4, seed=2, markers=((5, 3), (12, 7)))
    assert level.entrance == (5, 3) and level.exit == (12, 7)
    assert level.tiles[7, 12] == mp.FLOOR  # the border tile beside cell (5, 3) opened
    assert_valid_solution(level)
    ring = level.tiles.copy()
    ring[1:-1, 1:-1] = mp.WALL
    assert int((ring == mp.FLOOR).sum()) == 1


def test_marked_writes_entrance_and_exit_codes():
    level = mp.generate("kruskal", 4, 4, seed=1)
    marked = level.marked()
    assert marked.dtype == np.int8
    assert marked[level.entrance[1], level.entrance[0]] == mp.ENTRANCE == 2
    assert marked[level.exit[1], level.exit[0]] == mp.EXIT == 3
    assert level.tiles[level.entrance[1], level.entrance[0]] == mp.FLOOR  # tiles untouched
    other = marked.copy()
    other[other >= 2] = 0
    assert (other == level.tiles).all()


@pytest.mark.parametrize(
    "markers,message",
    [
        (((0, 0), (3, 3)), "wall tile"),  # corner pillar
        (((2, 2), (3, 3)), "wall tile"),  # inner pillar
        (((2, 1), (3, 3)), "wall tile"),  # between two cells: wall or passage, not known before
        (((1, 1), (99, 1)), "outside the map"),
        (((1, 1), (-1, 1)), "outside the map"),
        (((1, 1), (1, 1)), "different tiles"),
        ("middle", "markers must be one of"),
    ],
)
def test_bad_markers_are_rejected_before_any_work(markers, message):
    with pytest.raises(ValueError, match=message):
        mp.generate("kruskal", 4, 4, seed=1, markers=markers)


@pytest.mark.parametrize("markers", [((1, 1),), 5, ((1.0, 1), (3, 3)), (("a", 1), (3, 3))])
def test_malformed_markers_are_type_errors(markers):
    with pytest.raises(TypeError, match="markers"):
        mp.generate("kruskal", 4, 4, seed=1, markers=markers)


def test_distances_are_steps_along_floor():
    level = mp.generate("backtracker", 8, 8, seed=4)
    dist = level.distances(level.entrance)
    assert dist.dtype == np.int32 and dist.shape == level.tiles.shape
    assert (dist[level.tiles == mp.WALL] == -1).all()
    assert dist[level.exit[1], level.exit[0]] == len(level.solution()) - 1
    # Neighbouring floor tiles differ by exactly one step in a tree.
    h, w = dist.shape
    for y, x in itertools.product(range(h), range(w)):
        if dist[y, x] > 0:
            around = [dist[y + dy, x + dx] for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                      if 0 <= x + dx < w and 0 <= y + dy < h and dist[y + dy, x + dx] >= 0]
            assert dist[y, x] - 1 in around


def test_distances_reject_wall_source():
    level = mp.generate("kruskal", 3, 3, seed=0)
    with pytest.raises(ValueError, match="source"):
        level.distances((0, 0))
    with pytest.raises(ValueError, match="outside"):
        level.distances((50, 1))


@given(seed=st.integers(0, 10**9))
def test_random_markers_stay_in_one_part_of_a_split_mask(seed):
    # Two islands that do not touch: random openings must both be in one of them.
    mask = ["###...####",
            "###...####",
            "###...####"]
    level = mp.generate("kruskal", 10, 3, seed=seed, markers="random", mask=mask)
    assert level.entrance != level.exit
    assert_valid_solution(level)


def test_random_markers_need_two_border_cells_in_one_part():
    with pytest.raises(ValueError, match="markers='random' needs two cells"):
        mp.generate("kruskal", 3, 3, seed=1, markers="random",
                    mask=[".#.", "...", "..."])  # one cell, one opening (north)
