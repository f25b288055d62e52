"""Compiled loop of :func:`mazeplugin.generators.graph.kruskal` (any grid; same passages, same draws).

The plain loop shuffles the edges with ``rng.permutation`` (the stable order
of one raw word per edge) and joins them through ``DisjointSets.union_each``;
here the same words are sorted by :func:`~mazeplugin._compiled.sort.stable_argsort`
(the same permutation) and joined with Rem's union-find. Which edges join two
sets depends only on the edges and their order, so the passages are the same.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .grid import edge_ends, i32, i64, u8
from .sort import stable_argsort
from .unionfind import rem_join, self_parents


def _join_signature(ends: Any) -> Any:
    return types.void(types.int64, ends, ends, i32, u8)


@njit([_join_signature(i64), _join_signature(i32)], cache=True, nogil=True)
def join_in_order(cells: int, a: Any, b: Any, order: Any, opened: Any) -> None:
    """Kruskal's pass: open edge ``order[i]`` (cells ``a[k]``, ``b[k]``) when it joins two sets."""
    parent = self_parents(cells)
    sets = cells
    for i in range(order.size):
        if sets == 1:  # one tree: as union_each, stop
            break
        k = np.int64(order[i])
        if rem_join(parent, a[k], b[k]):
            sets -= 1
            opened[k] = 1


def generate(grid: Grid, rng: Random) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """Kruskal's generator on ``grid`` with its shuffle and union-find compiled: one bool per edge."""
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    order = stable_argsort(rng.raw(grid.edge_count))  # rng.permutation(edges): the same permutation
    join_in_order(grid.cells, *edge_ends(grid), order, opened)
    return opened.view(np.bool_)
