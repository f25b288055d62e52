"""Hex, triangle and polar levels drawn with pygame: walls as lines, markers as discs, the solution.

The same picture as :mod:`mazeplugin.formats.grid_svg` (walls from
:meth:`~mazeplugin.grid_level.GridLevel.walls`), ``cell`` pixels per grid
unit, with a half-unit margin; :func:`grid_to_pixel` maps the grid's drawing
units to pixels so a game can put a player on :meth:`Grid.centre` of a cell.

>>> import mazeplugin as mp, mazeplugin.pg as mpg
>>> surface = mpg.render_grid(mp.generate("kruskal", 5, 4, grid="triangle", seed=2), cell=10)
>>> surface.get_size()
(40, 45)
"""

from __future__ import annotations

from typing import Tuple

import pygame

from ..formats.files import PathLike, atomic_path
from ..grid_level import GridLevel
from .palette import DEFAULT_PALETTE, Palette

__all__ = ["render_grid", "save_grid_png", "grid_to_pixel"]

MARGIN = 0.5


def grid_to_pixel(point: Tuple[float, float], cell: float) -> Tuple[int, int]:
    """The pixel of a point in a grid's drawing units."""
    return round((point[0] + MARGIN) * cell), round((point[1] + MARGIN) * cell)


def render_grid(level: GridLevel, *, cell: int = 20, show_solution: bool = False,
                palette: Palette = DEFAULT_PALETTE) -> "pygame.Surface":
    """A new surface with ``level`` drawn on it, ``cell`` pixels per grid unit."""
    if not isinstance(level, GridLevel):
        raise TypeError(f"level must be a GridLevel (generate(..., grid='hex'|'triangle'|'polar')), "
                        f"not {type(level).__name__}")
    if isinstance(cell, bool) or not isinstance(cell, int) or not 2 <= cell <= 256:
        raise ValueError(f"cell must be an int from 2 to 256 pixels, got {cell!r}")
    grid = level.maze.grid
    width, height = grid.extent()
    surface = pygame.Surface((round((width + 2 * MARGIN) * cell), round((height + 2 * MARGIN) * cell)))
    surface.fill(palette.floor)
    thick = max(1, cell // 6)
    for line in level.walls():
        pygame.draw.lines(surface, palette.wall, False, [grid_to_pixel(p, cell) for p in line], thick)
    if show_solution and level.entrance is not None:
        way = [grid_to_pixel(grid.centre(c), cell) for c in level.solution()]
        if len(way) > 1:
            pygame.draw.lines(surface, palette.solution, False, way, max(1, cell // 5))
    for where, colour in ((level.entrance, palette.entrance), (level.exit, palette.exit)):
        if where is not None:
            pygame.draw.circle(surface, colour, grid_to_pixel(grid.centre(where), cell), max(1, cell * 3 // 10))
    return surface


def save_grid_png(level: GridLevel, path: PathLike, *, cell: int = 20, show_solution: bool = False) -> None:
    """Write :func:`render_grid`'s picture of ``level`` to ``path`` as a PNG."""
    surface = render_grid(level, cell=cell, show_solution=show_solution)
    with atomic_path(path) as temporary:
        with open(temporary, "wb") as file:
            pygame.image.save(surface, file, "png")
