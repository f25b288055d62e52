"""Every perfect generator makes a spanning tree of its cells, at every size."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mazeplugin as mp
from mazecheck import (
    assert_outer_ring_is_wall,
    assert_perfect,
    assert_pillars_are_wall,
    assert_valid_solution,
    cell_passage_counts,
    floor_components,
)

PERFECT = [name for name in mp.algorithms() if mp.get_generator(name).perfect]
CORE = ["kruskal", "union-find", "backtracker", "prim", "eller"]

sizes = st.integers(min_value=1, max_value=60)
seeds = st.integers(min_value=0, max_value=2**64)


def test_core_generators_are_registered():
    assert set(CORE) <= set(mp.algorithms())
    assert mp.algorithms() == sorted(mp.algorithms())
    assert not mp.get_generator("union-find").perfect
    assert {"kruskal", "backtracker", "prim", "eller"} <= set(PERFECT)


@pytest.mark.parametrize("algorithm", PERFECT)
@given(width=sizes, height=sizes, seed=seeds)
def test_perfect_maze_is_a_spanning_tree(algorithm, width, height, seed):
    level = mp.generate(algorithm, width, height, seed=seed)
    assert level.tiles.shape == (2 * height + 1, 2 * width + 1)
    assert level.tiles.dtype == np.uint8
    assert set(np.unique(level.tiles)) <= {mp.WALL, mp.FLOOR}
    assert_perfect(level)
    assert_outer_ring_is_wall(level)
    assert_pillars_are_wall(level)
    assert_valid_solution(level)


@pytest.mark.parametrize("algorithm", PERFECT)
@pytest.mark.parametrize("width,height", [(1, 1), (1, 9), (9, 1), (2, 2), (7, 4), (60, 60)])
def test_edge_sizes_are_spanning_trees(algorithm, width, height):
    level = mp.generate(algorithm, width, height, seed=12345)
    assert_perfect(level)
    assert_valid_solution(level)


@given(width=sizes, height=sizes, seed=seeds)
def test_union_find_joins_entrance_and_exit_without_loops(width, height, seed):
    level = mp.generate("union-find", width, height, seed=seed)
    assert_outer_ring_is_wall(level)
    assert_pillars_are_wall(level)
    assert_valid_solution(level)
    # A forest: within each floor component, passages = cells - 1.
    labels = floor_components(level.tiles)
    cell_labels = labels[1::2, 1::2]
    maze = level.maze
    a, b = maze.passages()
    comp_of_cell = cell_labels.ravel()
    for comp in np.unique(comp_of_cell):
        n_cells = int((comp_of_cell == comp).sum())
        n_passages = int((comp_of_cell[a] == comp).sum())
        assert n_passages == n_cells - 1


def test_union_find_stops_when_entrance_and_exit_connect():
    # It stops early, so over many seeds some cells stay sealed off: fewer
    # passages than a spanning tree needs.
    sealed = 0
    for seed in range(20):
        level = mp.generate("union-find", 15, 15, seed=seed)
        cells, passages = cell_passage_counts(level)
        assert passages <= cells - 1
        sealed += passages < cells - 1
    assert sealed > 0


def test_union_find_joins_caller_markers():
    level = mp.generate("union-find", 12, 9, seed=3, markers=((11, 1), (1, 17)))
    assert level.maze.start == (5, 0) and level.maze.goal == (0, 8)
    assert_valid_solution(level)


@pytest.mark.parametrize("algorithm", CORE)
def test_maze_model_and_tiles_agree(algorithm):
    level = mp.generate(algorithm, 9, 7, seed=5, markers="none")
    maze = level.maze
    t = level.tiles
    assert ((t[1::2, 2::2] == mp.FLOOR) == maze.east).all()
    assert ((t[2::2, 1::2] == mp.FLOOR) == maze.south).all()
    assert (maze.degree()[maze.mask] >= (1 if algorithm != "union-find" else 0)).all()


def test_backtracker_has_no_recursion_limit():
    # A 1 x N strip forces a depth-first path N cells deep.
    level = mp.generate("backtracker", 1, 5000, seed=1)
    assert_perfect(level)
