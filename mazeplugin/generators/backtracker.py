"""Recursive backtracker: a randomized depth-first traversal, without recursion.

From the entrance cell, step to a random unvisited neighbour, opening the wall
between them, and keep going; when every neighbour is visited, back up along
the path to the last cell that still has one. The path back is the chain of
each cell's parent (the cell it was entered from), so there is no recursion
limit and no stack to push and pop. Texture: long, winding corridors and few dead ends
(about 10% of cells); a perfect maze. :func:`backtracker` walks a square maze
framed (no neighbour table: the fastest plain loop there), :func:`on_grid`
any grid over the neighbour interface; both read one float per carve and
reach the one compiled kernel, ``mazeplugin/_compiled/backtracker.py``.

Sources: founding document 004 (圖的遍歷迷宮算法: depth-first traversal
with IN/OUT markers); J. Buck, "Mazes for Programmers", ch. 5.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Tuple

import numpy as np

from .._compiled import kernel
from ..maze import Maze
from ..registry import GRIDS, register
from ..seeds import Random
from .graph import MazeGrid, Opened, crossed, parts, walk_rows

if TYPE_CHECKING:  # pragma: no cover - a square level loads no grid module
    from ..grids import Grid

# FOUR[n][e][s][w]: the slots (0 to 3) of a four-slot cell's unvisited neighbours, by whether each of the
# four is visited (0 or 1): four lookups pick the tuple, no list is built per step.
FOUR = [[[[tuple(slot for slot, seen in enumerate((n, e, s, w)) if not seen)
           for w in (0, 1)] for s in (0, 1)] for e in (0, 1)] for n in (0, 1)]


def on_grid(grid: "Grid | MazeGrid", rng: Random, start: int, goal: int) -> Opened:
    """The backtracker over the neighbour interface (every grid; a square maze's grid too, the same passages
    as :func:`backtracker`): one float per carve, a cell's neighbours in its grid's order."""
    fast = kernel("backtracker", grid.cells)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/backtracker.py)
        return fast.generate(grid, rng, start)  # type: ignore[no-any-return]
    # (A square maze's wall is a slot holding the cell itself: never unvisited, as the cell is visited.)
    slots = walk_rows(grid)
    around = slots.around
    cells, four = grid.cells, slots.degree == 4
    # One float per carve (a square maze draws one a cell of its rectangle, as it always did: the rooms
    # generator reads on after it); pick[k][i] = int(picks[i] * k) for k choices.
    picks = rng.random(grid.maze.size if isinstance(grid, MazeGrid) else cells)
    widest = slots.degree or max(map(len, around))
    pick: List[List[int]] = [[], []] + [(picks * k).astype(np.uint16).tolist() for k in range(2, widest + 1)]
    # The stack of the depth-first search is the chain of parents: backing
    # up from a dead end is cell = parent[cell]. back[cell] is that chain with
    # the cells left by their only way on skipped: nothing can open there again.
    visited, parent, back = [0] * cells, [-1] * cells, [-1] * cells
    carved = 0
    for root, _ in parts(grid, start):  # one tree per part of a mask
        visited[root] = 1
        back[root] = root
        cell = root
        while True:
            ar = around[cell]
            if four:
                n, e, s, w = ar
                way: "Tuple[int, ...] | List[int]" = FOUR[visited[n]][visited[e]][visited[s]][visited[w]]
            else:
                way = [slot for slot, nbr in enumerate(ar) if not visited[nbr]]
            if way:
                k = len(way)
                if k > 1:
                    nxt = ar[way[pick[k][carved]]]
                    back[nxt] = cell
                else:
                    nxt = ar[way[0]]
                    back[nxt] = back[cell]
                carved += 1
                visited[nxt] = 1
                parent[nxt] = cell
                cell = nxt
            elif cell != root:
                cell = back[cell]  # dead end: back up
            else:
                break
    up = np.fromiter(parent, np.int64, cells)
    child = np.flatnonzero(up >= 0)
    if not four:
        return crossed(slots.rows, grid.edge_count, child.tolist(), parent)
    up = up[child]
    _, neighbours, edge_ids = slots.rows  # the slot of each parent that holds its child: four a cell
    slot = 4 * up + np.argmax(neighbours.reshape(-1, 4)[up] == child[:, None], axis=1)
    opened = np.zeros(grid.edge_count, dtype=bool)
    opened[edge_ids[slot]] = True
    return opened



@register("backtracker", grids=GRIDS, graph=on_grid)
def backtracker(maze: Maze, rng: Random) -> None:
    """Depth-first backtracker: long winding corridors, few dead ends (about 10%). Perfect."""
    # Walk a copy of the grid framed by a ring of visited cells, so the four
    # neighbours of any cell are just cell - pitch, + 1, + pitch, - 1 (north,
    # east, south, west): no bounds checks and no neighbour table in the loop.
    # (The compiled kernel walks the same steps; it backs up along parent.)
    fast = kernel("backtracker", maze.size)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/backtracker.py)
        fast.generate_maze(maze, rng)
        return
    pitch = maze.width + 2
    framed = np.ones((maze.height + 2, pitch), dtype=np.uint8)
    framed[1:-1, 1:-1] = ~maze.mask  # cells outside the mask count as visited
    visited = framed.ravel().tolist()  # 1: visited, 0: not yet
    # One random number per carved passage; pick[k][i] = int(picks[i] * k) for k choices.
    picks = rng.random(maze.size)
    pick = [[], []] + [(picks * k).astype(np.uint8).tolist() for k in (2, 3, 4)]  # uint8: faster tolist
    # ways[n][e][s][w]: the steps to the unvisited neighbours, in the order north,
    # east, south, west, by whether each of the four is visited (0 or 1). Four
    # lookups pick the tuple: no list is built per step.
    steps = (-pitch, 1, pitch, -1)
    ways = [[[[tuple(step for step, seen in zip(steps, (n, e, s, w)) if not seen)
               for w in (0, 1)] for s in (0, 1)] for e in (0, 1)] for n in (0, 1)]
    # The stack of the depth-first search is the chain of parents: backing
    # up from a dead end is cell = parent[cell]. back[cell] is that chain with
    # the cells left by their only way on skipped: nothing can open there again.
    parent = [-1] * len(visited)
    back = [-1] * len(visited)
    carved = 0
    start_x, start_y = maze.start
    roots = [(start_y + 1) * pitch + start_x + 1]  # one tree per part of a mask
    if not maze.mask.all():
        cells = maze.cells()
        roots += ((cells // maze.width + 1) * pitch + cells % maze.width + 1).tolist()
    for root in roots:
        if visited[root]:
            continue
        visited[root] = 1
        back[root] = root
        cell = root
        while True:
            way = ways[visited[cell - pitch]][visited[cell + 1]][visited[cell + pitch]][visited[cell - 1]]
            if way:
                k = len(way)
                if k > 1:
                    nxt = cell + way[pick[k][carved]]
                    back[nxt] = cell
                else:
                    nxt = cell + way[0]
                    back[nxt] = back[cell]
                carved += 1
                visited[nxt] = 1
                parent[nxt] = cell
                cell = nxt
            elif cell != root:
                cell = back[cell]  # dead end: back up
            else:
                break
    framed_parent = np.fromiter(parent, np.int64, len(parent)).reshape(maze.height + 2, pitch)[1:-1, 1:-1]
    child = np.flatnonzero(framed_parent >= 0)
    up = framed_parent.ravel()[child]
    maze.open_many(child, (up // pitch - 1) * maze.width + up % pitch - 1)
