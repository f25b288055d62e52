"""The hex and triangle lattices by arithmetic: each cell's kind and steps, and the edge between two
neighbours, without the grid's neighbour arrays; and the neighbour tables the grid kernels loop over, a
lattice's or any other grid's rows (:func:`neighbour_rows`, :func:`walk_table`).

A hex or triangle grid's neighbours follow from the cell numbers
(:mod:`mazeplugin.grids.hex`, :mod:`mazeplugin.grids.triangle`): which of
them a cell has depends only on its *parity* (the row's shift on the hex
grid, up or down on the triangle grid) and on which borders it touches.
So the grid kernels' cell kinds (:func:`mazeplugin._compiled.grid.walk_steps`)
come here from a byte per cell computed in bulk (:func:`lattice_steps`),
and the number of the edge a step crosses from its two cells
(:func:`edge_between`): the grid's edges sorted ``(a, b)``, counted per row
and per cell. A generator on a million hex cells then needs none of the
150 MB of int64 edges and rows, which took longer to build than a whole
square level (docs/benchmarks.md, "Grids beyond the square").

The kinds are ``parity | west << 1 | east << 2 | north << 3 | south << 4``
(the border bits: the cell is in the first or last column, the first or
last row); kinds 0 and 1 are the inner cells. ``tests/test_grid_lattice.py``
checks the steps and edge numbers against the grid's own arrays.

>>> from mazeplugin.grids import HexGrid
>>> grid = HexGrid(4, 3)
>>> a, b = grid.edges[5].tolist()
>>> edge_between(HEX, 4, 3, a, b), edge_cells(HEX, 4, 3, 5) == (a, b)
(5, True)
>>> kind, degrees, steps, stride, common, seen = lattice_steps(HEX, 4, 3)
>>> inner = kind[grid.cell_at(1, 1)]  # an inner cell of an odd row: six neighbours
>>> row = steps[inner * stride:inner * stride + degrees[inner]]
>>> (grid.cell_at(1, 1) + row).tolist() == grid.neighbours_of(grid.cell_at(1, 1)).tolist()
True
"""

from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np
from numpy.typing import NDArray

from ..grids import Grid
from .grid import graph_arrays, i32, i64, u8, walk_steps
from .gridrows import HEX, TRIANGLE
from .jit import njit, types

__all__ = ["lattice_steps", "inner_steps", "lattice_step", "edge_between", "edge_cells", "parity_of", "KINDS", "SEEN",
           "BORDER"]

KINDS = 32
"""Kind numbers are below this: a parity bit and four border bits."""
SEEN = 128
"""Added to a cell's kind byte when a walk has visited it (above every kind)."""
BORDER = 0x1E
"""The border bits of a kind: zero for an inner cell."""


def _neighbours(shape: int, width: int, height: int, x: int, y: int) -> List[int]:
    """The neighbours of cell ``(x, y)``, ascending (the order of the grid's rows)."""
    if shape == HEX:
        s = y & 1  # odd rows sit half a cell right
        near = [(x - 1 + s, y - 1), (x + s, y - 1), (x - 1, y), (x + 1, y), (x - 1 + s, y + 1), (x + s, y + 1)]
    elif (x + y) % 2 == 0:  # an upward triangle: its flat side below
        near = [(x - 1, y), (x + 1, y), (x, y + 1)]
    else:
        near = [(x, y - 1), (x - 1, y), (x + 1, y)]
    return sorted(v * width + u for u, v in near if 0 <= u < width and 0 <= v < height)


def _kind(shape: int, width: int, height: int, x: int, y: int) -> int:
    parity = y & 1 if shape == HEX else (x + y) & 1
    return parity | (x == 0) << 1 | (x == width - 1) << 2 | (y == 0) << 3 | (y == height - 1) << 4


