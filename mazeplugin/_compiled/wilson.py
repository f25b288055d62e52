"""Compiled loop of :mod:`mazeplugin.generators.wilson`: the same walks on the same draws."""

from __future__ import annotations

from typing import Any, List

import numpy as np
from .jit import njit, types

from ..maze import Maze
from ..seeds import Random
from .grid import framed, framed_id, framed_passages, i32, i64, open_between, u8, u64, unframe_passages
from .rand import below


@njit(types.boolean(u8, u8, i32, u64, i64, types.int64, u8, u8), cache=True, nogil=True)
def walk(inside: Any, in_tree: Any, exit_of: Any, words: Any, state: Any, pitch: int, east: Any, south: Any) -> bool:
    """Walk from each cell not in the tree (row-major) and graft the loop-erased path.

    Resumable: returns False when ``words`` run out, with ``state`` =
    (next first cell, current cell of the walk or -1) to go on with new words.
    """
    step = np.array([-pitch, 1, pitch, -1], dtype=np.int64)
    first, cell = state[0], state[1]
    pos = 0
    end = inside.size - pitch
    while first < end:
        if cell < 0:
            if not inside[first] or in_tree[first]:
                first += 1
                continue
            cell = first
        while True:  # walk until the tree is hit; a step into a wall stays put
            if pos == words.size:
                state[0], state[1] = first, cell
                return False
            nxt = cell + step[below(words[pos], 4)]
            pos += 1
            if not inside[nxt]:
                nxt = cell
            exit_of[cell] = nxt
            cell = nxt
            if in_tree[cell]:
                break
        cell = first
        while not in_tree[cell]:  # graft the loop-erased path
            in_tree[cell] = 1
            nxt = exit_of[cell]
            open_between(east, south, cell, nxt)
            cell = nxt
        first += 1
        cell = -1
    state[0], state[1] = first, -1
    return True


def generate(maze: Maze, rng: Random, roots: List[int]) -> None:
    """Wilson's generator with its walks compiled; ``roots``: each part's tree root."""
    inside = framed(maze.mask, False)
    in_tree = framed(~maze.mask, True)
    in_tree[framed_id(maze, np.asarray(roots, dtype=np.int64))] = 1
    exit_of = np.zeros(inside.size, dtype=np.int32)
    east, south = framed_passages(maze)
    state = np.array([maze.width + 2, -1], dtype=np.int64)
    batch = min(1 << 16, 8 * maze.size + 64)  # the plain loop's batches of rng.integers(4, batch)
    words = np.empty(0, dtype=np.uint64)
    while not walk(inside, in_tree, exit_of, words, state, maze.width + 2, east, south):
        words = rng.raw(batch)
    unframe_passages(maze, east, south)
