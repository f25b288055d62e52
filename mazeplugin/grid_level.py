"""Deprecated: ``GridLevel`` is :class:`~mazeplugin.Level`, the one level class for every grid (kept one release).

``GridLevel(maze, width=..., height=..., entrance=..., ...)`` still makes a
working level, a :class:`~mazeplugin.Level`, after a ``DeprecationWarning``;
``isinstance(level, GridLevel)`` still tells a level that is not square
(``level.kind != "square"``, the way to ask now), and ``GridLevel.load_json``
and the other per-format loaders still read what they read, warning as
``Level``'s do.

>>> import warnings, mazeplugin as mp
>>> from mazeplugin.grids import GridMaze, HexGrid
>>> with warnings.catch_warnings(record=True) as said:
...     warnings.simplefilter("always")
...     level = GridLevel(GridMaze(HexGrid(2, 1)), width=2, height=1)
>>> type(level) is mp.Level, level.kind, isinstance(level, GridLevel), str(said[0].message)
(True, 'hex', True, 'mazeplugin.GridLevel(maze, ...) is deprecated; use mazeplugin.Level(maze, ...)')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import seam
from .level import Level

__all__ = ["GridLevel"]

if TYPE_CHECKING:  # pragma: no cover - to a type checker the alias is the one class
    GridLevel = Level
else:
    class _Deprecated(type):
        def __instancecheck__(cls, level: Any) -> bool:
            return isinstance(level, Level) and level.kind != "square"

    class GridLevel(Level, metaclass=_Deprecated):
        """Deprecated: :class:`~mazeplugin.Level` (see the module docstring)."""

        def __new__(cls, maze: Any, **options: Any) -> Level:
            seam.deprecated("mazeplugin.GridLevel(maze, ...)", "mazeplugin.Level(maze, ...)")
            return Level(maze, **options)

        load_tmx = seam.loader("GridLevel", "load_tmx", "tiled_read", "load_hex", kind="tmx")
        load_tmj = seam.loader("GridLevel", "load_tmj", "tiled_read", "load_hex", kind="tmj")
        load_json = seam.loader("GridLevel", "load_json", "jsonio", "load_json")
        from_json = seam.loader("GridLevel", "from_json", "jsonio", "from_json")