def lattice_steps(shape: int, width: int, height: int) -> Tuple[NDArray[np.uint8], NDArray[np.uint8],
                                                                NDArray[np.int32], int, int, int]:
    """``(kind, degrees, steps, stride, common, seen)`` of a hex or triangle lattice, as
    :func:`mazeplugin._compiled.grid.walk_steps` gives them from the grid's rows: the ``r``-th
    neighbour of ``cell`` is ``cell + steps[kind[cell] * stride + r]``, of ``degrees[kind[cell]]``.
    """
    if shape not in (HEX, TRIANGLE):
        raise ValueError(f"shape must be HEX ({HEX}) or TRIANGLE ({TRIANGLE}), got {shape!r}")
    xs, ys = np.arange(width), np.arange(height)
    columns = ((xs == 0) * 2 + (xs == width - 1) * 4).astype(np.uint8)
    rows = ((ys == 0) * 8 + (ys == height - 1) * 16).astype(np.uint8)
    if shape == HEX:
        kind = (rows | (ys & 1).astype(np.uint8))[:, None] | columns[None, :]
    else:
        kind = (rows | (ys & 1).astype(np.uint8))[:, None] ^ (columns | (xs & 1).astype(np.uint8))[None, :]
    # Each kind's steps from one cell of it: every kind a lattice has is found among the cells
    # within two of a border (two inner columns or rows give both parities).
    near_x = sorted({x for x in (0, 1, 2, width - 3, width - 2, width - 1) if 0 <= x < width})
    near_y = sorted({y for y in (0, 1, 2, height - 3, height - 2, height - 1) if 0 <= y < height})
    found = {}
    for y in near_y:
        for x in near_x:
            k = _kind(shape, width, height, x, y)
            if k not in found:
                cell = y * width + x
                found[k] = [n - cell for n in _neighbours(shape, width, height, x, y)]
    stride = max([len(s) for s in found.values()] + [1])
    degrees = np.zeros(KINDS, dtype=np.uint8)
    steps = np.zeros(KINDS * stride, dtype=np.int32)
    for k, row in found.items():
        degrees[k] = len(row)
        steps[k * stride:k * stride + len(row)] = row
    common = int(degrees[0]) if 0 in found else int(degrees.max())  # the inner cells', on all but thin grids
    return kind.reshape(-1), degrees, steps, stride, common, SEEN


def inner_steps(shape: int, width: int) -> Tuple[NDArray[np.int32], NDArray[np.uint8], int]:
    """``(steps, flip, degree)`` of the inner cells (kinds 0 and 1): the ``r``-th neighbour of an inner
    cell of parity ``p`` is ``cell + steps[p * degree + r]``, and its parity ``p ^ flip[r]``.

    The parity changes with the row on the hex grid (not east or west), and with every step on the
    triangle grid (up and down alternate along a row and down a column), whatever ``p`` is.
    """
    if width < 3:  # every cell is on the west or east border: a table no walk reads
        return np.zeros(2, dtype=np.int32), np.zeros(1, dtype=np.uint8), 1
    # Cell (1, y) of a grid 5 rows high is inner; y = 2 and 1 give the hex parities 0 and 1, y = 1
    # and 2 an upward and a downward triangle.
    rows = [[n - (y * width + 1) for n in _neighbours(shape, width, 5, 1, y)]
            for y in ((2, 1) if shape == HEX else (1, 2))]
    degree = len(rows[0])
    flip = np.array([0 if shape == HEX and abs(step) == 1 else 1 for step in rows[0]], dtype=np.uint8)
    return np.array(rows[0] + rows[1], dtype=np.int32), flip, degree


@njit(types.int64(types.int64, types.int64, types.int64), cache=True, nogil=True, inline="always")
def parity_of(shape: int, width: int, cell: int) -> int:
    """The parity of ``cell``: its row's (hex), up 0 or down 1 (triangle)."""
    y = cell // width
    if shape == HEX:
        return y & 1
    return (y + cell - y * width) & 1


@njit(types.UniTuple(types.int64, 3)(types.float64, types.int64, types.int64, types.int64, types.uint8[::1],
                                     types.int32[::1], types.int64, types.int32[::1], types.uint8[::1], types.int64,
                                     types.int64, types.int64), cache=True, nogil=True, inline="always")
def lattice_step(u: float, cell: int, k: int, p: int, degrees: Any, steps: Any, stride: int, inner: Any, flip: Any,
                 degree: int, shape: int, width: int) -> Tuple[int, int, int]:
    """``(r, nxt, p)``: a random walk's step by ``u`` in [0, 1) from ``cell`` (of kind ``k``, parity ``p``) to
    its ``r``-th neighbour ``nxt``, ``r = int(u * its degree)``, and the parity of ``nxt``.

    An inner cell takes its steps from the parity the walk carries along (:func:`inner_steps`: each step
    flips it or not), not from the kind byte of the cell it stands on: the next cell's address then waits on
    no load, as on the square grid, and the byte read is only checked (visited? on a border?). A border cell
    takes its kind's steps (:func:`lattice_steps`).
    """
    if k & BORDER == 0:
        r = int(u * np.float64(degree))
        return r, cell + int(inner[p * degree + r]), p ^ int(flip[r])
    r = int(u * np.float64(degrees[k]))
    nxt = cell + int(steps[k * stride + r])
    return r, nxt, parity_of(shape, width, nxt)


@njit(types.int64(types.int64, types.int64, types.int64, types.int64, types.int64), cache=True, nogil=True,
      inline="always")
