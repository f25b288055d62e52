"""The demo's rules about levels that need no pygame: sizes, seeds, level codes, the plain level of a code.

The command line (:mod:`demo.options`) checks its arguments with these, so
``--help``, ``--version`` and a wrong argument work without pygame; the game
(:mod:`demo.game`) plays by the same ones.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

import mazeplugin as mp
from mazeplugin.codes import LevelCode
from mazeplugin.seeds import Seed

MIN_SIDE, MAX_SIDE = 2, 250
"""Level sizes the demo allows, in cells per side."""
SIDE_REASON = (
    f"the demo plays levels of {MIN_SIDE} to {MAX_SIDE} cells a side "
    f"(a 1-cell maze has no corridor to walk; larger ones take seconds to make and fill a minimap pixel per cell; "
    f"mazeplugin's CLI makes any size from 1x1)"
)
"""Why the demo's sizes differ from the CLI's, for its error messages."""
MAX_GRID_SIDE = 60
"""Grid levels (hex, triangle, polar, wrap) are drawn whole, so the demo keeps them at most this many cells a side."""

LevelMaker = Callable[[str, int, int, Seed, int, int], mp.Level]
"""Makes level number N: ``(algorithm, width, height, seed, level_number, rooms) -> Level``."""

RoomCount = Callable[[str, int, int, int], int]
"""How many random rooms level N gets: ``(algorithm, width, height, level_number) -> count``."""


def next_seed(seed: Seed) -> Seed:
    """The seed of the next level: ``7`` → ``8``; ``"castle"`` → ``"castle#2"`` → ``"castle#3"``.

    >>> next_seed(7), next_seed("castle"), next_seed("castle#2")
    (8, 'castle#2', 'castle#3')
    """
    if isinstance(seed, int):
        return seed + 1
    match = re.fullmatch(r"(.*)#([0-9]+)", seed, re.DOTALL)
    if match:
        return f"{match[1]}#{int(match[2]) + 1}"
    return f"{seed}#2"


def generators_after(name: str) -> List[str]:
    """Every registered generator once, starting with the one after ``name`` and wrapping round: G's order.

    >>> names = mp.algorithms()
    >>> generators_after(names[0])[-1] == names[0] and len(generators_after("no-such")) == len(names)
    True
    """
    names = mp.algorithms()
    index = names.index(name) if name in names else -1
    return [names[(index + step) % len(names)] for step in range(1, len(names) + 1)]


def check_seed(seed: Seed) -> Seed:
    """A seed the demo plays: a whole number >= 0 or a word, but not text that reads as a negative number.

    ``"-5"`` would be a valid text seed, but a player typing it means the
    number and would get the confusing code ``backtracker-12x9--5``.

    >>> check_seed("-5")
    Traceback (most recent call last):
    ...
    ValueError: seed must be a whole number >= 0 or a word, not -5
    """
    if isinstance(seed, str) and not seed.strip():
        raise ValueError("seed must be a whole number >= 0 or a word, not empty")
    if isinstance(seed, str) and re.fullmatch(r"\s*-\s*[0-9]+\s*", seed):
        raise ValueError(f"seed must be a whole number >= 0 or a word, not {seed.strip()}")
    return seed


def check_size(width: int, height: int) -> None:
    """ValueError (saying why the demo's limits differ from the CLI's) unless both sides are in the demo's range."""
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise ValueError(f"{SIDE_REASON}; not {width}x{height}")


def parse_code(text: str) -> LevelCode:
    """A level code the demo plays, read strictly with :func:`mazeplugin.parse_level_code`; ValueError otherwise.

    Stricter than the library in one way: text after a ``+`` must be content
    counts (``+k2t5e3``). The library reads ``backtracker-30x20-7+zz`` as
    the text seed ``"7+zz"``, but a player typing it meant seed 7 with
    content and mistyped it.

    >>> parse_code("backtracker-30x20-7+k2")
    LevelCode('backtracker', 30, 20, 7, content={'keys': 2})
    >>> parse_code("backtracker-30x20-7+zz")
    Traceback (most recent call last):
    ...
    ValueError: level code 'backtracker-30x20-7+zz': '+zz' is not content; after '+' come counts r (rooms), k (keys), t (treasure), e (enemies), each once, e.g. '+r4k1', and w (weave) or w and a percentage, and wrapx, wrapy or wrapxy (a level that wraps)
    """
    code = mp.parse_level_code(text)
    algorithm, width, height, seed = code
    if isinstance(seed, str) and "+" in seed:
        tail = seed[seed.index("+"):]
        raise ValueError(
            f"level code {text.strip()!r}: {tail!r} is not content; after '+' come counts such as "
            "+r2k2t5e3 (rooms, keys, treasure, enemies)"
        )
    check_seed(seed)
    check_size(width, height)
    return code


