"""Tiles, cells and pixels: coordinates, the picture a level is drawn as, checks shared by the other modules,
and direction names.

A level is drawn either by its tiles (``tile`` pixels a tile: every level with a tilemap) or by its cells'
outlines (``cell`` pixels a grid unit, with a half-unit margin: hex, triangle, polar and wrapping levels);
:func:`picture` says which from ``tile=``/``cell=``, so every drawing function takes the one level type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Tuple, Union, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
import pygame

from ..level_protocol import AnyLevel
from ..limits import MAX_TILE_PIXELS, check_picture

if TYPE_CHECKING:  # pragma: no cover
    from ..level import Level


TilesLike = Union[AnyLevel, ArrayLike]

MARGIN = 0.5
"""Grid units of floor around a picture drawn by its cells' outlines (as in the SVG)."""


DIRECTIONS = {
    "north": (0, -1),
    "east": (1, 0),
    "south": (0, 1),
    "west": (-1, 0),
    "up": (0, -1),
    "right": (1, 0),
    "down": (0, 1),
    "left": (-1, 0),
}
"""Direction names :func:`can_move` takes, as ``(dx, dy)`` steps."""


def check_tile_size(tile: object) -> int:
    if isinstance(tile, bool) or not isinstance(tile, (int, np.integer)):
        raise TypeError(f"tile must be an int (pixels per tile), not {type(tile).__name__}")
    if not 1 <= tile <= MAX_TILE_PIXELS:
        raise ValueError(f"tile must be from 1 to {MAX_TILE_PIXELS:,} pixels, got {tile}")
    return int(tile)


def check_picture_size(shape: Tuple[int, ...], tile: int) -> None:
    """Refuse a picture of ``shape`` tiles over ``MAX_PICTURE_PIXELS`` before allocating it, naming ``tile``
    (:func:`mazeplugin.limits.check_picture`)."""
    check_picture(shape[0], shape[1], tile)


def tiles_of(level: object) -> NDArray[np.uint8]:
    """The tilemap of a level (``ValueError`` on one without: triangle, polar) or of a 2-D array of 0/1 tiles."""
    if isinstance(level, AnyLevel):
        return level.tiles
    tiles = np.asarray(level)
    if tiles.ndim != 2 or tiles.size == 0:
        raise ValueError(f"level must be a Level or a non-empty 2-D tile array, got shape {tiles.shape}")
    if not np.issubdtype(tiles.dtype, np.integer) and tiles.dtype != np.bool_:
        raise TypeError(f"level tiles must be integers (0 floor, 1 wall), not {tiles.dtype}")
    return tiles.astype(np.uint8, copy=False)


def tile_to_pixel(tile_xy: Tuple[int, int], tile: int, *, centre: bool = True) -> Tuple[int, int]:
    """The world pixel of tile ``(x, y)``: its centre, or its top-left with ``centre=False``.

    >>> tile_to_pixel((2, 3), 16), tile_to_pixel((2, 3), 16, centre=False)
    ((40, 56), (32, 48))
    """
    tile = check_tile_size(tile)
    x, y = tile_xy
    half = tile // 2 if centre else 0
    return (int(x) * tile + half, int(y) * tile + half)


def pixel_to_tile(pixel: Tuple[float, float], tile: int) -> Tuple[int, int]:
    """The tile ``(x, y)`` holding world pixel ``pixel`` (floor division, so negative pixels give negative tiles).

    >>> pixel_to_tile((40, 56), 16), pixel_to_tile((-1, 0), 16)
    ((2, 3), (-1, 0))
    """
    tile = check_tile_size(tile)
    return (int(pixel[0] // tile), int(pixel[1] // tile))


def tile_rect(tile_xy: Tuple[int, int], tile: int) -> "pygame.Rect":
    """The world-pixel rect a tile covers.

    >>> tuple(tile_rect((2, 3), 16))
    (32, 48, 16, 16)
    """
    x, y = tile_to_pixel(tile_xy, tile, centre=False)
    return pygame.Rect(x, y, tile, tile)


def grid_to_pixel(point: Tuple[float, float], cell: float) -> Tuple[int, int]:
    """The pixel of a point in a grid's drawing units (:meth:`Grid.centre <mazeplugin.grids.Grid.centre>` of a
    cell, a point of :meth:`~mazeplugin.Level.walls`) on a picture drawn ``cell`` pixels a grid unit.

    >>> grid_to_pixel((1.0, 2.0), 20)
    (30, 50)
    """
    return round((point[0] + MARGIN) * cell), round((point[1] + MARGIN) * cell)


def picture(level: object, tile: object, cell: object, *, default: bool = True) -> Tuple[str, int]:
    """``("tile", pixels)`` or ``("cell", pixels)``: how ``level`` is drawn. ``tile=`` draws its tiles (a level
    with a tilemap, or a tile array), ``cell=`` its cells' outlines (a level that is not square); with neither
    (and ``default``) a tiled level draws 8 pixels a tile, a triangle or polar one 20 pixels a grid unit."""
    if tile is not None and cell is not None:
        raise ValueError(f"give tile= (pixels a tile) or cell= (pixels a grid unit), not both: {tile!r}, {cell!r}")
    kind = level.kind if isinstance(level, AnyLevel) else None
    if cell is None and (tile is not None or kind is None or isinstance(level, AnyLevel) and level.tiled):
        if tile is None and not default:
            raise TypeError("give tile= (pixels a tile) for a picture drawn by tiles")
        return "tile", check_tile_size(8 if tile is None else tile)
    graph_level(level, "cell= draws")
    if cell is None and not default:
        raise TypeError(f"give cell= (pixels a grid unit): a {kind} level has no tiles")
    cell = 20 if cell is None else cell
    if isinstance(cell, bool) or not isinstance(cell, int) or not 2 <= cell <= 256:
        raise ValueError(f"cell must be an int from 2 to 256 pixels, got {cell!r}")
    return "cell", cell


def graph_level(level: object, doing: str) -> "Level":
    """``level`` if it is on a graph grid, else a ``TypeError`` that starts with ``doing``."""
    if not isinstance(level, AnyLevel) or level.kind == "square":
        what = "a square level (draw it with tile=)" if isinstance(level, AnyLevel) else type(level).__name__
        raise TypeError(f"{doing} a level on a graph grid (kind 'hex', 'triangle', 'polar' or 'wrap': "
                        f"generate(..., grid=...) or wrap=), not {what}")
    return cast("Level", level)


def cell_pixel(level: "Level", cell_number: int, cell: int, offset: Tuple[int, int] = (0, 0)) -> Tuple[int, int]:
    """The pixel of a cell's centre on a picture drawn ``cell`` pixels a grid unit, its top-left at ``offset``."""
    x, y = grid_to_pixel(level.maze.grid.centre(cell_number), cell)
    return x + offset[0], y + offset[1]
