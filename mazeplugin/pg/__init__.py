"""pygame helpers: draw a level, collide with its walls, follow the player with a camera.

The one package of mazeplugin that imports pygame (``pygame`` and ``pygame-ce``
both work: they share the import name). Everything else in the package needs
numpy only.

Drawing is vectorised: a level becomes one RGB array of tile colours that
``pygame.surfarray`` turns into a surface one pixel per tile, which a
nearest-neighbour scale blows up to the tile size; tile images are stitched
together with one numpy gather of their pixel values. No blit per tile.

>>> import mazeplugin as mp, mazeplugin.pg as mpg
>>> level = mp.generate("kruskal", 4, 3, seed=7)
>>> surface = mpg.render(level, tile=8)
>>> surface.get_size()
(72, 56)
>>> tuple(surface.get_at(mpg.tile_to_pixel((1, 1), 8))[:3]) == mpg.DEFAULT_PALETTE.floor
True

Coordinates: tiles are ``(x, y)``; tile ``(x, y)`` covers the pixels
``x*tile .. x*tile + tile - 1`` across and likewise down (in world pixels,
before a :class:`Camera` shifts them onto the screen).
"""

from __future__ import annotations

import io
import math
import os
from dataclasses import dataclass
from typing import Any, List, Optional, Sequence, Tuple, Union, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

try:
    import pygame
except ImportError as error:  # pragma: no cover - exercised in a venv without pygame
    raise ImportError(
        "mazeplugin.pg needs pygame: pip install \"mazeplugin[pygame]\" "
        "(or pip install pygame-ce, or pip install pygame; either one works)"
    ) from error

from ..level import Level
from ..limits import MAX_CELLS, MAX_IMAGE_FILE_BYTES, MAX_PICTURE_PIXELS, MAX_TILE_PIXELS
from .things import THING_COLOURS, draw_things, may_enter, passable_tiles, thing_sprite, things_at
from ..tiles import EAST_BIT, FLOOR, NORTH_BIT, SOUTH_BIT, WALL, WEST_BIT, wall_neighbours

__all__ = [
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
    "draw_things",
    "passable_tiles",
    "may_enter",
    "things_at",
    "EndlessCamera",
    "WorldView",
]

Colour = Tuple[int, int, int]
PathLike = Union[str, "os.PathLike[str]"]
TilesLike = Union[Level, ArrayLike]


# -- checks -------------------------------------------------------------------


def _check_colour(name: str, colour: object) -> Colour:
    try:
        values = tuple(int(v) for v in colour)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise TypeError(f"{name} colour must be an (r, g, b) tuple of ints, got {colour!r}") from None
    if len(values) != 3 or not all(0 <= v <= 255 for v in values):
        raise ValueError(f"{name} colour must be three ints in 0..255, got {colour!r}")
    return values  # type: ignore[return-value]


@dataclass(frozen=True)
class Palette:
    """The colours a level is drawn in: ``(r, g, b)`` tuples of 0..255.

    ``fog`` is drawn over tiles the player has not seen (see ``seen=`` in
    :func:`render`). Make your own with ``dataclasses.replace(DEFAULT_PALETTE, wall=...)``.
    """

    wall: Colour = (46, 52, 64)
    floor: Colour = (236, 229, 214)
    entrance: Colour = (76, 175, 80)
    exit: Colour = (229, 57, 53)
    solution: Colour = (255, 193, 7)
    fog: Colour = (18, 20, 26)

    def __post_init__(self) -> None:
        for name in ("wall", "floor", "entrance", "exit", "solution", "fog"):
            _check_colour(name, getattr(self, name))


DEFAULT_PALETTE = Palette()
"""Dark slate walls on a warm paper floor; green entrance, red exit, amber solution."""

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


def _check_tile_size(tile: object) -> int:
    if isinstance(tile, bool) or not isinstance(tile, (int, np.integer)):
        raise TypeError(f"tile must be an int (pixels per tile), not {type(tile).__name__}")
    if not 1 <= tile <= MAX_TILE_PIXELS:
        raise ValueError(f"tile must be from 1 to {MAX_TILE_PIXELS:,} pixels, got {tile}")
    return int(tile)


