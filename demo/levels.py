"""Where the demo's levels come from besides a code: level files, and the difficulty of the next level.

The :class:`Levels` addon (see :mod:`demo.addons`):

- ``--level path`` plays a ``.tmx``/``.tmj`` Tiled map (as saved or as edited
  in Tiled), a ``.json`` level or an ``.npy`` tilemap (:func:`load_level_file`);
  a bad file is one line on standard error and exit status 2. R restarts
  the file's level; the levels after it are generated (its generator, if it
  names one, a little larger each time).
- ``--dungeon PATTERN`` plays dungeons (``mp.generate("dungeon", ...)``,
  :class:`demo.rules.DungeonMaker`): each level a mission of that pattern
  laid out as rooms and corridors, a little larger each time; R, N and the
  next level make dungeons too, and the HUD shows the level's code,
  ``dungeon-PATTERN-WxH-seed+rNkM``. Such a code (``--code``, typed, or R)
  plays exactly its dungeon (:func:`demo.rules.code_dungeon`), with or
  without ``--dungeon``.
- :func:`challenge` / :func:`harder_level`: each next level asks
  :func:`mazeplugin.generate` for more difficulty through ``require=``
  (more decision points along the solution, a longer detour; see
  :mod:`mazeplugin.analysis`), not only for a larger maze. "More" is
  measured against what the generator makes at that size (a fixed sample of
  its levels), so the ask means the same for every generator. When the
  generator cannot make such a level within :data:`ATTEMPTS` candidates, the
  ask is halved, then dropped, so a level always comes. The level made keeps
  its own derived seed, so its code replays it exactly (no ``require`` needed).
  ``--steady`` turns this off (levels only grow). The HUD shows the level's
  decision points ("forks").
"""

from __future__ import annotations

import argparse
import math
import os
from typing import Any, Dict, List, Optional, Tuple

import mazeplugin as mp
from mazeplugin.seeds import Seed

from .addon_api import Addon, Host
from .options import LEVEL_FILE_TYPES, level_options, load_level_file  # noqa: F401 - read from here too
from .rules import is_dungeon_code, plain_level

Bounds = Tuple[Optional[float], Optional[float]]

ATTEMPTS = 60
"""Candidates tried per ask (a few milliseconds each at the demo's sizes)."""

SAMPLES = 24
"""Levels sampled per generator and size to learn what "harder than most" means there."""

RAMP_LEVELS = 12
"""Levels over which the ask grows from "harder than a few" to "harder than nine in ten"."""

FIGURES = ("decision_points", "detour_ratio")

_calibration: Dict[Tuple[str, int, int], Dict[str, List[float]]] = {}


def calibrate(algorithm: str, width: int, height: int) -> Dict[str, List[float]]:
    """The sorted :data:`FIGURES` of :data:`SAMPLES` levels of this generator and size (cached; fixed seeds)."""
    key = (algorithm, width, height)
    if key not in _calibration:
        figures: Dict[str, List[float]] = {name: [] for name in FIGURES}
        for i in range(SAMPLES):
            stats = mp.generate(algorithm, width, height, seed=f"demo-calibration-{i}").stats()
            for name in FIGURES:
                value = getattr(stats, name)
                figures[name].append(float(value) if value is not None else 0.0)
        _calibration[key] = {name: sorted(values) for name, values in figures.items()}
    return _calibration[key]


def challenge(level_number: int, samples: Dict[str, List[float]]) -> Dict[str, Bounds]:
    """The ``require=`` bounds for level ``level_number``, from sampled figures of its generator and size.

    Level 1 asks for nothing (it is exactly the level the player chose). From
    level 2 on, the ask climbs over :data:`RAMP_LEVELS` levels: at least as
    many decision points as a fraction ``q`` of the sampled levels (``q`` from
    0.1 to 0.9) and a detour ratio above ``q / 2`` of them — harder than most
    levels this generator makes at this size, whatever the generator.

    >>> samples = {"decision_points": list(range(10, 20)), "detour_ratio": [1.0 + i / 10 for i in range(10)]}
    >>> challenge(1, samples)
    {}
    >>> challenge(2, samples), challenge(13, samples)
    ({'decision_points': (11, None), 'detour_ratio': (1.0, None)}, {'decision_points': (19, None), 'detour_ratio': (1.4, None)})
    """
    if level_number <= 1:
        return {}
    q = 0.1 + 0.8 * min(level_number - 2, RAMP_LEVELS - 1) / (RAMP_LEVELS - 1)
    decisions = samples["decision_points"]
    detours = samples["detour_ratio"]
    return {
        "decision_points": (int(decisions[min(int(q * len(decisions)), len(decisions) - 1)]), None),
        "detour_ratio": (round(detours[min(int(q / 2 * len(detours)), len(detours) - 1)], 2), None),
    }


