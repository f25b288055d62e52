"""The demo on grids beyond the square: hex, triangle and polar levels, and a square level that wraps round.

A grid level (``mp.generate(..., grid=...)`` or ``wrap="xy"``) is a graph of
cells, not a tilemap, so it is played here by rules of its own: the player
stands on a cell and steps a whole cell at a time through an open passage
(:func:`mazeplugin.pg.grid_key_steps`: the eight directions of the arrow
keys, alone or two together, and the keypad's diagonals), gliding there
smoothly; reaching the exit cell wins. The level is drawn whole with
:func:`mazeplugin.pg.render`, scaled to fit the window, and the player
as a disc (:func:`mazeplugin.pg.draw_grid_player`).

:class:`GridGame` has the parts of :class:`demo.game.Game` the HUD reads
(``code``, ``level_number``, ``elapsed``, ``moves``, messages, the "level
complete" banner). The app (:mod:`demo.app`) switches to it with the grid key
and back; the square game waits meanwhile. What the grid cycles through is
:data:`CYCLE`: square → hex → triangle → polar → wrap xy → square.
The levels themselves are made by :mod:`demo.gridlevels` (the next one in
the worker process, :mod:`demo.ahead`, as on square levels), their keys,
doors, treasure and enemies are :mod:`demo.gridcontent`, and they are drawn
by :class:`demo.gridview.GridView`.
"""

from __future__ import annotations

import math
import os
from typing import Callable, Dict, List, Optional, Sequence, Tuple, cast


import mazeplugin as mp
import mazeplugin.pg as mpg
from mazeplugin.codes import LevelCode
from mazeplugin.seeds import Seed, resolve_seed

from .ahead import Ahead
from .content import counts as content_counts
from .game import Game as SquareGame
from .gridcontent import GridContent
from .gridlevels import (  # noqa: F401 - grid_size, GridRequest: read from here too
    FALLBACK, GridRequest, Topology, grid_size, level_name, make_grid_level, prepare_grid_level, runs_on,
    topology_name,
)
from .gridview import GridView
from .rules import MAX_GRID_SIDE, generators_after, next_seed, parse_code


CYCLE: Tuple[Topology, ...] = (("square", None), ("hex", None), ("triangle", None), ("polar", None), ("square", "xy"))
"""What the grid key steps through, in turn."""
GRIDS = ("square", "hex", "triangle", "polar")
WRAPS = ("x", "y", "xy")
STEPS_PER_SECOND = 7.5
"""Cells a second the player glides (the square game's speed in tiles)."""
COMPLETE_SECONDS = 1.8
MESSAGE_SECONDS = 3.0
DIRECTIONS: Tuple[Tuple[int, int], ...] = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
"""The eight ways the keys push, as screen vectors (y down): east, south-east, south, ... north-east."""
GRID_MOVES = ("Q E Z C, keypad", "diagonals (hex: Q E / A D / Z C are the six sides)", "diagonals")
"""The ``?`` overlay's row for the grid levels' extra movement keys (:data:`demo.keys.GRID_KEYS`)."""
ANGLES = [math.degrees(math.atan2(dy, dx)) % 360 for dx, dy in DIRECTIONS]


def code_topology(code: Optional[LevelCode]) -> Optional[Topology]:
    """The grid a code names, with its wrap (``wilson-hex12x8-7``: ``("hex", None)``; ``wilson-12x8-7+wrapxy``:
    ``("square", "xy")``), or None for a plain square code (the square game's) or no code.

    >>> code_topology(mp.parse_level_code("wilson-12x8-7+k1wrapx")), code_topology(mp.parse_level_code("wilson-12x8-7"))
    (('square', 'x'), None)
    """
    if code is None or (code.grid == "square" and "wrap" not in code.content):
        return None
    return code.grid, code.content.get("wrap")


def code_counts(code: LevelCode) -> Optional[Dict[str, int]]:
    """A code's content counts (``+k2t3``), without its wrap; None when it has none."""
    return {name: value for name, value in code.content.items() if name != "wrap"} or None


def next_topology(topology: Topology) -> Topology:
    """The one after ``topology`` in :data:`CYCLE` (the first after one not in it).

    >>> next_topology(("square", None)), next_topology(("square", "xy")), next_topology(("square", "x"))
    (('hex', None), ('square', None), ('square', None))
    """
    if topology in CYCLE:
        return CYCLE[(CYCLE.index(topology) + 1) % len(CYCLE)]
    return CYCLE[0]


