"""A grid's compressed neighbour rows, compiled: the arrays ``Grid.__init__`` makes with numpy.

``Grid`` keeps each cell's neighbours in compressed rows: every edge seen
from both ends, ordered by cell, and within a cell first the edges that
reach it from a smaller cell, then those that leave it for a larger one,
each in edge order (numpy: a stable argsort of all edge ends). Here the same
rows by a counting sort, two passes over the edges: the same arrays, without
sorting 2 × edges keys (about a tenth of the time on a million hex cells).
"""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np
from numpy.typing import NDArray

from .jit import njit, types

i64 = types.int64[::1]


@njit(types.void(i64, i64, i64, i64, i64), cache=True, nogil=True)
def fill_rows(a: Any, b: Any, offsets: Any, neighbours: Any, edge_ids: Any) -> None:
    """Edges ``(a[k], b[k])``, ``a[k] < b[k]``, sorted, into ``offsets``, ``neighbours`` and ``edge_ids``."""
    cells = offsets.size - 1
    for k in range(a.size):
        offsets[a[k] + 1] += 1
        offsets[b[k] + 1] += 1
    for cell in range(cells):
        offsets[cell + 1] += offsets[cell]
    fill = offsets[:-1].copy()
    for k in range(b.size):  # from the smaller cell: the first of each row
        cell = b[k]
        neighbours[fill[cell]] = a[k]
        edge_ids[fill[cell]] = k
        fill[cell] += 1
    for k in range(a.size):  # to the larger cell
        cell = a[k]
        neighbours[fill[cell]] = b[k]
        edge_ids[fill[cell]] = k
        fill[cell] += 1


def compressed_rows(cells: int, pairs: NDArray[np.int64]) -> Tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """``(offsets, neighbours, edge_ids)`` of ``cells`` cells joined by the sorted ``pairs``."""
    offsets = np.zeros(cells + 1, dtype=np.int64)
    neighbours = np.empty(2 * len(pairs), dtype=np.int64)
    edge_ids = np.empty(2 * len(pairs), dtype=np.int64)
    fill_rows(np.ascontiguousarray(pairs[:, 0]), np.ascontiguousarray(pairs[:, 1]), offsets, neighbours, edge_ids)
    return offsets, neighbours, edge_ids
