"""Compiled loop of :mod:`mazeplugin.generators.hunt_and_kill`: the same walks and hunts."""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..maze import Maze
from ..seeds import Random
from .grid import carve_batch, unframe_into, framed, framed_id, framed_passages, open_between, u8, u64, unframe_passages
from .rand import below


@njit(types.void(u8, u64, types.int64, types.int64, u8, u8), cache=True, nogil=True)
def hunt_and_kill(inside: Any, words: Any, start: int, pitch: int, east: Any, south: Any) -> None:
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


def generate(maze: Maze, rng: Random) -> None:
    """Hunt-and-kill with its loop compiled."""
    inside = framed(maze.mask, False)
    words = rng.raw(maze.size)  # the plain loop's rng.random(maze.size): one per opened passage
    east, south = framed_passages(maze)
    start = int(framed_id(maze, maze.cell_id(*maze.start)))
    hunt_and_kill(inside, words, start, maze.width + 2, east, south)
    unframe_passages(maze, east, south)


@njit(types.void(types.uint64[:, ::1], types.int64, types.int64, types.int64, types.boolean[:, :, ::1],
                 types.boolean[:, :, ::1]), cache=True, nogil=True)
def carve_many(words: Any, width: int, height: int, start: int, east_out: Any, south_out: Any) -> None:
    """:func:`hunt_and_kill` for a batch of full ``width`` × ``height`` mazes (no mask) from framed cell
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
        hunt_and_kill(inside, words[i], start, pitch, east, south)
        unframe_into(east, south, pitch, width, height, east_out, south_out, i)


def words_per_maze(width: int, height: int) -> int:
    """The raw words :func:`generate` draws for a ``width`` × ``height`` maze (the maze stream's first ones)."""
    return width * height


def generate_many(words: NDArray[np.uint64], width: int, height: int,
                  start: Tuple[int, int]) -> Tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """The passages ``(east, south)``, each ``(mazes, height, width)``, that :func:`generate` opens in a full
    maze whose start cell is ``start`` from each row of ``words`` (:func:`words_per_maze` words a row)."""
    return carve_batch(carve_many, words, width, height, start)