def push(held: Sequence[Tuple[int, int]]) -> Optional[int]:
    """Which of :data:`DIRECTIONS` the movement keys held push (latest last): the latest key, turned
    diagonal by a perpendicular key held with it; None for nothing held.

    >>> push([]), push([(0, -1)]), push([(0, -1), (1, 0)]), push([(1, 0), (-1, 0)])
    (None, 6, 7, 4)
    """
    if not held:
        return None
    dx, dy = held[-1]
    for ox, oy in reversed(held[:-1]):
        if abs(dx) + abs(dy) == 1 == abs(ox) + abs(oy) and ox * dx + oy * dy == 0:  # up and right: north-east
            dx, dy = max(-1, min(1, dx + ox)), max(-1, min(1, dy + oy))
            break
    return DIRECTIONS.index((dx, dy))


class GridGame:
    """A grid level, the player on it (a cell, or gliding between two), its clock and moves."""

    def __init__(self, algorithm: str, width: int, height: int, seed: Optional[Seed], topology: Topology,
                 *, level_number: int = 1, exact: bool = False, content: Optional[Dict[str, int]] = None,
                 furnished: bool = False, ahead: bool = False,
                 file: Optional[Tuple[str, mp.Level]] = None) -> None:
        self.topology = topology
        self.ahead = Ahead(prepare_grid_level) if ahead else None  # makes the next level in the worker
        self.content = content  # a code's counts (every level of this game), or None
        self.furnished = furnished  # else content by level number, as on square levels (not with --no-content)
        self.exact = exact  # the size is the grid's own (a level code), not the square game's
        self.level_number = level_number
        self.show_solution = False
        self.message = ""
        self.message_left = 0.0
        self.version = 0
        self.waiting = False  # the HUD's banner asks; grid levels are made at once
        self.last_complete: Optional[Tuple[float, int]] = None
        self.events: List[str] = []
        self._steps: Optional[Tuple[Tuple[int, int], List[int]]] = None  # ((version, cell), steps) of the last cell asked
        self.level_file: Optional[str] = None  # the file the level came from (--level), until the next level
        if file is not None:
            path, level = file
            self._apply(level, algorithm, width, height, resolve_seed(seed))
            self.level_file, self.code = path, os.path.basename(path)
        else:
            self._load(algorithm, width, height, resolve_seed(seed))

    @classmethod
    def from_file(cls, path: str, level: mp.Level, *, ahead: bool = False, furnished: bool = False) -> "GridGame":
        """Play a level loaded from ``path`` (``--level``): R restarts it; N, G, +, - and the next
        level make new levels on its grid, from its generator (or :data:`FALLBACK` for a hand-drawn
        map), size and seed."""
        wrap = level.options.get("wrap")
        topology = (level.grid, wrap if isinstance(wrap, str) else None)
        algorithm = level.algorithm if runs_on(level.algorithm, *topology) else FALLBACK
        seed = level.seed if isinstance(level.seed, int) else None
        return cls(algorithm, level.width, level.height, seed, topology, exact=True, ahead=ahead, furnished=furnished, file=(path, level))

    # -- levels ------------------------------------------------------------------

    def _load(self, algorithm: str, width: int, height: int, seed: Seed) -> None:
        counts = self.content or (content_counts(self.level_number) if self.furnished else None)
        self._apply(make_grid_level(algorithm, width, height, seed, self.topology, self.exact, counts),
                    algorithm, width, height, seed)

    def _apply(self, level: mp.Level, algorithm: str, width: int, height: int, seed: Seed) -> None:
        self.algorithm, self.width, self.height, self.seed = algorithm, width, height, seed
        self.level = level
        self.level_file = None
        self.code = level_name(level)
        self.version += 1
        self.events.append("level")
        self.restart()

    def try_load(self, algorithm: str, width: int, height: int, seed: Optional[Seed]) -> bool:
        """Switch to that level; on bad input keep the current one and say why."""
        try:
            self._load(algorithm, width, height, resolve_seed(seed))
        except (ValueError, TypeError) as error:
            self.say(f"Cannot make that level: {error}")
            return False
        return True

    def restart(self) -> None:
        """The player back on the entrance cell: time and moves reset."""
        assert self.level.entrance_cell is not None and self.level.exit_cell is not None
        self.cell: int = self.level.entrance_cell
        self.target: Optional[int] = None  # the cell being glided to
        self.progress = 0.0
        self.moves = 0
        self.elapsed = 0.0
        self.started = False
        self.complete_left: Optional[float] = None
        self._to_exit = self.level.distances_cells(self.level.exit_cell)
        self.stuff = GridContent(self.level) if self.level.things else None  # keys, doors, treasure, enemies
        self._walk = self.level.solution_cells() if self.stuff is not None and self.stuff.doors else None
        self._walked = 0  # how far along _walk (the key-respecting solution) the player is

    def regenerate(self) -> None:
        """R: the same level again (the same generator, size, seed and grid), or its file's."""
        if self.level_file is not None:
            self.restart()
            self.say("Restarted " + self.code)
            return
        if self.try_load(self.algorithm, self.width, self.height, self.seed):
            self.say("Restarted " + self.code)

    def new_seed(self) -> None:
        """N: a new random seed, same grid, generator and size."""
        self.try_load(self.algorithm, self.width, self.height, None)

    def cycle_algorithm(self) -> None:
        """G: the next registered generator that takes this grid, same size and seed."""
        for name in generators_after(self.algorithm):
            if not runs_on(name, *self.topology):
                continue  # square-only (sidewinder, eller, division, ...)
            if self.try_load(name, self.width, self.height, self.seed):
                self.say(f"Generator: {name} on {topology_name(self.topology)}")
                return

    def change_size(self, delta: int) -> None:
        """+/-: ``delta`` cells wider and taller (2 to :data:`MAX_GRID_SIDE`), same generator and seed."""
        width = max(2, min(MAX_GRID_SIDE, self.width + delta))
        height = max(2, min(MAX_GRID_SIDE, self.height + delta))
        if (width, height) != (self.width, self.height):
            self.try_load(self.algorithm, width, height, self.seed)

    def next_request(self) -> GridRequest:
        """What the next level depends on (the arguments of :func:`prepare_grid_level`): the next seed, a
        little larger, on the same grid, with the next level number's content."""
        counts = self.content or (content_counts(self.level_number + 1) if self.furnished else None)
        return (self.algorithm, min(MAX_GRID_SIDE, self.width + 2), min(MAX_GRID_SIDE, self.height + 1),
                resolve_seed(next_seed(self.seed)), self.topology, self.exact, tuple(sorted((counts or {}).items())))

    def next_level(self) -> None:
        """The next level (:meth:`next_request`); with :attr:`ahead`, the one made in the worker, and while
        it is not ready nothing happens (:attr:`waiting`), so the frame loop never waits for it."""
        request = self.next_request()
        made: Optional[Tuple[bool, object]]
        if self.ahead is not None:
            made = self.ahead.take(request)
        else:
            try:
                made = (True, prepare_grid_level(request))
            except (ValueError, TypeError) as error:
                made = (False, error)
        self.waiting = made is None
        if made is None:
            return
        ok, value = made
        if not ok:
            if not isinstance(value, (ValueError, TypeError)):
                raise value  # type: ignore[misc]
            self.say(f"Cannot make that level: {value}")
            return
        self.level_number += 1
        self._apply(cast(mp.Level, value), *request[:4])  # (prepare_grid_level made it)

    def toggle_solution(self) -> None:
        """H: show or hide the shortest way from entrance to exit."""
        self.show_solution = not self.show_solution

    def say(self, text: str) -> None:
        """Show a short message."""
        self.message = text
        self.message_left = MESSAGE_SECONDS

    # -- moving ------------------------------------------------------------------

    @property
    def completed(self) -> bool:
        """Whether the "level complete" banner is showing."""
        return self.complete_left is not None

    def steps(self) -> List[int]:
        """Where each of :data:`DIRECTIONS` leads from the player's cell (the cell itself where walls stop it)."""
        if self._steps is None or self._steps[0] != (self.version, self.cell):
            self._steps = ((self.version, self.cell), mpg.grid_key_steps(self.level, self.cell, ANGLES))
        return self._steps[1]

    def autopilot(self) -> Optional[int]:
        """The direction (an index into :data:`DIRECTIONS`) one step nearer the exit, or None at the exit."""
        if self.target is not None:
            return None  # mid-step: the next one is chosen on arrival
        if self._walk is not None:  # locked doors: the walk to each key before its door
            nexts = [i for i in range(self._walked, len(self._walk) - 1) if self._walk[i] == self.cell]
            if not nexts or self._walk[nexts[0] + 1] not in self.steps():
                return None
            self._walked = nexts[0]
            return self.steps().index(self._walk[nexts[0] + 1])
        here = int(self._to_exit[self.cell])
        if here <= 0:
            return None
        for index, there in enumerate(self.steps()):
            if there != self.cell and self._to_exit[there] == here - 1:
                return index
        return None  # pragma: no cover - every passage has a key on the demo's grids

    def idle(self, dt: float) -> None:
        """``dt`` seconds with the game frozen: only messages fade."""
        if self.message_left > 0:
            self.message_left = max(0.0, self.message_left - dt)

    def update(self, dt: float, direction: Optional[int]) -> None:
        """``dt`` seconds of play with the player pushing ``direction`` (an index into :data:`DIRECTIONS`) or not."""
        self.idle(dt)
        if self.ahead is not None and (self.started or self.complete_left is not None):
            self.ahead.want(self.next_request())  # from the first step on; cheap when unchanged
        if self.complete_left is not None:
            self.complete_left -= dt
            if self.complete_left <= 0:
                self.next_level()
            return
        if self.started:
            self.elapsed += dt
        self._move(dt * STEPS_PER_SECOND, direction)
        if not self.completed:
            self._enemies(dt)

    def _move(self, left: float, direction: Optional[int]) -> None:
        """Glide ``left`` cells' worth, starting a step towards ``direction`` whenever one is done."""
        while left > 0:
            if self.target is None:
                if direction is None:
                    return
                there = self.steps()[direction]
                if there == self.cell:
                    return  # a wall
                if self.stuff is not None and self.stuff.locked(self.cell, there):
                    self.say("Locked: find its key first")
                    return
                self.target, self.progress = there, 0.0
                if not self.started:
                    self.started = True
            used = min(left, 1.0 - self.progress)
            self.progress += used
            left -= used
            if self.progress >= 1.0 - 1e-9:
                self._arrive()
                if self.completed:
                    return

    def _enemies(self, dt: float) -> None:
        """Enemies walk; meeting one sends the player back to the entrance (keys and treasure kept)."""
        stuff = self.stuff
        near = self.target if self.target is not None and self.progress >= 0.5 else self.cell
        if stuff is not None and stuff.meets(dt, near):
            assert self.level.entrance_cell is not None
            self.cell, self.target, self.progress, self._walked = self.level.entrance_cell, None, 0.0, 0
            stuff.caught += 1
            self.events.append("door")
            self.say("Caught! Back to the entrance (keys and treasure kept)")

    def _arrive(self) -> None:
        assert self.target is not None
        if self.stuff is not None:
            self.events += self.stuff.arrive(self.cell, self.target, self.say)
        self.cell, self.target, self.progress = self.target, None, 0.0
        self.moves += 1
        self.events.append("step")
        if self.cell == self.level.exit_cell:
            self.complete_left = COMPLETE_SECONDS
            self.last_complete = (self.elapsed, self.moves)
            self.events.append("exit")


