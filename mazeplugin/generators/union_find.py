"""The union-find "web maze", on any grid: knock through random walls until entrance and exit meet.

Pick a random cell and one of its neighbours at random; if a disjoint-set
forest says they are not yet connected, open the wall between them and merge
their sets. Stop as soon as the entrance cell and the exit cell are in one
set (when a square mask puts the two in separate parts, which only happens
without planned markers, the start cell's part is webbed up to its last
cell). Texture: a tree of passages joining entrance and exit, with the cells
that were never reached left as sealed pockets (small trees or single cells
with no way in) — on purpose, as in the source. Not a perfect maze.

Each try reads two floats (the cell, then which of its neighbours, in the
grid's order: north, east, south, west on the square grid); a cell with no
neighbour (alone in a mask) reads both and is skipped. The picks are drawn
in bulk and turned into (cell, neighbour) pairs with numpy; the union-find
loop over them (:meth:`DisjointSets.union_each` with ``until=``) stops right
after the union that joins entrance and exit. The compiled twin is
``mazeplugin/_compiled/union_find.py``.

Source: founding document 001 (union-find 实现网页版的迷宫: rooms joined by
``DSets`` with union by rank and path compression, drawn as SVG).
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

FIRST_BATCH = 4096  # tries in the first draw; the numbers read are the same for any batch size


def reachable_goal(grid: Grid, start: int, goal: int) -> int:
    """``goal``, or when the grid's edges do not join it to ``start`` (a square mask in parts), the
    last cell they join to ``start``."""
    if getattr(grid, "connected", True):
        return goal
    reach = DisjointSets(grid.cells)
    reach.union_each(grid.edges[:, 0].tolist(), grid.edges[:, 1].tolist())
    if reach.connected(start, goal):
        return goal
    return next(c for c in range(grid.cells - 1, -1, -1) if reach.connected(start, c))


@register("union-find", perfect=False, fills=False, grids=GRIDS)
def union_find(grid: Grid, rng: Random, start: int, goal: int) -> Opened:
    """Union-find web maze: join random neighbours until entrance and exit connect; leaves sealed pockets."""
    goal = reachable_goal(grid, start, goal)
    fast = kernel("union-find", grid.cells)
    if fast is not None:  # the same tries, compiled (mazeplugin/_compiled/union_find.py)
        return fast.generate(grid, rng, start, goal)  # type: ignore[no-any-return]
    offsets, neighbours = grid.offsets, grid.neighbours
    degree = np.diff(offsets)
    sets = DisjointSets(grid.cells)
    opened = np.zeros(grid.edge_count, dtype=bool)
    batch = min(FIRST_BATCH, 2 * grid.cells + 32)
    while not sets.connected(start, goal):
        picks = rng.random(2 * batch)
        cell = (picks[0::2] * grid.cells).astype(np.int64)
        count = degree[cell]
        has = count > 0
        cell = cell[has]
        step = offsets[cell] + (picks[1::2][has] * count[has]).astype(np.int64)
        joined = sets.union_each(cell.tolist(), neighbours[step].tolist(), until=(start, goal))
        opened[grid.edge_ids[step[joined]]] = True
        batch = min(2 * batch, max(grid.cells, FIRST_BATCH))  # fewer, larger draws on big mazes
    return opened
