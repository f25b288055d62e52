"""The compiled loop of :mod:`mazeplugin.dataset.figures`: every level of a shard in one call (numba).

Imported only when the compiled path is on (numba installed, ``MAZEPLUGIN_COMPILED``
not ``0``). Each level is a square-cell maze with every cell inside its mask and no
rooms; the figures are those of :func:`mazeplugin.analysis.stats` for it, found the
same way: breadth-first sweeps taking neighbours north, east, south, west, a double
sweep per connected piece from its first cell, and the walk from entrance to exit
that follows each cell's first finder. ``tests/test_dataset_figures.py`` checks the
figures against ``Level.stats()``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mazeplugin._compiled.bfs import sweep, sweeps
from mazeplugin._compiled.jit import njit

__all__ = ["COLUMNS", "shard_figures"]

COLUMNS = ("cells", "passages", "dead_ends", "junctions", "loops", "longest_path", "solution_length",
           "decision_points", "turns")
"""The columns of :func:`shard_figures`'s result, in order (-1: no solution)."""


@njit(cache=True, nogil=True)
def shard_figures(east: Any, south: Any, width: int, starts: Any, goals: Any) -> Any:
    """``(levels, len(COLUMNS))`` int64 figures of ``levels`` mazes given as flat uint8
    ``east``/``south`` rows ``(levels, cells)``; ``starts``/``goals`` the entrance and
    exit cells (-1: no markers, and the solution columns are -1)."""
    count, n = east.shape
    out = np.empty((count, 9), dtype=np.int64)
    dist = np.full(n, -1, dtype=np.int32)
    parent = np.empty(n, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    whole = np.ones(n, dtype=np.uint8)  # every cell inside the mask
    seen = np.empty(n, dtype=np.uint8)
    degree = np.zeros(n, dtype=np.int64)
    for level in range(count):
        e = east[level]
        s = south[level]
        passages = 0
        for cell in range(n):
            d = 0
            if e[cell]:
                d += 1
                passages += 1
            if s[cell]:
                d += 1
                passages += 1
            if cell % width and e[cell - 1]:
                d += 1
            if cell >= width and s[cell - width]:
                d += 1
            degree[cell] = d
        dead = 0
        junctions = 0
        for cell in range(n):
            if degree[cell] == 1:
                dead += 1
            elif degree[cell] >= 3:
                junctions += 1
        seen[:] = 0
        pieces, longest = sweeps(whole, e, s, width, dist, parent, queue, seen)
        out[level, 0] = n
        out[level, 1] = passages
        out[level, 2] = dead
        out[level, 3] = junctions
        out[level, 4] = passages - n + pieces
        out[level, 5] = longest
        out[level, 6] = -1
        out[level, 7] = -1
        out[level, 8] = -1
        start, goal = starts[level], goals[level]
        if start < 0:
            continue
        reached, _ = sweep(e, s, width, start, goal, dist, parent, queue)
        length = dist[goal]
        if length >= 0:
            # Walk back from the goal along first finders: the plain code's walk, exit first.
            decisions = 0
            turns = 0
            cell = goal
            step_out = 0  # the step from ``cell`` onward, toward the goal
            for i in range(length, -1, -1):
                if i < length:
                    ways = degree[cell]
                    used = 1 if i == 0 else 2
                    if ways > used:
                        decisions += 1
                if i > 0:
                    before = parent[cell]
                    step_in = cell - before
                    if i < length and step_in != step_out:
                        turns += 1
                    step_out = step_in
                    cell = before
            out[level, 6] = length
            out[level, 7] = decisions
            out[level, 8] = turns
        for i in range(reached):
            dist[queue[i]] = -1
    return out
