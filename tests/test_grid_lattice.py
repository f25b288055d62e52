"""Hex and triangle grids by arithmetic: the lattice kinds and edge numbers the compiled kernels use
instead of the grid's arrays must be those arrays, at every size, and no kernel may need the arrays.

A hex or triangle grid builds its edges and neighbour rows only when they are first read
(``Grid.built``); the compiled grid generators number the edges they open by
:func:`mazeplugin._compiled.lattice.edge_between` and read a cell's neighbours from its kind
(:func:`mazeplugin._compiled.lattice.lattice_steps`). A wrong count there would open a wrong
passage: these tests compare every edge, every cell and every generator's passages.
"""

from __future__ import annotations

import os
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.pipeline import run_on_grid
from mazeplugin.grids import GridMaze, HexGrid, TriangleGrid
from mazeplugin.seeds import Random

pytest.importorskip("numba")

from mazeplugin._compiled import kernel  # noqa: E402
from mazeplugin._compiled.gridrows import HEX, TRIANGLE  # noqa: E402
from mazeplugin._compiled.lattice import (  # noqa: E402
    BORDER, edge_between, edge_cells, inner_steps, lattice_steps, parity_of)

GRID_GENERATORS = mp.algorithms(grid="hex")  # every generator over the neighbour interface


def grid_kernel(algorithm: str) -> str:
    """The kernel that runs ``algorithm`` on a grid: its own (one for every grid), or its grid twin."""
    from mazeplugin._compiled import KERNELS

    return f"graph-{algorithm}" if f"graph-{algorithm}" in KERNELS else algorithm

LATTICES = {"hex": (HexGrid, HEX), "triangle": (TriangleGrid, TRIANGLE)}
lattices = st.tuples(st.sampled_from(sorted(LATTICES)), st.integers(1, 13), st.integers(1, 13))


def built_plain(name: str, width: int, height: int):
    with mock.patch.dict(os.environ, {"MAZEPLUGIN_COMPILED": "0"}):
        grid = LATTICES[name][0](width, height)
        grid.edges  # built by numpy, independently of the compiled passes
    return grid


@settings(max_examples=80, deadline=None)
@given(size=lattices)
def test_edge_numbers_by_arithmetic_are_the_grids_edges(size):
    name, width, height = size
    grid, shape = built_plain(*size), LATTICES[name][1]
    assert LATTICES[name][0](width, height).edge_count == len(grid.edges)  # counted without building
    for k, (a, b) in enumerate(grid.edges.tolist()):
        assert edge_between(shape, width, height, a, b) == k
        assert edge_between(shape, width, height, b, a) == k
        assert edge_cells(shape, width, height, k) == (a, b)  # and back, for Kruskal's pass


@settings(max_examples=80, deadline=None)
@given(size=lattices)
def test_lattice_kinds_give_every_cells_neighbours_in_row_order(size):
    name, width, height = size
    grid, shape = built_plain(*size), LATTICES[name][1]
    kind, degrees, steps, stride, common, seen = lattice_steps(shape, width, height)
    assert kind.dtype == np.uint8 and kind.shape == (grid.cells,) and int(kind.max()) < seen
    inner = inner_steps(shape, width) if width >= 3 else None
    for cell in range(grid.cells):
        row = grid.neighbours_of(cell)
        k = int(kind[cell])
        assert degrees[k] == len(row)
        assert np.array_equal(cell + steps[k * stride:k * stride + len(row)], row)
        x, y = cell % width, cell // width
        parity = y & 1 if name == "hex" else (x + y) & 1
        assert parity_of(shape, width, cell) == parity == k & 1
        if k & BORDER == 0:  # an inner cell: the walks take its steps from the parity they carry
            assert inner is not None
            steps_of, flip, degree = inner
            assert np.array_equal(cell + steps_of[parity * degree:(parity + 1) * degree], row)
            assert [parity_of(shape, width, int(n)) for n in row] == [parity ^ f for f in flip.tolist()]


CASES = [(algorithm, {}) for algorithm in sorted(GRID_GENERATORS) if algorithm != "growing-tree"] + [
    ("growing-tree", {"strategy": strategy}) for strategy in ("newest", "random", "oldest:0.5")]


@pytest.mark.parametrize("algorithm, options", CASES, ids=lambda case: str(case))
@settings(max_examples=15, deadline=None)
@given(size=lattices, seed=st.integers(0, 2**64), data=st.data())
def test_compiled_generators_need_no_grid_arrays_and_open_the_plain_passages(algorithm, options, size, seed, data):
    name, width, height = size
    if name == "triangle" and width < 2 and height > 1:
        return  # a column one triangle wide falls apart (generate refuses it): the walks would never end
    grid = LATTICES[name][0](width, height)
    start = data.draw(st.integers(0, grid.cells - 1), label="start")
    goal = data.draw(st.integers(0, grid.cells - 1), label="goal")
    with mock.patch.dict(os.environ, {"MAZEPLUGIN_COMPILED": "1"}):
        assert kernel(grid_kernel(algorithm), grid.cells) is not None
        compiled = run_on_grid(algorithm, grid, Random.from_seed(seed), start, goal, options)
    assert not grid.built  # the kernel counted edges and neighbours itself
    with mock.patch.dict(os.environ, {"MAZEPLUGIN_COMPILED": "0"}):
        plain = run_on_grid(algorithm, LATTICES[name][0](width, height), Random.from_seed(seed), start, goal,
                            options)
    assert compiled.dtype == np.bool_ and np.array_equal(plain, compiled)


def test_a_hex_level_builds_its_grid_arrays_only_when_an_answer_needs_them():
    with mock.patch.dict(os.environ, {"MAZEPLUGIN_COMPILED": "1"}):
        level = mp.generate("wilson", 12, 9, grid="hex", seed=5)
    grid = level.maze.grid
    assert not grid.built
    way = level.solution()  # reads the passages as edges: builds them now
    assert grid.built and way[0] == level.entrance and way[-1] == level.exit
    assert level.stats().passages == grid.cells - 1 == int(level.maze.open.sum())


def test_grid_maze_checks_the_passages_against_the_count_of_edges():
    grid = TriangleGrid(4, 3)
    with pytest.raises(ValueError, match=f"one bool per edge \\({grid.edge_count}\\)"):
        GridMaze(grid, np.zeros(grid.edge_count + 1, dtype=bool))
    assert not grid.built