class GridSwitch:
    """The app's grid levels: which topology is on, the :class:`GridGame` while it is not the square,
    its view, and what the grid key and the other keys do there. The app asks it; it never reaches
    into the app (it is handed the square game and what it needs)."""

    GRID_LABELS = ("R", "N", "G", "H", "+", "-", "P", "M", "T", "Enter", "?", "Esc")
    """The keys that work on grid levels; the others (fog, codes, minimap, endless world ...) are for square levels."""

    def __init__(self, view: GridView, grid: Optional[str] = None, wrap: Optional[str] = None,
                 code: Optional[LevelCode] = None, file: "Optional[Tuple[str, mp.AnyLevel]]" = None) -> None:
        if wrap and grid not in (None, "square"):
            raise ValueError(f"--wrap is for square levels; got --grid {grid} (leave --grid out)")
        self.view = view
        self.topology: Topology = ("square", wrap) if wrap else (grid or "square", None)
        self.game: Optional[GridGame] = None
        self.code = code if code_topology(code) is not None else None
        # --level FILE: played here when it holds a grid level (demo.levels plays a square one).
        self.file = (file[0], cast(mp.Level, file[1])) if file is not None and file[1].kind != "square" else None

    def start(self, square: SquareGame) -> None:
        """The first level: a ``--code`` that names a grid, exactly; else on the grid asked for
        (nothing to do for a plain square level); a grid level file given with ``--level``, as it is."""
        if self.file is not None:
            self.game = GridGame.from_file(*self.file, ahead=square.ahead is not None,
                                           furnished=square.furnish is not None)
            self.game.show_solution = square.show_solution
            self.topology = self.game.topology
        elif self.code is not None:
            algorithm, width, height, seed = self.code
            self.topology = code_topology(self.code) or ("square", None)
            self.game = GridGame(algorithm, width, height, seed, self.topology, exact=True,
                                 content=code_counts(self.code), ahead=square.ahead is not None)
            self.game.show_solution = square.show_solution
        elif self.topology != ("square", None):
            self.game = GridGame(square.algorithm, square.width, square.height, square.seed, self.topology,
                                 furnished=square.furnish is not None, ahead=square.ahead is not None)
            self.game.show_solution = square.show_solution

    def cycle(self, square: SquareGame) -> None:
        """T: the next grid of :data:`CYCLE`, same generator, size and seed; back on the square, the
        square game carries on from the grid level's generator, size and seed."""
        topology = next_topology(self.topology)
        source: "SquareGame | GridGame" = self.game if self.game is not None else square
        algorithm, width, height, seed = source.algorithm, source.width, source.height, source.seed
        if topology == ("square", None):
            self.game = None
            if (algorithm, width, height, seed) == (square.algorithm, square.width, square.height, square.seed) \
                    or not square.try_load(algorithm, width, height, seed):
                square.restart()
            square.say("Grid: square")
        else:
            try:
                game = GridGame(algorithm, width, height, seed, topology, furnished=square.furnish is not None,
                                ahead=square.ahead is not None)
            except (ValueError, TypeError) as error:
                source.say(f"Cannot make a {topology_name(topology)} level: {error}")
                return
            game.show_solution = source.show_solution
            game.say(f"Grid: {topology_name(topology)} (a player steps cell to cell; keypad and two arrows: diagonals)")
            self.game = game
        self.topology = topology

    def play_code(self, text: str, square: SquareGame) -> bool:
        """A typed level code: one naming a grid (``wilson-hex12x8-7``) plays exactly that level here
        (True); a square code (or a wrong one, which the square game explains) goes back to the square
        game (False)."""
        try:
            code = parse_code(text)
        except ValueError:
            code = None
        topology = code_topology(code)
        if code is None or topology is None:
            self.game, self.topology = None, ("square", None)
            return False
        algorithm, width, height, seed = code
        try:
            game = GridGame(algorithm, width, height, seed, topology, exact=True, content=code_counts(code),
                            ahead=square.ahead is not None)
        except (ValueError, TypeError) as error:
            (self.game or square).say(f"Cannot make that level: {error}")
            return True
        game.show_solution = (self.game or square).show_solution  # H stays as it was
        game.say("Playing " + game.code)
        self.game, self.topology = game, topology
        return True

    def action(self, label: str, help_text: str) -> Optional[Callable[[], None]]:
        """On a grid level, what key ``label`` does instead of its square action: the grid game's own
        (R, N, G, +, -), or a message that it is for square levels; None to run the usual action."""
        game = self.game
        if game is None:
            return None
        if label not in self.GRID_LABELS:
            return lambda: game.say(f"{label} ({help_text}) is for square levels; T switches the grid")
        return {"R": game.regenerate, "N": game.new_seed, "G": game.cycle_algorithm,
                "+": lambda: game.change_size(2), "-": lambda: game.change_size(-2)}.get(label)

    def direction(self, held: Sequence[Tuple[int, int]], autoplay: bool) -> Optional[int]:
        """Which of :data:`DIRECTIONS` the held movement keys push (see :func:`push`), or the autopilot."""
        assert self.game is not None
        if held:
            return push(held)
        return self.game.autopilot() if autoplay else None

    def tick(self, dt: float, frozen: bool, direction: Optional[int]) -> List[str]:
        """A frame of play (or of a frozen game); returns what happened ("step", "exit", "level")."""
        game = self.game
        assert game is not None
        if frozen:
            game.idle(dt)
        else:
            game.update(dt, direction)
        events, game.events = game.events, []
        return events

    def flags(self) -> List[str]:
        """The HUD's words for the grid level: its topology, and the solution when shown."""
        assert self.game is not None
        stuff = self.game.stuff.flags() if self.game.stuff is not None else []
        return [topology_name(self.topology).upper()] + stuff + (["SOLUTION"] if self.game.show_solution else [])

    def status(self, frames: int) -> str:
        """The exit line for a grid level."""
        game = self.game
        assert game is not None
        return (f"level {game.level_number} code {game.code} grid {topology_name(self.topology)} "
                f"player cell {game.cell} moves {game.moves} frames {frames} time {game.elapsed:.2f}")
