"""Drawing a level's things and walking past its doors, for pygame games.

Things are :class:`mazeplugin.content.Thing` s (``level.things``). Default
sprites are drawn with pygame primitives, one per kind, sized to the tile; a
game passes its own images per kind instead. Doors are the one kind that
blocks: :func:`passable_tiles` gives the tiles a player holding some keys may
walk (closed doors as wall), ready for :func:`mazeplugin.pg.move_rect`.

>>> import mazeplugin as mp, mazeplugin.pg as mpg, pygame
>>> level = mp.generate("backtracker", 8, 6, seed=3, keys=1, treasure=2)
>>> key, door = level.things[:2]
>>> surface = mpg.render(level, tile=8)
>>> mpg.draw_things(surface, level, tile=8)
>>> mpg.may_enter(level, mpg.tile_rect(door.tile, 8), keys=(), tile=8)
False
>>> mpg.may_enter(level, mpg.tile_rect(door.tile, 8), keys=[key.id], tile=8)
True
>>> [t.kind for t in mpg.things_at(level, mpg.tile_rect(key.tile, 8), tile=8)]
['key']
"""

from __future__ import annotations

from typing import Any, Collection, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

import numpy as np
from numpy.typing import NDArray

import pygame

from ..content import Thing
from ..content.drops import DIRECTIONS
from ..level import Level
from ..level_protocol import AnyLevel
from .grid import cell_pixel, picture
from .palette import Colour, rgb

__all__ = [
    "THING_COLOURS",
    "thing_sprite",
    "drop_sprite",
    "DROP_COLOUR",
    "draw_things",
    "passable_tiles",
    "may_enter",
    "things_at",
    "patrol_position",
]

THING_COLOURS: Dict[str, Colour] = {kind: rgb(kind) for kind in ("door", "key", "treasure", "enemy", "thing")}
"""Default sprite colours per kind (``"thing"``: a game's own kinds): the SVG pictures' colours."""

DROP_COLOUR: Colour = rgb("drop")
"""A one-way drop's arrow (:func:`drop_sprite`), as in the SVG pictures."""


def _key_ids(keys: Iterable[Any]) -> Set[int]:
    """Key ids from ints or key Things."""
    out: Set[int] = set()
    for key in keys:
        if isinstance(key, Thing):
            out.add(key.id)
        elif isinstance(key, (int, np.integer)) and not isinstance(key, bool):
            out.add(int(key))
        else:
            raise TypeError(f"keys must hold key ids (ints) or key Things, got {key!r}")
    return out


