"""Compiled loop of :func:`mazeplugin.generators.graph.backtracker` (any grid; same passages, same draws).

The plain loop reads one float per carve (``cells - 1`` in all, in order);
here they are the same raw words, turned into indices by
:func:`~mazeplugin._compiled.rand.below` exactly as ``int(u * k)``.

On a hex or triangle grid the cell kinds come from
:func:`~mazeplugin._compiled.lattice.lattice_steps` and the edges opened are
counted by :func:`~mazeplugin._compiled.lattice.edge_between` (``shape`` > 0):
the grid's edge arrays are never built.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .grid import graph_arrays, i32, u64, u8, walk_steps
from .lattice import edge_between, lattice_steps
from .rand import below


def _signature(kind: Any) -> Any:
    return types.void(i32, i32, kind, u8, i32, types.int64, u64, types.int64, u8, types.int64, types.int64,
                      types.int64)


@njit([_signature(u8), _signature(i32)], cache=True, nogil=True)
def carve(offsets: Any, edge_ids: Any, kind: Any, degrees: Any, steps: Any, stride: int, words: Any, start: int,
          opened: Any, shape: int, width: int, height: int) -> None:
    """Depth-first from ``start``; ``words[k]`` picks the k-th carve's neighbour among the unvisited ones.

    A cell's neighbours are read from its kind (see
    :func:`~mazeplugin._compiled.grid.walk_steps`), in the grid's row order. On a lattice
    (``shape`` > 0, ``width × height`` cells) ``offsets`` and ``edge_ids`` are not read.
    """
    cells = kind.size
    visited = np.zeros(cells, dtype=np.uint8)
    path = np.empty(cells, dtype=np.int32)
    fresh = np.empty(stride, dtype=np.int32)
    visited[start] = 1
    path[0] = start
    top, carved = 1, 0
    while top:
        cell = path[top - 1]
        row = np.int64(kind[cell]) * stride  # (np.int64: a uint8 kind times the stride must not wrap)
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
        nxt = cell + steps[row + r]
        opened[edge_between(shape, width, height, cell, nxt) if shape else edge_ids[offsets[cell] + r]] = 1
        visited[nxt] = 1
        path[top] = nxt
        top += 1


def generate(grid: Grid, rng: Random, start: int) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """The graph backtracker with its loop compiled: one bool per edge, True where open."""
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    words = rng.raw(max(grid.cells - 1, 0))  # the plain loop's floats: one per carve
    if grid.lattice is not None:  # hex, triangle: arithmetic (mazeplugin/_compiled/lattice.py)
        shape, width, height = grid.lattice
        kind, degrees, steps, stride, _, _ = lattice_steps(shape, width, height)
        none = np.zeros(0, dtype=np.int32)
        carve(none, none, kind, degrees, steps, stride, words, start, opened, shape, width, height)
        return opened.view(np.bool_)
    offsets, neighbours, edge_ids = graph_arrays(grid)
    kind, degrees, steps, stride, _, _ = walk_steps(offsets, neighbours)
    carve(offsets, edge_ids, kind, degrees, steps, stride, words, start, opened, 0, 0, 0)
    return opened.view(np.bool_)
