"""Compiled loop of :func:`mazeplugin.generators.graph.aldous_broder` (any grid; same walk, same draws).

The plain walk reads one float per step, ``int(u * degree)`` choosing the
neighbour; here the same raw words in the same order
(:func:`~mazeplugin._compiled.draws.feed`), turned into the same indices
``int(unit(word) * degree)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .draws import feed
from .grid import graph_arrays, i32, i64, u8, u64, walk_table
from .rand import unit


@njit(types.int64(i32, i32, u8, i32, types.int64, types.int64, u64, i64, u8, u8), cache=True, nogil=True)
def walk(offsets: Any, edge_ids: Any, degree: Any, table: Any, stride: int, common: int, words: Any, state: Any,
         visited: Any, opened: Any) -> int:
    """Walk from ``state[0]`` until ``state[1]`` cells are left unvisited (then -1) or the words
    run out (then the words read); ``state`` is updated for the next words.

    A step to the ``r``-th neighbour, ``r = int(unit(word) * degree)``, reads
    ``table`` (see :func:`~mazeplugin._compiled.grid.walk_table`).
    """
    cell, left = state[0], state[1]
    usual = np.float64(common)
    t = 0
    while left:
        if t == words.size:
            state[0], state[1] = cell, left
            return t
        u = unit(words[t])
        t += 1
        r = int(u * usual)  # the guess: ``common`` neighbours
        nxt = table[cell * stride + r]
        if degree[cell] != common:
            r = int(u * np.float64(degree[cell]))
            nxt = table[cell * stride + r]
        if not visited[nxt]:
            visited[nxt] = 1
            opened[edge_ids[offsets[cell] + r]] = 1
            left -= 1
        cell = nxt
    state[0], state[1] = cell, 0
    return -1


def generate(grid: Grid, rng: Random, start: int) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """Aldous–Broder on ``grid`` with its walk compiled: one bool per edge, True where open."""
    opened = np.zeros(len(grid.edges), dtype=np.uint8)
    visited = np.zeros(grid.cells, dtype=np.uint8)
    visited[start] = 1
    state = np.array([start, grid.cells - 1], dtype=np.int64)
    offsets, neighbours, edge_ids = graph_arrays(grid)
    degree, table, stride, common = walk_table(offsets, neighbours)

    def step(words: NDArray[np.uint64]) -> int:
        return walk(offsets, edge_ids, degree, table, stride, common, words, state, visited, opened)

    feed(step, rng, 8 * grid.cells + 64)
    return opened.astype(bool)
