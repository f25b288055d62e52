"""Tiled XML maps (``.tmx``) into a :class:`~mazeplugin.formats.tiled_common.TiledMap`.

The document comes from :func:`~mazeplugin.formats.tiled_parse.parse_xml`
(no entities; tile layers' ``<tile>`` elements kept as an array); tilesets,
tile layers (inside group layers too, however deep), object layers and the
map's properties are read from it; the ``things`` object layer becomes things
through :func:`mazeplugin.content.tiled.things_from_objects`.

>>> import os, tempfile, mazeplugin as mp
>>> path = os.path.join(tempfile.mkdtemp(), "level.tmx")
>>> mp.generate("kruskal", 3, 2, seed=1, markers="border").save(path)
>>> tiled = read_tmx(open(path, "rb").read(), path, os.path.dirname(path))
>>> tiled.walls.shape, tiled.markers["entrance"]
((5, 7), (0, 1))
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Tuple
from xml.etree.ElementTree import Element

from ..content.tiled import MAX_LISTED_TILES, things_from_objects
from .files import LevelFormatError
from .tiled_common import (
    SizeCheck, TiledMap, add_marker, check_map_kind, count, infinite_map, is_marker, map_size, positive_int,
)
from .tiled_layers import Blocks, WallTable, array_blocks, base64_blocks, csv_blocks
from .tiled_parse import XmlMap, parse_xml, xml_properties
from .tiled_tilesets import external_tileset, xml_tileset

__all__ = ["read_tmx"]


def read_tmx(data: bytes, source: str, directory: str, check_size: Optional[SizeCheck] = None) -> TiledMap:
    """The map in ``.tmx`` bytes; ``directory`` is where external tilesets are looked for; ``check_size``
    may refuse the map's size before its layers are decoded."""
    parsed = parse_xml(data, source)
    root = parsed.root
    if root.tag != "map":
        raise LevelFormatError(f"{source}: not a Tiled map (the XML's root is <{root.tag:.40}>, not <map>)")
    attrs = root.attrib
    orientation = check_map_kind(attrs.get("orientation"), attrs.get("infinite", "0") not in ("0", "false"), source,
                                 stagger_axis=attrs.get("staggeraxis"), stagger_index=attrs.get("staggerindex"))
    columns, rows = map_size(attrs.get("width"), attrs.get("height"), source)
    tile_w = positive_int(attrs.get("tilewidth"), "the map's tilewidth", source)
    tile_h = positive_int(attrs.get("tileheight"), "the map's tileheight", source)
    hex_side = None if orientation != "hexagonal" else count(
        attrs.get("hexsidelength", "0"), "the map's hexsidelength", source)
    properties = xml_properties(root.find("properties"), "the map", source)
    walls_by_gid = WallTable(source, columns, rows, None if check_size is None else
                             lambda: check_size(orientation, columns, rows, properties, source))
    for element in root.findall("tileset"):
        first = positive_int(element.get("firstgid"), "a tileset's firstgid", source)
        if element.get("source") is not None:
            walls_by_gid.add(first, *external_tileset(element.get("source", ""), source, directory))
        else:
            walls_by_gid.add(first, *xml_tileset(element, source))
    for layer in _tile_layers(root):
        walls_by_gid.paint(layer.get("name", ""), (layer.get("width"), layer.get("height")),
                           lambda count, name: _layer_gids(parsed, layer.find("data"), count, name, source))
    walls, doors = walls_by_gid.finish()
    markers: Dict[str, Tuple[int, int]] = {}
    things: List[Dict[str, Any]] = []
    for group in root.iter("objectgroup"):
        for obj in group.findall("object"):
            fields = _object(obj, source)
            if group.get("name") == "things" and not is_marker(fields):  # level content: mazeplugin.content.tiled
                things.append(_thing(obj, source))
                continue
            add_marker(markers, doors, fields, (tile_w, tile_h), (columns, rows), source, hex_side)
    return TiledMap(walls, markers, properties, source, doors,
                    things_from_objects(things, (tile_w, tile_h), (columns, rows), source, hex_side), orientation,
                    walls_by_gid.tunnels)


def _thing(obj: Element, source: str) -> Dict[str, Any]:
    """A ``things`` layer object: its fields, properties and polyline offsets."""
    found = _object(obj, source)
    found["properties"] = xml_properties(obj.find("properties"), f"object {found['name']!r:.60}", source)
    line = obj.find("polyline")
    if line is not None:
        points = line.get("points", "")
        if points.count(",") > MAX_LISTED_TILES:  # refused before it is split into a list
            raise LevelFormatError(f"{source}: object {found['name']!r:.60} has a polyline of more than "
                                   f"{MAX_LISTED_TILES:,} points")
        try:
            found["polyline"] = [tuple(float(v) for v in pair.split(",")) for pair in points.split()]
        except ValueError:
            raise LevelFormatError(f"{source}: object {found['name']!r:.60} has polyline points that are not numbers") from None
        if any(len(p) != 2 for p in found["polyline"]):
            raise LevelFormatError(f"{source}: object {found['name']!r:.60} has polyline points that are not x,y pairs")
    return found


def _tile_layers(root: Element) -> Iterator[Element]:
    """Tile layers in document order, inside group layers too (followed without recursion: groups may nest deep)."""
    pending = [iter(root)]
    while pending:
        child = next(pending[-1], None)
        if child is None:
            pending.pop()
        elif child.tag == "layer":
            yield child
        elif child.tag == "group":
            pending.append(iter(child))


def _layer_gids(parsed: XmlMap, data: Optional[Element], count: int, name: str, source: str) -> Blocks:
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


def _object(obj: Element, source: str) -> Dict[str, Any]:
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
            raise LevelFormatError(f"{source}: object {found['name']!r:.60} has {key}={text!r:.40}, not a number") from None
    return found
