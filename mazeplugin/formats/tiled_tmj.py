"""Tiled JSON maps (``.tmj``) into a :class:`~mazeplugin.formats.tiled_common.TiledMap`.

The text is parsed by :func:`~mazeplugin.formats.tiled_parse.parse_json`
(bounded in lists and objects; deep nesting and over-long integers refused);
every field is then checked for its type before use: tilesets, tile layers
(group layers followed without recursion), object layers, the ``things``
layer (its properties plain JSON of bounded size and depth,
:func:`~mazeplugin.formats.recorded.check_plain`) and the map's properties.

>>> import os, tempfile, mazeplugin as mp
>>> path = os.path.join(tempfile.mkdtemp(), "level.tmj")
>>> mp.generate("kruskal", 3, 2, seed=1, markers="border").save(path)
>>> tiled = read_tmj(open(path, "rb").read(), path, os.path.dirname(path))
>>> tiled.walls.shape, tiled.markers["exit"]
((5, 7), (6, 3))
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Tuple

from ..content.tiled import MAX_LISTED_TILES, things_from_objects
from .files import LevelFormatError
from .recorded import check_plain
from .tiled_common import (
    SizeCheck, TiledMap, add_marker, brief, check_map_kind, count, infinite_map, is_marker, map_size, positive_int,
    text_of,
)
from .tiled_layers import Blocks, WallTable, base64_blocks, list_blocks
from .tiled_parse import json_properties, parse_json
from .tiled_tilesets import external_tileset, json_tileset

__all__ = ["read_tmj"]

_END = object()  # the end of a list of layers


def read_tmj(data: bytes, source: str, directory: str, check_size: Optional[SizeCheck] = None) -> TiledMap:
    """The map in ``.tmj`` bytes; ``directory`` is where external tilesets are looked for; ``check_size``
    may refuse the map's size before its layers are decoded."""
    return _map(parse_json(data, source), source, directory, check_size)


def _map(data: Any, source: str, directory: str, check_size: Optional[SizeCheck]) -> TiledMap:
    if not isinstance(data, dict) or data.get("type") != "map":
        raise LevelFormatError(f"{source}: not a Tiled map (no \"type\": \"map\" at the top)")
    orientation = check_map_kind(data.get("orientation"), bool(data.get("infinite", False)), source,
                                 stagger_axis=data.get("staggeraxis"), stagger_index=data.get("staggerindex"))
    columns, rows = map_size(data.get("width"), data.get("height"), source)
    tile_w = positive_int(data.get("tilewidth"), "the map's tilewidth", source)
    tile_h = positive_int(data.get("tileheight"), "the map's tileheight", source)
    hex_side = None if orientation != "hexagonal" else count(
        data.get("hexsidelength", 0), "the map's hexsidelength", source)
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
            walls_by_gid.add(first, *json_tileset(tileset, source))
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
                           lambda count, name: _layer_gids(layer, count, name, source))
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
        add_marker(markers, doors, fields, (tile_w, tile_h), (columns, rows), source, hex_side)
    things = things_from_objects([_thing(obj, source) for obj in thing_objects if obj is not None],
                                 (tile_w, tile_h), (columns, rows), source, hex_side)
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
    """A ``things`` layer object of a ``.tmj``: its fields, properties (plain JSON, bounded) and polyline offsets."""
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


def _layer_gids(layer: Dict[str, Any], count: int, name: str, source: str) -> Blocks:
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
