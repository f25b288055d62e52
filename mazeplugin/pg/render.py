"""Drawing any level: its tiles with numpy (tile colours through ``pygame.surfarray``), or its cells' outlines
(hex, triangle, polar and wrapping levels: walls as lines), and over either its markers and solution path.

>>> import mazeplugin as mp
>>> render(mp.generate("kruskal", 5, 4, grid="triangle", seed=2), cell=10).get_size()
(40, 45)
"""

from __future__ import annotations

from typing import Optional, Tuple, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
import pygame

from ..level import Level
from ..level_protocol import AnyLevel
from ..tiles import WALL
from .palette import Colour, check_colour, Palette, DEFAULT_PALETTE
from .grid import MARGIN, TilesLike, cell_pixel, check_picture_size, grid_to_pixel, picture, tiles_of, tile_rect
from .railings import draw_bridges, railing_rects
from .things import draw_things


def tile_colours(level: TilesLike, *, palette: Palette = DEFAULT_PALETTE, show_solution: bool = False,
                 seen: Optional[ArrayLike] = None) -> NDArray[np.uint8]:
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


def render(level: TilesLike, *, tile: Optional[int] = None, cell: Optional[int] = None,
           palette: Palette = DEFAULT_PALETTE, show_solution: bool = False, seen: Optional[ArrayLike] = None,
           things: bool = False) -> "pygame.Surface":
    """A new surface with the whole level drawn: by its tiles, ``tile`` pixels a tile, or by its cells'
    outlines, ``cell`` pixels a grid unit (a level that is not square); with neither, a level with tiles
    draws its tiles at 8 pixels, a triangle or polar level its cells at 20.

    By tiles: one pixel per tile through ``pygame.surfarray``, then a nearest-neighbour
    ``pygame.transform.scale`` (a 201 × 201-tile map takes milliseconds), ``(columns * tile, rows * tile)``
    pixels; see :func:`tile_colours` for ``palette``, ``show_solution`` and ``seen``. A weave level's
    bridges get railings along their sides (:func:`draw_bridges`; from
    :data:`~mazeplugin.pg.railings.MIN_RAILING_TILE` pixels a tile).
    By cells: the walls of :meth:`~mazeplugin.Level.walls` as lines, the entrance and exit as discs, the
    solution as a line (:func:`draw_markers`, :func:`draw_solution`), with a half-unit margin
    (:func:`grid_to_pixel` maps grid units to its pixels); the same picture as the SVG's.
    ``things=True`` draws the level's things too (:func:`draw_things`).

    >>> import mazeplugin as mp
    >>> render(mp.generate("prim", 5, 5, seed=3), tile=4).get_size()
    (44, 44)
    >>> render(mp.generate("prim", 5, 4, grid="hex", seed=3), cell=10).get_size()
    (105, 75)
    """
    unit, size = picture(level, tile, cell)
    if unit == "tile":
        drawn = _tiles(level, size, palette, show_solution, seen)
    elif seen is not None:
        raise ValueError("seen= fogs tiles: draw the level with tile= (a picture by cells has no tiles)")
    else:
        drawn = _cells(cast(Level, level), size, palette, show_solution)
    if things and isinstance(level, AnyLevel) and level.things:
        draw_things(drawn, level, tile=size if unit == "tile" else None, cell=size if unit == "cell" else None)
    return drawn


def _tiles(level: TilesLike, tile: int, palette: Palette, show_solution: bool,
           seen: Optional[ArrayLike]) -> "pygame.Surface":
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


