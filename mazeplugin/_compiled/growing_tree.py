"""Compiled :mod:`mazeplugin.generators.growing_tree` on any grid, square included: the same active list, the same draws.

The plain loop's active list is a Python list: cells are appended, and the
chosen one removed with ``del active[i]``, which keeps the order of the
rest. Here the list is every cell ever appended, in order, with a Fenwick
tree counting those still active, so "the i-th active cell" and removing it
take O(log n) for any strategy; pure ``newest`` is a plain stack. The floats
are the plain draw rule's (``generators.growing_tree.draw_rule``), as raw
words: a square maze's drawn ahead, one of each kind a step
(:func:`grow_framed`, the maze framed by a ring of visited cells); every
other grid's in turn (:func:`~mazeplugin._compiled.draws.feed`): per step a
coin when ``p < 1``, a pick of the active cell when the coin says "random"
or the strategy is ``random``, and one more word when it opens a passage. Off the
square (:func:`grow`) a cell's neighbours come from its kind, and
the edges from their number on a hex or triangle grid, from the grid's rows
on any other (:func:`~mazeplugin._compiled.lattice.neighbour_rows`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .draws import feed
from .grid import around_where, framed, framed_passages, framed_walls, grid_roots, i32, i64, open_between, u8, u64
from .lattice import edge_at, neighbour_at, neighbour_rows, on_rows, row_of, widest
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
def grow_framed(
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
            k = around_where(visited, step, cell, 0, choice)
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


@njit(on_rows(types.int64, u64, i64, i32, i64, types.int64, types.float64, u8, u8), cache=True, nogil=True)
def grow(kind: Any, degrees: Any, steps: Any, stride: int, offsets: Any, neighbours: Any, edge_ids: Any, shape: int,
         width: int, height: int, words: Any, state: Any, item: Any, tree: Any, strategy: int, p: float,
         visited: Any, opened: Any) -> int:
    """Grow until no cell is active (then -1) or fewer than three words are left for a step
    (then the words read); ``state`` = (slots appended, cells active); the grid's neighbours as
    :func:`~mazeplugin._compiled.lattice.neighbour_rows` gives them."""
    stack = strategy == NEWEST and p == 1.0
    top = 1
    while top * 2 < tree.size:
        top *= 2
    choice = np.empty(widest(stride, offsets), dtype=np.int64)
    appended, active = state[0], state[1]
    t = 0
    while active:
        if words.size - t < 3:  # a step reads at most three words
            state[0], state[1] = appended, active
            return t
        by_chance = False
        if p < 1.0:
            by_chance = unit(words[t]) >= p
            t += 1
        if by_chance or strategy == RANDOM:
            at = below(words[t], active)
            t += 1
        elif strategy == NEWEST:
            at = active - 1
        elif strategy == OLDEST:
            at = 0
        else:  # MIDDLE
            at = active // 2
        slot = at if stack else fenwick_kth(tree, at, top)
        cell = item[slot]
        first, degree = row_of(kind, degrees, stride, offsets, shape, cell)
        k = 0
        for j in range(first, first + degree):
            if not visited[neighbour_at(steps, neighbours, shape, cell, j)]:
                choice[k] = j
                k += 1
        if not k:  # del active[at]
            if stack:
                appended -= 1
            else:
                fenwick_add(tree, slot, -1)
            active -= 1
            continue
        j = choice[below(words[t], k)]
        t += 1
        nxt = neighbour_at(steps, neighbours, shape, cell, j)
        opened[edge_at(edge_ids, shape, width, height, cell, j, nxt)] = 1
        visited[nxt] = 1
        item[appended] = nxt
        if not stack:
            fenwick_add(tree, appended, 1)
        appended += 1
        active += 1
    state[0], state[1] = appended, 0
    return -1


def generate(grid: Grid, rng: Random, start: int, name: str, p: float) -> NDArray[np.bool_]:
    """The growing tree on ``grid`` with its loop compiled (``name``, ``p`` from ``parse_strategy``): one bool
    per edge, True where open."""
    strategy = ("newest", "oldest", "middle", "random").index(name)
    maze = getattr(grid, "maze", None)
    if maze is not None:  # a square maze (generators.graph.MazeGrid): framed, its floats drawn ahead
        p = 0.0 if name == "random" else p
        steps, none = 2 * maze.size, np.empty(0, dtype=np.uint64)
        directions = rng.raw(steps)  # drawn in the plain rule's order: directions, coins, picks
        coins = rng.raw(steps) if 0.0 < p < 1.0 else none
        picks = rng.raw(steps) if p < 1.0 else none
        visited = framed(~maze.mask, True)
        east, south = framed_passages(maze)
        grow_framed(visited, grid_roots(grid, start), directions, coins, picks, strategy, p, maze.width + 2, east,
                    south)
        return framed_walls(maze, east, south)
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    visited = np.zeros(grid.cells, dtype=np.uint8)
    visited[start] = 1
    item = np.empty(grid.cells, dtype=np.int32)  # every cell is appended once
    tree = np.zeros(grid.cells + 1, dtype=np.int64)
    item[0] = start
    fenwick_add(tree, 0, 1)  # slot 0 active
    state = np.array([1, 1], dtype=np.int64)

    near = neighbour_rows(grid)

    def step(words: NDArray[np.uint64]) -> int:
        return grow(*near, words, state, item, tree, strategy, p, visited, opened)

    feed(step, rng, 3 * grid.cells + 64)
    return opened.view(np.bool_)
