"""The demo's rules: the level, the player, moves and time, fog of war, level codes.

No drawing and no event handling here (see ``view.py`` and ``app.py``):
:class:`Game` is told which way the player wants to go and how much time
passed, so tests can drive it frame by frame.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import pygame
from numpy.typing import NDArray

import mazeplugin as mp
import mazeplugin.pg as mpg
from mazeplugin.seeds import Seed, resolve_seed

from .ahead import Ahead, shared_worker
from .weaveplay import WeaveWalk, weave_level, woven_level
from .rules import (  # noqa: F401 - next_seed, check_seed, MIN_SIDE, MAX_SIDE: the game's rules, read from here too
    MAX_SIDE, MIN_SIDE, DungeonMaker, LevelMaker, RoomCount, check_seed, clamp_side, code_dungeon, dungeon_news,
    dungeon_drops, dungeon_pattern, generators_after, is_dungeon_code, next_pattern, next_seed, numbered_level,
    parse_code, plain_level, prepare_level,
)

Direction = Tuple[int, int]
TileRect = Tuple[int, int, int, int]  # x0, y0, x1, y1 (end exclusive), in tiles

SPEED = 7.5
"""Player speed in tiles per second."""
PLAYER_SIZE = 0.6
"""Player size as a fraction of a tile: less than one, so corners can be turned."""
COMPLETE_SECONDS = 1.8
"""How long the "level complete" banner shows before the next level."""
MESSAGE_SECONDS = 3.0
GROW = (2, 1)
"""How many cells wider and taller each next level is."""


class Game:
    """One game: the current level, the player on it, and what the player has seen."""

    def __init__(
        self,
        algorithm: str,
        width: int,
        height: int,
        seed: Optional[Seed],
        *,
        tile: int,
        content: Optional[Dict[str, int]] = None,
    ) -> None:
        self.tile = tile
        # Level content (demo/content.py): a function furnishing each new level by its number, and the
        # counts a typed code asked for (R replays the level's own code). See _load.
        self.furnish: Optional[Callable[[mp.Level, int], mp.Level]] = None
        self.rooms_for: Optional[RoomCount] = None  # random rooms by level number (demo/content.py)
        self.content: Optional[Dict[str, int]] = None
        self.level_number = 1
        self.fog = False
        self.show_solution = False
        self.message = ""
        self.message_left = 0.0
        self.version = 0  # bumped on every new level, so views drop their caches
        self.dirty: List[TileRect] = []  # tile areas whose fog changed since the view last looked
        self.seen_version = 0  # bumped whenever more of the map is seen (minimap caches follow it)
        self.events: List[str] = []  # what happened since the app last looked: "step", "exit", "level", ...
        self.last_complete: Optional[Tuple[float, int]] = None  # (seconds, moves) of the last finished level
        self.make_level: LevelMaker = plain_level  # demo/levels.py asks later levels for more difficulty
        self.level_file: Optional[str] = None  # the file the level came from (--level), if any
        self.ahead: Optional[Ahead] = None  # makes the next level in the background (make_ahead)
        self.forks: Optional[int] = None  # the level's decision points, when worked out ahead (else None)
        self.waiting = False  # the level is complete and the next one is still being made
        self.weave = False  # square levels with bridges over tunnels (V, demo/weaveplay.py)
        self.dungeon: Optional[str] = None  # dungeons of this mission pattern (--dungeon, or a dungeon code played)
        self.dungeon_extra = 0  # rooms more (+) or fewer (-) than a dungeon of its number has (DungeonMaker.extra)
        self.dungeon_drops = False  # ... with their one-way edges carved as drops (--drops, or a code ending in d)
        self.walker: Optional[WeaveWalk] = None  # the player's tile-to-tile walk on a weave level
        self.drops = False  # the level has one-way drops (set by restart)
        self._load(algorithm, width, height, resolve_seed(seed), content, exact=is_dungeon_code(algorithm))

    # -- levels ----------------------------------------------------------------

    def _make(
        self, algorithm: str, width: int, height: int, seed: Seed,
        content: Optional[Dict[str, int]] = None, number: Optional[int] = None, exact: bool = False,
    ) -> mp.Level:
        """Make the level, changing nothing: safe in the worker thread (:mod:`demo.ahead`).

        ``content`` (counts from a typed code) is generated as asked; without
        it, the level gets :attr:`rooms_for` random rooms (fewer when they do
        not fit) and :attr:`furnish` (if set) furnishes it, both by its
        ``number``. ``number`` is given only for the next level:
        :attr:`make_level` may ask that one for more difficulty (N, G, +/-
        and codes make the plain level of their seed). ``exact``: ``content``
        is all the level has, even when empty (R replays the level's code).
        A code's ``w`` makes exactly that code's weave level, with its content;
        :attr:`weave` (V) the weave level of the seed, without rooms or content
        (:func:`demo.weaveplay.weave_level`). A dungeon's code (``dungeon-PATTERN-WxH-seed+rNkM``, typed, given
        with ``--code`` or replayed by R) makes exactly its dungeon (:func:`demo.rules.code_dungeon`); other
        dungeons (:attr:`dungeon`) are made by their number (:class:`demo.rules.DungeonMaker`).
        """
        if is_dungeon_code(algorithm) and (content or exact):
            return code_dungeon(algorithm, width, height, seed, content)
        if self.dungeon is not None:
            return DungeonMaker(self.dungeon, self.dungeon_extra, self.dungeon_drops)(
                algorithm, width, height, seed, self.level_number if number is None else number)
        if self.weave and not (content and content.get("weave")):
            return weave_level(algorithm, width, height, seed, (content or {}).get("weave", True))
        if content or exact:
            counts: Dict[str, Any] = dict(content or {})  # rooms=, keys=, treasure=, enemies=
            return mp.generate(algorithm, width, height, seed=seed, **counts)
        return numbered_level(
            algorithm, width, height, seed, self.level_number if number is None else number,
            self.make_level, self.rooms_for, self.furnish, ask=1 if number is None else number,
        )

    def _load(
        self, algorithm: str, width: int, height: int, seed: Seed,
        content: Optional[Dict[str, int]] = None, number: Optional[int] = None, exact: bool = False,
    ) -> None:
        """Make the level (errors propagate before anything changes) and put the player at its entrance."""
        self._apply(self._make(algorithm, width, height, seed, content, number, exact), algorithm, width, height, seed, content)

    def _apply(
        self, level: mp.Level, algorithm: str, width: int, height: int, seed: Seed, content: Optional[Dict[str, int]],
    ) -> None:
        self.algorithm, self.width, self.height = algorithm, width, height
        self.seed: Seed = level.seed if level.seed is not None else seed
        self.content = dict(content) if content else None
        self.level_file = None
        if is_dungeon_code(algorithm):  # a dungeon's code played: the next levels are dungeons of its pattern
            self.dungeon, self.dungeon_drops = dungeon_pattern(level), dungeon_drops(level)
        self.play(level, mp.level_code(level))

    def play(self, level: mp.Level, code: str) -> None:
        """Play ``level`` (generated here, or made some other way), shown as ``code`` in the HUD."""
        if level.entrance is None or level.exit is None:
            raise ValueError("the demo needs a level with an entrance and an exit")
        self.level = level
        self.code = code
        self.version += 1
        self.forks = None
        self._to_exit: Optional[NDArray[np.int32]] = None
        self.events.append("level")
        self.restart()

    def try_load(
        self, algorithm: str, width: int, height: int, seed: Optional[Seed],
        content: Optional[Dict[str, int]] = None, number: Optional[int] = None, exact: bool = False,
    ) -> bool:
        """Switch to that level; on bad input keep the current one and say why."""
        try:
            self._load(algorithm, clamp_side(width), clamp_side(height), resolve_seed(seed), content, number, exact)
        except (ValueError, TypeError) as error:
            self.say(f"Cannot make that level: {error}")
            return False
        return True

    def restart(self) -> None:
        """The player back at the entrance: time, moves and fog reset (the same maze)."""
        level = self.level
        assert level.entrance is not None and level.exit is not None
        side = max(2, round(self.tile * PLAYER_SIZE))
        self.rect = pygame.Rect(0, 0, side, side)
        self.rect.center = mpg.tile_to_pixel(level.entrance, self.tile)
        self.player_tile = level.entrance
        self.walker = WeaveWalk(level.entrance) if level.weave else None
        self.moves = 0
        self.elapsed = 0.0
        self.started = False  # the clock starts at the first move
        self.carry = 0.0
        self.complete_left: Optional[float] = None
        # Tiles the player cannot enter: the level's walls, and its locked doors (demo/content.py opens them).
        self.solid = mpg.passable_tiles(level) if level.things else level.tiles.copy()
        self.drops = any(t.kind == "drop" for t in level.things)  # one-way drops: level.can_step says which way
        self.seen = np.zeros(level.tiles.shape, dtype=bool)
        self.seen_version += 1
        self.dirty.clear()
        self._path: Optional[List[Tuple[int, int]]] = None
        self._path_index: Optional[Dict[Tuple[int, int], List[int]]] = None
        self._path_progress = 0
        self.reveal()

    def regenerate(self) -> None:
        """R: the same level again, made afresh from its code (so it is the identical maze, its rooms
        and content too), or its file's."""
        if self.level_file is not None:
            self.restart()
            self.say("Restarted " + self.code)
            return
        if self.dungeon is not None:  # the same dungeon, from its code (whichever number or code made it)
            code = mp.parse_level_code(self.code)
            if self.try_load(code[0], code[1], code[2], code[3], code.content, exact=True):
                self.say("Restarted " + self.code)
            return
        counts = mp.parse_level_code(self.code).content
        if self.try_load(self.algorithm, self.width, self.height, self.seed, counts, exact=True):
            self.say("Restarted " + self.code)

    def new_seed(self) -> None:
        """N: a new random seed, same generator and size."""
        self.try_load(self.algorithm, self.width, self.height, None)

    def cycle_algorithm(self) -> None:
        """G: the next registered generator, same size and seed; in a dungeon, the next mission pattern."""
        if self.dungeon is not None:
            self._remake_dungeon(next_pattern(self.dungeon))
            return
        for name in generators_after(self.algorithm):
            if self.try_load(name, self.width, self.height, self.seed):
                self.say(f"Generator: {name} — {mp.get_generator(name).description}")
                return

    def change_size(self, delta: int) -> None:
        """+/-: ``delta`` cells wider and taller (in the demo's limits), same generator and seed; a dungeon: rooms."""
        if self.dungeon is not None:
            self._remake_dungeon(self.dungeon, delta)
            return
        width, height = clamp_side(self.width + delta), clamp_side(self.height + delta)
        if (width, height) != (self.width, self.height):
            self.try_load(self.algorithm, width, height, self.seed)

    def _remake_dungeon(self, pattern: str, delta: int = 0) -> None:
        """G, + and - in a dungeon: this seed's with ``pattern`` and ``delta`` rooms more, announced."""
        before, number = (self.dungeon or pattern, self.dungeon_extra), self.level_number  # (dungeon: never None here)
        self.dungeon, self.dungeon_extra = pattern, self.dungeon_extra + delta
        sizes = {DungeonMaker(*made).size(number) for made in (before, (pattern, self.dungeon_extra))}
        if pattern == before[0] and len(sizes) == 1 or not self.try_load("dungeon", self.width, self.height, self.seed):
            self.dungeon, self.dungeon_extra = before  # (kept: at the size's limit, or it says why it cannot be made)
        else:
            self.say(dungeon_news(self.level))

    def next_request(self) -> Tuple[Any, ...]:
        """What the next level depends on: its generator, size, seed and number, and the functions making it
        (the arguments of :func:`demo.rules.numbered_level`)."""
        makers: Tuple[Any, ...] = (self.make_level, self.rooms_for, self.furnish)
        if self.dungeon is not None:
            makers = (DungeonMaker(self.dungeon, self.dungeon_extra, self.dungeon_drops), None, None)
        elif self.weave:
            makers = (woven_level, None, None)
        return (
            self.algorithm, clamp_side(self.width + GROW[0]), clamp_side(self.height + GROW[1]),
            resolve_seed(next_seed(self.seed)), self.level_number + 1, *makers,
        )

    def make_ahead(self) -> None:
        """From now on make each next level in a worker process while this one is played (see :mod:`demo.ahead`)."""
        if self.ahead is None:
            self.ahead = Ahead(prepare_level)
            shared_worker()  # start the worker now: it is ready by the time the first level is done

    def next_level(self) -> None:
        """The next level: the next seed, a little larger (and as hard as :attr:`make_level` asks).

        With :meth:`make_ahead`, the level made in the background; while it is
        not ready yet this does nothing (and :attr:`waiting` is True), so the
        frame loop never waits for it.
        """
        request = self.next_request()
        algorithm, width, height, seed, number = request[:5]
        if self.ahead is None:
            if self.try_load(algorithm, width, height, seed, number=number):
                self.level_number = number
            return
        self.ahead.want(request)
        made = self.ahead.take(request)
        self.waiting = made is None
        if made is None:
            return
        ok, value = made
        if not ok:
            if not isinstance(value, (ValueError, TypeError)):
                raise value
            self.say(f"Cannot make that level: {value}")
            return
        level, path, forks = value
        self._apply(level, algorithm, width, height, seed, None)
        self._path, self.forks = path, forks  # worked out in the worker too
        self.level_number = number

    def enter_code(self, text: str) -> bool:
        """A typed level code: play exactly that level, or say what is wrong and keep this one."""
        try:
            code = parse_code(text)
        except ValueError as error:
            self.say(str(error))
            return False
        algorithm, width, height, seed = code
        dungeon, self.dungeon = self.dungeon, None  # exactly the code's level: a dungeon's code sets it again (_apply)
        if self.try_load(algorithm, width, height, seed, code.content, exact=is_dungeon_code(algorithm)):
            self.say("Playing " + self.code)
            return True
        self.dungeon = dungeon
        return False

    # -- toggles -----------------------------------------------------------------

    def toggle_fog(self) -> None:
        """F: draw only what the player has seen, or everything."""
        self.fog = not self.fog
        self.say("Fog of war on" if self.fog else "Fog of war off")

    def toggle_solution(self) -> None:
        """H: show or hide the shortest path from entrance to exit."""
        self.show_solution = not self.show_solution

    def say(self, text: str) -> None:
        """Show a short message."""
        self.message = text
        self.message_left = MESSAGE_SECONDS

    # -- the path ----------------------------------------------------------------

    @property
    def path(self) -> List[Tuple[int, int]]:
        """The level's solution, computed when first asked for."""
        if self._path is None:
            self._path = self.level.solution()
        return self._path

    def hint(self) -> List[Tuple[int, int]]:
        """What the solution overlay shows under fog: the way from the player towards the exit over seen tiles only.

        It follows a shortest path from the player's tile and stops before the
        first tile not yet seen, so the overlay never draws the unseen map
        (nor leads straight to an exit the player has not found). On a level
        with locked doors it follows the key-respecting walk instead (to the
        keys before their doors), from the player's place on it, and on a weave level the solution.
        """
        if self.level.weave or any(t.kind == "door" for t in self.level.things):
            return self._walk_hint()  # a weave's distances cannot be walked down greedily (no turns on bridges)
        if self._to_exit is None:
            assert self.level.exit is not None
            self._to_exit = self.level.distances(self.level.exit)
        distance, seen = self._to_exit, self.seen
        h, w = distance.shape
        x, y = self.player_tile
        if not (0 <= x < w and 0 <= y < h) or distance[y, x] < 0 or not seen[y, x]:
            return []
        path = [(x, y)]
        while distance[y, x] > 0:
            for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
                nx, ny = x + dx, y + dy
                if 0 <= nx < w and 0 <= ny < h and distance[ny, nx] == distance[y, x] - 1:
                    break
            else:  # pragma: no cover - a BFS distance always has a neighbour one step closer
                break
            if not seen[ny, nx]:
                break
            x, y = nx, ny
            path.append((x, y))
        return path

    def _walk_hint(self) -> List[Tuple[int, int]]:
        """The key-respecting walk from the player's visit of its tile on, up to the first unseen tile."""
        i = self._walk_progress()
        if i is None:
            return []
        out = []
        for x, y in self.path[i:]:
            if not self.seen[y, x]:
                break
            out.append((x, y))
        return out

    def _walk_progress(self) -> Optional[int]:
        """Where the player is on the solution walk: its first visit of the player's tile not before the progress so far."""
        if self._path_index is None:
            self._path_index = {}
            for n, tile in enumerate(self.path):
                self._path_index.setdefault(tile, []).append(n)
            self._path_progress = 0
        visits = self._path_index.get(self.player_tile)
        if not visits:
            return None
        self._path_progress = next((n for n in visits if n >= self._path_progress), visits[0])
        return self._path_progress

    def autopilot(self) -> Optional[Direction]:
        """The step along the solution from the player's tile (None off the path or at the exit).

        A walk to keys passes some tiles twice (into a side branch and back):
        the step taken is the one after the first visit not before the
        progress made so far.
        """
        i = self._walk_progress()
        if i is None or i + 1 >= len(self.path):
            return None
        (x0, y0), (x1, y1) = self.path[i], self.path[i + 1]
        return (x1 - x0, y1 - y0)

    # -- time passing ------------------------------------------------------------

    @property
    def completed(self) -> bool:
        """Whether the "level complete" banner is showing."""
        return self.complete_left is not None

    def idle(self, dt: float) -> None:
        """Let ``dt`` seconds pass with the game frozen (paused, or a level code being typed): only messages fade."""
        if self.message_left > 0:
            self.message_left = max(0.0, self.message_left - dt)

    def update(self, dt: float, direction: Optional[Direction]) -> None:
        """Advance ``dt`` seconds with the player pushing towards ``direction`` (or standing).

        The clock runs from the player's first move until the exit is reached.
        """
        self.idle(dt)
        if self.ahead is not None and (self.started or self.complete_left is not None):
            # From the first step on (a level merely looked at costs nothing); cheap when unchanged,
            # and N, G, +/- change what comes next.
            self.ahead.want(self.next_request())
        if self.complete_left is not None:
            self.complete_left -= dt
            if self.complete_left <= 0:
                self.next_level()
            return
        if direction is None and (self.walker is None or self.walker.target is None):
            self.carry = 0.0
            if self.started:
                self.elapsed += dt
            return
        before = self.rect.topleft
        if self.walker is not None:  # weave: tile to tile over and under bridges, a step once begun finished
            self.walker.advance(self.level, self.solid, direction, SPEED * dt)
            self.rect.center = self.walker.centre(self.tile)
        else:
            assert direction is not None
            self._walk(direction, SPEED * self.tile * dt)
        if not self.started and self.rect.topleft != before:
            self.started = True
        if self.started:
            self.elapsed += dt
        tile = self.walker.tile if self.walker is not None else mpg.pixel_to_tile(self.rect.center, self.tile)
        if tile != self.player_tile:
            self.player_tile = tile
            self.moves += 1
            self.events.append("step")
            self.reveal()
            if tile == self.level.exit:
                self.complete_left = COMPLETE_SECONDS
                self.last_complete = (self.elapsed, self.moves)
                self.events.append("exit")

    def _walk(self, direction: Direction, pixels: float) -> None:
        """Move up to ``pixels`` towards ``direction``, sliding into the lane when a turn is open.

        If the tile ahead of the player's centre tile is floor, the player is
        eased sideways onto that row or column, so a turn does not need
        pixel-exact aim; walls are never entered (``move_rect``). A step a
        one-way drop refuses (``level.can_step``: back up the drop, or onto it
        from below) goes no further than the middle of the player's tile.
        """
        pixels += self.carry
        step = int(pixels)
        self.carry = pixels - step
        if step == 0:
            return
        dx, dy = direction
        level, tile, rect = self.solid, self.tile, self.rect
        if self.drops:
            x, y = self.player_tile
            if self.level.is_floor((x + dx, y + dy)) and not self.level.can_step((x, y), (x + dx, y + dy)):
                cx, cy = mpg.tile_to_pixel(self.player_tile, tile)
                step = max(0, min(step, (cx - rect.centerx) * dx + (cy - rect.centery) * dy))
                if step == 0:
                    return
        if mpg.can_move(level, self.player_tile, direction):
            cx, cy = mpg.tile_to_pixel(self.player_tile, tile)
            if dx:
                rect = mpg.move_rect(level, rect, 0, max(-step, min(step, cy - rect.centery)), tile=tile)
            else:
                rect = mpg.move_rect(level, rect, max(-step, min(step, cx - rect.centerx)), 0, tile=tile)
        self.rect = mpg.move_rect(level, rect, dx * step, dy * step, tile=tile)

    def reveal(self) -> None:
        """Mark as seen what the player sees: along the four corridors from its tile, and beside them."""
        tiles, seen = self.level.tiles, self.seen
        h, w = tiles.shape
        x, y = self.player_tile
        if not (0 <= x < w and 0 <= y < h):
            return
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            n = 0
            while 0 <= x + (n + 1) * dx < w and 0 <= y + (n + 1) * dy < h and tiles[y + (n + 1) * dy, x + (n + 1) * dx] == mp.FLOOR:
                n += 1
            ex, ey = x + n * dx, y + n * dy
            x0, x1 = max(min(x, ex) - 1, 0), min(max(x, ex) + 2, w)
            y0, y1 = max(min(y, ey) - 1, 0), min(max(y, ey) + 2, h)
            if not seen[y0:y1, x0:x1].all():
                seen[y0:y1, x0:x1] = True
                self.dirty.append((x0, y0, x1, y1))
                self.seen_version += 1
