"""Endless mode: walk an endless world (:class:`mazeplugin.World`) from its spawn, forever.

``python -m demo --endless`` starts in it; **E** switches between the maze
game and the endless world (each starts afresh from its options). The world
is the ``--algorithm`` maze in chunks of ``--chunk`` cells (default 16x16),
seeded by ``--seed``, with treasure in every chunk to collect. The HUD shows
the player's tile, its chunk and the treasure collected.

It looks and answers like the maze game: walls are joined (autotiled)
sprites, **F** is fog of war (only what the player has seen is drawn),
**?** lists the keys, and Esc closes the overlay first, then asks before
it quits (:mod:`demo.keys`).

Drawing goes through :class:`mazeplugin.pg.WorldView` (chunk surfaces cached,
the chunks ahead prepared one step per frame) and walking through its
``move_rect``; the camera (:class:`mazeplugin.pg.EndlessCamera`) is never
clamped. ``--frames``/``--script`` runs work as in the maze game.

The pieces: :class:`EndlessSwitch` (the add-on that adds ``--endless``,
``--chunk`` and the E key to the maze game) and :class:`Endless` (this
mode, run by :func:`demo.modes.run`).
"""

from __future__ import annotations

import argparse
import math
from typing import Dict, List, Optional, Set, Tuple

import numpy as np
import pygame
from numpy.typing import NDArray

import mazeplugin as mp
import mazeplugin.pg as mpg
from mazeplugin.seeds import resolve_seed

from .addon_api import Addon, Binding, Host
from .keys import HELP_KEYS, MOVE_KEYS, QUIT_ASK, EscToQuit
from .options import endless_options
from .script import KeyScript
from .view import HUD_ACCENT, HUD_BACK, HUD_BOTTOM, HUD_DIM, HUD_TOP, MARGIN, PALETTE, PLAYER, PLAYER_EDGE, Hud, floor_image

SPEED = 7.0
"""Tiles per second the player walks."""
TREASURE = 2
"""Treasure per chunk."""
CHUNK_SURFACES = 40
"""Chunk surfaces the view keeps (what a big window shows, plus a ring ahead)."""
SIGHT = 48
"""How far along a corridor the player sees, in tiles (the endless world has no far wall)."""
SWITCH_KEY = pygame.K_e
FOG_KEY = pygame.K_f
Chunk = Tuple[int, int]

KEYS_HELP: List[Tuple[str, str, str]] = [
    ("Arrows/WASD", "move", "move"),
    ("F", "fog of war", "fog"),
    ("E", "back to the maze game", "maze"),
    ("?", "all keys", "keys"),
    ("Esc", "close / twice: quit", "quit"),
]
"""The ``?`` overlay's rows: (key, what it does, in short)."""


class EndlessSwitch(Addon):
    """In the maze game: ``--endless`` and ``--chunk``, and E to walk the endless world instead."""

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        self.bindings = (Binding((SWITCH_KEY,), "E", "endless world (E again: back)", self.switch, short="endless"),)

    add_arguments = staticmethod(endless_options)

    def switch(self) -> None:
        self.app.switch_mode("endless")


class Fog:
    """What the player has seen of an endless world: a boolean array per chunk, and fog surfaces to draw over the rest."""

    def __init__(self, world: mp.World, tile: int) -> None:
        self.world, self.tile = world, tile
        self.seen: Dict[Chunk, NDArray[np.bool_]] = {}
        self._surfaces: Dict[Chunk, pygame.Surface] = {}

    def _chunk_seen(self, chunk: Chunk) -> NDArray[np.bool_]:
        if chunk not in self.seen:
            _, _, w, h = self.world.chunk_rect(chunk)
            self.seen[chunk] = np.zeros((h, w), dtype=bool)
        return self.seen[chunk]

    def is_seen(self, tile: Tuple[int, int]) -> bool:
        chunk = self.world.chunk_of(tile)
        x0, y0, _, _ = self.world.chunk_rect(chunk)
        return bool(self._chunk_seen(chunk)[tile[1] - y0, tile[0] - x0])

    def mark(self, x0: int, y0: int, x1: int, y1: int) -> None:
        """Tiles ``x0 <= x < x1``, ``y0 <= y < y1`` are seen."""
        for chunk in self.world.chunks(x0, y0, x1, y1):
            cx, cy, w, h = self.world.chunk_rect(chunk)
            seen = self._chunk_seen(chunk)
            area = seen[max(y0 - cy, 0) : min(y1 - cy, h), max(x0 - cx, 0) : min(x1 - cx, w)]
            if not area.all():
                area[...] = True
                self._surfaces.pop(chunk, None)

    def reveal(self, x: int, y: int) -> None:
        """Mark what the player at tile ``(x, y)`` sees: along the four corridors from it, and beside them."""
        tiles = self.world.tiles(x - SIGHT, y - SIGHT, x + SIGHT + 1, y + SIGHT + 1)
        cx = cy = SIGHT
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            n = 0
            while n < SIGHT and tiles[cy + (n + 1) * dy, cx + (n + 1) * dx] == mp.FLOOR:
                n += 1
            ex, ey = x + n * dx, y + n * dy
            self.mark(min(x, ex) - 1, min(y, ey) - 1, max(x, ex) + 2, max(y, ey) + 2)

    def surface(self, chunk: Chunk) -> pygame.Surface:
        """The fog over ``chunk``: fog colour on unseen tiles, see-through on seen ones."""
        image = self._surfaces.get(chunk)
        if image is None:
            seen = self._chunk_seen(chunk)
            rgb = np.empty((*seen.shape, 3), dtype=np.uint8)
            rgb[...] = PALETTE.fog
            rgb[seen] = (255, 0, 255)  # the colour key: drawn as nothing
            small = pygame.surfarray.make_surface(np.ascontiguousarray(rgb.swapaxes(0, 1)))
            image = pygame.transform.scale(small, (seen.shape[1] * self.tile, seen.shape[0] * self.tile))
            image.set_colorkey((255, 0, 255))
            if len(self._surfaces) > CHUNK_SURFACES:
                self._surfaces.clear()
            self._surfaces[chunk] = image
        return image


