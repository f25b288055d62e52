"""Compiled loop of :func:`mazeplugin.generators.graph.prim_simplified` (any grid; same passages, same draws).

The plain loop reads one float per frontier edge it takes out (swap with the
last, pop); here the same raw words in the same order
(:func:`~mazeplugin._compiled.draws.feed`), the frontier an array of edge
slots kept in the plain list's order.
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


@njit(types.int64(i32, i32, i32, u64, i64, i32, u8, u8), cache=True, nogil=True)
def grow(offsets: Any, neighbours: Any, edge_ids: Any, words: Any, state: Any, frontier: Any, in_tree: Any,
         opened: Any) -> int:
    """Take random frontier edges until there are none (then -1) or the words run out (then the
    words read); ``state[0]`` is the frontier's length."""
    size = state[0]
    t = 0
    while size:
        if t == words.size:
            state[0] = size
            return t
        i = below(words[t], size)
        t += 1
        size -= 1
        k = frontier[i]
        frontier[i] = frontier[size]  # swap-remove, as the plain list does
        cell = neighbours[k]
        if not in_tree[cell]:
            in_tree[cell] = 1
            opened[edge_ids[k]] = 1
            for j in range(offsets[cell], offsets[cell + 1]):
                if not in_tree[neighbours[j]]:
                    frontier[size] = j
                    size += 1
    state[0] = 0
    return -1


def generate(grid: Grid, rng: Random, start: int) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """Simplified Prim's on ``grid`` with its loop compiled: one bool per edge, True where open."""
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    in_tree = np.zeros(grid.cells, dtype=np.uint8)
    in_tree[start] = 1
    offsets, neighbours, edge_ids = graph_arrays(grid)
    # Each edge slot is pushed at most once (when the cell it leaves joins the tree): room for all.
    frontier = np.empty(len(neighbours), dtype=np.int32)
    first, stop = int(offsets[start]), int(offsets[start + 1])
    frontier[:stop - first] = np.arange(first, stop, dtype=np.int32)
    state = np.array([stop - first], dtype=np.int64)

    def step(words: NDArray[np.uint64]) -> int:
        return grow(offsets, neighbours, edge_ids, words, state, frontier, in_tree, opened)

    feed(step, rng, 2 * grid.cells + 64)
    return opened.view(np.bool_)
