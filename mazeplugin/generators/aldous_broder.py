"""The Aldous–Broder algorithm: a random walk that carves into every cell it first enters.

Walk from the entrance cell to a uniformly random neighbour, again and again;
whenever the walk enters a cell it has never visited, open the wall it came
through. Stop when every cell of the part has been visited. The passages are
a *uniform* spanning tree: every perfect maze of the grid is equally likely.
Slow to finish (the walk keeps crossing visited ground), but unbiased.
Texture: about 29% dead ends, no bias, corridors of every length; a perfect maze.

Sources: D. Aldous, "The random walk construction of uniform spanning trees
and uniform labelled trees" (1990); A. Broder, "Generating random spanning
trees" (1989); J. Buck, "Mazes for Programmers", ch. 4.
"""

from __future__ import annotations

import numpy as np

from .._compiled import kernel
from ..maze import Maze
from ..registry import GRIDS, register
from . import graph
from ..seeds import Random
from ..maze import mask_parts


@register("aldous-broder", grids=GRIDS, graph=graph.aldous_broder)
def aldous_broder(maze: Maze, rng: Random) -> None:
    """Aldous–Broder: a random walk opens its way into each new cell. Uniform; about 29% dead ends. Perfect."""
    # Each step draws one of four directions; a step into a wall stays put. Staying
    # put never enters a new cell, so the cells entered, and the walls entered
    # through, are those of the simple random walk: the tree is still uniform.
    fast = kernel("aldous-broder", maze.size)
    if fast is not None:  # the same walk, compiled (mazeplugin/_compiled/aldous_broder.py)
        fast.generate(maze, rng)
        return
    table = maze.neighbour_table()
    stay = np.arange(maze.size, dtype=np.int64)[:, None]
    step_to = np.where(table < 0, stay, table).ravel().tolist()  # step_to[4 * cell + direction]
    visited = (~maze.mask).ravel().tolist()
    labels, count = mask_parts(maze.mask)
    part_sizes = np.bincount(labels[maze.mask], minlength=count).tolist()
    part_of = labels.ravel().tolist()
    batch = min(1 << 16, 8 * maze.size + 64)  # random steps drawn at a time
    opened_a, opened_b = [], []
    for root in maze.roots():  # one walk per part
        if visited[root]:
            continue
        visited[root] = True
        unvisited = part_sizes[part_of[root]] - 1
        cell4 = 4 * root
        while unvisited:
            for direction in rng.integers(4, batch).tolist():
                nxt = step_to[cell4 + direction]
                if not visited[nxt]:
                    visited[nxt] = True
                    opened_a.append(cell4 >> 2)
                    opened_b.append(nxt)
                    unvisited -= 1
                    if not unvisited:
                        break
                cell4 = 4 * nxt
    maze.open_many(opened_a, opened_b)
