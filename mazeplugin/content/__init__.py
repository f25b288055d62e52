"""Level content: keys and locked doors, treasure, enemies and a game's own kinds, placed so the level stays solvable.

A layer above the maze model: it reads a :class:`~mazeplugin.level.Level`
(tiles, entrance, exit) and returns the things standing on it. Doors and keys
are placed by construction on the floor graph, and :func:`check` proves the
result (``level.check()``); :func:`solve` is the key-aware solver behind
``level.solution()``.

>>> import mazeplugin as mp
>>> level = mp.generate("backtracker", 30, 20, seed=7, keys=2, treasure=5, enemies=3)
>>> [t.kind for t in level.things][:4]
['key', 'door', 'key', 'door']
>>> level.check()
>>> walk = level.solution()
>>> [t.id for t in level.things if t.kind == "key" and t.tile in walk]
[1, 3]

On any other level, e.g. a chunk of an endless world, with its own seed:

>>> chunk = mp.generate("kruskal", 16, 16, seed=99, markers="none")
>>> chunk = furnish(chunk, treasure=4, place=[mp.Place("torch", 6, where="junctions")], seed=12345)
>>> [t.kind for t in chunk.things].count("torch")
6

On a hex, triangle, polar or wrapping square level the same keywords place
:class:`CellThing` s on cells, doors on passages (:mod:`.placing`):

>>> hexes = mp.generate("wilson", 12, 8, grid="hex", seed=7, keys=2, treasure=3)
>>> [(t.kind, t.cell) for t in hexes.things][:2]
[('key', 28), ('door', 14)]
>>> hexes.check()
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .things import DOOR, ENEMY, KEY, KINDS, MARKS, TREASURE, WHERE, CellThing, Place, Thing

if TYPE_CHECKING:  # pragma: no cover - at run time placement, proof and grid content load on first use (__getattr__)
    from .cells import CellGraph
    from .placing import CONTENT_STREAM, ENEMY_DISTANCE, PATROL_CELLS, furnish, furnish_grid, place_things
    from .proof import ContentError, check, check_cells, solve, solve_cells

_LAZY = {"CONTENT_STREAM": "placing", "ENEMY_DISTANCE": "placing", "PATROL_CELLS": "placing",
         "furnish": "placing", "place_things": "placing", "ContentError": "proof", "check": "proof",
         "solve": "proof", "furnish_grid": "placing", "check_cells": "proof", "solve_cells": "proof",
         "CellGraph": "cells"}
"""Placement and its proof (needed only for a level with content) and content on grid levels: ``import
mazeplugin`` does not load them (nor the grids through them); ``from mazeplugin.content import furnish``
works as ever."""


def __getattr__(name: str) -> Any:
    """Placement, the proof and the grid content names load their modules on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> "list[str]":
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "CONTENT_STREAM",
    "CellGraph",
    "CellThing",
    "ContentError",
    "DOOR",
    "ENEMY",
    "ENEMY_DISTANCE",
    "KEY",
    "KINDS",
    "MARKS",
    "PATROL_CELLS",
    "Place",
    "TREASURE",
    "Thing",
    "WHERE",
    "check",
    "check_cells",
    "furnish",
    "furnish_grid",
    "place_things",
    "solve",
    "solve_cells",
]
