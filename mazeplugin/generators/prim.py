"""True Prim's algorithm on random wall weights.

Give every wall a random weight; grow a tree from the entrance cell by always
opening the cheapest wall on its frontier (kept in a heap) whose far side is
not yet in the tree. This is Prim's minimum-spanning-tree algorithm, so with
random weights its mazes have the same texture as Kruskal's: many short dead
ends (about 30% of cells). A perfect maze.

Sources: R. C. Prim, "Shortest connection networks and some generalizations"
(1957); J. Buck, "Mazes for Programmers", ch. 11 ("True Prim's").
"""

from __future__ import annotations

from heapq import heappop, heappush

from ..maze import Maze
from ..registry import register
from ..seeds import Random


@register("prim")
def prim(maze: Maze, rng: Random) -> None:
    """True Prim's: grow a tree by the cheapest of randomly weighted frontier walls. Same texture as Kruskal's."""
    w = maze.width
    neighbours = maze.neighbour_table().tolist()
    # weight[cell][k] belongs to the wall east (k=0) or south (k=1) of the cell.
    weights = rng.random(2 * maze.size).tolist()
    in_tree = (~maze.mask).ravel().tolist()
    opened_a, opened_b = [], []

    def wall_weight(a: int, b: int) -> float:
        lo, hi = (a, b) if a < b else (b, a)
        return weights[2 * lo + (hi - lo != 1 or w == 1)]

    roots = [maze.cell_id(*maze.start)] + maze.cells().tolist()
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
