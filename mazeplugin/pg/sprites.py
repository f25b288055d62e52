"""Drawing a level with tile images: one numpy gather, autotiled wall sets."""

from __future__ import annotations

from typing import Any, Iterable, List, Optional, Sequence, Tuple, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
import pygame

from ..level_protocol import AnyLevel
from ..tiles import EAST_BIT, NORTH_BIT, SOUTH_BIT, WALL, WEST_BIT, wall_neighbours
from .palette import Colour, check_colour, Palette, DEFAULT_PALETTE
from .grid import TilesLike, check_tile_size, tiles_of
from .railings import railing_rects


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
        x, y, w, h = (int(v) for v in cast(Iterable[Any], area))
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
    shape) unseen tiles are filled with the ``fog`` colour. A weave level's
    bridges get railings (:mod:`mazeplugin.pg.railings`) in the colour of the
    wall image's middle (``wall_set[15]``: walls all round).

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
    tiles = tiles_of(level)
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
        assert wall is not None
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
        stack.append(np.broadcast_to(np.array(check_colour("fog", fog), dtype=np.uint8), size))
        index[~seen_mask[y0:y1, x0:x1]] = len(stack) - 1
    tw, th = size[:2]
    rows, columns = part.shape
    out = pygame.Surface((columns * tw, rows * th), 0, 32)
    # The images as the output surface's own pixel values (one int per pixel,
    # whatever its channel order), gathered straight into surfarray's [x, y]
    # order: (columns, rows, tw, th) -> (columns*tw, rows*th). One gather, one
    # copy, no blit per tile.
    pixels = np.stack(stack)
    mapped = pygame.surfarray.map_array(out, pixels.reshape(-1, th, 3)).reshape(len(stack), tw, th)
    pygame.surfarray.blit_array(out, mapped[index.T].swapaxes(1, 2).reshape(columns * tw, rows * th))
    if isinstance(level, AnyLevel) and level.weave and tw == th:
        # Bridges (weave): railings in the plain wall's colour (the middle of the wall image with walls all round).
        solid = stack[16 if wall_set is not None else 1]
        colour = check_colour("wall", solid[tw // 2, th // 2])
        shown = None if seen is None else np.asarray(seen, dtype=bool)
        for rect in railing_rects(level, tile=tw, area=(x0, y0, x1 - x0, y1 - y0)):
            if shown is None or shown[rect.y // th, rect.x // tw]:
                out.fill(colour, rect.move(-x0 * tw, -y0 * th))
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
    tile = check_tile_size(tile)
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
    return wall_neighbours(tiles_of(level))
