"""Compiled loop of :mod:`mazeplugin.generators.aldous_broder`: the same walk on the same draws."""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from ..maze import Maze
from ..seeds import Random
from ..maze import mask_parts
from .grid import framed, framed_id, framed_passages, i64, open_between, u8, u64, unframe_passages


# What a framed cell is to the walk: one byte, so each step reads one place.
_UNVISITED, _VISITED, _OUTSIDE = 0, 1, 2


@njit(types.void(u8, u64, i64, types.int64, u8, u8), cache=True, nogil=True)
def walk(cells: Any, words: Any, state: Any, pitch: int, east: Any, south: Any) -> None:
    """Walk on ``words`` from ``state[0]`` until ``state[1]`` cells are left unvisited
    or the words run out (a step into a wall stays put); ``state`` is updated.

    ``cells`` holds ``_UNVISITED``, ``_VISITED`` or ``_OUTSIDE`` per framed cell.
    A step's direction is ``below(word, 4)``, which is the word's top two bits
    (``unit(word) * 4`` scales by a power of two: exact, then truncated).
    """
    step = np.array([-pitch, 1, pitch, -1], dtype=np.int64)
    cell, unvisited = state[0], state[1]
    for pos in range(words.size):
        nxt = cell + step[words[pos] >> np.uint64(62)]
        seen = cells[nxt]
        if seen == _UNVISITED:
            cells[nxt] = _VISITED
            open_between(east, south, cell, nxt)
            unvisited -= 1
            if not unvisited:
                cell = nxt
                break
        if seen != _OUTSIDE:
            cell = nxt
    state[0], state[1] = cell, unvisited


def generate(maze: Maze, rng: Random) -> None:
    """Aldous–Broder with its walk compiled: one walk per part, each from a fresh batch."""
    cells = framed(~maze.mask, True) * np.uint8(_OUTSIDE)  # the ring and masked-out cells: outside
    east, south = framed_passages(maze)
    labels, count = mask_parts(maze.mask)
    sizes = np.bincount(labels[maze.mask], minlength=count)
    # The roots that start a walk in maze.roots(): the start cell, then the first
    # cell of every other part (parts are numbered by their first cell).
    start = maze.cell_id(*maze.start)
    first_cells = np.unique(labels.ravel(), return_index=True)[1][-count:] if count > 1 else np.array([start])
    start_part = int(labels.flat[start])
    order = [start_part] + [p for p in range(count) if p != start_part]
    batch = min(1 << 16, 8 * maze.size + 64)
    state = np.zeros(2, dtype=np.int64)
    for part in order:
        root = start if part == start_part else int(first_cells[part])
        framed_root = int(framed_id(maze, root))
        cells[framed_root] = _VISITED
        state[0], state[1] = framed_root, sizes[part] - 1
        while state[1]:
            walk(cells, rng.raw(batch), state, maze.width + 2, east, south)
    unframe_passages(maze, east, south)
