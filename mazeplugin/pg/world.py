"""Drawing and walking an endless :class:`~mazeplugin.world.World` with pygame.

A world has no edges, so the camera is never clamped (:class:`EndlessCamera`),
and it is never drawn whole: :class:`WorldView` renders each chunk once into a
surface, keeps the surfaces of recently seen chunks in a bounded cache, and
each frame blits only the chunks the camera sees (a handful of blits).
With tile images (``floor=``, ``wall_set=``) walls are autotiled across chunk
borders: a chunk is rendered from its tiles plus a one-tile margin of its
neighbours.

>>> import pygame, mazeplugin as mp, mazeplugin.pg as mpg
>>> world = mp.World("backtracker", seed=7, chunk=(8, 8))
>>> view = mpg.WorldView(world, tile=4)
>>> camera = mpg.EndlessCamera((160, 120))
>>> camera.follow(mpg.tile_to_pixel(world.spawn, 4))
>>> screen = pygame.Surface((160, 120))
>>> view.draw(screen, camera.offset)       # chunks blitted: 4 across, 3 down
12
>>> player = pygame.Rect(0, 0, 3, 3)
>>> player.center = mpg.tile_to_pixel(world.spawn, 4)
>>> view.move_rect(player, -40, 0).x       # stops at the wall west of the spawn
4
"""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import Any, Collection, Dict, List, Mapping, Optional, Sequence, Tuple

import pygame

from ..world import Chunk, World
from .camera import EndlessCamera
from .collide import FRECT, motion_of, move_rect
from .grid import check_tile_size
from .palette import DEFAULT_PALETTE, Palette
from .render import render
from .sprites import render_images
from .things import draw_things

__all__ = ["EndlessCamera", "WorldView"]


