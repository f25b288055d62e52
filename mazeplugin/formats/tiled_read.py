"""Tiled maps back into levels: ``.tmx`` (XML) and ``.tmj`` (JSON), as saved or as a designer edited them.

What is read (see :mod:`mazeplugin.formats.tiled` for what mazeplugin writes):

- **Walls.** A tile is wall where any tile layer (group layers included)
  holds a tile whose bool property ``wall`` is true; floor elsewhere (other
  tiles, or no tile). So any tileset works: give its wall tiles the property
  (Tiled: select the tiles in the tileset, add a bool custom property
  ``wall``). Tilesets may be embedded or external (``.tsx``/``.tsj``/``.json``,
  read the same careful way). Flipped and rotated tiles count as their tile.
- **Layer data** as Tiled writes it: CSV, base64 (uncompressed, zlib or
  gzip), or XML ``<tile>`` elements in ``.tmx``; a list of ids, or base64,
  in ``.tmj``. zstd and infinite (chunked) maps are refused with a message
  saying how to save the map instead.
- **Markers.** Objects named (or of type/class) ``entrance`` and ``exit`` in
  any object layer; a point marks the tile under it, a rectangle, ellipse or
  tile object the tile under its centre.
- **Bridges** (weave levels): a tile whose string property ``tunnel`` is
  ``"east-west"`` or ``"north-south"`` (the ``bridges`` layer mazeplugin
  writes) is a bridge over a tunnel running that way; each must be a
  straight crossing (:mod:`mazeplugin.weave`), else the map is refused.
- **Map properties** ``corridor`` and ``wall`` (default 1) give the layout;
  ``generator``, ``seed`` and ``options`` are kept on the level as recorded
  (after editing they say where the map came from). ``size`` is not needed:
  the tile layer's size decides, so a map resized in Tiled loads too.
- **Orientation.** An orthogonal map is a square :class:`~mazeplugin.Level`;
  a hexagonal one (``staggeraxis="y"``, ``staggerindex="odd"``) is a hex
  :class:`~mazeplugin.GridLevel`, its tiles read as the doubled hex lattice
  by :mod:`mazeplugin.formats.tiled_hex_read` (:func:`load_tiled` gives
  either; :func:`load_hex` only the hex one). Isometric and staggered maps are refused.

Safety: the file is read through :func:`~mazeplugin.formats.files.read_limited`
(a regular file, at most ``MAX_LEVEL_FILE_BYTES``) and parsed by
:mod:`mazeplugin.formats.tiled_parse`, which refuses before it amplifies:
XML with a DOCTYPE or entity declaration (no entity expansion, no external
fetches), more XML elements or JSON lists and objects than a map holds, a
layer's ``<tile>`` elements kept as an array and refused past the map's size.
The map's size is checked against ``MAX_TILES`` (and a square level's
against its layout and ``MAX_CELLS``) before any tile data is decoded;
layers are decoded and looked up a block at a time
(:mod:`mazeplugin.formats.tiled_layers`), CSV text far longer than the map
needs is refused unparsed, and compressed layers inflate at most the expected
size; doors in the ``things`` layer are bounded in tiles before they are
listed (:mod:`mazeplugin.content.tiled`). Nothing in a file is executed. A bad
map raises :class:`~mazeplugin.formats.files.LevelFormatError` starting with
the file name, never another exception. The modules: ``tiled_parse`` (XML and
JSON), ``tiled_layers`` (tile layers), ``tiled_map`` (one reader of both
kinds of map), and this one (the level). The tiles are rebuilt into the maze
model by :mod:`mazeplugin.formats.rebuild`, which refuses tiles no maze could have.

>>> import os, tempfile, mazeplugin as mp
>>> folder = tempfile.mkdtemp()
>>> level = mp.generate("kruskal", 6, 4, seed=7, markers="farthest")
>>> level.save(os.path.join(folder, "level.tmx"))
>>> again = mp.load(os.path.join(folder, "level.tmx"))
>>> again.tiles.tobytes() == level.tiles.tobytes(), again.entrance == level.entrance, again.seed
(True, True, 7)
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Tuple, Union

import numpy as np
from numpy.typing import NDArray

from ..grid_level import GridLevel
from ..level import Level
from ..limits import MAX_CORRIDOR, MAX_LEVEL_FILE_BYTES, MAX_WALL, check_int
from .files import LevelFormatError, PathLike, read_limited
from .rebuild import layout_for_shape, level_from_tiles
from .recorded import LevelShape, check_options
from .tiled_common import SizeCheck, TiledMap, recorded_properties
from .tiled_hex_read import hex_level
from .tiled_map import MAX_TILESET_BYTES, read_map

__all__ = ["TiledMap", "MAX_TILESET_BYTES", "load_tiled", "load_tmx", "load_tmj", "load_hex", "read_tiled",
           "read_prefab"]


def load_tiled(path: PathLike, *, corridor: Optional[int] = None,
               wall: Optional[int] = None) -> Union[Level, GridLevel]:
    """Load a level from a Tiled map, ``.tmx`` or ``.tmj`` (by extension; other names by content): a
    :class:`~mazeplugin.Level` from an orthogonal map, a hex :class:`~mazeplugin.GridLevel` from a
    hexagonal one (:mod:`mazeplugin.formats.tiled_hex_read`).

    ``corridor`` and ``wall`` override the map's properties of those names
    (default 1 when the map has none); a hex level has neither.
    """
    tiled = read_tiled(path, _square_size(corridor, wall))
    if tiled.orientation == "hexagonal":
        return _hex(tiled, corridor, wall)
    return _level(tiled, corridor, wall)


def load_hex(path: PathLike, kind: str = "") -> GridLevel:
    """Load a hex level from a Tiled hexagonal map, ``kind`` ``"tmx"`` or ``"tmj"`` (``""``: by extension,
    else by content); an orthogonal map is refused, naming the loader for it."""
    tiled = _read(path, kind) if kind else read_tiled(path)
    if tiled.orientation != "hexagonal":
        raise LevelFormatError(f"{tiled.source}: the map is {tiled.orientation}, a square level: load it with "
                               "mp.load")
    return hex_level(tiled)


def load_tmx(path: PathLike, *, corridor: Optional[int] = None, wall: Optional[int] = None) -> Level:
    """Load a level from a Tiled XML map (``.tmx``); see the module docstring."""
    return _level(_square(_read(path, "tmx", _square_size(corridor, wall))), corridor, wall)


def load_tmj(path: PathLike, *, corridor: Optional[int] = None, wall: Optional[int] = None) -> Level:
    """Load a level from a Tiled JSON map (``.tmj``); see the module docstring."""
    return _level(_square(_read(path, "tmj", _square_size(corridor, wall))), corridor, wall)


def read_tiled(path: PathLike, check_size: Optional[SizeCheck] = None) -> TiledMap:
    """Read a Tiled map's walls, markers and properties (``.tmx`` or ``.tmj``), checking everything;
    ``check_size`` may refuse the map's size before any layer is decoded."""
    name = os.fspath(path)
    extension = os.path.splitext(name)[1].lower()
    kind = {".tmx": "tmx", ".tmj": "tmj", ".json": "tmj"}.get(extension, "")
    return _read(path, kind, check_size)


