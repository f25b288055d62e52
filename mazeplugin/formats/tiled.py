"""Levels as Tiled maps (https://www.mapeditor.org): ``.tmx`` (XML) and ``.tmj`` (JSON).

What is written:

- An orthogonal map, one tile per level tile, ``tile`` pixels square.
- One tileset embedded in the map, two tiles: id 0 floor, id 1 wall. Each
  has a bool ``wall`` property, so a loader that renumbers tile ids (pytmx
  does) can still tell them apart. Its image, ``mazeplugin-tiles-<tile>.png``
  (floor then wall), is written beside the map, so Tiled shows the map; it is
  made with the standard library (zlib), so Tiled export needs no pygame.
- A tile layer ``maze`` (global ids: 1 floor, 2 wall; CSV in ``.tmx``).
- An object layer ``markers`` with ``entrance`` and ``exit`` point objects
  at the centres of their tiles (pixel coordinates).
- With things (:mod:`mazeplugin.content`), an object layer ``things``: one
  object per thing, its ``type`` the kind, its thing id and props as Tiled
  properties (``thing_id``, and e.g. ``key``/``door``/``lock``; props that are not
  bools, ints, floats or text are JSON text, their names listed in the property
  ``json_props``, so they read back as they were; NaN is refused). A door is a rectangle over every
  tile it blocks; an enemy is a polyline object at its tile's centre whose
  points walk its patrol; every other thing is a one-tile rectangle.
- With bridges (a weave level, see :mod:`mazeplugin.weave`), a second tile
  layer ``bridges`` over ``maze``: on each bridge tile, a tile of a second
  embedded tileset ``mazeplugin-bridges`` (global ids 3: the tunnel under it
  runs east–west, 4: north–south; each tile has a string property
  ``tunnel``), 0 elsewhere. Its image, ``mazeplugin-bridges-<tile>.png``,
  draws the bridge's two railings and is transparent elsewhere.
- On a dungeon, an object layer ``rooms`` of its rooms (:mod:`.tiled_rooms`).
- Map properties: ``generator``, ``size`` (``"20x15"`` cells), ``seed``
  (as text: a level code), ``corridor`` and ``wall`` (ints), ``options`` (the
  recorded generator options as JSON text) and a dungeon's ``mission`` (JSON).

>>> import os, tempfile, mazeplugin as mp
>>> folder = tempfile.mkdtemp()
>>> mp.generate("kruskal", 4, 3, seed=7).save(os.path.join(folder, "level.tmx"))
>>> sorted(os.listdir(folder))
['level.tmx', 'mazeplugin-tiles-16.png']
"""

from __future__ import annotations

import json
import math
import numbers
import os
import struct
import zlib
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Sequence, Tuple
from xml.sax.saxutils import quoteattr

import numpy as np
from numpy.typing import NDArray

from .rebuild import check_loadable
from .files import PathLike, UnsafeDestinationError, destination, read_limited, write_bytes, write_text
from ..limits import MAX_TILE_PIXELS
from .svg import COLOURS
from .tiled_rooms import room_objects, rooms_xml

if TYPE_CHECKING:  # pragma: no cover
    from ..level import Level

__all__ = ["save_tmx", "save_tmj", "tileset_png", "bridges_png", "png_bytes", "tmx_text", "tmj_data",
           "write_tileset_image", "tiled_property", "thing_properties", "things_xml", "thing_json", "JSON_PROPS", "FLOOR_GID", "WALL_GID",
           "BRIDGE_FIRST_GID"]

FLOOR_GID, WALL_GID = 1, 2
"""Global tile ids in the tile layer (the tileset's first gid is 1)."""

BRIDGE_FIRST_GID = 3
"""The bridges tileset's first global id: 3 is a bridge over a tunnel east–west, 4 one over a tunnel north–south."""
_BRIDGES_NAME = "mazeplugin-bridges"
_TUNNELS = ("east-west", "north-south")

_TILED_VERSION = "1.10"
_TILED_RELEASE = "1.10.2"  # the Tiled release whose map format this follows (some loaders require it)
_TILESET_NAME = "mazeplugin"