def _cells(level: Level, cell: int, palette: Palette, show_solution: bool) -> "pygame.Surface":
    width, height = level.maze.grid.extent()
    surface = pygame.Surface((round((width + 2 * MARGIN) * cell), round((height + 2 * MARGIN) * cell)))
    surface.fill(palette.floor)
    for line in level.walls():
        pygame.draw.lines(surface, palette.wall, False, [grid_to_pixel(p, cell) for p in line], max(1, cell // 6))
    if show_solution and level.entrance_cell is not None:
        draw_solution(surface, level, cell=cell, colour=palette.solution)
    draw_markers(surface, level, cell=cell, palette=palette)
    return surface


def draw_level(surface: "pygame.Surface", level: TilesLike, *, tile: Optional[int] = None,
               cell: Optional[int] = None, offset: Tuple[int, int] = (0, 0), palette: Palette = DEFAULT_PALETTE,
               show_solution: bool = False, seen: Optional[ArrayLike] = None) -> "pygame.Rect":
    """Draw the level (:func:`render`'s picture) onto ``surface`` with its top-left at pixel ``offset``.

    Returns the rect drawn (clipped to the surface). For a level drawn every
    frame, :func:`render` it once and blit the cached surface instead.
    """
    drawn = render(level, tile=tile, cell=cell, palette=palette, show_solution=show_solution, seen=seen)
    return surface.blit(drawn, offset)


def draw_markers(surface: "pygame.Surface", level: AnyLevel, *, tile: Optional[int] = None,
                 cell: Optional[int] = None, offset: Tuple[int, int] = (0, 0), palette: Palette = DEFAULT_PALETTE,
                 entrance: bool = True, exit: bool = True) -> None:
    """Draw the entrance and exit: on a picture by tiles (``tile=``) as sprites, a green ring (entrance) and a
    red square with a cross (exit); on a picture by cells (``cell=``) as discs at their cells' centres.

    ``offset`` is where world pixel (0, 0) lands on ``surface`` (for a
    :class:`Camera`, ``camera.offset``). ``entrance=False`` or ``exit=False``
    leaves that marker out (say, while it is hidden by fog).
    """
    unit, size = picture(level, tile, cell, default=False)
    if unit == "cell":
        for show, where, colour in ((entrance, level.entrance_cell, palette.entrance),
                                    (exit, level.exit_cell, palette.exit)):
            if show and where is not None:
                pygame.draw.circle(surface, colour, cell_pixel(cast(Level, level), where, size, offset),
                                   max(1, size * 3 // 10))
        return
    if entrance and level.entrance is not None:
        rect = tile_rect(level.entrance, size).move(offset)
        pygame.draw.circle(surface, palette.entrance, rect.center, max(2, size * 2 // 5), max(1, size // 8))
    if exit and level.exit is not None:
        rect = tile_rect(level.exit, size).move(offset).inflate(-max(2, size // 4), -max(2, size // 4))
        pygame.draw.rect(surface, palette.exit, rect)
        inner = rect.inflate(-max(2, size // 4), -max(2, size // 4))
        width = max(1, size // 10)
        pygame.draw.line(surface, palette.floor, inner.topleft, inner.bottomright, width)
        pygame.draw.line(surface, palette.floor, inner.topright, inner.bottomleft, width)


def draw_solution(surface: "pygame.Surface", level: AnyLevel, *, tile: Optional[int] = None,
                  cell: Optional[int] = None, offset: Tuple[int, int] = (0, 0),
                  colour: Colour = DEFAULT_PALETTE.solution, width: Optional[int] = None) -> None:
    """Draw the solution path as an overlay: a line through the centres of its tiles (``tile=``) or its cells
    (``cell=``).

    ``width`` defaults to a quarter of a tile, a fifth of a grid unit.
    """
    unit, size = picture(level, tile, cell, default=False)
    colour = check_colour("solution", colour)
    ox, oy = offset
    if unit == "cell":
        points = [cell_pixel(cast(Level, level), c, size, offset) for c in level.solution_cells()]
    else:
        points = [(x * size + size // 2 + ox, y * size + size // 2 + oy) for x, y in level.solution()]
    if len(points) >= 2:
        pygame.draw.lines(surface, colour, False, points, width or max(1, size // (5 if unit == "cell" else 4)))
