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
- **Map properties** ``corridor`` and ``wall`` (default 1) give the layout;
  ``generator``, ``seed`` and ``options`` are kept on the level as recorded
  (after editing they say where the map came from). ``size`` is not needed:
  the tile layer's size decides, so a map resized in Tiled loads too.

Safety: the file is read through :func:`~mazeplugin.formats.files.read_limited`
(a regular file, at most ``MAX_LEVEL_FILE_BYTES``);
XML with a DOCTYPE or entity declaration is refused (no entity expansion, no
external fetches); the map's size is checked against ``MAX_TILES`` before
any tile data is decoded or allocated; compressed layers are inflated with
a bound of exactly the expected size; nothing in a file is executed. A bad
map raises :class:`~mazeplugin.formats.files.LevelFormatError` starting with
the file name. The tiles are rebuilt into the maze model by
:mod:`mazeplugin.formats.rebuild`, which refuses tiles no maze could have.

>>> import os, tempfile, mazeplugin as mp
>>> folder = tempfile.mkdtemp()
>>> level = mp.generate("kruskal", 6, 4, seed=7, markers="farthest")
>>> level.save_tmx(os.path.join(folder, "level.tmx"))
>>> again = mp.Level.load_tmx(os.path.join(folder, "level.tmx"))
>>> again.tiles.tobytes() == level.tiles.tobytes(), again.entrance == level.entrance, again.seed
(True, True, 7)
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import os
import zlib
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple
from xml.etree.ElementTree import Element, TreeBuilder
from xml.parsers import expat

import numpy as np
from numpy.typing import NDArray

from ..level import Level
from ..limits import MAX_CORRIDOR, MAX_LEVEL_FILE_BYTES, MAX_TILES, MAX_WALL, check_int
from ..seeds import Seed, resolve_seed
from .files import LevelFormatError, PathLike, read_limited
from .rebuild import layout_for_shape, level_from_tiles
from .recorded import LevelShape, check_options
from ..content.tiled import things_from_objects

__all__ = ["TiledMap", "load_tiled", "load_tmx", "load_tmj", "read_tiled", "read_prefab"]

MAX_TILESET_BYTES = 64 << 20
"""Largest external tileset file read (64 MiB)."""

_ROLES = ("entrance", "exit", "door")  # objects read by name, type or class
_FLIP_BITS = 0xF0000000  # Tiled's flip/rotate flags in a global tile id
_GID_LIMIT = 1 << 32


class TiledMap:
    """What a Tiled map says about a level (or a prefab room), before it is rebuilt into one.

    Attributes:
        walls: bool ``(rows, columns)``: True where a tile with ``wall`` = true lies.
        markers: ``{"entrance": (x, y), "exit": (x, y)}`` tiles (either may be missing).
        properties: the map's custom properties, by name.
        source: the file name, for messages.
        doors: bool ``(rows, columns)``: where a tile with the bool property
            ``door`` = true lies, or a ``door`` object (prefabs' door marks).
    """

    def __init__(self, walls: NDArray[np.bool_], markers: Dict[str, Tuple[int, int]],
                 properties: Dict[str, Any], source: str, doors: Optional[NDArray[np.bool_]] = None,
                 things: Tuple[Any, ...] = ()) -> None:
        self.walls = walls
        self.markers = markers
        self.properties = properties
        self.source = source
        self.doors = doors if doors is not None else np.zeros(walls.shape, dtype=bool)
        self.things = things  # from an object layer "things" (mazeplugin.content.tiled)


def load_tiled(path: PathLike, *, corridor: Optional[int] = None, wall: Optional[int] = None) -> Level:
    """Load a level from a Tiled map, ``.tmx`` or ``.tmj`` (by extension; other names by content).

    ``corridor`` and ``wall`` override the map's properties of those names
    (default 1 when the map has none).
    """
    return _level(read_tiled(path), corridor, wall)


def load_tmx(path: PathLike, *, corridor: Optional[int] = None, wall: Optional[int] = None) -> Level:
    """Load a level from a Tiled XML map (``.tmx``); see the module docstring."""
    return _level(_read(path, "tmx"), corridor, wall)


def load_tmj(path: PathLike, *, corridor: Optional[int] = None, wall: Optional[int] = None) -> Level:
    """Load a level from a Tiled JSON map (``.tmj``); see the module docstring."""
    return _level(_read(path, "tmj"), corridor, wall)