def is_dungeon_code(algorithm: str) -> bool:
    """True when a level code's name is a dungeon's (``dungeon-PATTERN-WxH-seed+rNkM``, or ``dungeon-WxH-seed``
    for the default pattern), which :func:`code_dungeon` makes; False for a maze's.

    >>> is_dungeon_code("dungeon-lock-and-key"), is_dungeon_code("dungeon"), is_dungeon_code("backtracker")
    (True, True, False)
    """
    return algorithm == "dungeon" or algorithm.startswith("dungeon-")


def dungeon_pattern(level: mp.Level) -> str:
    """The mission pattern a dungeon level was made with (recorded in its options; ``mixed`` if it says none)."""
    recorded = level.options.get("dungeon")
    return str(recorded.get("pattern", "mixed")) if isinstance(recorded, dict) else "mixed"


def dungeon_drops(level: mp.Level) -> bool:
    """Whether a dungeon level was made with ``drops=True`` (its one-way edges carved as drops; its code ends in d)."""
    recorded = level.options.get("dungeon")
    return isinstance(recorded, dict) and recorded.get("drops") is True


def code_dungeon(algorithm: str, width: int, height: int, seed: Seed, content: Optional[Dict[str, Any]]) -> mp.Level:
    """Exactly the dungeon of a typed code (``algorithm`` ``dungeon-PATTERN``, ``content`` its ``+rNkM``):
    the bytes :func:`mazeplugin.level_from_code` makes of it, whatever the game's level number.

    >>> level = code_dungeon("dungeon-lock-and-key", 24, 24, 5, {"rooms": 8, "keys": 1})
    >>> mp.level_code(level), level.tiles.tobytes() == mp.level_from_code(mp.level_code(level)).tiles.tobytes()
    ('dungeon-lock-and-key-24x24-5+r8k1', True)
    """
    from mazeplugin.dungeon.dungeons import dungeon_from_code

    level: mp.Level = dungeon_from_code(LevelCode(algorithm, width, height, seed, content))
    return level


def plain_level(algorithm: str, width: int, height: int, seed: Seed, level_number: int, rooms: int = 0) -> mp.Level:
    """The level of that code, whatever its number (the default :attr:`demo.game.Game.make_level`), with
    ``rooms`` random rooms (``rooms=`` of :func:`mazeplugin.generate`)."""
    if rooms:
        return mp.generate(algorithm, width, height, seed=seed, rooms=rooms)
    return mp.generate(algorithm, width, height, seed=seed)


@dataclass(frozen=True)
class DungeonMaker:
    """A :data:`LevelMaker` of dungeons (``--dungeon PATTERN``): level N is ``mp.generate("dungeon", ...)`` of
    the ``pattern`` with :func:`dungeon_size` rooms and locks, from the level's seed, in a square of
    :func:`dungeon_side` cells (the generator, size and rooms asked are not used), so its level code
    (``mp.level_code``, on the HUD) makes it again; with ``drops`` (``--drops``) its one-way edges are carved as
    drops. A value (equal by pattern and drops, picklable), so the worker of :mod:`demo.ahead` makes the next
    dungeon as it makes any level.

    >>> level = DungeonMaker("lock-and-key")("backtracker", 12, 9, 5, 1, 0)
    >>> level.algorithm, mp.level_code(level)
    ('dungeon', 'dungeon-lock-and-key-24x24-5+r8k1')
    >>> mp.level_code(DungeonMaker("valve", drops=True)("backtracker", 12, 9, 5, 1, 0))
    'dungeon-valve-24x24-5+r8k1d'
    """

    pattern: str
    extra: int = 0
    """Rooms more (or fewer) than :func:`dungeon_size` gives (+ and - in the game), see :meth:`size`."""
    drops: bool = False
    """Carve the mission's one-way edges as drops (``--drops``, or a code ending in ``d``)."""

    def size(self, level_number: int) -> Tuple[int, int]:
        """Rooms and locks of dungeon level ``level_number``: :func:`dungeon_size`'s, with :attr:`extra` rooms
        more, kept from what the pattern needs to :data:`MAX_DUNGEON_ROOMS`.

        >>> DungeonMaker("mixed", 4).size(1), DungeonMaker("mixed", -9).size(1), DungeonMaker("hidden", -2).size(1)
        ((12, 1), (8, 1), (10, 1))
        """
        from mazeplugin.dungeon import least_rooms

        count, locks = dungeon_size(self.pattern, level_number)
        return max(least_rooms(self.pattern, locks), min(count + self.extra, MAX_DUNGEON_ROOMS)), locks

    def __call__(self, algorithm: str, width: int, height: int, seed: Seed, level_number: int,
                 rooms: int = 0) -> mp.Level:
        from mazeplugin.dungeon import MissionError

        count, locks = self.size(level_number)
        side = dungeon_side(count)
        while True:  # a larger square when an unlucky seed's dungeon does not fit (the code records the side)
            try:
                return mp.generate("dungeon", side, side, seed=seed, rooms=count, locks=locks, pattern=self.pattern,
                                   drops=self.drops)
            except MissionError:
                if side >= MAX_SIDE:
                    raise
                side = min(side + 8, MAX_SIDE)


