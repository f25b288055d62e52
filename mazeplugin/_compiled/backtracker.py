"""Compiled backtracker on any grid, square included: the same passages and the same order of draws as the
plain loops (:mod:`mazeplugin.generators.backtracker`: its framed square loop and ``on_grid``).

The plain loops read one float per carve, in order; here they are the same
raw words, turned into indices by :func:`~mazeplugin._compiled.rand.below`
exactly as ``int(u * k)``. On a square maze (:func:`carve_framed`, and
:func:`carve_many` for a batch of mazes) the maze is framed by a ring of
visited cells, so a cell's neighbours are ``cell - pitch, + 1, + pitch, - 1``
with no bounds checks, and a dead end backs up along ``parent``; on a hex or
triangle grid (:func:`carve`, ``shape`` > 0) a cell's neighbours come from
its kind (:func:`~mazeplugin._compiled.lattice.lattice_steps`) and the edge
to each from its number (:func:`~mazeplugin._compiled.lattice.edge_between`),
so the grid's edge arrays are never built; on any other grid (:func:`carve`)
from the grid's rows, read by kind (:func:`~mazeplugin._compiled.grid.walk_steps`).
"""

from __future__ import annotations

from functools import partial
from typing import Any, Tuple

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..grids import Grid
from ..maze import Maze
from ..seeds import Random
from .grid import (carve_batch, framed, framed_passages, framed_roots, framed_walls, graph_arrays, grid_roots,
                   i32, i64, one_word_a_cell, open_between, u8, u64, unframe_into, unframe_passages, walk_steps)
from .lattice import edge_between, lattice_steps
from .rand import below


@njit(types.void(u8, u64, i64, types.int64, u8, u8), cache=True, nogil=True)
def carve_framed(visited: Any, words: Any, roots: Any, pitch: int, east: Any, south: Any) -> None:
    """Depth-first over a framed square maze from each unvisited root; ``words[k]`` picks the k-th carve's
    neighbour (north, east, south, west order)."""
    parent = np.empty(visited.size, dtype=np.int32)
    choice = np.empty(4, dtype=np.int64)
    carved = 0
    for r in range(roots.size):
        root = roots[r]
        if visited[root]:
            continue
        visited[root] = 1
        cell = root
        while True:
            k = 0
            if not visited[cell - pitch]:
                choice[k] = cell - pitch
                k += 1
            if not visited[cell + 1]:
                choice[k] = cell + 1
                k += 1
            if not visited[cell + pitch]:
                choice[k] = cell + pitch
                k += 1
            if not visited[cell - 1]:
                choice[k] = cell - 1
                k += 1
            if k:
                nxt = choice[below(words[carved], k)] if k > 1 else choice[0]
                carved += 1
                visited[nxt] = 1
                parent[nxt] = cell
                open_between(east, south, cell, nxt)
                cell = nxt
            elif cell != root:
                cell = parent[cell]
            else:
                break


def _signature(kind: Any) -> Any:
    return types.void(i32, i32, kind, u8, i32, types.int64, u64, types.int64, u8, types.int64, types.int64,
                      types.int64)


@njit([_signature(u8), _signature(i32)], cache=True, nogil=True)
def carve(offsets: Any, edge_ids: Any, kind: Any, degrees: Any, steps: Any, stride: int, words: Any, start: int,
          opened: Any, shape: int, width: int, height: int) -> None:
    """Depth-first from ``start``; ``words[k]`` picks the k-th carve's neighbour among the unvisited ones.

    A cell's neighbours are read from its kind (see
    :func:`~mazeplugin._compiled.grid.walk_steps`), in the grid's row order. On a lattice
    (``shape`` > 0, ``width × height`` cells) ``offsets`` and ``edge_ids`` are not read.
    """
    cells = kind.size
    visited = np.zeros(cells, dtype=np.uint8)
    path = np.empty(cells, dtype=np.int32)
    fresh = np.empty(stride, dtype=np.int32)
    visited[start] = 1
    path[0] = start
    top, carved = 1, 0
    while top:
        cell = path[top - 1]
        row = np.int64(kind[cell]) * stride  # (np.int64: a uint8 kind times the stride must not wrap)
        k = 0
        for r in range(degrees[kind[cell]]):
            if not visited[cell + steps[row + r]]:
                fresh[k] = r
                k += 1
        if k == 0:
            top -= 1
            continue
        r = fresh[below(words[carved], k)]
        carved += 1
        nxt = cell + steps[row + r]
        opened[edge_between(shape, width, height, cell, nxt) if shape else edge_ids[offsets[cell] + r]] = 1
        visited[nxt] = 1
        path[top] = nxt
        top += 1


