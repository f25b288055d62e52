"""A disjoint-set forest (union-find) with union by rank and path compression.

Shared by ``kruskal`` and ``union-find``. Parents and ranks are flat Python
lists: in CPython, list indexing is several times faster than numpy scalar
indexing, and :meth:`DisjointSets.union_each` runs the whole loop without a
method call per pair.

>>> sets = DisjointSets(4)
>>> sets.union(0, 1), sets.union(1, 0), sets.connected(0, 1), sets.connected(0, 2)
(True, False, True, False)
>>> sets.union_each([2, 0, 1], [3, 3, 2])
[0, 1]
"""

from __future__ import annotations

from typing import Iterable, List


class DisjointSets:
    """``n`` singletons ``{0}, {1}, …, {n-1}`` that can be merged."""

    __slots__ = ("parent", "rank", "count")

    def __init__(self, n: int) -> None:
        self.parent: List[int] = list(range(n))
        self.rank: List[int] = [0] * n
        self.count = n  # number of disjoint sets

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

    def union_each(self, a: Iterable[int], b: Iterable[int]) -> List[int]:
        """Union each pair ``(a[k], b[k])`` in turn; the ``k`` whose union merged two sets.

        The same as ``[k for k, (x, y) in enumerate(zip(a, b)) if self.union(x, y)]``,
        in one tight loop that stops once everything is one set.
        """
        parent, rank = self.parent, self.rank
        joined: List[int] = []
        count = self.count
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
                parent[x] = y
            else:
                parent[y] = x
                if rx == ry:
                    rank[x] = rx + 1
            count -= 1
            joined.append(k)
        self.count = count
        return joined
