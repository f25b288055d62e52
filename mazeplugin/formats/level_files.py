"""Every level file, one way: :func:`load` reads any level file mazeplugin writes, :func:`save` writes one.

``mp.load(path)`` reads a level of any grid (:class:`~mazeplugin.AnyLevel`)
from ``.json`` (a square or a grid level's JSON, or a Tiled JSON map, told
apart by what the text says it is), ``.tmx``/``.tmj`` (an orthogonal Tiled map
is a square level, a hexagonal one a hex level) or ``.npy`` (a square
tilemap); a file with another suffix is read by its content (JSON text, a
Tiled XML map, an ``.npy`` array). ``level.save(path, **options)`` writes by
the suffix — ``.json``, ``.tmx``, ``.tmj``, ``.npy``, ``.svg``, ``.png``,
``.txt`` — and refuses a suffix the level's grid cannot hold (a Tiled map of a
triangle level, an ``.npy`` of a hex level) before anything is written.
``format=`` names the format where the suffix does not. The bytes are those of
the format modules (:mod:`~mazeplugin.formats.jsonio` for every grid's JSON,
:mod:`~mazeplugin.formats.tiled`, :mod:`~mazeplugin.formats.svg`, ...);
PNG pictures are drawn by :mod:`mazeplugin.pg`, reached through
:mod:`mazeplugin.seam`.

>>> import os, tempfile
>>> import mazeplugin as mp
>>> folder = tempfile.mkdtemp()
>>> mp.generate("wilson", 5, 4, seed=3, grid="hex").save(os.path.join(folder, "hex.json"))
>>> mp.generate("kruskal", 5, 4, seed=3).save(os.path.join(folder, "square.tmx"))
>>> [load(os.path.join(folder, name)).kind for name in ("hex.json", "square.tmx")]
['hex', 'square']
>>> mp.generate("kruskal", 5, 4, seed=3, grid="triangle").save(os.path.join(folder, "t.tmx"))
Traceback (most recent call last):
...
ValueError: a triangle level cannot be saved as .tmx (a Tiled map holds square and hex levels); it saves as .json, .svg, .png
"""

from __future__ import annotations

import os
from typing import Any, Dict, Mapping, Optional, Tuple, cast

from .. import seam
from ..errors import LevelFormatError
from ..level import Level
from ..level_protocol import AnyLevel
from . import jsonio, rebuild
from .files import PathLike, open_regular, read_limited, write_text
from .jsonio import from_json
from .jsontext import parse_json

__all__ = ["LEVEL_EXTENSIONS", "SAVE_EXTENSIONS", "load", "load_level", "save", "save_format", "from_json"]

LEVEL_EXTENSIONS = (".json", ".tmx", ".tmj", ".npy")
"""The suffixes :func:`load` reads by name (any other file is read by its content)."""

SAVE_EXTENSIONS = (".json", ".tmx", ".tmj", ".npy", ".svg", ".png", ".txt")
"""The suffixes :func:`save` writes."""

_PICTURE, _GRIDS = ("cell", "show_solution"), ("square", "hex", "triangle", "polar", "wrap")
_WRITERS: Dict[str, Dict[str, Tuple[str, ...]]] = {  # format: {kind of level: the options its writer takes}
    "json": dict.fromkeys(_GRIDS, ()), "tmx": {"square": ("tile",), "hex": ("tile",)},
    "tmj": {"square": ("tile",), "hex": ("tile",)}, "npy": {"square": ()}, "svg": dict.fromkeys(_GRIDS, _PICTURE),
    "png": dict(dict.fromkeys(_GRIDS, _PICTURE), square=("tile", "show_solution")),
    "txt": {"square": ("style",), "hex": (), "wrap": ()},
}
_WHY = {"tmx": "a Tiled map holds square and hex levels", "tmj": "a Tiled map holds square and hex levels",
        "npy": "an .npy tilemap holds square levels", "txt": "text holds levels with a tilemap"}


def _kind(level: AnyLevel) -> str:
    """``square`` (weave included), ``wrap`` (a square level that wraps), ``hex``, ``triangle`` or ``polar``."""
    if not isinstance(level, AnyLevel):
        raise TypeError(f"level must be a mazeplugin level (mp.AnyLevel), not {type(level).__name__}")
    return level.kind


def _describe(kind: str, level: AnyLevel) -> str:
    return f"a wrapping square level (wrap={level.options.get('wrap')!r})" if kind == "wrap" else f"a {kind} level"


def save_format(level: AnyLevel, path: PathLike, format: Optional[str] = None,
                options: Mapping[str, Any] = {}) -> str:
    """The format :func:`save` writes ``level`` to ``path`` in (``format``, else the suffix), with ``options``
    checked against what that writer takes; ``ValueError``/``TypeError`` saying what is allowed otherwise."""
    kind = _kind(level)
    if format is None:
        suffix = os.path.splitext(os.fspath(path))[1].lower()
        if suffix not in SAVE_EXTENSIONS:
            raise ValueError(f"path must end in {', '.join(SAVE_EXTENSIONS)} (the format is chosen by the suffix), "
                             f"got {suffix or 'no suffix'} ({os.fspath(path)}); or give format=")
        format = suffix[1:]
    elif format not in _WRITERS:
        raise ValueError(f"format must be one of {', '.join(_WRITERS)}, got {format!r}")
    writers = _WRITERS[format]
    if kind not in writers:
        held = ", ".join(f".{name}" for name, kinds in _WRITERS.items() if kind in kinds)
        raise ValueError(f"{_describe(kind, level)} cannot be saved as .{format} ({_WHY[format]}); it saves as {held}")
    unknown, allowed = sorted(set(options) - set(writers[kind])), writers[kind]
    if unknown:
        takes = f"takes {', '.join(allowed)}" if allowed else "takes no options"
        raise TypeError(f"save() got option {unknown[0]!r}: a .{format} of {_describe(kind, level)} {takes}")
    return format


