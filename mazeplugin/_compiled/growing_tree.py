"""Compiled loop of :mod:`mazeplugin.generators.growing_tree`: the same active list, the same draws.

The plain loop's active list is a Python list: cells are appended, and the
chosen one removed with ``del active[i]``, which keeps the order of the
rest. Here the list is every cell ever appended, in order, with a Fenwick
tree counting those still active, so "the i-th active cell" and removing it
take O(log n) for any strategy; pure ``newest`` is a plain stack.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from ..maze import Maze
from ..seeds import Random
from .grid import framed, framed_passages, framed_roots, i64, open_between, u8, u64, unframe_passages
from .rand import below, unit

NEWEST, OLDEST, MIDDLE, RANDOM = 0, 1, 2, 3


@njit(types.void(i64, types.int64, types.int64), cache=True, nogil=True)
def fenwick_add(tree: Any, slot: int, delta: int) -> None:
    """Add ``delta`` to the count of ``slot`` (a Fenwick tree over the slots)."""
    i = slot + 1
    while i < tree.size:
        tree[i] += delta
        i += i & -i


@njit(types.int64(i64, types.int64, types.int64), cache=True, nogil=True)
def fenwick_kth(tree: Any, k: int, top: int) -> int:
    """The slot of the ``k``-th (from 0) active entry; ``top``: highest power of 2 <= size."""
    pos = 0
    bit = top
    while bit:
        nxt = pos + bit
        if nxt < tree.size and tree[nxt] <= k:
            pos = nxt
            k -= tree[nxt]
        bit >>= 1
    return pos


@njit(
    types.void(u8, i64, u64, u64, u64, types.int64, types.float64, types.int64, u8, u8),
    cache=True,
    nogil=True,
)
def grow(
    visited: Any, roots: Any, directions: Any, coins: Any, picks: Any,
    strategy: int, p: float, pitch: int, east: Any, south: Any,
) -> None:
    """Grow a tree from each unvisited root; ``coins``/``picks`` are empty when unused."""
    step = np.array([-pitch, 1, pitch, -1], dtype=np.int64)
    choice = np.empty(4, dtype=np.int64)
    capacity = directions.size // 2 + 1  # appends: at most one per cell
    item = np.empty(capacity, dtype=np.int64)
    stack = strategy == NEWEST and p == 1.0
    tree = np.zeros(capacity + 1, dtype=np.int64)
    top = 1
    while top * 2 <= capacity:
        top *= 2
    appended = 0  # slots used (stack: its height)
    active = 0
    t = 0  # the step: index of its random numbers
    for r in range(roots.size):
        root = roots[r]
        if visited[root]:
            continue
        visited[root] = 1
        if stack:
            item[0] = root
            appended = 1
        else:
            item[appended] = root
            fenwick_add(tree, appended, 1)
            appended += 1
        active = 1
        while active:
            if p == 1.0 or (coins.size and unit(coins[t]) < p):
                i = active - 1 if strategy == NEWEST else 0 if strategy == OLDEST else active // 2
            else:
                i = below(picks[t], active)
            slot = i if stack else fenwick_kth(tree, i, top)
            cell = item[slot]
            k = 0
            for d in range(4):
                if not visited[cell + step[d]]:
                    choice[k] = cell + step[d]
                    k += 1
            if k:
                nxt = choice[below(directions[t], k)]
                visited[nxt] = 1
                open_between(east, south, cell, nxt)
                item[appended] = nxt
                if not stack:
                    fenwick_add(tree, appended, 1)
                appended += 1
                active += 1
            else:
                if stack:
                    appended -= 1
                else:
                    fenwick_add(tree, slot, -1)
                active -= 1
            t += 1


def generate(maze: Maze, rng: Random, name: str, p: float) -> None:
    """The growing tree with its loop compiled (``name``, ``p`` from ``parse_strategy``)."""
    steps = 2 * maze.size
    none = np.empty(0, dtype=np.uint64)
    directions = rng.raw(steps)  # drawn in the plain loop's order: directions, coins, picks
    coins = rng.raw(steps) if 0.0 < p < 1.0 else none
    picks = rng.raw(steps) if p < 1.0 else none
    strategy = ("newest", "oldest", "middle", "random").index(name)
    visited = framed(~maze.mask, True)
    east, south = framed_passages(maze)
    grow(visited, framed_roots(maze), directions, coins, picks, strategy, p, maze.width + 2, east, south)
    unframe_passages(maze, east, south)