def edge_between(shape: int, width: int, height: int, a: int, b: int) -> int:
    """The number of the edge between neighbours ``a`` and ``b`` (either order): its row in the grid's
    ``edges``, sorted ``(a, b)``, counted as the lattice lays them out (each cell's edges to its
    larger neighbours: hex east, south-west, south-east; triangle east, south)."""
    if a > b:
        a, b = b, a
    y = a // width
    x = a - y * width
    east = 1 if x < width - 1 else 0
    if shape == HEX:
        row = 3 * width - 2  # every row but the last: east w - 1, south-west and south-east 2w - 1
        if y == height - 1:
            return y * row + x  # the last row: east passages only
        s = y & 1
        first = y * row + (3 * x - 1 if s == 0 and x > 0 else 3 * x)
        if east and b == a + 1:
            return first
        if b == a + width - 1 + s:  # south-west
            return first + east
        return first + east + (1 if x - 1 + s >= 0 else 0)  # south-east
    # triangle: rows above hold y * (w - 1) east edges and a south edge per upward cell
    first = y * (width - 1) + (y + 1) // 2 * ((width + 1) // 2) + y // 2 * (width // 2) + x
    if y < height - 1:
        first += (x + 1) // 2 if y & 1 == 0 else x // 2  # upward cells before x in this row
    if east and b == a + 1:
        return first
    return first + east  # south


@njit(types.UniTuple(types.int64, 2)(types.int64, types.int64, types.int64, types.int64), cache=True, nogil=True,
      inline="always")
