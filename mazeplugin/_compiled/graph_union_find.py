"""Compiled loop of :func:`mazeplugin.generators.graph.union_find` (any grid; same passages, same draws).

The plain loop reads two floats per try (a cell, then one of its
neighbours) until the entrance and exit cells are joined; here the same raw
words in the same order (:func:`~mazeplugin._compiled.draws.feed`), and Rem's
union-find: whether a try joins two sets depends only on the tries before
it, not on how the forest is kept, so the passages are the same. On a hex or
triangle grid (:func:`lattice_join`) a cell's neighbours come from its kind
and the edges from their number (:mod:`mazeplugin._compiled.lattice`): no
neighbour rows to build.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .draws import feed
from .grid import graph_arrays, i32, u64, u8
from .lattice import edge_between, lattice_steps
from .rand import below
from .unionfind import rem_connected, rem_join


@njit(types.int64(i32, i32, i32, u64, i32, types.int64, types.int64, u8), cache=True, nogil=True)
def join(offsets: Any, neighbours: Any, edge_ids: Any, words: Any, parent: Any, start: int, goal: int,
         opened: Any) -> int:
    """Join random cells to random neighbours until ``start`` and ``goal`` are one set (then -1)
    or fewer than two words are left (then the words read)."""
    cells = offsets.size - 1
    if rem_connected(parent, start, goal):
        return -1
    t = 0
    while words.size - t >= 2:
        cell = below(words[t], cells)
        k = offsets[cell] + below(words[t + 1], offsets[cell + 1] - offsets[cell])
        t += 2
        # Only a join can connect the two: ask then, not after every try (the plain loop's answer).
        if rem_join(parent, cell, neighbours[k]):
            opened[edge_ids[k]] = 1
            if rem_connected(parent, start, goal):
                return -1
    return t


@njit(types.int64(u8, u8, i32, types.int64, types.int64, types.int64, types.int64, u64, i32, types.int64,
                  types.int64, u8), cache=True, nogil=True)
def lattice_join(kind: Any, degrees: Any, steps: Any, stride: int, shape: int, width: int, height: int, words: Any,
                 parent: Any, start: int, goal: int, opened: Any) -> int:
    """:func:`join` on a hex or triangle lattice: the ``r``-th neighbour of ``cell`` is
    ``cell + steps[kind[cell] * stride + r]``, the edge to it counted by ``edge_between``."""
    cells = kind.size
    if rem_connected(parent, start, goal):
        return -1
    t = 0
    while words.size - t >= 2:
        cell = below(words[t], cells)
        k = np.int64(kind[cell])  # (not a uint8: k * stride must not wrap)
        r = below(words[t + 1], degrees[k])
        t += 2
        other = cell + steps[k * stride + r]
        if rem_join(parent, cell, other):  # (only a join can connect the two, as in join)
            opened[edge_between(shape, width, height, cell, other)] = 1
            if rem_connected(parent, start, goal):
                return -1
    return t


def generate(grid: Grid, rng: Random, start: int, goal: int) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """The union-find web on ``grid`` with its loop compiled: one bool per edge, True where open."""
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    parent = np.arange(grid.cells, dtype=np.int32)  # Rem's forest: each cell its own parent
    if grid.lattice is not None:  # hex, triangle: arithmetic (mazeplugin/_compiled/lattice.py)
        shape, width, height = grid.lattice
        kind, degrees, steps, stride, _, _ = lattice_steps(shape, width, height)

        def lattice_step(words: NDArray[np.uint64]) -> int:
            return lattice_join(kind, degrees, steps, stride, shape, width, height, words, parent, start, goal,
                                opened)

        feed(lattice_step, rng, 4 * grid.cells + 64)
        return opened.view(np.bool_)
    offsets, neighbours, edge_ids = graph_arrays(grid)

    def step(words: NDArray[np.uint64]) -> int:
        return join(offsets, neighbours, edge_ids, words, parent, start, goal, opened)

    feed(step, rng, 4 * grid.cells + 64)
    return opened.view(np.bool_)
