"""Hunt-and-kill, on any grid: a random walk that, when stuck, hunts for a new place to start.

Walk from the entrance cell to random unvisited neighbours, opening walls,
until the walk has nowhere new to go. Then hunt: scan the cells in order (on
a square maze row by row) for the first unvisited cell beside a visited one,
open the wall to a random visited neighbour, and walk on from there. Every
cell before the scan's position is visited, so on a square maze the first
unvisited cell always borders a visited one (its north or west neighbour)
unless a mask is in the way: the scan never has to start over. When no
unvisited cell borders a visited one (a mask's next part), the walk starts
afresh at the first unvisited cell. Each passage opened reads one float.
Texture: long winding corridors like the backtracker's, about 10–11% dead
ends; a perfect maze. The compiled twin is ``mazeplugin/_compiled/hunt_and_kill.py``.

Sources: W. D. Pullen, "Think Labyrinth: Maze Algorithms" ("Hunt and
kill"); J. Buck, "Mazes for Programmers", ch. 5.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List

from .._compiled import kernel
from ..registry import GRIDS, register
from ..seeds import Random
from .graph import Opened, crossed, walk_rows

if TYPE_CHECKING:  # pragma: no cover - a square level loads no grid module
    from ..grids import Grid


@register("hunt-and-kill", grids=GRIDS)
def hunt_and_kill(grid: Grid, rng: Random, start: int, goal: int) -> Opened:
    """Hunt-and-kill: random walks, restarted beside visited ground. Long corridors, about 10% dead ends. Perfect."""
    fast = kernel("hunt-and-kill", grid.cells)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/hunt_and_kill.py)
        return fast.generate(grid, rng, start)  # type: ignore[no-any-return]
    # (A square maze's wall is a slot holding the cell itself: never fresh, as the cell is visited, and
    # never a hunted cell's visited neighbour, as that cell is not.)
    slots = walk_rows(grid)
    around = slots.around
    picks = rng.random(grid.cells).tolist()  # one per passage opened
    visited, came_from = [False] * grid.cells, [-1] * grid.cells
    entered: List[int] = []
    cell, scan = start, 0
    while True:
        visited[cell] = True
        fresh = [n for n in around[cell] if not visited[n]]
        if fresh:  # kill: walk on into a random unvisited neighbour
            nxt = fresh[int(picks[len(entered)] * len(fresh))]
            came_from[nxt] = cell
            entered.append(nxt)
            cell = nxt
            continue
        while scan < grid.cells and visited[scan]:  # every cell before `scan` is visited
            scan += 1
        if scan == grid.cells:
            return crossed(slots.rows, grid.edge_count, entered, came_from)
        cell = scan  # (if no unvisited cell borders a visited one: start afresh here)
        for hunted in range(scan, grid.cells):  # hunt: the first unvisited cell beside a visited one
            if not visited[hunted]:
                seen = [n for n in around[hunted] if visited[n]]
                if seen:
                    came_from[hunted] = seen[int(picks[len(entered)] * len(seen))]
                    entered.append(hunted)
                    cell = hunted
                    break
