"""Compiled loop of :func:`mazeplugin.generators.graph.backtracker` (any grid; same passages, same draws).

The plain loop reads one float per carve (``cells - 1`` in all, in order);
here they are the same raw words, turned into indices by
:func:`~mazeplugin._compiled.rand.below` exactly as ``int(u * k)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .grid import graph_arrays, i32, u64, u8
from .rand import below


@njit(types.void(i32, i32, i32, u64, types.int64, u8), cache=True, nogil=True)
def carve(offsets: Any, neighbours: Any, edge_ids: Any, words: Any, start: int, opened: Any) -> None:
    """Depth-first from ``start``; ``words[k]`` picks the k-th carve's neighbour among the unvisited ones."""
    cells = offsets.size - 1
    widest = 1
    for cell in range(cells):
        widest = max(widest, offsets[cell + 1] - offsets[cell])
    visited = np.zeros(cells, dtype=np.uint8)
    path = np.empty(cells, dtype=np.int32)
    fresh = np.empty(widest, dtype=np.int32)
    visited[start] = 1
    path[0] = start
    top, carved = 1, 0
    while top:
        cell = path[top - 1]
        k = 0
        for j in range(offsets[cell], offsets[cell + 1]):
            if not visited[neighbours[j]]:
                fresh[k] = j
                k += 1
        if k == 0:
            top -= 1
            continue
        j = fresh[below(words[carved], k)]
        carved += 1
        opened[edge_ids[j]] = 1
        visited[neighbours[j]] = 1
        path[top] = neighbours[j]
        top += 1


def generate(grid: Grid, rng: Random, start: int) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """The graph backtracker with its loop compiled: one bool per edge, True where open."""
    opened = np.zeros(len(grid.edges), dtype=np.uint8)
    words = rng.raw(max(grid.cells - 1, 0))  # the plain loop's floats: one per carve
    offsets, neighbours, edge_ids = graph_arrays(grid)
    carve(offsets, neighbours, edge_ids, words, start, opened)
    return opened.astype(bool)
