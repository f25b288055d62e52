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


B3 = types.boolean[:, :, ::1]


@njit(types.void(u8, u8, types.int64, types.int64, types.int64, B3, B3, types.int64), cache=True, nogil=True)
def unframe_into(east: Any, south: Any, pitch: int, width: int, height: int, east_out: Any, south_out: Any,
                 i: int) -> None:
    """Maze ``i`` of a batch: framed passage arrays (rows of ``pitch``) copied unframed into ``east_out[i]``,
    ``south_out[i]`` (each ``height`` × ``width``)."""
    for y in range(height):
        for x in range(width):
            framed_cell = (y + 1) * pitch + x + 1
            east_out[i, y, x] = east[framed_cell] != 0
            south_out[i, y, x] = south[framed_cell] != 0


def one_word_a_cell(width: int, height: int) -> int:
    """The raw words a framed batch kernel that reads one a cell draws for a ``width`` × ``height`` maze (its
    ``words_per_maze``: the maze stream's first ones)."""
    return width * height


def carve_batch(carve_many: Any, words: NDArray[np.uint64], width: int, height: int,
                start: Tuple[int, int]) -> Tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """The passages ``(east, south)``, each ``(mazes, height, width)``, that a framed batch kernel
    ``carve_many(words, width, height, framed start cell, east, south)`` opens from cell ``start``, one
    maze a row of ``words``."""
    count = words.shape[0]
    east = np.zeros((count, height, width), dtype=np.bool_)
    south = np.zeros((count, height, width), dtype=np.bool_)
    carve_many(np.ascontiguousarray(words), width, height, (start[1] + 1) * (width + 2) + start[0] + 1, east, south)
    return east, south


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


@njit(types.int64(u8, i64, types.int64, types.int64, i64), cache=True, nogil=True, inline="always")
def around_where(flags: Any, step: Any, cell: int, value: int, choice: Any) -> int:
    """How many of framed ``cell``'s four neighbours (``cell + step[d]``, north, east, south, west) have
    ``flags`` equal to ``value``: those neighbours, in that order, in ``choice[:k]``."""
    k = 0
    for d in range(4):
        if flags[cell + step[d]] == value:
            choice[k] = cell + step[d]
            k += 1
    return k


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


def grid_roots(grid: Any, start: int) -> NDArray[np.int64]:
    """:func:`framed_roots` of a square maze's grid (a ``generators.graph.MazeGrid``) from its cell
    ``start``: that cell, then every cell of the mask in row-major order (the start alone without a mask)."""
    if grid.walls is not None:
        return np.array([framed_id(grid.maze, start)], dtype=np.int64)
    cells = np.concatenate([grid.ids[start:start + 1], grid.ids]).astype(np.int64)
    return np.asarray(framed_id(grid.maze, cells), dtype=np.int64)


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


