"""Compiled loop of :func:`mazeplugin.generators.graph.hunt_and_kill` (any grid; same passages, same draws).

The plain loop reads one float per opened passage, whether a walk step or a
hunt's link back (at most ``cells - 1`` in all, in order); here they are the
same raw words, turned into indices by :func:`~mazeplugin._compiled.rand.below`
exactly as ``int(u * k)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .grid import i32, u64, u8
from .lattice import edge_of, grid_kinds
from .rand import below


def _signature(kind: Any) -> Any:
    return types.void(i32, i32, kind, u8, i32, types.int64, types.int64, types.int64, types.int64, u64,
                      types.int64, u8)


@njit([_signature(u8), _signature(i32)], cache=True, nogil=True)
def carve(offsets: Any, edge_ids: Any, kind: Any, degrees: Any, steps: Any, stride: int, shape: int, width: int,
          height: int, words: Any, start: int, opened: Any) -> None:
    """Walk from ``start`` to random unvisited neighbours; when stuck, hunt in cell order for
    the first unvisited cell beside a visited one and link it to a random visited neighbour.

    A cell's neighbours are read from its kind, in the grid's row order, and the
    edges opened from :func:`~mazeplugin._compiled.lattice.edge_of` (see ``grid_kinds``).
    """
    cells = kind.size
    visited = np.zeros(cells, dtype=np.uint8)
    choice = np.empty(max(stride, 1), dtype=np.int32)
    visited[start] = 1
    cell, scan, t = start, 0, 0
    while cell >= 0:
        row = kind[cell] * stride
        k = 0
        for r in range(degrees[kind[cell]]):
            if not visited[cell + steps[row + r]]:
                choice[k] = r
                k += 1
        if k:  # kill: walk on
            r = choice[below(words[t], k)]
            t += 1
            nxt = cell + steps[row + r]
            opened[edge_of(offsets, edge_ids, shape, width, height, cell, r, nxt)] = 1
            cell = nxt
            visited[cell] = 1
            continue
        while scan < cells and visited[scan]:  # every cell before `scan` is visited
            scan += 1
        cell = -1
        for hunted in range(scan, cells):  # hunt
            if not visited[hunted]:
                row = kind[hunted] * stride
                k = 0
                for r in range(degrees[kind[hunted]]):
                    if visited[hunted + steps[row + r]]:
                        choice[k] = r
                        k += 1
                if k:
                    r = choice[below(words[t], k)]
                    t += 1
                    opened[edge_of(offsets, edge_ids, shape, width, height, hunted, r, hunted + steps[row + r])] = 1
                    visited[hunted] = 1
                    cell = hunted
                    break


def generate(grid: Grid, rng: Random, start: int) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """Hunt-and-kill on ``grid`` with its loop compiled: one bool per edge, True where open."""
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    words = rng.raw(max(grid.cells - 1, 0))  # the plain loop's floats: one per opened passage
    carve(*grid_kinds(grid), words, start, opened)
    return opened.view(np.bool_)
