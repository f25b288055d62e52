"""The square grid as a graph, for wrap-around levels: a cylinder (``wrap="x"`` or ``"y"``) or a torus (``"xy"``).

Plain square levels keep :class:`mazeplugin.maze.Maze` and its fast arrays;
a level that wraps is this graph instead, so every neighbour-only generator
runs on it unchanged: with ``wrap="x"`` the last cell of each row neighbours
the first (a passage leaving the east edge arrives on the west edge), with
``"y"`` the bottom row neighbours the top, with ``"xy"`` both. Its tilemap
is the square one (cell ``(x, y)`` at tile ``(2x + 1, 2y + 1)``), with a wrap
passage drawn as an opening on *both* edges it joins.

>>> grid = SquareGrid(4, 3, wrap="x")
>>> grid.neighbours_of(grid.cell_at(3, 0)).tolist()  # west, the wrap to (0, 0), south
[0, 2, 7]
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from .base import Grid, GridMaze, Point, RowGrid, Side, lattice_rows

__all__ = ["SquareGrid", "WRAPS", "square_tiles", "side_tile"]

WRAPS = ("x", "y", "xy")
"""The ``wrap=`` values: across the east/west edges, the north/south edges, or both."""
SQUARE_LATTICE = 0  # mazeplugin._compiled.gridrows.SQUARE


class SquareGrid(RowGrid):
    """``width × height`` square cells, wrapping round as ``wrap`` says (see the module docstring)."""

    wrap: Optional[str]
    wraps_x: bool
    wraps_y: bool

    name = "square"

    def __init__(self, width: int, height: int, wrap: Optional[str] = None) -> None:
        # Its edges are built at once (Grid.__init__), not when first read as a lattice grid's.
        self.width, self.height, self.wrap = int(width), int(height), wrap
        self.wraps_x, self.wraps_y = wrap is not None and "x" in wrap, wrap is not None and "y" in wrap
        w, h = self.width, self.height
        built = lattice_rows(SQUARE_LATTICE, w, h, self.wraps_x, self.wraps_y)
        if built is not None:  # the same arrays in one compiled pass (mazeplugin/_compiled/gridrows.py)
            Grid.__init__(self, w * h, built[0], rows=built[1])
            return
        ids = np.arange(w * h, dtype=np.int64).reshape(h, w)
        pairs = [np.stack([ids[:, :-1].ravel(), ids[:, 1:].ravel()], axis=1),
                 np.stack([ids[:-1, :].ravel(), ids[1:, :].ravel()], axis=1)]
        if self.wraps_x and w >= 3:  # (with 2 columns the wrap would be the passage already there)
            pairs.append(np.stack([ids[:, -1], ids[:, 0]], axis=1))
        if self.wraps_y and h >= 3:
            pairs.append(np.stack([ids[-1, :], ids[0, :]], axis=1))
        Grid.__init__(self, w * h, np.concatenate(pairs))

    def step(self, cell: int, side: int) -> int:
        """The cell across ``side`` (0 north, 1 east, 2 south, 3 west) of ``cell``, round the wrap; -1 off the grid."""
        x, y = self.xy(cell)
        dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[side]
        nx, ny = x + dx, y + dy
        if self.wraps_x and self.width >= 3:
            nx %= self.width
        if self.wraps_y and self.height >= 3:
            ny %= self.height
        return self.cell_at(nx, ny) if 0 <= nx < self.width and 0 <= ny < self.height else -1

    def sides(self, cell: int) -> List[Side]:
        x, y = self.xy(cell)
        corners = [(float(x), float(y)), (x + 1.0, float(y)), (x + 1.0, y + 1.0), (float(x), y + 1.0), (float(x), float(y))]
        return [(self.step(cell, i), [corners[i], corners[i + 1]]) for i in range(4)]

    def centre(self, cell: int) -> Point:
        x, y = self.xy(cell)
        return (x + 0.5, y + 0.5)

    def openings(self) -> Tuple[Tuple[int, Optional[int]], Tuple[int, Optional[int]]]:
        """West of the first cell and east of the last; north and south with ``wrap="x"``; on a torus,
        which has no edge, the first cell and the one halfway round both ways."""
        last = self.cells - 1
        if self.wraps_x and self.wraps_y:
            return (0, None), (self.cell_at(self.width // 2, self.height // 2), None)
        if self.wraps_x:
            return (0, 0), (last, 2)
        return (0, 3), (last, 1)

    def extent(self) -> Point:
        return (float(self.width), float(self.height))


def side_tile(grid: SquareGrid, cell: int, side: Optional[int]) -> Tuple[int, int]:
    """The ``(x, y)`` tile of ``cell`` (``side`` None) or of the wall on ``side`` of it."""
    x, y = grid.xy(cell)
    dx, dy = ((0, 0) if side is None else ((0, -1), (1, 0), (0, 1), (-1, 0))[side])
    return 2 * x + 1 + dx, 2 * y + 1 + dy


def square_tiles(maze: GridMaze, openings: Tuple[Tuple[int, Optional[int]], ...] = ()) -> NDArray[np.uint8]:
    """The ``(2h + 1, 2w + 1)`` 1 = wall / 0 = floor tilemap of a (wrapping) square maze.

    A passage between neighbours in a row or column opens the tile between
    them; a wrap passage opens the edge tile on both sides it joins.
    """
    grid = maze.grid
    if not isinstance(grid, SquareGrid):
        raise TypeError(f"square_tiles needs a maze on a SquareGrid, not a {type(grid).__name__}")
    w, h = grid.width, grid.height
    tiles = np.ones((2 * h + 1, 2 * w + 1), dtype=np.uint8)
    tiles[1::2, 1::2] = 0
    a, b = maze.passages()[:, 0], maze.passages()[:, 1]
    ay, ax = np.divmod(a, w)
    by, bx = np.divmod(b, w)
    inner = (np.abs(ax - bx) + np.abs(ay - by)) == 1
    tiles[ay[inner] + by[inner] + 1, ax[inner] + bx[inner] + 1] = 0
    across = ~inner  # wrap passages: a and b on opposite edges
    rows = ay[across] == by[across]
    tiles[2 * ay[across][rows] + 1, 0] = 0
    tiles[2 * ay[across][rows] + 1, 2 * w] = 0
    tiles[0, 2 * ax[across][~rows] + 1] = 0
    tiles[2 * h, 2 * ax[across][~rows] + 1] = 0
    for cell, side in openings:
        if side is not None:
            x, y = side_tile(grid, cell, side)
            tiles[y, x] = 0
    return tiles