def _carve_square(maze: Maze, rng: Random, roots: NDArray[np.int64]) -> Tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    east, south = framed_passages(maze)
    words = rng.raw(maze.size)  # the square loop's rng.random(maze.size): one per carve
    carve_framed(framed(~maze.mask, True), words, roots, maze.width + 2, east, south)
    return east, south


def generate_maze(maze: Maze, rng: Random) -> None:
    """:func:`generate` on a square ``maze`` from its start cell, the passages written straight into it (no
    list of edges between: the square module's path, as fast as the framed loop)."""
    unframe_passages(maze, *_carve_square(maze, rng, framed_roots(maze)))


def generate(grid: Grid, rng: Random, start: int) -> NDArray[np.bool_]:
    """The backtracker on ``grid`` with its loop compiled: one bool per edge, True where open."""
    maze = getattr(grid, "maze", None)
    if maze is not None:  # a square maze (generators.graph.MazeGrid): framed
        return framed_walls(maze, *_carve_square(maze, rng, grid_roots(grid, start)))
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    words = rng.raw(max(grid.cells - 1, 0))  # the grid loop's floats: one per carve
    if grid.lattice is not None:  # hex, triangle: arithmetic (mazeplugin/_compiled/lattice.py)
        shape, width, height = grid.lattice
        kind, degrees, steps, stride, _, _ = lattice_steps(shape, width, height)
        none = np.zeros(0, dtype=np.int32)
        carve(none, none, kind, degrees, steps, stride, words, start, opened, shape, width, height)
        return opened.view(np.bool_)
    offsets, neighbours, edge_ids = graph_arrays(grid)
    kind, degrees, steps, stride, _, _ = walk_steps(offsets, neighbours)
    carve(offsets, edge_ids, kind, degrees, steps, stride, words, start, opened, 0, 0, 0)
    return opened.view(np.bool_)


@njit(types.void(types.uint64[:, ::1], types.int64, types.int64, types.int64, types.boolean[:, :, ::1],
                 types.boolean[:, :, ::1]), cache=True, nogil=True)
def carve_many(words: Any, width: int, height: int, root: int, east_out: Any, south_out: Any) -> None:
    """:func:`carve_framed` for a batch of full ``width`` × ``height`` mazes (no mask) from framed cell
    ``root``: maze ``i`` reads ``words[i]`` and leaves its passages in ``east_out[i]``, ``south_out[i]``."""
    pitch = width + 2
    size = (height + 2) * pitch
    visited = np.empty(size, dtype=np.uint8)
    east = np.empty(size, dtype=np.uint8)
    south = np.empty(size, dtype=np.uint8)
    roots = np.full(1, root, dtype=np.int64)
    for i in range(words.shape[0]):
        visited[:] = 1  # the ring stays visited; the cells are not yet
        for y in range(1, height + 1):
            visited[y * pitch + 1:y * pitch + 1 + width] = 0
        east[:] = 0
        south[:] = 0
        carve_framed(visited, words[i], roots, pitch, east, south)
        unframe_into(east, south, pitch, width, height, east_out, south_out, i)


words_per_maze = one_word_a_cell
generate_many = partial(carve_batch, carve_many)
"""The batch lane's (``pipeline_batch``): :func:`carve_many` through :func:`~mazeplugin._compiled.grid.carve_batch`."""
