"""From passages to tiles: the one place that knows where cells sit in a tilemap.

With the default corridor and wall width of 1, cell ``(cx, cy)`` is tile
``(2*cx + 1, 2*cy + 1)``, the tile between two neighbouring cells is their
wall (1) or passage (0), tiles at even-even positions are the corners between
four cells (wall "pillars", except the corners ``maze.corners`` opens inside a
room, which are floor), and the outer ring is wall except where an entrance or
exit opens it::

    x →  0 1 2 3 4
    y 0  # # # # #      cells at (1, 1) and (3, 1), joined by a passage at (2, 1)
      1  S . . . E      S: entrance opened in the west wall, E: exit in the east wall
      2  # # # # #

A wider ``corridor`` or ``wall`` stretches every cell column/row and every
wall column/row by that many tiles ("base" positions are those of the width-1
map; :class:`Layout` converts between the two).

>>> from mazeplugin.maze import Maze
>>> maze = Maze(2, 1)
>>> maze.open(0, 1)
>>> base_tiles(maze).tolist()
[[1, 1, 1, 1, 1], [1, 0, 0, 0, 1], [1, 1, 1, 1, 1]]
>>> Layout(2, 1, corridor=2).expand(base_tiles(maze)).shape
(4, 7)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Optional, Tuple, cast

import numpy as np
from numpy.typing import NDArray

from .maze import UNDER_EAST_WEST, UNDER_NORTH_SOUTH, Cell, Maze

__all__ = ["WALL", "FLOOR", "ENTRANCE", "EXIT", "Layout", "Opening", "base_tiles", "base_bridges", "passage_tiles",
           "open_markers", "Tile", "check_tile"]

WALL = 1
FLOOR = 0
ENTRANCE = 2
EXIT = 3

Tile = Tuple[int, int]
"""A tile position ``(x, y)``."""

# A side of a cell: where a border opening lies.
_SIDE_STEP = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}


@dataclass(frozen=True)
class Opening:
    """Where a marker sits: in ``cell``, or in the outer wall on ``side`` of it."""

    cell: Cell
    side: Optional[str] = None  # None: the marker is on the cell itself

    def base_position(self) -> Tile:
        """The marker's position in the width-1 (base) tilemap."""
        cx, cy = self.cell
        dx, dy = _SIDE_STEP[self.side] if self.side else (0, 0)
        return (2 * cx + 1 + dx, 2 * cy + 1 + dy)


def passage_tiles(east: NDArray[np.bool_], south: NDArray[np.bool_], mask: Optional[NDArray[np.bool_]] = None,
                  corners: Optional[NDArray[np.bool_]] = None) -> NDArray[np.uint8]:
    """The width-1 tilemap of passages ``east`` and ``south`` (``(..., height, width)``; leading axes
    are a batch of mazes): ``(..., 2*height + 1, 2*width + 1)``, 1 = wall. ``mask`` (default: every
    cell) and ``corners`` (default: none open) are a :class:`~mazeplugin.maze.Maze`'s, shaped like the passages.

    >>> maze = Maze(2, 1)
    >>> maze.east[0, 0] = True
    >>> passage_tiles(maze.east[None], maze.south[None])[0].tolist()
    [[1, 1, 1, 1, 1], [1, 0, 0, 0, 1], [1, 1, 1, 1, 1]]
    """
    *batch, h, w = east.shape
    tiles = np.ones((*batch, 2 * h + 1, 2 * w + 1), dtype=np.uint8)
    tiles[..., 1::2, 1::2] = FLOOR if mask is None else ~mask
    # The last column/row of east/south is always closed, so the slices that
    # reach the outer ring leave it wall.
    tiles[..., 1::2, 2::2] = ~east
    tiles[..., 2::2, 1::2] = ~south
    if corners is not None:
        tiles[..., 2:-1:2, 2:-1:2] = ~corners  # open corners: floor inside rooms
    return tiles


def open_markers(base: NDArray[np.uint8], openings: Iterable[Opening]) -> NDArray[np.uint8]:
    """``base`` tiles (``(..., rows, columns)``, one map or a batch) with each border opening's tile
    made floor, in place; ``base``."""
    for opening in openings:
        bx, by = opening.base_position()
        base[..., by, bx] = FLOOR
    return base


