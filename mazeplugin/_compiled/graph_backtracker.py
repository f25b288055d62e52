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
from .grid import graph_arrays, i32, u64, u8, walk_steps
from .rand import below


def _signature(kind: Any) -> Any:
    return types.void(i32, i32, kind, u8, i32, types.int64, u64, types.int64, u8)


@njit([_signature(u8), _signature(i32)], cache=True, nogil=True)
def carve(offsets: Any, edge_ids: Any, kind: Any, degrees: Any, steps: Any, stride: int, words: Any, start: int,
          opened: Any) -> None:
    """Depth-first from ``start``; ``words[k]`` picks the k-th carve's neighbour among the unvisited ones.

    A cell's neighbours are read from its kind (see
    :func:`~mazeplugin._compiled.grid.walk_steps`), in the grid's row order.
    """
    cells = offsets.size - 1
    visited = np.zeros(cells, dtype=np.uint8)
    path = np.empty(cells, dtype=np.int32)
    fresh = np.empty(stride, dtype=np.int32)
    visited[start] = 1
    path[0] = start
    top, carved = 1, 0
    while top:
        cell = path[top - 1]
        row = kind[cell] * stride
        k = 0
        for r in range(degrees[kind[cell]]):
            if not visited[cell + steps[row + r]]:
                fresh[k] = r
                k += 1
        if k == 0:
            top -= 1
            continue
        r = fresh[below(words[carved], k)]
        carved += 1
        opened[edge_ids[offsets[cell] + r]] = 1
        nxt = cell + steps[row + r]
        visited[nxt] = 1
        path[top] = nxt
        top += 1


def generate(grid: Grid, rng: Random, start: int) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """The graph backtracker with its loop compiled: one bool per edge, True where open."""
    opened = np.zeros(len(grid.edges), dtype=np.uint8)
    words = rng.raw(max(grid.cells - 1, 0))  # the plain loop's floats: one per carve
    offsets, neighbours, edge_ids = graph_arrays(grid)
    kind, degrees, steps, stride, _, _ = walk_steps(offsets, neighbours)
    carve(offsets, edge_ids, kind, degrees, steps, stride, words, start, opened)
    return opened.astype(bool)