MAX_DUNGEON_ROOMS = 60
"""The most rooms + makes a dungeon of (its square is then 49 cells a side)."""


def next_pattern(pattern: str) -> str:
    """The mission pattern after ``pattern`` (G in a dungeon), round the list of :data:`mazeplugin.dungeon.PATTERNS`.

    >>> next_pattern("two-paths"), next_pattern("mixed")
    ('lock-and-key', 'two-paths')
    """
    from mazeplugin.dungeon import PATTERNS

    return PATTERNS[(PATTERNS.index(pattern) + 1) % len(PATTERNS)] if pattern in PATTERNS else PATTERNS[0]


def dungeon_news(level: mp.Level) -> str:
    """What the game says when G, + or - makes a dungeon: its pattern, rooms and locks.

    >>> dungeon_news(mp.generate("dungeon", 24, 24, seed=5, rooms=8, locks=1, pattern="lock-and-key"))
    'Dungeon: lock-and-key, 8 rooms, 1 lock'
    """
    recorded = level.options.get("dungeon")
    recorded = recorded if isinstance(recorded, dict) else {}
    rooms = recorded.get("rooms", len(level.options.get("mission", {}).get("nodes", ())))
    locks = recorded.get("locks", sum(t.kind == "door" for t in level.things))
    return f"Dungeon: {dungeon_pattern(level)}, {rooms} rooms, {locks} lock{'s' * (locks != 1)}"


def dungeon_side(rooms: int) -> int:
    """The side (cells) of the square a dungeon of ``rooms`` rooms is first tried in: roomy enough for nearly
    every seed (a laid-out room and its gaps take about 25 cells).

    >>> dungeon_side(8), dungeon_side(40)
    (24, 42)
    """
    return 10 + int(round(5 * math.sqrt(rooms)))


def dungeon_size(pattern: str, level_number: int) -> Tuple[int, int]:
    """Rooms and locks of dungeon level ``level_number``: 8 rooms and 1 lock first, two rooms more each level
    (at most 40) and a lock more every other level (at most 4); at least what the pattern needs.

    >>> dungeon_size("mixed", 1), dungeon_size("mixed", 5), dungeon_size("hidden", 1)
    ((8, 1), (16, 3), (10, 1))
    """
    from mazeplugin.dungeon import least_rooms

    locks = min(1 + (level_number - 1) // 2, 4)
    return max(min(8 + 2 * (level_number - 1), 40), least_rooms(pattern, locks)), locks


def numbered_level(
    algorithm: str, width: int, height: int, seed: Seed, number: int,
    make_level: LevelMaker = plain_level, rooms_for: Optional[RoomCount] = None,
    furnish: Optional[Callable[[mp.Level, int], mp.Level]] = None, *, ask: Optional[int] = None,
) -> mp.Level:
    """Level ``number`` of the game: ``make_level`` with ``rooms_for`` random rooms (fewer when they do not
    fit), then furnished by ``furnish``. ``ask`` is the number ``make_level`` is told (default ``number``;
    1 makes the plain level of the seed)."""
    rooms = rooms_for(algorithm, width, height, number) if rooms_for is not None else 0
    while True:
        try:
            level = make_level(algorithm, width, height, seed, number if ask is None else ask, rooms)
            break
        except ValueError as error:
            if not rooms or "does not fit" not in str(error):
                raise
            rooms -= 1  # too many rooms for this maze: one fewer
    return furnish(level, number) if furnish is not None else level


Prepared = Tuple[mp.Level, List[Tuple[int, int]], Optional[int]]
"""A level made ahead, with its solution and its decision points (see :func:`prepare_level`)."""


def prepare_level(request: Tuple[Any, ...]) -> Prepared:
    """The next level for ``request`` (the arguments of :func:`numbered_level`), its solution and decision points.

    Run in the worker process (:mod:`demo.ahead`), so the frame loop computes
    none of them.
    """
    level = numbered_level(*request)
    return level, level.solution(), level.stats().decision_points


def clamp_side(value: int) -> int:
    """A level side clamped to what the demo allows.

    >>> clamp_side(1), clamp_side(40), clamp_side(999)
    (2, 40, 250)
    """
    return max(MIN_SIDE, min(MAX_SIDE, value))
