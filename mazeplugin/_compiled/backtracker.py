"""Compiled loop of :mod:`mazeplugin.generators.backtracker` (same passages, same order of draws)."""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from ..maze import Maze
from ..seeds import Random
from .grid import framed, framed_passages, framed_roots, i64, open_between, u8, u64, unframe_passages
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
