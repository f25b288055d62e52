"""Grid helpers shared by the kernels: framed cell numbers and opening passages.

Kernels walk a copy of the grid framed by a ring of blocked cells (pitch
``width + 2``), so the neighbours of framed cell ``f`` are ``f - pitch``,
``f + 1``, ``f + pitch``, ``f - 1`` (north, east, south, west) with no bounds
checks; the plain backtracker and hunt-and-kill loops do the same.
"""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np
from .jit import njit, types
from numpy.typing import NDArray

from ..grids import Grid
from ..maze import Maze

u8 = types.uint8[::1]
i32 = types.int32[::1]
i64 = types.int64[::1]
u64 = types.uint64[::1]
f64 = types.float64[::1]


@njit(types.int64(types.int64, types.int64, types.int64), cache=True, nogil=True)
def cell_of(framed: int, pitch: int, width: int) -> int:
    """The maze cell id of framed cell ``framed``."""
    return (framed // pitch - 1) * width + framed % pitch - 1


@njit(types.void(u8, u8, types.int64, types.int64), cache=True, nogil=True, inline="always")
def open_between(east: Any, south: Any, a: int, b: int) -> None:
    """Open the passage between neighbouring framed cells ``a`` and ``b`` in framed
    passage arrays (see :func:`framed_passages`)."""
    if a < b:
        if b - a == 1:
            east[a] = 1
        else:
            south[a] = 1
    elif a - b == 1:
        east[b] = 1
    else:
        south[b] = 1


def framed(flags: NDArray[np.bool_], ring: bool) -> NDArray[np.uint8]:
    """``flags`` (h, w) framed by a ring of ``ring``, flat uint8."""
    h, w = flags.shape
    out = np.full((h + 2, w + 2), ring, dtype=np.uint8)
    out[1:-1, 1:-1] = flags
    return out.ravel()


def framed_id(maze: Maze, cells: Any) -> Any:
    """Framed numbers of maze cell ids (an int or an int array)."""
    pitch = maze.width + 2
    return (cells // maze.width + 1) * pitch + cells % maze.width + 1


def framed_roots(maze: Maze) -> NDArray[np.int64]:
    """``maze.roots()`` in framed numbers; just the start cell when there is no mask
    (one part: every later root is in the start cell's tree)."""
    start = maze.cell_id(*maze.start)
    if maze.mask.all():
        return np.array([framed_id(maze, start)], dtype=np.int64)
    cells = np.concatenate([[start], maze.cells()]).astype(np.int64)
    return np.asarray(framed_id(maze, cells), dtype=np.int64)


def framed_passages(maze: Maze) -> Tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """Framed ``east`` and ``south`` arrays for a kernel to open passages in
    (indexed by framed cell numbers: no division per passage)."""
    size = (maze.height + 2) * (maze.width + 2)
    return np.zeros(size, dtype=np.uint8), np.zeros(size, dtype=np.uint8)


def unframe_passages(maze: Maze, east: NDArray[np.uint8], south: NDArray[np.uint8]) -> None:
    """Open in ``maze`` the passages a kernel opened in framed ``east`` and ``south``."""
    shape = (maze.height + 2, maze.width + 2)
    maze.east |= east.view(np.bool_).reshape(shape)[1:-1, 1:-1]
    maze.south |= south.view(np.bool_).reshape(shape)[1:-1, 1:-1]


def passage_views(maze: Maze) -> Tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """Flat uint8 views of ``maze.east`` and ``maze.south`` for a kernel to write into."""
    views = []
    for array in (maze.east, maze.south):
        if not array.flags.c_contiguous:  # never for a Maze made here; be safe for plugins
            raise ValueError("maze passage arrays must be C-contiguous")
        views.append(array.reshape(-1).view(np.uint8))
    return views[0], views[1]


def graph_arrays(grid: Grid) -> Tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int32]]:
    """``grid``'s ``offsets``, ``neighbours`` and ``edge_ids`` as int32, for the grid kernels.

    The kernels read them at random, step after step: half the memory of the
    int64 originals is about a third less time on a million hex cells, for a
    copy of a few milliseconds (grids have far fewer than 2**31 edge slots).
    """
    return grid.offsets.astype(np.int32), grid.neighbours.astype(np.int32), grid.edge_ids.astype(np.int32)


@njit(i32(i32, i32, types.int64), cache=True, nogil=True)
def pad_rows(offsets: Any, neighbours: Any, stride: int) -> Any:
    """Each cell's neighbours at ``cell * stride``, ``stride`` slots a cell (the rest 0)."""
    cells = offsets.size - 1
    table = np.zeros(cells * stride, dtype=np.int32)
    for cell in range(cells):
        first = offsets[cell]
        for j in range(first, offsets[cell + 1]):
            table[cell * stride + j - first] = neighbours[j]
    return table


def walk_table(offsets: NDArray[np.int32],
               neighbours: NDArray[np.int32]) -> Tuple[NDArray[np.uint8], NDArray[np.int32], int, int]:
    """``(degree, table, stride, common)`` for random walks (Aldous–Broder, Wilson).

    ``table[cell * stride + r]`` is ``neighbours[offsets[cell] + r]``; ``common``
    is the most frequent degree. A walk step then guesses the cell has
    ``common`` neighbours, so the next cell's address depends on the current
    cell and the word alone; the guess is checked against ``degree`` (a byte)
    beside it and redone when wrong. That shortens the chain of loads each step
    waits for: about half the time of reading ``offsets`` first.
    """
    degree = np.diff(offsets).astype(np.uint8)  # at most 6 on every grid here
    stride = max(int(degree.max(initial=0)), 1)
    common = int(np.argmax(np.bincount(degree)))
    return degree, pad_rows(offsets, neighbours, stride), stride, common
