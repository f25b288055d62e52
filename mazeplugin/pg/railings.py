"""A weave level's bridges drawn with pygame: two railings along each bridge tile's sides.

The same picture as :mod:`mazeplugin.formats.svg`: a bridge running
north–south (``UNDER_EAST_WEST``, its tunnel east–west) has a railing along
its west and east edges, a bridge running east–west one along its north and
south edges, each 0.15 of a tile wide in the wall colour. So the railings
continue the walls either side of the bridge and the tunnel shows as the gap
in them: a player can tell walking over from walking under. Levels without
bridges are left exactly as they were drawn.

>>> import mazeplugin as mp, mazeplugin.pg as mpg
>>> level = mp.generate("backtracker", 12, 8, seed=3, weave=True)
>>> len(railing_rects(level, tile=10)) == 2 * int((level.bridges > 0).sum())
True
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np
import pygame

from ..level_protocol import AnyLevel
from ..maze import UNDER_EAST_WEST
from .grid import check_tile_size
from .palette import DEFAULT_PALETTE, Colour, check_colour

__all__ = ["MIN_RAILING_TILE", "railing_rects", "draw_bridges"]

MIN_RAILING_TILE = 3
"""The smallest tile (pixels) railings are drawn at: below it two railings would cover the whole tile."""
RAILING = 0.15
"""A railing's width as a share of the tile (as in the SVG)."""


def railing_rects(level: AnyLevel, *, tile: int, area: Optional[Tuple[int, int, int, int]] = None,
                  only: Optional[Tuple[int, int]] = None) -> List["pygame.Rect"]:
    """The railings of ``level``'s bridges as world-pixel rects, two per bridge tile (none without weave).

    ``area`` = ``(x, y, width, height)`` in tiles keeps the bridges inside it
    (rects still in whole-map pixels); ``only`` the bridge at one tile. Empty
    when ``tile`` is under :data:`MIN_RAILING_TILE`.
    """
    if not isinstance(level, AnyLevel):
        raise TypeError(f"level must be a mazeplugin level (mp.AnyLevel), not {type(level).__name__}")
    tile = check_tile_size(tile)
    if not level.weave or tile < MIN_RAILING_TILE:
        return []
    bridges = level.bridges
    if only is not None:
        x, y = int(only[0]), int(only[1])
        rows, columns = bridges.shape
        ys, xs = (np.array([y]), np.array([x])) if 0 <= x < columns and 0 <= y < rows and bridges[y, x] else ((), ())
    elif area is not None:
        x0, y0, w, h = (int(v) for v in area)
        ys, xs = np.nonzero(bridges[max(y0, 0):max(y0 + h, 0), max(x0, 0):max(x0 + w, 0)])
        ys, xs = ys + max(y0, 0), xs + max(x0, 0)
    else:
        ys, xs = np.nonzero(bridges)
    side = max(1, round(tile * RAILING))
    rects = []
    for y, x in zip(np.asarray(ys).tolist(), np.asarray(xs).tolist()):
        left, top = x * tile, y * tile
        if bridges[y, x] == UNDER_EAST_WEST:  # the bridge runs north-south: railings west and east
            rects += [pygame.Rect(left, top, side, tile), pygame.Rect(left + tile - side, top, side, tile)]
        else:
            rects += [pygame.Rect(left, top, tile, side), pygame.Rect(left, top + tile - side, tile, side)]
    return rects


def draw_bridges(surface: "pygame.Surface", level: AnyLevel, *, tile: int, offset: Tuple[int, int] = (0, 0),
                 colour: Colour = DEFAULT_PALETTE.wall, area: Optional[Tuple[int, int, int, int]] = None,
                 only: Optional[Tuple[int, int]] = None) -> None:
    """Draw the railings of :func:`railing_rects` onto ``surface``, world pixel (0, 0) at ``offset``.

    Nothing is drawn on a level without weave. A game draws a player who is
    under a bridge first, then the bridge's railings (``only=`` its tile) over it.

    >>> import mazeplugin as mp, pygame
    >>> level = mp.generate("backtracker", 12, 8, seed=3, weave=True)
    >>> surface = pygame.Surface((250, 170))
    >>> draw_bridges(surface, level, tile=10, colour=(255, 0, 0))
    >>> ys, xs = level.bridges.nonzero()
    >>> tuple(surface.get_at((int(xs[0]) * 10, int(ys[0]) * 10))[:3])
    (255, 0, 0)
    """
    colour = check_colour("railing", colour)
    ox, oy = int(offset[0]), int(offset[1])
    for rect in railing_rects(level, tile=tile, area=area, only=only):
        surface.fill(colour, rect.move(ox, oy))
