"""A disjoint-set forest (union-find) with union by rank and path compression.

Shared by the maze model (parts of a mask, pockets), shaping, the room layer and the generators ``kruskal``, ``union-find`` and ``prim``; it lives in the ground layer (see docs/architecture.md). Parents and ranks are flat
Python lists: in CPython, list indexing is several times faster than numpy
scalar indexing, and :meth:`DisjointSets.union_each` runs the whole loop
without a method call per pair.

When the whole list of pairs is known in advance, :func:`spanning_forest`
computes the same answer as ``union_each`` with numpy, without a Python loop
(Borůvka's algorithm; about ten times faster on a million cells). ``prim``
uses it to get true Prim's tree on a large maze (see there); ``kruskal``
keeps the union-find its algorithm is named for.

>>> sets = DisjointSets(4)
>>> sets.union(0, 1), sets.union(1, 0), sets.connected(0, 1), sets.connected(0, 2)
(True, False, True, False)
>>> sets.union_each([2, 0, 1], [3, 3, 2])
[0, 1]
>>> spanning_forest(4, [2, 0, 1], [3, 3, 2]).tolist()  # from singletons: all three join
[0, 1, 2]
"""

from __future__ import annotations

from typing import Any, Iterable, List, Optional, Tuple, Type, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

IndexT = TypeVar("IndexT", bound=np.generic)