def relaxed(require: Dict[str, Bounds]) -> List[Dict[str, Bounds]]:
    """``require``, then each lower bound halfway back to its easiest value, then nothing.

    >>> relaxed({"decision_points": (10, None), "detour_ratio": (3.0, None)})
    [{'decision_points': (10, None), 'detour_ratio': (3.0, None)}, {'decision_points': (5, None), 'detour_ratio': (2.0, None)}, {}]
    """
    if not require:
        return [{}]
    easiest = {"detour_ratio": 1.0}
    half: Dict[str, Bounds] = {}
    for name, (low, high) in require.items():
        base = easiest.get(name, 0)
        if low is not None:
            value = base + (low - base) / 2
            low = math.ceil(value) if isinstance(low, int) else round(value, 2)
        half[name] = (low, high)
    return [require, half, {}]


def harder_level(algorithm: str, width: int, height: int, seed: Seed, level_number: int, rooms: int = 0) -> mp.Level:
    """Level ``level_number``: generated with the :func:`challenge` of its number, relaxed if it cannot be met,
    with ``rooms`` random rooms.

    Level 1 (and any level made again from its code: R, G, N, +/-) is the plain level of that seed.
    """
    if level_number <= 1:
        return plain_level(algorithm, width, height, seed, level_number, rooms)
    asks = relaxed(challenge(level_number, calibrate(algorithm, width, height)))
    extra: Dict[str, Any] = {"rooms": rooms} if rooms else {}
    for require in asks[:-1]:
        try:
            return mp.generate(algorithm, width, height, seed=seed, require=require, attempts=ATTEMPTS, **extra)
        except ValueError as error:
            if not str(error).startswith("no candidate"):
                raise
    return plain_level(algorithm, width, height, seed, level_number, rooms)


class Levels(Addon):
    """``--level FILE`` and levels that ask for more difficulty as the level number grows."""

    def __init__(self, app: Host, *, harder: bool = True, path: Optional[str] = None,
                 level: "mp.AnyLevel | None" = None) -> None:
        super().__init__(app)
        self.harder = harder
        self._forks: Optional[Tuple[int, int]] = None  # (game version, decision points)
        game = app.game
        if harder:
            game.make_level = harder_level
        if path is not None and level is not None and level.kind == "square":  # a grid level file: demo.gridplay plays it
            game.play(level, os.path.basename(path))
            game.level_file = path
            if level.algorithm in mp.algorithms():
                game.algorithm = level.algorithm
            game.width, game.height = level.width, level.height
            if isinstance(level.seed, int):
                game.seed = level.seed

    add_arguments = staticmethod(level_options)

    @classmethod
    def create(cls, app: Host, options: argparse.Namespace) -> "Levels":
        path, level = options.level if options.level is not None else (None, None)
        made = cls(app, harder=not options.steady, path=path, level=level)
        pattern = getattr(options, "dungeon", None)
        if pattern is not None and path is None:  # --dungeon: every level a dungeon of that mission pattern
            game = app.game
            game.dungeon, game.dungeon_drops = pattern, bool(getattr(options, "drops", False))
            if options.code is None or not is_dungeon_code(options.code[0]):  # a dungeon's code plays as given
                game.try_load(game.algorithm, game.width, game.height, game.seed)
        return made

    def hud_flags(self) -> List[str]:
        game = self.app.game
        if self._forks is None or self._forks[0] != game.version:
            forks = game.forks if game.forks is not None else game.level.stats().decision_points  # ahead, or here
            self._forks = (game.version, forks or 0)
        return [f"{self._forks[1]} forks"]
