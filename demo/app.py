"""The demo's window, event loop and exit line: the maze game as one :class:`App`.

``python -m demo`` or ``mazeplugin-demo``; ``--help`` lists the options
(:mod:`demo.options`). With ``--frames N`` it runs N frames (at a fixed
1/60 s each, so a run is reproducible) and stops; that is headless (SDL's
dummy video driver and silent dummy audio) unless ``SDL_VIDEODRIVER`` is
set, and ``--screenshot out.png`` saves the last frame. Input can be
scripted with ``--script`` (posted as ordinary key events) or left to
``--autoplay``. Without a display (and no driver chosen) it says so and
exits with status 1 instead of running invisibly.

Where things go: the command line in :mod:`demo.options`, the keys in
:meth:`App.bindings`, and features of their own (minimap, content, worlds,
...) as add-ons (:mod:`demo.addon_api`), listed in :mod:`demo.addons`,
which add options, keys, drawing and per-frame updates without touching this
file. The app knows the add-ons through that list; they know the app only
as a :class:`demo.addon_api.Host`.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import sys
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Type, TypeVar

import pygame

import mazeplugin.pg as mpg

from . import modes, options as command_line
from .addon_api import Addon, Binding
from .addons import addon_classes
from .endless import Endless
from .game import Direction, Game
from .gridplay import GRID_MOVES, GridGame, GridSwitch, GridView
from .keys import GRID_KEYS, HELP_KEYS, MOVE_KEYS, QUIT_ASK, REPEAT_DELAY, EscToQuit, key_lines, repeats  # noqa: F401
from .options import SCRIPT_ALIASES, script_key  # noqa: F401 - read from here too
from .script import KeyScript
from .sound import EFFECTS, Sounds
from .view import HUD_BOTTOM, HUD_TOP, PALETTE, PLAYER, PLAYER_EDGE, Hud, HudState, MapView

FPS = modes.FPS
CAMERA_LAG = 0.084
"""Seconds for the camera to close 63% of the way to the player (1 - 1/e): the same easing at any frame rate."""

PLUS_KEYS = {pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS}
MINUS_KEYS = {pygame.K_MINUS, pygame.K_KP_MINUS, pygame.K_UNDERSCORE}
ENTER_KEYS = {pygame.K_RETURN, pygame.K_KP_ENTER}
REPEATING_KEYS = {pygame.K_n} | PLUS_KEYS | MINUS_KEYS
NO_DISPLAY = (
    "mazeplugin-demo: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset); "
    "run it in a desktop session, or headless with --frames N (or SDL_VIDEODRIVER=dummy)"
)


def build_parser() -> argparse.ArgumentParser:
    """The demo's command line, with the options of every add-on in :func:`demo.addons.addon_classes`."""
    return command_line.build_parser([addon.add_arguments for addon in addon_classes()])


AddonT = TypeVar("AddonT", bound=Addon)


