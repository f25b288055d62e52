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
from .grid import graph_arrays, i32, i64, u8, u64, walk_steps
from .rand import unit


def _signature(kind: Any) -> Any:
    return types.int64(i32, i32, kind, u8, i32, types.int64, types.int64, types.int64, u64, i64, u8)


@njit([_signature(u8), _signature(i32)], cache=True, nogil=True)
def walk(offsets: Any, edge_ids: Any, kind: Any, degrees: Any, steps: Any, stride: int, common: int, seen: int,
         words: Any, state: Any, opened: Any) -> int:
    """Walk from ``state[0]`` until ``state[1]`` cells are left unvisited (then -1) or the words
    run out (then the words read); ``state`` is updated for the next words.

    A step goes to the ``r``-th neighbour, ``r = int(unit(word) * degree)``,
    read from the cell's kind (see :func:`~mazeplugin._compiled.grid.walk_steps`);
    ``kind[cell] >= seen`` marks a visited cell.
    """
    cell, left = state[0], state[1]
    usual = np.float64(common)
    k = kind[cell] - seen  # the walk stands on visited cells only
    t = 0
    while left:
        if t == words.size:
            state[0], state[1] = cell, left
            return t
        u = unit(words[t])
        t += 1
        r = int(u * usual)  # the guess: ``common`` neighbours
        nxt = cell + steps[k * stride + r]
        if degrees[k] != common:
            r = int(u * np.float64(degrees[k]))
            nxt = cell + steps[k * stride + r]
        b = kind[nxt]
        if b < seen:  # entered first: open the passage in
            kind[nxt] = b + seen
            opened[edge_ids[offsets[cell] + r]] = 1
            left -= 1
            k = b
        else:
            k = b - seen
        cell = nxt
    state[0], state[1] = cell, 0
    return -1


def generate(grid: Grid, rng: Random, start: int) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """Aldous–Broder on ``grid`` with its walk compiled: one bool per edge, True where open."""
    opened = np.zeros(len(grid.edges), dtype=np.uint8)
    offsets, neighbours, edge_ids = graph_arrays(grid)
    kind, degrees, steps, stride, common, seen = walk_steps(offsets, neighbours)
    kind[start] += seen
    state = np.array([start, grid.cells - 1], dtype=np.int64)

    def step(words: NDArray[np.uint64]) -> int:
        return walk(offsets, edge_ids, kind, degrees, steps, stride, common, seen, words, state, opened)

    feed(step, rng, 8 * grid.cells + 64)
    return opened.astype(bool)
