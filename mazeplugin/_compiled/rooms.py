"""Compiled loops of the ``rooms`` generator: Nystrom's room placement and filling in dead ends.

The rest of ``rooms`` (corridors: the backtracker kernel; doors: numpy in
:mod:`mazeplugin.rooms.layer`) is compiled or vectorised already.
"""

from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np
from numba import njit, types

from ..maze import Maze
from ..seeds import Random
from .grid import i64, u8, u64
from .rand import below, unit


@njit(i64(u8, types.int64, types.int64, types.int64, types.int64, u64), cache=True, nogil=True)
def place(mask: Any, height: int, width: int, low: int, high: int, words: Any) -> Any:
    """Rooms thrown at random, four words per attempt (width, height, x, y); each kept
    when inside the mask and one cell clear of the rooms kept before. ``(kept, 4)``
    rows ``x, y, room width, room height``, as ``layer.scatter_rooms`` keeps them."""
    near = np.zeros(height * width, dtype=np.uint8)
    kept = np.empty((words.size // 4, 4), dtype=np.int64)
    count = 0
    for a in range(words.size // 4):
        rw = min(low + below(words[4 * a], high - low + 1), width)
        rh = min(low + below(words[4 * a + 1], high - low + 1), height)
        x = below(words[4 * a + 2], width - rw + 1)
        y = below(words[4 * a + 3], height - rh + 1)
        fits = True
        for yy in range(y, y + rh):
            row = yy * width
            for xx in range(x, x + rw):
                if near[row + xx] or not mask[row + xx]:
                    fits = False
                    break
            if not fits:
                break
        if not fits:
            continue
        for yy in range(max(y - 1, 0), min(y + rh + 1, height)):
            for xx in range(max(x - 1, 0), min(x + rw + 1, width)):
                near[yy * width + xx] = 1
        kept[count, 0], kept[count, 1], kept[count, 2], kept[count, 3] = x, y, rw, rh
        count += 1
    return kept[:count].ravel().copy()


def scatter(mask: Any, rng: Random, room_size: Tuple[int, int], attempts: int) -> List[Tuple[int, int, int, int]]:
    """``(x, y, width, height)`` of the rooms ``layer.scatter_rooms`` keeps, on the same draws."""
    h, w = mask.shape
    words = rng.raw(4 * attempts)  # the plain loop's rng.random(4 * attempts)
    flat = np.ascontiguousarray(mask, dtype=bool).reshape(-1).view(np.uint8)
    rows = place(flat, h, w, int(room_size[0]), int(room_size[1]), words).reshape(-1, 4)
    return [(x, y, rw, rh) for x, y, rw, rh in rows.tolist()]


@njit(types.void(u8, u8, u8, u8, u8, i64, u64, types.float64, types.int64), cache=True, nogil=True)
def fill(east: Any, south: Any, inside: Any, degree: Any, keep: Any, dead: Any, words: Any,
         prune: float, width: int) -> None:
    """Fill in each dead end whose word's ``unit`` is below ``prune``, back to a junction,
    a room or a kept cell (the plain ``_fill_dead_ends`` loop)."""
    for k in range(dead.size):
        if unit(words[k]) >= prune:
            continue
        cell = dead[k]
        while degree[cell] == 1 and not keep[cell]:
            if east[cell]:
                east[cell] = 0
                nxt = cell + 1
            elif south[cell]:
                south[cell] = 0
                nxt = cell + width
            elif east[cell - 1]:
                east[cell - 1] = 0
                nxt = cell - 1
            else:
                south[cell - width] = 0
                nxt = cell - width
            inside[cell] = 0
            degree[cell] = 0
            degree[nxt] -= 1
            cell = nxt


def fill_dead_ends(maze: Maze, rng: Random, prune: float) -> None:
    """``rooms._fill_dead_ends`` with its loop compiled."""
    degree_map = maze.degree()
    dead = np.flatnonzero(degree_map == 1).astype(np.int64)
    words = rng.raw(len(dead))  # the plain loop's rng.random(len(dead))
    keep = (maze.rooms > 0).reshape(-1).astype(np.uint8)
    keep[maze.cell_id(*maze.start)] = keep[maze.cell_id(*maze.goal)] = 1
    east, south, inside = (a.reshape(-1).view(np.uint8) for a in (maze.east, maze.south, maze.mask))
    fill(east, south, inside, degree_map.reshape(-1).view(np.uint8), keep, dead, words, float(prune), maze.width)