def read_tiled(path: PathLike) -> TiledMap:
    """Read a Tiled map's walls, markers and properties (``.tmx`` or ``.tmj``), checking everything."""
    name = os.fspath(path)
    extension = os.path.splitext(name)[1].lower()
    kind = {".tmx": "tmx", ".tmj": "tmj", ".json": "tmj"}.get(extension, "")
    return _read(path, kind)


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
    tiled = read_tiled(path)
    for name in ("corridor", "wall"):
        if tiled.properties.get(name, 1) != 1:
            raise LevelFormatError(
                f"{tiled.source}: a prefab map is drawn in base tiles (corridor=1, wall=1), but its {name} "
                f"property is {tiled.properties[name]!r}; the level's corridor= and wall= widen the prefab"
            )
    tiles = (tiled.walls | tiled.doors).astype(np.uint8)
    return tiles, tiled.doors, tiled.source


# -- reading files --------------------------------------------------------------


def _read(path: PathLike, kind: str) -> TiledMap:
    source = os.fspath(path)
    data = read_limited(path, MAX_LEVEL_FILE_BYTES, what="a Tiled map")
    if not kind:
        kind = "tmx" if data.lstrip()[:1] == b"<" else "tmj"
    directory = os.path.dirname(os.path.abspath(source))
    if kind == "tmx":
        return _from_xml(_parse_xml(data, source), source, directory)
    return _from_json(_parse_json(data, source), source, directory)


# -- XML, parsed safely -----------------------------------------------------------


def _parse_xml(data: bytes, source: str) -> Element:
    """An element tree from XML bytes, refusing DOCTYPE and entity declarations (no expansion, no fetching)."""
    builder = TreeBuilder()
    parser = expat.ParserCreate()

    def refuse(*_: Any) -> None:
        raise LevelFormatError(f"{source}: the XML declares a DOCTYPE or entities; Tiled maps have none, refusing it")

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse  # type: ignore[assignment]
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartElementHandler = lambda tag, attrs: builder.start(tag, attrs)
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    parser.buffer_text = True
    try:
        parser.Parse(data, True)
    except expat.ExpatError as error:
        code = getattr(error, "code", None)
        ended = code in (expat.errors.codes.get(expat.errors.XML_ERROR_NO_ELEMENTS),
                         expat.errors.codes.get(expat.errors.XML_ERROR_UNCLOSED_TOKEN))
        what = "truncated" if ended or not data.strip() else "not valid XML"
        raise LevelFormatError(f"{source}: {what}: {expat.ErrorString(code or 0)} "
                               f"at line {error.lineno}, column {error.offset}") from None
    root: Element = builder.close()
    return root


def _from_xml(root: Element, source: str, directory: str) -> TiledMap:
    if root.tag != "map":
        raise LevelFormatError(f"{source}: not a Tiled map (the XML's root is <{root.tag}>, not <map>)")
    attrs = root.attrib
    _check_map_kind(attrs.get("orientation"), attrs.get("infinite", "0") not in ("0", "false"), source)
    columns, rows = _map_size(attrs.get("width"), attrs.get("height"), source)
    tile_w = _positive_int(attrs.get("tilewidth"), "the map's tilewidth", source)
    tile_h = _positive_int(attrs.get("tileheight"), "the map's tileheight", source)
    walls_by_gid = _WallTable(source, columns, rows)
    for element in root.findall("tileset"):
        first = _positive_int(element.get("firstgid"), "a tileset's firstgid", source)
        if element.get("source") is not None:
            walls_by_gid.add(first, *_external_tileset(element.get("source", ""), source, directory))
        else:
            walls_by_gid.add(first, *_xml_tileset(element, source))
    for layer in _xml_tile_layers(root):
        walls_by_gid.paint(layer.get("name", ""), (layer.get("width"), layer.get("height")),
                           lambda count, name: _xml_layer_gids(layer.find("data"), count, name, source))
    walls, doors = walls_by_gid.finish()
    markers: Dict[str, Tuple[int, int]] = {}
    things: List[Dict[str, Any]] = []
    for group in root.iter("objectgroup"):
        for obj in group.findall("object"):
            fields = _xml_object(obj, source)
            if group.get("name") == "things" and not _is_marker(fields):  # level content: mazeplugin.content.tiled
                things.append(_xml_thing(obj, source))
                continue
            _add_marker(markers, doors, fields, (tile_w, tile_h), (columns, rows), source)
    properties = _xml_properties(root.find("properties"), "the map", source)
    return TiledMap(walls, markers, properties, source, doors,
                    things_from_objects(things, (tile_w, tile_h), (columns, rows), source))


