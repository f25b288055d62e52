"""Simplified Prim's algorithm: grow the tree through a random frontier wall, all weights equal.

Keep a list of walls between the tree and cells outside it. Take a uniformly
random wall from the list (swap-remove: constant time); if the cell beyond is
still outside the tree, open the wall and add that cell's walls to the list.
With no weights the tree spreads evenly from the start "like poured syrup",
unlike true Prim's (``prim``), whose random weights make it flow around
clumps. Texture: bushy, short corridors, about 32% dead ends and simple
solutions; a perfect maze.

Sources: W. D. Pullen, "Think Labyrinth: Maze Algorithms" ("Prim's algorithm
(simplified)"); J. Buck, "Mazes for Programmers", ch. 11 ("Simplified Prim's").
"""

from __future__ import annotations

import numpy as np

from .._compiled import kernel
from ..maze import Maze
from ..registry import GRIDS, register
from . import graph
from ..seeds import Random


@register("prim-simplified", grids=GRIDS, graph=graph.prim_simplified)
def prim_simplified(maze: Maze, rng: Random) -> None:
    """Simplified Prim's: open a random frontier wall, unweighted. Bushy, about 32% dead ends. Perfect."""
    fast = kernel("prim-simplified", maze.size)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/prim_simplified.py)
        fast.generate(maze, rng)
        return
    table = maze.neighbour_table()
    # neighbour[4 * cell + k]: the k-th neighbour; off the grid or mask it is cell `size`,
    neighbour = np.where(table < 0, maze.size, table).ravel().tolist()
    in_tree = (~maze.mask).ravel().tolist() + [True]  # ... which counts as in the tree
    picks = rng.random(2 * maze.size).tolist()  # each wall enters the frontier at most once
    taken = 0
    opened_a, opened_b = [], []
    for root in maze.roots():  # one tree per part
        if in_tree[root]:
            continue
        in_tree[root] = True
        # The frontier: walls coded 4 * outside_cell + k, where the outside cell's
        # k-th neighbour (north, east, south, west) is the tree cell beside it.
        frontier = [
            4 * far + (k + 2) % 4
            for k, far in enumerate(neighbour[4 * root : 4 * root + 4])
            if not in_tree[far]
        ]
        while frontier:
            i = int(picks[taken] * len(frontier))
            taken += 1
            wall = frontier[i]
            frontier[i] = frontier[-1]
            frontier.pop()
            nxt = wall >> 2
            if in_tree[nxt]:
                continue
            in_tree[nxt] = True
            opened_a.append(neighbour[wall])
            opened_b.append(nxt)
            for k, far in enumerate(neighbour[4 * nxt : 4 * nxt + 4]):
                if not in_tree[far]:
                    frontier.append(4 * far + (k + 2) % 4)
    maze.open_many(opened_a, opened_b)
