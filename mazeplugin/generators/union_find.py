"""The union-find "web maze": knock through random walls until entrance and exit meet.

Pick a random cell and one of its neighbours at random; if a disjoint-set
forest says they are not yet connected, open the wall between them and merge
their sets. Stop as soon as the entrance cell and the exit cell are in one
set. Texture: a tree of passages joining entrance and exit, with the cells
that were never reached left as sealed pockets (small trees or single cells
with no way in) — on purpose, as in the source. Not a perfect maze.

The random picks are turned into (cell, neighbour) pairs with numpy, and the
outcome of the loop is computed without running it: the picks that would
merge two sets are the minimum spanning forest of the picks in order
(:func:`~.disjoint_sets.spanning_forest`), and the loop stops after the first
of them that joins entrance and exit (:func:`~.disjoint_sets.first_joining`).

Source: founding document 001 (union-find 实现网页版的迷宫: rooms joined by
``DSets`` with union by rank and path compression, drawn as SVG).
"""

from __future__ import annotations

import numpy as np

from ..maze import Maze
from ..registry import register
from ..seeds import Random
from .disjoint_sets import components, first_joining, spanning_forest

_CHUNK = 1 << 18  # pairs drawn per call (the numbers drawn are the same for any chunk size)


@register("union-find", perfect=False)
def union_find(maze: Maze, rng: Random) -> None:
    """Union-find web maze: join random neighbours until entrance and exit connect; leaves sealed pockets."""
    start = maze.cell_id(*maze.start)
    goal = maze.cell_id(*maze.goal)
    cells = maze.cells()
    # Each cell's neighbours packed to the front of its row (north, east, south, west order).
    table = maze.neighbour_table()
    packed = np.take_along_axis(table, np.argsort(table < 0, axis=1, kind="stable"), axis=1)
    choices = np.count_nonzero(table >= 0, axis=1)
    if not maze.mask.all():
        # Inside a mask the two cells may lie in separate parts; never loop forever.
        part, _ = components(maze.size, *maze.walls())
        if part[start] != part[goal]:
            raise ValueError("union-find: the entrance and exit cells are in separate parts of the mask")
    if start == goal:
        return

    cells, packed = cells.astype(np.int32), packed.astype(np.int32)  # half the memory
    drawn_a, drawn_b = [], []
    batch = 2 * maze.size  # about what a whole grid takes; more if not
    while True:
        # Pick pairs in bulk (a random cell, then a random one of its
        # neighbours), in chunks so the temporaries stay small.
        for done in range(0, batch, _CHUNK):
            picks = rng.random(2 * min(_CHUNK, batch - done))
            cell = cells[(picks[0::2] * len(cells)).astype(np.int64)]
            count = choices[cell]
            has = count > 0
            cell = cell[has]
            drawn_a.append(cell)
            drawn_b.append(packed[cell, (picks[1::2][has] * count[has]).astype(np.int64)])
        a, b = np.concatenate(drawn_a), np.concatenate(drawn_b)
        joins = spanning_forest(maze.size, a, b)  # the picks that merge two sets, in order
        last = first_joining(maze.size, a[joins], b[joins], start, goal)
        if last >= 0:
            break
        batch = max(batch // 2, 1)  # draw on: half as many again
    opened = joins[: last + 1]
    maze.open_many(a[opened], b[opened])
