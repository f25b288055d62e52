"""True Prim's algorithm on random wall weights, on any grid.

Give every wall a random weight; grow a tree from the entrance cell by always
opening the cheapest wall on its frontier (kept in a heap) whose far side is
not yet in the tree. This is Prim's minimum-spanning-tree algorithm, so with
random weights its mazes have the same texture as Kruskal's: many short dead
ends (about 30% of cells). A perfect maze.

When no two walls share a weight (all but certainly: the weights are 53-bit)
the minimum spanning tree is unique, so the tree the heap grows is computed
in bulk instead, by :func:`~mazeplugin.unionfind.spanning_forest` over the walls in
weight order: the same passages, ten times faster. Ties keep the heap on a
square maze, whose order among equal weights decides the maze; every other
grid takes its edges in the stable order of their weights, ties included.

The weights follow the grid's rule (:func:`edge_weights`): a square maze
draws two floats a cell (the walls east and south of it, as it always did,
border walls included), every other grid one an edge. The compiled twin is
``mazeplugin/_compiled/prim.py``.

Sources: R. C. Prim, "Shortest connection networks and some generalizations"
(1957); J. Buck, "Mazes for Programmers", ch. 11 ("True Prim's").
"""

from __future__ import annotations

from heapq import heappop, heappush
from typing import TYPE_CHECKING, List

import numpy as np
from numpy.typing import NDArray

from .._compiled import kernel
from ..registry import GRIDS, register
from ..seeds import Random
from ..unionfind import spanning_forest
from .graph import MazeGrid, Opened, parts

if TYPE_CHECKING:  # pragma: no cover - a square level loads no grid module
    from ..grids import Grid


@register("prim", grids=GRIDS)
def prim(grid: Grid, rng: Random, start: int, goal: int) -> Opened:
    """True Prim's: grow a tree by the cheapest of randomly weighted frontier walls. Same texture as Kruskal's."""
    fast = kernel("prim", grid.cells)
    if fast is not None:  # the same tree, compiled (mazeplugin/_compiled/prim.py)
        opened, tied = fast.generate(grid, rng)
        return opened if tied is None else _grow_with_heap(grid, tied, start)
    weights = edge_weights(grid, rng)
    order = np.argsort(weights, kind="stable")
    if isinstance(grid, MazeGrid):
        ranked = weights[order]
        if np.any(ranked[1:] == ranked[:-1]):
            return _grow_with_heap(grid, weights, start)
        a, b = grid.walls_between if grid.walls is not None else (grid.edges[:, 0], grid.edges[:, 1])
    else:
        a, b = grid.edges[:, 0], grid.edges[:, 1]
    passages = np.zeros(grid.edge_count, dtype=bool)
    passages[order[spanning_forest(grid.cells, a[order], b[order])]] = True
    return passages


def edge_weights(grid: "Grid | MazeGrid", rng: Random) -> NDArray[np.float64]:
    """Each edge's random weight: on a square maze ``rng.random(2 * size)[2 * cell + south]`` for the wall
    east (``south`` 0) or south (1) of ``cell``; on every other grid one float an edge, in edge order."""
    if not isinstance(grid, MazeGrid):
        return rng.random(grid.edge_count)
    maze = grid.maze
    a, b = grid.walls_between
    weights: NDArray[np.float64] = rng.random(2 * maze.size)[2 * a + (b - a == maze.width)]
    return weights


def _grow_with_heap(grid: "Grid | MazeGrid", weights: NDArray[np.float64], start: int) -> Opened:
    """Prim's algorithm as written: a heap of frontier walls ``(weight, cell, neighbour)``, from the entrance
    cell, then from the first cell of each other part of a mask."""
    off, nbr, eid = grid.offsets.tolist(), grid.neighbours.tolist(), grid.edge_ids.tolist()
    weight = weights.tolist()
    in_tree, opened = [False] * grid.cells, np.zeros(grid.edge_count, dtype=bool)
    for root, _ in parts(grid, start):
        in_tree[root] = True
        frontier = [(weight[eid[k]], root, nbr[k], eid[k]) for k in range(off[root], off[root + 1])]
        frontier.sort()
        while frontier:
            _, cell, nxt, edge = heappop(frontier)
            if in_tree[nxt]:
                continue
            in_tree[nxt] = opened[edge] = True
            for k in range(off[nxt], off[nxt + 1]):
                if not in_tree[nbr[k]]:
                    heappush(frontier, (weight[eid[k]], nxt, nbr[k], eid[k]))
    return opened
