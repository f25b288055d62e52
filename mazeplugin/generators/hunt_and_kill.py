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

from .._compiled import kernel
from ..maze import Maze
from ..registry import GRIDS, register
from . import graph
from ..seeds import Random


@register("hunt-and-kill", grids=GRIDS, graph=graph.hunt_and_kill)
def hunt_and_kill(maze: Maze, rng: Random) -> None:
    """Hunt-and-kill: random walks, restarted beside visited ground. Long corridors, about 10% dead ends. Perfect."""
    # Walk a copy of the grid framed by a ring of blocked cells, so the four
    # neighbours of a cell are cell - pitch, + 1, + pitch, - 1 (north, east,
    # south, west): no bounds checks and no neighbour table in the loop.
    fast = kernel("hunt-and-kill", maze.size)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/hunt_and_kill.py)
        fast.generate(maze, rng)
        return
    pitch = maze.width + 2
    framed = np.zeros((maze.height + 2, pitch), dtype=bool)
    framed[1:-1, 1:-1] = maze.mask
    inside = framed.ravel().tolist()
    visited = [not c for c in inside]  # the frame and cells outside the mask: never entered
    carved = [False] * len(inside)  # visited maze cells, which a hunt may join
    end = len(inside)
    picks = rng.random(maze.size).tolist()  # one per opened passage
    opened_a, opened_b = [], []
    opened = 0
    start_x, start_y = maze.start
    cell = (start_y + 1) * pitch + start_x + 1
    visited[cell] = carved[cell] = True
    scan = 0  # every cell before it is visited
    while True:
        around = (cell - pitch, cell + 1, cell + pitch, cell - 1)
        fresh = [n for n in around if not visited[n]]
        if fresh:  # kill: walk on into a random unvisited neighbour
            nxt = fresh[int(picks[opened] * len(fresh))]
            opened_a.append(cell)
            opened_b.append(nxt)
            cell = nxt
        else:  # hunt: the first unvisited cell beside a visited one
            while scan < end and visited[scan]:
                scan += 1
            if scan == end:
                break
            found = scan
            while found < end and (
                visited[found]
                or not (carved[found - pitch] or carved[found + 1]
                        or carved[found + pitch] or carved[found - 1])
            ):
                found += 1
            if found == end:  # this part of the mask is done; start the next one
                cell = scan
                visited[cell] = carved[cell] = True
                continue
            old = [n for n in (found - pitch, found + 1, found + pitch, found - 1) if carved[n]]
            opened_a.append(found)
            opened_b.append(old[int(picks[opened] * len(old))])
            cell = found
        visited[cell] = carved[cell] = True
        opened += 1
    a = np.asarray(opened_a, dtype=np.int64)
    b = np.asarray(opened_b, dtype=np.int64)
    maze.open_many((a // pitch - 1) * maze.width + a % pitch - 1, (b // pitch - 1) * maze.width + b % pitch - 1)
