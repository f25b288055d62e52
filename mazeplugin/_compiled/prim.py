"""Compiled :mod:`mazeplugin.generators.prim` for distinct weights: the same minimum spanning tree.

With no two walls of equal weight the tree is unique, so Kruskal's pass over
the walls in weight order finds the tree the plain path's Borůvka finds.
Weights are ``unit(word)``, which orders exactly as ``word >> 11``: the walls
are sorted on that integer key. Ties (all but impossible) go back to the
plain path's heap.
"""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np
from .jit import njit, types

from ..maze import Maze
from ..seeds import Random
from .grid import i64, u64
from .kruskal import WALLS, join_in_order
from .sort import sort_keys

_DOUBLE_UNIT = 2.0**-53


@njit(u64(types.int64, types.int64, u64, types.boolean, i64, i64), cache=True, nogil=True)
def wall_keys(width: int, height: int, words: Any, full: bool, a: Any, b: Any) -> Any:
    """Each wall's weight as an integer key, in ``Maze.walls()`` order: ``a``, ``b``,
    or with ``full`` (no mask) worked out from the wall's number.

    ``words[2 * cell]`` weighs the wall east of a cell, ``words[2 * cell + 1]``
    the one south of it.
    """
    east_walls = (width - 1) * height
    count = east_walls + width * (height - 1) if full else a.size
    keys = np.empty(count, dtype=np.uint64)
    for k in range(count):
        if not full:
            x, south = a[k], b[k] - a[k] == width
        elif k < east_walls:
            x, south = k + k // (width - 1), False
        else:
            x, south = k - east_walls, True
        keys[k] = words[2 * x + (1 if south else 0)] >> np.uint64(11)
    return keys


@njit(types.boolean(u64), cache=True, nogil=True)
def has_ties(ranked: Any) -> bool:
    """Whether two of the sorted keys ``ranked`` are equal."""
    for i in range(1, ranked.size):
        if ranked[i] == ranked[i - 1]:
            return True
    return False


def generate(maze: Maze, rng: Random) -> Optional[List[float]]:
    """Prim's tree by weight-ordered Kruskal, compiled; on tied weights nothing is
    opened and the weights are returned, for the plain path's heap."""
    words = rng.raw(2 * maze.size)  # the plain path's rng.random(2 * maze.size)
    full = bool(maze.mask.all())
    a, b = (np.empty(0, dtype=np.int64),) * 2 if full else maze.walls()
    keys = wall_keys(maze.width, maze.height, words, full, a, b)
    order, ranked = sort_keys(keys)
    if has_ties(ranked):
        weights: List[float] = ((words >> np.uint64(11)).astype(np.float64) * _DOUBLE_UNIT).tolist()
        return weights  # Random.random's arithmetic
    opened = np.zeros(keys.size, dtype=np.uint8)
    join_in_order(maze.size, a, b, order, opened, WALLS if full else 0, maze.width, maze.height)
    if full:
        east_walls = (maze.width - 1) * maze.height
        maze.east[:, :-1] = opened[:east_walls].reshape(maze.height, maze.width - 1)
        maze.south[:-1, :] = opened[east_walls:].reshape(maze.height - 1, maze.width)
    else:
        maze.open_many(a[opened == 1], b[opened == 1])
    return None
