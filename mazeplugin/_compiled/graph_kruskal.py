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
from .grid import i32, i64, u8
from .lattice import edge_cells
from .sort import stable_argsort
from .unionfind import rem_join, self_parents


@njit(types.void(types.int64, i64, i64, i32, u8, types.int64, types.int64, types.int64), cache=True, nogil=True)
def join_in_order(cells: int, a: Any, b: Any, order: Any, opened: Any, shape: int, width: int, height: int) -> None:
    """Kruskal's pass: open edge ``order[i]`` (cells ``a[k]``, ``b[k]``) when it joins two sets. On a
    hex or triangle lattice (``shape`` > 0) the cells of edge ``k`` are worked out from ``k``
    (:func:`~mazeplugin._compiled.lattice.edge_cells`; ``a`` and ``b`` are not read), as the
    square kernel works out its walls: no edge arrays to build, none to miss the cache on."""
    parent = self_parents(cells)
    sets = cells
    for i in range(order.size):
        if sets == 1:  # one tree: as union_each, stop
            break
        k = np.int64(order[i])
        if shape:
            x, y = edge_cells(shape, width, height, int(k))
        else:
            x, y = a[k], b[k]
        if rem_join(parent, x, y):
            sets -= 1
            opened[k] = 1


def edge_ends(grid: Grid) -> "tuple[np.ndarray[Any, np.dtype[np.int64]], np.ndarray[Any, np.dtype[np.int64]]]":
    """The two cells of each edge, as contiguous arrays."""
    return np.ascontiguousarray(grid.edges[:, 0]), np.ascontiguousarray(grid.edges[:, 1])


def join_edges(grid: Grid, order: "np.ndarray[Any, np.dtype[np.int32]]", opened: "np.ndarray[Any, Any]") -> None:
    """:func:`join_in_order` on ``grid``'s edges: by arithmetic on a hex or triangle grid, else its ``edges``."""
    if grid.lattice is not None:
        none = np.zeros(0, dtype=np.int64)
        join_in_order(grid.cells, none, none, order, opened, *grid.lattice)
        return
    join_in_order(grid.cells, *edge_ends(grid), order, opened, 0, 0, 0)


def generate(grid: Grid, rng: Random) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """Kruskal's generator on ``grid`` with its shuffle and union-find compiled: one bool per edge."""
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    join_edges(grid, stable_argsort(rng.raw(grid.edge_count)), opened)  # rng.permutation(edges): the same order
    return opened.view(np.bool_)
