"""Compiled loop of :func:`mazeplugin.generators.graph.union_find` (any grid; same passages, same draws).

The plain loop reads two floats per try (a cell, then one of its
neighbours) until the entrance and exit cells are joined; here the same raw
words in the same order (:func:`~mazeplugin._compiled.draws.feed`), and Rem's
union-find: whether a try joins two sets depends only on the tries before
it, not on how the forest is kept, so the passages are the same.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .draws import feed
from .grid import i32, u64, u8
from .lattice import edge_of, grid_kinds
from .rand import below
from .unionfind import rem_connected, rem_join


def _signature(kind: Any) -> Any:
    return types.int64(i32, i32, kind, u8, i32, types.int64, types.int64, types.int64, types.int64, u64, i32,
                       types.int64, types.int64, u8)


@njit([_signature(u8), _signature(i32)], cache=True, nogil=True)
def join(offsets: Any, edge_ids: Any, kind: Any, degrees: Any, steps: Any, stride: int, shape: int, width: int,
         height: int, words: Any, parent: Any, start: int, goal: int, opened: Any) -> int:
    """Join random cells to random neighbours until ``start`` and ``goal`` are one set (then -1)
    or fewer than two words are left (then the words read). A cell's neighbours are read from
    its kind, the edges opened from :func:`~mazeplugin._compiled.lattice.edge_of`."""
    cells = kind.size
    if rem_connected(parent, start, goal):
        return -1
    t = 0
    while words.size - t >= 2:
        cell = below(words[t], cells)
        k = kind[cell]
        r = below(words[t + 1], degrees[k])
        t += 2
        other = cell + steps[k * stride + r]
        # Only a join can connect the two: ask then, not after every try (the plain loop's answer).
        if rem_join(parent, cell, other):
            opened[edge_of(offsets, edge_ids, shape, width, height, cell, r, other)] = 1
            if rem_connected(parent, start, goal):
                return -1
    return t


def generate(grid: Grid, rng: Random, start: int, goal: int) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """The union-find web on ``grid`` with its loop compiled: one bool per edge, True where open."""
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    parent = np.arange(grid.cells, dtype=np.int32)  # Rem's forest: each cell its own parent
    kinds = grid_kinds(grid)

    def step(words: NDArray[np.uint64]) -> int:
        return join(*kinds, words, parent, start, goal, opened)

    feed(step, rng, 4 * grid.cells + 64)
    return opened.view(np.bool_)
