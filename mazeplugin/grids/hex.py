"""The hexagonal grid ("sigma" mazes): pointy-top hexagons in rows, odd rows shifted half a cell right.

Cell ``(x, y)`` is number ``y * width + x``. Each has up to six neighbours:
east and west in its row, and north-east, north-west, south-east and
south-west in the rows above and below (which two cells those are depends on
whether the row is shifted). This is Tiled's hexagonal layout with
``staggeraxis="y"``, ``staggerindex="odd"``. Source: J. Buck, "Mazes for
Programmers", ch. 14 (``hex_grid.rb``, there with flat-top columns).

>>> grid = HexGrid(3, 2)
>>> grid.neighbours_of(grid.cell_at(1, 0)).tolist()  # west, east, south-west, south-east
[0, 2, 3, 4]
>>> grid.neighbours_of(grid.cell_at(0, 1)).tolist()  # north-west, north-east, east
[0, 1, 4]
"""

from __future__ import annotations

import math
from typing import List, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from .base import Point, RowGrid, Side

__all__ = ["HexGrid", "HEX_DIRECTIONS"]

ROOT3 = math.sqrt(3.0)
HEX_LATTICE = 1  # mazeplugin._compiled.gridrows.HEX

HEX_DIRECTIONS = ("north-east", "east", "south-east", "south-west", "west", "north-west")
"""The six directions, clockwise from the top-right side (the order of :meth:`HexGrid.step`)."""


class HexGrid(RowGrid):
    """``width × height`` pointy-top hexagons, odd rows shifted right (see the module docstring)."""

    name = "hex"

    def __init__(self, width: int, height: int) -> None:
        super().__init__(width, height, HEX_LATTICE)

    @property
    def edge_count(self) -> int:
        """Every row but the last has ``3 * width - 2`` edges (east, south-west, south-east); the last ``width - 1``."""
        return (self.height - 1) * (3 * self.width - 2) + self.width - 1

    def _numpy_edges(self) -> NDArray[np.int64]:
        w, h = self.width, self.height
        y, x = np.divmod(np.arange(w * h, dtype=np.int64), w)
        shift = y & 1  # odd rows sit half a cell right: their south-west is straight below
        cell = y * w + x
        # Each cell's east, south-west and south-east neighbours, ascending, so the pairs come sorted.
        targets = np.stack([cell + 1, cell + w - 1 + shift, cell + w + shift], axis=1)
        ok = np.stack([x < w - 1, (y < h - 1) & (x - 1 + shift >= 0), (y < h - 1) & (x + shift < w)], axis=1)
        return np.stack([np.broadcast_to(cell[:, None], targets.shape)[ok], targets[ok]], axis=1)

    def step(self, cell: int, direction: int) -> int:
        """The cell one step in ``HEX_DIRECTIONS[direction]`` from ``cell``, or -1 off the grid."""
        x, y = self.xy(cell)
        shift = y & 1
        dx, dy = ((shift, -1), (1, 0), (shift, 1), (shift - 1, 1), (-1, 0), (shift - 1, -1))[direction]
        nx, ny = x + dx, y + dy
        if 0 <= nx < self.width and 0 <= ny < self.height:
            return self.cell_at(nx, ny)
        return -1

    def centre(self, cell: int) -> Point:
        x, y = self.xy(cell)
        return (ROOT3 * (x + 0.5 * (y & 1)) + ROOT3 / 2, 1.5 * y + 1.0)

    def sides(self, cell: int) -> List[Side]:
        cx, cy = self.centre(cell)
        corners = [(cx + math.cos(math.radians(60 * i - 90)), cy + math.sin(math.radians(60 * i - 90)))
                   for i in range(7)]
        return [(self.step(cell, i), [corners[i], corners[i + 1]]) for i in range(6)]

    def openings(self) -> Tuple[Tuple[int, Optional[int]], Tuple[int, Optional[int]]]:
        """West of the first cell and east of the last."""
        return (0, 4), (self.cells - 1, 1)

    def extent(self) -> Point:
        return (ROOT3 * (self.width + (0.5 if self.height > 1 else 0.0)), 1.5 * (self.height - 1) + 2.0)