def edge_cells(shape: int, width: int, height: int, k: int) -> Tuple[int, int]:
    """The two cells ``(a, b)``, ``a < b``, of edge ``k``: :func:`edge_between` undone (row ``k`` of the
    grid's ``edges``), so Kruskal's pass reads no edge arrays."""
    if shape == HEX:
        row = 3 * width - 2
        y = k // row if k < (height - 1) * row else height - 1
        j = k - y * row
        if y == height - 1:  # the last row: east passages only
            a = y * width + j
            return a, a + 1
        s = y & 1
        x = (j + 1) // 3 if s == 0 else j // 3
        r = j - (3 * x - 1 if s == 0 and x > 0 else 3 * x)
        a = y * width + x
        if x < width - 1:  # east is the cell's first edge
            if r == 0:
                return a, a + 1
            r -= 1
        if x - 1 + s >= 0:  # then south-west
            if r == 0:
                return a, a + width - 1 + s
        return a, a + width + s  # south-east
    # triangle: a pair of rows (even, odd) holds 3 * width - 2 edges
    pair = 3 * width - 2
    last = (height - 1) * (width - 1) + height // 2 * ((width + 1) // 2) + (height - 1) // 2 * (width // 2)
    if k >= last:  # the last row: east passages only
        a = (height - 1) * width + k - last
        return a, a + 1
    y = 2 * (k // pair)
    j = k - (y // 2) * pair
    even_row = width - 1 + (width + 1) // 2
    if j >= even_row:
        y += 1
        j -= even_row
    x = (2 * j) // 3 if y & 1 == 0 else (2 * j + 1) // 3
    r = j - (x + (x + 1) // 2 if y & 1 == 0 else x + x // 2)
    a = y * width + x
    if x < width - 1 and r == 0:
        return a, a + 1
    return a, a + width  # south, below an upward triangle


Neighbours = Tuple[NDArray[np.uint8], NDArray[np.uint8], NDArray[np.int32], int, NDArray[np.int32], NDArray[np.int32],
                   NDArray[np.int32], int, int, int]


def neighbour_rows(grid: Grid, arithmetic: bool = True) -> Neighbours:
    """``(kind, degrees, steps, stride, offsets, neighbours, edge_ids, shape, width, height)``: ``grid``'s
    neighbours for one kernel loop on every grid but the framed square one (:func:`row_of`, :func:`neighbour_at`,
    :func:`edge_at` read them).

    On a hex or triangle grid (``shape`` > 0) from the cell kinds of
    :func:`lattice_steps`, the edges counted (``offsets``, ``neighbours`` and
    ``edge_ids`` empty): no edge arrays are built. On any other grid (``shape`` 0) from its rows
    (``kind``, ``degrees`` and ``steps`` empty); there too on a lattice unless ``arithmetic``.
    """
    if grid.lattice is not None and arithmetic:
        shape, width, height = grid.lattice
        kind, degrees, steps, stride, _, _ = lattice_steps(shape, width, height)
        none = np.zeros(0, dtype=np.int32)
        return kind, degrees, steps, stride, none, none, none, shape, width, height
    offsets, neighbours, edge_ids = graph_arrays(grid)
    no_kinds = np.zeros(0, dtype=np.uint8)
    return no_kinds, no_kinds, np.zeros(0, dtype=np.int32), 0, offsets, neighbours, edge_ids, 0, 0, 0


def on_rows(result: Any, *rest: Any) -> Any:
    """The signature of a kernel returning ``result`` that takes :func:`neighbour_rows`, then ``rest``."""
    return result(u8, u8, i32, types.int64, i32, i32, i32, types.int64, types.int64, types.int64, *rest)


@njit(types.int64(types.int64, i32), cache=True, nogil=True, inline="always")
def widest(stride: int, offsets: Any) -> int:
    """The most neighbours a cell has (at least 1): ``stride`` on a lattice, else read from the rows."""
    most = max(stride, 1)
    for cell in range(offsets.size - 1):
        most = max(most, offsets[cell + 1] - offsets[cell])
    return most


@njit(types.UniTuple(types.int64, 2)(u8, u8, types.int64, i32, types.int64, types.int64), cache=True, nogil=True,
      inline="always")
def row_of(kind: Any, degrees: Any, stride: int, offsets: Any, shape: int, cell: int) -> Tuple[int, int]:
    """``(first, degree)``: ``cell``'s neighbours are slots ``first`` to ``first + degree - 1``, in the grid's
    row order, of ``steps`` (a lattice) or ``neighbours`` (see :func:`neighbour_rows`)."""
    if shape:
        k = int(kind[cell])  # (not a uint8: k * stride must not wrap)
        return k * stride, int(degrees[k])
    return int(offsets[cell]), int(offsets[cell + 1] - offsets[cell])


@njit(types.int64(i32, i32, types.int64, types.int64, types.int64), cache=True, nogil=True, inline="always")
def neighbour_at(steps: Any, neighbours: Any, shape: int, cell: int, j: int) -> int:
    """The neighbour of ``cell`` in slot ``j`` of its row (:func:`row_of`)."""
    if shape:
        return cell + int(steps[j])
    return int(neighbours[j])


@njit(types.int64(i32, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64), cache=True,
      nogil=True, inline="always")
def edge_at(edge_ids: Any, shape: int, width: int, height: int, cell: int, j: int, nxt: int) -> int:
    """The edge from ``cell`` to ``nxt``, its neighbour in slot ``j``: counted on a lattice, read on the rows."""
    if shape:
        return edge_between(shape, width, height, cell, nxt)
    return int(edge_ids[j])


@njit(types.int64(u8, types.int64, u8, u8, types.int64, i32, i32, i32, types.int64, types.int64, i64), cache=True,
      nogil=True, inline="always")
def slots_where(flags: Any, value: int, kind: Any, degrees: Any, stride: int, offsets: Any, steps: Any,
                neighbours: Any, shape: int, cell: int, choice: Any) -> int:
    """How many of ``cell``'s neighbours have ``flags`` equal to ``value``: their slots (:func:`row_of`), in
    row order, in ``choice[:k]``."""
    first, degree = row_of(kind, degrees, stride, offsets, shape, cell)
    k = 0
    for j in range(first, first + degree):
        if flags[neighbour_at(steps, neighbours, shape, cell, j)] == value:
            choice[k] = j
            k += 1
    return k


Walks = Tuple[NDArray[Any], NDArray[np.uint8], NDArray[np.int32], int, int, int, NDArray[np.int32], NDArray[np.uint8],
              int, NDArray[np.int32], NDArray[np.int32], int, int, int]


def walk_table(grid: Grid) -> Walks:
    """``(kind, degrees, steps, stride, common, seen, inner, flip, degree, offsets, edge_ids, shape, width,
    height)``: ``grid``'s neighbours for the random walks (Aldous–Broder, Wilson).

    On a hex or triangle grid (``shape`` > 0) the lattice's kinds and inner steps
    (:func:`lattice_steps`, :func:`inner_steps`),
    the edges counted (``offsets``, ``edge_ids`` empty); on any other grid (``shape`` 0) :func:`~mazeplugin._compiled.grid.walk_steps` of
    its rows (``inner``, ``flip`` empty), where a step guesses the cell has ``common`` neighbours.
    """
    if grid.lattice is not None:
        shape, width, height = grid.lattice
        none = np.zeros(0, dtype=np.int32)
        return (*lattice_steps(shape, width, height), *inner_steps(shape, width), none, none, shape, width, height)
    offsets, neighbours, edge_ids = graph_arrays(grid)
    return (*walk_steps(offsets, neighbours), np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.uint8), 0, offsets,
            edge_ids, 0, 0, 0)


def on_walks(result: Any, *rest: Any) -> Any:
    """The signatures of a kernel returning ``result`` that takes :func:`walk_table`, then ``rest``: ``kind``
    ``uint8`` (a lattice, a grid of few kinds) or ``int32`` (a polar grid: every cell its own kind)."""
    return [result(kind, u8, i32, types.int64, types.int64, types.int64, i32, u8, types.int64, i32, i32,
                   types.int64, types.int64, types.int64, *rest) for kind in (u8, i32)]
