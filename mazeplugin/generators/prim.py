"""True Prim's algorithm on random wall weights.

Give every wall a random weight; grow a tree from the entrance cell by always
opening the cheapest wall on its frontier (kept in a heap) whose far side is
not yet in the tree. This is Prim's minimum-spanning-tree algorithm, so with
random weights its mazes have the same texture as Kruskal's: many short dead
ends (about 30% of cells). A perfect maze.

When no two walls share a weight (all but certainly: the weights are 53-bit)
the minimum spanning tree is unique, so the tree the heap grows is computed
in bulk instead, by :func:`~mazeplugin.unionfind.spanning_forest` over the walls in
weight order: the same passages, ten times faster. Ties keep the heap, whose
order among equal weights decides the maze.

Sources: R. C. Prim, "Shortest connection networks and some generalizations"
(1957); J. Buck, "Mazes for Programmers", ch. 11 ("True Prim's").
"""

from __future__ import annotations

from heapq import heappop, heappush
from typing import List

import numpy as np

from .._compiled import kernel
from ..maze import Maze
from ..registry import GRIDS, register
from . import graph
from ..seeds import Random
from ..unionfind import spanning_forest


@register("prim", grids=GRIDS, graph=graph.prim)
def prim(maze: Maze, rng: Random) -> None:
    """True Prim's: grow a tree by the cheapest of randomly weighted frontier walls. Same texture as Kruskal's."""
    fast = kernel("prim", maze.size)
    if fast is not None:  # the same tree, compiled (mazeplugin/_compiled/prim.py)
        tied = fast.generate(maze, rng)
        if tied is not None:
            _grow_with_heap(maze, tied)
        return
    # weights[2*cell] belongs to the wall east of the cell, weights[2*cell + 1] to the one south.
    weights = rng.random(2 * maze.size)
    a, b = maze.walls()
    wall_weight = weights[2 * a + (b - a == maze.width)]
    order = np.argsort(wall_weight, kind="stable")
    ranked = wall_weight[order]
    if np.any(ranked[1:] == ranked[:-1]):
        _grow_with_heap(maze, weights.tolist())
        return
    a, b = a[order], b[order]
    opened = spanning_forest(maze.size, a, b)
    maze.open_many(a[opened], b[opened])


def _grow_with_heap(maze: Maze, weights: List[float]) -> None:
    """Prim's algorithm as written: a heap of frontier walls, from the entrance cell."""
    w = maze.width
    neighbours = maze.neighbour_table().tolist()
    in_tree = (~maze.mask).ravel().tolist()
    opened_a, opened_b = [], []

    def wall_weight(a: int, b: int) -> float:
        lo, hi = (a, b) if a < b else (b, a)
        return weights[2 * lo + (hi - lo != 1 or w == 1)]

    roots = maze.roots()
    for root in roots:
        if in_tree[root]:
            continue
        in_tree[root] = True
        frontier = [(wall_weight(root, n), root, n) for n in neighbours[root] if n >= 0]
        frontier.sort()
        while frontier:
            _, cell, nxt = heappop(frontier)
            if in_tree[nxt]:
                continue
            in_tree[nxt] = True
            opened_a.append(cell)
            opened_b.append(nxt)
            for far in neighbours[nxt]:
                if far >= 0 and not in_tree[far]:
                    heappush(frontier, (wall_weight(nxt, far), nxt, far))
    maze.open_many(opened_a, opened_b)
