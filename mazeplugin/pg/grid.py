"""Tiles and pixels: coordinates, checks shared by the other modules, and direction names."""

from __future__ import annotations

from typing import Tuple, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray
import pygame

from ..level_protocol import AnyLevel
from ..limits import MAX_TILE_PIXELS, check_picture


TilesLike = Union[AnyLevel, ArrayLike]


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
