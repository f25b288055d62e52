"""Hunt-and-kill: a random walk that, when stuck, hunts for a new place to start.

Walk from the entrance cell to random unvisited neighbours, opening walls,
until the walk has nowhere new to go. Then hunt: scan the grid row by row for
the first unvisited cell beside a visited one, open the wall to a random
visited neighbour, and walk on from there. Every cell before the scan's
position is visited, so the first unvisited cell always borders a visited one
(its north or west neighbour) unless a mask is in the way: the scan never has
to start over. Texture: long winding corridors like the backtracker's, about
10–11% dead ends; a perfect maze.

Sources: W. D. Pullen, "Think Labyrinth: Maze Algorithms" ("Hunt and
kill"); J. Buck, "Mazes for Programmers", ch. 5.
"""

from __future__ import annotations

import numpy as np

from ..maze import Maze
from ..registry import register
from ..seeds import Random


@register("hunt-and-kill")
def hunt_and_kill(maze: Maze, rng: Random) -> None:
    """Hunt-and-kill: random walks, restarted beside visited ground. Long corridors, about 10% dead ends. Perfect."""
    size = maze.size
    table = maze.neighbour_table()
    # neighbour[4 * cell + k]: the k-th neighbour; off the grid or mask it is cell `size`,
    neighbour = np.where(table < 0, size, table).ravel().tolist()
    visited = (~maze.mask).ravel().tolist() + [True]  # ... which counts as visited
    picks = rng.random(size).tolist()  # one per opened passage
    opened_a, opened_b = [], []
    opened = 0
    cell = maze.cell_id(*maze.start)
    visited[cell] = True
    scan = 0  # every cell before it is visited
    while True:
        fresh = [n for n in neighbour[4 * cell : 4 * cell + 4] if not visited[n]]
        if fresh:  # kill: walk on into a random unvisited neighbour
            nxt = fresh[int(picks[opened] * len(fresh))]
            opened_a.append(cell)
            opened_b.append(nxt)
            cell = nxt
        else:  # hunt: the first unvisited cell beside a visited one
            while scan < size and visited[scan]:
                scan += 1
            if scan == size:
                break
            found = scan
            while found < size and (
                visited[found]
                or all(n == size or not visited[n] for n in neighbour[4 * found : 4 * found + 4])
            ):
                found += 1
            if found == size:  # this part of the mask is done; start the next one
                visited[scan] = True
                cell = scan
                continue
            old = [n for n in neighbour[4 * found : 4 * found + 4] if n < size and visited[n]]
            opened_a.append(found)
            opened_b.append(old[int(picks[opened] * len(old))])
            cell = found
        visited[cell] = True
        opened += 1
    maze.open_many(opened_a, opened_b)
