"""``mp.dungeon_level``: a playable dungeon in one call, from a mission or from the grammar's arguments.

A dungeon is not a registry generator: a generator opens passages in a maze
of a size given beforehand, and later stages choose the markers and the
content from generic options, while a dungeon's markers, keys and doors come
from the mission. So :func:`dungeon_level` (as large as the dungeon) and
:func:`generate_dungeon` (``mp.generate("dungeon", width, height, ...)``,
reached through :mod:`mazeplugin.seam`: the dungeon bounded by the size
given) run the mission's own stages instead:
:func:`~mazeplugin.dungeon.mission` (stream 7) and
:func:`~mazeplugin.dungeon.layout.layout` (stream ``(7, 1)``), and returns the
same :class:`~mazeplugin.level.Level` every generator returns.

>>> import mazeplugin as mp
>>> level = mp.dungeon_level(rooms=12, locks=2, pattern="mixed", seed="castle")
>>> level.check()
>>> level.algorithm, [t.kind for t in level.things].count("door")
('dungeon', 2)
>>> mp.dungeon_level(level.options["mission"], seed="castle").tiles.tobytes() == level.tiles.tobytes()
True
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Sequence, Union

from ..codes import LevelCode, parse_level_code
from ..level import Level
from ..limits import check_size
from ..rooms.prefab import Prefab
from ..seeds import resolve_seed
from .grammar import PATTERNS
from .grammar import mission as make_mission
from .layout import layout
from .missions import Mission, load_mission
from .model import MissionGraph

__all__ = ["dungeon_level", "generate_dungeon", "dungeon_code", "dungeon_from_code"]


def dungeon_level(mission: Union[MissionGraph, Dict[str, Any], str, "os.PathLike[str]", None] = None, seed: object = None, *,
                  rooms: int = 12, locks: int = 1, pattern: str = "mixed", branching: float = 0.25,
                  prefabs: Optional[Sequence[Prefab]] = None, attempts: int = 32, shapes: object = None,
                  interior: object = None, treasure: int = 0, enemies: int = 0, drops: bool = False) -> Level:
    """A dungeon level: ``mission`` (a :class:`~mazeplugin.dungeon.Mission`, its ``to_dict()`` form or a JSON
    file's path) laid out from stream ``(7, 1)`` of ``seed``; with no mission, ``mp.mission(rooms, locks,
    pattern, seed, branching=branching)`` first (one seed for both). ``prefabs``, ``attempts``, ``shapes``,
    ``interior``, ``treasure``, ``enemies`` and ``drops`` (the one-way edges carved as drops) as in
    :func:`~mazeplugin.dungeon.layout.layout`. A mission from a dict or file is checked
    (:meth:`~mazeplugin.dungeon.Mission.check`) before it is laid out."""
    if mission is None:
        made: MissionGraph = make_mission(rooms, locks, pattern, seed, branching=branching)
        seed = made.seed
    else:
        made = _mission_of(mission)
    return layout(made, seed, prefabs=prefabs, attempts=attempts, shapes=shapes, interior=interior,
                  treasure=treasure, enemies=enemies, drops=drops)


_DEFAULTS: Dict[str, Any] = {"rooms": 12, "locks": 1, "pattern": "mixed", "branching": 0.25, "attempts": 32}
_TAKES = ("mission", "locks", "pattern", "branching", "prefabs", "attempts", "shapes", "interior", "drops")
_STOCK = ("treasure", "enemies")  # generate's own content counts, which a dungeon places from its mission
_CODED = {"rooms", "locks", "pattern", "treasure", "enemies", "drops"}  # what a dungeon's level code holds


def generate_dungeon(width: object, height: object, seed: object = None, rooms: Optional[int] = None,
                     refused: Optional[Dict[str, Any]] = None, **options: Any) -> Level:
    """``mp.generate("dungeon", width, height, seed=..., rooms=, locks=, pattern=, branching=, mission=,
    prefabs=, attempts=, shapes=, interior=, treasure=, enemies=, drops=)``: :func:`dungeon_level` laid out in a
    level of exactly ``width`` × ``height`` cells (the dungeon centred in it), or a
    :class:`~mazeplugin.dungeon.MissionError` naming the size, with a hint, when the mission does not fit.
    ``refused``: the arguments of ``generate`` that were given other than their defaults; a dungeon takes
    ``treasure`` and ``enemies`` from them and refuses the others (each named in the error). The level's
    ``options["dungeon"]`` records the grammar's arguments (a level made from them with the default
    ``branching``, ``attempts``, prefabs, shapes and rooms has a level code, ``dungeon-PATTERN-WxH-seed+rNkM``,
    with ``tT`` and ``eE`` for its treasure and enemies and ``d`` with ``drops=True``: its one-way edges carved
    as drops); ``level.mission`` is its mission on the tiles.

    >>> import mazeplugin as mp
    >>> level = mp.generate("dungeon", 30, 30, seed=7, rooms=12, locks=2, pattern="lock-and-key")
    >>> level.width, level.height, level.algorithm, mp.level_code(level)
    (30, 30, 'dungeon', 'dungeon-lock-and-key-30x30-7+r12k2')
    >>> mp.level_from_code("dungeon-lock-and-key-30x30-7+r12k2").tiles.tobytes() == level.tiles.tobytes()
    True
    """
    stock = {name: value for name, value in (refused or {}).items() if name in _STOCK}
    for name, value in (refused or {}).items():
        if name not in _STOCK:
            raise ValueError(f"generate('dungeon', ...) does not take {name}= (got {value!r}): a dungeon's markers, "
                             f"keys and doors come from its mission; it takes seed, rooms, locks, pattern, "
                             f"branching, mission, prefabs, attempts, shapes, interior, treasure, enemies and drops")
    unknown = sorted(set(options) - set(_TAKES))
    if unknown:
        raise TypeError(f"generate('dungeon', ...) got unexpected option {unknown[0]!r}; a dungeon takes seed, "
                        f"rooms, locks, pattern, branching, mission, prefabs, attempts, shapes, interior, "
                        f"treasure, enemies and drops")
    layout_size = check_size(width, height)
    bounds = (layout_size.width, layout_size.height)
    prefabs, attempts = options.get("prefabs"), options.get("attempts", _DEFAULTS["attempts"])
    drops = options.get("drops", False)
    mission = options.get("mission")
    if mission is not None:
        given = [name for name in ("locks", "pattern", "branching") if name in options]
        if rooms is not None or given:
            raise ValueError(f"generate('dungeon', mission=...) takes its rooms and locks from the mission; leave "
                             f"{(['rooms'] if rooms is not None else []) + given} out (or leave mission= out)")
        made = _mission_of(mission)
        recorded: Optional[Dict[str, Any]] = None
    else:
        locks, pattern = options.get("locks", _DEFAULTS["locks"]), options.get("pattern", _DEFAULTS["pattern"])
        branching = options.get("branching", _DEFAULTS["branching"])
        count = _DEFAULTS["rooms"] if rooms is None else rooms
        seed = resolve_seed(seed)
        made = make_mission(count, locks, pattern, seed, branching=branching)  # (every argument checked there)
        recorded = {"rooms": int(count), "locks": int(locks), "pattern": pattern}
        if branching != _DEFAULTS["branching"]:
            recorded["branching"] = float(branching)
    shapes, interior = options.get("shapes"), options.get("interior")
    level = layout(made, seed, prefabs=prefabs, attempts=attempts, bounds=bounds, shapes=shapes, interior=interior,
                   drops=drops, **stock)
    if recorded is not None:
        if drops:
            recorded["drops"] = True
        if attempts != _DEFAULTS["attempts"]:
            recorded["attempts"] = int(attempts)
        if prefabs is not None:
            recorded["prefabs"] = len(prefabs)
        if shapes is not None:
            recorded["shapes"] = shapes if isinstance(shapes, str) else list(shapes)
        if interior is not None:
            recorded["interior"] = interior if isinstance(interior, str) else dict(interior)
        recorded.update({name: int(value) for name, value in stock.items()})
        level.options["dungeon"] = recorded
    return level


def _mission_of(mission: object) -> MissionGraph:
    if isinstance(mission, MissionGraph):
        return mission
    if isinstance(mission, dict):
        return Mission.from_dict(mission)
    if isinstance(mission, (str, os.PathLike)):
        return load_mission(mission)
    raise TypeError(f"mission must be a mazeplugin.Mission, a dict or a path, not {type(mission).__name__}")


def dungeon_code(level: Level) -> str:
    """The level code of a dungeon ``mp.generate("dungeon", ...)`` made from the grammar's arguments:
    ``dungeon-PATTERN-WIDTHxHEIGHT-seed+rROOMSkLOCKS``, then ``tTREASURE`` and ``eENEMIES`` when it has them and
    ``d`` for one made with ``drops=True`` (``ValueError`` for a dungeon laid out from a given mission, from
    prefabs, with ``shapes`` or ``interior``, or with another ``branching`` or ``attempts``: a code holds none of
    them)."""
    recorded = level.options.get("dungeon")
    if (not isinstance(recorded, dict) or not {"rooms", "locks", "pattern"} <= set(recorded) <= _CODED
            or recorded.get("drops", True) is not True):
        why = ("it was laid out from a mission given to it" if not isinstance(recorded, dict) else
               f"it was made with {', '.join(sorted(set(recorded) - _CODED)) or 'drops'}=")
        raise ValueError(f"this dungeon has no level code: {why}, which a code does not hold (a code names "
                         "mp.generate('dungeon', width, height, seed=, rooms=, locks=, pattern=)); save it as "
                         "JSON or a Tiled map instead")
    if "+" in str(level.seed):
        raise ValueError(f"seed {level.seed!r} holds '+', which in a level code starts the counts: this dungeon "
                         "has no unambiguous code")
    code = (f"dungeon-{recorded['pattern']}-{level.width}x{level.height}-{level.seed}"
            f"+r{recorded['rooms']}k{recorded['locks']}"
            + "".join(f"{letter}{recorded[name]}" for letter, name in (("t", "treasure"), ("e", "enemies"))
                      if recorded.get(name))
            + ("d" if recorded.get("drops") else ""))
    if tuple(parse_level_code(code)) != (f"dungeon-{recorded['pattern']}", level.width, level.height, level.seed):
        raise ValueError(f"seed {level.seed!r} does not make an unambiguous code")
    return code


def dungeon_from_code(code: LevelCode) -> Level:
    """The dungeon a parsed level code names (``dungeon-PATTERN-WxH-seed+rNkM``, ``tT`` and ``eE`` after it for
    treasure and enemies, ``d`` for drops; ``dungeon-WxH-seed`` is the
    default pattern, rooms and locks): :func:`generate_dungeon` with them, byte for byte the level it names."""
    algorithm, width, height, seed = code
    pattern = algorithm[len("dungeon-"):] if algorithm != "dungeon" else _DEFAULTS["pattern"]
    if pattern not in PATTERNS:
        raise ValueError(f"level code {algorithm}-{width}x{height}-{seed}: {pattern!r} is not a dungeon pattern; "
                         f"dungeon codes are dungeon-PATTERN-WxH-seed+rNkM with PATTERN one of "
                         f"{', '.join(PATTERNS)}")
    others = sorted(set(code.content) - {"rooms", "keys", "drops", *_STOCK})
    if others or code.grid != "square":
        what = others[0] if others else f"grid {code.grid}"
        raise ValueError(f"level code of a dungeon holds only r (rooms), k (locks), t (treasure), e (enemies) "
                         f"and d (drops) after '+', not {what}")
    stock = {name: code.content[name] for name in _STOCK if code.content.get(name)}
    more: Dict[str, Any] = {"drops": True} if code.content.get("drops") else {}
    return generate_dungeon(width, height, seed, rooms=code.content.get("rooms", _DEFAULTS["rooms"]),
                            refused=stock, locks=code.content.get("keys", _DEFAULTS["locks"]), pattern=pattern,
                            **more)
