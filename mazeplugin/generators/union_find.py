"""The union-find "web maze": knock through random walls until entrance and exit meet.

Pick a random cell and one of its neighbours at random; if a disjoint-set
forest says they are not yet connected, open the wall between them and merge
their sets. Stop as soon as the entrance cell and the exit cell are in one
set. Texture: a tree of passages joining entrance and exit, with the cells
that were never reached left as sealed pockets (small trees or single cells
with no way in) — on purpose, as in the source. Not a perfect maze.

Source: founding document 001 (union-find 实现网页版的迷宫: rooms joined by
``DSets`` with union by rank and path compression, drawn as SVG).
"""

from __future__ import annotations

from ..maze import Maze
from ..registry import register
from ..seeds import Random
from .disjoint_sets import DisjointSets

_BATCH = 4096  # random numbers drawn per refill


@register("union-find", perfect=False)
def union_find(maze: Maze, rng: Random) -> None:
    """Union-find web maze: join random neighbours until entrance and exit connect; leaves sealed pockets."""
    start = maze.cell_id(*maze.start)
    goal = maze.cell_id(*maze.goal)
    cells = maze.cells().tolist()
    neighbours = [[n for n in row if n >= 0] for row in maze.neighbour_table().tolist()]
    if not maze.mask.all():
        # Inside a mask the two cells may lie in separate parts; never loop forever.
        reach = DisjointSets(maze.size)
        reach.union_each(*(w.tolist() for w in maze.walls()))
        if not reach.connected(start, goal):
            raise ValueError("union-find: the entrance and exit cells are in separate parts of the mask")

    sets = DisjointSets(maze.size)
    opened_a, opened_b = [], []
    while not sets.connected(start, goal):
        picks = rng.random(2 * _BATCH).tolist()
        for k in range(0, 2 * _BATCH, 2):
            cell = cells[int(picks[k] * len(cells))]
            choices = neighbours[cell]
            if not choices:
                continue
            neighbour = choices[int(picks[k + 1] * len(choices))]
            if sets.union(cell, neighbour):
                opened_a.append(cell)
                opened_b.append(neighbour)
                if sets.connected(start, goal):
                    break
    maze.open_many(opened_a, opened_b)
