"""Compiled loop of :func:`mazeplugin.generators.graph.wilson` (any grid; same walks, same draws).

The plain loop reads one float per step of each loop-erased random walk;
here the same raw words in the same order
(:func:`~mazeplugin._compiled.draws.feed`), turned into indices by
:func:`~mazeplugin._compiled.rand.below`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .draws import feed
from .grid import graph_arrays, i32, i64, u64, u8
from .rand import below


@njit(types.int64(i32, i32, i32, u64, i64, u8, i32, u8), cache=True, nogil=True)
def walk(offsets: Any, neighbours: Any, edge_ids: Any, words: Any, state: Any, in_tree: Any, exit_of: Any,
         opened: Any) -> int:
    """Walk from each cell outside the tree (in cell order) and graft the loop-erased path.

    Resumable: returns the words read when they run out, with ``state`` =
    (the walk's first cell, its current cell or -1) to go on with; -1 when done.
    """
    cells = offsets.size - 1
    first, cell = state[0], state[1]
    t = 0
    while first < cells:
        if cell < 0:
            cell = first
        while not in_tree[cell]:  # walk until the tree is hit; exit_of keeps the last step: loops erase
            if t == words.size:
                state[0], state[1] = first, cell
                return t
            k = offsets[cell] + below(words[t], offsets[cell + 1] - offsets[cell])
            t += 1
            exit_of[cell] = k
            cell = neighbours[k]
        cell = first
        while not in_tree[cell]:  # graft the loop-erased path
            k = exit_of[cell]
            in_tree[cell] = 1
            opened[edge_ids[k]] = 1
            cell = neighbours[k]
        first += 1
        cell = -1
    state[0], state[1] = first, -1
    return -1


def generate(grid: Grid, rng: Random, root: int) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """Wilson's generator on ``grid`` with its walks compiled: one bool per edge, True where open."""
    opened = np.zeros(len(grid.edges), dtype=np.uint8)
    in_tree = np.zeros(grid.cells, dtype=np.uint8)
    in_tree[root] = 1
    exit_of = np.zeros(grid.cells, dtype=np.int32)
    state = np.array([0, -1], dtype=np.int64)

    offsets, neighbours, edge_ids = graph_arrays(grid)

    def step(words: NDArray[np.uint64]) -> int:
        return walk(offsets, neighbours, edge_ids, words, state, in_tree, exit_of, opened)

    feed(step, rng, 4 * grid.cells + 64)
    return opened.astype(bool)
