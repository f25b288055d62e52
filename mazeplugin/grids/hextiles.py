"""Hex mazes as tilemaps: a doubled hex lattice where every tile is a cell or lies between two neighbouring cells.

Scale the hex lattice of a :class:`~mazeplugin.grids.HexGrid` by two: the
cells sit on every other tile, and each tile halfway between two
neighbouring cells is that pair's passage (0, floor) or wall (1). Every
other tile is wall, as is a margin one tile wide all round; the entrance
opens the margin west of the first cell, the exit east of the last. A 5 × 4
hex backtracker maze, odd rows drawn half a tile right as the map shows them
(``#`` wall, ``.`` floor; Tiled: ``staggeraxis="y"``, ``staggerindex="odd"``)::

    # # # # # # # # # # # #
     . . # . . . . . . . # #
    # # . # # # . # # # . #
     # # . # . # . # . . . #
    # # # . . . # # # . # #
     # . # . # . . . . . # #
    # # . # # # # # # # . #
     # # . . . . . . . . . .
    # # # # # # # # # # # #

Cell ``(x, y)`` is tile ``(col, row) = (2x + (y & 1) + 1, 2y + 1)``; the map is
``(2 * height + 1, 2 * width + 2)`` tiles, indexed ``[row, col]``. A hex
neighbour of a passage tile is one of its two cells or another passage tile
of one of them, so walking the floor tiles joins exactly the cells the
passages join (passage tiles of one cell touch, so a walker may cut a
corner inside a cell's ring of six).

>>> from mazeplugin.grids import HexGrid, GridMaze
>>> maze = GridMaze(HexGrid(2, 1))
>>> maze.link(0, 1)
>>> hex_tiles(maze).tolist()
[[1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 1], [1, 1, 1, 1, 1, 1]]
"""

from __future__ import annotations

from typing import Tuple

import numpy as np
from numpy.typing import NDArray

from .base import GridMaze
from .hex import HexGrid

__all__ = ["hex_tiles", "cell_tiles", "passage_tiles", "tile_shape", "opening_tiles", "hex_neighbour_tiles",
           "STAGGER_AXIS", "STAGGER_INDEX"]

STAGGER_AXIS = "y"
STAGGER_INDEX = "odd"


def tile_shape(grid: HexGrid) -> Tuple[int, int]:
    """``(rows, cols)`` of the tilemap of ``grid``."""
    return 2 * grid.height + 1, 2 * grid.width + 2


def _doubled_axial(grid: HexGrid) -> Tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Each cell's axial coordinates on the doubled lattice, one row down for the margin."""
    y, x = np.divmod(np.arange(grid.cells, dtype=np.int64), grid.width)
    return 2 * (x - (y - (y & 1)) // 2), 2 * y + 1


def _offset(q: NDArray[np.int64], r: NDArray[np.int64]) -> Tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Axial to odd-row-shifted ``(col, row)``, one column right for the margin."""
    return q + (r - (r & 1)) // 2 + 1, r


def cell_tiles(grid: HexGrid) -> Tuple[NDArray[np.int64], NDArray[np.int64]]:
    """``(cols, rows)``: the tile of every cell."""
    return _offset(*_doubled_axial(grid))


def passage_tiles(grid: HexGrid) -> Tuple[NDArray[np.int64], NDArray[np.int64]]:
    """``(cols, rows)``: the tile between the two cells of every edge."""
    q, r = _doubled_axial(grid)
    a, b = grid.edges[:, 0], grid.edges[:, 1]
    return _offset((q[a] + q[b]) // 2, (r[a] + r[b]) // 2)


def opening_tiles(grid: HexGrid) -> Tuple[Tuple[int, int], Tuple[int, int]]:
    """The entrance and exit tiles ``(col, row)``: west of the first cell, east of the last."""
    cols, rows = cell_tiles(grid)
    return (int(cols[0]) - 1, int(rows[0])), (int(cols[-1]) + 1, int(rows[-1]))


def hex_tiles(maze: GridMaze, *, openings: bool = True) -> NDArray[np.uint8]:
    """The 1 = wall / 0 = floor tilemap of a hex maze (see the module docstring)."""
    grid = maze.grid
    if not isinstance(grid, HexGrid):
        raise TypeError(f"hex_tiles needs a maze on a HexGrid, not a {type(grid).__name__}")
    tiles = np.ones(tile_shape(grid), dtype=np.uint8)
    cols, rows = cell_tiles(grid)
    tiles[rows, cols] = 0
    cols, rows = passage_tiles(grid)
    tiles[rows[maze.open], cols[maze.open]] = 0
    if openings:
        for col, row in opening_tiles(grid):
            tiles[row, col] = 0
    return tiles


def hex_neighbour_tiles(col: int, row: int) -> Tuple[Tuple[int, int], ...]:
    """The six ``(col, row)`` tiles around tile ``(col, row)`` on the map (odd rows shifted right), clockwise from north-east."""
    shift = row & 1
    return ((col + shift, row - 1), (col + 1, row), (col + shift, row + 1), (col + shift - 1, row + 1),
            (col - 1, row), (col + shift - 1, row - 1))
