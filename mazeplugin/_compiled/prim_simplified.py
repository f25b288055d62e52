"""Compiled loop of :mod:`mazeplugin.generators.prim_simplified`: the same frontier, the same draws."""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from ..maze import Maze
from ..seeds import Random
from .grid import framed, framed_passages, framed_roots, i64, open_between, u8, u64, unframe_passages
from .rand import below


@njit(types.void(u8, i64, u64, types.int64, u8, u8), cache=True, nogil=True)
def grow(in_tree: Any, roots: Any, words: Any, pitch: int, east: Any, south: Any) -> None:
    """Grow through random frontier walls (swap-remove), one tree per unvisited root.

    A wall is coded ``4 * outside_cell + k``: the outside cell's neighbour in
    direction ``k`` (north, east, south, west) is the tree cell beside it,
    pushed in the plain loop's order.
    """
    step = np.array([-pitch, 1, pitch, -1], dtype=np.int64)
    frontier = np.empty(words.size + 4, dtype=np.int64)
    taken = 0
    for r in range(roots.size):
        root = roots[r]
        if in_tree[root]:
            continue
        in_tree[root] = 1
        size = 0
        for k in range(4):
            far = root + step[k]
            if not in_tree[far]:
                frontier[size] = 4 * far + (k + 2) % 4
                size += 1
        while size:
            i = below(words[taken], size)
            taken += 1
            wall = frontier[i]
            size -= 1
            frontier[i] = frontier[size]
            nxt = wall >> 2
            if in_tree[nxt]:
                continue
            in_tree[nxt] = 1
            open_between(east, south, nxt + step[wall & 3], nxt)
            for k in range(4):
                far = nxt + step[k]
                if not in_tree[far]:
                    frontier[size] = 4 * far + (k + 2) % 4
                    size += 1


def generate(maze: Maze, rng: Random) -> None:
    """Simplified Prim's with its loop compiled."""
    words = rng.raw(2 * maze.size)  # the plain loop's rng.random(2 * maze.size)
    in_tree = framed(~maze.mask, True)
    east, south = framed_passages(maze)
    grow(in_tree, framed_roots(maze), words, maze.width + 2, east, south)
    unframe_passages(maze, east, south)
