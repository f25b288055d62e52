"""The union-find "web maze": knock through random walls until entrance and exit meet.

Pick a random cell and one of its neighbours at random; if a disjoint-set
forest says they are not yet connected, open the wall between them and merge
their sets. Stop as soon as the entrance cell and the exit cell are in one
set (without planned markers, when the mask puts the two in separate parts,
the start cell's part is webbed up to its last cell). Texture: a tree of passages joining entrance and exit, with the cells
that were never reached left as sealed pockets (small trees or single cells
with no way in) — on purpose, as in the source. Not a perfect maze.

The random picks are drawn in bulk and turned into (cell, neighbour) pairs
with numpy; the union-find loop over them (:meth:`DisjointSets.union_each`
with ``until=``) stops right after the union that joins entrance and exit.

Source: founding document 001 (union-find 实现网页版的迷宫: rooms joined by
``DSets`` with union by rank and path compression, drawn as SVG).
"""

from __future__ import annotations

import numpy as np

from .._compiled import kernel
from ..maze import Maze
from ..registry import GRIDS, register
from . import graph
from ..seeds import Random
from ..unionfind import DisjointSets

_FIRST_BATCH = 4096  # pairs in the first draw; the numbers drawn are the same for any batch size


@register("union-find", perfect=False, fills=False, grids=GRIDS, graph=graph.union_find)
def union_find(maze: Maze, rng: Random) -> None:
    """Union-find web maze: join random neighbours until entrance and exit connect; leaves sealed pockets."""
    fast = kernel("union-find", maze.size)
    if fast is not None:  # the same pairs, compiled (mazeplugin/_compiled/union_find.py)
        fast.generate(maze, rng, _FIRST_BATCH)
        return
    start = maze.cell_id(*maze.start)
    goal = maze.cell_id(*maze.goal)
    cells = maze.cells()
    # Each cell's neighbours packed to the front of its row (north, east, south, west order).
    table = maze.neighbour_table()
    packed = np.take_along_axis(table, np.argsort(table < 0, axis=1, kind="stable"), axis=1)
    choices = np.count_nonzero(table >= 0, axis=1)
    if not maze.mask.all():
        # Inside a mask the two cells may lie in separate parts; never loop forever.
        reach = DisjointSets(maze.size)
        reach.union_each(*(w.tolist() for w in maze.walls()))
        if not reach.connected(start, goal):
            # Only without planned markers (markers='farthest' or 'none': generate() refuses
            # entrance and exit in separate parts): web the start cell's part, up to its last cell.
            goal = next(c for c in reversed(cells.tolist()) if reach.connected(start, c))

    sets = DisjointSets(maze.size)
    opened_a, opened_b = [], []
    batch = _FIRST_BATCH
    while not sets.connected(start, goal):
        # Pick pairs in bulk: a random cell, then a random one of its neighbours.
        picks = rng.random(2 * batch)
        cell = cells[(picks[0::2] * len(cells)).astype(np.int64)]
        count = choices[cell]
        has = count > 0
        cell = cell[has]
        neighbour = packed[cell, (picks[1::2][has] * count[has]).astype(np.int64)]
        joined = sets.union_each(cell.tolist(), neighbour.tolist(), until=(start, goal))
        opened_a.append(cell[joined])
        opened_b.append(neighbour[joined])
        batch = min(2 * batch, maze.size)  # fewer, larger draws on big mazes
    if opened_a:
        maze.open_many(np.concatenate(opened_a), np.concatenate(opened_b))