class WorldView:
    """Draws a world chunk by chunk through a bounded cache of rendered chunk surfaces.

    Args:
        world: the :class:`~mazeplugin.world.World`.
        tile: pixels per tile.
        palette: colours when drawing plain tiles (see :func:`mazeplugin.pg.render`).
        floor, wall_set: tile images instead (a floor image and the 16 autotiled
            wall images, as :func:`mazeplugin.pg.render_images` takes).
        cache: how many chunk surfaces to keep; each is ``chunk_span × tile``
            pixels (a 32 × 32-cell chunk at 8 px per tile: 512 × 512, 1 MiB).
            Keep it above the number of chunks a view shows at once, with
            the ring of ``ahead`` chunks around it.
        ahead: after each :meth:`draw`, take one step (tiles, things or
            surface) towards the nearest chunk within this many chunks of the
            view that is not ready, so a walking camera finds its next chunks
            made instead of making them in one frame; 0 turns it off.
    """

    def __init__(
        self,
        world: World,
        *,
        tile: int = 8,
        palette: Palette = DEFAULT_PALETTE,
        floor: Optional["pygame.Surface"] = None,
        wall_set: Optional[Sequence["pygame.Surface"]] = None,
        cache: int = 64,
        ahead: int = 1,
    ) -> None:
        if not isinstance(world, World):
            raise TypeError(f"world must be a mazeplugin World, not {type(world).__name__}")
        self.world: World = world
        self.tile: int = check_tile_size(tile)
        if not isinstance(palette, Palette):
            raise TypeError(f"palette must be a mazeplugin.pg.Palette, not {type(palette).__name__}")
        if (floor is None) != (wall_set is None):
            raise ValueError("give both floor= and wall_set= (tile images), or neither (palette colours)")
        if floor is not None and floor.get_size() != (self.tile, self.tile):
            raise ValueError(f"floor must be a {self.tile} × {self.tile} image (tile={self.tile}), got {floor.get_size()}")
        self.palette = palette
        self.floor: Optional["pygame.Surface"] = floor
        self.wall_set: Optional[List["pygame.Surface"]] = list(wall_set) if wall_set is not None else None
        if isinstance(cache, bool) or not isinstance(cache, int) or cache < 1:
            raise ValueError(f"cache must be an int of at least 1 (chunk surfaces), got {cache!r}")
        if isinstance(ahead, bool) or not isinstance(ahead, int) or ahead < 0:
            raise ValueError(f"ahead must be an int of at least 0 (chunks), got {ahead!r}")
        self.ahead = ahead
        self._steps: Dict[Chunk, int] = {}  # the chunk being prepared ahead, and its next step
        self._cache: "OrderedDict[Chunk, pygame.Surface]" = OrderedDict()
        self._maxsize = cache
        self.rendered: int = 0  # chunk surfaces made so far (cache misses)

    def chunk_surface(self, chunk: Chunk) -> "pygame.Surface":
        """The surface of chunk ``(i, j)``: rendered on first use, then cached."""
        surface = self._cache.get(chunk)
        if surface is not None:
            self._cache.move_to_end(chunk)
            return surface
        x, y, w, h = self.world.chunk_rect(chunk)
        if self.wall_set is not None and self.floor is not None:
            # A one-tile margin so walls join their neighbours across the chunk border.
            tiles = self.world.tiles(x - 1, y - 1, x + w + 1, y + h + 1)
            surface = render_images(tiles, floor=self.floor, wall_set=self.wall_set, area=(1, 1, w, h))
        else:
            surface = render(self.world.chunk_tiles(chunk), tile=self.tile, palette=self.palette)
        self.rendered += 1
        self._cache[chunk] = surface
        if len(self._cache) > self._maxsize:
            self._cache.popitem(last=False)
        return surface

    def visible_chunks(self, view: "pygame.Rect") -> List[Chunk]:
        """The chunks that a view of world pixels ``view`` shows."""
        t = self.tile
        rect = pygame.Rect(view)
        return self.world.chunks(rect.left // t, rect.top // t, -(-rect.right // t), -(-rect.bottom // t))

    def draw(self, surface: "pygame.Surface", offset: Tuple[int, int]) -> int:
        """Blit the chunks visible on ``surface`` with world pixel (0, 0) at ``offset``; how many were blitted."""
        ox, oy = (int(v) for v in offset)
        view = pygame.Rect(-ox, -oy, *surface.get_size())
        chunks = self.visible_chunks(view)
        for chunk in chunks:
            x, y, _, _ = self.world.chunk_rect(chunk)
            surface.blit(self.chunk_surface(chunk), (x * self.tile + ox, y * self.tile + oy))
        if self.ahead:
            self.prepare_ahead(view)
        return len(chunks)

    def prepare_ahead(self, view: "pygame.Rect") -> Optional[Chunk]:
        """One step of making the nearest chunk within ``ahead`` chunks of ``view`` that is not drawn yet.

        The steps are the chunk's tiles, then its things, then its surface,
        one per call (per frame), so no frame pays for a whole chunk. Returns
        the chunk worked on, or None when every chunk near the view is ready.
        """
        sw, sh = self.world.chunk_span
        rect = pygame.Rect(view)
        ring = rect.inflate(2 * self.ahead * sw * self.tile, 2 * self.ahead * sh * self.tile)
        cx, cy = rect.centerx / (sw * self.tile), rect.centery / (sh * self.tile)
        missing = [chunk for chunk in self.visible_chunks(ring) if chunk not in self._cache]
        if not missing:
            return None
        chunk = min(missing, key=lambda c: (c[0] + 0.5 - cx) ** 2 + (c[1] + 0.5 - cy) ** 2)
        step = self._steps.get(chunk, 0)
        if step == 0:
            self.world.chunk_tiles(chunk)
        elif step == 1:
            self.world.chunk_things(chunk)
        else:
            self.chunk_surface(chunk)
        self._steps = {chunk: step + 1} if step < 2 else {}
        return chunk

    def draw_things(
        self,
        surface: "pygame.Surface",
        offset: Tuple[int, int],
        *,
        taken: Collection[Tuple[Chunk, int]] = (),
        images: Optional[Mapping[str, "pygame.Surface"]] = None,
    ) -> int:
        """Draw the world's things in view (not those whose ``(chunk, id)`` is in ``taken``); how many."""
        ox, oy = (int(v) for v in offset)
        t = self.tile
        w, h = surface.get_size()
        things = self.world.things(-ox // t, -oy // t, -(-(w - ox) // t), -(-(h - oy) // t))
        skip = set(taken)
        shown = [thing for thing in things if (thing.props["chunk"], thing.id) not in skip]
        draw_things(surface, shown, tile=t, offset=(ox, oy), images=images)
        return len(shown)

    def move_rect(self, rect: Any, dx: Any, dy: Optional[float] = None) -> Any:
        """``rect`` (world pixels) moved without entering a wall: :func:`mazeplugin.pg.move_rect` on the world.

        Takes what that takes (a ``Rect`` or pygame-ce ``FRect``, two numbers
        or one ``Vector2``) and gives back the same kind of rect. Only the
        tiles the move can touch are fetched from the world.
        """
        t = self.tile
        mx, my = motion_of(dx, dy)
        r = rect if FRECT is not None and isinstance(rect, FRECT) else pygame.Rect(rect)
        x0 = math.floor(min(r.left, r.left + mx) / t) - 1
        y0 = math.floor(min(r.top, r.top + my) / t) - 1
        x1 = math.floor(max(r.right, r.right + mx) / t) + 2
        y1 = math.floor(max(r.bottom, r.bottom + my) / t) + 2
        tiles = self.world.tiles(x0, y0, x1, y1)
        moved = move_rect(tiles, r.move(-x0 * t, -y0 * t), mx, my, tile=t)
        return moved.move(x0 * t, y0 * t)

    def cache_info(self) -> Tuple[int, int]:
        """``(surfaces held, most held)``."""
        return (len(self._cache), self._maxsize)
