"""Tiled maps, ``.tmx`` (XML) and ``.tmj`` (JSON), into a :class:`~mazeplugin.formats.tiled_common.TiledMap`: one reader for both.

A ``.tmx`` is parsed by :func:`~mazeplugin.formats.tiled_parse.parse_xml`
(no entities; tile layers' ``<tile>`` elements kept as an array) and turned
into the ``.tmj`` document's shape (:func:`tmx_document`: attributes as their
text, properties as their Tiled types, objects' numbers and polylines parsed);
a ``.tmj`` is parsed by :func:`~mazeplugin.formats.tiled_parse.parse_json`
(bounded in lists and objects). One path then reads either, checking every
field for its type before use: tilesets (embedded, or external ``.tsx``,
``.tsj`` or ``.json`` files read as carefully as the map), tile layers (group
layers followed without recursion, decoded by
:mod:`~mazeplugin.formats.tiled_layers`), object layers (markers and door
marks), the ``things`` layer (its properties plain JSON of bounded size and
depth, into things by :func:`mazeplugin.content.tiled.things_from_objects`)
and the map's properties.

>>> import os, tempfile, mazeplugin as mp
>>> path = os.path.join(tempfile.mkdtemp(), "level.tmx")
>>> mp.generate("kruskal", 3, 2, seed=1, markers="border").save(path)
>>> mp.generate("kruskal", 3, 2, seed=1, markers="border").save(path.replace(".tmx", ".tmj"))
>>> xml = read_map(open(path, "rb").read(), "tmx", path, os.path.dirname(path))
>>> tmj = read_map(open(path.replace(".tmx", ".tmj"), "rb").read(), "tmj", path, os.path.dirname(path))
>>> xml.walls.shape, xml.markers == tmj.markers == {"entrance": (0, 1), "exit": (6, 3)}
((5, 7), True)
"""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple
from xml.etree.ElementTree import Element

from ..content.tiled import MAX_LISTED_TILES, things_from_objects
from .files import LevelFormatError, read_limited
from .recorded import check_plain
from .tiled_common import (
    Sheet, SizeCheck, TiledMap, add_marker, brief, check_map_kind, count, infinite_map, is_marker, map_size,
    positive_int, text_of,
)
from .tiled_layers import Blocks, Flags, WallTable, array_blocks, base64_blocks, csv_blocks, list_blocks, tile_flags
from .tiled_parse import XmlMap, json_properties, parse_json, parse_xml, xml_properties

__all__ = ["read_map", "tmx_document", "MAX_TILESET_BYTES"]

MAX_TILESET_BYTES = 64 << 20
"""Largest external tileset file read (64 MiB)."""

_END = object()  # the end of a list of layers
_LayerGids = Callable[[Dict[str, Any], int, str], Blocks]


def read_map(data: bytes, kind: str, source: str, directory: str, check_size: Optional[SizeCheck] = None) -> TiledMap:
    """The map in ``data``, ``kind`` ``"tmx"`` or ``"tmj"``; ``directory`` is where external tilesets are looked
    for; ``check_size`` may refuse the map's size before its layers are decoded."""
    if kind == "tmx":
        parsed = parse_xml(data, source)
        return _read(tmx_document(parsed.root, source), source, directory, check_size,
                     lambda layer, count, name: _xml_gids(parsed, layer["data"], count, name, source))
    return _read(parse_json(data, source), source, directory, check_size,
                 lambda layer, count, name: _json_gids(layer, count, name, source))


