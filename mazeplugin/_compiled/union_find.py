"""Compiled loop of :mod:`mazeplugin.generators.union_find`: the same pairs, the same draws."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types

from ..maze import Maze
from ..seeds import Random
from .grid import i32, i64, passage_views, u8, u64
from .rand import below
from .unionfind import find, singletons, union_roots


@njit(
    types.boolean(u8, types.int64, i64, u64, i32, i64, u8, u8),
    cache=True,
    nogil=True,
)
def join_pairs(mask: Any, width: int, cells: Any, words: Any, parent: Any, ends: Any, east: Any, south: Any) -> bool:
    """Join random (cell, neighbour) pairs, two words each, until ``ends`` (start and
    goal cell) connect: then True. False when the words run out first."""
    height = mask.size // width
    choice = np.empty(4, dtype=np.int64)
    s_root, g_root = find(parent, ends[0]), find(parent, ends[1])
    if s_root == g_root:
        return True
    for i in range(words.size // 2):
        cell = cells[below(words[2 * i], cells.size)]
        x, y = cell % width, cell // width
        k = 0  # the cell's neighbours in the maze, north, east, south, west
        if y > 0 and mask[cell - width]:
            choice[k] = cell - width
            k += 1
        if x < width - 1 and mask[cell + 1]:
            choice[k] = cell + 1
            k += 1
        if y < height - 1 and mask[cell + width]:
            choice[k] = cell + width
            k += 1
        if x > 0 and mask[cell - 1]:
            choice[k] = cell - 1
            k += 1
        if k == 0:
            continue
        other = choice[below(words[2 * i + 1], k)]
        rx, ry = find(parent, cell), find(parent, other)
        if rx == ry:
            continue
        kept = union_roots(parent, rx, ry)
        gone = ry if kept == rx else rx
        lo, hi = min(cell, other), max(cell, other)
        if hi - lo == width:
            south[lo] = 1
        else:
            east[lo] = 1
        if gone == s_root:
            s_root = kept
        if gone == g_root:
            g_root = kept
        if s_root == g_root:
            return True
    return False


@njit(types.int64(types.int64, i64, i64, types.int64, types.int64, i64), cache=True, nogil=True)
def reachable_goal(n: int, a: Any, b: Any, start: int, goal: int, cells: Any) -> int:
    """``goal`` if the walls ``(a[k], b[k])`` join it to ``start``, else the last of
    ``cells`` that they join to ``start`` (the plain loop's choice)."""
    parent = singletons(n)
    for k in range(a.size):
        rx, ry = find(parent, a[k]), find(parent, b[k])
        if rx != ry:
            union_roots(parent, rx, ry)
    root = find(parent, start)
    if find(parent, goal) == root:
        return goal
    for i in range(cells.size - 1, -1, -1):
        if find(parent, cells[i]) == root:
            return int(cells[i])
    return start


def generate(maze: Maze, rng: Random, first_batch: int) -> None:
    """The union-find web maze with its loop compiled (batches as the plain loop draws them)."""
    start = maze.cell_id(*maze.start)
    goal = maze.cell_id(*maze.goal)
    cells = maze.cells()
    if not maze.mask.all():
        # Without planned markers the two may lie in separate parts: web the start
        # cell's part, up to its last cell.
        goal = reachable_goal(maze.size, *maze.walls(), start, goal, cells)
    mask = maze.mask.reshape(-1).view(np.uint8)
    parent = singletons(maze.size)
    ends = np.array([start, goal], dtype=np.int64)
    east, south = passage_views(maze)
    batch = first_batch
    words = np.empty(0, dtype=np.uint64)
    while not join_pairs(mask, maze.width, cells, words, parent, ends, east, south):
        words = rng.raw(2 * batch)
        batch = min(2 * batch, maze.size)
