"""Hex, triangle and polar levels drawn with pygame: walls as lines, markers as discs, the solution.

The same picture as :func:`mazeplugin.formats.svg.to_grid_svg` (walls from
:meth:`~mazeplugin.Level.walls`), ``cell`` pixels per grid
unit, with a half-unit margin; :func:`grid_to_pixel` maps the grid's drawing
units to pixels so a game can put a player on :meth:`Grid.centre` of a cell.

>>> import mazeplugin as mp, mazeplugin.pg as mpg
>>> surface = mpg.render_grid(mp.generate("kruskal", 5, 4, grid="triangle", seed=2), cell=10)
>>> surface.get_size()
(40, 45)
"""

from __future__ import annotations

from typing import Collection, Tuple

import pygame

from ..formats.files import PathLike, atomic_path
from ..level import Level
from ..level_protocol import AnyLevel
from .palette import DEFAULT_PALETTE, Palette
from .things import THING_COLOURS

__all__ = ["render_grid", "save_grid_png", "grid_to_pixel", "draw_grid_things"]

MARGIN = 0.5


def grid_to_pixel(point: Tuple[float, float], cell: float) -> Tuple[int, int]:
    """The pixel of a point in a grid's drawing units."""
    return round((point[0] + MARGIN) * cell), round((point[1] + MARGIN) * cell)


def draw_grid_things(surface: "pygame.Surface", level: Level, *, cell: int, offset: Tuple[int, int] = (0, 0),
                     hidden: Collection[int] = ()) -> None:
    """Draw ``level.things`` simply, ``cell`` pixels per grid unit, the picture's top-left at ``offset``.

    A door is a bar across its passage (between the centres of
    ``props["cells"]``), a key a diamond, treasure a small disc, an enemy a
    larger disc, any other kind a square, in :data:`THING_COLOURS`. Things
    whose id is in ``hidden`` (keys picked up, doors opened, enemies a game
    draws moving) are left out.

    >>> import mazeplugin as mp, pygame
    >>> level = mp.generate("wilson", 6, 5, grid="hex", seed=7, keys=1)
    >>> surface = pygame.Surface((200, 200))
    >>> draw_grid_things(surface, level, cell=20)
    >>> key = next(t for t in level.things if t.kind == "key")
    >>> point = grid_to_pixel(level.maze.grid.centre(key.cell), 20)
    >>> tuple(surface.get_at(point)[:3]) == THING_COLOURS["key"]
    True
    """
    grid = level.maze.grid
    ox, oy = offset

    def at(c: int) -> Tuple[int, int]:
        x, y = grid_to_pixel(grid.centre(c), cell)
        return x + ox, y + oy

    size = max(2, cell * 3 // 10)
    for thing in level.things:
        if thing.id in hidden:
            continue
        colour = THING_COLOURS.get(thing.kind, THING_COLOURS["thing"])
        if thing.kind == "door":
            (ax, ay), (bx, by) = (at(c) for c in thing.props["cells"])
            mx, my, dx, dy = (ax + bx) / 2, (ay + by) / 2, bx - ax, by - ay
            length = max(1.0, (dx * dx + dy * dy) ** 0.5)
            px, py = -dy / length * cell * 0.4, dx / length * cell * 0.4  # across the passage
            pygame.draw.line(surface, colour, (round(mx - px), round(my - py)), (round(mx + px), round(my + py)),
                             max(2, cell // 4))
            continue
        x, y = at(thing.cell)
        if thing.kind == "key":
            pygame.draw.polygon(surface, colour, [(x, y - size), (x + size * 3 // 4, y), (x, y + size),
                                                  (x - size * 3 // 4, y)])
        elif thing.kind == "treasure":
            pygame.draw.circle(surface, colour, (x, y), max(1, size * 2 // 3))
        elif thing.kind == "enemy":
            pygame.draw.circle(surface, colour, (x, y), size)
        else:
            pygame.draw.rect(surface, colour, pygame.Rect(x - size // 2, y - size // 2, size, size))


def render_grid(level: Level, *, cell: int = 20, show_solution: bool = False,
                palette: Palette = DEFAULT_PALETTE, things: bool = True) -> "pygame.Surface":
    """A new surface with ``level`` drawn on it, ``cell`` pixels per grid unit, its things too
    (:func:`draw_grid_things`) unless ``things=False``."""
    if not isinstance(level, AnyLevel) or level.kind == "square":
        what = "a square level" if isinstance(level, AnyLevel) else type(level).__name__
        raise TypeError("level must be a level on a graph grid (kind 'hex', 'triangle', 'polar' or 'wrap': "
                        f"generate(..., grid=...) or wrap=), not {what}")
    if isinstance(cell, bool) or not isinstance(cell, int) or not 2 <= cell <= 256:
        raise ValueError(f"cell must be an int from 2 to 256 pixels, got {cell!r}")
    grid = level.maze.grid
    width, height = grid.extent()
    surface = pygame.Surface((round((width + 2 * MARGIN) * cell), round((height + 2 * MARGIN) * cell)))
    surface.fill(palette.floor)
    thick = max(1, cell // 6)
    for line in level.walls():
        pygame.draw.lines(surface, palette.wall, False, [grid_to_pixel(p, cell) for p in line], thick)
    if show_solution and level.entrance_cell is not None:
        way = [grid_to_pixel(grid.centre(c), cell) for c in level.solution_cells()]
        if len(way) > 1:
            pygame.draw.lines(surface, palette.solution, False, way, max(1, cell // 5))
    for where, colour in ((level.entrance_cell, palette.entrance), (level.exit_cell, palette.exit)):
        if where is not None:
            pygame.draw.circle(surface, colour, grid_to_pixel(grid.centre(where), cell), max(1, cell * 3 // 10))
    if things and level.things:
        draw_grid_things(surface, level, cell=cell)
    return surface


def save_grid_png(level: Level, path: PathLike, *, cell: int = 20, show_solution: bool = False) -> None:
    """Write :func:`render_grid`'s picture of ``level`` to ``path`` as a PNG."""
    surface = render_grid(level, cell=cell, show_solution=show_solution)
    with atomic_path(path) as temporary:
        with open(temporary, "wb") as file:
            pygame.image.save(surface, file, "png")