def _read(data: Any, source: str, directory: str, check_size: Optional[SizeCheck], gids: _LayerGids) -> TiledMap:
    if not isinstance(data, dict) or data.get("type") != "map":
        raise LevelFormatError(f"{source}: not a Tiled map (no \"type\": \"map\" at the top)")
    orientation = check_map_kind(data.get("orientation"), bool(data.get("infinite", False)), source,
                                 stagger_axis=data.get("staggeraxis"), stagger_index=data.get("staggerindex"))
    columns, rows = map_size(data.get("width"), data.get("height"), source)
    sheet = Sheet(orientation, positive_int(data.get("tilewidth"), "the map's tilewidth", source),
                  positive_int(data.get("tileheight"), "the map's tileheight", source),
                  0 if orientation != "hexagonal" else count(data.get("hexsidelength", 0), "the map's hexsidelength",
                                                             source))
    properties = json_properties(data.get("properties"), "the map", source)
    walls_by_gid = WallTable(source, columns, rows, None if check_size is None else
                             lambda: check_size(orientation, columns, rows, properties, source))
    for tileset in _list(data, "tilesets", "the map", source):
        if not isinstance(tileset, dict):
            raise LevelFormatError(f"{source}: a tileset must be an object, got {brief(tileset)}")
        first = positive_int(tileset.get("firstgid"), "a tileset's firstgid", source)
        if "source" in tileset:
            walls_by_gid.add(first, *external_tileset(tileset["source"], source, directory))
        else:
            walls_by_gid.add(first, *_tileset(tileset, source))
    objects: List[Any] = []
    thing_objects: List[Any] = []
    for layer in _layers(data, source):
        kind = layer.get("type")
        name = text_of(layer.get("name", ""))
        if kind == "objectgroup" and name == "things":  # level content: see mazeplugin.content.tiled
            for obj in _list(layer, "objects", f"object layer {name!r}", source):
                marker = isinstance(obj, dict) and is_marker(
                    {"name": text_of(obj.get("name", "")), "type": text_of(obj.get("type") or obj.get("class") or "")})
                (objects if marker else thing_objects).append(obj)
        elif kind == "objectgroup":
            objects.extend(_list(layer, "objects", f"object layer {name!r}", source))
        if kind != "tilelayer":
            continue
        if "chunks" in layer:
            raise infinite_map(source)
        walls_by_gid.paint(name, (layer.get("width"), layer.get("height")),
                           lambda count, name: gids(layer, count, name))
    walls, doors = walls_by_gid.finish()
    markers: Dict[str, Tuple[int, int]] = {}
    for obj in objects:
        if not isinstance(obj, dict):
            raise LevelFormatError(f"{source}: an object must be a JSON object, got {brief(obj)}")
        fields: Dict[str, Any] = {
            "name": text_of(obj.get("name", "")),
            "type": text_of(obj.get("type") or obj.get("class") or ""),
            "point": obj.get("point") is True,
            "gid": obj.get("gid"),
        }
        for key in ("x", "y", "width", "height"):
            fields[key] = _number(obj, key, fields["name"], source)
        add_marker(markers, doors, fields, sheet, (columns, rows), source)
    things = things_from_objects([_thing(obj, source) for obj in thing_objects if obj is not None],
                                 sheet, (columns, rows), source)
    return TiledMap(walls, markers, properties, source, doors, things, orientation, walls_by_gid.tunnels)


def _number(obj: Dict[str, Any], key: str, name: str, source: str) -> float:
    value = obj.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise LevelFormatError(f"{source}: object {name!r:.60} has {key}={brief(value)}, not a number")
    try:
        return float(value)
    except OverflowError:  # an int too large for a float
        raise LevelFormatError(f"{source}: object {name!r:.60} has {key}={brief(value)}, too large") from None


def _thing(obj: Any, source: str) -> Dict[str, Any]:
    """A ``things`` layer object: its fields, properties (plain JSON, bounded) and polyline offsets."""
    if not isinstance(obj, dict):
        raise LevelFormatError(f"{source}: an object must be a JSON object, got {brief(obj)}")
    name = text_of(obj.get("name", ""))
    found: Dict[str, Any] = {"name": name, "type": text_of(obj.get("type") or obj.get("class") or "")}
    for key in ("x", "y", "width", "height"):
        found[key] = _number(obj, key, name, source)
    found["properties"] = json_properties(obj.get("properties"), f"object {name!r:.60}", source)
    try:
        check_plain(found["properties"])
    except ValueError as error:
        raise LevelFormatError(f"{source}: object {name!r:.60}: properties: {error}") from None
    line = obj.get("polyline")
    if line is not None:
        if isinstance(line, list) and len(line) > MAX_LISTED_TILES:
            raise LevelFormatError(f"{source}: object {name!r:.60} has a polyline of more than "
                                   f"{MAX_LISTED_TILES:,} points")
        if not isinstance(line, list) or not all(
            isinstance(p, dict) and all(isinstance(p.get(k), (int, float)) and not isinstance(p.get(k), bool)
                                        for k in ("x", "y")) for p in line
        ):
            raise LevelFormatError(f"{source}: object {name!r:.60} has a polyline that is not a list of {{x, y}} numbers")
        try:
            found["polyline"] = [(float(p["x"]), float(p["y"])) for p in line]
        except OverflowError:
            raise LevelFormatError(f"{source}: object {name!r:.60} has a polyline point too large") from None
    return found


