"""Compiled rows of :mod:`mazeplugin.generators.eller`: the same sets, the same draws.

The plain loop keeps each set's cells as a list, in the order merges made
it (the larger set first), because a set with no random downward passage
goes down at ``cells[int(pick[cells[0]] * len(cells))]``: that order
decides the maze. Here each set is a linked list of cells kept in that same
order. Set labels are renumbered after every row (only which cells share a
set matters), so they stay below ``width``.
"""

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Tuple

import numpy as np
from .jit import njit, types

from ..maze import Maze
from ..seeds import Random
from .grid import i64, passage_views, u8, u64
from .rand import unit


@njit(types.void(i64, u64, types.int64, types.int64, types.int64, u8, u8), cache=True, nogil=True)
def rows(sets: Any, words: Any, y0: int, count: int, height: int, east: Any, south: Any) -> None:
    """Rows ``y0 … y0 + count - 1`` of an Eller maze (``height`` -1: endless).

    ``sets``: each cell's set label in the row above (labels < width), updated
    in place; ``words``: ``3 * width - 1`` raw words per row (join, down, pick);
    ``east``/``south``: ``count * width`` flags, row after row.
    """
    w = sets.size
    per_row = max(w - 1, 0) + 2 * w
    head = np.full(w, -1, dtype=np.int64)
    tail = np.empty(w, dtype=np.int64)
    size = np.zeros(w, dtype=np.int64)
    nxt = np.empty(w, dtype=np.int64)
    remap = np.full(w, -1, dtype=np.int64)
    for r in range(count):
        last = y0 + r == height - 1
        base = r * per_row
        join = base
        down = base + max(w - 1, 0)
        pick = down + w
        out = r * w
        for x in range(w):  # each set's cells, ascending, as the plain loop builds them
            label = sets[x]
            if size[label] == 0:
                head[label] = x
            else:
                nxt[tail[label]] = x
            tail[label] = x
            nxt[x] = -1
            size[label] += 1
        for x in range(w - 1):
            a, b = sets[x], sets[x + 1]
            if a != b and (last or unit(words[join + x]) < 0.5):
                east[out + x] = 1
                if size[a] < size[b]:
                    a, b = b, a  # relabel the smaller set
                c = head[b]
                while c >= 0:
                    sets[c] = a
                    c = nxt[c]
                nxt[tail[a]] = head[b]
                tail[a] = tail[b]
                size[a] += size[b]
                size[b] = 0
        if not last:
            for x in range(w):
                label = sets[x]
                if head[label] != x:
                    continue  # each set once, from its first cell
                going = False
                c = x
                while c >= 0:
                    if unit(words[down + c]) < 0.5:
                        south[out + c] = 1
                        going = True
                    c = nxt[c]
                if not going:
                    k = np.int64(unit(words[pick + x]) * np.float64(size[label]))
                    c = x
                    for _ in range(k):
                        c = nxt[c]
                    south[out + c] = 1
        for x in range(w):
            size[sets[x]] = 0
            head[sets[x]] = -1
        if last:
            continue
        # Cells with no passage down start sets of their own; renumber below w.
        fresh = 0
        for x in range(w):
            if south[out + x]:
                label = sets[x]
                if remap[label] < 0:
                    remap[label] = fresh
                    fresh += 1
                nxt[x] = remap[label]
            else:
                nxt[x] = -1
        for x in range(w):
            if south[out + x]:
                remap[sets[x]] = -1
        for x in range(w):
            if nxt[x] < 0:
                sets[x] = fresh
                fresh += 1
            else:
                sets[x] = nxt[x]


def generate(maze: Maze, rng: Random) -> None:
    """Eller's generator with its rows compiled."""
    w, h = maze.width, maze.height
    per_row = max(w - 1, 0) + 2 * w
    sets = np.arange(w, dtype=np.int64)
    east, south = passage_views(maze)
    chunk = max(1, (1 << 20) // per_row)  # rows per draw: the same words as row-by-row draws
    for y in range(0, h, chunk):
        n = min(chunk, h - y)
        words = rng.raw(n * per_row)
        rows(sets, words, y, n, h, east[y * w : (y + n) * w], south[y * w : (y + n) * w])


def stream_rows(width: int, rng: Random, height: Optional[int]) -> Iterator[Tuple[List[bool], List[bool]]]:
    """``eller_rows`` with its rows compiled: ``(east, south)`` lists, forever when ``height`` is None."""
    per_row = max(width - 1, 0) + 2 * width
    sets = np.arange(width, dtype=np.int64)
    y = 0
    while height is None or y < height:
        east = np.zeros(width, dtype=np.uint8)
        south = np.zeros(width, dtype=np.uint8)
        rows(sets, rng.raw(per_row), y, 1, -1 if height is None else height, east, south)
        yield east.astype(bool).tolist(), south.astype(bool).tolist()
        y += 1