def base_tiles(maze: Maze) -> NDArray[np.uint8]:
    """The width-1 tilemap of ``maze``: ``(2*height + 1, 2*width + 1)``, 1 = wall."""
    tiles = passage_tiles(maze.east, maze.south, maze.mask, maze.corners)
    if maze.under is not None:  # a weave: the tiles either side of a bridge carry its under-passage
        ew, ns = maze.under == UNDER_EAST_WEST, maze.under == UNDER_NORTH_SOUTH
        across, along = tiles[1::2, 2::2], tiles[2::2, 1::2]  # views: the walls east of / south of each cell
        across[ew] = FLOOR
        across[:, :-1][ew[:, 1:]] = FLOOR
        along[ns] = FLOOR
        along[:-1, :][ns[1:, :]] = FLOOR
    return tiles


def base_bridges(maze: Maze) -> NDArray[np.uint8]:
    """The width-1 bridge layer of ``maze``, shaped like :func:`base_tiles`: at each bridge cell's
    tile, which way the under-passage beneath it runs (``UNDER_EAST_WEST`` 1, ``UNDER_NORTH_SOUTH`` 2);
    0 everywhere else (see :mod:`mazeplugin.weave`).

    >>> maze = Maze(3, 3)
    >>> maze.east[1, :2] = True                # a passage east-west through the middle cell ...
    >>> maze.under = np.zeros((3, 3), dtype=np.int8)
    >>> maze.under[1, 1] = UNDER_NORTH_SOUTH   # ... is a bridge over a tunnel running north-south
    >>> base_bridges(maze)[3].tolist(), base_tiles(maze)[:, 3].tolist()
    ([0, 0, 0, 2, 0, 0, 0], [1, 0, 0, 0, 0, 0, 1])
    """
    h, w = maze.height, maze.width
    out = np.zeros((2 * h + 1, 2 * w + 1), dtype=np.uint8)
    if maze.under is not None:
        out[1::2, 1::2] = maze.under
    return out