def thing_sprite(kind: str, tile: int) -> "pygame.Surface":
    """The default sprite of ``kind`` for one ``tile``-pixel tile (transparent background).

    >>> thing_sprite("key", 16).get_size()
    (16, 16)
    """
    if isinstance(tile, bool) or not isinstance(tile, int) or tile < 1:
        raise ValueError(f"tile must be a positive int (pixels), got {tile!r}")
    surface = pygame.Surface((tile, tile), pygame.SRCALPHA)
    c = tile // 2
    edge = max(1, tile // 10)
    if kind == "door":
        surface.fill(THING_COLOURS["door"])
        pygame.draw.rect(surface, (93, 64, 55), surface.get_rect(), edge)
        pygame.draw.circle(surface, THING_COLOURS["key"], (tile * 3 // 4, c), max(1, tile // 10))
    elif kind == "key":
        r = max(2, tile * 2 // 5)
        points = [(c, c - r), (c + r * 3 // 4, c), (c, c + r), (c - r * 3 // 4, c)]
        pygame.draw.polygon(surface, THING_COLOURS["key"], points)
        pygame.draw.polygon(surface, THING_COLOURS["door"], points, edge)
    elif kind == "treasure":
        side = max(2, tile * 3 // 5)
        box = pygame.Rect(0, 0, side, side)
        box.center = (c, c)
        pygame.draw.rect(surface, THING_COLOURS["treasure"], box)
        pygame.draw.rect(surface, (121, 85, 72), box, edge)
    elif kind == "enemy":
        pygame.draw.circle(surface, THING_COLOURS["enemy"], (c, c), max(2, tile * 2 // 5))
        eye = max(1, tile // 10)
        pygame.draw.circle(surface, (255, 255, 255), (c - tile // 6, c - tile // 10), eye)
        pygame.draw.circle(surface, (255, 255, 255), (c + tile // 6, c - tile // 10), eye)
    else:
        pygame.draw.circle(surface, THING_COLOURS["thing"], (c, c), max(1, tile // 4))
    return surface


def drop_sprite(direction: str, tile: int) -> "pygame.Surface":
    """The default sprite of a one-way drop walked ``direction`` (``"north"``, ``"east"``, ``"south"``,
    ``"west"``): an arrow pointing that way, for one ``tile``-pixel tile.

    >>> sprite = drop_sprite("east", 16)
    >>> sprite.get_size(), tuple(sprite.get_at((14, 8))[:3]) == DROP_COLOUR, sprite.get_at((1, 8))[3]
    ((16, 16), True, 0)
    """
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}")
    if isinstance(tile, bool) or not isinstance(tile, int) or tile < 1:
        raise ValueError(f"tile must be a positive int (pixels), got {tile!r}")
    surface = pygame.Surface((tile, tile), pygame.SRCALPHA)
    dx, dy = DIRECTIONS[direction]
    c = tile / 2
    tip, back = (c + 0.45 * tile * dx, c + 0.45 * tile * dy), (c - 0.3 * tile * dx, c - 0.3 * tile * dy)
    corners = [tip, (back[0] - 0.3 * tile * dy, back[1] + 0.3 * tile * dx),
               (back[0] + 0.3 * tile * dy, back[1] - 0.3 * tile * dx)]
    pygame.draw.polygon(surface, DROP_COLOUR, [(round(x), round(y)) for x, y in corners])
    return surface


def draw_things(surface: "pygame.Surface", level: Any, *, tile: Optional[int] = None, cell: Optional[int] = None,
                offset: Tuple[int, int] = (0, 0), images: Optional[Mapping[str, "pygame.Surface"]] = None,
                hidden: Collection[int] = (), patrols: bool = False) -> None:
    """Draw things onto ``surface``: on a picture by tiles (``tile=``) a level's ``tile_things()`` or any
    sequence of Things, on a picture by cells (``cell=``, see :func:`~mazeplugin.pg.render`) a level's things.

    ``offset`` is where world pixel (0, 0) lands (``camera.offset``). ``hidden`` holds ids not to draw (keys
    picked up, doors opened, enemies drawn where they walk). By tiles, ``images`` maps a kind to a game's own
    image (blitted centred on each tile, a door's on each tile it blocks); other kinds get
    :func:`thing_sprite`, a one-way drop :func:`drop_sprite`; ``patrols`` draws each enemy's patrol as a thin
    line. By cells, in :data:`THING_COLOURS`: a door is a bar across its passage, a key a diamond, treasure a
    small disc, an enemy a larger disc, any other kind a square.

    >>> import mazeplugin as mp, mazeplugin.pg as mpg
    >>> level = mp.generate("wilson", 6, 5, grid="hex", seed=7, keys=1)
    >>> surface = pygame.Surface((200, 200))
    >>> draw_things(surface, level, cell=20)
    >>> key = next(t for t in level.things if t.kind == "key")
    >>> tuple(surface.get_at(mpg.grid_to_pixel(level.maze.grid.centre(key.cell), 20))[:3]) == THING_COLOURS["key"]
    True
    """
    unit, size = picture(level, tile, cell, default=False)
    skip = set(hidden)
    if unit == "cell":
        if images is not None or patrols:
            raise ValueError("images= and patrols= draw on a picture by tiles (tile=), not by cells (cell=)")
        _draw_cell_things(surface, level, size, offset, skip)
        return
    tile = size
    things: Sequence[Thing] = level.tile_things() if isinstance(level, AnyLevel) else tuple(level)
    sprites: Dict[str, "pygame.Surface"] = dict(images or {})
    arrows: Dict[str, "pygame.Surface"] = {}
    ox, oy = offset
    for thing in things:
        if thing.id in skip:
            continue
        if thing.kind == "drop" and "drop" not in sprites and thing.props.get("direction") in DIRECTIONS:
            way = thing.props["direction"]  # an arrow its way (unless the game gives "drop" an image)
            image = arrows.get(way)
            if image is None:
                image = arrows[way] = drop_sprite(way, tile)
        else:
            image = sprites.get(thing.kind)
            if image is None:
                image = sprites[thing.kind] = thing_sprite(thing.kind, tile)
        if patrols and thing.kind == "enemy" and len(thing.props.get("patrol") or ()) > 1:
            points = [(x * tile + tile // 2 + ox, y * tile + tile // 2 + oy) for x, y in thing.props["patrol"]]
            pygame.draw.lines(surface, THING_COLOURS["enemy"], False, points, max(1, tile // 8))
        for x, y in thing.tiles():
            rect = image.get_rect(center=(x * tile + tile // 2 + ox, y * tile + tile // 2 + oy))
            surface.blit(image, rect)


def _draw_cell_things(surface: "pygame.Surface", level: Level, cell: int, offset: Tuple[int, int],
                      hidden: Set[int]) -> None:
    size = max(2, cell * 3 // 10)
    for thing in level.things:
        if thing.id in hidden:
            continue
        colour = THING_COLOURS.get(thing.kind, THING_COLOURS["thing"])
        if thing.kind == "door":
            (ax, ay), (bx, by) = (cell_pixel(level, c, cell, offset) for c in thing.props["cells"])
            mx, my, dx, dy = (ax + bx) / 2, (ay + by) / 2, bx - ax, by - ay
            length = max(1.0, (dx * dx + dy * dy) ** 0.5)
            px, py = -dy / length * cell * 0.4, dx / length * cell * 0.4  # across the passage
            pygame.draw.line(surface, colour, (round(mx - px), round(my - py)), (round(mx + px), round(my + py)),
                             max(2, cell // 4))
            continue
        x, y = cell_pixel(level, thing.cell, cell, offset)
        if thing.kind == "key":
            pygame.draw.polygon(surface, colour, [(x, y - size), (x + size * 3 // 4, y), (x, y + size),
                                                  (x - size * 3 // 4, y)])
        elif thing.kind == "treasure":
            pygame.draw.circle(surface, colour, (x, y), max(1, size * 2 // 3))
        elif thing.kind == "enemy":
            pygame.draw.circle(surface, colour, (x, y), size)
        else:
            pygame.draw.rect(surface, colour, pygame.Rect(x - size // 2, y - size // 2, size, size))


def passable_tiles(level: Level, keys: Iterable[Any] = ()) -> NDArray[np.uint8]:
    """``level.tiles`` with every door whose key is not among ``keys`` as wall: a new uint8 array.

    Pass it to :func:`mazeplugin.pg.move_rect` or :func:`mazeplugin.pg.can_move`
    in place of the level, and the player stops at locked doors.
    """
    held = _key_ids(keys)
    tiles = np.array(level.tiles, dtype=np.uint8, copy=True)
    for thing in level.things:
        if thing.kind == "door" and thing.props.get("key") not in held:
            for x, y in thing.tiles():
                tiles[y, x] = 1
    return tiles


def may_enter(level: Level, rect: "pygame.Rect", keys: Iterable[Any] = (), *, tile: int) -> bool:
    """Whether ``rect`` (world pixels) overlaps only floor tiles, doors counting as wall unless their key is held."""
    blocked = passable_tiles(level, keys) != 0
    h, w = blocked.shape
    r = pygame.Rect(rect)
    x0, x1 = r.left // tile, (r.right - 1) // tile
    y0, y1 = r.top // tile, (r.bottom - 1) // tile
    if x0 < 0 or y0 < 0 or x1 >= w or y1 >= h:
        return False
    return not bool(blocked[y0:y1 + 1, x0:x1 + 1].any())


def things_at(level: Any, rect: "pygame.Rect", *, tile: int, kinds: Optional[Collection[str]] = None) -> List[Thing]:
    """The things with a tile under ``rect`` (world pixels), in id order; only ``kinds`` if given.

    For picking up keys and treasure as the player walks over them.
    """
    things: Sequence[Thing] = level.tile_things() if isinstance(level, AnyLevel) else tuple(level)
    r = pygame.Rect(rect)
    x0, x1 = r.left // tile, (r.right - 1) // tile
    y0, y1 = r.top // tile, (r.bottom - 1) // tile
    return [
        t for t in things
        if (kinds is None or t.kind in kinds)
        and any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in t.tiles())
    ]


def patrol_position(patrol: Sequence[Tuple[int, int]], start: int, travelled: float) -> Tuple[float, float]:
    """Where an enemy is, in tiles (floats), after walking ``travelled`` tiles from ``patrol[start]``.

    It walks towards the patrol's end, turns, walks back to its start, and
    so on (a tile a step). Multiply by the tile size and add half a tile for
    the pixel centre.

    >>> patrol = [(1, 1), (2, 1), (3, 1)]
    >>> [patrol_position(patrol, 1, t) for t in (0, 0.5, 1, 2, 3.5)]
    [(2.0, 1.0), (2.5, 1.0), (3.0, 1.0), (2.0, 1.0), (1.5, 1.0)]
    """
    n = len(patrol)
    if n == 0:
        raise ValueError("patrol must hold at least one tile")
    if n == 1:
        return (float(patrol[0][0]), float(patrol[0][1]))
    period = 2 * (n - 1)
    at = float(start + travelled) % period
    if at > n - 1:
        at = period - at
    i = min(int(at), n - 2)
    f = at - i
    (x0, y0), (x1, y1) = patrol[i], patrol[i + 1]
    return (float(x0 + (x1 - x0) * f), float(y0 + (y1 - y0) * f))
