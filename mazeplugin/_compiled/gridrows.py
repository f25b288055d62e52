"""A grid's compressed neighbour rows, compiled: the arrays ``Grid.__init__`` makes with numpy.

``Grid`` keeps each cell's neighbours in compressed rows: every edge seen
from both ends, ordered by cell, and within a cell first the edges that
reach it from a smaller cell, then those that leave it for a larger one,
each in edge order (numpy: a stable argsort of all edge ends). Here the same
rows by a counting sort, two passes over the edges: the same arrays, without
sorting 2 × edges keys (about a tenth of the time on a million hex cells).

The regular grids (hex, triangle, the wrapping square) skip the numpy edge
pairs too: :func:`lattice_rows` walks the cells once to count each row, then
once more writing every cell's edges to its larger neighbours into the sorted
edge list and into both ends' rows (a cell's smaller neighbours have all
written themselves into its row by then), which gives the same arrays.
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


SQUARE, HEX, TRIANGLE = 0, 1, 2
"""The lattices :func:`lattice_rows` builds: a (wrapping) square grid, the hex grid, the triangle grid."""


@njit(types.int64(types.int64, types.int64, types.int64, types.int64, types.int64, types.boolean, types.boolean,
                  i64), cache=True, nogil=True, inline="always")
def larger_neighbours(shape: int, cell: int, width: int, height: int, x: int, wrap_x: bool, wrap_y: bool,
                      out: Any) -> int:
    """The neighbours of ``cell`` (column ``x``) numbered above it, ascending, into ``out``; how many."""
    y = cell // width
    count = 0
    if shape == HEX:
        shift = y & 1  # odd rows sit half a cell right (mazeplugin/grids/hex.py)
        if x < width - 1:
            out[count] = cell + 1
            count += 1
        if y < height - 1 and x - 1 + shift >= 0:
            out[count] = cell + width - 1 + shift
            count += 1
        if y < height - 1 and x + shift < width:
            out[count] = cell + width + shift
            count += 1
    elif shape == TRIANGLE:
        if x < width - 1:
            out[count] = cell + 1
            count += 1
        if (x + y) % 2 == 0 and y < height - 1:  # an upward triangle: its flat side is below
            out[count] = cell + width
            count += 1
    else:
        if x < width - 1:
            out[count] = cell + 1
            count += 1
        if wrap_x and x == 0 and width >= 3:  # round to the last cell of the row
            out[count] = cell + width - 1
            count += 1
        if y < height - 1:
            out[count] = cell + width
            count += 1
        if wrap_y and y == 0 and height >= 3:  # round to the bottom row
            out[count] = cell + (height - 1) * width
            count += 1
    return count


@njit(types.int64(types.int64, types.int64, types.int64, types.boolean, types.boolean, i64), cache=True, nogil=True)
def lattice_offsets(shape: int, width: int, height: int, wrap_x: bool, wrap_y: bool, offsets: Any) -> int:
    """A lattice's row ``offsets`` (each edge counted at both ends, then summed); the number of edges."""
    out = np.empty(4, dtype=np.int64)
    edges = 0
    x = 0
    for cell in range(width * height):
        count = larger_neighbours(shape, cell, width, height, x, wrap_x, wrap_y, out)
        offsets[cell + 1] += count
        for j in range(count):
            offsets[out[j] + 1] += 1
        edges += count
        x += 1
        if x == width:
            x = 0
    for cell in range(width * height):
        offsets[cell + 1] += offsets[cell]
    return edges


@njit(types.void(types.int64, types.int64, types.int64, types.boolean, types.boolean, i64, types.int64[:, ::1], i64,
                 i64), cache=True, nogil=True)
def lattice_fill(shape: int, width: int, height: int, wrap_x: bool, wrap_y: bool, offsets: Any, pairs: Any,
                 neighbours: Any, edge_ids: Any) -> None:
    """The sorted edges into ``pairs`` and each end's row slot, in one pass over the cells: every
    smaller neighbour of a cell is written (from that neighbour) before the cell writes its larger ones."""
    out = np.empty(4, dtype=np.int64)
    fill = offsets[:-1].copy()
    k = 0
    x = 0
    for cell in range(width * height):
        count = larger_neighbours(shape, cell, width, height, x, wrap_x, wrap_y, out)
        for j in range(count):
            other = out[j]
            pairs[k, 0] = cell
            pairs[k, 1] = other
            neighbours[fill[cell]] = other
            edge_ids[fill[cell]] = k
            fill[cell] += 1
            neighbours[fill[other]] = cell
            edge_ids[fill[other]] = k
            fill[other] += 1
            k += 1
        x += 1
        if x == width:
            x = 0


def lattice_rows(shape: int, width: int, height: int, wrap_x: bool = False,
                 wrap_y: bool = False) -> Tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """``(edges, offsets, neighbours, edge_ids)`` of a ``width × height`` lattice (``shape`` one of
    :data:`SQUARE`, :data:`HEX`, :data:`TRIANGLE`), equal to what its grid class and ``Grid.__init__`` make with numpy.

    The arrays are numpy's own (allocated here, not in compiled code): numpy asks the kernel for huge
    pages, and touching 150 MB of fresh small pages would cost more than the whole pass.
    """
    offsets = np.zeros(width * height + 1, dtype=np.int64)
    edges = lattice_offsets(shape, width, height, wrap_x, wrap_y, offsets)
    pairs = np.empty((edges, 2), dtype=np.int64)
    neighbours = np.empty(2 * edges, dtype=np.int64)
    edge_ids = np.empty(2 * edges, dtype=np.int64)
    lattice_fill(shape, width, height, wrap_x, wrap_y, offsets, pairs, neighbours, edge_ids)
    return pairs, offsets, neighbours, edge_ids