def _is_marker(fields: Dict[str, Any]) -> bool:
    """Whether an object is an entrance or exit (by name, else by type or class): a marker even in ``things``."""
    role = fields["name"] if fields["name"] in _ROLES else fields["type"]
    return role in ("entrance", "exit")


def _xml_thing(obj: Element, source: str) -> Dict[str, Any]:
    """A ``things`` layer object: its fields, properties and polyline offsets."""
    found = _xml_object(obj, source)
    found["properties"] = _xml_properties(obj.find("properties"), f"object {found['name']!r}", source)
    line = obj.find("polyline")
    if line is not None:
        try:
            found["polyline"] = [tuple(float(v) for v in pair.split(",")) for pair in line.get("points", "").split()]
        except ValueError:
            raise LevelFormatError(f"{source}: object {found['name']!r} has polyline points that are not numbers") from None
        if any(len(p) != 2 for p in found["polyline"]):
            raise LevelFormatError(f"{source}: object {found['name']!r} has polyline points that are not x,y pairs")
    return found


def _xml_tile_layers(element: Element) -> Iterator[Element]:
    """Tile layers in document order, inside group layers too."""
    for child in element:
        if child.tag == "layer":
            yield child
        elif child.tag == "group":
            yield from _xml_tile_layers(child)


def _xml_layer_gids(data: Optional[Element], count: int, name: str, source: str) -> NDArray[np.int64]:
    if data is None:
        raise LevelFormatError(f"{source}: tile layer {name!r} has no <data>")
    encoding = data.get("encoding")
    compression = data.get("compression")
    if data.find("chunk") is not None:
        raise _infinite(source)
    if encoding is None:
        tiles = data.findall("tile")
        if len(tiles) != count:
            raise LevelFormatError(f"{source}: tile layer {name!r} has {len(tiles):,} <tile> elements, the map {count:,} tiles")
        return _gid_array([t.get("gid", "0") for t in tiles], name, source)
    text = data.text or ""
    if encoding == "csv":
        if compression:
            raise LevelFormatError(f"{source}: tile layer {name!r}: CSV data cannot be compressed ({compression!r})")
        fast = _csv_digits(text, count)
        if fast is not None:
            return _checked_gids(fast, name, source)
        tokens = text.strip().rstrip(",").split(",") if text.strip() else []
        if len(tokens) != count:
            raise LevelFormatError(
                f"{source}: tile layer {name!r} has {len(tokens):,} CSV values, the map {count:,} tiles"
                + (" (truncated?)" if len(tokens) < count else "")
            )
        return _gid_array(tokens, name, source)
    if encoding == "base64":
        return _base64_gids(text, compression, count, name, source)
    raise LevelFormatError(f"{source}: tile layer {name!r} has encoding {encoding!r}; Tiled writes csv or base64")


def _xml_tileset(element: Element, source: str) -> Tuple[Optional[int], Flags, str]:
    """``(tilecount, {tile id: (wall, door)}, name)`` of an embedded ``<tileset>``."""
    name = element.get("name", "")
    count = element.get("tilecount")
    tilecount = None if count is None else _count(count, f"tileset {name!r}'s tilecount", source)
    flags: Flags = {}
    for tile in element.findall("tile"):
        tile_id = _count(tile.get("id"), f"a tile id in tileset {name!r}", source)
        props = _xml_properties(tile.find("properties"), f"tile {tile_id} of tileset {name!r}", source)
        _tile_flags(flags, tile_id, props, name, source)
    return tilecount, flags, name


def _xml_properties(element: Optional[Element], owner: str, source: str) -> Dict[str, Any]:
    found: Dict[str, Any] = {}
    if element is None:
        return found
    for prop in element.findall("property"):
        name = prop.get("name")
        if name is None:
            raise LevelFormatError(f"{source}: a property of {owner} has no name")
        value = prop.get("value")
        if value is None:  # multi-line strings are the element's text
            value = prop.text or ""
        found[name] = _typed(value, prop.get("type", "string"), name, owner, source)
    return found


def _typed(value: Any, kind: str, name: str, owner: str, source: str) -> Any:
    """A TMX property value (text) as its Tiled type."""
    if kind == "bool":
        if value in ("true", "false"):
            return value == "true"
        raise LevelFormatError(f"{source}: bool property {name!r} of {owner} is {value!r}, not true or false")
    if kind == "int":
        try:
            return int(value)
        except ValueError:
            raise LevelFormatError(f"{source}: int property {name!r} of {owner} is {value!r}") from None
    if kind == "float":
        try:
            return float(value)
        except ValueError:
            raise LevelFormatError(f"{source}: float property {name!r} of {owner} is {value!r}") from None
    return value


