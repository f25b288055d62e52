"""Compiled loop of :func:`mazeplugin.generators.graph.aldous_broder` (any grid; same walk, same draws).

The plain walk reads one float per step, ``int(u * degree)`` choosing the
neighbour; here the same raw words in the same order
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
from .grid import graph_arrays, i32, i64, u8, u64
from .rand import below


@njit(types.int64(i32, i32, i32, u64, i64, u8, u8), cache=True, nogil=True)
def walk(offsets: Any, neighbours: Any, edge_ids: Any, words: Any, state: Any, visited: Any, opened: Any) -> int:
    """Walk from ``state[0]`` until ``state[1]`` cells are left unvisited (then -1) or the words
    run out (then the words read); ``state`` is updated for the next words."""
    cell, left = state[0], state[1]
    t = 0
    while left:
        if t == words.size:
            state[0], state[1] = cell, left
            return t
        k = offsets[cell] + below(words[t], offsets[cell + 1] - offsets[cell])
        t += 1
        cell = neighbours[k]
        if not visited[cell]:
            visited[cell] = 1
            opened[edge_ids[k]] = 1
            left -= 1
    state[0], state[1] = cell, 0
    return -1


def generate(grid: Grid, rng: Random, start: int) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """Aldous–Broder on ``grid`` with its walk compiled: one bool per edge, True where open."""
    opened = np.zeros(len(grid.edges), dtype=np.uint8)
    visited = np.zeros(grid.cells, dtype=np.uint8)
    visited[start] = 1
    state = np.array([start, grid.cells - 1], dtype=np.int64)
    offsets, neighbours, edge_ids = graph_arrays(grid)

    def step(words: NDArray[np.uint64]) -> int:
        return walk(offsets, neighbours, edge_ids, words, state, visited, opened)

    feed(step, rng, 8 * grid.cells + 64)
    return opened.astype(bool)
