"""Randomized Kruskal's algorithm, on any grid.

Every wall between two cells, in random order, is removed when the cells on
its two sides are still in different sets of a disjoint-set forest; removing
it merges the sets. The result is a perfect maze (a spanning tree of the
cells). Texture: many short dead ends (about 30% of cells), short corridors,
no directional bias.

It reads only the grid's edges (on the square grid the maze's inner walls in
``Maze.walls()`` order), shuffled by ``rng.permutation``. The union-find is
:class:`~mazeplugin.unionfind.DisjointSets` (union by rank, path halving);
its whole pass over the shuffled walls runs in one tight loop
(:meth:`~mazeplugin.unionfind.DisjointSets.union_each`). The compiled twin,
``mazeplugin/_compiled/kruskal.py``, sorts the same raw words into the same
permutation and opens the same walls.

Sources: J. B. Kruskal, "On the Shortest Spanning Subtree of a Graph" (1956);
the founding documents 000 ("隨機拆牆") and 003.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._compiled import kernel
from ..registry import GRIDS, register
from ..seeds import Random
from ..unionfind import DisjointSets
from .graph import Opened

if TYPE_CHECKING:  # pragma: no cover - a square level loads no grid module
    from ..grids import Grid


@register("kruskal", grids=GRIDS)
def kruskal(grid: Grid, rng: Random, start: int, goal: int) -> Opened:
    """Randomized Kruskal: remove walls in random order when they join two sets. Perfect; many short dead ends."""
    fast = kernel("kruskal", grid.cells)
    if fast is not None:  # the same shuffle and pass, compiled (mazeplugin/_compiled/kruskal.py)
        return fast.generate(grid, rng)  # type: ignore[no-any-return]
    order = rng.permutation(grid.edge_count)
    ends = grid.edges[order]
    opened = np.zeros(grid.edge_count, dtype=bool)
    opened[order[DisjointSets(grid.cells).union_each(ends[:, 0].tolist(), ends[:, 1].tolist())]] = True
    return opened
