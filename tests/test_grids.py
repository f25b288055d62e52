"""Grids beyond the square (issue 21): hex, triangle and polar topologies, their generators and levels.

Properties checked on every grid: a perfect generator's maze is a spanning
tree (cells − 1 passages, one piece); Wilson and Aldous–Broder draw every
spanning tree equally often (χ² over all of them, as tests/test_uniformity.py
does for the square) while the backtracker does not; a seed gives the same
maze forever (golden digests); each grid's geometry agrees with its
neighbours; a hex level's tilemap joins exactly the cells its passages join.
"""

from __future__ import annotations

import collections
import hashlib
import itertools
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin import grid_analysis
from mazeplugin.formats.grid_svg import wall_lines
from mazeplugin.generators.graph import GRID_GENERATORS, PERFECT, run_on_grid
from mazeplugin.grids import GridMaze, HexGrid, PolarGrid, TriangleGrid, make_grid
from mazeplugin.grids.hextiles import hex_neighbour_tiles
from mazeplugin.seeds import Random
from mazeplugin.unionfind import DisjointSets
from test_uniformity import chi_square, chi_square_critical

GRIDS = ["hex", "triangle", "polar"]


def pieces(grid, open_) -> int:
    sets = DisjointSets(grid.cells)
    ends = grid.edges[np.asarray(open_, dtype=bool)]
    sets.union_each(ends[:, 0].tolist(), ends[:, 1].tolist())
    return sets.count


def grid_digest(level) -> str:
    h = hashlib.sha256(repr((level.grid, level.maze.grid.cells, level.entrance, level.exit)).encode())
    h.update(level.maze.open.tobytes())
    return h.hexdigest()[:16]


sizes = st.tuples(st.sampled_from(GRIDS), st.integers(2, 9), st.integers(1, 6))


@settings(max_examples=60, deadline=None)
@given(size=sizes, algorithm=st.sampled_from(sorted(PERFECT)), seed=st.integers(0, 2**64))
def test_perfect_generators_make_spanning_trees_on_every_grid(size, algorithm, seed):
    grid = make_grid(*size)
    open_ = run_on_grid(algorithm, grid, Random.from_seed(seed))
    assert int(open_.sum()) == grid.cells - 1
    assert pieces(grid, open_) == 1


@settings(max_examples=30, deadline=None)
@given(size=sizes, seed=st.integers(0, 2**32))
def test_union_find_web_joins_entrance_and_exit_without_loops(size, seed):
    level = mp.generate("union-find", size[1], size[2], grid=size[0], seed=seed)
    assert level.solution()[0] == level.entrance and level.solution()[-1] == level.exit
    assert level.stats().loops == 0  # a forest: every opened passage joined two pieces


@settings(max_examples=40, deadline=None)
@given(size=sizes, algorithm=st.sampled_from(sorted(GRID_GENERATORS)), seed=st.integers(0, 2**32))
def test_same_seed_same_maze_and_the_level_answers_agree(size, algorithm, seed):
    grid, width, height = size
    level = mp.generate(algorithm, width, height, grid=grid, seed=seed)
    again = mp.generate(algorithm, width, height, grid=grid, seed=seed)
    assert np.array_equal(level.maze.open, again.maze.open)
    way = level.solution()
    assert way[0] == level.entrance and way[-1] == level.exit
    assert all(b in level.maze.linked(a).tolist() for a, b in zip(way, way[1:]))
    distances = level.distances()
    assert distances[level.exit] == len(way) - 1
    stats = level.stats()
    assert stats.solution_length == len(way) and stats.passages == int(level.maze.open.sum())
    assert stats.dead_ends == len(level.dead_ends())


def test_different_seeds_give_different_mazes():
    mazes = {mp.generate("wilson", 8, 6, grid="hex", seed=s).maze.open.tobytes() for s in range(10)}
    assert len(mazes) == 10


# -- uniformity --------------------------------------------------------------------


def spanning_trees(grid):
    """Every spanning tree of a small grid, as the bytes of its ``open`` array."""
    found = []
    for subset in itertools.combinations(range(len(grid.edges)), grid.cells - 1):
        open_ = np.zeros(len(grid.edges), dtype=bool)
        open_[list(subset)] = True
        if pieces(grid, open_) == 1:
            found.append(open_.tobytes())
    return found


def tree_counts(algorithm, grid, samples):
    counts: collections.Counter = collections.Counter()
    for seed in range(samples):
        counts[run_on_grid(algorithm, grid, Random.from_seed(seed)).tobytes()] += 1
    return counts


@pytest.mark.parametrize("grid,per_tree", [(HexGrid(3, 2), 200), (TriangleGrid(4, 3), 300)])
@pytest.mark.parametrize("algorithm", ["wilson", "aldous-broder"])
def test_uniform_generators_draw_every_spanning_tree_equally(algorithm, grid, per_tree):
    trees = spanning_trees(grid)
    assert len(trees) == {"hex": 55, "triangle": 35}[grid.name]
    counts = tree_counts(algorithm, grid, per_tree * len(trees))
    assert set(counts) == set(trees)  # only spanning trees, and every one of them
    assert chi_square(counts, len(trees)) < chi_square_critical(len(trees) - 1)


def test_the_uniformity_check_rejects_a_biased_generator():
    grid = HexGrid(3, 2)
    trees = spanning_trees(grid)
    counts = tree_counts("backtracker", grid, 200 * len(trees))
    assert chi_square(counts, len(trees)) > chi_square_critical(len(trees) - 1)


# -- golden digests: these levels must never change -------------------------------------

GOLDEN = {
    ("aldous-broder", "triangle", 8, 5, 11): "64af7e398d4cdc0b",
    ("backtracker", "hex", 12, 8, 7): "8c9f8e108a7cc9ef",
    ("growing-tree", "hex", 10, 4, 5): "a022ef0e6b6682d5",
    ("hunt-and-kill", "polar", 1, 6, 2): "ec260db1ebb53495",
    ("kruskal", "triangle", 14, 6, 3): "ca745fc159cc897b",
    ("prim", "polar", 6, 5, 7): "a98de5d56c89329c",
    ("prim-simplified", "triangle", 9, 4, 8): "707d6a3110bb9bd8",
    ("union-find", "hex", 8, 8, 1): "a91201346efd4bbf",
    ("wilson", "hex", 9, 6, "castle"): "2861ef4bd97357ea",
}


@pytest.mark.parametrize("key", sorted(GOLDEN, key=repr))
def test_golden_grid_levels(key):
    algorithm, grid, width, height, seed = key
    assert grid_digest(mp.generate(algorithm, width, height, grid=grid, seed=seed)) == GOLDEN[key]
