"""The minimap and the exit pointer (Tab shows or hides both): where am I, and where is the exit?

The minimap, in a column of its own at the right of the map view (so it
never covers the maze; the map view narrows while it shows), is the whole
level shrunk to fit, drawn with ``mazeplugin.pg.tile_colours`` (under fog: only what the
player has seen), with the player, the exit and the part of the level on
screen. When the exit is off screen an arrow on the edge of the view points
to it. Under fog both show the exit only once the player has seen it, as
the map does. Neither shows when the whole level fits in the window.

On a dungeon (``level.mission``, :mod:`mazeplugin.dungeon.laid`) the minimap
shows the rooms the player has found: a room appears, walls and all, the
first time the player steps into it, and a corridor once the rooms at both
its ends have appeared (fog or not; the map view keeps its own fog). The
exit shows once its room has. Restarting the level (R) forgets them.
"""

from __future__ import annotations

import argparse
import math
from typing import Any, Optional, Set, Tuple

import numpy as np
import pygame

import mazeplugin.pg as mpg

from .addon_api import Addon, Binding, Host
from .options import map_options
from .view import HUD_BACK, HUD_DIM, PALETTE, PLAYER, PLAYER_EDGE

MAX_SIDE = 200
"""The minimap's longest side, in pixels (a smaller window gets a smaller map)."""
PANEL_MARGIN = 10
"""Pixels around the minimap in its side panel."""


