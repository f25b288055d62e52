"""Levels out of and into other tools: SVG, PNG, Tiled TMX/TMJ, JSON and npy.

Each format lives in one module and works from a finished
:class:`~mazeplugin.level.Level` (of any grid); ``level.save(path)``,
``mp.load(path)``, ``mp.from_json(text)`` and the levels' ``to_svg``/``to_json`` are thin
calls into here (:mod:`~mazeplugin.formats.level_files` chooses the format by suffix and content).

- :mod:`~mazeplugin.formats.level_files`: :func:`load` (``mp.load``), any level file of any grid (JSON,
  Tiled or ``.npy``) by one call, and :func:`save` (``level.save``), every format by suffix.
- :mod:`~mazeplugin.formats.jsonio`: every grid's level as JSON, one writer and one reader (which fields
  each kind of file has is data: :data:`~mazeplugin.formats.jsonio.LAYOUTS`).
- :mod:`~mazeplugin.formats.rebuild`: a loaded tilemap back into the maze model, so loaded levels walk, solve
  and print like generated ones; the tilemap as ``.npy``; :func:`~mazeplugin.formats.rebuild.proved`, the one
  proof of a loaded level's things.
- :mod:`~mazeplugin.formats.recorded`: a level file's recorded options and seed, checked on load.
- :mod:`~mazeplugin.formats.svg`: a picture for browsers (a square tilemap's tiles, any other grid's cell
  outlines).
- :mod:`~mazeplugin.formats.tiled`, :mod:`~mazeplugin.formats.tiled_read`: maps for the Tiled editor (``.tmx``
  XML and ``.tmj`` JSON, a two-tile tileset image beside them; square and hex levels) and back, as saved or as a
  designer edited them (:mod:`~mazeplugin.formats.tiled_map` reads either file by one path).
- :mod:`~mazeplugin.formats.files`: safe writing (atomic for regular files, symlinks followed, devices and
  FIFOs written through, never a rename over anything else) and
  :func:`~mazeplugin.formats.files.read_limited`, which every loader reads through;
  :mod:`~mazeplugin.formats.jsontext`: JSON read safely (counted before parsing, nesting too deep refused).

PNG pictures come from :mod:`mazeplugin.pg` (pygame), the one module that imports pygame.

Loading never executes code from a file (JSON is parsed with :mod:`json`,
``.npy`` with ``allow_pickle=False``), reads only regular files and at most
its size limit (a FIFO or ``/dev/zero`` is refused, never waited on), refuses
oversized inputs before allocating their tiles, and reports a bad file as a
:class:`LevelFormatError` (a ``ValueError``) that names the file and what is
wrong with it.

>>> import mazeplugin as mp
>>> level = mp.generate("kruskal", 4, 3, seed=7)
>>> again = mp.from_json(level.to_json())
>>> bool((again.tiles == level.tiles).all()), again.solution() == level.solution()
(True, True)
"""

from __future__ import annotations

from .files import LevelFormatError, UnsafeDestinationError, atomic_path, read_limited, write_bytes, write_text
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .jsonio import load_json
    from .level_files import load, load_level, save
    from .tiled_read import load_tiled

_LAZY = {"load_json": "jsonio", "load": "level_files", "save": "level_files", "load_level": "level_files",
         "load_tiled": "tiled_read"}
"""The loaders, imported on first use (PEP 562): importing one format module (``formats.files``,
``formats.tiled_common``, ...) then does not load every reader, whose Tiled readers import
``content.tiled``, which imports ``formats.files`` (a circle when ``content.tiled`` came first)."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "LevelFormatError",
    "UnsafeDestinationError",
    "atomic_path",
    "load",
    "save",
    "load_json",
    "load_level",
    "load_tiled",
    "read_limited",
    "write_bytes",
    "write_text",
]
