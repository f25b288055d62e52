"""Each algorithm written once: the same function over the grid interface carves square and masked
square mazes too, and its one compiled kernel opens the same passages as the plain loop.

The square grid reaches these algorithms as ``generators.graph.MazeGrid``
(the mask's cells, neighbours north, east, south, west, edges in
``Maze.walls()`` order); masks in parts, lone cells and one-cell-wide strips
are where the square grid differs most from the others.
"""

from __future__ import annotations

import os
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.generators.graph import maze_grid
from mazeplugin.maze import Maze
from mazeplugin.seeds import Random
from mazeplugin.unionfind import DisjointSets

WRITTEN_ONCE = ["kruskal", "prim-simplified", "union-find", "wilson", "aldous-broder", "hunt-and-kill", "growing-tree",
                "prim", "backtracker"]


@st.composite
def masked_mazes(draw: st.DrawFn) -> Maze:
    width, height = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    flags = draw(st.lists(st.booleans(), min_size=width * height, max_size=width * height))
    mask = np.array(flags, dtype=bool).reshape(height, width) | draw(st.booleans())  # (sometimes full)
    if not mask.any():
        mask[0, 0] = True
    cells = np.flatnonzero(mask)
    start, goal = (int(cells[draw(st.integers(0, len(cells) - 1))]) for _ in range(2))
    return Maze(width, height, mask=mask, start=(start % width, start // width), goal=(goal % width, goal // width))


def _carve(name: str, maze: Maze, seed: int, compiled: str) -> Maze:
    carved = maze.copy()
    with mock.patch.dict(os.environ, {"MAZEPLUGIN_COMPILED": compiled}):
        mp.get_generator(name).function(carved, Random.from_seed(seed))
    return carved


@pytest.mark.parametrize("name", WRITTEN_ONCE)
@settings(max_examples=25, deadline=None)
@given(maze=masked_mazes(), seed=st.integers(0, 2**64 - 1))
def test_the_compiled_kernel_carves_the_plain_square_maze(name, maze, seed):
    pytest.importorskip("numba")
    plain, compiled = _carve(name, maze, seed, "0"), _carve(name, maze, seed, "1")
    assert np.array_equal(plain.east, compiled.east) and np.array_equal(plain.south, compiled.south)
    plain.check()  # passages only between neighbouring cells of the mask
    if mp.get_generator(name).perfect:  # one tree per part of the mask
        grid = maze_grid(maze)
        parts = DisjointSets(grid.cells)
        parts.union_each(grid.edges[:, 0].tolist(), grid.edges[:, 1].tolist())
        passages = int(plain.east.sum() + plain.south.sum())
        assert passages == grid.cells - len({parts.find(c) for c in range(grid.cells)})


def test_the_square_grid_of_a_maze_lists_each_cells_neighbours_north_east_south_west():
    mask = np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], dtype=bool)
    grid = maze_grid(Maze(3, 3, mask=mask))
    assert grid.cells == 8 and grid.edge_count == 8 and not grid.connected
    assert grid.neighbours_of(0).tolist() == [1, 3]  # east, south (the middle cell is not a cell)
    assert grid.neighbours_of(4).tolist() == [2, 7]  # (2, 1): north, south
    a, b = Maze(3, 3, mask=mask).walls()
    assert (grid.ids[grid.edges] == np.stack([a, b], axis=1)).all()  # edges in Maze.walls() order
    for cell in range(grid.cells):
        for k in range(grid.offsets[cell], grid.offsets[cell + 1]):
            edge = grid.edges[grid.edge_ids[k]].tolist()
            assert sorted(edge) == sorted([cell, int(grid.neighbours[k])])
    full = maze_grid(Maze(4, 3))
    assert full.walls == (4, 3) and full.connected and full.edge_count == 17
    assert full.neighbours_of(5).tolist() == [1, 6, 9, 4]  # north, east, south, west


@settings(max_examples=25, deadline=None)
@given(maze=masked_mazes(), seed=st.integers(0, 2**64 - 1))
def test_the_backtrackers_grid_function_carves_its_square_loops_maze(maze, seed):
    # (the backtracker keeps a framed square loop for speed; its function over the neighbour interface,
    # run on the maze's grid, must open the same passages, a mask's parts included)
    from mazeplugin.generators.backtracker import on_grid

    square = _carve("backtracker", maze, seed, "0")
    carved, grid = maze.copy(), maze_grid(maze)
    with mock.patch.dict(os.environ, {"MAZEPLUGIN_COMPILED": "0"}):
        opened = on_grid(grid, Random.from_seed(seed), grid.cell_of(*maze.start), grid.cell_of(*maze.goal))
    grid.open_on(carved, np.asarray(opened, dtype=bool))
    assert np.array_equal(square.east, carved.east) and np.array_equal(square.south, carved.south)