class DisjointSets:
    """``n`` singletons ``{0}, {1}, …, {n-1}`` that can be merged."""

    __slots__ = ("parent", "rank", "count")

    def __init__(self, n: int) -> None:
        self.parent: List[int] = list(range(n))
        self.rank: List[int] = [0] * n
        self.count: int = n  # number of disjoint sets

    def find(self, i: int) -> int:
        """The representative of ``i``'s set, halving the path to it as it goes.

        Path halving (every node on the way is pointed at its grandparent) is
        the one-pass form of path compression: the same amortised bound.
        """
        parent = self.parent
        while parent[i] != i:
            parent[i] = i = parent[parent[i]]
        return i

    def connected(self, a: int, b: int) -> bool:
        """Whether ``a`` and ``b`` are in the same set."""
        return self.find(a) == self.find(b)

    def union(self, a: int, b: int) -> bool:
        """Merge the sets of ``a`` and ``b`` (union by rank); False if they were one set already."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        rank = self.rank
        if rank[ra] < rank[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        if rank[ra] == rank[rb]:
            rank[ra] += 1
        self.count -= 1
        return True

    def union_each(
        self, a: Iterable[int], b: Iterable[int], *, until: Optional[Tuple[int, int]] = None
    ) -> List[int]:
        """Union each pair ``(a[k], b[k])`` in turn; the ``k`` whose union merged two sets.

        The same as ``[k for k, (x, y) in enumerate(zip(a, b)) if self.union(x, y)]``,
        in one tight loop that stops once everything is one set. With
        ``until=(s, g)`` it also stops right after the union that joins ``s``
        and ``g`` (at once if they are joined already); ``connected(s, g)``
        then tells whether that happened.

        >>> sets = DisjointSets(5)
        >>> sets.union_each([0, 1, 3, 2], [1, 2, 4, 3], until=(0, 2)), sets.connected(3, 4)
        ([0, 1], False)
        """
        parent, rank = self.parent, self.rank
        joined: List[int] = []
        count = self.count
        # The roots of the sets holding s and g, kept up to date after each
        # union, so checking "joined yet?" costs one comparison, not two finds.
        s_root = g_root = -1
        if until is not None:
            s_root, g_root = self.find(until[0]), self.find(until[1])
            if s_root == g_root:
                return joined
        for k, (x, y) in enumerate(zip(a, b)):
            if count == 1:
                break
            while parent[x] != x:
                parent[x] = x = parent[parent[x]]
            while parent[y] != y:
                parent[y] = y = parent[parent[y]]
            if x == y:
                continue
            rx, ry = rank[x], rank[y]
            if rx < ry:
                x, y = y, x  # x: the root that stays
            parent[y] = x
            if rx == ry:
                rank[x] = rx + 1
            count -= 1
            joined.append(k)
            if y == s_root or y == g_root:
                if y == s_root:
                    s_root = x
                if y == g_root:
                    g_root = x
                if s_root == g_root:
                    break
        self.count = count
        return joined


def tree_roots(parent: NDArray[IndexT]) -> NDArray[IndexT]:
    """Each node's root in a forest of parent pointers (a root points to itself), by pointer
    jumping: a few numpy passes however deep the trees.

    >>> tree_roots(np.array([0, 0, 1, 2, 4])).tolist()
    [0, 0, 0, 0, 4]
    """
    while True:
        grand = parent[parent]
        if np.array_equal(grand, parent):
            return parent
        parent = grand


def component_roots(n: int, a: ArrayLike, b: ArrayLike) -> NDArray[np.int64]:
    """For each vertex ``0 … n-1`` of the graph with edges ``(a[k], b[k])``, the smallest vertex of its component.

    Vectorised hooking and pointer jumping (each round hooks every root onto
    the smallest root across an edge, then flattens the trees), so a few
    numpy passes label a million cells.

    >>> component_roots(5, [3, 1], [4, 2]).tolist()
    [0, 1, 1, 3, 3]
    """
    # int32 indices where they fit: half the memory of the passes below (a loaded all-floor map
    # numbers millions of open corners here); the answer is the same, returned as int64.
    index = np.int32 if n < 2**31 else np.int64
    parent: NDArray[Any] = np.arange(n, dtype=index)
    ends_a: NDArray[Any] = np.asarray(a).astype(index, copy=False)
    ends_b: NDArray[Any] = np.asarray(b).astype(index, copy=False)
    while True:
        ra, rb = parent[ends_a], parent[ends_b]
        live = ra != rb
        if not live.any():
            return parent.astype(np.int64, copy=False)
        ends_a, ends_b, ra, rb = ends_a[live], ends_b[live], ra[live], rb[live]
        np.minimum.at(parent, np.maximum(ra, rb), np.minimum(ra, rb))
        parent = tree_roots(parent)


def spanning_forest(n: int, a: ArrayLike, b: ArrayLike) -> NDArray[np.int64]:
    """The ``k``, ascending, for which ``DisjointSets(n).union_each(a, b)`` merges two sets.

    Those pairs form the minimum spanning forest of the graph with vertices
    ``0 … n-1`` and edge ``k`` joining ``a[k]`` and ``b[k]`` at weight ``k``;
    with distinct weights it is unique, so any algorithm finds the same one.
    This one is Borůvka's, vectorised: every component takes its cheapest
    edge to another component (those edges are always in the forest), the
    components they join are merged by pointer jumping, and edges inside a
    component are dropped; each round at least halves the components.

    >>> spanning_forest(3, [0, 1, 0], [1, 2, 2]).tolist()  # edge 2 would close a loop
    [0, 1]
    """
    return np.flatnonzero(_boruvka(n, a, b)).astype(np.int64)


def _boruvka(n: int, a: ArrayLike, b: ArrayLike) -> NDArray[np.bool_]:
    """Borůvka's algorithm over edges ``(a[k], b[k])`` of weight ``k``: which are in the forest."""
    a = np.asarray(a)
    b = np.asarray(b)
    # int32 where it fits (always, for mazes up to MAX_CELLS): half the memory traffic.
    index: Type[np.signedinteger[Any]] = np.int32 if max(n, a.size) < 2**31 else np.int64
    chosen = np.zeros(a.size, dtype=bool)
    edge = np.arange(a.size, dtype=index)  # each live edge's index (= weight), ascending
    ca, cb = a.astype(index), b.astype(index)  # the components of each live edge's ends
    count = n
    while True:
        live = ca != cb
        edge, ca, cb = edge[live], ca[live], cb[live]
        if edge.size == 0:
            break
        # Each component's cheapest edge: the lowest position among its live edges.
        position = np.arange(edge.size, dtype=index)
        cheapest = np.full(count, edge.size, dtype=index)
        np.minimum.at(cheapest, ca, position)
        np.minimum.at(cheapest, cb, position)
        comps = np.flatnonzero(cheapest < edge.size).astype(index)
        best = cheapest[comps]
        chosen[edge[best]] = True
        # Point every component at the one across its cheapest edge. With
        # distinct weights the only cycles are pairs that chose the same edge;
        # the smaller of each pair becomes the root.
        ids = np.arange(count, dtype=index)
        parent = ids.copy()
        parent[comps] = ca[best] + cb[best] - comps
        pair = (parent[parent] == ids) & (ids < parent)
        parent[pair] = ids[pair]
        parent = tree_roots(parent)
        roots = parent == ids
        label = (np.cumsum(roots, dtype=index) - 1)[parent]
        ca, cb = label[ca], label[cb]
        count = int(np.count_nonzero(roots))
    return chosen
