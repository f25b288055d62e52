"""Any level file mazeplugin writes, loaded by one call: square or grid, JSON, Tiled or ``.npy``.

:func:`load_level` picks the loader by the file's extension, and for JSON and
Tiled maps by what the file says it holds: a square :class:`~mazeplugin.Level`
(``"format": "mazeplugin.level"``, an orthogonal Tiled map, an ``.npy``
tilemap) or a :class:`~mazeplugin.GridLevel` (``"format":
"mazeplugin-grid-level"``: hex, triangle, polar or wrapping levels; a
hexagonal Tiled map). A game that lets its players open level files needs
only this.

>>> import os, tempfile
>>> import mazeplugin as mp
>>> folder = tempfile.mkdtemp()
>>> mp.generate("wilson", 5, 4, seed=3, grid="hex").save_json(os.path.join(folder, "hex.json"))
>>> mp.generate("kruskal", 5, 4, seed=3).save_tmx(os.path.join(folder, "square.tmx"))
>>> [type(load_level(os.path.join(folder, name))).__name__ for name in ("hex.json", "square.tmx")]
['GridLevel', 'Level']
"""

from __future__ import annotations

import os
from typing import Callable, Dict, Optional, Union

from ..errors import LevelFormatError
from ..grid_level import GridLevel
from ..level import Level
from . import grid_json, jsonio
from .files import PathLike, read_limited
from .jsontext import parse_json
from .tiled_read import load_tiled

__all__ = ["LEVEL_EXTENSIONS", "load_level"]

LEVEL_EXTENSIONS = (".json", ".tmx", ".tmj", ".npy")
"""The extensions :func:`load_level` reads."""


def load_level(path: PathLike, *, corridor: Optional[int] = None,
               wall: Optional[int] = None) -> Union[Level, GridLevel]:
    """The level in the file at ``path``: a :class:`~mazeplugin.Level` or a :class:`~mazeplugin.GridLevel`.

    By extension: ``.json`` (a square or a grid level's JSON, told apart by its
    ``"format"``), ``.tmx`` / ``.tmj`` (an orthogonal Tiled map is a square
    level, a hexagonal one a hex level), ``.npy`` (a square tilemap).
    ``corridor`` and ``wall`` are for square Tiled maps and ``.npy`` files (see
    :func:`~mazeplugin.formats.load_tiled` and ``Level.load_npy``); JSON files
    record their own. Every fault is a :class:`LevelFormatError` (a
    ``ValueError``) naming the file; another extension is a ``ValueError``
    naming the ones read.
    """
    source = os.fspath(path)
    extension = os.path.splitext(source)[1].lower()
    if extension == ".json":
        for name, given in (("corridor", corridor), ("wall", wall)):
            if given is not None:
                raise ValueError(f"{name}= is for .tmx, .tmj and .npy files; a .json level records its own")
        return _json(source)
    if extension in (".tmx", ".tmj"):
        return load_tiled(source, corridor=corridor, wall=wall)
    if extension == ".npy":
        return jsonio.load_npy(source, corridor=1 if corridor is None else corridor, wall=1 if wall is None else wall)
    raise ValueError(f"path must name a level file ending in {', '.join(LEVEL_EXTENSIONS)}; "
                     f"got {extension or 'no extension'} ({source})")


def _json(source: str) -> Union[Level, GridLevel]:
    limit = max(jsonio.MAX_JSON_CHARS, grid_json.MAX_JSON_CHARS)
    raw = read_limited(source, limit, what="a level")
    data = parse_json(raw, source, what="a level", strings=limit)
    kind = data.get("format") if isinstance(data, dict) else None
    if kind == jsonio.GRID_FORMAT and len(raw) > grid_json.MAX_JSON_CHARS:
        raise LevelFormatError(f"{source}: {len(raw):,} bytes is more than a grid level's {grid_json.MAX_JSON_CHARS:,}")
    makers: Dict[object, Callable[[object, str], Union[Level, GridLevel]]] = {
        jsonio.FORMAT: jsonio.from_data, jsonio.GRID_FORMAT: grid_json.from_data}
    maker = makers.get(kind)
    if maker is None:
        raise LevelFormatError(f"{source}: not a mazeplugin level (\"format\" must be {jsonio.FORMAT!r} for a square "
                               f"level or {jsonio.GRID_FORMAT!r} for a grid level)")
    return maker(data, source)