def _check_picture_size(shape: Tuple[int, ...], tile: int) -> None:
    """Refuse a picture over ``MAX_PICTURE_PIXELS`` before allocating it, naming ``tile``."""
    rows, columns = shape[0], shape[1]
    pixels = rows * tile * columns * tile
    if pixels > MAX_PICTURE_PIXELS:
        raise ValueError(
            f"tile={tile} makes a picture of {columns * tile:,} × {rows * tile:,} = {pixels:,} pixels; "
            f"at most {MAX_PICTURE_PIXELS:,} are allowed: lower tile (at most "
            f"{max(1, int((MAX_PICTURE_PIXELS / (rows * columns)) ** 0.5))} for this level)"
        )


def _tiles_of(level: object) -> NDArray[np.uint8]:
    """The tilemap of a Level or of a 2-D array of 0/1 tiles."""
    if isinstance(level, Level):
        return level.tiles
    tiles = np.asarray(level)
    if tiles.ndim != 2 or tiles.size == 0:
        raise ValueError(f"level must be a Level or a non-empty 2-D tile array, got shape {tiles.shape}")
    if not np.issubdtype(tiles.dtype, np.integer) and tiles.dtype != np.bool_:
        raise TypeError(f"level tiles must be integers (0 floor, 1 wall), not {tiles.dtype}")
    return tiles.astype(np.uint8, copy=False)


# -- drawing ------------------------------------------------------------------


def tile_colours(
    level: TilesLike,
    *,
    palette: Palette = DEFAULT_PALETTE,
    show_solution: bool = False,
    seen: Optional[ArrayLike] = None,
) -> NDArray[np.uint8]:
    """The colour of every tile: uint8 ``(rows, columns, 3)`` indexed ``[y, x]``.

    Walls and floor in the palette's colours, the entrance and exit marked
    (for a :class:`~mazeplugin.level.Level`), the solution path over the floor
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
    tiles = _tiles_of(level)
    lut = np.array([palette.floor, palette.wall], dtype=np.uint8)
    rgb = lut[(tiles == WALL).astype(np.intp)]
    if isinstance(level, Level):
        if show_solution and level.entrance is not None and level.exit is not None:
            xs, ys = np.array(level.solution(), dtype=np.intp).T
            rgb[ys, xs] = palette.solution
        for tile, colour in ((level.entrance, palette.entrance), (level.exit, palette.exit)):
            if tile is not None:
                rgb[tile[1], tile[0]] = colour
    elif show_solution:
        raise ValueError("show_solution needs a Level (with an entrance and exit), not a bare tile array")
    if seen is not None:
        seen_mask = np.asarray(seen, dtype=bool)
        if seen_mask.shape != tiles.shape:
            raise ValueError(f"seen must have the tiles' shape {tiles.shape}, got {seen_mask.shape}")
        rgb[~seen_mask] = palette.fog
    return rgb


def _surface_from_rgb(rgb: NDArray[np.uint8]) -> "pygame.Surface":
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
    The surface is ``(columns * tile, rows * tile)`` pixels.

    >>> import mazeplugin as mp
    >>> render(mp.generate("prim", 5, 5, seed=3), tile=4).get_size()
    (44, 44)
    """
    tile = _check_tile_size(tile)
    _check_picture_size(_tiles_of(level).shape, tile)
    rgb = tile_colours(level, palette=palette, show_solution=show_solution, seen=seen)
    small = _surface_from_rgb(rgb)
    if tile == 1:
        return small
    h, w = rgb.shape[:2]
    return pygame.transform.scale(small, (w * tile, h * tile))


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


def _image_array(image: "pygame.Surface", name: str) -> NDArray[np.uint8]:
    """A tile image's pixels as uint8 ``(width, height, 3)``, indexed ``[x, y]`` like surfarray."""
    if not isinstance(image, pygame.Surface):
        raise TypeError(f"{name} must be a pygame.Surface, not {type(image).__name__}")
    return pygame.surfarray.array3d(image)


def _check_area(area: object, shape: Tuple[int, int]) -> Tuple[int, int, int, int]:
    """``area`` as ``(x0, y0, x1, y1)`` tile bounds inside a map of ``shape`` (None: the whole map)."""
    rows, columns = shape
    if area is None:
        return (0, 0, columns, rows)
    try:
        x, y, w, h = (int(v) for v in area)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise TypeError(f"area must be an (x, y, width, height) tile rect, got {area!r}") from None
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, columns), min(y + h, rows)
    if x1 <= x0 or y1 <= y0:
        raise ValueError(f"area {area!r} does not overlap the {columns}x{rows}-tile map")
    return (x0, y0, x1, y1)


