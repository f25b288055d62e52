"""Compiled :mod:`mazeplugin.generators.prim` on any grid, square included: the same minimum spanning tree.

The plain path weighs the edges by the grid's rule (a square maze: two
floats a cell, east and south; any other grid one an edge) and takes them in
the stable order of their weights through Kruskal's pass. A weight is
``(word >> 11) * 2**-53``, exact and increasing in ``word >> 11``, so sorting
that integer key stably gives the same order, ties included
(:func:`~mazeplugin._compiled.kruskal.join_in_order`). A square maze with
tied weights (all but impossible) grows its tree with the plain path's heap:
here its weights are handed back.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .grid import i64, u64
from .kruskal import join_edges
from .sort import sort_keys, stable_argsort

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


@njit(u64(u64), cache=True, nogil=True)
def weight_keys(words: Any) -> Any:
    """Each edge's weight ``unit(word)`` as the integer it scales, ``word >> 11``: the same order."""
    keys = np.empty(words.size, dtype=np.uint64)
    for k in range(words.size):
        keys[k] = words[k] >> np.uint64(11)
    return keys


def generate(grid: Grid, rng: Random) -> Tuple[Optional[NDArray[np.bool_]], Optional[NDArray[np.float64]]]:
    """True Prim's tree on ``grid`` by weight-ordered Kruskal, compiled: ``(one bool per edge, None)``; for a
    square maze with tied weights ``(None, each edge's weight)``, for the plain path's heap."""
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    maze = getattr(grid, "maze", None)
    if maze is None:
        keys = weight_keys(rng.raw(grid.edge_count))  # the plain path's rng.random(edges), as exact integers
        join_edges(grid, stable_argsort(keys), opened)
        return opened.view(np.bool_), None
    words = rng.raw(2 * maze.size)  # the plain path's rng.random(2 * maze.size)
    full = bool(maze.mask.all())
    a, b = (np.empty(0, dtype=np.int64),) * 2 if full else maze.walls()
    keys = wall_keys(maze.width, maze.height, words, full, a, b)
    order, ranked = sort_keys(keys)
    if has_ties(ranked):
        return None, keys.astype(np.float64) * _DOUBLE_UNIT  # Random.random's arithmetic
    join_edges(grid, order, opened)
    return opened.view(np.bool_), None
