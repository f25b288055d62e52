"""Level content on grid levels (hex, triangle, polar, wrap): keys, doors on passages, treasure, enemies.

The same rules as on square levels (:mod:`demo.content`), on cells: stepping
onto a key's cell picks it up; a door stands on a passage (its
``props["cells"]``) and blocks it until its key is held, then opens as the
player passes; stepping onto treasure collects it; enemies walk their
``props["patrol"]`` back and forth at :data:`demo.content.ENEMY_SPEED` cells a
second, and meeting one (the player's nearest cell is the enemy's) sends the
player back to the entrance, keys and treasure kept. Content comes as on
square levels: from a level code's counts (``wilson-hex12x8-7+k2t3e1``), or,
unless ``--no-content``, growing with the level number
(:func:`demo.content.counts`).
"""

from __future__ import annotations

from typing import Callable, Dict, FrozenSet, List, Optional, Set, Tuple

import pygame

import mazeplugin as mp
import mazeplugin.pg as mpg
from mazeplugin.content import CellThing

from .content import ENEMY_SPEED

Counts = Dict[str, int]


def with_content(build: Callable[[Counts], mp.Level], wanted: Counts, exact: bool) -> mp.Level:
    """``build(counts)``; unless ``exact``, cut down (enemies, then keys, then treasure) until it fits, as
    :func:`demo.content.furnish` does on square levels."""
    counts = {name: n for name, n in wanted.items() if n}
    while True:
        try:
            return build(counts)
        except ValueError:
            if exact or not counts:
                raise
            for name in ("enemies", "keys", "treasure", "rooms"):
                if counts.get(name):
                    counts[name] -= 1
                    if not counts[name]:
                        del counts[name]
                    break
            else:
                raise


class GridContent:
    """What the player has picked up, opened and collected on a grid level, and where the enemies are."""

    def __init__(self, level: mp.Level) -> None:
        self.level = level
        self.held: Set[int] = set()  # key ids
        self.found: Set[int] = set()  # treasure ids
        self.opened: Set[int] = set()  # door ids passed
        self.walked = 0.0  # cells each enemy has walked
        self.caught = 0
        self.doors: Dict[FrozenSet[int], CellThing] = {
            frozenset(t.props["cells"]): t for t in level.things if t.kind == "door"}

    def kind(self, name: str) -> List[CellThing]:
        return [t for t in self.level.things if t.kind == name]

    def locked(self, here: int, there: int) -> Optional[CellThing]:
        """The door on the passage from ``here`` to ``there`` if its key is not held yet, else None."""
        door = self.doors.get(frozenset((here, there)))
        return door if door is not None and door.props["key"] not in self.held else None

    def arrive(self, here: int, there: int, say: Callable[[str], None]) -> List[str]:
        """The player stepped from ``here`` to ``there``: doors passed, keys and treasure there taken; the events."""
        events = []
        door = self.doors.get(frozenset((here, there)))
        if door is not None and door.id not in self.opened:
            self.opened.add(door.id)
            events.append("door")
        for thing in self.level.things:
            if thing.cell != there:
                continue
            if thing.kind == "key" and thing.id not in self.held:
                self.held.add(thing.id)
                events.append("key")
                say(f"Key {len(self.held)} of {len(self.kind('key'))}: its door is unlocked")
            elif thing.kind == "treasure" and thing.id not in self.found:
                self.found.add(thing.id)
                events.append("key")
        return events

    def enemies(self) -> List[Tuple[int, int, float]]:
        """Each enemy's place now: ``(cell, next cell, fraction of the way)`` along its patrol."""
        out = []
        for thing in self.kind("enemy"):
            patrol = list(thing.props["patrol"])
            n = len(patrol)
            if n == 1:
                out.append((patrol[0], patrol[0], 0.0))
                continue
            period = 2 * (n - 1)
            at = (patrol.index(thing.cell) + self.walked) % period
            if at > n - 1:
                at = period - at
            i = min(int(at), n - 2)
            out.append((patrol[i], patrol[i + 1], at - i))
        return out

    def meets(self, dt: float, cell: int) -> bool:
        """``dt`` seconds pass for the enemies; whether one now stands on ``cell`` (its nearest cell)."""
        self.walked += ENEMY_SPEED * dt
        return any((a if f < 0.5 else b) == cell for a, b, f in self.enemies())

    def hidden(self) -> Set[int]:
        """Things not drawn where they were placed: taken, opened, and the enemies (drawn moving)."""
        return self.held | self.found | self.opened | {t.id for t in self.kind("enemy")}

    def draw(self, surface: pygame.Surface, cell: int, offset: Tuple[int, int]) -> None:
        """The things left, and the enemies where they are now."""
        mpg.draw_things(surface, self.level, cell=cell, offset=offset, hidden=self.hidden())
        colour = mpg.THING_COLOURS["enemy"]
        for a, b, f in self.enemies():
            x, y = mpg.grid_to_pixel(mpg.glide(self.level, a, b, f), cell)
            pygame.draw.circle(surface, colour, (x + offset[0], y + offset[1]), max(2, cell * 3 // 10))

    def flags(self) -> List[str]:
        """HUD words: keys held and treasure found, as on square levels."""
        keys, treasure = len(self.kind("key")), len(self.kind("treasure"))
        return ([f"KEYS {len(self.held)}/{keys}"] if keys else []) + \
            ([f"TREASURE {len(self.found)}/{treasure}"] if treasure else [])
