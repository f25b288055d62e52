"""Compiled depth step of :mod:`mazeplugin.generators.division`: the same walls on the same draws.

The plain path divides every chamber of one depth in one vectorised numpy
step, drawing ``3 * chambers`` numbers per depth. Here Python still draws
those words per depth (as ``rng.raw``, the words ``rng.random`` turns into
floats), and one kernel call per depth lays the walls and lists the next
depth's chambers in the plain path's order (see :func:`divide`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from ..maze import Maze
from ..seeds import Random
from .grid import i64, passage_views, u8, u64
from .rand import below, unit


@njit(types.int64(types.int64, i64, types.int64, u64, i64, u8, u8), cache=True, nogil=True)
def divide(width: int, chambers: Any, count: int, words: Any, out: Any, east: Any, south: Any) -> int:
    """Split the ``count`` chambers ``chambers[4 * i:4 * i + 4]`` (x, y, w, h) with one
    wall each; write the next depth's chambers that can still be split to ``out`` and
    return their number.

    Word ``i`` decides the wall's direction for square chambers, word
    ``count + i`` where the wall goes and word ``2 * count + i`` where its gap
    is (``rng.random(3 * count).reshape(3, -1)`` in the plain path). The next
    depth lists, as the plain path's concatenation does: both halves of the
    chambers split across (first all upper halves, then all lower halves),
    then the left halves and the right halves of those split down.
    """
    across = np.empty(count, dtype=np.bool_)
    place = np.empty(count, dtype=np.int64)  # the wall's row (across) or column (down)
    for i in range(count):
        x, y, w, h = chambers[4 * i], chambers[4 * i + 1], chambers[4 * i + 2], chambers[4 * i + 3]
        horizontal = h > w or (h == w and unit(words[i]) < 0.5)
        across[i] = horizontal
        if horizontal:  # a wall below row wy, gap at column gx
            wy = y + below(words[count + i], h - 1)
            gx = x + below(words[2 * count + i], w)
            row = wy * width
            for c in range(x, x + w):
                south[row + c] = 0
            south[row + gx] = 1
            place[i] = wy
        else:  # a wall east of column wx, gap at row gy
            wx = x + below(words[count + i], w - 1)
            gy = y + below(words[2 * count + i], h)
            for r in range(y, y + h):
                east[r * width + wx] = 0
            east[gy * width + wx] = 1
            place[i] = wx
    n = 0
    for half in range(4):  # across-upper, across-lower, down-left, down-right
        for i in range(count):
            if across[i] != (half < 2):
                continue
            x, y, w, h = chambers[4 * i], chambers[4 * i + 1], chambers[4 * i + 2], chambers[4 * i + 3]
            p = place[i]
            if half == 0:
                h = p - y + 1
            elif half == 1:
                y, h = p + 1, y + h - p - 1
            elif half == 2:
                w = p - x + 1
            else:
                x, w = p + 1, x + w - p - 1
            if w > 1 and h > 1:
                out[4 * n], out[4 * n + 1], out[4 * n + 2], out[4 * n + 3] = x, y, w, h
                n += 1
    return n


def generate(maze: Maze, rng: Random) -> None:
    """Recursive division, each depth's step compiled; the words drawn per depth as the plain path draws them."""
    maze.east[:, :-1] = True
    maze.south[:-1, :] = True
    east, south = passage_views(maze)
    chambers = np.array([0, 0, maze.width, maze.height], dtype=np.int64)
    count = 1 if maze.width > 1 and maze.height > 1 else 0
    while count:
        out = np.empty(8 * count, dtype=np.int64)  # at most two halves each
        count = divide(maze.width, chambers, count, rng.raw(3 * count), out, east, south)
        chambers = out
