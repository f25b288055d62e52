"""The one seam: where a lower layer's convenience call reaches a higher layer.

Data flows one way in mazeplugin (see ``docs/architecture.md``): nothing
imports from a layer above it. A few conveniences would break that rule,
and this module is the only place they do, each with an import inside the
function so that nothing above is loaded until it is asked for:

- every level's ``save``, ``to_svg`` and ``to_json`` (and the deprecated
  per-format ``save_*``/``load_*``/``from_json`` aliases) reach
  :mod:`mazeplugin.formats` (:func:`formats` imports a format module by name);
- :meth:`mazeplugin.rooms.Prefab.from_tiled` reaches the Tiled reader;
- picture files (``save_png`` and picture masks) reach :mod:`mazeplugin.pg`,
  the one package that imports pygame;
- ``generate("dungeon", ...)``, a dungeon's level code (``level_code``,
  ``level_from_code``) and ``level.mission`` reach :mod:`mazeplugin.dungeon`
  (:func:`dungeons`), the layer above the pipeline that lays dungeons out.

``tests/test_architecture.py`` allows upward imports here and nowhere else.

>>> import mazeplugin as mp
>>> level = mp.generate("kruskal", 3, 2, seed=1)
>>> formats("jsonio").from_json(to_json(level)).tiles.tobytes() == level.tiles.tobytes()
True
"""

from __future__ import annotations

import importlib
import os
import warnings
from types import ModuleType
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple, Union

if TYPE_CHECKING:  # pragma: no cover - types only
    import numpy as np
    from numpy.typing import NDArray


PathLike = Union[str, "os.PathLike[str]"]

PYGAME_MISSING = (
    'writing PNG files needs pygame: pip install "mazeplugin[pygame]" '
    "(or pip install pygame-ce, or pygame; either one works)"
)

__all__ = ["formats", "deprecated", "saver", "loader", "to_svg", "to_json", "save", "read_prefab", "mask_from_picture",
           "pygame_package", "PYGAME_MISSING", "dungeons", "mission_of"]


def pygame_package(missing: str = PYGAME_MISSING) -> ModuleType:
    """:mod:`mazeplugin.pg`, or an ``ImportError`` saying ``missing`` when pygame is not installed."""
    try:  # import_module reads sys.modules first, so a pygame-less test can hide the package
        return importlib.import_module(f"{__package__}.pg")
    except ImportError as error:
        raise ImportError(missing) from error


def formats(name: str) -> Any:
    """The format module ``mazeplugin.formats.<name>``, imported on first use (the per-format aliases use it)."""
    return importlib.import_module(f"{__package__}.formats.{name}")


def dungeons() -> Any:
    """:mod:`mazeplugin.dungeon.dungeons` (``generate_dungeon``, ``dungeon_code``, ``dungeon_from_code``), imported
    on first use: ``generate("dungeon", ...)`` and dungeon level codes, asked for in the pipeline layer."""
    return importlib.import_module(f"{__package__}.dungeon.dungeons")


def mission_of(level: Any) -> Any:
    """``level.mission``: a dungeon level's mission on its tiles (``dungeon.laid.laid_mission``), or None for a
    level that is not a dungeon (without importing the dungeon layer)."""
    if level.algorithm != "dungeon" or "mission" not in level.options:
        return None
    return importlib.import_module(f"{__package__}.dungeon.laid").laid_mission(level)


def deprecated(old: str, new: str) -> None:
    """Warn that ``old`` is deprecated, naming ``new`` (a ``DeprecationWarning`` at the caller's caller)."""
    warnings.warn(f"{old} is deprecated; use {new}", DeprecationWarning, stacklevel=3)


def saver(owner: str, format: str) -> Any:
    """A deprecated ``save_<format>(path, **options)`` method of ``owner``: :func:`save` in ``format`` (the same
    bytes as before: the writers' defaults are the methods' were), after a warning naming ``level.save(path)``."""
    def method(level: Any, path: PathLike, **options: Any) -> None:
        deprecated(f"{owner}.save_{format}(path)", f"level.save(path) with a{'n' * (format == 'npy')} .{format} path")
        save(level, path, format, options)

    method.__name__ = method.__qualname__ = f"save_{format}"
    method.__doc__ = f"Deprecated: ``level.save(path, **options)`` with a ``.{format}`` path."
    return method


def loader(owner: str, name: str, module: str, function: str, **fixed: Any) -> Any:
    """A deprecated classmethod ``name`` of ``owner`` that reads as ``formats.<module>.<function>`` (called with its
    arguments and ``fixed``) did, after a warning naming ``mp.load(path)`` (or ``mp.from_json(text)``)."""
    new = "mp.from_json(text)" if name == "from_json" else "mp.load(path)"

    def method(cls: Any, /, *args: Any, **options: Any) -> Any:
        deprecated(f"{owner}.{name}({new[new.index('(') + 1:-1]})", new)
        return getattr(formats(module), function)(*args, **options, **fixed)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Deprecated: ``{new}``."
    return classmethod(method)


def to_svg(level: Any, cell: float, show_solution: bool) -> str:
    """Any level as an SVG picture (``formats.svg``: a square tilemap's tiles, any other grid's cell outlines)."""
    text: str = formats("svg").to_svg(level, cell=cell, show_solution=show_solution)
    return text


def to_json(level: Any) -> str:
    """Any level as JSON text (``formats.jsonio``, every grid)."""
    text: str = formats("jsonio").to_json(level)
    return text


def save(level: Any, path: PathLike, format: Optional[str], options: Dict[str, Any]) -> None:
    """``level.save(path, **options)``: by the suffix, or ``format`` (``formats.level_files.save``); PNG
    pictures drawn by ``pg`` (``ImportError`` without pygame)."""
    files = formats("level_files")
    if files.save_format(level, path, format, options) != "png":
        files.save(level, path, format=format, **options)
    else:  # written safely, like every level file; the SVG's picture: tiles on a square level, else cells
        picture = options if level.kind == "square" else {"cell": 20, **options}
        pygame_package().save_png(level, path, **picture)


def read_prefab(path: PathLike) -> Tuple["NDArray[np.uint8]", "NDArray[np.bool_]", str]:
    """A prefab room drawn in Tiled: ``(tiles, doors, source)``; see ``formats.tiled_read.read_prefab``."""
    from .formats.tiled_read import read_prefab as read

    return read(path)


def mask_from_picture(path: Any, missing: str) -> Any:
    """The cells of a mask picture (``mazeplugin.pg.mask_from_image``); ``ImportError(missing)`` without pygame."""
    return pygame_package(missing).mask_from_image(path)