def read_prefab(path: PathLike) -> Tuple[NDArray[np.uint8], NDArray[np.bool_], str]:
    """A prefab room drawn in a Tiled map: ``(tiles, doors, source)`` for :class:`mazeplugin.Prefab`.

    The map is the room in base tiles (one tile per cell, passage or corner
    between cells: ``2*h + 1`` rows of ``2*w + 1`` for ``w`` × ``h`` cells,
    like :meth:`Prefab.from_text`'s text). Wall tiles have the bool property
    ``wall``; door marks are tiles with the bool property ``door`` or objects
    named (or of class) ``door``, on the outline; a door mark is wall until a
    door is chosen there. A map with ``corridor``/``wall`` properties other
    than 1 is refused: ``corridor=``/``wall=`` widen the prefab with the level.
    """
    tiled = _square(read_tiled(path))
    for name in ("corridor", "wall"):
        if tiled.properties.get(name, 1) != 1:
            raise LevelFormatError(
                f"{tiled.source}: a prefab map is drawn in base tiles (corridor=1, wall=1), but its {name} "
                f"property is {tiled.properties[name]!r:.40}; the level's corridor= and wall= widen the prefab"
            )
    tiles = (tiled.walls | tiled.doors).astype(np.uint8)
    return tiles, tiled.doors, tiled.source


