"""mazeplugin: seeded, reproducible maze levels for pygame games, as numpy tilemaps.

>>> import mazeplugin as mp
>>> level = mp.generate("kruskal", width=20, height=15, seed=7)
>>> level.tiles.shape, mp.WALL, mp.FLOOR
((31, 41), 1, 0)
>>> mp.algorithms()  # doctest: +NORMALIZE_WHITESPACE
['aldous-broder', 'backtracker', 'binary-tree', 'division', 'eller', 'growing-tree',
 'hunt-and-kill', 'kruskal', 'prim', 'prim-simplified', 'rooms', 'sidewinder',
 'union-find', 'wilson']

Coordinates are ``(x, y)`` everywhere in the API (pygame's order); arrays
are indexed ``[y, x]`` (numpy's order). Cell ``(cx, cy)`` is tile
``(2*cx + 1, 2*cy + 1)``.
"""

from __future__ import annotations

from .interrupt import guard_start as _guard_start

_guard_start()  # first: Ctrl-C while the mazeplugin command imports is one line, not a traceback

from typing import TYPE_CHECKING, Any  # noqa: E402

from . import content  # noqa: E402
from .api import MAX_CELLS, MAX_TILES, generate, grid_level_from_code, level_from_code, stream  # noqa: E402
from .level import Level
from .maze import UNDER_EAST_WEST, UNDER_NORTH_SOUTH, Maze
from . import seeds
from .errors import LevelFormatError
from .registry import (
    GRIDS,
    GeneratorInfo,
    PluginWarning,
    algorithms,
    get_generator,
    load_plugins,
    register,
    unregister,
)
from .seeds import Random
from .content import DOOR, ENEMY, KEY, TREASURE, Place, Thing
from .tiles import ENTRANCE, EXIT, FLOOR, WALL, wall_neighbours

if TYPE_CHECKING:  # pragma: no cover - for type checkers; at run time these load on first use (__getattr__)
    from .codes import level_code, looks_like_level_code, parse_level_code
    from .content.cells import CellThing
    from .dungeon import Mission, dungeon_level, mission
    from .grid_level import GridLevel
    from .formats.level_files import from_json, load
    from .level_protocol import AnyLevel
    from .rooms import Prefab
    from .world import World

_LAZY = {
    "World": "world",
    "Mission": "dungeon",
    "mission": "dungeon",
    "dungeon_level": "dungeon",
    "CellThing": "content.cells",
    "GridLevel": "grid_level",
    "AnyLevel": "level_protocol",
    "load": "formats.level_files",
    "from_json": "formats.level_files",
    "Prefab": "rooms",
    "level_code": "codes",
    "looks_like_level_code": "codes",
    "parse_level_code": "codes",
}
"""Public names a first square level does not need: their modules load on first use, so ``import mazeplugin`` stays quick."""

__version__ = "0.1.0"

__all__ = [
    "DOOR",
    "ENEMY",
    "KEY",
    "TREASURE",
    "Place",
    "Thing",
    "CellThing",
    "content",
    "ENTRANCE",
    "EXIT",
    "FLOOR",
    "WALL",
    "MAX_CELLS",
    "MAX_TILES",
    "GeneratorInfo",
    "GRIDS",
    "Level",
    "LevelFormatError",
    "Maze",
    "Prefab",
    "Random",
    "algorithms",
    "generate",
    "get_generator",
    "level_code",
    "level_from_code",
    "looks_like_level_code",
    "grid_level_from_code",
    "AnyLevel",
    "load",
    "from_json",
    "load_plugins",
    "parse_level_code",
    "PluginWarning",
    "register",
    "stream",
    "unregister",
    "wall_neighbours",
    "UNDER_EAST_WEST",
    "UNDER_NORTH_SOUTH",
    "World",
    "Mission",
    "mission",
    "dungeon_level",
]


def __getattr__(name: str) -> Any:
    """``mp.World``, ``mp.GridLevel``, ``mp.level_code``, ... load their modules on first use (PEP 562).

    The endless world (and the formats it uses), the hex/triangle/polar grids
    and level codes are not needed for a first square level, so ``import
    mazeplugin`` does not load them. ``mp.GridLevel`` (deprecated: ``mp.Level`` is every level) warns.
    """
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    if name == "GridLevel":  # deprecated: warns at each use, so it is never cached
        from .seam import deprecated

        deprecated("mazeplugin.GridLevel", "mazeplugin.Level (one class for every grid)")
        return value
    globals()[name] = value  # once loaded, an attribute like any other
    return value


def __dir__() -> "list[str]":
    return sorted(set(globals()) | set(_LAZY))