def save(level: AnyLevel, path: PathLike, *, format: Optional[str] = None, **options: Any) -> None:
    """Write ``level`` to ``path`` in the format its suffix names (or ``format``); see the module docstring.

    Options go to the format's writer: ``tile`` (pixels per tile) for ``.tmx``/``.tmj`` and a square
    level's ``.png``; ``cell`` and ``show_solution`` for ``.svg`` and a grid level's ``.png``; ``style``
    (``"ascii"``, ``"blocks"``, ``"box"``, ``"digits"``) for a square level's ``.txt``. PNG needs pygame
    and is written by :func:`mazeplugin.seam.save`, which calls this for every other format.
    """
    format = save_format(level, path, format, options)
    if format == "png":
        raise ValueError("PNG pictures are drawn by mazeplugin.pg: save them with level.save(path)")
    if format == "svg":
        write_text(path, level.to_svg(**options))
    elif format == "json":
        write_text(path, level.to_json())
    elif format == "npy":
        rebuild.save_npy(level, path)  # type: ignore[arg-type]  # (save_format: square levels only)
    elif format == "txt":
        text = cast(Level, level).to_text(**options) if level.kind == "square" else str(level)
        write_text(path, text + "\n")
    else:  # tmx, tmj: square and hex maps alike
        from . import tiled

        (tiled.save_tmx if format == "tmx" else tiled.save_tmj)(cast(Level, level), path, **options)


def load(path: PathLike, *, corridor: Optional[int] = None, wall: Optional[int] = None) -> AnyLevel:
    """The level in the file at ``path``, of any grid (a :class:`~mazeplugin.Level`).

    By suffix: ``.json`` (a square or a grid level's JSON, told apart by its ``"format"``; a Tiled JSON
    map), ``.tmx`` / ``.tmj`` (an orthogonal Tiled map is a square level, a hexagonal one a hex level),
    ``.npy`` (a square tilemap); another suffix, or none, by the content. ``corridor`` and ``wall`` are
    for square Tiled maps and ``.npy`` files (the corridor and wall widths in tiles, which an ``.npy``
    cannot record); JSON files record their own. Every fault is a :class:`LevelFormatError` (a
    ``ValueError``) naming the file.
    """
    source = os.fspath(path)
    kind = os.path.splitext(source)[1].lower()[1:]
    if f".{kind}" not in LEVEL_EXTENSIONS:
        kind = _sniff(source)
    if kind == "json":
        return _json(source, corridor, wall)
    if kind in ("tmx", "tmj"):
        from .tiled_read import load_tiled

        return load_tiled(source, corridor=corridor, wall=wall)
    return rebuild.load_npy(source, corridor=1 if corridor is None else corridor, wall=1 if wall is None else wall)


def load_level(path: PathLike, *, corridor: Optional[int] = None, wall: Optional[int] = None) -> AnyLevel:
    """Deprecated: :func:`load` (``mp.load``), which reads every level file by suffix and content."""
    seam.deprecated("mazeplugin.formats.load_level(path)", "mp.load(path)")
    return load(path, corridor=corridor, wall=wall)


def _sniff(source: str) -> str:
    """A file's format by its first bytes: ``npy``, ``tmx`` (XML) or ``json``."""
    with open_regular(source, what="a level") as f:
        head = f.read(64)
    if head.startswith(b"\x93NUMPY"):
        return "npy"
    start = head.lstrip()[:1]
    if start == b"<" and head.lstrip()[:4] != b"<svg":
        return "tmx"
    if start in (b"{", b"["):
        return "json"
    if head.startswith(b"\x89PNG") or head.lstrip()[:4] == b"<svg":  # (an SVG with no XML declaration)
        raise LevelFormatError(f"{source}: a picture of a level, which mazeplugin does not read back; level files "
                               f"are JSON, Tiled maps and .npy arrays ({', '.join(LEVEL_EXTENSIONS)})")
    raise LevelFormatError(f"{source}: not a level file mazeplugin reads (JSON, a Tiled map or an .npy array); "
                           f"level files end in {', '.join(LEVEL_EXTENSIONS)}")


def _json(source: str, corridor: Optional[int], wall: Optional[int]) -> AnyLevel:
    raw = read_limited(source, jsonio.MAX_JSON_CHARS, what="a level")
    data = parse_json(raw, source, what="a level", strings=jsonio.MAX_JSON_CHARS)
    if isinstance(data, dict) and data.get("type") == "map" and "format" not in data:  # a Tiled JSON map
        from .tiled_read import load_tiled

        return load_tiled(source, corridor=corridor, wall=wall)
    for name, given in (("corridor", corridor), ("wall", wall)):
        if given is not None:
            raise ValueError(f"{name}= is for Tiled maps and .npy files; a level's .json records its own")
    return jsonio.from_data(data, source, len(raw))
