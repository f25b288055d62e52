"""Compiled :mod:`mazeplugin.generators.hunt_and_kill` on any grid, square included: the same walks and hunts.

The plain loop reads one float per opened passage, whether a walk step or a
hunt's link back (at most ``cells - 1`` in all, in order); here they are the
same raw words, turned into indices by :func:`~mazeplugin._compiled.rand.below`
exactly as ``int(u * k)``. On a square maze (:func:`carve_framed`, and
:func:`carve_many` for a batch of mazes) the maze is framed by a ring of
blocked cells, so a cell's neighbours are ``cell - pitch, + 1, + pitch, - 1``
with no bounds checks; on a hex or triangle grid (:func:`lattice_carve`) a
cell's neighbours come from its kind and the edges from their number
(:mod:`mazeplugin._compiled.lattice`); on any other grid (:func:`carve`) from
the grid's rows.
"""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .grid import (carve_batch, framed, framed_id, framed_passages, framed_walls, graph_arrays, i32, open_between, u8,
                   u64, unframe_into)
from .lattice import edge_between, lattice_steps
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
        k = 0
        for d in range(4):
            if not visited[cell + step[d]]:
                choice[k] = cell + step[d]
                k += 1
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
            k = 0
            for d in range(4):
                if carved[found + step[d]]:
                    choice[k] = found + step[d]
                    k += 1
            open_between(east, south, found, choice[below(words[opened], k)])
            cell = found
        visited[cell] = carved[cell] = 1
        opened += 1


@njit(types.void(i32, i32, i32, u64, types.int64, u8), cache=True, nogil=True)
def carve(offsets: Any, neighbours: Any, edge_ids: Any, words: Any, start: int, opened: Any) -> None:
    """Walk from ``start`` to random unvisited neighbours; when stuck, hunt in cell order for
    the first unvisited cell beside a visited one and link it to a random visited neighbour."""
    cells = offsets.size - 1
    widest = 1
    for cell in range(cells):
        widest = max(widest, offsets[cell + 1] - offsets[cell])
    visited = np.zeros(cells, dtype=np.uint8)
    choice = np.empty(widest, dtype=np.int32)
    visited[start] = 1
    cell, scan, t = start, 0, 0
    while cell >= 0:
        k = 0
        for j in range(offsets[cell], offsets[cell + 1]):
            if not visited[neighbours[j]]:
                choice[k] = j
                k += 1
        if k:  # kill: walk on
            j = choice[below(words[t], k)]
            t += 1
            opened[edge_ids[j]] = 1
            cell = neighbours[j]
            visited[cell] = 1
            continue
        while scan < cells and visited[scan]:  # every cell before `scan` is visited
            scan += 1
        cell = -1
        for hunted in range(scan, cells):  # hunt
            if not visited[hunted]:
                k = 0
                for j in range(offsets[hunted], offsets[hunted + 1]):
                    if visited[neighbours[j]]:
                        choice[k] = j
                        k += 1
                if k:
                    opened[edge_ids[choice[below(words[t], k)]]] = 1
                    t += 1
                    visited[hunted] = 1
                    cell = hunted
                    break


@njit(types.void(u8, u8, i32, types.int64, types.int64, types.int64, types.int64, u64, types.int64, u8), cache=True,
      nogil=True)
def lattice_carve(kind: Any, degrees: Any, steps: Any, stride: int, shape: int, width: int, height: int, words: Any,
                  start: int, opened: Any) -> None:
    """:func:`carve` on a hex or triangle lattice: the ``r``-th neighbour of ``cell`` is
    ``cell + steps[kind[cell] * stride + r]`` (row order), the edge to it counted by ``edge_between``."""
    cells = kind.size
    visited = np.zeros(cells, dtype=np.uint8)
    choice = np.empty(max(stride, 1), dtype=np.int32)
    visited[start] = 1
    cell, scan, t = start, 0, 0
    while cell >= 0:
        row = kind[cell] * stride
        k = 0
        for r in range(degrees[kind[cell]]):
            if not visited[cell + steps[row + r]]:
                choice[k] = r
                k += 1
        if k:  # kill: walk on
            r = choice[below(words[t], k)]
            t += 1
            nxt = cell + steps[row + r]
            opened[edge_between(shape, width, height, cell, nxt)] = 1
            cell = nxt
            visited[cell] = 1
            continue
        while scan < cells and visited[scan]:  # every cell before `scan` is visited
            scan += 1
        cell = -1
        for hunted in range(scan, cells):  # hunt
            if not visited[hunted]:
                row = kind[hunted] * stride
                k = 0
                for r in range(degrees[kind[hunted]]):
                    if visited[hunted + steps[row + r]]:
                        choice[k] = r
                        k += 1
                if k:
                    r = choice[below(words[t], k)]
                    t += 1
                    opened[edge_between(shape, width, height, hunted, hunted + steps[row + r])] = 1
                    visited[hunted] = 1
                    cell = hunted
                    break


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
    if grid.lattice is not None:  # hex, triangle: arithmetic (mazeplugin/_compiled/lattice.py)
        shape, width, height = grid.lattice
        kind, degrees, steps, stride, _, _ = lattice_steps(shape, width, height)
        lattice_carve(kind, degrees, steps, stride, shape, width, height, words, start, opened)
        return opened.view(np.bool_)
    offsets, neighbours, edge_ids = graph_arrays(grid)
    carve(offsets, neighbours, edge_ids, words, start, opened)
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


def words_per_maze(width: int, height: int) -> int:
    """The raw words :func:`generate` draws for a ``width`` × ``height`` maze (the maze stream's first ones)."""
    return width * height


def generate_many(words: NDArray[np.uint64], width: int, height: int,
                  start: Tuple[int, int]) -> Tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """The passages ``(east, south)``, each ``(mazes, height, width)``, that :func:`generate` opens in a full
    maze whose start cell is ``start`` from each row of ``words`` (:func:`words_per_maze` words a row)."""
    return carve_batch(carve_many, words, width, height, start)
