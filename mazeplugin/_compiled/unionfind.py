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
from numba import njit, types

from .grid import i32


@njit(i32(types.int64), cache=True, nogil=True)
def singletons(n: int) -> Any:
    """``n`` one-element sets."""
    return np.full(n, -1, dtype=np.int32)


@njit(types.int64(i32, types.int64), cache=True, nogil=True)
def find(parent: Any, i: int) -> int:
    """The root of ``i``'s set, halving the path as it goes."""
    while parent[i] >= 0:
        up = parent[i]
        if parent[up] < 0:
            return int(up)
        parent[i] = parent[up]
        i = parent[up]
    return i


@njit(types.int64(i32, types.int64, types.int64), cache=True, nogil=True)
def union_roots(parent: Any, x: int, y: int) -> int:
    """Join the sets with roots ``x != y`` by rank; the root that stays."""
    rx, ry = -1 - parent[x], -1 - parent[y]
    if rx < ry:
        x, y = y, x
    parent[y] = x
    if rx == ry:
        parent[x] -= 1
    return x