def render_images(
    level: TilesLike,
    *,
    floor: "pygame.Surface",
    wall: Optional["pygame.Surface"] = None,
    wall_set: Optional[Sequence["pygame.Surface"]] = None,
    area: Optional[Tuple[int, int, int, int]] = None,
    seen: Optional[ArrayLike] = None,
    fog: Colour = DEFAULT_PALETTE.fog,
) -> "pygame.Surface":
    """The level drawn with tile images: a ``floor`` image and a ``wall`` image or a 16-image ``wall_set``.

    ``wall_set[mask]`` is drawn on a wall tile whose wall neighbours form
    ``mask`` (see :func:`autotile`: north = 1, east = 2, south = 4, west = 8),
    so walls join up. All images must be the same size, which is the tile
    size. The images are gathered into one pixel array with numpy (no blit
    per tile); per-pixel alpha is dropped.

    ``area`` = ``(x, y, width, height)`` in tiles draws only that part (clipped
    to the map; autotiling still sees the neighbours outside it), for levels
    too big to keep as one picture. With ``seen`` (bool, the whole map's
    shape) unseen tiles are filled with the ``fog`` colour.

    >>> import mazeplugin as mp, pygame
    >>> floor, wall = pygame.Surface((4, 4)), pygame.Surface((4, 4))
    >>> _ = wall.fill((200, 0, 0))
    >>> level = mp.generate("kruskal", 2, 2, seed=1)
    >>> out = render_images(level, floor=floor, wall=wall)
    >>> out.get_size(), tuple(out.get_at((0, 0))[:3]), tuple(out.get_at((4, 4))[:3])
    ((20, 20), (200, 0, 0), (0, 0, 0))
    >>> render_images(level, floor=floor, wall_set=simple_wall_set(4), area=(1, 1, 2, 3)).get_size()
    (8, 12)
    """
    tiles = _tiles_of(level)
    x0, y0, x1, y1 = _check_area(area, tiles.shape)
    part = tiles[y0:y1, x0:x1]
    if (wall is None) == (wall_set is None):
        raise ValueError("give exactly one of wall= (one image) or wall_set= (16 images)")
    if wall_set is not None:
        images = list(wall_set)
        if len(images) != 16:
            raise ValueError(f"wall_set must have 16 images (one per neighbour mask 0..15), got {len(images)}")
        stack = [_image_array(floor, "floor")] + [
            _image_array(image, f"wall_set[{i}]") for i, image in enumerate(images)
        ]
        # A one-tile margin lets the masks on the area's edge see their neighbours;
        # off the map counts as floor either way.
        my0, mx0 = max(y0 - 1, 0), max(x0 - 1, 0)
        masks = wall_neighbours(tiles[my0 : y1 + 1, mx0 : x1 + 1])
        masks = masks[y0 - my0 : y0 - my0 + part.shape[0], x0 - mx0 : x0 - mx0 + part.shape[1]]
        index = np.where(part == WALL, masks.astype(np.intp) + 1, 0)
    else:
        stack = [_image_array(floor, "floor"), _image_array(wall, "wall")]
        index = (part == WALL).astype(np.intp)
    size = stack[0].shape
    for i, image in enumerate(stack):
        if image.shape != size:
            raise ValueError(
                f"tile images must all be the same size; floor is {size[0]}x{size[1]}, "
                f"image {i} is {image.shape[0]}x{image.shape[1]}"
            )
    if seen is not None:
        seen_mask = np.asarray(seen, dtype=bool)
        if seen_mask.shape != tiles.shape:
            raise ValueError(f"seen must have the tiles' shape {tiles.shape}, got {seen_mask.shape}")
        stack.append(np.broadcast_to(np.array(_check_colour("fog", fog), dtype=np.uint8), size))
        index[~seen_mask[y0:y1, x0:x1]] = len(stack) - 1
    tw, th = size[:2]
    rows, columns = part.shape
    out = pygame.Surface((columns * tw, rows * th), 0, 32)
    # The images as the output surface's own pixel values (one int per pixel,
    # whatever its channel order), gathered straight into surfarray's [x, y]
    # order: (columns, rows, tw, th) -> (columns*tw, rows*th). One gather, one
    # copy, no blit per tile.
    images = np.stack(stack)
    mapped = pygame.surfarray.map_array(out, images.reshape(-1, th, 3)).reshape(len(stack), tw, th)
    pygame.surfarray.blit_array(out, mapped[index.T].swapaxes(1, 2).reshape(columns * tw, rows * th))
    return out