def save_tmx(level: "Level", path: PathLike, *, tile: int = 16) -> None:
    """Write ``level`` as a Tiled XML map to ``path``, and the tileset image beside it."""
    check_loadable(level, "a Tiled map")
    tile = _check_tile_size(tile)
    rows, columns = level.tiles.shape
    things = _thing_objects(level, tile)  # before any file: a prop Tiled cannot hold is refused
    image = _write_tileset_image(path, tile)
    props = "\n".join(
        f"  <property name={quoteattr(name)}{'' if kind == 'string' else f' type={quoteattr(kind)}'}"
        f" value={quoteattr(_xml_value(value))}/>"
        for name, kind, value in _map_properties(level)
    )
    layers, next_id = (4, 3 + len(things)) if things else (3, 3)
    after, tilesets = things_xml(things), ""
    if level.weave:
        bridges_image = write_tileset_image(path, f"{_BRIDGES_NAME}-{tile}.png", lambda: bridges_png(tile))
        tilesets = _bridges_tileset_xml(tile, bridges_image)
        after += _bridges_layer_xml(level.bridges, layers)
        layers += 1
    rooms = room_objects(level, tile, next_id)
    after, layers, next_id = after + rooms_xml(rooms, layers), layers + bool(rooms), next_id + len(rooms)
    text = tmx_text(
        map_attributes=f'orientation="orthogonal" renderorder="right-down" width="{columns}" height="{rows}" '
                       f'tilewidth="{tile}" tileheight="{tile}" infinite="0" nextlayerid="{layers}" '
                       f'nextobjectid="{next_id}"',
        properties=props, tileset=_TILESET_NAME, tile_width=tile, tile_height=tile, image=image,
        tiles=level.tiles, markers=_marker_points(level, tile), after=after, more_tilesets=tilesets,
    )
    write_text(path, text)


