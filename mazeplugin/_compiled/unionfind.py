"""A disjoint-set forest for kernels: union by rank, path halving (as ``DisjointSets``).

One int32 per element: a root holds ``-1 - rank``, any other element its
parent, so finding a root and reading its rank touch the same memory.
Which unions merge two sets depends only on the pairs and their order, not
on how the forest is kept, so any correct union-find gives the passages the
plain ``DisjointSets.union_each`` gives.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from .grid import i32


@njit(i32(types.int64), cache=True, nogil=True, inline="always")
def singletons(n: int) -> Any:
    """``n`` one-element sets."""
    return np.full(n, -1, dtype=np.int32)


@njit(types.int64(i32, types.int64), cache=True, nogil=True, inline="always")
def find(parent: Any, i: int) -> int:
    """The root of ``i``'s set, halving the path as it goes."""
    while parent[i] >= 0:
        up = parent[i]
        if parent[up] < 0:
            return int(up)
        parent[i] = parent[up]
        i = parent[up]
    return i


@njit(types.int64(i32, types.int64, types.int64), cache=True, nogil=True, inline="always")
def union_roots(parent: Any, x: int, y: int) -> int:
    """Join the sets with roots ``x != y`` by rank; the root that stays."""
    rx, ry = -1 - parent[x], -1 - parent[y]
    if rx < ry:
        x, y = y, x
    parent[y] = x
    if rx == ry:
        parent[x] -= 1
    return x


# Rem's union-find, for passes that only ask "were these two apart? then join
# them" (kruskal, prim). Roots point at themselves and a set is named by the
# largest index on its paths; the two paths are walked together, one step at a
# time from the side whose parent is smaller, each step splicing the node onto
# the other side's parent. It stops as soon as the paths meet, usually well
# below the roots, and touches about a third less memory than finding both
# roots (Patwary, Blair, Manne, "Experiments on union-find algorithms for the
# disjoint-set data structure", SEA 2010: the fastest of those they measured).
# Which pairs join two sets does not depend on how the forest is kept, so the
# passages are the same as with ``find``/``union_roots`` or ``DisjointSets``.


@njit(i32(types.int64), cache=True, nogil=True, inline="always")
def self_parents(n: int) -> Any:
    """``n`` one-element sets for :func:`rem_join`: each its own parent."""
    return np.arange(n).astype(np.int32)


@njit(types.boolean(i32, types.int64, types.int64), cache=True, nogil=True, inline="always")
def rem_join(parent: Any, x: int, y: int) -> bool:
    """Join the sets of ``x`` and ``y`` (Rem's algorithm with splicing); False if they were one set."""
    while True:
        px, py = parent[x], parent[y]
        if px == py:
            return False
        if px < py:
            parent[x] = py
            if x == px:  # x was a root: now hung below y's side
                return True
            x = px
        else:
            parent[y] = px
            if y == py:
                return True
            y = py


@njit(types.boolean(i32, types.int64, types.int64), cache=True, nogil=True, inline="always")
def rem_connected(parent: Any, x: int, y: int) -> bool:
    """Whether ``x`` and ``y`` are in one set of a :func:`rem_join` forest (halving the paths walked)."""
    while True:
        px, py = parent[x], parent[y]
        if px == py:
            return True
        if px < py:
            if x == px:  # x's root is below everything on y's side: apart
                return False
            parent[x] = parent[px]
            x = px
        else:
            if y == py:
                return False
            parent[y] = parent[py]
            y = py