def _xml_object(obj: Element, source: str) -> Dict[str, Any]:
    """An ``<object>`` as the same fields a ``.tmj`` object has."""
    found: Dict[str, Any] = {
        "name": obj.get("name", ""),
        "type": obj.get("type") or obj.get("class") or "",
        "point": obj.find("point") is not None,
        "gid": obj.get("gid"),
    }
    for key in ("x", "y", "width", "height"):
        text = obj.get(key, "0")
        try:
            found[key] = float(text)
        except ValueError:
            raise LevelFormatError(f"{source}: object {found['name']!r} has {key}={text!r}, not a number") from None
    return found


# -- JSON ---------------------------------------------------------------------------


def _parse_json(data: bytes, source: str) -> Any:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LevelFormatError(f"{source}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        ended = error.pos >= len(text.rstrip()) or error.msg.startswith("Unterminated string")
        what = "truncated" if ended else "not valid JSON"
        raise LevelFormatError(f"{source}: {what}: {error.msg} at line {error.lineno}, column {error.colno}") from None


def _from_json(data: Any, source: str, directory: str) -> TiledMap:
    if not isinstance(data, dict) or data.get("type") != "map":
        raise LevelFormatError(f"{source}: not a Tiled map (no \"type\": \"map\" at the top)")
    _check_map_kind(data.get("orientation"), bool(data.get("infinite", False)), source)
    columns, rows = _map_size(data.get("width"), data.get("height"), source)
    tile_w = _positive_int(data.get("tilewidth"), "the map's tilewidth", source)
    tile_h = _positive_int(data.get("tileheight"), "the map's tileheight", source)
    walls_by_gid = _WallTable(source, columns, rows)
    for tileset in _json_list(data, "tilesets", "the map", source):
        if not isinstance(tileset, dict):
            raise LevelFormatError(f"{source}: a tileset must be an object, got {tileset!r:.40}")
        first = _positive_int(tileset.get("firstgid"), "a tileset's firstgid", source)
        if "source" in tileset:
            walls_by_gid.add(first, *_external_tileset(tileset["source"], source, directory))
        else:
            walls_by_gid.add(first, *_json_tileset(tileset, source))
    objects: List[Any] = []
    thing_objects: List[Any] = []
    for layer in _json_layers(data, source):
        kind = layer.get("type")
        name = str(layer.get("name", ""))
        if kind == "objectgroup" and name == "things":  # level content: see mazeplugin.content.tiled
            for obj in _json_list(layer, "objects", f"object layer {name!r}", source):
                marker = isinstance(obj, dict) and _is_marker(
                    {"name": str(obj.get("name", "")), "type": str(obj.get("type") or obj.get("class") or "")})
                (objects if marker else thing_objects).append(obj)
        elif kind == "objectgroup":
            objects.extend(_json_list(layer, "objects", f"object layer {name!r}", source))
        if kind != "tilelayer":
            continue
        if "chunks" in layer:
            raise _infinite(source)
        walls_by_gid.paint(name, (layer.get("width"), layer.get("height")),
                           lambda count, name: _json_layer_gids(layer, count, name, source))
    walls, doors = walls_by_gid.finish()
    markers: Dict[str, Tuple[int, int]] = {}
    for obj in objects:
        if not isinstance(obj, dict):
            raise LevelFormatError(f"{source}: an object must be a JSON object, got {obj!r:.40}")
        fields = {
            "name": str(obj.get("name", "")),
            "type": str(obj.get("type") or obj.get("class") or ""),
            "point": obj.get("point") is True,
            "gid": obj.get("gid"),
        }
        for key in ("x", "y", "width", "height"):
            value = obj.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise LevelFormatError(f"{source}: object {fields['name']!r} has {key}={value!r}, not a number")
            fields[key] = float(value)
        _add_marker(markers, doors, fields, (tile_w, tile_h), (columns, rows), source)
    properties = _json_properties(data.get("properties"), "the map", source)
    things = things_from_objects([_json_thing(obj, source) for obj in thing_objects if obj is not None],
                                 (tile_w, tile_h), (columns, rows), source)
    return TiledMap(walls, markers, properties, source, doors, things)


def _json_thing(obj: Any, source: str) -> Dict[str, Any]:
    """A ``things`` layer object of a ``.tmj``: its fields, properties and polyline offsets."""
    if not isinstance(obj, dict):
        raise LevelFormatError(f"{source}: an object must be a JSON object, got {obj!r:.40}")
    name = str(obj.get("name", ""))
    found: Dict[str, Any] = {"name": name, "type": str(obj.get("type") or obj.get("class") or "")}
    for key in ("x", "y", "width", "height"):
        value = obj.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise LevelFormatError(f"{source}: object {name!r} has {key}={value!r}, not a number")
        found[key] = float(value)
    found["properties"] = _json_properties(obj.get("properties"), f"object {name!r}", source)
    line = obj.get("polyline")
    if line is not None:
        if not isinstance(line, list) or not all(
            isinstance(p, dict) and all(isinstance(p.get(k), (int, float)) and not isinstance(p.get(k), bool)
                                        for k in ("x", "y")) for p in line
        ):
            raise LevelFormatError(f"{source}: object {name!r} has a polyline that is not a list of {{x, y}} numbers")
        found["polyline"] = [(float(p["x"]), float(p["y"])) for p in line]
    return found


def _json_list(data: Dict[str, Any], key: str, owner: str, source: str) -> List[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise LevelFormatError(f"{source}: {key!r} of {owner} must be a list, got {type(value).__name__}")
    return value


def _json_layers(data: Dict[str, Any], source: str) -> Iterator[Dict[str, Any]]:
    """Layers in order, inside group layers too."""
    for layer in _json_list(data, "layers", "the map", source):
        if not isinstance(layer, dict):
            raise LevelFormatError(f"{source}: a layer must be an object, got {layer!r:.40}")
        yield layer
        if layer.get("type") == "group":
            yield from _json_layers(layer, source)


def _json_layer_gids(layer: Dict[str, Any], count: int, name: str, source: str) -> NDArray[np.int64]:
    data = layer.get("data")
    encoding = layer.get("encoding", "csv")
    if encoding == "base64":
        if not isinstance(data, str):
            raise LevelFormatError(f"{source}: tile layer {name!r}: base64 data must be a string")
        return _base64_gids(data, layer.get("compression") or None, count, name, source)
    if encoding != "csv":
        raise LevelFormatError(f"{source}: tile layer {name!r} has encoding {encoding!r}; Tiled writes csv or base64")
    if not isinstance(data, list):
        raise LevelFormatError(f"{source}: tile layer {name!r}: \"data\" must be a list of tile ids")
    if len(data) != count:
        raise LevelFormatError(f"{source}: tile layer {name!r} has {len(data):,} tile ids, the map {count:,} tiles")
    values = np.array(data) if data else np.zeros(0, dtype=np.int64)
    if values.dtype.kind != "i" or values.ndim != 1 or any(type(v) is bool for v in data):
        bad = next((v for v in data if type(v) is not int), None)
        if bad is None:  # ints too large for int64
            return _checked_gids(np.array(data, dtype=object), name, source)
        raise LevelFormatError(f"{source}: tile layer {name!r} holds {bad!r:.20}; tile ids are ints")
    return _checked_gids(values, name, source)


def _json_tileset(tileset: Dict[str, Any], source: str) -> Tuple[Optional[int], Flags, str]:
    name = str(tileset.get("name", ""))
    count = tileset.get("tilecount")
    tilecount = None if count is None else _count(count, f"tileset {name!r}'s tilecount", source)
    flags: Flags = {}
    for tile in _json_list(tileset, "tiles", f"tileset {name!r}", source):
        if not isinstance(tile, dict):
            raise LevelFormatError(f"{source}: a tile of tileset {name!r} must be an object")
        tile_id = _count(tile.get("id"), f"a tile id in tileset {name!r}", source)
        props = _json_properties(tile.get("properties"), f"tile {tile_id} of tileset {name!r}", source)
        _tile_flags(flags, tile_id, props, name, source)
    return tilecount, flags, name


def _json_properties(value: Any, owner: str, source: str) -> Dict[str, Any]:
    found: Dict[str, Any] = {}
    if value is None:
        return found
    if not isinstance(value, list):
        raise LevelFormatError(f"{source}: the properties of {owner} must be a list of {{name, type, value}}")
    for prop in value:
        if not isinstance(prop, dict) or not isinstance(prop.get("name"), str):
            raise LevelFormatError(f"{source}: a property of {owner} must be an object with a name")
        found[prop["name"]] = prop.get("value")
    return found


# -- shared parts ---------------------------------------------------------------------


Flags = Dict[int, Tuple[bool, bool]]
"""A tileset's ``{tile id: (wall, door)}`` from its tiles' bool properties ``wall`` and ``door``."""


def _tile_flags(flags: Flags, tile_id: int, props: Dict[str, Any], tileset: str, source: str) -> None:
    values = []
    for name in ("wall", "door"):
        value = props.get(name, False)
        if not isinstance(value, bool):
            raise LevelFormatError(
                f"{source}: tile {tile_id} of tileset {tileset!r} has property {name!r} = {value!r}; it must be a bool"
            )
        values.append(value)
    if any(values):
        flags[tile_id] = (values[0], values[1])


class _WallTable:
    """Which global tile ids are walls (and door marks), from the tilesets; and the map's tile layers
    merged through it: a tile is a wall (a door) where any layer puts a wall (door) tile there."""

    def __init__(self, source: str, columns: int, rows: int) -> None:
        self.source = source
        self.columns, self.rows = columns, rows
        self.firsts: List[int] = []
        self.ranges: List[Tuple[int, Optional[int], Flags, str]] = []
        self.marked = False
        self.layers = 0
        self.walls = np.zeros((rows, columns), dtype=bool)
        self.doors = np.zeros((rows, columns), dtype=bool)

    def add(self, first: int, tilecount: Optional[int], flags: Flags, name: str) -> None:
        """A tileset: its ``firstgid``, tile count (None: unknown) and the ``(wall, door)`` flags of its tiles."""
        if self.firsts and first <= self.firsts[-1]:
            raise LevelFormatError(f"{self.source}: tileset {name!r} has firstgid {first}; firstgids must increase")
        self.firsts.append(first)
        self.ranges.append((first, tilecount, flags, name))
        self.marked = self.marked or any(wall for wall, _ in flags.values())

    def paint(self, name: str, size: Tuple[Any, Any], read: Callable[[int, str], NDArray[np.int64]]) -> None:
        """One tile layer named ``name``, of ``size`` (width, height, as the file gives them), whose gids
        ``read(count, name)`` decodes once its size is known to cover the map."""
        if size not in ((self.columns, self.rows), (str(self.columns), str(self.rows))):
            raise LevelFormatError(
                f"{self.source}: tile layer {name!r} is {size[0]} × {size[1]} tiles, "
                f"the map {self.columns} × {self.rows}; layers must cover the map"
            )
        walls, doors = self._flags(read(self.rows * self.columns, name), name)
        self.walls |= walls.reshape(self.rows, self.columns)
        self.doors |= doors.reshape(self.rows, self.columns)
        self.layers += 1

    def finish(self) -> Tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        """The merged ``(walls, doors)``; refuses a map with no tile layer, or no tile marked as a wall."""
        if not self.layers:
            raise LevelFormatError(
                f"{self.source}: the map has no tile layer; its walls are tiles with the 'wall' property"
            )
        if not self.marked:
            raise LevelFormatError(
                f"{self.source}: no tile in the map's tilesets has the bool property 'wall' set to true; "
                "give the wall tiles that property so walls can be told from floor"
            )
        return self.walls, self.doors

    def _flags(self, gids: NDArray[np.int64], layer: str) -> Tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        """Where ``gids`` (flip flags already cleared) name a wall tile, and a door tile; unknown ids are refused."""
        walls = np.zeros(gids.shape, dtype=bool)
        doors = np.zeros(gids.shape, dtype=bool)
        used = np.unique(gids[gids > 0])
        bounds = np.asarray(self.firsts, dtype=np.int64)
        for gid in used.tolist():
            index = int(np.searchsorted(bounds, gid, side="right")) - 1
            first, tilecount, flags, _ = self.ranges[index] if index >= 0 else (0, 0, {}, "")
            local = gid - first
            # Tiled counts an image-less tileset's tiles loosely: a tile it lists with properties is held too.
            if index < 0 or (tilecount is not None and local >= tilecount and local not in flags):
                y, x = divmod(int(np.flatnonzero(gids == gid)[0]), self.columns)
                raise LevelFormatError(
                    f"{self.source}: tile layer {layer!r} has tile id {gid} at ({x}, {y}), which no tileset holds"
                )
            wall, door = flags.get(local, (False, False))
            if wall:
                walls |= gids == gid
            if door:
                doors |= gids == gid
        return walls, doors


def _external_tileset(reference: Any, source: str, directory: str) -> Tuple[Optional[int], Flags, str]:
    """An external tileset (``.tsx`` XML, ``.tsj``/``.json``), read as carefully as the map."""
    if not isinstance(reference, str) or not reference:
        raise LevelFormatError(f"{source}: a tileset's source must be a file name, got {reference!r:.40}")
    path = os.path.join(directory, reference)
    where = f"{source}: tileset {reference!r}"
    try:
        data = read_limited(path, MAX_TILESET_BYTES, what="a tileset")
    except LevelFormatError as error:
        raise LevelFormatError(f"{where}: {str(error).split(': ', 1)[-1]}") from None
    except OSError as error:
        raise LevelFormatError(f"{where}: cannot read it: {error.strerror or error}") from None
    if data.lstrip()[:1] == b"<":
        root = _parse_xml(data, where)
        if root.tag != "tileset":
            raise LevelFormatError(f"{where}: not a Tiled tileset (root <{root.tag}>)")
        return _xml_tileset(root, where)
    tileset = _parse_json(data, where)
    if not isinstance(tileset, dict):
        raise LevelFormatError(f"{where}: not a Tiled tileset")
    return _json_tileset(tileset, where)


def _base64_gids(text: str, compression: Optional[str], count: int, name: str, source: str) -> NDArray[np.int64]:
    """Little-endian uint32 gids from base64 text, inflating at most the expected bytes."""
    if compression == "zstd":
        raise LevelFormatError(
            f"{source}: tile layer {name!r} is zstd-compressed, which needs a library mazeplugin does not use; "
            "save the map with tile layer format CSV, Base64 (uncompressed), Base64 (zlib) or Base64 (gzip)"
        )
    if compression not in (None, "", "zlib", "gzip"):
        raise LevelFormatError(f"{source}: tile layer {name!r} has unknown compression {compression!r}")
    try:
        raw = base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        raise LevelFormatError(f"{source}: tile layer {name!r}: corrupted base64 data") from None
    expected = 4 * count
    if compression in (None, ""):
        data = raw
    else:
        inflater = zlib.decompressobj(zlib.MAX_WBITS | (16 if compression == "gzip" else 0))
        try:
            data = inflater.decompress(raw, expected + 1)
        except zlib.error as error:
            raise LevelFormatError(f"{source}: tile layer {name!r}: corrupted {compression} data ({error})") from None
        if len(data) > expected or inflater.unconsumed_tail:
            raise LevelFormatError(
                f"{source}: tile layer {name!r}: {compression} data inflates beyond the map's {count:,} tiles"
            )
        if not inflater.eof:
            raise LevelFormatError(f"{source}: tile layer {name!r}: truncated {compression} data")
    if len(data) != expected:
        raise LevelFormatError(
            f"{source}: tile layer {name!r} holds {len(data) // 4:,} tile ids, the map {count:,} tiles"
            + (" (truncated?)" if len(data) < expected else "")
        )
    gids = np.frombuffer(data, dtype="<u4").astype(np.int64)
    return gids & ~np.int64(_FLIP_BITS)


def _csv_digits(text: str, count: int) -> Optional[NDArray[np.int64]]:
    """``count`` CSV gids parsed with numpy, or None when the text is anything but clean (then the slow path names the problem).

    Clean: ASCII digits and commas (whitespace anywhere, one trailing comma
    allowed), ``count`` values of 1 to 10 digits each.
    """
    try:
        raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    except UnicodeEncodeError:
        return None
    raw = raw[(raw != 32) & (raw != 10) & (raw != 13) & (raw != 9)]
    if raw.size and raw[-1] == 44:
        raw = raw[:-1]
    comma = raw == 44
    digit = raw - np.uint8(48)  # wraps around for anything below '0'
    if not raw.size or not (comma | (digit <= 9)).all():
        return None
    ends = np.append(np.flatnonzero(comma), raw.size)  # one past each value's last digit
    starts = np.concatenate(([0], ends[:-1] + 1))
    lengths = ends - starts
    if len(ends) != count or (lengths < 1).any() or (lengths > 10).any():
        return None
    token = np.cumsum(comma)[~comma]  # the value each digit belongs to
    place = (ends[token] - np.flatnonzero(~comma) - 1).astype(np.int64)
    # Exact in float64: every value is below 10**10 < 2**53.
    values = np.bincount(token, weights=digit[~comma] * 10.0 ** place, minlength=count)
    return values.astype(np.int64)


def _gid_array(tokens: Sequence[str], name: str, source: str) -> NDArray[np.int64]:
    """Text gids as int64, flip flags cleared; a bad one is named."""
    try:
        values = np.array(tokens).astype(np.int64)
    except (ValueError, OverflowError):
        bad = next((t for t in tokens if not t.strip().isdigit()), "?")
        raise LevelFormatError(f"{source}: tile layer {name!r} holds {bad.strip()!r:.20}; tile ids are ints") from None
    return _checked_gids(values, name, source)


def _checked_gids(values: NDArray[Any], name: str, source: str) -> NDArray[np.int64]:
    out_of_range = (values < 0) | (values >= _GID_LIMIT)
    if out_of_range.any():
        bad = values[np.flatnonzero(out_of_range)[0]]
        raise LevelFormatError(f"{source}: tile layer {name!r} holds tile id {bad}; ids are 0..{_GID_LIMIT - 1}")
    gids = values.astype(np.int64)
    return gids & ~np.int64(_FLIP_BITS)


def _check_map_kind(orientation: Any, infinite: bool, source: str) -> None:
    if orientation != "orthogonal":
        raise LevelFormatError(f"{source}: the map is {orientation!r}; a maze level is an orthogonal map")
    if infinite:
        raise _infinite(source)


def _infinite(source: str) -> LevelFormatError:
    return LevelFormatError(
        f"{source}: the map is infinite (stored in chunks); a level has a fixed size: "
        "untick Map > Map Properties > Infinite in Tiled and save again"
    )


def _map_size(width: Any, height: Any, source: str) -> Tuple[int, int]:
    columns = _positive_int(width, "the map's width", source)
    rows = _positive_int(height, "the map's height", source)
    if rows * columns > MAX_TILES:
        raise LevelFormatError(
            f"{source}: {columns:,} × {rows:,} tiles is too large; at most {MAX_TILES:,} tiles are allowed"
        )
    return columns, rows


def _positive_int(value: Any, what: str, source: str) -> int:
    number = _count(value, what, source)
    if number < 1:
        raise LevelFormatError(f"{source}: {what} must be at least 1, got {number}")
    return number


def _count(value: Any, what: str, source: str) -> int:
    """A non-negative int from an int or its decimal text."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 12:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 40:
        return value
    raise LevelFormatError(f"{source}: {what} must be a non-negative int, got {value!r:.40}")


def _add_marker(markers: Dict[str, Tuple[int, int]], doors: NDArray[np.bool_], obj: Dict[str, Any],
                tile: Tuple[int, int], size: Tuple[int, int], source: str) -> None:
    """Record an ``entrance``/``exit`` object's tile, or a ``door`` object's (by name, else by type or class)."""
    role = obj["name"] if obj["name"] in _ROLES else obj["type"]
    if role not in _ROLES:
        return
    if role in markers:
        raise LevelFormatError(f"{source}: the map has more than one {role} object; a level has one")
    x, y = obj["x"], obj["y"]
    if obj["gid"] is not None:  # tile objects are anchored at their bottom-left corner
        x, y = x + obj["width"] / 2, y - obj["height"] / 2
    elif not obj["point"]:
        x, y = x + obj["width"] / 2, y + obj["height"] / 2
    if not (math.isfinite(x) and math.isfinite(y)):
        raise LevelFormatError(f"{source}: the {role} object's position ({x}, {y}) is not a number")
    column, row = math.floor(x / tile[0]), math.floor(y / tile[1])
    if not (0 <= column < size[0] and 0 <= row < size[1]):
        raise LevelFormatError(
            f"{source}: the {role} object at pixel ({x:g}, {y:g}) is outside the map "
            f"({size[0]} × {size[1]} tiles of {tile[0]} × {tile[1]} pixels)"
        )
    if role == "door":
        doors[row, column] = True
    else:
        markers[role] = (column, row)


# -- into a level -------------------------------------------------------------------


def _level(tiled: TiledMap, corridor: Optional[int], wall: Optional[int]) -> Level:
    source, props = tiled.source, tiled.properties
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
    algorithm = props.get("generator")
    if algorithm is not None and not isinstance(algorithm, str):
        raise LevelFormatError(f"{source}: map property 'generator' must be text, got {algorithm!r}")
    seed: Optional[Seed] = None
    if props.get("seed") is not None:
        try:
            seed = resolve_seed(props["seed"])
        except (TypeError, ValueError) as error:
            raise LevelFormatError(f"{source}: map property 'seed': {error}") from None
    options: Dict[str, Any] = {}
    if props.get("options") not in (None, ""):
        text = props["options"]
        try:
            parsed = json.loads(text) if isinstance(text, str) else None
        except (json.JSONDecodeError, RecursionError) as error:
            raise LevelFormatError(f"{source}: map property 'options' is not JSON: {getattr(error, 'msg', error)}") from None
        if not isinstance(parsed, dict):
            raise LevelFormatError(f"{source}: map property 'options' must be a JSON object, got {text!r:.60}")
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
    )
    if tiled.things:
        level.things = tiled.things
        try:
            level.check()  # a designer may have moved things: they must still make a sound level
        except ValueError as error:
            raise LevelFormatError(f"{source}: things: {error}") from None
    return level