class Layout:
    """Tile geometry of a maze of ``width`` × ``height`` cells.

    ``corridor`` is the width of a passage in tiles, ``wall`` the thickness
    of a wall; both default to 1.
    """

    def __init__(self, width: int, height: int, *, corridor: int = 1, wall: int = 1) -> None:
        self.width: int = width
        self.height: int = height
        self.corridor: int = corridor
        self.wall: int = wall
        self.pitch: int = corridor + wall
        self.shape: Tuple[int, int] = (height * self.pitch + wall, width * self.pitch + wall)

    @property
    def is_unit(self) -> bool:
        """True when tiles and base positions coincide (corridor = wall = 1)."""
        return self.corridor == 1 and self.wall == 1

    def _repeats(self, cells: int) -> NDArray[np.int64]:
        reps = np.full(2 * cells + 1, self.wall, dtype=np.int64)
        reps[1::2] = self.corridor
        return reps

    def expand(self, base: NDArray[np.uint8]) -> NDArray[np.uint8]:
        """Stretch a base tilemap to this layout's corridor and wall widths."""
        if self.is_unit:
            return base
        base = np.repeat(base, self._repeats(self.height), axis=-2)  # (-2, -1): a batch of maps too
        return np.repeat(base, self._repeats(self.width), axis=-1)

    def base_of(self, tile: Tile) -> Tile:
        """The base position that tile ``(x, y)`` belongs to."""
        return (self._base_axis(tile[0]), self._base_axis(tile[1]))

    def _base_axis(self, t: int) -> int:
        k, r = divmod(t - self.wall, self.pitch)
        if t < self.wall:
            return 0
        return 2 * k + 1 if r < self.corridor else 2 * k + 2

    def tile_of(self, base: Tile, *, outer: Optional[str] = None) -> Tile:
        """The representative tile of a base position: the middle of its block.

        For a border opening, ``outer`` names the side, and the tile is the
        outermost one of the opening (so it lies on the map's edge).
        """
        x = self._tile_axis(base[0])
        y = self._tile_axis(base[1])
        if outer == "west":
            x = 0
        elif outer == "east":
            x = self.shape[1] - 1
        elif outer == "north":
            y = 0
        elif outer == "south":
            y = self.shape[0] - 1
        return (x, y)

    def _tile_axis(self, b: int) -> int:
        k, odd = divmod(b, 2)
        start = k * self.pitch + (self.wall if odd else 0)
        size = self.corridor if odd else self.wall
        return start + (size - 1) // 2

    def cell_of(self, tile: Tile) -> Cell:
        """The cell tile ``(x, y)`` is on, or beside (a wall tile, or a marker's opening in the outer wall).

        >>> Layout(3, 2).cell_of((0, 1)), Layout(3, 2).cell_of((6, 3))   # an opening west, a tile east of the last cell
        ((0, 0), (2, 1))
        """
        bx, by = self.base_of(tile)
        return (min(max((bx - 1) // 2, 0), self.width - 1), min(max((by - 1) // 2, 0), self.height - 1))

    def cell_tile(self, cell: Cell) -> Tile:
        """The tile at the middle of ``cell``'s block."""
        return self.tile_of((2 * cell[0] + 1, 2 * cell[1] + 1))

    def cell_rect(self, cell: Cell) -> Tuple[int, int, int, int]:
        """``(x, y, w, h)`` in tiles of ``cell``'s floor block."""
        return (
            self.wall + cell[0] * self.pitch,
            self.wall + cell[1] * self.pitch,
            self.corridor,
            self.corridor,
        )

    def opening_tile(self, opening: Opening) -> Tile:
        """The tile a marker at ``opening`` is reported at."""
        return self.tile_of(opening.base_position(), outer=opening.side)

    def opening_at(self, tile: Tile, mask: NDArray[np.bool_]) -> Optional[Opening]:
        """The opening a caller-given marker tile stands for, or None if it can't hold one.

        A marker may sit on any tile of a cell's floor block, or on the outer
        wall beside a border cell (which then gets opened).
        """
        bx, by = self.base_of(tile)
        h, w = self.height, self.width
        if bx % 2 == 1 and by % 2 == 1:
            cell = (bx // 2, by // 2)
            return Opening(cell) if mask[cell[1], cell[0]] else None
        if bx % 2 == 1 and by in (0, 2 * h):
            cell = (bx // 2, 0 if by == 0 else h - 1)
            side = "north" if by == 0 else "south"
        elif by % 2 == 1 and bx in (0, 2 * w):
            cell = (0 if bx == 0 else w - 1, by // 2)
            side = "west" if bx == 0 else "east"
        else:
            return None
        return Opening(cell, side) if mask[cell[1], cell[0]] else None

    def border_openings(self, mask: NDArray[np.bool_]) -> list[Opening]:
        """Every place in the outer wall that can open into a maze cell, in a fixed order."""
        h, w = self.height, self.width
        found: list[Opening] = []
        found += [Opening((x, 0), "north") for x in range(w) if mask[0, x]]
        found += [Opening((w - 1, y), "east") for y in range(h) if mask[y, w - 1]]
        found += [Opening((x, h - 1), "south") for x in range(w) if mask[h - 1, x]]
        found += [Opening((0, y), "west") for y in range(h) if mask[y, 0]]
        return found


# Bits of wall_neighbours(): which 4-neighbours of a wall tile are walls too.
NORTH_BIT, EAST_BIT, SOUTH_BIT, WEST_BIT = 1, 2, 4, 8


def wall_neighbours(tiles: NDArray[np.integer]) -> NDArray[np.uint8]:
    """For each wall tile, the 4-bit mask of its wall neighbours; 0 on floor tiles.

    Bits: north = 1, east = 2, south = 4, west = 8. Off the map counts as
    floor, so the outer ring's corners are 6 (east + south) and so on. Use it
    to pick joined wall sprites ("autotiling") or box-drawing characters.

    >>> import numpy as np
    >>> wall_neighbours(np.array([[1, 1, 1], [1, 0, 0], [1, 1, 1]])).tolist()
    [[6, 10, 8], [5, 0, 0], [3, 10, 8]]
    """
    wall = (np.asarray(tiles) == WALL).view(np.uint8)  # 1 on walls, 0 elsewhere
    # Shift each neighbour's 0/1 into its bit: whole-array uint8 operations, no temporaries of other types.
    bits = np.zeros(wall.shape, dtype=np.uint8)
    bits[1:, :] = wall[:-1, :]  # north: bit 1
    bits[:, :-1] |= wall[:, 1:] << np.uint8(1)  # east: bit 2
    bits[:-1, :] |= wall[1:, :] << np.uint8(2)  # south: bit 4
    bits[:, 1:] |= wall[:, :-1] << np.uint8(3)  # west: bit 8
    bits *= wall
    return bits


def check_tile(name: str, tile: object, shape: Tuple[int, ...]) -> Tile:
    """A tile argument as an ``(x, y)`` int pair inside a map of ``shape``, or a clear error."""
    try:
        x, y = cast(Iterable[Any], tile)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an (x, y) pair of ints, got {tile!r}") from None
    if any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in (x, y)):
        raise TypeError(f"{name} must be an (x, y) pair of ints, got {tile!r}")
    x, y = int(x), int(y)
    h, w = shape
    if not (0 <= x < w and 0 <= y < h):
        raise ValueError(f"{name} {(x, y)} is outside the map: x must be in 0..{w - 1}, y in 0..{h - 1}")
    return (x, y)
