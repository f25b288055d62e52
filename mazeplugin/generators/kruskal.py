"""Randomized Kruskal's algorithm.

Every wall between two cells, in random order, is removed when the cells on
its two sides are still in different sets of a disjoint-set forest; removing
it merges the sets. The result is a perfect maze (a spanning tree of the
cells). Texture: many short dead ends (about 30% of cells), short corridors,
no directional bias.

The union-find is :class:`~mazeplugin.unionfind.DisjointSets` (union by rank,
path halving); its whole pass over the shuffled walls runs in one tight loop
(:meth:`~mazeplugin.unionfind.DisjointSets.union_each`), which makes a 1000 × 1000
maze in about 2 s.

Sources: J. B. Kruskal, "On the Shortest Spanning Subtree of a Graph" (1956);
the founding documents 000 ("隨機拆牆") and 003.
"""

from __future__ import annotations

from .._compiled import kernel
from ..maze import Maze
from ..registry import GRIDS, register
from . import graph
from ..seeds import Random
from ..unionfind import DisjointSets


@register("kruskal", grids=GRIDS, graph=graph.kruskal)
def kruskal(maze: Maze, rng: Random) -> None:
    """Randomized Kruskal: remove walls in random order when they join two sets. Perfect; many short dead ends."""
    fast = kernel("kruskal", maze.size)
    if fast is not None:  # the same shuffle and pass, compiled (mazeplugin/_compiled/kruskal.py)
        fast.generate(maze, rng)
        return
    a, b = maze.walls()
    order = rng.permutation(len(a))
    a, b = a[order], b[order]
    removed = DisjointSets(maze.size).union_each(a.tolist(), b.tolist())
    maze.open_many(a[removed], b[removed])
