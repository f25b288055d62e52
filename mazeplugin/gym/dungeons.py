"""Dungeons in the environments: ``generator="dungeon"``, checked once, as :func:`mazeplugin.generate` takes it.

A :class:`~mazeplugin.gym.levels.LevelSpec` of generator ``"dungeon"`` plays
``mp.generate("dungeon", width, height, seed=..., rooms=..., **options)``: its
``rooms`` is the mission's number of rooms (default 12) and ``options`` holds the
dungeon's own arguments (``locks``, ``pattern``, ``branching``, ``mission``,
``prefabs``, ``attempts``), the names ``generate`` takes. A dungeon's keys and
doors come from its mission, so the maze arguments (``keys``, ``braid``,
``mask``, ``require``, ``corridor``, ``wall``) are refused, and so are more
locks than MiniGrid has colours. A seed whose mission does not fit in the size
(:class:`~mazeplugin.dungeon.MissionError`) moves on to the next candidate seed,
as a maze that cannot hold its keys does.

>>> from mazeplugin.gym.levels import LevelSpec
>>> spec = LevelSpec("dungeon", 24, 24, rooms=8, options={"locks": 2, "pattern": "lock-and-key"})
>>> spec.shape, spec.make(3).algorithm
((49, 49), 'dungeon')
>>> LevelSpec("dungeon", 24, 24, keys=2)
Traceback (most recent call last):
...
ValueError: generator='dungeon' takes no keys=2: a dungeon's keys and locked doors come from its mission; give its locks as options={'locks': 2}
"""

from __future__ import annotations

import numbers
import os
from typing import Any, Mapping

from ..dungeon import Mission, MissionError, MissionGraph, load_mission, mission
from ..dungeon.layout import MAX_LAYOUT_ROOMS
from .engine import MAX_LOCKS

__all__ = ["DUNGEON", "DUNGEON_OPTIONS", "check_dungeon", "moves_on"]

DUNGEON = "dungeon"
"""The generator name of dungeons (not a registry generator: ``mp.generate`` lays out a mission)."""

DUNGEON_OPTIONS = ("locks", "pattern", "branching", "mission", "prefabs", "attempts")
"""What a dungeon spec's ``options`` may hold: ``generate("dungeon", ...)``'s own arguments."""


def check_dungeon(rooms: Any, options: Mapping[str, Any], refused: Mapping[str, Any]) -> None:
    """Refuse a dungeon spec's wrong arguments, each named as :func:`mazeplugin.generate` names it.

    ``refused``: the spec's maze arguments (``keys``, ``braid``, ...) that differ from their defaults.
    The grammar's arguments are checked by making seed 0's mission (a millisecond), the layout's by
    :func:`mazeplugin.generate` itself (an ``attempts`` it refuses is not a seed that does not fit).
    """
    for name, value in refused.items():
        if name == "keys":
            raise ValueError(f"generator='dungeon' takes no keys={value!r}: a dungeon's keys and locked doors come "
                             f"from its mission; give its locks as options={{'locks': {value!r}}}")
        raise ValueError(f"generator='dungeon' takes no {name}={value!r}: a dungeon's shape comes from its mission "
                         f"(its options: {', '.join(DUNGEON_OPTIONS)}; rooms= its number of rooms)")
    unknown = sorted(set(options) - set(DUNGEON_OPTIONS))
    if unknown:
        raise ValueError(f"options={{{unknown[0]!r}: ...}} is not a dungeon's option; a dungeon takes "
                         f"{', '.join(DUNGEON_OPTIONS)} (and rooms= its number of rooms)")
    if options.get("mission") is not None:
        others = [name for name in ("locks", "pattern", "branching") if name in options]
        if rooms is not None or others:
            raise ValueError(f"options={{'mission': ...}} takes its rooms and locks from the mission; leave "
                             f"{(['rooms'] if rooms is not None else []) + others} out")
        given = _mission(options["mission"])
        locks, count = len(given.edges_of("locked")), len(given.nodes)
    else:
        count = 12 if rooms is None else rooms
        locks = options.get("locks", 1)
        mission(count, locks, options.get("pattern", "mixed"), 0, branching=options.get("branching", 0.25))
        count, locks = int(count), int(locks)
    if locks > MAX_LOCKS:
        raise ValueError(f"locks={locks}: the environments play at most {MAX_LOCKS} locks (MiniGrid has six "
                         "colours, one per lock and its key)")
    if count > MAX_LAYOUT_ROOMS:
        raise ValueError(f"rooms={count}: a dungeon of at most {MAX_LAYOUT_ROOMS} rooms can be laid out")
    attempts = options.get("attempts", 32)
    if isinstance(attempts, bool) or not isinstance(attempts, numbers.Integral) or attempts < 1:
        raise ValueError(f"attempts must be a whole number >= 1 (layouts tried per seed), got {attempts!r}")


def _mission(value: Any) -> MissionGraph:
    """A ``mission=`` option as a :class:`~mazeplugin.dungeon.Mission` (its file read, its dict checked)."""
    if isinstance(value, MissionGraph):
        return value
    if isinstance(value, Mapping):
        return Mission.from_dict(dict(value))
    if isinstance(value, (str, os.PathLike)):
        return load_mission(value)
    raise TypeError(f"options={{'mission': ...}} must be a mazeplugin.Mission, a dict or a path, "
                    f"not {type(value).__name__}")


def moves_on(error: ValueError) -> bool:
    """Whether a dungeon seed's ``error`` means "this seed's mission does not fit": try the next candidate."""
    return isinstance(error, MissionError)
