"""Drawing a level with numpy: tile colours through ``pygame.surfarray``, markers and the solution path."""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np
from numpy.typing import ArrayLike, NDArray
import pygame

from ..level_protocol import AnyLevel
from ..tiles import WALL
from .palette import Colour, check_colour, Palette, DEFAULT_PALETTE
from .grid import TilesLike, check_tile_size, check_picture_size, tiles_of, tile_rect
from .railings import draw_bridges, railing_rects


def tile_colours(
    level: TilesLike,
    *,
    palette: Palette = DEFAULT_PALETTE,
    show_solution: bool = False,
    seen: Optional[ArrayLike] = None,
) -> NDArray[np.uint8]:
    """The colour of every tile: uint8 ``(rows, columns, 3)`` indexed ``[y, x]``.

    Walls and floor in the palette's colours, the entrance and exit marked
    (for a level: any with tiles, :class:`~mazeplugin.AnyLevel`), the solution path over the floor
    when ``show_solution``; with ``seen`` (bool, shaped like the tiles) every
    unseen tile is fog.

    >>> import mazeplugin as mp
    >>> level = mp.generate("kruskal", 2, 1, seed=1)
    >>> rgb = tile_colours(level)
    >>> rgb.shape, tuple(rgb[1, 0]) == DEFAULT_PALETTE.entrance
    ((3, 5, 3), True)
    """
    if not isinstance(palette, Palette):
        raise TypeError(f"palette must be a mazeplugin.pg.Palette, not {type(palette).__name__}")
    tiles = tiles_of(level)
    lut = np.array([palette.floor, palette.wall], dtype=np.uint8)
    rgb: NDArray[np.uint8] = lut[(tiles == WALL).astype(np.intp)]
    if isinstance(level, AnyLevel):
        if show_solution and level.entrance is not None and level.exit is not None:
            xs, ys = np.array(level.solution(), dtype=np.intp).T
            rgb[ys, xs] = palette.solution
        for tile, colour in ((level.entrance, palette.entrance), (level.exit, palette.exit)):
            if tile is not None:
                rgb[tile[1], tile[0]] = colour
    elif show_solution:
        raise ValueError("show_solution needs a level (with an entrance and exit), not a bare tile array")
    if seen is not None:
        seen_mask = np.asarray(seen, dtype=bool)
        if seen_mask.shape != tiles.shape:
            raise ValueError(f"seen must have the tiles' shape {tiles.shape}, got {seen_mask.shape}")
        rgb[~seen_mask] = palette.fog
    return rgb


def surface_from_rgb(rgb: NDArray[np.uint8]) -> "pygame.Surface":
    # surfarray is indexed [x, y]; our arrays are [y, x].
    return pygame.surfarray.make_surface(np.ascontiguousarray(rgb.swapaxes(0, 1)))


def render(
    level: TilesLike,
    *,
    tile: int = 8,
    palette: Palette = DEFAULT_PALETTE,
    show_solution: bool = False,
    seen: Optional[ArrayLike] = None,
) -> "pygame.Surface":
    """A new surface with the whole level drawn at ``tile`` pixels per tile.

    One pixel per tile through ``pygame.surfarray``, then a nearest-neighbour
    ``pygame.transform.scale``: a 201 × 201-tile map takes milliseconds.
    See :func:`tile_colours` for ``palette``, ``show_solution`` and ``seen``.
    The surface is ``(columns * tile, rows * tile)`` pixels. A weave level's
    bridges get railings along their sides (:func:`draw_bridges`; from
    :data:`~mazeplugin.pg.railings.MIN_RAILING_TILE` pixels a tile).

    >>> import mazeplugin as mp
    >>> render(mp.generate("prim", 5, 5, seed=3), tile=4).get_size()
    (44, 44)
    """
    tile = check_tile_size(tile)
    check_picture_size(tiles_of(level).shape, tile)
    rgb = tile_colours(level, palette=palette, show_solution=show_solution, seen=seen)
    small = surface_from_rgb(rgb)
    if tile == 1:
        return small
    h, w = rgb.shape[:2]
    scaled = pygame.transform.scale(small, (w * tile, h * tile))
    if isinstance(level, AnyLevel) and level.weave:
        if seen is None:
            draw_bridges(scaled, level, tile=tile, colour=palette.wall)
        else:  # no railings over fog
            seen_mask = np.asarray(seen, dtype=bool)
            for rect in railing_rects(level, tile=tile):
                if seen_mask[rect.y // tile, rect.x // tile]:
                    scaled.fill(palette.wall, rect)
    return scaled


def draw_level(
    surface: "pygame.Surface",
    level: TilesLike,
    *,
    tile: int = 8,
    offset: Tuple[int, int] = (0, 0),
    palette: Palette = DEFAULT_PALETTE,
    show_solution: bool = False,
    seen: Optional[ArrayLike] = None,
) -> "pygame.Rect":
    """Draw the level onto ``surface`` with its top-left tile at pixel ``offset``.

    Returns the rect drawn (clipped to the surface). For a level drawn every
    frame, :func:`render` it once and blit the cached surface instead.
    """
    drawn = render(level, tile=tile, palette=palette, show_solution=show_solution, seen=seen)
    return surface.blit(drawn, offset)


def draw_markers(
    surface: "pygame.Surface",
    level: AnyLevel,
    *,
    tile: int,
    offset: Tuple[int, int] = (0, 0),
    palette: Palette = DEFAULT_PALETTE,
    entrance: bool = True,
    exit: bool = True,
) -> None:
    """Draw the entrance and exit as sprites: a green ring (entrance) and a red square with a cross (exit).

    ``offset`` is where world pixel (0, 0) lands on ``surface`` (for a
    :class:`Camera`, ``camera.offset``). ``entrance=False`` or ``exit=False``
    leaves that marker out (say, while it is hidden by fog).
    """
    tile = check_tile_size(tile)
    if entrance and level.entrance is not None:
        rect = tile_rect(level.entrance, tile).move(offset)
        pygame.draw.circle(surface, palette.entrance, rect.center, max(2, tile * 2 // 5), max(1, tile // 8))
    if exit and level.exit is not None:
        rect = tile_rect(level.exit, tile).move(offset).inflate(-max(2, tile // 4), -max(2, tile // 4))
        pygame.draw.rect(surface, palette.exit, rect)
        inner = rect.inflate(-max(2, tile // 4), -max(2, tile // 4))
        width = max(1, tile // 10)
        pygame.draw.line(surface, palette.floor, inner.topleft, inner.bottomright, width)
        pygame.draw.line(surface, palette.floor, inner.topright, inner.bottomleft, width)


def draw_solution(
    surface: "pygame.Surface",
    level: AnyLevel,
    *,
    tile: int,
    offset: Tuple[int, int] = (0, 0),
    colour: Colour = DEFAULT_PALETTE.solution,
    width: Optional[int] = None,
) -> None:
    """Draw the solution path as an overlay: a line through the centres of its tiles.

    ``width`` defaults to a quarter of a tile.
    """
    tile = check_tile_size(tile)
    colour = check_colour("solution", colour)
    path = level.solution()
    ox, oy = offset
    points = [(x * tile + tile // 2 + ox, y * tile + tile // 2 + oy) for x, y in path]
    if len(points) >= 2:
        pygame.draw.lines(surface, colour, False, points, width or max(1, tile // 4))
