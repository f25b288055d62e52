"""Compiled loop of :func:`mazeplugin.generators.graph.hunt_and_kill` (any grid; same passages, same draws).

The plain loop reads one float per opened passage, whether a walk step or a
hunt's link back (at most ``cells - 1`` in all, in order); here they are the
same raw words, turned into indices by :func:`~mazeplugin._compiled.rand.below`
exactly as ``int(u * k)``. On a hex or triangle grid (:func:`lattice_carve`)
a cell's neighbours come from its kind and the edges from their number
(:mod:`mazeplugin._compiled.lattice`): no neighbour rows to build.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .grid import graph_arrays, i32, u64, u8
from .lattice import edge_between, lattice_steps
from .rand import below


@njit(types.void(i32, i32, i32, u64, types.int64, u8), cache=True, nogil=True)
def carve(offsets: Any, neighbours: Any, edge_ids: Any, words: Any, start: int, opened: Any) -> None:
    """Walk from ``start`` to random unvisited neighbours; when stuck, hunt in cell order for
    the first unvisited cell beside a visited one and link it to a random visited neighbour."""
    cells = offsets.size - 1
    widest = 1
    for cell in range(cells):
        widest = max(widest, offsets[cell + 1] - offsets[cell])
    visited = np.zeros(cells, dtype=np.uint8)
    choice = np.empty(widest, dtype=np.int32)
    visited[start] = 1
    cell, scan, t = start, 0, 0
    while cell >= 0:
        k = 0
        for j in range(offsets[cell], offsets[cell + 1]):
            if not visited[neighbours[j]]:
                choice[k] = j
                k += 1
        if k:  # kill: walk on
            j = choice[below(words[t], k)]
            t += 1
            opened[edge_ids[j]] = 1
            cell = neighbours[j]
            visited[cell] = 1
            continue
        while scan < cells and visited[scan]:  # every cell before `scan` is visited
            scan += 1
        cell = -1
        for hunted in range(scan, cells):  # hunt
            if not visited[hunted]:
                k = 0
                for j in range(offsets[hunted], offsets[hunted + 1]):
                    if visited[neighbours[j]]:
                        choice[k] = j
                        k += 1
                if k:
                    opened[edge_ids[choice[below(words[t], k)]]] = 1
                    t += 1
                    visited[hunted] = 1
                    cell = hunted
                    break


@njit(types.void(u8, u8, i32, types.int64, types.int64, types.int64, types.int64, u64, types.int64, u8), cache=True,
      nogil=True)
def lattice_carve(kind: Any, degrees: Any, steps: Any, stride: int, shape: int, width: int, height: int, words: Any,
                  start: int, opened: Any) -> None:
    """:func:`carve` on a hex or triangle lattice: the ``r``-th neighbour of ``cell`` is
    ``cell + steps[kind[cell] * stride + r]`` (row order), the edge to it counted by ``edge_between``."""
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
            opened[edge_between(shape, width, height, cell, nxt)] = 1
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
                    opened[edge_between(shape, width, height, hunted, hunted + steps[row + r])] = 1
                    visited[hunted] = 1
                    cell = hunted
                    break


def generate(grid: Grid, rng: Random, start: int) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """Hunt-and-kill on ``grid`` with its loop compiled: one bool per edge, True where open."""
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    words = rng.raw(max(grid.cells - 1, 0))  # the plain loop's floats: one per opened passage
    if grid.lattice is not None:  # hex, triangle: arithmetic (mazeplugin/_compiled/lattice.py)
        shape, width, height = grid.lattice
        kind, degrees, steps, stride, _, _ = lattice_steps(shape, width, height)
        lattice_carve(kind, degrees, steps, stride, shape, width, height, words, start, opened)
        return opened.view(np.bool_)
    offsets, neighbours, edge_ids = graph_arrays(grid)
    carve(offsets, neighbours, edge_ids, words, start, opened)
    return opened.view(np.bool_)
