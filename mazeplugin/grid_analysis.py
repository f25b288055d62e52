"""A grid maze's distances, solution, dead ends and stats: :mod:`mazeplugin.analysis`'s grid half, by its old names.

>>> from mazeplugin.grids import GridMaze, TriangleGrid
>>> maze = GridMaze(TriangleGrid(3, 1))
>>> maze.link(0, 1); maze.link(1, 2)
>>> distances(maze, 0).tolist(), path(maze, 0, 2)
([0, 1, 2], [0, 1, 2])
"""

from __future__ import annotations

from .analysis import dead_end_cells, grid_distances as distances, grid_path as path, grid_stats

__all__ = ["distances", "path", "grid_stats", "dead_end_cells"]