def framed_walls(maze: Maze, east: NDArray[np.uint8], south: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """The passages a kernel opened in framed ``east`` and ``south``, one bool per inner wall of
    ``maze`` in ``Maze.walls()`` order (the edges of its grid, ``generators.graph.MazeGrid``)."""
    shape = (maze.height + 2, maze.width + 2)
    inner_east = east.view(np.bool_).reshape(shape)[1:-1, 1:-1]
    inner_south = south.view(np.bool_).reshape(shape)[1:-1, 1:-1]
    if maze.mask.all():
        return np.concatenate([inner_east[:, :-1].ravel(), inner_south[:-1, :].ravel()])
    east_walls = maze.mask[:, :-1] & maze.mask[:, 1:]
    south_walls = maze.mask[:-1, :] & maze.mask[1:, :]
    return np.concatenate([inner_east[:, :-1][east_walls], inner_south[:-1, :][south_walls]])


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


@njit(types.int64(i32, i32, types.int64, u8, i32, u8), cache=True, nogil=True)
def step_classes(offsets: Any, neighbours: Any, stride: int, kind: Any, steps: Any, degrees: Any) -> int:
    """Sort cells into kinds by their steps (``neighbour - cell``, in row order); the number
    of kinds, or -1 when there would be more than ``degrees.size``.

    ``kind[cell]`` is the cell's kind, ``steps[k * stride + r]`` and
    ``degrees[k]`` the steps and degree of kind ``k``. A hex or triangle grid
    has a dozen kinds (the two row parities or orientations, the borders),
    a polar grid one per cell or so; :func:`walk_steps` takes at most 127.
    """
    count, last = 0, 0
    for cell in range(offsets.size - 1):
        first = offsets[cell]
        d = offsets[cell + 1] - first
        found = -1
        for attempt in range(count + 1):  # the last kind seen first: rows repeat it
            k = last if attempt == 0 else attempt - 1
            if k >= count or degrees[k] != d:
                continue
            same = True
            for r in range(d):
                if steps[k * stride + r] != neighbours[first + r] - cell:
                    same = False
                    break
            if same:
                found = k
                break
        if found < 0:
            if count == degrees.size:
                return -1
            found = count
            degrees[found] = d
            for r in range(d):
                steps[found * stride + r] = neighbours[first + r] - cell
            count += 1
        kind[cell] = found
        last = found
    return count


@njit(i32(i32, i32, types.int64), cache=True, nogil=True)
def step_rows(offsets: Any, neighbours: Any, stride: int) -> Any:
    """Each cell's steps (``neighbour - cell``) at ``cell * stride``, ``stride`` slots a cell."""
    cells = offsets.size - 1
    steps = np.zeros(cells * stride, dtype=np.int32)
    for cell in range(cells):
        first = offsets[cell]
        for j in range(first, offsets[cell + 1]):
            steps[cell * stride + j - first] = neighbours[j] - cell
    return steps


WalkSteps = Tuple[NDArray[Any], NDArray[np.uint8], NDArray[np.int32], int, int, int]


def walk_steps(offsets: NDArray[np.int32], neighbours: NDArray[np.int32]) -> WalkSteps:
    """``(kind, degrees, steps, stride, common, seen)``: each cell's neighbours for the grid
    kernels' hottest loops (the Aldous–Broder and Wilson walks, the backtracker).

    The ``r``-th neighbour of ``cell`` is ``cell + steps[kind[cell] * stride + r]``
    and its degree ``degrees[kind[cell]]``; ``common`` is the most frequent
    degree. On a hex or triangle grid the kinds are a few (:func:`step_classes`):
    a walk step reads one byte per cell (``kind``, 1 MB for a million cells)
    and a table that stays in the fastest cache, as the square kernels' framed
    grid does, instead of a neighbour table of 12–24 MB. Otherwise (polar) every
    cell is its own kind (int32 ``kind``). A step guesses the cell has
    ``common`` neighbours, so the next cell's address waits on one load; the
    guess is checked against ``degrees`` and redone when wrong. Kinds are below
    ``seen``: a walk marks a cell visited by adding ``seen`` to its kind, so one
    load per step tells both, as the square kernels' one byte per framed cell.
    """
    degree = np.diff(offsets)
    stride = max(int(degree.max(initial=0)), 1)
    if stride > 255:  # degrees are bytes here; every grid of mazeplugin has at most 6 neighbours a cell
        raise ValueError(f"a cell has {stride} neighbours; the grid kernels take at most 255")
    common = int(np.argmax(np.bincount(degree)))
    kind = np.empty(len(degree), dtype=np.uint8)
    steps = np.zeros(127 * stride, dtype=np.int32)
    degrees = np.zeros(127, dtype=np.uint8)
    if step_classes(offsets, neighbours, stride, kind, steps, degrees) >= 0:
        return kind, degrees, steps, stride, common, 128
    return (np.arange(len(degree), dtype=np.int32), degree.astype(np.uint8), step_rows(offsets, neighbours, stride),
            stride, common, 1 << 30)
