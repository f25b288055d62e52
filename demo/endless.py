"""Endless mode: walk an endless world (:class:`mazeplugin.World`) from its spawn, forever.

``python -m demo --endless`` starts in it; **E** switches between the maze
game and the endless world (each starts afresh from its options). The world
is the ``--algorithm`` maze in chunks of ``--chunk`` cells (default 16x16),
seeded by ``--seed``, with treasure in every chunk to collect. The HUD shows
the player's tile, its chunk and the treasure collected.

Drawing goes through :class:`mazeplugin.pg.WorldView` (chunk surfaces cached,
the chunks ahead prepared one step per frame) and walking through its
``move_rect``; the camera (:class:`mazeplugin.pg.EndlessCamera`) is never
clamped. ``--frames``/``--keys`` runs work as in the maze game, and the exit
line of either mode ends with the median and worst frame time (:func:`run`
times every frame).

The pieces the app uses: :class:`EndlessSwitch` (the addon that adds
``--endless``, ``--chunk`` and the E key to the maze game), :class:`Endless`
(this mode's window loop) and :func:`run`, which runs one mode after the
other as E switches, within the ``--frames`` budget.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from typing import TYPE_CHECKING, List, Optional, Set, Tuple, Union

import pygame

import mazeplugin as mp
import mazeplugin.pg as mpg
from mazeplugin.codes import parse_size
from mazeplugin.seeds import resolve_seed

from .addons import Addon, Binding
from .frametimes import FrameTimes
from .view import HUD_ACCENT, HUD_BACK, HUD_BOTTOM, HUD_DIM, HUD_TEXT, HUD_TOP, PALETTE, PLAYER, PLAYER_EDGE

if TYPE_CHECKING:  # pragma: no cover
    from .app import App

FPS = 60
SPEED = 7.0
"""Tiles per second the player walks."""
TREASURE = 2
"""Treasure per chunk."""
CHUNK_SURFACES = 40
"""Chunk surfaces the view keeps (what a big window shows, plus a ring ahead)."""
SWITCH_KEY = pygame.K_e

MOVES = {
    pygame.K_UP: (0, -1), pygame.K_w: (0, -1),
    pygame.K_RIGHT: (1, 0), pygame.K_d: (1, 0),
    pygame.K_DOWN: (0, 1), pygame.K_s: (0, 1),
    pygame.K_LEFT: (-1, 0), pygame.K_a: (-1, 0),
}


def _chunk(text: str) -> Tuple[int, int]:
    """``--chunk``: ``WxH`` or ``N`` cells, each from 2 to 128."""
    size = parse_size(text)
    if size is None or not all(2 <= n <= 128 for n in size):
        raise argparse.ArgumentTypeError(f"chunk must be WxH cells, each from 2 to 128, like 16x16; got {text!r}")
    return size


class EndlessSwitch(Addon):
    """In the maze game: ``--endless`` and ``--chunk``, and E to walk the endless world instead."""

    def __init__(self, app: "App") -> None:
        super().__init__(app)
        self.bindings = (Binding((SWITCH_KEY,), "E", "endless world (E again: back)", self.switch, short="endless"),)

    @staticmethod
    def add_arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--endless", action="store_true",
                            help="walk an endless world from its spawn (E switches between it and the maze game)")
        parser.add_argument("--chunk", type=_chunk, default=(16, 16), metavar="WxH",
                            help="endless world: chunk size in cells (default 16x16)")

    def switch(self) -> None:
        self.app.switch_to = "endless"  # type: ignore[attr-defined]
        self.app.running = False


class Endless:
    """The endless mode's window, world, player, HUD and loop; ``tick`` runs one frame."""

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
        self.view = mpg.WorldView(self.world, tile=self.tile, palette=PALETTE, cache=CHUNK_SURFACES)
        self.camera = mpg.EndlessCamera(self._view_size())
        side = max(2, round(self.tile * 0.6))
        self.player = pygame.FRect(0, 0, side, side) if hasattr(pygame, "FRect") else pygame.Rect(0, 0, side, side)
        self.player.center = mpg.tile_to_pixel(self.world.spawn, self.tile)
        self.camera.follow(self.player.center)
        self.taken: Set[Tuple[Tuple[int, int], int]] = set()
        self.held: List[int] = []
        self.script = list(options.keys)
        self.script_key: Optional[int] = None
        self.script_left = 0
        self.running = True
        self.switch_to: Optional[str] = None
        self.frames = 0
        self.fps = 0.0
        self.font = pygame.font.Font(None, 22)
        pygame.display.set_caption(f"mazeplugin demo — endless {algorithm} world, seed {seed}")

    # -- geometry ------------------------------------------------------------

    def _view_size(self) -> Tuple[int, int]:
        width, height = self.screen.get_size()
        return (max(width, 1), max(height - HUD_TOP - HUD_BOTTOM, 1))

    @property
    def player_tile(self) -> Tuple[int, int]:
        return mpg.pixel_to_tile(self.player.center, self.tile)

    # -- input ---------------------------------------------------------------

    def _play_script(self) -> None:
        """Post the scripted key events due this frame, as a keyboard would (like the maze game)."""
        if self.script_left == 0:
            if self.script_key is not None:
                pygame.event.post(pygame.event.Event(pygame.KEYUP, key=self.script_key, mod=0, unicode="", scancode=0))
                self.script_key = None
            if not self.script:
                return
            self.script_key, self.script_left = self.script.pop(0)
            if self.script_key is not None:
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=self.script_key, mod=0, unicode="", scancode=0))
        self.script_left -= 1

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.running = False
            elif event.key == SWITCH_KEY:
                self.switch_to, self.running = "maze", False
            elif event.key in MOVES:
                if event.key in self.held:
                    self.held.remove(event.key)
                self.held.append(event.key)
        elif event.type == pygame.KEYUP and event.key in self.held:
            self.held.remove(event.key)
        elif event.type == pygame.WINDOWFOCUSLOST:
            self.held.clear()

    # -- rules ---------------------------------------------------------------

    def walk(self, dt: float) -> None:
        """Move the held way; the other axis eases to the middle of its lane, so turns need no aim."""
        if not self.held:
            return
        dx, dy = MOVES[self.held[-1]]
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
        """One frame: events, walking, treasure, camera, drawing."""
        self._play_script()
        for event in pygame.event.get():
            self.handle(event)
            if not self.running:
                return
        self.walk(dt)
        self.collect()
        if self.camera.view_size != self._view_size():
            self.camera.resize(self._view_size())
        self.camera.follow(self.player.center, smoothing=min(1.0, 1.0 - math.exp(-dt / 0.084)))
        self.draw()
        self.frames += 1

    # -- drawing -------------------------------------------------------------

    def draw(self) -> None:
        screen = self.screen
        screen.fill(PALETTE.fog)
        width, height = screen.get_size()
        map_area = screen.subsurface(pygame.Rect(0, HUD_TOP, width, max(1, height - HUD_TOP - HUD_BOTTOM)))
        offset = self.camera.offset
        self.view.draw(map_area, offset)
        self.view.draw_things(map_area, offset, taken=self.taken)
        centre = self.camera.to_screen(self.player.center)
        radius = max(2, int(self.player.width) // 2)
        pygame.draw.circle(map_area, PLAYER_EDGE, centre, radius + 1)
        pygame.draw.circle(map_area, PLAYER, centre, radius)
        pygame.draw.rect(screen, HUD_BACK, (0, 0, width, HUD_TOP))
        pygame.draw.rect(screen, HUD_BACK, (0, height - HUD_BOTTOM, width, HUD_BOTTOM))
        x, y = self.player_tile
        i, j = self.world.chunk_of((x, y))
        top = f"ENDLESS  tile {x}, {y}  chunk {i}, {j}  treasure {len(self.taken)}"
        screen.blit(self.font.render(top, True, HUD_TEXT), (10, 9))
        right = self.font.render(f"{self.world.algorithm} · seed {self.world.seed}", True, HUD_ACCENT)
        if 10 + self.font.size(top)[0] + 20 + right.get_width() <= width - 10:
            screen.blit(right, (width - 10 - right.get_width(), 9))
        keys = self.font.render("Arrows/WASD move   E maze game   Esc quit", True, HUD_DIM)
        screen.blit(keys, (10, height - HUD_BOTTOM + 5))
        pygame.display.flip()

    def status(self) -> str:
        """One line about where the walk is, printed on exit (:func:`run` adds the frame times)."""
        x, y = self.player_tile
        i, j = self.world.chunk_of((x, y))
        return (
            f"endless {self.world.algorithm} seed {self.world.seed} player {x},{y} chunk {i},{j} "
            f"treasure {len(self.taken)} frames {self.frames}"
        )

    def screenshot(self, path: str) -> None:
        pygame.image.save(self.screen, path)


Mode = Union["App", Endless]


def start(options: argparse.Namespace, maze: "type[App]") -> Mode:
    """The first mode: the endless world with ``--endless``, else the maze game."""
    return Endless(options) if options.endless else maze(options)


def run(app: Mode, options: argparse.Namespace, maze: "type[App]") -> Tuple[Mode, FrameTimes]:
    """Run ``app``, then the other mode each time E switches, until quit, Ctrl-C or ``--frames`` frames in all.

    Frames are paced at 60 fps in a window (a stalled frame counts as at most
    1/20 s of play) and are exactly 1/60 s each headless or with ``--frames``.
    Returns the mode running at the end and the time every frame took (its
    work: events, rules, drawing; not the wait for the next frame).
    """
    frames = options.frames
    times = FrameTimes()
    used = 0
    clock = pygame.time.Clock()
    real_time = os.environ.get("SDL_VIDEODRIVER") != "dummy"
    try:
        while True:
            while app.running and (frames is None or used < frames):
                dt = 1 / FPS
                if real_time:
                    elapsed = clock.tick(FPS) / 1000
                    app.fps = clock.get_fps()
                    if frames is None:
                        dt = min(elapsed, 0.05)
                start = time.perf_counter()
                before = app.frames
                app.tick(dt)
                if app.frames > before:
                    times.add(time.perf_counter() - start)
                    used += 1
            target = getattr(app, "switch_to", None)
            if target is None or (frames is not None and used >= frames):
                return app, times
            script = (app.script, app.script_key, app.script_left)
            app = Endless(options) if target == "endless" else maze(options)
            app.script, app.script_key, app.script_left = script
    except KeyboardInterrupt:
        return app, times
