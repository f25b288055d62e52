"""pygame helpers: draw a level, collide with its walls, follow the player with a camera.

The one package of mazeplugin that imports pygame (``pygame`` and ``pygame-ce``
both work: they share the import name). Everything else in the package needs
numpy only.

Every drawing function takes any level (:class:`~mazeplugin.Level`) and draws it by its tiles
(``tile=`` pixels a tile: square, weave, wrapping and hex levels) or by its cells' outlines (``cell=``
pixels a grid unit: hex, triangle, polar and wrapping levels); :func:`render`, :func:`save_png`,
:func:`draw_things`, :func:`draw_markers` and :func:`draw_solution` alike. Drawing by tiles is
vectorised: a level becomes one RGB array of tile colours that ``pygame.surfarray`` turns into a
surface one pixel per tile, which a nearest-neighbour scale blows up to the tile size; tile images are
stitched together with one numpy gather of their pixel values. No blit per tile.

>>> import mazeplugin as mp, mazeplugin.pg as mpg
>>> level = mp.generate("kruskal", 4, 3, seed=7)
>>> surface = mpg.render(level, tile=8)
>>> surface.get_size()
(72, 56)
>>> tuple(surface.get_at(mpg.tile_to_pixel((1, 1), 8))[:3]) == mpg.DEFAULT_PALETTE.floor
True

The modules: ``render`` (a level by tiles or by cells, markers, the solution), ``sprites``
(tile images and autotiling), ``collide`` (``move_rect``, ``can_move``),
``camera``, ``grid`` (tile, cell and pixel coordinates), ``palette``, ``files``
(PNGs and picture masks), ``things`` (level content), ``railings`` (a weave level's
bridges), ``grid_player`` (a player stepping cell to cell on a hex, triangle, polar or
wrapping level) and ``world`` (endless worlds: :class:`WorldView`,
:class:`EndlessCamera`); every public name
is here, in ``mazeplugin.pg``.

Coordinates: tiles are ``(x, y)``; tile ``(x, y)`` covers the pixels
``x*tile .. x*tile + tile - 1`` across and likewise down (in world pixels,
before a :class:`Camera` shifts them onto the screen).
"""

from __future__ import annotations

try:
    import pygame  # noqa: F401
except ImportError as _missing:  # pragma: no cover - exercised in a venv without pygame
    raise ImportError(
        "mazeplugin.pg needs pygame: pip install \"mazeplugin[pygame]\" "
        "(or pip install pygame-ce, or pip install pygame; either one works)"
    ) from _missing

from .camera import Camera
from .collide import Motion, RectLike, can_move, move_rect
from .files import PathLike, mask_from_image, save_png, save_rgb_png
from .grid_player import COMPASS, draw_grid_player, glide, grid_exits, grid_key_steps, grid_step
from .grid import DIRECTIONS, TilesLike, grid_to_pixel, pixel_to_tile, tile_rect, tile_to_pixel
from .palette import DEFAULT_PALETTE, Colour, Palette
from .railings import MIN_RAILING_TILE, draw_bridges, railing_rects
from .render import draw_level, draw_markers, draw_solution, render, tile_colours
from .sprites import autotile, render_images, simple_wall_set
from .things import (DROP_COLOUR, THING_COLOURS, draw_things, drop_sprite, may_enter, passable_tiles, patrol_position,
                     thing_sprite, things_at)
from .world import EndlessCamera, WorldView

__all__ = [
    "MIN_RAILING_TILE",
    "draw_bridges",
    "railing_rects",
    "grid_to_pixel",
    "COMPASS",
    "grid_exits",
    "grid_step",
    "grid_key_steps",
    "glide",
    "draw_grid_player",
    "Colour",
    "Palette",
    "DEFAULT_PALETTE",
    "DIRECTIONS",
    "Camera",
    "tile_colours",
    "render",
    "draw_level",
    "render_images",
    "simple_wall_set",
    "autotile",
    "draw_markers",
    "draw_solution",
    "move_rect",
    "can_move",
    "tile_to_pixel",
    "pixel_to_tile",
    "tile_rect",
    "save_png",
    "save_rgb_png",
    "mask_from_image",
    "THING_COLOURS",
    "thing_sprite",
    "drop_sprite",
    "DROP_COLOUR",
    "draw_things",
    "passable_tiles",
    "may_enter",
    "things_at",
    "patrol_position",
    "EndlessCamera",
    "WorldView",
]