class Minimap(Addon):
    """Tab: the minimap and the exit pointer."""

    def __init__(self, app: Host, *, shown: bool = True) -> None:
        super().__init__(app)
        self.shown = shown
        self.bindings = (
            Binding((pygame.K_TAB,), "Tab", "minimap and exit pointer", self.toggle, short="map"),
        )
        self._panel = 0  # the width of the side panel the map is drawn in (0: none)
        self._key: Optional[Tuple[int, int, int, Tuple[int, int]]] = None
        self._image: Optional[pygame.Surface] = None
        self._level: Any = None  # the level whose mission is kept below (a dungeon's, read once)
        self._mission: Any = None  # that level's LaidMission, or None on a level that is not a dungeon
        self._found: Set[str] = set()  # the rooms the player has entered since the level (re)started
        self._found_in: Any = None  # the game's seen map when they were counted: a (re)start makes a new one
        self._found_version = 0  # bumped when a room is found (the picture cache follows it)
        self._shown: Optional[np.ndarray] = None  # the tiles the found rooms show (rooms_shown), once made

    add_arguments = staticmethod(map_options)

    @classmethod
    def create(cls, app: Host, options: argparse.Namespace) -> "Minimap":
        return cls(app, shown=not options.no_map)

    def toggle(self) -> None:
        """Show or hide the minimap and the exit pointer."""
        self.shown = not self.shown
        self.app.game.say("Map and exit pointer on" if self.shown else "Map and exit pointer off")

    def needed(self) -> bool:
        """Whether there is anything to show: on, and the level does not fit in the window."""
        camera = self.app.camera
        return self._needed(camera.view_size, camera.world_size) or self._panel > 0

    def _needed(self, area: Tuple[int, int], world: Tuple[int, int]) -> bool:
        return self.shown and (world[0] > area[0] or world[1] > area[1])

    def side_panel(self, area: Tuple[int, int], world: Tuple[int, int]) -> int:
        """The minimap's column at the right of the map (when it is needed), so it never covers the maze."""
        self._panel = 0
        if self._needed(area, world):
            self._panel = self._side(area) + 2 * PANEL_MARGIN
        return self._panel

    @staticmethod
    def _side(area: Tuple[int, int]) -> int:
        """The minimap's longest side for a map area: a fifth of the window's width, within 48..MAX_SIDE."""
        return max(48, min(MAX_SIDE, int(area[0] * 0.2), int(area[1] * 0.6)))

    def update(self, dt: float) -> None:
        """Count the room the player stands in as found (on a dungeon)."""
        game = self.app.game
        if game.level is not self._level:
            self._level, self._mission = game.level, game.level.mission
        if self._mission is None:
            return
        if self._found_in is not game.seen:  # a new level, or this one restarted
            self._found, self._found_in, self._shown = set(), game.seen, None
            self._found_version += 1
        room = self._mission.room_at(game.player_tile)
        if room is not None and room.id not in self._found:
            self._found.add(room.id)
            self._found_version += 1
            self._shown = None

    def rooms_found(self) -> Set[str]:
        """The ids of the dungeon's rooms the player has entered since the level (re)started (empty on a maze)."""
        return set(self._found) if self._mission is not None and self._level is self.app.game.level else set()

    def rooms_shown(self) -> Optional[np.ndarray]:
        """On a dungeon, the tiles the minimap shows (bool ``[y, x]``): every found room's rectangle and the
        corridors between two found rooms, with the walls beside them; None on other levels."""
        if self._mission is None or self._level is not self.app.game.level:
            return None
        if self._shown is None:
            rows, columns = self._level.tiles.shape
            shown = np.zeros((rows, columns), dtype=bool)
            for room in self._mission.nodes:
                if room.id in self._found:
                    shown[room.y:room.y + room.height, room.x:room.x + room.width] = True
            for edge in self._mission.edges:
                if edge.edge.a in self._found and edge.edge.b in self._found:
                    for x, y in edge.tiles:
                        shown[max(y - 1, 0):y + 2, max(x - 1, 0):x + 2] = True
            self._shown = shown
        return self._shown

    def exit_known(self) -> bool:
        game = self.app.game
        exit_tile = game.level.exit
        return exit_tile is not None and (not game.fog or bool(game.seen[exit_tile[1], exit_tile[0]]))

    def draw_overlay(self, surface: pygame.Surface, view: pygame.Rect) -> None:
        if not self.needed():
            return
        self._draw_map(surface, view)
        if self.exit_known():
            self._draw_pointer(surface, view)

    def map_rect(self, view: pygame.Rect) -> pygame.Rect:
        """Where the minimap goes: at the top of its side panel, right of the map ``view`` (never over the maze)."""
        rows, columns = self.app.game.level.tiles.shape
        side = max(8, self._panel - 2 * PANEL_MARGIN)
        scale = side / max(rows, columns)
        rect = pygame.Rect(0, 0, max(2, round(columns * scale)), max(2, round(rows * scale)))
        rect.midtop = (view.right + self._panel // 2, view.top + PANEL_MARGIN)
        return rect

    def _picture(self, size: Tuple[int, int]) -> pygame.Surface:
        game = self.app.game
        shown = self.rooms_shown()  # a dungeon: the rooms found, fog or not
        key = (game.version, game.seen_version if game.fog and shown is None else -1, self._found_version, size)
        if key != self._key or self._image is None:
            seen = shown if shown is not None else game.seen if game.fog else None
            rgb = mpg.tile_colours(game.level, palette=PALETTE, seen=seen)
            small = pygame.surfarray.make_surface(np.ascontiguousarray(rgb.swapaxes(0, 1)))
            if size[0] < small.get_width():
                self._image = pygame.transform.smoothscale(small.convert(32, 0) if small.get_bitsize() < 24 else small, size)
            else:
                self._image = pygame.transform.scale(small, size)
            self._key = key
        return self._image

    def _draw_map(self, surface: pygame.Surface, view: pygame.Rect) -> None:
        app, game = self.app, self.app.game
        surface.fill(HUD_BACK, pygame.Rect(view.right, view.top, self._panel, view.height))
        rect = self.map_rect(view)
        frame = rect.inflate(6, 6)
        surface.blit(self._picture(rect.size), rect)
        pygame.draw.rect(surface, HUD_DIM, frame, 1)
        rows, columns = game.level.tiles.shape
        sx, sy = rect.width / (columns * app.tile), rect.height / (rows * app.tile)
        seen = app.camera.view_rect
        shown = pygame.Rect(rect.left + seen.left * sx, rect.top + seen.top * sy, seen.width * sx, seen.height * sy)
        pygame.draw.rect(surface, PLAYER_EDGE, shown.clip(rect), 1)
        exit_tile, shown_tiles = game.level.exit, self.rooms_shown()
        if exit_tile is not None and self.exit_known() and (shown_tiles is None or shown_tiles[exit_tile[1], exit_tile[0]]):
            ex, ey = mpg.tile_to_pixel(exit_tile, app.tile)
            pygame.draw.rect(surface, PALETTE.exit, pygame.Rect(0, 0, 5, 5).move(rect.left + ex * sx - 2, rect.top + ey * sy - 2))
        px, py = game.rect.center
        pygame.draw.circle(surface, PLAYER_EDGE, (round(rect.left + px * sx), round(rect.top + py * sy)), 3)
        pygame.draw.circle(surface, PLAYER, (round(rect.left + px * sx), round(rect.top + py * sy)), 2)

    def pointer(self, view: pygame.Rect) -> Optional[Tuple[Tuple[int, int], float]]:
        """Where the exit pointer goes on screen and its angle (radians, 0 = east, y down); None when the exit is in view."""
        app, game = self.app, self.app.game
        assert game.level.exit is not None
        ex, ey = mpg.tile_to_pixel(game.level.exit, app.tile)
        ox, oy = app.camera.offset
        target = (ex + ox + view.left, ey + oy + view.top)
        inner = view.inflate(-48, -48)
        if inner.width < 8 or inner.height < 8 or inner.collidepoint(target):
            return None
        cx, cy = inner.center
        dx, dy = target[0] - cx, target[1] - cy
        # Scale the direction until it meets the inner rect's border.
        scale = min(
            (inner.width / 2) / abs(dx) if dx else math.inf,
            (inner.height / 2) / abs(dy) if dy else math.inf,
        )
        return ((round(cx + dx * scale), round(cy + dy * scale)), math.atan2(dy, dx))

    def _draw_pointer(self, surface: pygame.Surface, view: pygame.Rect) -> None:
        placed = self.pointer(view)
        if placed is None:
            return
        (x, y), angle = placed
        size = 16
        points = [
            (x + math.cos(angle + a) * r, y + math.sin(angle + a) * r)
            for a, r in ((0.0, size), (2.5, size * 0.8), (-2.5, size * 0.8))
        ]
        pygame.draw.polygon(surface, PALETTE.exit, points)
        pygame.draw.polygon(surface, PLAYER_EDGE, points, 2)