def tmx_text(*, map_attributes: str, properties: str, tileset: str, tile_width: int, tile_height: int, image: str,
             tiles: NDArray[np.uint8], markers: Sequence[Tuple[str, float, float]], after: str = "",
             more_tilesets: str = "") -> str:
    """A Tiled XML map of ``tiles`` (a CSV layer ``maze`` over the two-tile floor/wall tileset) with the
    ``markers`` as point objects; ``map_attributes`` are the ``<map>`` attributes after its version
    (orientation, size, tile size, next ids), ``after`` more layers, ``more_tilesets`` more
    ``<tileset>`` elements after the first. The square and hex writers share it."""
    rows, columns = tiles.shape
    gids = (tiles.astype(np.int64) + FLOOR_GID).astype(str)
    csv = ",\n".join(",".join(row) for row in gids.tolist())
    objects = "\n".join(
        f'  <object id="{i}" name="{name}" type="{name}" x="{x:g}" y="{y:g}">\n   <point/>\n  </object>'
        for i, (name, x, y) in enumerate(markers, start=1)
    )
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="{_TILED_VERSION}" tiledversion="{_TILED_RELEASE}" {map_attributes}>
 <properties>
{properties}
 </properties>
 <tileset firstgid="1" name="{tileset}" tilewidth="{tile_width}" tileheight="{tile_height}" tilecount="2" columns="2">
  <image source={quoteattr(image)} width="{2 * tile_width}" height="{tile_height}"/>
  <tile id="0">
   <properties>
    <property name="wall" type="bool" value="false"/>
   </properties>
  </tile>
  <tile id="1">
   <properties>
    <property name="wall" type="bool" value="true"/>
   </properties>
  </tile>
 </tileset>
{more_tilesets} <layer id="1" name="maze" width="{columns}" height="{rows}">
  <data encoding="csv">
{csv}
</data>
 </layer>
 <objectgroup id="2" name="markers">
{objects}
 </objectgroup>
{after}</map>
"""


def save_tmj(level: "Level", path: PathLike, *, tile: int = 16) -> None:
    """Write ``level`` as a Tiled JSON map to ``path``, and the tileset image beside it."""
    check_loadable(level, "a Tiled map")
    tile = _check_tile_size(tile)
    rows, columns = level.tiles.shape
    things = _thing_objects(level, tile)  # before any file: a prop Tiled cannot hold is refused
    image = _write_tileset_image(path, tile)
    data = tmj_data(
        fields={"orientation": "orthogonal", "renderorder": "right-down", "width": columns, "height": rows,
                "tilewidth": tile, "tileheight": tile, "infinite": False, "nextlayerid": 4 if things else 3,
                "nextobjectid": 3 + len(things)},
        properties=_map_properties(level), tileset=_TILESET_NAME, tile_width=tile, tile_height=tile, image=image,
        tiles=level.tiles, markers=_marker_points(level, tile), things=things,
    )
    if level.weave:
        bridges_image = write_tileset_image(path, f"{_BRIDGES_NAME}-{tile}.png", lambda: bridges_png(tile))
        data["tilesets"].append({
            "firstgid": BRIDGE_FIRST_GID, "name": _BRIDGES_NAME, "tilewidth": tile, "tileheight": tile,
            "tilecount": 2, "columns": 2, "margin": 0, "spacing": 0, "image": bridges_image,
            "imagewidth": 2 * tile, "imageheight": tile,
            "tiles": [{"id": k, "properties": [{"name": "tunnel", "type": "string", "value": tunnel}]}
                      for k, tunnel in enumerate(_TUNNELS)],
        })
        layer_id = data["nextlayerid"]
        data["nextlayerid"] = layer_id + 1
        data["layers"].append({"id": layer_id, "name": "bridges", "type": "tilelayer", "width": columns,
                               "height": rows, "data": _bridge_gids(level.bridges).ravel().tolist(), **_COMMON})
    rooms = room_objects(level, tile, data["nextobjectid"])
    if rooms:
        data["layers"].append({"id": data["nextlayerid"], "name": "rooms", "type": "objectgroup", "draworder":
                               "topdown", "objects": [{**r, "rotation": 0, "visible": True} for r in rooms], **_COMMON})
        data["nextlayerid"], data["nextobjectid"] = data["nextlayerid"] + 1, data["nextobjectid"] + len(rooms)
    write_text(path, json.dumps(data, separators=(",", ":")) + "\n")


_COMMON: Dict[str, Any] = {"opacity": 1, "visible": True, "x": 0, "y": 0}  # every layer's


def tmj_data(*, fields: Dict[str, Any], properties: Sequence[Tuple[str, str, Any]], tileset: str, tile_width: int,
             tile_height: int, image: str, tiles: NDArray[np.uint8], markers: Sequence[Tuple[str, float, float]],
             things: Sequence[Dict[str, Any]] = ()) -> Dict[str, Any]:
    """A Tiled JSON map of ``tiles`` (a layer ``maze`` over the two-tile floor/wall tileset) with the
    ``markers`` as point objects and the ``things`` objects (layer ``things``, when there are any), as a
    dict for ``json.dumps``: ``fields`` are the map's fields after its version (orientation, size, tile
    size, next ids), ``properties`` its ``(name, Tiled type, value)``. The square and hex writers share
    it, as they share :func:`tmx_text`."""
    rows, columns = tiles.shape
    layers = [{"id": 3, "name": "things", "type": "objectgroup", "draworder": "topdown",
               "objects": [thing_json(thing) for thing in things], **_COMMON}] if things else []
    return {
        "type": "map",
        "version": _TILED_VERSION,
        "tiledversion": _TILED_RELEASE,
        **fields,
        "compressionlevel": -1,
        "properties": [{"name": name, "type": kind, "value": value} for name, kind, value in properties],
        "tilesets": [{
            "firstgid": 1,
            "name": tileset,
            "tilewidth": tile_width,
            "tileheight": tile_height,
            "tilecount": 2,
            "columns": 2,
            "margin": 0,
            "spacing": 0,
            "image": image,
            "imagewidth": 2 * tile_width,
            "imageheight": tile_height,
            "tiles": [
                {"id": 0, "properties": [{"name": "wall", "type": "bool", "value": False}]},
                {"id": 1, "properties": [{"name": "wall", "type": "bool", "value": True}]},
            ],
        }],
        "layers": [
            {"id": 1, "name": "maze", "type": "tilelayer", "width": columns, "height": rows,
             "data": (tiles.astype(np.int64) + FLOOR_GID).ravel().tolist(), **_COMMON},
            {"id": 2, "name": "markers", "type": "objectgroup", "draworder": "topdown",
             "objects": [
                 {"id": i, "name": name, "type": name, "point": True, "x": x, "y": y,
                  "width": 0, "height": 0, "rotation": 0, "visible": True}
                 for i, (name, x, y) in enumerate(markers, start=1)
             ], **_COMMON},
        ] + layers,
    }


def bridges_png(tile: int = 16) -> bytes:
    """The bridges tileset image as PNG bytes (RGBA): a bridge over a tunnel east–west (railings on its
    west and east edges: the bridge runs north–south), then one over a tunnel north–south; transparent
    between the railings, so the floor of the ``maze`` layer shows through.

    >>> bridges_png(8)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    tile = _check_tile_size(tile)
    rail = max(1, tile // 6)
    rgba = np.zeros((tile, 2 * tile, 4), dtype=np.uint8)
    colour = (*_rgb(COLOURS["wall"]), 255)
    rgba[:, :rail] = rgba[:, tile - rail:tile] = colour
    rgba[:rail, tile:] = rgba[tile - rail:, tile:] = colour
    return png_bytes(rgba)


def _bridge_gids(bridges: NDArray[np.uint8]) -> NDArray[np.int64]:
    """The bridges layer's global ids: 0 (no tile) off the bridges."""
    return np.where(bridges > 0, bridges.astype(np.int64) + (BRIDGE_FIRST_GID - 1), 0)


def _bridges_tileset_xml(tile: int, image: str) -> str:
    tiles = "\n".join(
        f'  <tile id="{k}">\n   <properties>\n    <property name="tunnel" value="{tunnel}"/>\n'
        f'   </properties>\n  </tile>' for k, tunnel in enumerate(_TUNNELS))
    return (f' <tileset firstgid="{BRIDGE_FIRST_GID}" name="{_BRIDGES_NAME}" tilewidth="{tile}" tileheight="{tile}" '
            f'tilecount="2" columns="2">\n  <image source={quoteattr(image)} width="{2 * tile}" height="{tile}"/>\n'
            f'{tiles}\n </tileset>\n')


def _bridges_layer_xml(bridges: NDArray[np.uint8], layer_id: int) -> str:
    rows, columns = bridges.shape
    csv = ",\n".join(",".join(row) for row in _bridge_gids(bridges).astype(str).tolist())
    return (f' <layer id="{layer_id}" name="bridges" width="{columns}" height="{rows}">\n'
            f'  <data encoding="csv">\n{csv}\n</data>\n </layer>\n')


def tileset_png(tile: int = 16) -> bytes:
    """The tileset image as PNG bytes: a floor tile, then a wall tile, ``tile`` pixels square.

    >>> tileset_png(4)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    tile = _check_tile_size(tile)
    rgb = np.empty((tile, 2 * tile, 3), dtype=np.uint8)
    rgb[:, :tile] = _rgb(COLOURS["floor"])
    rgb[:, tile:] = _rgb(COLOURS["wall"])
    return png_bytes(rgb)


def png_bytes(rgb: np.ndarray) -> bytes:
    """A minimal truecolour PNG (IHDR, one IDAT, IEND) of a uint8 ``(h, w, 3)`` array, or ``(h, w, 4)`` with alpha."""
    height, width, channels = rgb.shape
    scanlines = np.zeros((height, 1 + channels * width), dtype=np.uint8)  # filter byte 0 per row
    scanlines[:, 1:] = rgb.reshape(height, channels * width)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6 if channels == 4 else 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(scanlines.tobytes(), 9))
        + chunk(b"IEND", b"")
    )


def _rgb(colour: str) -> Tuple[int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def _write_tileset_image(map_path: PathLike, tile: int) -> str:
    """Write the square tileset image beside the map (see :func:`write_tileset_image`); its relative name."""
    return write_tileset_image(map_path, f"mazeplugin-tiles-{tile}.png", lambda: tileset_png(tile))


def write_tileset_image(map_path: PathLike, name: str, image: Callable[[], bytes]) -> str:
    """Write the tileset image ``image()`` as ``name`` beside the map (unless an identical one is there); ``name``.

    The map must go to a regular file (or a new one, or a symlink to one):
    a map written through a device or a FIFO would name an image nobody can
    find, so that is refused before anything is written.
    """
    where = destination(map_path)
    if where.kind != "file":
        raise UnsafeDestinationError(
            f"{os.fspath(map_path)!r} is not a regular file: a Tiled map is written to a file, "
            "with its tileset image beside it"
        )
    path = os.path.join(os.path.dirname(where.path), name)
    data = image()
    try:
        same = read_limited(path, len(data), what="a tileset image") == data
    except (OSError, ValueError):
        same = False
    if not same:
        write_bytes(path, data)
    return name


def _check_tile_size(tile: object) -> int:
    if isinstance(tile, bool) or not isinstance(tile, numbers.Integral):
        raise TypeError(f"tile must be an int (pixels per tile), not {type(tile).__name__}")
    size = int(tile)
    if not 1 <= size <= MAX_TILE_PIXELS:
        raise ValueError(f"tile must be from 1 to {MAX_TILE_PIXELS:,} pixels, got {tile}")
    return size


def _map_properties(level: "Level") -> List[Tuple[str, str, Any]]:
    """``(name, Tiled type, value)`` of the map properties."""
    props: List[Tuple[str, str, Any]] = []
    if level.algorithm is not None:
        props.append(("generator", "string", level.algorithm))
    props.append(("size", "string", f"{level.width}x{level.height}"))
    if level.seed is not None:
        props.append(("seed", "string", str(level.seed)))
    props.append(("corridor", "int", level.layout.corridor))
    props.append(("wall", "int", level.layout.wall))
    if level.options:
        from .recorded import plain_json

        props.append(("options", "string", json.dumps(level.options, default=plain_json, sort_keys=True)))
        if isinstance(level.options.get("mission"), dict):  # a dungeon's mission, on its own for Tiled's users
            props.append(("mission", "string", json.dumps(level.options["mission"], default=plain_json)))
    return props



def _xml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _marker_points(level: "Level", tile: int) -> List[Tuple[str, float, float]]:
    """``(name, x, y)``: the markers at their tiles' centres, in pixels."""
    return [
        (name, (position[0] + 0.5) * tile, (position[1] + 0.5) * tile)
        for name, position in (("entrance", level.entrance), ("exit", level.exit))
        if position is not None
    ]


def _thing_objects(level: "Level", tile: int) -> List[Dict[str, Any]]:
    """One Tiled object (as a plain dict) per thing; object ids follow the two marker ids."""
    out: List[Dict[str, Any]] = []
    for n, thing in enumerate(level.things, start=3):
        shape = {"door": ("tiles",), "enemy": ("patrol",)}.get(thing.kind, ())  # drawn as the object's shape
        props = thing_properties(thing, shape)
        obj: Dict[str, Any] = {"id": n, "name": f"{thing.kind} {thing.id}", "type": thing.kind, "props": props}
        if thing.kind == "enemy" and thing.props.get("patrol"):
            cx, cy = (thing.x + 0.5) * tile, (thing.y + 0.5) * tile
            obj.update(x=cx, y=cy, width=0, height=0, polyline=[
                ((px + 0.5) * tile - cx, (py + 0.5) * tile - cy) for px, py in thing.props["patrol"]
            ])
        else:
            xs = [x for x, _ in thing.tiles()]
            ys = [y for _, y in thing.tiles()]
            obj.update(x=min(xs) * tile, y=min(ys) * tile,
                       width=(max(xs) - min(xs) + 1) * tile, height=(max(ys) - min(ys) + 1) * tile)
        out.append(obj)
    return out


JSON_PROPS = "json_props"
"""The Tiled property naming (as a JSON list) a thing's props written as JSON text: lists, objects, null."""


def tiled_property(name: str, value: Any) -> Tuple[str, str, Any]:
    """``(name, Tiled type, value)`` of a thing's prop: a bool, int, finite float or text as itself;
    anything else as JSON text (its name listed in :data:`JSON_PROPS`, so it reads back as it was).
    ``ValueError`` for what JSON cannot hold (NaN, infinity, objects that are not plain data)."""
    if isinstance(value, bool):
        return (name, "bool", value)
    if isinstance(value, numbers.Integral):
        return (name, "int", int(value))
    if isinstance(value, numbers.Real) and math.isfinite(value):
        return (name, "float", float(value))
    if isinstance(value, str):
        return (name, "string", value)
    try:
        return (name, "string", json.dumps(value, allow_nan=False))
    except (TypeError, ValueError):
        raise ValueError(f"props[{name!r}] is {type(value).__name__} {value!r:.40}, which neither a Tiled "
                         "property nor JSON text holds") from None


def thing_properties(thing: Any, skip: Sequence[str] = ()) -> List[Tuple[str, str, Any]]:
    """``thing``'s Tiled properties: ``thing_id``, its props but ``skip`` (drawn as the object's shape)
    by :func:`tiled_property`, and :data:`JSON_PROPS` when any is JSON text; refusals name the thing."""
    out: List[Tuple[str, str, Any]] = [("thing_id", "int", thing.id)]
    encoded = []
    for name, value in sorted(thing.props.items()):
        if name in skip:
            continue
        if name in ("thing_id", JSON_PROPS):
            raise ValueError(f"cannot write a Tiled map: {thing.kind} {thing.id}: props[{name!r}] has a name "
                             "the things layer keeps for itself")
        try:
            prop = tiled_property(name, value)
        except ValueError as error:
            raise ValueError(f"cannot write a Tiled map: {thing.kind} {thing.id}: {error}") from None
        if prop[1] == "string" and not isinstance(value, str):
            encoded.append(name)
        out.append(prop)
    if encoded:
        out.append((JSON_PROPS, "string", json.dumps(encoded)))
    return out


def things_xml(things: List[Dict[str, Any]]) -> str:
    """The ``things`` object layer (id 3) of a ``.tmx``: one ``<object>`` per thing object (a dict with
    ``id``, ``name``, ``type``, ``x``, ``y``, ``width``, ``height``, ``props`` and, optionally, ``polyline``
    offsets or ``point``: True); empty text without things. The square and hex writers share it."""
    if not things:
        return ""
    lines = [' <objectgroup id="3" name="things">']
    for obj in things:
        size = f' width="{obj["width"]:g}" height="{obj["height"]:g}"' if obj["width"] else ""
        lines.append(
            f'  <object id="{obj["id"]}" name={quoteattr(obj["name"])} type={quoteattr(obj["type"])}'
            f' x="{_number(obj["x"])}" y="{_number(obj["y"])}"{size}>'
        )
        lines.append("   <properties>")
        for name, kind, value in obj["props"]:
            kind_attr = "" if kind == "string" else f" type={quoteattr(kind)}"
            lines.append(f"    <property name={quoteattr(name)}{kind_attr} value={quoteattr(_xml_value(value))}/>")
        lines.append("   </properties>")
        if obj.get("point"):
            lines.append("   <point/>")
        if "polyline" in obj:
            points = " ".join(f"{_number(x)},{_number(y)}" for x, y in obj["polyline"])
            lines.append(f'   <polyline points="{points}"/>')
        lines.append("  </object>")
    lines.append(" </objectgroup>")
    return "\n".join(lines) + "\n"


def _number(value: float) -> str:
    """A pixel coordinate as text, every digit kept (``:g`` would round a large map's to six)."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def thing_json(obj: Dict[str, Any]) -> Dict[str, Any]:
    """A thing object (see :func:`things_xml`) as a ``.tmj`` object."""
    out: Dict[str, Any] = {
        "id": obj["id"], "name": obj["name"], "type": obj["type"], "x": obj["x"], "y": obj["y"],
        "width": obj["width"], "height": obj["height"], "rotation": 0, "visible": True,
        "properties": [{"name": name, "type": kind, "value": value} for name, kind, value in obj["props"]],
    }
    if obj.get("point"):
        out["point"] = True
    if "polyline" in obj:
        out["polyline"] = [{"x": x, "y": y} for x, y in obj["polyline"]]
    return out
