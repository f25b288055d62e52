"""Level content in the demo: keys and locked doors, treasure, patrolling enemies.

From level 2 on every level carries content that grows with the level
number (:func:`counts`): more locks, treasure and enemies, as many as the
level holds; from level 3 on, open rooms too (:func:`rooms`), where the
generator can take them. A typed level code with content (``backtracker-30x20-7+k2t5e3``)
plays exactly that content, on any level.

The rules:

- Walking onto a key picks it up; its door unlocks (and opens as you pass).
  Walking onto treasure collects it. The HUD shows keys held and treasure found.
- Enemies walk their patrol back and forth at :data:`ENEMY_SPEED` tiles a
  second. Touching one sends the player back to the entrance. **Keys and
  treasure are kept** (a chosen rule: being caught costs the walk back, not the
  progress), and the clock keeps running.
- ``H`` shows the key-respecting solution (``level.solution()`` walks to each
  key before its door). ``--no-content`` leaves the automatic content off.
"""

from __future__ import annotations

import argparse
from typing import Dict, List, Optional, Set, Tuple

import pygame

import mazeplugin as mp
import mazeplugin.pg as mpg
from mazeplugin.content import Thing

from .addon_api import Addon, Host
from .game import PLAYER_SIZE
from .options import content_options
from .weaveplay import WeaveWalk

ENEMY_SPEED = 2.2
"""Enemy speed in tiles per second (the player walks 7.5)."""
ENEMY_SIZE = 0.6
"""An enemy's size as a fraction of a tile; touching means the player's and its squares overlap."""


