"""The figures designers choose generators by, computed from the maze model in one place.

Everything here reads a :class:`~mazeplugin.maze.Maze`'s cells and open
passages, so it works the same for every generator. Distances are counted in
cells walked (passages crossed), not in tiles.

A room (``maze.rooms``) is one open space: its cells are never dead ends, and
junctions and loops are counted with each room taken as one place, so a
room's own floor adds none (a room with three or more doors is a junction; two
doors from one room into one corridor make a loop).

>>> from mazeplugin.maze import Maze
>>> maze = Maze(3, 2)
>>> maze.open_many([0, 1, 1, 3], [1, 2, 4, 4])  # a T with a tail: 0-1-2, 1-4-3; cell 5 sealed
>>> dead_ends(maze)
[(0, 0), (2, 0), (0, 1)]
>>> s = stats(maze, start=(0, 0), goal=(0, 1))
>>> s.dead_ends, s.junctions, s.loops, s.longest_path, s.solution_length
(3, 1, 0, 3, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import numpy as np

from .maze import Cell, Maze

__all__ = ["Stats", "dead_ends", "stats"]


@dataclass(frozen=True)
class Stats:
    """A maze's texture in numbers.

    Attributes:
        cells: cells in the maze (inside its mask).
        passages: open passages between cells.
        dead_ends: cells outside rooms with exactly one open passage.
        dead_end_fraction: ``dead_ends / cells``.
        junctions: cells outside rooms with three or more open passages,
            plus rooms with three or more doors.
        loops: independent loops (passages − places + connected pieces,
            where a room is one place and its inner passages are not
            counted); 0 for a perfect maze.
        longest_path: cells walked along the longest shortest path between
            two cells of one connected piece (exact for perfect mazes; a
            double breadth-first sweep, so a lower bound, with loops).
        solution_length: cells walked on the shortest path from the entrance
            cell to the exit cell; None without markers or when unreachable.
    """

    cells: int
    passages: int
    dead_ends: int
    dead_end_fraction: float
    junctions: int
    loops: int
    longest_path: int
    solution_length: Optional[int]


def dead_ends(maze: Maze) -> List[Cell]:
    """The ``(x, y)`` cells with exactly one open passage, in row-major order.

    Room cells are never dead ends: a room is one open space.
    """
    ys, xs = np.nonzero((maze.degree() == 1) & maze.mask & (maze.rooms == 0))
    return list(zip(xs.tolist(), ys.tolist()))


def _room_counts(maze: Maze) -> Tuple[int, int, int]:
    """``(rooms, inner passages, rooms with three or more doors)`` of ``maze``."""
    rooms = maze.rooms
    if not rooms.any():
        return 0, 0, 0
    a, b = maze.passages()
    ra, rb = rooms.flat[a], rooms.flat[b]
    inner = (ra == rb) & (ra > 0)
    # A door joins a room cell to a cell outside that room; count it for each room it opens.
    doors = np.concatenate([ra[~inner], rb[~inner]])
    per_room = np.bincount(doors, minlength=int(rooms.max()) + 1)[1:]
    present = np.unique(rooms[rooms > 0])
    return len(present), int(inner.sum()), int((per_room[present - 1] >= 3).sum())


def _adjacency(maze: Maze) -> List[List[int]]:
    """Each cell's list of cells it has an open passage to."""
    table = maze.neighbour_table()
    h, w = maze.height, maze.width
    opened = np.zeros((h, w, 4), dtype=bool)
    opened[1:, :, 0] = maze.south[:-1, :]
    opened[:, :, 1] = maze.east
    opened[:, :, 2] = maze.south
    opened[:, 1:, 3] = maze.east[:, :-1]
    table = np.where(opened.reshape(-1, 4), table, -1)
    return [[n for n in row if n >= 0] for row in table.tolist()]


def _sweep(adjacency: List[List[int]], source: int, target: int = -1) -> Dict[int, int]:
    """Breadth-first distances (cells walked) from ``source``, in the order reached.

    Stops once ``target`` is reached; the last key is the farthest cell reached.
    """
    dist = {source: 0}
    order = [source]
    for cell in order:
        if cell == target:
            break
        d = dist[cell] + 1
        for n in adjacency[cell]:
            if n not in dist:
                dist[n] = d
                order.append(n)
    return dist


def stats(maze: Maze, start: Optional[Cell] = None, goal: Optional[Cell] = None) -> Stats:
    """The :class:`Stats` of ``maze``; ``solution_length`` runs from cell ``start`` to ``goal``.

    >>> import mazeplugin as mp
    >>> s = stats(mp.generate("backtracker", 20, 20, seed=1).maze)
    >>> s.cells, s.passages, s.loops, s.solution_length
    (400, 399, 0, None)
    """
    ordinary = maze.mask & (maze.rooms == 0)
    degree = maze.degree()[ordinary]
    cells = int(maze.mask.sum())
    room_count, inner, busy_rooms = _room_counts(maze)
    passages = maze.passage_count()
    adjacency = _adjacency(maze)
    seen = np.zeros(maze.size, dtype=bool)
    pieces = 0
    longest = 0
    for cell in maze.cells().tolist():
        if seen[cell]:
            continue
        pieces += 1
        reached = list(_sweep(adjacency, cell))
        seen[reached] = True
        if len(reached) > 1:
            longest = max(longest, max(_sweep(adjacency, reached[-1]).values()))
    solution = None
    if start is not None and goal is not None:
        goal_id = maze.cell_id(*goal)
        solution = _sweep(adjacency, maze.cell_id(*start), goal_id).get(goal_id)
    dead = int((degree == 1).sum())
    return Stats(
        cells=cells,
        passages=passages,
        dead_ends=dead,
        dead_end_fraction=dead / cells if cells else 0.0,
        junctions=int((degree >= 3).sum()) + busy_rooms,
        loops=(passages - inner) - (int(ordinary.sum()) + room_count) + pieces,
        longest_path=longest,
        solution_length=solution,
    )