def _list(data: Dict[str, Any], key: str, owner: str, source: str) -> List[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise LevelFormatError(f"{source}: {key!r} of {owner} must be a list, got {type(value).__name__}")
    return value


def _layers(data: Dict[str, Any], source: str) -> Iterator[Dict[str, Any]]:
    """Layers in order, inside group layers too (followed without recursion: groups may nest deep)."""
    pending = [iter(_list(data, "layers", "the map", source))]
    while pending:
        layer = next(pending[-1], _END)
        if layer is _END:
            pending.pop()
            continue
        if not isinstance(layer, dict):
            raise LevelFormatError(f"{source}: a layer must be an object, got {brief(layer)}")
        yield layer
        if layer.get("type") == "group":
            pending.append(iter(_list(layer, "layers", "the map", source)))


def _json_gids(layer: Dict[str, Any], count: int, name: str, source: str) -> Blocks:
    data = layer.get("data")
    encoding = layer.get("encoding", "csv")
    if encoding == "base64":
        if not isinstance(data, str):
            raise LevelFormatError(f"{source}: tile layer {name!r}: base64 data must be a string")
        return base64_blocks(data, layer.get("compression") or None, count, name, source)
    if encoding != "csv":
        raise LevelFormatError(f"{source}: tile layer {name!r} has encoding {brief(encoding)}; Tiled writes csv or base64")
    if not isinstance(data, list):
        raise LevelFormatError(f"{source}: tile layer {name!r}: \"data\" must be a list of tile ids, got {brief(data)}")
    return list_blocks(data, count, name, source)


# -- tilesets -----------------------------------------------------------------------


def _tileset(tileset: Dict[str, Any], source: str) -> Tuple[Optional[int], Flags, str]:
    """A tileset's ``(tilecount or None, {tile id: (wall, door, tunnel)}, name)`` for the :class:`WallTable`."""
    name = text_of(tileset.get("name", ""))
    given = tileset.get("tilecount")
    tilecount = None if given is None else count(given, f"tileset {name!r}'s tilecount", source)
    flags: Flags = {}
    tiles = tileset.get("tiles", [])
    if not isinstance(tiles, list):
        raise LevelFormatError(f"{source}: 'tiles' of tileset {name!r} must be a list, got {type(tiles).__name__}")
    for tile in tiles:
        if not isinstance(tile, dict):
            raise LevelFormatError(f"{source}: a tile of tileset {name!r} must be an object")
        tile_id = count(tile.get("id"), f"a tile id in tileset {name!r}", source)
        props = json_properties(tile.get("properties"), f"tile {tile_id} of tileset {name!r}", source)
        tile_flags(flags, tile_id, props, name, source)
    return tilecount, flags, name


def external_tileset(reference: Any, source: str, directory: str) -> Tuple[Optional[int], Flags, str]:
    """An external tileset (``.tsx`` XML, ``.tsj``/``.json``) named ``reference`` relative to the map's ``directory``,
    a regular file of at most :data:`MAX_TILESET_BYTES`, parsed as carefully as the map."""
    if not isinstance(reference, str) or not reference:
        raise LevelFormatError(f"{source}: a tileset's source must be a file name, got {brief(reference)}")
    where = f"{source}: tileset {reference!r:.200}"
    try:
        data = read_limited(os.path.join(directory, reference), MAX_TILESET_BYTES, what="a tileset")
    except LevelFormatError as error:
        raise LevelFormatError(f"{where}: {str(error).split(': ', 1)[-1]}") from None
    except (OSError, ValueError) as error:  # ValueError: a name with a NUL byte
        raise LevelFormatError(f"{where}: cannot read it: {getattr(error, 'strerror', None) or error}") from None
    if data.lstrip()[:1] == b"<":
        root = parse_xml(data, where).root
        if root.tag != "tileset":
            raise LevelFormatError(f"{where}: not a Tiled tileset (root <{root.tag:.40}>)")
        return _tileset(_xml_tileset(root, where), where)
    tileset = parse_json(data, where)
    if not isinstance(tileset, dict):
        raise LevelFormatError(f"{where}: not a Tiled tileset")
    return _tileset(tileset, where)


# -- a .tmx as the .tmj document ------------------------------------------------------


def tmx_document(root: Element, source: str) -> Dict[str, Any]:
    """A ``.tmx`` map's root element as the ``.tmj`` document of the same map: its attributes as their text,
    properties typed as the file says, tile layers' ``data`` the ``<data>`` element, objects' numbers parsed (the
    ``things`` layer's properties and polylines too)."""
    if root.tag != "map":
        raise LevelFormatError(f"{source}: not a Tiled map (the XML's root is <{root.tag:.40}>, not <map>)")
    tilesets = []
    for element in root.findall("tileset"):
        reference = element.get("source")
        tilesets.append({"firstgid": element.get("firstgid"), **(
            {"source": reference} if reference is not None else _xml_tileset(element, source))})
    top: List[Dict[str, Any]] = []
    pending = [(iter(root), top)]  # groups followed without recursion
    while pending:
        child = next(pending[-1][0], None)
        if child is None:
            pending.pop()
            continue
        layers = pending[-1][1]
        name = child.get("name", "")
        if child.tag == "layer":
            layers.append({"type": "tilelayer", "name": name, "width": child.get("width"),
                           "height": child.get("height"), "data": child.find("data")})
        elif child.tag == "objectgroup":
            layers.append({"type": "objectgroup", "name": name,
                           "objects": [_xml_object(obj, name == "things", source) for obj in child.findall("object")]})
        elif child.tag == "group":
            layers.append({"type": "group", "layers": []})
            pending.append((iter(child), layers[-1]["layers"]))
    return {**root.attrib, "type": "map", "infinite": root.get("infinite", "0") not in ("0", "false"),
            "properties": _xml_properties(root, "the map", source), "tilesets": tilesets, "layers": top}


def _xml_properties(element: Element, owner: str, source: str) -> List[Dict[str, Any]]:
    typed = xml_properties(element.find("properties"), owner, source)
    return [{"name": name, "value": value} for name, value in typed.items()]


def _xml_tileset(element: Element, source: str) -> Dict[str, Any]:
    """An embedded ``<tileset>`` (or a ``.tsx``'s root) as a ``.tmj`` tileset."""
    name = element.get("name", "")
    tiles = []
    for tile in element.findall("tile"):
        tile_id = count(tile.get("id"), f"a tile id in tileset {name!r}", source)
        tiles.append({"id": tile_id, "properties": _xml_properties(tile, f"tile {tile_id} of tileset {name!r}", source)})
    return {"name": name, "tilecount": element.get("tilecount"), "tiles": tiles}


def _xml_object(obj: Element, things: bool, source: str) -> Dict[str, Any]:
    """An ``<object>`` as a ``.tmj`` object: a thing's (``things``: an object of the ``things`` layer, not a
    marker) with its properties and polyline."""
    found: Dict[str, Any] = {"name": obj.get("name", ""), "type": obj.get("type") or obj.get("class") or "",
                             "point": obj.find("point") is not None, "gid": obj.get("gid")}
    for key in ("x", "y", "width", "height"):
        text = obj.get(key, "0")
        try:
            found[key] = float(text)
        except ValueError:
            raise LevelFormatError(f"{source}: object {found['name']!r:.60} has {key}={text!r:.40}, not a number") from None
    if not things or is_marker(found):
        return found
    found["properties"] = _xml_properties(obj, f"object {found['name']!r:.60}", source)
    line = obj.find("polyline")
    if line is not None:
        points = line.get("points", "")
        if points.count(",") > MAX_LISTED_TILES:  # refused before it is split into a list
            raise LevelFormatError(f"{source}: object {found['name']!r:.60} has a polyline of more than "
                                   f"{MAX_LISTED_TILES:,} points")
        try:
            pairs = [tuple(float(v) for v in pair.split(",")) for pair in points.split()]
        except ValueError:
            raise LevelFormatError(f"{source}: object {found['name']!r:.60} has polyline points that are not numbers") from None
        if any(len(p) != 2 for p in pairs):
            raise LevelFormatError(f"{source}: object {found['name']!r:.60} has polyline points that are not x,y pairs")
        found["polyline"] = [{"x": x, "y": y} for x, y in pairs]
    return found


def _xml_gids(parsed: XmlMap, data: Optional[Element], count: int, name: str, source: str) -> Blocks:
    if data is None:
        raise LevelFormatError(f"{source}: tile layer {name!r} has no <data>")
    encoding = data.get("encoding")
    compression = data.get("compression")
    if data.find("chunk") is not None:
        raise infinite_map(source)
    if encoding is None:
        gids = parsed.tile_gids.get(data)
        held = 0 if gids is None else gids.size
        if held != count:
            raise LevelFormatError(f"{source}: tile layer {name!r} has {held:,} <tile> elements, the map {count:,} tiles")
        return array_blocks(gids)  # type: ignore[arg-type]
    if data in parsed.tile_gids:
        raise LevelFormatError(f"{source}: tile layer {name!r} has <tile> elements and {encoding!r:.20} data; "
                               "Tiled writes one or the other")
    text = data.text or ""
    if encoding == "csv":
        if compression:
            raise LevelFormatError(f"{source}: tile layer {name!r}: CSV data cannot be compressed ({compression!r:.40})")
        return csv_blocks(text, count, name, source)
    if encoding == "base64":
        return base64_blocks(text, compression, count, name, source)
    raise LevelFormatError(f"{source}: tile layer {name!r} has encoding {encoding!r:.40}; Tiled writes csv or base64")
