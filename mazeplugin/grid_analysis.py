"""Questions answered from a grid maze's passages: distances, the solution, dead ends, stats.

The grid counterparts of :mod:`mazeplugin.paths` and
:mod:`mazeplugin.analysis` for a :class:`~mazeplugin.grids.GridMaze` (hex,
triangle, polar): breadth-first search over the open passages alone, so
every answer works for every grid and every generator. Distances count
passages walked (a cell's neighbour is 1 away).

>>> from mazeplugin.grids import GridMaze, TriangleGrid
>>> maze = GridMaze(TriangleGrid(3, 1))
>>> maze.link(0, 1); maze.link(1, 2)
>>> distances(maze, 0).tolist(), path(maze, 0, 2)
([0, 1, 2], [0, 1, 2])
>>> grid_stats(maze, 0, 2).dead_ends
2
"""

from __future__ import annotations

from typing import List, Optional

import numpy as np
from numpy.typing import NDArray

from .analysis import Stats
from .grids import GridMaze

__all__ = ["distances", "path", "grid_stats", "dead_end_cells"]


def _parents(maze: GridMaze, source: int) -> tuple[List[int], List[int]]:
    """Breadth-first search from ``source``: (distance, parent) per cell, -1 where unreached."""
    offsets, neighbours = maze.open_adjacency()
    off, nbr = offsets.tolist(), neighbours.tolist()
    dist, parent = [-1] * maze.grid.cells, [-1] * maze.grid.cells
    dist[source] = 0
    frontier = [source]
    while frontier:
        following = []
        for cell in frontier:
            for k in range(off[cell], off[cell + 1]):
                other = nbr[k]
                if dist[other] < 0:
                    dist[other], parent[other] = dist[cell] + 1, cell
                    following.append(other)
        frontier = following
    return dist, parent


def distances(maze: GridMaze, source: int) -> NDArray[np.int32]:
    """Passages walked from ``source`` to every cell, -1 where it cannot be reached."""
    _check_cell(maze, source, "source")
    return np.asarray(_parents(maze, source)[0], dtype=np.int32)


def path(maze: GridMaze, start: int, goal: int) -> List[int]:
    """The cells of the shortest way from ``start`` to ``goal``, both included; [] when there is none."""
    _check_cell(maze, start, "start")
    _check_cell(maze, goal, "goal")
    dist, parent = _parents(maze, start)
    if dist[goal] < 0:
        return []
    cells = [goal]
    while cells[-1] != start:
        cells.append(parent[cells[-1]])
    return cells[::-1]


def dead_end_cells(maze: GridMaze) -> NDArray[np.int64]:
    """The cells with exactly one open passage, ascending."""
    return np.flatnonzero(maze.degrees() == 1).astype(np.int64)


def grid_stats(maze: GridMaze, entrance: Optional[int], exit: Optional[int]) -> Stats:
    """The maze's texture in numbers (the fields of :class:`mazeplugin.analysis.Stats`).

    ``detour_ratio`` and ``turns`` are None: a grid's cells have no common
    straight line to measure them by.
    """
    cells, passages = maze.grid.cells, int(maze.open.sum())
    degrees = maze.degrees()
    first, _ = _parents(maze, 0)
    pieces = 1
    reached = np.asarray(first) >= 0
    while not reached.all():  # count the connected pieces (a perfect maze has one)
        pieces += 1
        more, _ = _parents(maze, int(np.argmin(reached)))
        reached |= np.asarray(more) >= 0
    far = int(np.argmax(first))
    longest = max(_parents(maze, far)[0]) + 1  # a double sweep: exact on a tree
    solution_length = decision_points = None
    if entrance is not None and exit is not None:
        way = path(maze, entrance, exit)
        if way:
            solution_length = len(way)
            # a wrong turn is possible where a cell has a passage off the way
            decision_points = sum(1 for i, cell in enumerate(way[:-1]) if degrees[cell] > (1 if i == 0 else 2))
    dead = int(np.count_nonzero(degrees == 1))
    return Stats(cells=cells, passages=passages, dead_ends=dead, dead_end_fraction=dead / cells,
                 junctions=int(np.count_nonzero(degrees >= 3)), loops=passages - cells + pieces,
                 longest_path=int(longest), solution_length=solution_length, decision_points=decision_points)


def _check_cell(maze: GridMaze, cell: object, name: str) -> None:
    if isinstance(cell, bool) or not isinstance(cell, (int, np.integer)) or not 0 <= int(cell) < maze.grid.cells:
        raise ValueError(f"{name} must be a cell number from 0 to {maze.grid.cells - 1}, got {cell!r}")
