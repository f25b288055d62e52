"""Compiled loop of :mod:`mazeplugin.generators.kruskal`: the shuffle and the union-find pass."""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from ..maze import Maze
from ..seeds import Random
from .grid import i32, i64, passage_views, u8
from .sort import stable_argsort
from .unionfind import rem_join, self_parents


@njit(types.void(types.int64, types.int64, i32, types.boolean, i64, i64, u8, u8), cache=True, nogil=True)
def join_in_order(width: int, height: int, order: Any, full: bool, a: Any, b: Any, east: Any, south: Any) -> None:
    """Kruskal's pass: open wall ``order[i]`` when it joins two sets (Rem's union-find).

    Wall ``k`` joins cells ``a[k]`` and ``b[k]`` (``Maze.walls()`` order); with
    ``full`` (no mask) it is worked out from ``k``, as
    ``Maze.walls()`` numbers them: east walls row by row, then south walls.
    """
    n = width * height
    parent = self_parents(n)
    east_walls = (width - 1) * height
    sets = n
    for i in range(order.size):
        if sets == 1:
            break
        k = np.int64(order[i])
        if not full:
            x, y = a[k], b[k]
        elif k < east_walls:
            row = k // (width - 1)
            x = k + row
            y = x + 1
        else:
            x = k - east_walls
            y = x + width
        if not rem_join(parent, x, y):
            continue
        sets -= 1
        if y - x == 1 and width > 1:
            east[x] = 1
        else:
            south[x] = 1


def generate(maze: Maze, rng: Random) -> None:
    """Kruskal's generator with its shuffle and union-find compiled."""
    full = bool(maze.mask.all())
    if full:
        count = (maze.width - 1) * maze.height + maze.width * (maze.height - 1)
        a = b = np.empty(0, dtype=np.int64)
    else:
        a, b = maze.walls()
        count = len(a)
    order = stable_argsort(rng.raw(count))  # rng.permutation(count): the same permutation
    east, south = passage_views(maze)
    join_in_order(maze.width, maze.height, order, full, a, b, east, south)
