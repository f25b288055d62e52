"""Compiled loop of :mod:`mazeplugin.generators.kruskal`: the shuffle and the union-find pass."""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np
from numpy.typing import NDArray
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


@njit(types.void(types.uint64[:, ::1], types.int64, types.int64, types.uint8[:, ::1], types.uint8[:, ::1]),
      cache=True, nogil=True)
def carve_many(words: Any, width: int, height: int, east_out: Any, south_out: Any) -> None:
    """Kruskal's pass for a batch of full ``width`` × ``height`` mazes (no mask): maze ``i`` shuffles its
    walls by ``words[i]`` and leaves its passages in ``east_out[i]``, ``south_out[i]`` (flat, row-major)."""
    none = np.empty(0, dtype=np.int64)
    for i in range(words.shape[0]):
        join_in_order(width, height, stable_argsort(words[i]), True, none, none, east_out[i], south_out[i])


def words_per_maze(width: int, height: int) -> int:
    """The raw words :func:`generate` draws for a full ``width`` × ``height`` maze: one per inner wall."""
    return (width - 1) * height + width * (height - 1)


def generate_many(words: NDArray[np.uint64], width: int, height: int,
                  start: Tuple[int, int]) -> Tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """The passages ``(east, south)``, each ``(mazes, height, width)``, that :func:`generate` opens in a full
    maze from each row of ``words`` (:func:`words_per_maze` words a row; ``start`` plays no part)."""
    count = words.shape[0]
    east = np.zeros((count, width * height), dtype=np.uint8)
    south = np.zeros((count, width * height), dtype=np.uint8)
    carve_many(np.ascontiguousarray(words), width, height, east, south)
    return east.view(np.bool_).reshape(count, height, width), south.view(np.bool_).reshape(count, height, width)
