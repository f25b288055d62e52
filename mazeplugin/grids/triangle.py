"""The triangular grid ("delta" mazes): rows of triangles pointing up and down in turn.

Cell ``(x, y)`` is number ``y * width + x`` and points up when ``x + y`` is
even. Each has up to three neighbours: west and east in its row, and the one
across its flat side — below an upward triangle, above a downward one.
Source: J. Buck, "Mazes for Programmers", ch. 14 (``triangle_grid.rb``).

>>> grid = TriangleGrid(3, 2)
>>> grid.neighbours_of(0).tolist(), grid.neighbours_of(1).tolist()  # 0 points up, 1 down
([1, 3], [0, 2])
"""

from __future__ import annotations

import math
from typing import List, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from .base import Point, RowGrid, Side

__all__ = ["TriangleGrid"]

HEIGHT = math.sqrt(3.0) / 2  # of a triangle with unit sides
TRIANGLE_LATTICE = 2  # mazeplugin._compiled.gridrows.TRIANGLE


class TriangleGrid(RowGrid):
    """``width × height`` triangles; cell ``(x, y)`` points up when ``x + y`` is even."""

    name = "triangle"

    def __init__(self, width: int, height: int) -> None:
        super().__init__(width, height, TRIANGLE_LATTICE)

    @property
    def edge_count(self) -> int:
        """``width - 1`` east edges a row, and a south edge below each upward triangle of every row but the last."""
        w, rows = self.width, self.height - 1
        return self.height * (w - 1) + (rows + 1) // 2 * ((w + 1) // 2) + rows // 2 * (w // 2)

    def _numpy_edges(self) -> NDArray[np.int64]:
        ids = np.arange(self.width * self.height, dtype=np.int64).reshape(self.height, self.width)
        east = np.stack([ids[:, :-1].ravel(), ids[:, 1:].ravel()], axis=1)
        ys, xs = np.nonzero(((np.arange(self.width)[None, :] + np.arange(self.height)[:, None]) % 2 == 0)
                            & (np.arange(self.height)[:, None] < self.height - 1))
        south = np.stack([ids[ys, xs], ids[ys + 1, xs]], axis=1)
        return np.concatenate([east, south])

    def upright(self, cell: int) -> bool:
        """True when ``cell`` points up (its flat side at the bottom)."""
        x, y = self.xy(cell)
        return (x + y) % 2 == 0

    def sides(self, cell: int) -> List[Side]:
        x, y = self.xy(cell)
        west = cell - 1 if x > 0 else -1
        east = cell + 1 if x < self.width - 1 else -1
        left, mid, right = x / 2, (x + 1) / 2, (x + 2) / 2
        top, bottom = y * HEIGHT, (y + 1) * HEIGHT
        if self.upright(cell):
            south = cell + self.width if y < self.height - 1 else -1
            return [(west, [(left, bottom), (mid, top)]), (east, [(mid, top), (right, bottom)]),
                    (south, [(right, bottom), (left, bottom)])]
        north = cell - self.width if y > 0 else -1
        return [(north, [(left, top), (right, top)]), (east, [(right, top), (mid, bottom)]),
                (west, [(mid, bottom), (left, top)])]

    def openings(self) -> Tuple[Tuple[int, Optional[int]], Tuple[int, Optional[int]]]:
        """West of the first cell and east of the last (side 1 is east on both kinds of triangle)."""
        return (0, 0), (self.cells - 1, 1)

    def extent(self) -> Point:
        return ((self.width + 1) / 2, self.height * HEIGHT)
