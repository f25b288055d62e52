"""Compiled loop of :mod:`mazeplugin.generators.hunt_and_kill`: the same walks and hunts."""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from ..maze import Maze
from ..seeds import Random
from .grid import framed, framed_id, framed_passages, open_between, u8, u64, unframe_passages
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