class Endless:
    """The endless mode's window, world, player, HUD and loop; ``tick`` runs one frame."""

    @classmethod
    def again(cls, options: argparse.Namespace) -> "Endless":
        """The endless mode for E: without ``--seed``, the world made the first time, not a fresh one each time."""
        seed = options.seed if options.seed is not None else getattr(options, "endless_seed", None)
        endless = cls(argparse.Namespace(**{**vars(options), "seed": seed}))
        options.endless_seed = endless.world.seed
        return endless

    def __init__(self, options: argparse.Namespace) -> None:
        pygame.display.init()
        pygame.font.init()
        self.screen = pygame.display.get_surface() or pygame.display.set_mode(options.window, pygame.RESIZABLE)
        self.tile = options.tile
        algorithm = options.algorithm
        if options.code is not None:
            algorithm = options.code[0]
        seed = resolve_seed(options.seed)
        self.world = mp.World(algorithm, seed=seed, chunk=options.chunk, treasure=TREASURE)
        self.view = mpg.WorldView(
            self.world, tile=self.tile, palette=PALETTE, cache=CHUNK_SURFACES,
            floor=floor_image(self.tile), wall_set=mpg.simple_wall_set(self.tile, PALETTE),
        )
        self.camera = mpg.EndlessCamera(self._view_size())
        side = max(2, round(self.tile * 0.6))
        self.player = pygame.FRect(0, 0, side, side) if hasattr(pygame, "FRect") else pygame.Rect(0, 0, side, side)
        self.player.center = mpg.tile_to_pixel(self.world.spawn, self.tile)
        self.camera.follow(self.player.center)
        self.taken: Set[Tuple[Tuple[int, int], int]] = set()
        self.held: List[int] = []
        self.script = KeyScript(options.script)
        self.fog = options.fog
        self.fogged = Fog(self.world, self.tile)
        self._last_tile = self.player_tile
        self.fogged.reveal(*self._last_tile)
        self.show_keys = False
        self.esc = EscToQuit()
        self.hud = Hud()
        self.running = True
        self.switch_to: Optional[str] = None
        self.frames = 0
        self.fps = 0.0
        pygame.display.set_caption(f"mazeplugin demo — endless {algorithm} world, seed {seed}")

    # -- geometry ------------------------------------------------------------

    def _view_size(self) -> Tuple[int, int]:
        width, height = self.screen.get_size()
        return (max(width, 1), max(height - HUD_TOP - HUD_BOTTOM, 1))

    @property
    def player_tile(self) -> Tuple[int, int]:
        return mpg.pixel_to_tile(self.player.center, self.tile)

    # -- input ---------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            self._key_down(event.key)
        elif event.type == pygame.KEYUP and event.key in self.held:
            self.held.remove(event.key)
        elif event.type == pygame.WINDOWFOCUSLOST:
            self.held.clear()

    def _key_down(self, key: int) -> None:
        if key == pygame.K_ESCAPE:
            if self.show_keys:
                self.show_keys = False  # Esc closes the overlay first
            elif self.esc.press():
                self.running = False
            return
        self.esc.cancel()
        if key in HELP_KEYS:
            self.show_keys = not self.show_keys
        elif key == SWITCH_KEY:
            self.switch_to, self.running = "maze", False
        elif key == FOG_KEY:
            self.fog = not self.fog
        elif key in MOVE_KEYS:
            if key in self.held:
                self.held.remove(key)
            self.held.append(key)

    # -- rules ---------------------------------------------------------------

    def walk(self, dt: float) -> None:
        """Move the held way; the other axis eases to the middle of its lane, so turns need no aim."""
        if not self.held:
            return
        dx, dy = MOVE_KEYS[self.held[-1]]
        step = SPEED * self.tile * dt
        cx, cy = self.player.center
        lane_x, lane_y = mpg.tile_to_pixel(self.player_tile, self.tile)
        ax = 0.0 if dx else max(-step, min(step, lane_x - cx))
        ay = 0.0 if dy else max(-step, min(step, lane_y - cy))
        self.player = self.view.move_rect(self.player, dx * step + ax, dy * step + ay)

    def collect(self) -> None:
        """Pick up the treasure under the player."""
        x0, y0 = mpg.pixel_to_tile(self.player.topleft, self.tile)
        x1, y1 = mpg.pixel_to_tile((self.player.right - 1, self.player.bottom - 1), self.tile)
        for thing in self.world.things(x0, y0, x1 + 1, y1 + 1):
            self.taken.add((thing.props["chunk"], thing.id))

    def tick(self, dt: float) -> None:
        """One frame: events, walking, treasure, what is seen, camera, drawing."""
        self.script.play()
        for event in pygame.event.get():
            self.handle(event)
            if not self.running:
                return
        self.esc.tick(dt)
        self.walk(dt)
        self.collect()
        tile = self.player_tile
        if tile != self._last_tile:
            self._last_tile = tile
            self.fogged.reveal(*tile)
        if self.camera.view_size != self._view_size():
            self.camera.resize(self._view_size())
        self.camera.follow(self.player.center, smoothing=min(1.0, 1.0 - math.exp(-dt / 0.084)))
        self.draw()
        self.frames += 1

    # -- drawing -------------------------------------------------------------

    def _draw_fog(self, map_area: pygame.Surface, offset: Tuple[int, int]) -> None:
        ox, oy = (int(v) for v in offset)
        view = pygame.Rect(-ox, -oy, *map_area.get_size())
        for chunk in self.view.visible_chunks(view):
            x, y, _, _ = self.world.chunk_rect(chunk)
            map_area.blit(self.fogged.surface(chunk), (x * self.tile + ox, y * self.tile + oy))

    def draw(self) -> None:
        screen = self.screen
        screen.fill(PALETTE.fog)
        width, height = screen.get_size()
        map_area = screen.subsurface(pygame.Rect(0, HUD_TOP, width, max(1, height - HUD_TOP - HUD_BOTTOM)))
        offset = self.camera.offset
        self.view.draw(map_area, offset)
        self.view.draw_things(map_area, offset, taken=self.taken)
        if self.fog:
            self._draw_fog(map_area, offset)
        centre = self.camera.to_screen(self.player.center)
        radius = max(2, int(self.player.width) // 2)
        pygame.draw.circle(map_area, PLAYER_EDGE, centre, radius + 1)
        pygame.draw.circle(map_area, PLAYER, centre, radius)
        self._draw_hud(screen)
        pygame.display.flip()

    def _draw_hud(self, screen: pygame.Surface) -> None:
        hud = self.hud
        hud.placed = []
        width, height = screen.get_size()
        pygame.draw.rect(screen, HUD_BACK, (0, 0, width, HUD_TOP))
        pygame.draw.rect(screen, HUD_BACK, (0, height - HUD_BOTTOM, width, HUD_BOTTOM))
        x, y = self.player_tile
        i, j = self.world.chunk_of((x, y))
        flags = "   FOG" if self.fog else ""
        tops = [
            f"ENDLESS   tile {x}, {y}   chunk {i}, {j}   treasure {len(self.taken)}{flags}",
            f"tile {x}, {y}   chunk {i}, {j}   treasure {len(self.taken)}",
            f"{x}, {y}   treasure {len(self.taken)}",
        ]
        top = next((t for t in tops if hud.fonts[1].size(t)[0] <= width - 2 * MARGIN), tops[-1])
        rect = hud.blit(screen, top, 1, HUD_ACCENT if top is tops[0] else HUD_DIM, midleft=(MARGIN, HUD_TOP // 2))
        right = f"{self.world.algorithm} · seed {self.world.seed}"
        if rect.right + 20 + hud.fonts[1].size(right)[0] <= width - MARGIN:
            hud.blit(screen, right, 1, HUD_DIM, midright=(width - MARGIN, HUD_TOP // 2))
        lines = ["Arrows/WASD move   F fog   E maze game   ? keys   Esc quit", "Arrows move  F fog  E maze  ? keys  Esc quit"]
        line = next((t for t in lines if hud.fonts[0].size(t)[0] <= width - 2 * MARGIN), lines[-1])
        hud.blit(screen, line, 0, HUD_DIM, midleft=(MARGIN, height - HUD_BOTTOM // 2))
        if self.show_keys:
            hud.keys_overlay(screen, KEYS_HELP)
        if self.esc.asking:
            hud.toast(screen, QUIT_ASK)

    def status(self) -> str:
        """One line about where the walk is, printed on exit (:func:`demo.modes.run` adds the frame times)."""
        x, y = self.player_tile
        i, j = self.world.chunk_of((x, y))
        return (
            f"endless {self.world.algorithm} seed {self.world.seed} player {x},{y} chunk {i},{j} "
            f"treasure {len(self.taken)} frames {self.frames}"
        )

    def screenshot(self, path: str) -> None:
        pygame.image.save(self.screen, path)
