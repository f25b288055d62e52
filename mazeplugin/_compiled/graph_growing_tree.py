"""Compiled loop of :func:`mazeplugin.generators.graph.growing_tree` (any grid, every strategy; same draws).

The plain loop reads, per step: a coin when ``p < 1`` (``strategy="name:p"``),
a pick of the active cell when the coin says "random" or the strategy is
``random``, and one more float when it opens a passage; here the same raw
words in the same order (:func:`~mazeplugin._compiled.draws.feed`). Its
active list is a Python list, cells removed with ``del active[i]``, which
keeps the order of the rest; here the list is every cell ever appended, in
order, with a Fenwick tree counting those still active (as the square
kernel, :mod:`mazeplugin._compiled.growing_tree`), and pure ``newest`` a
plain stack. On a hex or triangle grid (:func:`lattice_grow`, the same loop)
a cell's neighbours come from its kind and the edges from their number
(:mod:`mazeplugin._compiled.lattice`): no neighbour rows to build.
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
from .lattice import edge_between, lattice_steps
from .growing_tree import MIDDLE, NEWEST, OLDEST, RANDOM, fenwick_add, fenwick_kth
from .rand import below, unit


@njit(types.int64(i32, i32, i32, u64, i64, i32, i64, types.int64, types.float64, u8, u8),
      cache=True, nogil=True)
def grow(offsets: Any, neighbours: Any, edge_ids: Any, words: Any, state: Any, item: Any, tree: Any,
         strategy: int, p: float, visited: Any, opened: Any) -> int:
    """Grow until no cell is active (then -1) or fewer than three words are left for a step
    (then the words read); ``state`` = (slots appended, cells active)."""
    stack = strategy == NEWEST and p == 1.0
    top = 1
    while top * 2 < tree.size:
        top *= 2
    widest = 1
    for cell in range(offsets.size - 1):
        widest = max(widest, offsets[cell + 1] - offsets[cell])
    choice = np.empty(widest, dtype=np.int32)
    appended, active = state[0], state[1]
    t = 0
    while active:
        if words.size - t < 3:  # a step reads at most three words
            state[0], state[1] = appended, active
            return t
        by_chance = False
        if p < 1.0:
            by_chance = unit(words[t]) >= p
            t += 1
        if by_chance or strategy == RANDOM:
            at = below(words[t], active)
            t += 1
        elif strategy == NEWEST:
            at = active - 1
        elif strategy == OLDEST:
            at = 0
        else:  # MIDDLE
            at = active // 2
        slot = at if stack else fenwick_kth(tree, at, top)
        cell = item[slot]
        k = 0
        for j in range(offsets[cell], offsets[cell + 1]):
            if not visited[neighbours[j]]:
                choice[k] = j
                k += 1
        if not k:  # del active[at]
            if stack:
                appended -= 1
            else:
                fenwick_add(tree, slot, -1)
            active -= 1
            continue
        j = choice[below(words[t], k)]
        t += 1
        opened[edge_ids[j]] = 1
        visited[neighbours[j]] = 1
        item[appended] = neighbours[j]
        if not stack:
            fenwick_add(tree, appended, 1)
        appended += 1
        active += 1
    state[0], state[1] = appended, 0
    return -1


@njit(types.int64(u8, u8, i32, types.int64, types.int64, types.int64, types.int64, u64, i64, i32, i64, types.int64,
                  types.float64, u8, u8), cache=True, nogil=True)
def lattice_grow(kind: Any, degrees: Any, steps: Any, stride: int, shape: int, width: int, height: int, words: Any,
                 state: Any, item: Any, tree: Any, strategy: int, p: float, visited: Any, opened: Any) -> int:
    """:func:`grow` on a hex or triangle lattice: the ``r``-th neighbour of ``cell`` is
    ``cell + steps[kind[cell] * stride + r]`` (row order), the edge to it counted by ``edge_between``."""
    stack = strategy == NEWEST and p == 1.0
    top = 1
    while top * 2 < tree.size:
        top *= 2
    choice = np.empty(max(stride, 1), dtype=np.int32)
    appended, active = state[0], state[1]
    t = 0
    while active:
        if words.size - t < 3:  # a step reads at most three words
            state[0], state[1] = appended, active
            return t
        by_chance = False
        if p < 1.0:
            by_chance = unit(words[t]) >= p
            t += 1
        if by_chance or strategy == RANDOM:
            at = below(words[t], active)
            t += 1
        elif strategy == NEWEST:
            at = active - 1
        elif strategy == OLDEST:
            at = 0
        else:  # MIDDLE
            at = active // 2
        slot = at if stack else fenwick_kth(tree, at, top)
        cell = item[slot]
        row = kind[cell] * stride
        k = 0
        for r in range(degrees[kind[cell]]):
            if not visited[cell + steps[row + r]]:
                choice[k] = r
                k += 1
        if not k:  # del active[at]
            if stack:
                appended -= 1
            else:
                fenwick_add(tree, slot, -1)
            active -= 1
            continue
        r = choice[below(words[t], k)]
        t += 1
        nxt = cell + steps[row + r]
        opened[edge_between(shape, width, height, cell, nxt)] = 1
        visited[nxt] = 1
        item[appended] = nxt
        if not stack:
            fenwick_add(tree, appended, 1)
        appended += 1
        active += 1
    state[0], state[1] = appended, 0
    return -1


def generate(grid: Grid, rng: Random, start: int, name: str, p: float) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """The growing tree on ``grid`` with its loop compiled (``name``, ``p`` from ``parse_strategy``)."""
    strategy = {"newest": NEWEST, "oldest": OLDEST, "middle": MIDDLE, "random": RANDOM}[name]
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    visited = np.zeros(grid.cells, dtype=np.uint8)
    visited[start] = 1
    item = np.empty(grid.cells, dtype=np.int32)  # every cell is appended once
    tree = np.zeros(grid.cells + 1, dtype=np.int64)
    item[0] = start
    fenwick_add(tree, 0, 1)  # slot 0 active
    state = np.array([1, 1], dtype=np.int64)

    if grid.lattice is not None:  # hex, triangle: arithmetic (mazeplugin/_compiled/lattice.py)
        shape, width, height = grid.lattice
        kind, degrees, steps, stride, _, _ = lattice_steps(shape, width, height)

        def lattice_step(words: NDArray[np.uint64]) -> int:
            return lattice_grow(kind, degrees, steps, stride, shape, width, height, words, state, item, tree,
                                strategy, p, visited, opened)

        feed(lattice_step, rng, 3 * grid.cells + 64)
        return opened.view(np.bool_)
    offsets, neighbours, edge_ids = graph_arrays(grid)

    def step(words: NDArray[np.uint64]) -> int:
        return grow(offsets, neighbours, edge_ids, words, state, item, tree, strategy, p,
                    visited, opened)

    feed(step, rng, 3 * grid.cells + 64)
    return opened.view(np.bool_)
