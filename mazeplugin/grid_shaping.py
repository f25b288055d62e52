"""Braiding a grid maze: dead ends opened into loops, on any grid (hex, triangle, polar, wrapping square).

The grid counterpart of :func:`mazeplugin.shaping.braid`, asking the grid
only for the neighbours of a cell: dead ends (cells with one open passage)
are visited in random order, and each one still a dead end gets a passage
opened to a neighbour that is also a dead end if it has one (removing two
at once), else to a random closed neighbour on a passage, else to a sealed
cell (``union-find``'s pockets), which then becomes a dead end in its turn.
``round(fraction × dead ends)`` are removed; ``fraction=1`` leaves none
where every dead end has a closed neighbour (J. Buck, "Mazes for
Programmers", ch. 9, ``braid``).

>>> import mazeplugin as mp
>>> mp.generate("backtracker", 8, 6, grid="hex", seed=2, braid=1.0).stats().dead_ends
0
"""

from __future__ import annotations

from typing import List, Tuple

from .grids import GridMaze
from .seeds import Random
from .shaping import braid_dead_ends

__all__ = ["braid_grid"]


def braid_grid(maze: GridMaze, rng: Random, fraction: float) -> None:
    """Remove ``round(fraction × dead ends)`` dead ends of ``maze`` by opening one passage at each."""
    grid = maze.grid
    degree = maze.degrees().tolist()
    dead = [c for c in range(grid.cells) if degree[c] == 1]
    if int(round(fraction * len(dead))) == 0:
        return
    off, nbr, eid = grid.offsets.tolist(), grid.neighbours.tolist(), grid.edge_ids.tolist()
    opened = maze.open

    def closed(cell: int) -> List[Tuple[int, int]]:
        return [(nbr[j], eid[j]) for j in range(off[cell], off[cell + 1]) if not opened[eid[j]]]

    def open_way(cell: int, edge: int) -> None:
        opened[edge] = True

    braid_dead_ends(dead, degree, fraction, rng, closed, open_way)
