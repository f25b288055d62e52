"""The floor-tile graph of a level's base tilemap, as content placement reads it.

Works on the width-1 ("base") tilemap, where every tile of a wide corridor
or thick wall is one block, so a cut found here is a cut of the level's
tiles too (blocks are connected inside and touch along whole sides).

One breadth-first pass from the direct route (entrance → exit) over the rest
of the floor gives, for every floor tile off the route, its distance from the
route and which route tiles its part of the floor touches. A route tile that no
such part bypasses (touches both before and after) is a *separator*: every
walk from the entrance to the exit crosses it, whatever loops the level has
(braid, rooms, union-find). Open corners and rooms are just more floor tiles.
With numba (the ``content`` kernel, :mod:`mazeplugin._compiled.content`) the
same arrays come from one compiled pass instead of the numpy passes below.

>>> import numpy as np
>>> base = np.array([[1, 1, 1, 1, 1, 1, 1],
...                  [0, 0, 0, 0, 0, 0, 0],
...                  [1, 0, 1, 1, 1, 0, 1],
...                  [1, 0, 0, 0, 0, 0, 1],
...                  [1, 1, 1, 1, 1, 1, 1]], dtype=np.uint8)
>>> g = FloorGraph(base, (0, 1), (6, 1))
>>> [g.xy(i) for i in g.path]
[(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)]
>>> [g.xy(g.path[k]) for k in g.separators().tolist()]   # the loop below bypasses (2..4, 1)
[(1, 1), (5, 1)]
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from .. import paths
from .._compiled import twin
from ..unionfind import tree_roots
from .locks import crossed

__all__ = ["FloorGraph"]

_CONTENT = twin("content")  # the compiled content kernel, or the plain code beside each use

Tile = Tuple[int, int]


class FloorGraph:
    """Distances and route structure of a base tilemap's floor.

    Indices are flat positions in the base map padded by one ring of wall
    (``(y + 1) * stride + x + 1``), so a tile's neighbours are ``i ± 1`` and
    ``i ± stride`` without bounds checks. Flat arrays are numpy, one entry per
    padded position.

    The breadth-first tree from the entrance does the work: a tile off the
    route hangs from the route at the first route tile on its way up the tree;
    tiles hanging below one route-side tile form a *branch*. Branches joined by
    an edge the tree does not use (a loop) are one part of the floor, found
    with a union-find over the few such edges; a perfect maze has none.

    Attributes:
        floor: bool, floor tiles.
        degree: int8, floor neighbours of each floor tile.
        dist_entrance: int32, steps from the entrance (-1: unreached / no entrance).
        path: flat indices of the direct route, entrance first (empty without markers).
        dist_path: int32, steps up the tree to the route (0 on it, -1 unreached).
        touch_high: int64, for a tile off the route, the largest route index
            its part of the floor touches (-1 on the route or unreached).
        fast: the ``content`` kernel module when the arrays came from it
            (placement then asks it for its own arrays too), else None.
    """

    def __init__(self, base: NDArray[np.uint8], entrance: Optional[Tile], exit: Optional[Tile]) -> None:
        h, w = base.shape
        self.shape: Tuple[int, int] = (int(h), int(w))
        self.stride: int = int(w) + 2
        stride = self.stride
        padded = np.zeros((h + 2, w + 2), dtype=bool)
        padded[1:-1, 1:-1] = base == 0
        self.floor: NDArray[np.bool_] = padded.ravel()
        self.entrance = entrance
        self.exit = exit
        n = (h + 2) * stride
        self.path: List[int] = []
        self._spans: List[Tuple[int, int]] = []
        self._parent_list: Optional[List[int]] = None
        self.fast: Optional[ModuleType] = None  # the compiled kernel module this graph was built with
        if entrance is not None and exit is not None:
            fast = _CONTENT.pick(n)
            if fast is not None and self.floor[self.index(entrance)] and self.floor[self.index(exit)]:
                self._compiled(fast, entrance, exit)  # the same arrays in one pass (mazeplugin/_compiled/content.py)
                self.fast = fast
                return
        degree = np.zeros((h + 2, w + 2), dtype=np.int8)
        degree[1:-1, 1:-1] = (
            padded[:-2, 1:-1].view(np.int8) + padded[2:, 1:-1].view(np.int8)
            + padded[1:-1, :-2].view(np.int8) + padded[1:-1, 2:].view(np.int8)
        )
        degree[~padded] = 0
        self.degree: NDArray[np.int8] = degree.ravel()
        self.parent: NDArray[np.int64] = np.full(n, -1, dtype=np.int64)
        self.dist_entrance: NDArray[np.int32] = np.full(n, -1, dtype=np.int32)
        self.dist_path: NDArray[np.int32] = np.full(n, -1, dtype=np.int32)
        self.touch_high: NDArray[np.int64] = np.full(n, -1, dtype=np.int64)
        self.route: NDArray[np.int64] = np.zeros(0, dtype=np.int64)
        if entrance is None or exit is None:
            return
        dist = np.full((h + 2, w + 2), -1, dtype=np.int32)
        dist[1:-1, 1:-1] = paths.distance_map(base, entrance)
        self.dist_entrance = dist = dist.ravel()
        self._tree()
        goal = self.index(exit)
        if dist[goal] < 0:
            raise ValueError("the exit cannot be reached from the entrance")
        self.path = self._up(goal)[::-1]
        self._branches()

    def _compiled(self, fast: Any, entrance: Tile, exit: Tile) -> None:
        """Every array of the plain passes below, from the kernel's one pass."""
        degree, dist, parent, route, index, dist_path, touch_high, span_lo, span_hi = fast.floor_graph(
            self.floor.view(np.uint8), self.stride, self.index(entrance), self.index(exit))
        if route.size == 0:
            raise ValueError("the exit cannot be reached from the entrance")
        self.degree, self.dist_entrance, self.parent, self.route, self.path_index = degree, dist, parent, route, index
        self.dist_path, self.touch_high = dist_path, touch_high
        self.path = route.tolist()
        self._spans = sorted(set(zip(span_lo.tolist(), span_hi.tolist())))

    # -- positions -----------------------------------------------------------

    def index(self, tile: Tile) -> int:
        """Flat index of base tile ``(x, y)``."""
        return (tile[1] + 1) * self.stride + tile[0] + 1

    def xy(self, i: int) -> Tile:
        """Base tile ``(x, y)`` of flat index ``i``."""
        y, x = divmod(int(i), self.stride)
        return (x - 1, y - 1)

    def neighbours(self, i: int) -> List[int]:
        """Floor neighbours of ``i``: north, east, south, west."""
        s = self.stride
        return [j for j in (i - s, i + 1, i + s, i - 1) if self.floor[j]]

    # -- the tree, the route and what hangs off it ---------------------------

    def _tree(self) -> None:
        """Each reached tile's parent: its first neighbour (north, east, south, west) one step nearer."""
        s = self.stride
        h2, w2 = self.shape[0] + 2, self.shape[1] + 2
        dist = self.dist_entrance.reshape(h2, w2)
        inner = dist[1:-1, 1:-1]
        here = np.arange(h2 * w2, dtype=np.int64).reshape(h2, w2)[1:-1, 1:-1]
        parent = np.full((h2 - 2, w2 - 2), -1, dtype=np.int64)
        want = np.where(inner > 0, inner - 1, -2)
        # West first, north last: later writes win, so north has priority.
        for step, beside in ((-1, dist[1:-1, :-2]), (s, dist[2:, 1:-1]), (1, dist[1:-1, 2:]), (-s, dist[:-2, 1:-1])):
            nearer = beside == want
            parent[nearer] = here[nearer] + step
        self.parent = full = np.full(h2 * w2, -1, dtype=np.int64)
        full.reshape(h2, w2)[1:-1, 1:-1] = parent

    def parents(self) -> List[int]:
        """``parent`` as a list, made once (walks up the tree read it entry by entry: the ways placement keeps open)."""
        if self._parent_list is None:
            self._parent_list = self.parent.tolist()
        return self._parent_list

    def _up(self, i: int) -> List[int]:
        """``i`` and its ancestors up to the entrance."""
        parent = self.parents()
        out = [i]
        while parent[i] >= 0:
            i = parent[i]
            out.append(i)
        return out

    def _branches(self) -> None:
        dist, parent, s = self.dist_entrance, self.parent, self.stride
        n = dist.size
        self.route = route = np.asarray(self.path, dtype=np.int64)
        index = np.full(n, -1, dtype=np.int64)
        index[route] = np.arange(route.size)
        on_route = index >= 0
        reached = dist >= 0
        # seed: the topmost tile below the route on a tile's way up (pointer jumping).
        off = reached & ~on_route
        offs = np.flatnonzero(off)
        local = np.full(n, -1, dtype=np.int64)
        local[offs] = np.arange(offs.size)
        up = local[parent[offs]]  # -1: the parent is on the route, so this tile is a seed
        up = np.where(up >= 0, up, np.arange(offs.size))
        up = tree_roots(up)
        seed = np.full(n, -1, dtype=np.int64)
        seed[offs] = offs[up]
        attach = np.full(n, -1, dtype=np.int64)
        attach[off] = index[parent[seed[off]]]
        self.dist_path = np.where(off, dist - dist[np.where(off, seed, 0)] + 1, np.where(on_route, 0, -1)).astype(np.int32)
        self.path_index = index
        # Edges the tree does not use join branches into parts of the floor.
        floor = self.floor
        across = np.flatnonzero(floor[:-1] & floor[1:])
        down = np.flatnonzero(floor[:-s] & floor[s:])
        a = np.concatenate([across, down])
        b = np.concatenate([across + 1, down + s])
        keep = reached[a] & (parent[a] != b) & (parent[b] != a) & ~(on_route[a] & on_route[b])
        seeds = offs[up == np.arange(offs.size)]
        slot = np.full(n, -1, dtype=np.int64)
        slot[seeds] = np.arange(seeds.size)
        part_hi = attach[seeds]  # a branch no loop joins touches the route at one tile
        if keep.any():
            self._join(a[keep], b[keep], on_route, index, slot[seed[a[keep]]], slot[seed[b[keep]]], part_hi)
        self.touch_high[offs] = part_hi[slot[seed[offs]]]

    def _join(self, a: NDArray[np.int64], b: NDArray[np.int64], on_route: NDArray[np.bool_],
              index: NDArray[np.int64], slot_a: NDArray[np.int64], slot_b: NDArray[np.int64],
              part_hi: NDArray[np.int64]) -> None:
        """Union-find over the branches the loop edges ``a``–``b`` join; spans and ``part_hi`` updated."""
        links: Dict[int, int] = {}
        lo: Dict[int, int] = {}
        hi: Dict[int, int] = {}

        def find(x: int) -> int:
            if x not in links:
                links[x] = x
                lo[x] = hi[x] = int(part_hi[x])
                return x
            while links[x] != x:
                links[x] = links[links[x]]
                x = links[x]
            return x

        for u_route, v_route, su, sv, u, v in zip(
            on_route[a].tolist(), on_route[b].tolist(), slot_a.tolist(), slot_b.tolist(),
            index[a].tolist(), index[b].tolist(),
        ):
            if u_route:  # the route end of the edge is u: only v's branch is involved
                r = find(sv)
                lo[r], hi[r] = min(lo[r], u), max(hi[r], u)
                continue
            r = find(su)
            if v_route:
                lo[r], hi[r] = min(lo[r], v), max(hi[r], v)
                continue
            q = find(sv)
            if q != r:
                links[q] = r
                lo[r], hi[r] = min(lo[r], lo[q]), max(hi[r], hi[q])
        involved = list(links)
        roots = [find(x) for x in involved]
        part_hi[np.asarray(involved, dtype=np.int64)] = np.asarray([hi[r] for r in roots], dtype=np.int64)
        self._spans = sorted({(lo[r], hi[r]) for r in roots})

    def separators(self) -> NDArray[np.int64]:
        """Route indices (not the two ends) of tiles every entrance → exit walk crosses, ascending."""
        length = len(self.path)
        if not self._spans and length >= 3:  # no loop beside the route (a perfect maze): every inner route tile
            return np.arange(1, length - 1, dtype=np.int64)
        return crossed(length, self._spans)
