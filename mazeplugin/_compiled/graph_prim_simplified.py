"""Compiled loop of :func:`mazeplugin.generators.graph.prim_simplified` (any grid; same passages, same draws).

The plain loop reads one float per frontier edge it takes out (swap with the
last, pop); here the same raw words in the same order
(:func:`~mazeplugin._compiled.draws.feed`), the frontier an array of edge
slots (a cell and which of its neighbours) kept in the plain list's order.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .draws import feed
from .grid import i32, i64, u64, u8
from .lattice import edge_of, grid_kinds
from .rand import below


def _signature(kind: Any, slots: Any) -> Any:
    return types.int64(i32, i32, kind, u8, i32, types.int64, types.int64, types.int64, types.int64, types.int64,
                       u64, i64, slots, u8, u8)


@njit([_signature(kind, slots) for kind in (u8, i32) for slots in (i32, i64)], cache=True, nogil=True)
def grow(offsets: Any, edge_ids: Any, kind: Any, degrees: Any, steps: Any, stride: int, shape: int, width: int,
         height: int, bits: int, words: Any, state: Any, frontier: Any, in_tree: Any, opened: Any) -> int:
    """Take random frontier edges until there are none (then -1) or the words run out (then the
    words read); ``state[0]`` is the frontier's length. A frontier edge is ``cell << bits | r``,
    the ``r``-th neighbour of ``cell`` (read from its kind)."""
    size = state[0]
    mask = (1 << bits) - 1
    t = 0
    while size:
        if t == words.size:
            state[0] = size
            return t
        i = below(words[t], size)
        t += 1
        size -= 1
        slot = frontier[i]
        frontier[i] = frontier[size]  # swap-remove, as the plain list does
        source = slot >> bits
        r = slot & mask
        cell = source + steps[kind[source] * stride + r]
        if not in_tree[cell]:
            in_tree[cell] = 1
            opened[edge_of(offsets, edge_ids, shape, width, height, source, r, cell)] = 1
            row = kind[cell] * stride
            for j in range(degrees[kind[cell]]):
                if not in_tree[cell + steps[row + j]]:
                    frontier[size] = cell << bits | j
                    size += 1
    state[0] = 0
    return -1


def generate(grid: Grid, rng: Random, start: int) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """Simplified Prim's on ``grid`` with its loop compiled: one bool per edge, True where open."""
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    in_tree = np.zeros(grid.cells, dtype=np.uint8)
    in_tree[start] = 1
    kinds = grid_kinds(grid)
    kind, degrees, stride = kinds[2], kinds[3], kinds[5]
    bits = max(stride - 1, 1).bit_length()  # a frontier edge: its cell, and which of the cell's neighbours
    # Each edge is pushed at most once from each end (when the cell it leaves joins the tree): room for all.
    frontier = np.empty(2 * grid.edge_count, dtype=np.int32 if grid.cells << bits < 1 << 31 else np.int64)
    degree = int(degrees[kind[start]])
    frontier[:degree] = (start << bits) + np.arange(degree)
    state = np.array([degree], dtype=np.int64)

    def step(words: NDArray[np.uint64]) -> int:
        return grow(*kinds, bits, words, state, frontier, in_tree, opened)

    feed(step, rng, 2 * grid.cells + 64)
    return opened.view(np.bool_)
