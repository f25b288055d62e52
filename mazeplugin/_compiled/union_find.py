"""Compiled loop of :mod:`mazeplugin.generators.union_find`: the same pairs, the same draws."""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from ..maze import Maze
from ..seeds import Random
from .grid import i32, i64, passage_views, u8, u64
from .rand import below
from .unionfind import find, rem_connected, rem_join, self_parents, singletons, union_roots


@njit(
    types.boolean(u8, types.boolean, types.int64, i64, u64, i32, i64, u8, u8),
    cache=True,
    nogil=True,
)
def join_pairs(
    mask: Any, full: bool, width: int, cells: Any, words: Any, parent: Any, ends: Any, east: Any, south: Any
) -> bool:
    """Join random (cell, neighbour) pairs, two words each, until ``ends`` (start and
    goal cell) connect: then True. False when the words run out first.

    ``parent`` is a forest for :func:`rem_join`. With ``full`` (no mask) every
    grid cell is a maze cell: ``cells[i]`` is ``i`` and every neighbour on the
    grid counts, so neither ``cells`` nor ``mask`` is read (they are large,
    and read at random places).
    """
    height = mask.size // width
    choice = np.empty(4, dtype=np.int64)
    start, goal = ends[0], ends[1]
    if rem_connected(parent, start, goal):
        return True
    for i in range(words.size // 2):
        cell = below(words[2 * i], width * height) if full else cells[below(words[2 * i], cells.size)]
        y = cell // width
        x = cell - y * width
        k = 0  # the cell's neighbours in the maze, north, east, south, west
        if y > 0 and (full or mask[cell - width]):
            choice[k] = cell - width
            k += 1
        if x < width - 1 and (full or mask[cell + 1]):
            choice[k] = cell + 1
            k += 1
        if y < height - 1 and (full or mask[cell + width]):
            choice[k] = cell + width
            k += 1
        if x > 0 and (full or mask[cell - 1]):
            choice[k] = cell - 1
            k += 1
        if k == 0:
            continue
        other = choice[below(words[2 * i + 1], k)]
        if not rem_join(parent, cell, other):
            continue
        lo, hi = min(cell, other), max(cell, other)
        if hi - lo == width:
            south[lo] = 1
        else:
            east[lo] = 1
        if rem_connected(parent, start, goal):
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
    full = bool(maze.mask.all())
    cells = np.empty(0, dtype=np.int64) if full else maze.cells()  # every cell, when full: not read
    if not full:
        # Without planned markers the two may lie in separate parts: web the start
        # cell's part, up to its last cell.
        goal = reachable_goal(maze.size, *maze.walls(), start, goal, cells)
    mask = maze.mask.reshape(-1).view(np.uint8)
    parent = self_parents(maze.size)
    ends = np.array([start, goal], dtype=np.int64)
    east, south = passage_views(maze)
    batch = first_batch
    words = np.empty(0, dtype=np.uint64)
    while not join_pairs(mask, full, maze.width, cells, words, parent, ends, east, south):
        words = rng.raw(2 * batch)
        batch = min(2 * batch, maze.size)
