"""Compiled loop of :mod:`mazeplugin.generators.backtracker` (same passages, same order of draws)."""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..maze import Maze
from ..seeds import Random
from .grid import carve_batch, unframe_into, framed, framed_passages, framed_roots, i64, open_between, u8, u64, unframe_passages
from .rand import below


@njit(types.void(u8, u64, i64, types.int64, u8, u8), cache=True, nogil=True)
def carve(visited: Any, words: Any, roots: Any, pitch: int, east: Any, south: Any) -> None:
    """Depth-first from each unvisited root; ``words[k]`` picks the k-th carve's neighbour."""
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


def generate(maze: Maze, rng: Random) -> None:
    """The backtracker generator with its loop compiled."""
    visited = framed(~maze.mask, True)  # the ring and cells outside the mask count as visited
    words = rng.raw(maze.size)  # the plain loop's rng.random(maze.size): one per carve
    east, south = framed_passages(maze)
    carve(visited, words, framed_roots(maze), maze.width + 2, east, south)
    unframe_passages(maze, east, south)


@njit(types.void(types.uint64[:, ::1], types.int64, types.int64, types.int64, types.boolean[:, :, ::1],
                 types.boolean[:, :, ::1]), cache=True, nogil=True)
def carve_many(words: Any, width: int, height: int, root: int, east_out: Any, south_out: Any) -> None:
    """:func:`carve` for a batch of full ``width`` × ``height`` mazes (no mask) from framed cell ``root``:
    maze ``i`` reads ``words[i]`` and leaves its passages in ``east_out[i]``, ``south_out[i]``."""
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
        carve(visited, words[i], roots, pitch, east, south)
        unframe_into(east, south, pitch, width, height, east_out, south_out, i)


def words_per_maze(width: int, height: int) -> int:
    """The raw words :func:`generate` draws for a ``width`` × ``height`` maze (the maze stream's first ones)."""
    return width * height


def generate_many(words: NDArray[np.uint64], width: int, height: int,
                  start: Tuple[int, int]) -> Tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """The passages ``(east, south)``, each ``(mazes, height, width)``, that :func:`generate` opens in a full
    maze whose start cell is ``start`` from each row of ``words`` (:func:`words_per_maze` words a row)."""
    return carve_batch(carve_many, words, width, height, start)