def counts(level_number: int) -> Dict[str, int]:
    """The content wanted on level ``level_number``: none on level 1, then growing.

    >>> [counts(n) for n in (1, 2, 5)]
    [{}, {'keys': 1, 'treasure': 3, 'enemies': 1}, {'keys': 2, 'treasure': 6, 'enemies': 4}]
    """
    if level_number < 2:
        return {}
    return {
        "keys": min(3, level_number // 2),
        "treasure": min(12, level_number + 1),
        "enemies": min(8, level_number - 1),
    }


ROOMS_FROM = 3
"""The first level with random rooms."""


def rooms(algorithm: str, width: int, height: int, level_number: int) -> int:
    """Random rooms wanted on level ``level_number``: none before :data:`ROOMS_FROM` or where the
    generator cannot take rooms, then one more every two levels (at most one per 100 cells, and 5).

    >>> [rooms("backtracker", 20, 15, n) for n in (1, 2, 3, 5, 7, 30)], rooms("eller", 20, 15, 9)
    ([0, 0, 1, 2, 3, 3], 0)
    """
    generator = mp.get_generator(algorithm)
    if level_number < ROOMS_FROM or not (generator.masks and generator.fills):
        return 0
    return max(0, min(5, (level_number - 1) // 2, width * height // 100))


def furnish(level: mp.Level, level_number: int) -> mp.Level:
    """``level`` with the content of :func:`counts`, cut down (enemies, then keys, then treasure) until it fits."""
    wanted = counts(level_number)
    while any(wanted.values()):
        try:
            return mp.content.furnish(
                level, keys=wanted["keys"], treasure=wanted["treasure"], enemies=wanted["enemies"]
            )
        except ValueError:
            for name in ("enemies", "keys", "treasure"):
                if wanted.get(name):
                    wanted[name] -= 1
                    break
    return level


class LevelContent(Addon):
    """Keys, doors, treasure and enemies: picking up, unlocking, patrolling, being caught."""

    def __init__(self, app: Host, *, automatic: bool = True) -> None:
        super().__init__(app)
        self.automatic = automatic
        if automatic:
            app.game.furnish = furnish
            app.game.rooms_for = rooms
        self.held: Set[int] = set()  # key ids picked up
        self.found: Set[int] = set()  # treasure ids collected
        self.opened: Set[int] = set()  # door ids passed through
        self.walked = 0.0  # tiles each enemy has walked since the level began
        self.caught = 0
        self.on_level()

    add_arguments = staticmethod(content_options)

    @classmethod
    def create(cls, app: Host, options: argparse.Namespace) -> "LevelContent":
        return cls(app, automatic=not options.no_content)

    # -- the level -------------------------------------------------------------

    @property
    def things(self) -> Tuple[Thing, ...]:
        return self.app.game.level.things

    def on_level(self) -> None:
        self.held, self.found, self.opened = set(), set(), set()
        self.walked = 0.0
        self.caught = 0
        self._unlock()

    def _unlock(self) -> None:
        game = self.app.game
        if self.things:
            game.solid = mpg.passable_tiles(game.level, self.held)

    def enemies(self) -> List[Tuple[Thing, Tuple[float, float]]]:
        """Each enemy and where it is now, in tiles (floats)."""
        out = []
        for thing in self.things:
            if thing.kind == "enemy":
                patrol = thing.props["patrol"]
                out.append((thing, mpg.patrol_position(patrol, patrol.index(thing.tile), self.walked)))
        return out

    # -- rules -----------------------------------------------------------------

    def update(self, dt: float) -> None:
        game = self.app.game
        if not self.things or game.completed:
            return
        self.walked += ENEMY_SPEED * dt
        tile = game.tile
        for thing in mpg.things_at(self.things, game.rect, tile=tile, kinds=("key", "treasure", "door")):
            if thing.kind == "key" and thing.id not in self.held:
                self.held.add(thing.id)
                self._unlock()
                game.events.append("key")
                total = sum(t.kind == "key" for t in self.things)
                game.say(f"Key {len(self.held)} of {total}: its door is unlocked")
            elif thing.kind == "treasure" and thing.id not in self.found:
                self.found.add(thing.id)
                game.events.append("key")
            elif thing.kind == "door" and thing.id not in self.opened and thing.props["key"] in self.held:
                self.opened.add(thing.id)
                game.events.append("door")
        reach = (PLAYER_SIZE + ENEMY_SIZE) / 2 * tile
        px, py = game.rect.center
        for _, (ex, ey) in self.enemies():
            cx, cy = (ex + 0.5) * tile, (ey + 0.5) * tile
            if abs(cx - px) < reach and abs(cy - py) < reach:
                self._caught()
                break

    def _caught(self) -> None:
        """Back to the entrance, keys and treasure kept."""
        game = self.app.game
        assert game.level.entrance is not None
        game.rect.center = mpg.tile_to_pixel(game.level.entrance, game.tile)
        game.player_tile = game.level.entrance
        if game.walker is not None:  # a weave level (a typed code): its walk starts again too
            game.walker = WeaveWalk(game.level.entrance)
        game.carry = 0.0
        game.reveal()
        self.caught += 1
        game.events.append("door")
        game.say("Caught! Back to the entrance (keys and treasure kept)")

    # -- drawing ---------------------------------------------------------------

    def draw_world(self, surface: pygame.Surface, offset: Tuple[int, int]) -> None:
        if not self.things:
            return
        game = self.app.game
        tile = game.tile
        seen = game.seen if game.fog else None
        gone = self.held | self.found | self.opened | {t.id for t in self.things if t.kind == "enemy"}
        unseen = set()
        if seen is not None:
            unseen = {t.id for t in self.things if not any(seen[y, x] for x, y in t.tiles())}
        mpg.draw_things(surface, self.things, tile=tile, offset=offset, hidden=gone | unseen)
        sprite = mpg.thing_sprite("enemy", tile)
        ox, oy = offset
        for _, (ex, ey) in self.enemies():
            x, y = round(ex), round(ey)
            if seen is not None and not seen[y, x]:
                continue
            surface.blit(sprite, sprite.get_rect(center=(round((ex + 0.5) * tile) + ox, round((ey + 0.5) * tile) + oy)))

    def hud_flags(self) -> List[str]:
        keys = sum(t.kind == "key" for t in self.things)
        treasure = sum(t.kind == "treasure" for t in self.things)
        words = []
        if keys:
            words.append(f"KEYS {len(self.held)}/{keys}")
        if treasure:
            words.append(f"TREASURE {len(self.found)}/{treasure}")
        return words

    def status(self) -> Dict[str, Optional[int]]:
        """Keys held, treasure found and times caught (for tests and a game's own HUD)."""
        return {"keys": len(self.held), "treasure": len(self.found), "caught": self.caught}