class App:
    """The window, the game, the view, the sound and the addons; ``tick`` runs one frame."""

    def __init__(self, options: argparse.Namespace) -> None:
        pygame.display.init()
        pygame.font.init()
        self.screen = pygame.display.set_mode(options.window, pygame.RESIZABLE)
        content = None
        if options.code is not None:
            algorithm, width, height, seed = options.code
            content = {k: v for k, v in options.code.content.items() if k != "wrap"}  # a code's +k2t5e3 (demo.gridplay
            # plays a code's wrap)
        else:
            algorithm, (width, height), seed = options.algorithm, options.size, options.seed
        self.tile = options.tile
        self.game = Game(algorithm, width, height, seed, tile=self.tile, content=content)
        self.game.fog = options.fog
        self.game.show_solution = options.solution
        self.autoplay = options.autoplay
        self.view = MapView(self.tile)
        self.hud = Hud()
        self.sounds = Sounds(muted=options.mute)
        self.addons: List[Addon] = []
        self.camera = mpg.Camera(self._view_size(), self._world_size())
        self.camera_version = self.game.version
        self.held: List[int] = []  # movement keys held, latest last
        self.repeating: Dict[int, float] = {}  # N/+/- key -> seconds held
        self.prompt: Optional[str] = None  # the level code being typed
        self.paused = False
        self.show_keys = False  # the "?" overlay
        self.script = KeyScript(options.script)  # scripted (key, frames) still to play
        self.esc = EscToQuit()
        self.stop_after = getattr(options, "levels", None)  # --levels N: stop once N levels are finished
        self.running = True
        self.switch_to: Optional[str] = None  # the mode to run next (E: "endless"), set by switch_mode
        self.clock = pygame.time.Clock()
        self.fps = 0.0
        self.frames = 0
        self._title = ""
        for cls in addon_classes():
            addon = cls.create(self, options)
            if addon is not None:
                self.addons.append(addon)
        self.keymap: Dict[int, Binding] = {}
        for binding in self.bindings():
            for key in binding.keys:
                self.keymap.setdefault(key, binding)
        self.game.events.clear()
        for addon in self.addons:
            addon.on_level()
        self.game.make_ahead()  # after the add-ons: they choose how levels are made
        self._follow(snap=True)
        # Grid levels (T, --grid, --wrap): played by demo.gridplay while the square game waits.
        self.grids = GridSwitch(GridView(PALETTE, PLAYER, PLAYER_EDGE), getattr(options, "grid", None),
                                getattr(options, "wrap", None), options.code, getattr(options, "level", None))
        self.grids.start(self.game)
        # What start-up made (numpy, pygame, the library, the sounds) lives as long as the game: keep it
        # out of the collector's full passes, which otherwise stall a frame for some 60 ms now and then.
        gc.freeze()

    def addon(self, cls: Type[AddonT]) -> Optional[AddonT]:
        """The running addon of class ``cls``, if it is on."""
        for addon in self.addons:
            if isinstance(addon, cls):
                return addon
        return None

    # -- keys --------------------------------------------------------------------

    def bindings(self) -> List[Binding]:
        """Every key but movement: the app's own, then each addon's. Help lines and the ``?`` overlay list them."""
        game = self.game
        own = [
            Binding((pygame.K_r,), "R", "restart (same maze)", game.regenerate, short="restart"),
            Binding((pygame.K_n,), "N", "new seed (hold: flick through)", game.new_seed, short="new"),
            Binding((pygame.K_g,), "G", "next generator", game.cycle_algorithm, short="gen"),
            Binding((pygame.K_h,), "H", "solution path", self._toggle(self._toggle_solution), short="path"),
            Binding((pygame.K_t,), "T", "grid: square, hex, triangle, polar, wrap", self.cycle_grid, short="grid"),
            Binding(tuple(PLUS_KEYS), "+", "larger level", lambda: game.change_size(2)),
            Binding(tuple(MINUS_KEYS), "-", "smaller level", lambda: game.change_size(-2)),
            Binding((pygame.K_f,), "F", "fog of war", self._toggle(game.toggle_fog), short="fog"),
            Binding((pygame.K_p,), "P", "pause (clock stops)", self.toggle_pause, short="pause"),
            Binding((pygame.K_m,), "M", "sound on/off", self.toggle_mute, short="mute"),
            Binding(tuple(ENTER_KEYS), "Enter", "type a level code", self.open_prompt, short="code"),
        ]
        extra = [binding for addon in self.addons for binding in addon.bindings]
        last = [
            Binding(HELP_KEYS, "?", "all keys", self.toggle_keys, short="keys"),
            Binding((pygame.K_ESCAPE,), "Esc", "close / twice: quit", self.escape, short="quit"),
        ]
        return own + extra + last

    def help_lines(self) -> List[str]:
        """Key lines for the bottom bar, longest first (:func:`demo.keys.key_lines`); on a grid level
        only the keys that work there."""
        return key_lines([b for b in self.bindings() if self.grid_game is None or b.label in self.grids.GRID_LABELS])

    def _toggle(self, action: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            action()
            self.sounds.play("toggle")

        return run

    @property
    def grid_game(self) -> Optional[GridGame]:
        """The grid level's game (hex, triangle, polar, wrap), or None on a square level."""
        return self.grids.game

    @property
    def active(self) -> "Game | GridGame":
        """The game being played: the grid game on a grid level, else the square one."""
        return self.grids.game if self.grids.game is not None else self.game

    def _toggle_solution(self) -> None:
        self.active.toggle_solution()

    def cycle_grid(self) -> None:
        """T: the next grid (square, hex, triangle, polar, wrap xy; :meth:`demo.gridplay.GridSwitch.cycle`)."""
        self.grids.cycle(self.game)
        self.held.clear()
        self.sounds.play("toggle")

    def toggle_pause(self) -> None:
        """P: freeze the game and its clock, or carry on."""
        self.paused = not self.paused
        self.held.clear()

    def toggle_mute(self) -> None:
        """M: sound off or on."""
        self.sounds.toggle_mute()
        self.active.say("Sound off" if self.sounds.muted else "Sound on")

    def toggle_keys(self) -> None:
        """?: show or hide every key."""
        self.show_keys = not self.show_keys

    def open_prompt(self) -> None:
        """Enter: start typing a level code (the clock stops until it is played or cancelled)."""
        self.prompt = ""
        self.held.clear()
        pygame.key.start_text_input()

    def escape(self) -> None:
        """Esc in play (nothing open): the first press asks, a second within two seconds quits."""
        if self.esc.press():
            self.quit()
        else:
            self.active.say(QUIT_ASK)

    def quit(self) -> None:
        """Stop the loop at the end of this frame."""
        self.running = False

    def switch_mode(self, name: str) -> None:
        """Leave the maze game for another mode (``"endless"``) at the end of this frame."""
        self.switch_to = name
        self.running = False

    # -- geometry ----------------------------------------------------------------

    def _view_size(self) -> Tuple[int, int]:
        width, height = self.screen.get_size()
        height = max(height - HUD_TOP - HUD_BOTTOM, 1)
        world = self._world_size()
        panel = sum(addon.side_panel((width, height), world) for addon in self.addons)
        return (max(width - panel, 1), height)

    def view_rect(self) -> pygame.Rect:
        """Where the map is drawn on the screen: between the HUD bars, left of any add-on's side panel."""
        width, height = self._view_size()
        return pygame.Rect(0, HUD_TOP, width, height)

    def _world_size(self) -> Tuple[int, int]:
        rows, columns = self.game.level.tiles.shape
        return (columns * self.tile, rows * self.tile)

    def _follow(self, dt: float = 1 / FPS, *, snap: bool = False) -> None:
        """Ease the camera towards the player: the same path over the same time at any frame rate."""
        if self.camera.view_size != self._view_size():
            self.camera.resize(self._view_size())
        if self.camera_version != self.game.version:
            self.camera.set_world(self._world_size())
            self.camera_version = self.game.version
            snap = True
        smoothing = 1.0 if snap else min(1.0, max(1e-6, 1.0 - math.exp(-dt / CAMERA_LAG)))
        self.camera.follow(self.game.rect.center, smoothing=smoothing)

    # -- input -------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        """React to one pygame event."""
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            self._key_down(event.key)
        elif event.type == pygame.KEYUP:
            if event.key in self.held:
                self.held.remove(event.key)
            self.repeating.pop(event.key, None)
        elif event.type == pygame.TEXTINPUT and self.prompt is not None:
            self.prompt = (self.prompt + event.text)[:80]
        elif event.type in (pygame.WINDOWFOCUSLOST,):
            self.held.clear()
            self.repeating.clear()

    def _key_down(self, key: int) -> None:
        game = self.game
        if self.prompt is not None:
            if key == pygame.K_ESCAPE:
                self._close_prompt()
            elif key in ENTER_KEYS:
                text = self.prompt
                self._close_prompt()
                if text.strip() and not self.grids.play_code(text, game):
                    game.enter_code(text)
            elif key == pygame.K_BACKSPACE:
                self.prompt = self.prompt[:-1]
            return
        if self.show_keys and (key == pygame.K_ESCAPE or key in HELP_KEYS):
            self.show_keys = False  # Esc closes the overlay rather than quitting
            return
        if key != pygame.K_ESCAPE and self.esc.asking:
            self.esc.cancel()  # any other key: play on
            if self.active.message == QUIT_ASK:
                self.active.message_left = 0.0
        if key in MOVE_KEYS or (self.grid_game is not None and key in GRID_KEYS):
            if key in self.held:
                self.held.remove(key)
            self.held.append(key)
            return
        binding = self.keymap.get(key)
        if binding is not None:
            (self.grids.action(binding.label, binding.help) or binding.action)()
            if key in REPEATING_KEYS:
                self.repeating[key] = 0.0

    def _close_prompt(self) -> None:
        self.prompt = None
        pygame.key.stop_text_input()

    def _repeat(self, dt: float) -> None:
        """Held N regenerates every frame, held +/- steps the size, after a short delay."""
        for key, held in list(self.repeating.items()):
            now = held + dt
            self.repeating[key] = now
            if key == pygame.K_n:
                if now >= REPEAT_DELAY:
                    self.active.new_seed()
                continue
            for _ in range(repeats(now) - repeats(held)):
                self.active.change_size(2 if key in PLUS_KEYS else -2)

    def direction(self) -> Optional[Direction]:
        """Where the player is pushing this frame: the latest held movement key, or the autopilot."""
        if self.held:
            return MOVE_KEYS[self.held[-1]]
        if self.autoplay:
            return self.game.autopilot()
        return None

    @property
    def frozen(self) -> bool:
        """Whether the game stands still: paused, or a level code being typed."""
        return self.paused or self.prompt is not None

    # -- frames ------------------------------------------------------------------

    def tick(self, dt: float) -> None:
        """One frame: events, rules, addons, sounds, camera, drawing."""
        self.script.play()
        for event in pygame.event.get():
            self.handle(event)
            if not self.running:
                return
        self.esc.tick(dt)
        self._repeat(dt)
        if self.grid_game is not None:
            self._grid_tick(dt)
            return
        if self.frozen:
            self.game.idle(dt)
        else:
            self.game.update(dt, self.direction())
            for addon in self.addons:
                addon.update(dt)
        self._events()
        self._follow(dt)
        self.draw()
        self.frames += 1
        if self.stop_after is not None and self.game.level_number > self.stop_after:
            self.running = False

    def _grid_tick(self, dt: float) -> None:
        """One frame on a grid level: the grid game moves, sounds play, the level is drawn (the add-ons,
        made for square tilemaps, wait)."""
        held = [MOVE_KEYS[k] if k in MOVE_KEYS else GRID_KEYS[k] for k in self.held]
        for name in self.grids.tick(dt, self.frozen, self.grids.direction(held, self.autoplay)):
            if name in EFFECTS:
                self.sounds.play(name)
        self.draw()
        self.frames += 1
        if self.stop_after is not None and self.active.level_number > self.stop_after:
            self.running = False

    def _events(self) -> None:
        """What the game reported this frame: sounds to play, and a new level for the addons."""
        events, self.game.events = self.game.events, []
        for name in events:
            if name == "level":
                for addon in self.addons:
                    addon.on_level()
            elif name in EFFECTS:
                self.sounds.play(name)

    def flags(self) -> List[str]:
        """Words beside the clock for what is switched on."""
        game = self.game
        if self.grid_game is not None:
            return self.grids.flags() + [name for name, on in (("PAUSED", self.paused), ("MUTED", self.sounds.muted)) if on]
        words = [name for name, on in (("FOG", game.fog), ("SOLUTION", game.show_solution), ("PAUSED", self.paused), ("MUTED", self.sounds.muted)) if on]
        return [word for addon in self.addons for word in addon.hud_flags()] + words  # the game's own first

    def draw(self) -> None:
        """Draw the whole frame and show it."""
        self.screen.fill(PALETTE.fog)
        if self.grid_game is not None:
            width, height = self.screen.get_size()
            self.grids.view.draw(self.screen, self.grid_game, pygame.Rect(0, HUD_TOP, width, max(1, height - HUD_TOP - HUD_BOTTOM)))
        else:
            offset = self.view.draw_map(self.screen, self.game, self.camera, HUD_TOP)
            for addon in self.addons:
                addon.draw_world(self.screen, offset)
            self.view.draw_player(self.screen, self.game, offset)
            view = self.view_rect()
            for addon in self.addons:
                addon.draw_overlay(self.screen, view)
        keys = [(b.label, b.help, b.short) for b in self.bindings()] if self.show_keys else []
        if keys:
            keys[:0] = [("Arrows/WASD", "move", "move")] + ([GRID_MOVES] if self.grid_game is not None else [])
        state = HudState(
            prompt=self.prompt, fps=self.fps, flags=self.flags(), help_lines=self.help_lines(),
            keys_overlay=keys, paused=self.paused,
        )
        self.hud.draw(self.screen, self.active, state)
        title = f"mazeplugin demo — {self.active.code}"
        if title != self._title:
            pygame.display.set_caption(title)
            self._title = title
        pygame.display.flip()

    def run(self, frames: Optional[int] = None) -> None:
        """Frames until Esc or the window closes, or ``frames`` frames (then each is 1/60 s)."""
        real_time = os.environ.get("SDL_VIDEODRIVER") != "dummy"
        while self.running and (frames is None or self.frames < frames):
            dt = 1 / FPS
            if real_time:
                elapsed = self.clock.tick(FPS) / 1000
                self.fps = self.clock.get_fps()
                if frames is None:
                    dt = min(elapsed, 0.05)  # a stalled frame must not fling the player
            self.tick(dt)

    def status(self) -> str:
        """One line about where the game is, printed on exit."""
        game = self.game
        if self.grid_game is not None:
            return self.grids.status(self.frames)
        return (
            f"level {game.level_number} code {game.code} player {game.player_tile[0]},{game.player_tile[1]} "
            f"moves {game.moves} frames {self.frames} time {game.elapsed:.2f}"
        )

    def screenshot(self, path: str) -> None:
        """Save the current frame (PNG or BMP, as the file name says)."""
        pygame.image.save(self.screen, path)


def has_display() -> bool:
    """Whether SDL can open a visible window: a driver was chosen, or (on X11/Wayland systems) a display is set.

    Windows and macOS always have their own; elsewhere, with neither
    ``DISPLAY`` nor ``WAYLAND_DISPLAY``, SDL would fall back to its
    offscreen driver and run invisibly.
    """
    if os.environ.get("SDL_VIDEODRIVER"):
        return True
    if sys.platform.startswith(("win", "darwin", "cygwin")) or sys.platform == "emscripten":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def make_mode(options: argparse.Namespace) -> Callable[[str], modes.Mode]:
    """The function :func:`demo.modes.run` makes each next mode with."""

    def make(name: str) -> modes.Mode:
        return Endless.again(options) if name == "endless" else App(options)

    return make


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the demo; returns the exit status (wrong options: one line on stderr, exit status 2; no display: 1)."""
    options = build_parser().parse_args(argv)
    if options.frames is not None:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    if not has_display():
        print(NO_DISPLAY, file=sys.stderr)
        return 1
    make = make_mode(options)
    try:
        app = make("endless" if options.endless else "maze")
    except pygame.error as error:
        print(f"mazeplugin-demo: cannot open a window: {error}", file=sys.stderr)
        return 1
    except (ValueError, TypeError) as error:
        print(f"mazeplugin-demo: {error}", file=sys.stderr)
        return 2
    if pygame.display.get_driver() == "offscreen" and os.environ.get("SDL_VIDEODRIVER") != "offscreen":
        print(NO_DISPLAY, file=sys.stderr)  # SDL found no display after all and fell back to drawing nowhere
        pygame.quit()
        return 1
    app, times = modes.run(app, options.frames, make)  # E switches between the maze game and the endless world
    status = 0
    if options.screenshot:
        try:
            app.screenshot(options.screenshot)
        except (pygame.error, OSError) as error:
            print(f"mazeplugin-demo: cannot save the screenshot to {options.screenshot!r}: {error}", file=sys.stderr)
            status = 1
    print(f"{app.status()} {times.summary()}")
    pygame.quit()
    return status