def _read(path: PathLike, kind: str, check_size: Optional[SizeCheck] = None) -> TiledMap:
    source = os.fspath(path)
    data = read_limited(path, MAX_LEVEL_FILE_BYTES, what="a Tiled map")
    if not kind:
        kind = "tmx" if data.lstrip()[:1] == b"<" else "tmj"
    directory = os.path.dirname(os.path.abspath(source))
    return read_map(data, kind, source, directory, check_size)


def _square_size(corridor: Optional[int], wall: Optional[int]) -> SizeCheck:
    """Refuse, before the layers are decoded, an orthogonal map whose size no level has at its
    ``corridor``/``wall`` (given, else the map's properties), or whose cells or tiles pass the bounds
    (a 16384 × 16384 map, 1.4 MB of zlib data, was decoded for 28 s before its size was refused)."""
    def check(orientation: str, columns: int, rows: int, properties: Dict[str, Any], source: str) -> None:
        if orientation == "hexagonal":
            return  # a hex level (hex_level reads its lattice), or refused by _square naming its loader
        widths = _widths(properties, corridor, wall, source)
        layout_for_shape((rows, columns), widths["corridor"], widths["wall"], source=source)

    return check


# -- into a level -------------------------------------------------------------------


def _square(tiled: TiledMap) -> TiledMap:
    """Refuse a hexagonal map where a square level (or prefab) is asked for, naming the loader for it."""
    if tiled.orientation == "hexagonal":
        raise LevelFormatError(f"{tiled.source}: the map is hexagonal, a hex level: load it with "
                               "mp.load")
    return tiled


def _hex(tiled: TiledMap, corridor: Optional[int], wall: Optional[int]) -> GridLevel:
    for name, given in (("corridor", corridor), ("wall", wall)):
        if given is not None and check_int(name, given, low=1, high=1 << 30) != 1:
            raise ValueError(f"{name}= is for square levels; {tiled.source} is a hexagonal map (a hex level), "
                             f"whose tiles are one cell or passage each: leave {name}= out")
    return hex_level(tiled)


def _widths(props: Dict[str, Any], corridor: Optional[int], wall: Optional[int], source: str) -> Dict[str, int]:
    """``{"corridor": .., "wall": ..}``: the given ones, else the map's properties (default 1), checked."""
    widths = {}
    for name, given, most in (("corridor", corridor, MAX_CORRIDOR), ("wall", wall, MAX_WALL)):
        if given is not None:
            widths[name] = check_int(name, given, low=1, high=most)
            continue
        value = props.get(name, 1)
        try:
            widths[name] = check_int(f"map property {name!r}", value, low=1, high=most)
        except (TypeError, ValueError) as error:
            raise LevelFormatError(f"{source}: {error}") from None
    return widths


def _level(tiled: TiledMap, corridor: Optional[int], wall: Optional[int]) -> Level:
    source = tiled.source
    widths = _widths(tiled.properties, corridor, wall, source)
    algorithm, seed, parsed = recorded_properties(tiled)
    options: Dict[str, Any] = {}
    if parsed is not None:
        layout = layout_for_shape(tiled.walls.shape, widths["corridor"], widths["wall"], source=source)
        options = check_options(
            parsed, generator=algorithm,
            shape=LevelShape(layout.width, layout.height, layout.corridor, layout.wall), source=source,
        )
    level = level_from_tiles(
        tiled.walls.astype(np.uint8),
        corridor=widths["corridor"],
        wall=widths["wall"],
        entrance=tiled.markers.get("entrance"),
        exit=tiled.markers.get("exit"),
        algorithm=algorithm,
        seed=seed,
        options=options,
        source=source,
        bridges=tiled.bridges if tiled.bridges.any() else None,
    )
    if tiled.things:
        level.things = tiled.things
        try:
            level.check()  # a designer may have moved things: they must still make a sound level
        except ValueError as error:
            raise LevelFormatError(f"{source}: things: {error}") from None
    return level

