"""Compiled :mod:`mazeplugin.generators.hunt_and_kill` on any grid, square included: the same walks and hunts.

The plain loop reads one float per opened passage, whether a walk step or a
hunt's link back (at most ``cells - 1`` in all, in order); here they are the
same raw words, turned into indices by :func:`~mazeplugin._compiled.rand.below`
exactly as ``int(u * k)``. On a square maze (:func:`carve_framed`, and
:func:`carve_many` for a batch of mazes) the maze is framed by a ring of
blocked cells, so a cell's neighbours are ``cell - pitch, + 1, + pitch, - 1``
with no bounds checks; on any other grid (:func:`carve`) a cell's neighbours
come from its kind and the edges from their number on a hex or triangle grid,
from the grid's rows on the rest (:func:`~mazeplugin._compiled.lattice.neighbour_rows`).
"""

from __future__ import annotations

from functools import partial
from typing import Any, Tuple

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .grid import (around_where, carve_batch, framed, framed_id, framed_passages, framed_walls, one_word_a_cell,
                   open_between, u8, u64, unframe_into)
from .lattice import edge_at, neighbour_at, neighbour_rows, on_rows, slots_where, widest
from .rand import below


@njit(types.void(u8, u64, types.int64, types.int64, u8, u8), cache=True, nogil=True)
def carve_framed(inside: Any, words: Any, start: int, pitch: int, east: Any, south: Any) -> None:
    """Walk from framed cell ``start``, hunting row by row when stuck; ``words[k]``
    picks the k-th opened passage's neighbour."""
    n = inside.size
    visited = np.empty(n, dtype=np.uint8)
    for i in range(n):
        visited[i] = 1 - inside[i]
    carved = np.zeros(n, dtype=np.uint8)
    choice = np.empty(4, dtype=np.int64)
    step = np.array([-pitch, 1, pitch, -1], dtype=np.int64)
    opened = 0
    cell = start
    visited[cell] = carved[cell] = 1
    scan = 0
    while True:
        k = around_where(visited, step, cell, 0, choice)
        if k:  # kill: walk on into a random unvisited neighbour
            nxt = choice[below(words[opened], k)]
            open_between(east, south, cell, nxt)
            cell = nxt
        else:  # hunt: the first unvisited cell beside a visited one
            while scan < n and visited[scan]:
                scan += 1
            if scan == n:
                break
            found = scan
            while found < n and (
                visited[found]
                or not (carved[found - pitch] or carved[found + 1] or carved[found + pitch] or carved[found - 1])
            ):
                found += 1
            if found == n:  # this part of the mask is done; start the next one
                cell = scan
                visited[cell] = carved[cell] = 1
                continue
            k = around_where(carved, step, found, 1, choice)
            open_between(east, south, found, choice[below(words[opened], k)])
            cell = found
        visited[cell] = carved[cell] = 1
        opened += 1


@njit(on_rows(types.void, u64, types.int64, u8), cache=True, nogil=True, inline="always")
def carve_on(kind: Any, degrees: Any, steps: Any, stride: int, offsets: Any, neighbours: Any, edge_ids: Any, shape: int,
          width: int, height: int, words: Any, start: int, opened: Any) -> None:
    """Walk from ``start`` to random unvisited neighbours; when stuck, hunt in cell order for
    the first unvisited cell beside a visited one and link it to a random visited neighbour
    (the grid's neighbours as :func:`~mazeplugin._compiled.lattice.neighbour_rows` gives them)."""
    cells = width * height if shape else offsets.size - 1
    visited = np.zeros(cells, dtype=np.uint8)
    choice = np.empty(widest(stride, offsets), dtype=np.int64)
    visited[start] = 1
    cell, scan, t = start, 0, 0
    while cell >= 0:
        k = slots_where(visited, 0, kind, degrees, stride, offsets, steps, neighbours, shape, cell, choice)
        if k:  # kill: walk on
            j = choice[below(words[t], k)]
            t += 1
            nxt = neighbour_at(steps, neighbours, shape, cell, j)
            opened[edge_at(edge_ids, shape, width, height, cell, j, nxt)] = 1
            cell = nxt
            visited[cell] = 1
            continue
        while scan < cells and visited[scan]:  # every cell before `scan` is visited
            scan += 1
        cell = -1
        for hunted in range(scan, cells):  # hunt
            if not visited[hunted]:
                k = slots_where(visited, 1, kind, degrees, stride, offsets, steps, neighbours, shape, hunted, choice)
                if k:
                    j = choice[below(words[t], k)]
                    t += 1
                    opened[edge_at(edge_ids, shape, width, height, hunted,
                                   j, neighbour_at(steps, neighbours, shape, hunted, j))] = 1
                    visited[hunted] = 1
                    cell = hunted
                    break


@njit(on_rows(types.void, u64, types.int64, u8), cache=True, nogil=True)
def carve(kind: Any, degrees: Any, steps: Any, stride: int, offsets: Any, neighbours: Any, edge_ids: Any, shape: int,
          width: int, height: int, words: Any, start: int, opened: Any) -> None:
    """:func:`carve_on` compiled twice: on a lattice and on the rows."""
    if shape:
        carve_on(kind, degrees, steps, stride, offsets, neighbours, edge_ids, shape, width, height, words, start,
                 opened)
    else:
        carve_on(kind, degrees, steps, stride, offsets, neighbours, edge_ids, 0, width, height, words, start, opened)


def generate(grid: Grid, rng: Random, start: int) -> NDArray[np.bool_]:
    """Hunt-and-kill on ``grid`` with its loop compiled: one bool per edge, True where open."""
    words = rng.raw(grid.cells)  # the plain loop's floats: one per opened passage
    maze = getattr(grid, "maze", None)
    if maze is not None:  # a square maze (generators.graph.MazeGrid): framed
        east, south = framed_passages(maze)
        framed_start = int(framed_id(maze, int(np.flatnonzero(maze.mask.ravel())[start])))
        carve_framed(framed(maze.mask, False), words, framed_start, maze.width + 2, east, south)
        return framed_walls(maze, east, south)
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    carve(*neighbour_rows(grid), words, start, opened)
    return opened.view(np.bool_)


@njit(types.void(types.uint64[:, ::1], types.int64, types.int64, types.int64, types.boolean[:, :, ::1],
                 types.boolean[:, :, ::1]), cache=True, nogil=True)
def carve_many(words: Any, width: int, height: int, start: int, east_out: Any, south_out: Any) -> None:
    """:func:`carve_framed` for a batch of full ``width`` × ``height`` mazes (no mask) from framed cell
    ``start``: maze ``i`` reads ``words[i]`` and leaves its passages in ``east_out[i]``, ``south_out[i]``."""
    pitch = width + 2
    size = (height + 2) * pitch
    inside = np.zeros(size, dtype=np.uint8)
    for y in range(1, height + 1):
        inside[y * pitch + 1:y * pitch + 1 + width] = 1
    east = np.empty(size, dtype=np.uint8)
    south = np.empty(size, dtype=np.uint8)
    for i in range(words.shape[0]):
        east[:] = 0
        south[:] = 0
        carve_framed(inside, words[i], start, pitch, east, south)
        unframe_into(east, south, pitch, width, height, east_out, south_out, i)


words_per_maze = one_word_a_cell
generate_many = partial(carve_batch, carve_many)
"""The batch lane's (``pipeline_batch``): :func:`carve_many` through :func:`~mazeplugin._compiled.grid.carve_batch`."""