def simple_wall_set(tile: int, palette: Palette = DEFAULT_PALETTE) -> List["pygame.Surface"]:
    """16 plain wall sprites, one per neighbour mask, for trying out autotiling.

    Each is the wall colour with a dark edge on every side that faces floor
    (no wall neighbour there) and a light rim along its top, so joined walls
    read as one solid block. ``wall_set[mask]`` suits :func:`render_images`.

    >>> sprites = simple_wall_set(8)
    >>> len(sprites), sprites[0].get_size()
    (16, (8, 8))
    """
    tile = _check_tile_size(tile)
    wall = np.array(palette.wall, dtype=np.int16)
    dark = tuple(int(v) for v in np.clip(wall * 0.55, 0, 255))
    light = tuple(int(v) for v in np.clip(wall + (255 - wall) * 0.22, 0, 255))
    edge = max(1, tile // 8)
    sprites = []
    for mask in range(16):
        sprite = pygame.Surface((tile, tile))
        sprite.fill(palette.wall)
        if not mask & NORTH_BIT:
            sprite.fill(light, (0, 0, tile, edge))
        if not mask & SOUTH_BIT:
            sprite.fill(dark, (0, tile - edge, tile, edge))
        if not mask & WEST_BIT:
            sprite.fill(dark, (0, 0, edge, tile))
        if not mask & EAST_BIT:
            sprite.fill(dark, (tile - edge, 0, edge, tile))
        sprites.append(sprite)
    return sprites


def autotile(level: TilesLike) -> NDArray[np.uint8]:
    """For each wall tile, the 4-bit mask of its wall neighbours (north = 1, east = 2, south = 4, west = 8).

    0 on floor tiles; off the map counts as floor. This is
    :func:`mazeplugin.tiles.wall_neighbours`; index a 16-image wall set with it.

    >>> import mazeplugin as mp
    >>> print(mp.generate("kruskal", 1, 1, seed=0))
    ###
    S E
    ###
    >>> autotile(mp.generate("kruskal", 1, 1, seed=0)).tolist()
    [[2, 10, 8], [0, 0, 0], [2, 10, 8]]
    """
    return wall_neighbours(_tiles_of(level))


def draw_markers(
    surface: "pygame.Surface",
    level: Level,
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
    tile = _check_tile_size(tile)
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
    level: Level,
    *,
    tile: int,
    offset: Tuple[int, int] = (0, 0),
    colour: Colour = DEFAULT_PALETTE.solution,
    width: Optional[int] = None,
) -> None:
    """Draw the solution path as an overlay: a line through the centres of its tiles.

    ``width`` defaults to a quarter of a tile.
    """
    tile = _check_tile_size(tile)
    colour = _check_colour("solution", colour)
    path = level.solution()
    ox, oy = offset
    points = [(x * tile + tile // 2 + ox, y * tile + tile // 2 + oy) for x, y in path]
    if len(points) >= 2:
        pygame.draw.lines(surface, colour, False, points, width or max(1, tile // 4))


# -- coordinates ----------------------------------------------------------------


def tile_to_pixel(tile_xy: Tuple[int, int], tile: int, *, centre: bool = True) -> Tuple[int, int]:
    """The world pixel of tile ``(x, y)``: its centre, or its top-left with ``centre=False``.

    >>> tile_to_pixel((2, 3), 16), tile_to_pixel((2, 3), 16, centre=False)
    ((40, 56), (32, 48))
    """
    tile = _check_tile_size(tile)
    x, y = tile_xy
    half = tile // 2 if centre else 0
    return (int(x) * tile + half, int(y) * tile + half)


def pixel_to_tile(pixel: Tuple[float, float], tile: int) -> Tuple[int, int]:
    """The tile ``(x, y)`` holding world pixel ``pixel`` (floor division, so negative pixels give negative tiles).

    >>> pixel_to_tile((40, 56), 16), pixel_to_tile((-1, 0), 16)
    ((2, 3), (-1, 0))
    """
    tile = _check_tile_size(tile)
    return (int(pixel[0] // tile), int(pixel[1] // tile))


def tile_rect(tile_xy: Tuple[int, int], tile: int) -> "pygame.Rect":
    """The world-pixel rect a tile covers.

    >>> tuple(tile_rect((2, 3), 16))
    (32, 48, 16, 16)
    """
    x, y = tile_to_pixel(tile_xy, tile, centre=False)
    return pygame.Rect(x, y, tile, tile)


# -- collision -----------------------------------------------------------------


RectLike = Union["pygame.Rect", Tuple[int, int, int, int], Sequence[int]]
Motion = Union[float, "pygame.math.Vector2", Tuple[float, float], Sequence[float]]

_FRect = getattr(pygame, "FRect", None)  # pygame-ce only: a rect of floats


def _check_pixels(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number of pixels (int or float), not {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number of pixels, got {value}")
    return float(value)


def _motion(dx: object, dy: object) -> Tuple[float, float]:
    """``(dx, dy)`` from two numbers, or from one Vector2 / pair as ``dx`` (``dy`` None)."""
    if dy is None:
        if isinstance(dx, (str, bytes)):
            raise TypeError(f"motion must be two numbers or a (dx, dy) pair / Vector2, not {dx!r}")
        try:
            mx, my = dx  # type: ignore[misc]
        except (TypeError, ValueError):
            raise TypeError(
                f"motion must be dx, dy numbers or one (dx, dy) pair / pygame.Vector2, got {dx!r}"
            ) from None
        return (_check_pixels("dx", mx), _check_pixels("dy", my))
    return (_check_pixels("dx", dx), _check_pixels("dy", dy))


def _first_blocked(tiles: NDArray[np.uint8], lanes: range, steps: range, *, horizontal: bool) -> Optional[int]:
    """The first tile column (``horizontal``) or row in ``steps`` that is solid across ``lanes``.

    Off the map is solid.
    """
    h, w = tiles.shape
    limit_lanes, limit_steps = (h, w) if horizontal else (w, h)
    if lanes.start < 0 or lanes.stop > limit_lanes:
        return steps.start if len(steps) else None
    for step in steps:
        if not 0 <= step < limit_steps:
            return step
        line = tiles[lanes.start:lanes.stop, step] if horizontal else tiles[step, lanes.start:lanes.stop]
        if (line != FLOOR).any():
            return step
    return None


def _span(low: float, size: float, tile: int) -> range:
    """The tiles a segment ``[low, low + size)`` of pixels overlaps (at least one)."""
    first = math.floor(low / tile)
    return range(first, max(math.ceil((low + size) / tile), first + 1))


def _slide(tiles: NDArray[np.uint8], low: float, size: float, d: float, lanes: range, tile: int, *, horizontal: bool) -> float:
    """The new ``low`` after moving the segment ``[low, low + size)`` by ``d``, stopping flush at the first wall.

    Sweeps every tile line between the segment's leading edge and where it
    would end, so no speed passes through a wall.
    """
    span = _span(low, size, tile)
    if d > 0:
        ahead = range(span.stop, math.ceil((low + size + d) / tile))
        hit = _first_blocked(tiles, lanes, ahead, horizontal=horizontal)
        return low + d if hit is None else min(low + d, max(low, hit * tile - size))
    ahead = range(span.start - 1, math.floor((low + d) / tile) - 1, -1)
    hit = _first_blocked(tiles, lanes, ahead, horizontal=horizontal)
    return low + d if hit is None else max(low + d, min(low, float((hit + 1) * tile)))


def _float32(low: float, size: float, tile: int) -> float:
    """``low`` as an FRect stores it (float32), nudged so the segment covers no tile its exact value did not."""
    want = _span(low, size, tile)
    stored = np.float32(low)
    for _ in range(4):  # float32 steps are far finer than a tile: one nudge is always enough
        got = _span(float(stored), size, tile)
        if got.stop > want.stop:
            stored = np.nextafter(stored, np.float32(-np.inf))
        elif got.start < want.start:
            stored = np.nextafter(stored, np.float32(np.inf))
        else:
            break
    return float(stored)


@overload
def move_rect(level: TilesLike, rect: "pygame.FRect", dx: Motion, dy: Optional[float] = None, *, tile: int) -> "pygame.FRect": ...
@overload
def move_rect(level: TilesLike, rect: RectLike, dx: Motion, dy: Optional[float] = None, *, tile: int) -> "pygame.Rect": ...
def move_rect(level: TilesLike, rect: Any, dx: Motion, dy: Optional[float] = None, *, tile: int) -> Any:
    """``rect`` moved by ``(dx, dy)`` world pixels without entering a wall tile: a new rect of the same kind.

    The motion is two numbers (ints or floats) or one ``pygame.Vector2`` /
    ``(dx, dy)`` pair. A ``pygame.FRect`` (pygame-ce) comes back as an FRect
    and keeps its sub-pixel position; a ``Rect`` (or a rect-like tuple) comes
    back as a ``Rect``, its motion rounded to whole pixels (keep the remainder
    yourself, or use an FRect, for speeds below a pixel per frame).

    Moves along x first, then along y (so a diagonal move slides along a
    wall). Each move sweeps every tile column or row it crosses and stops
    flush against the first wall, so nothing tunnels through a wall at any
    speed. Tiles off the map are solid. A rect that already overlaps a wall
    can still move out of it.

    >>> import mazeplugin as mp, pygame
    >>> level = mp.generate("kruskal", 3, 2, seed=1)
    >>> print(level)
    #######
    S #   #
    # ### #
    #     E
    #######
    >>> player = pygame.Rect(10, 10, 8, 8)             # on tile (1, 1), 10-pixel tiles
    >>> tuple(move_rect(level, player, 35, 0, tile=10))  # stops at the wall (2, 1)
    (12, 10, 8, 8)
    >>> tuple(move_rect(level, player, -50, -50, tile=10))  # west to the map's edge; north is wall
    (0, 10, 8, 8)
    >>> tuple(move_rect(level, player, pygame.Vector2(-2.4, 0), tile=10))  # rounded for a Rect
    (8, 10, 8, 8)
    """
    tiles = _tiles_of(level)
    tile = _check_tile_size(tile)
    mx, my = _motion(dx, dy)
    exact = _FRect is not None and isinstance(rect, _FRect)
    if exact:
        x, y, w, h = float(rect.x), float(rect.y), float(rect.w), float(rect.h)
    else:
        moved = pygame.Rect(rect)
        x, y, w, h = float(moved.x), float(moved.y), float(moved.w), float(moved.h)
        mx, my = float(round(mx)), float(round(my))
    if mx:
        x = _slide(tiles, x, w, mx, _span(y, h, tile), tile, horizontal=True)
        if exact:
            x = _float32(x, w, tile)
    if my:
        y = _slide(tiles, y, h, my, _span(x, w, tile), tile, horizontal=False)
        if exact:
            y = _float32(y, h, tile)
    if exact:
        return _FRect(x, y, w, h)
    return pygame.Rect(int(x), int(y), int(w), int(h))


def can_move(level: TilesLike, position: Tuple[int, int], direction: Union[str, Tuple[int, int]]) -> bool:
    """Whether one grid step from tile ``position`` in ``direction`` lands on a floor tile of the map.

    ``direction`` is ``"north"``/``"up"``, ``"east"``/``"right"``,
    ``"south"``/``"down"``, ``"west"``/``"left"`` or a unit step ``(dx, dy)``.

    >>> import mazeplugin as mp
    >>> level = mp.generate("kruskal", 3, 2, seed=1)
    >>> can_move(level, level.entrance, "east"), can_move(level, level.entrance, "west")
    (True, False)
    """
    tiles = _tiles_of(level)
    if isinstance(direction, str):
        try:
            dx, dy = DIRECTIONS[direction.lower()]
        except KeyError:
            raise ValueError(
                f"direction must be one of {', '.join(map(repr, DIRECTIONS))} or a unit (dx, dy) step, "
                f"got {direction!r}"
            ) from None
    else:
        try:
            dx, dy = (int(v) for v in direction)
        except (TypeError, ValueError):
            raise TypeError(f"direction must be a name or a (dx, dy) pair, got {direction!r}") from None
        if abs(dx) + abs(dy) != 1:
            raise ValueError(f"direction must be one grid step, (±1, 0) or (0, ±1), got {direction!r}")
    x, y = (int(v) for v in position)
    h, w = tiles.shape
    nx, ny = x + dx, y + dy
    return 0 <= nx < w and 0 <= ny < h and bool(tiles[ny, nx] == FLOOR)


# -- camera ----------------------------------------------------------------------


class Camera:
    """Which part of a world (the level, in pixels) a view (the window) shows.

    ``follow(point)`` centres the view on a world pixel, clamped so the view
    never shows past the map's edges; a map smaller than the view is centred
    in it. ``offset`` is what to add to world pixels to get screen pixels.

    >>> camera = Camera((100, 80), (400, 300))
    >>> camera.follow((10, 10)); camera.offset
    (0, 0)
    >>> camera.follow((390, 290)); camera.offset
    (-300, -220)
    >>> camera.follow((200, 150)); camera.to_screen((200, 150))
    (50, 40)
    >>> Camera((100, 80), (40, 40)).offset       # small map: centred
    (30, 20)
    """

    def __init__(self, view_size: Tuple[int, int], world_size: Tuple[int, int]) -> None:
        self.view_size = _check_size_pair("view_size", view_size)
        self.world_size = _check_size_pair("world_size", world_size)
        self.x = 0.0
        self.y = 0.0
        self._clamp()

    def resize(self, view_size: Tuple[int, int]) -> None:
        """The view (window) changed size; keep showing the same centre, clamped."""
        cx, cy = self.x + self.view_size[0] / 2, self.y + self.view_size[1] / 2
        self.view_size = _check_size_pair("view_size", view_size)
        self.x, self.y = cx - self.view_size[0] / 2, cy - self.view_size[1] / 2
        self._clamp()

    def set_world(self, world_size: Tuple[int, int]) -> None:
        """The world (a new level) changed size."""
        self.world_size = _check_size_pair("world_size", world_size)
        self._clamp()

    def follow(self, point: Tuple[float, float], *, smoothing: float = 1.0) -> None:
        """Move towards centring world pixel ``point``: all the way (``smoothing=1``) or that fraction of it."""
        if not 0 < smoothing <= 1:
            raise ValueError(f"smoothing must be in (0, 1], got {smoothing}")
        tx = point[0] - self.view_size[0] / 2
        ty = point[1] - self.view_size[1] / 2
        self.x += (tx - self.x) * smoothing
        self.y += (ty - self.y) * smoothing
        self._clamp()

    def _clamp(self) -> None:
        for axis in (0, 1):
            view, world = self.view_size[axis], self.world_size[axis]
            value = self.x if axis == 0 else self.y
            value = -(view - world) / 2 if world <= view else min(max(value, 0.0), float(world - view))
            if axis == 0:
                self.x = value
            else:
                self.y = value

    @property
    def offset(self) -> Tuple[int, int]:
        """Screen pixel of world pixel (0, 0): add it to world pixels to draw them."""
        return (-round(self.x), -round(self.y))

    @property
    def view_rect(self) -> "pygame.Rect":
        """The world pixels in view."""
        return pygame.Rect(round(self.x), round(self.y), *self.view_size)

    def to_screen(self, point: Tuple[float, float]) -> Tuple[int, int]:
        """World pixel → screen pixel."""
        ox, oy = self.offset
        return (int(point[0]) + ox, int(point[1]) + oy)

    def to_world(self, point: Tuple[float, float]) -> Tuple[int, int]:
        """Screen pixel → world pixel."""
        ox, oy = self.offset
        return (int(point[0]) - ox, int(point[1]) - oy)

    def apply(self, rect: "pygame.Rect") -> "pygame.Rect":
        """A world rect moved to where it is drawn on screen."""
        return pygame.Rect(rect).move(self.offset)


def _check_size_pair(name: str, size: object) -> Tuple[int, int]:
    try:
        w, h = (int(v) for v in size)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a (width, height) pair of ints, got {size!r}") from None
    if w < 1 or h < 1:
        raise ValueError(f"{name} must be at least (1, 1), got {size!r}")
    return (w, h)


# -- files ----------------------------------------------------------------------


def save_rgb_png(rgb: NDArray[np.uint8], path: PathLike) -> None:
    """Write a uint8 ``(height, width, 3)`` RGB array (indexed ``[y, x]``) to ``path`` as a PNG.

    Always PNG, whatever the file name's extension.

    >>> import os, tempfile, numpy as np
    >>> path = os.path.join(tempfile.mkdtemp(), "red.png")
    >>> save_rgb_png(np.full((2, 3, 3), (255, 0, 0), dtype=np.uint8), path)
    >>> import pygame; pygame.image.load(path).get_size()
    (3, 2)
    """
    array = np.asarray(rgb)
    if array.dtype != np.uint8:
        raise TypeError(f"rgb must be a uint8 array, not {array.dtype}")
    if array.ndim != 3 or array.shape[2] != 3 or array.shape[0] == 0 or array.shape[1] == 0:
        raise ValueError(f"rgb must have shape (height, width, 3) with height, width >= 1, got {array.shape}")
    _save_surface(_surface_from_rgb(array), path)


def _save_surface(surface: "pygame.Surface", path: PathLike) -> None:
    from ..formats.files import atomic_path  # safe writing: see mazeplugin.formats.files

    with atomic_path(path) as temporary:
        with open(temporary, "wb") as file:
            # The name hint makes it a PNG whatever the path's extension.
            pygame.image.save(surface, file, "png")


def save_png(level: Level, path: PathLike, *, tile: int = 8, show_solution: bool = False) -> None:
    """Write a picture of ``level`` to ``path`` as a PNG, ``tile`` pixels per tile.

    Drawn like :func:`render` with the default palette (entrance and exit
    marked, the solution path too with ``show_solution``), and the level's
    things with their default sprites (:func:`draw_things`).

    >>> import os, tempfile, mazeplugin as mp, pygame
    >>> path = os.path.join(tempfile.mkdtemp(), "level.png")
    >>> save_png(mp.generate("kruskal", 4, 3, seed=7), path, tile=2)
    >>> pygame.image.load(path).get_size()
    (18, 14)
    """
    if not isinstance(level, Level):
        raise TypeError(f"level must be a mazeplugin Level, not {type(level).__name__}")
    surface = render(level, tile=tile, show_solution=show_solution)
    if level.things:
        draw_things(surface, level, tile=tile, patrols=True)
        draw_markers(surface, level, tile=tile)
    _save_surface(surface, path)


def mask_from_image(path: PathLike, *, threshold: int = 128) -> NDArray[np.bool_]:
    """A cell mask from a picture: one cell per pixel, ``[y, x]``; light pixels are cells.

    True (a cell) where the pixel's luminance ``0.299 R + 0.587 G + 0.114 B``
    is at least ``threshold``, False (solid rock) where it is darker, or
    where the pixel is more than half transparent. So draw the shape in white
    on black. Any format pygame can load (PNG, BMP, ...).

    >>> import os, tempfile, numpy as np
    >>> path = os.path.join(tempfile.mkdtemp(), "mask.png")
    >>> save_rgb_png(np.array([[[255, 255, 255], [0, 0, 0]]], dtype=np.uint8), path)
    >>> mask_from_image(path).tolist()
    [[True, False]]
    """
    if isinstance(threshold, bool) or not isinstance(threshold, (int, np.integer)):
        raise TypeError(f"threshold must be an int in 0..256, not {type(threshold).__name__}")
    if not 0 <= threshold <= 256:
        raise ValueError(f"threshold must be in 0..256 (256: no pixel is a cell), got {threshold}")
    from ..formats.files import read_limited  # never a FIFO or a device, never a giant file

    source = os.fspath(path)
    data = read_limited(source, MAX_IMAGE_FILE_BYTES, what="a picture")
    size = _png_size(data)
    if size is not None and size[0] * size[1] > MAX_CELLS:
        raise ValueError(
            f"{source}: a {size[0]:,} × {size[1]:,} picture has more pixels than a mask may have cells "
            f"(at most {MAX_CELLS:,})"
        )
    try:
        image = pygame.image.load(io.BytesIO(data), os.path.basename(source))
    except (pygame.error, MemoryError) as error:
        raise ValueError(f"cannot read an image from {source!r}: {error}") from None
    rgb = pygame.surfarray.array3d(image).swapaxes(0, 1).astype(np.uint32)
    # Integer luminance (ITU-R BT.601 weights, x1000) so the threshold is exact.
    luma = rgb[..., 0] * 299 + rgb[..., 1] * 587 + rgb[..., 2] * 114
    mask = luma >= threshold * 1000
    if image.get_flags() & pygame.SRCALPHA or image.get_colorkey() is not None:
        alpha = pygame.surfarray.array_alpha(image).swapaxes(0, 1)
        mask &= alpha >= 128
    return np.ascontiguousarray(mask)


def _png_size(data: bytes) -> Optional[Tuple[int, int]]:
    """``(width, height)`` from a PNG's header, read before decoding it (None if not a PNG)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None


# Endless worlds draw with the functions above, so their module comes last.
from .world import EndlessCamera, WorldView  # noqa: E402
