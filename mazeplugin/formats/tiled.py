"""Levels as Tiled maps (https://www.mapeditor.org), ``.tmx`` (XML) and ``.tmj`` (JSON): one writer for every grid with tiles.

A map is made once, as the ``.tmj`` document, and the ``.tmx`` is that
document as XML; what is grid-specific is data (:func:`sheet`: orientation,
stagger, tile size, where a tile's centre is) and how a thing stands on tiles.

- **The map.** A square level is an orthogonal map, one map tile per level
  tile, ``tile`` pixels square (default 16). A hex level is a hexagonal map on
  the doubled lattice of :mod:`mazeplugin.grids.hextiles` (``staggeraxis="y"``,
  ``staggerindex="odd"``: pointy-top, odd rows shifted half a tile right),
  ``tile`` pixels high (default 32), ``round(tile * √3 / 2)`` wide,
  ``hexsidelength`` ``tile // 2``: regular hexagons.
- **One tileset** embedded, two tiles: id 0 floor, id 1 wall, each with a bool
  ``wall`` property (pytmx renumbers tile ids). Its image
  (``mazeplugin-tiles-<tile>.png``; ``mazeplugin-hex-<tile>.png``, two hexagons
  on transparency) is written beside the map with zlib: no pygame needed.
- A tile layer ``maze`` (global ids 1 floor, 2 wall; CSV in ``.tmx``) and an
  object layer ``markers``: ``entrance`` and ``exit`` points at their tiles' centres.
- **Things**: an object layer ``things``, one object per thing, its ``type``
  the kind, ``thing_id`` and its props as Tiled properties (props that are not
  bools, ints, floats or text as JSON text, named in the property
  ``json_props``; NaN is refused). On a square map a door is a rectangle over
  the tiles it blocks, an enemy a polyline from its tile's centre along its
  patrol, any other thing a one-tile rectangle; on a hex map every thing is a
  point at its tile's centre (a door's: its passage's), an enemy a polyline
  through its patrol's cells.
- **Bridges** (weave): a tile layer ``bridges`` from a tileset
  ``mazeplugin-bridges`` (gid 3: the tunnel under runs east–west, 4:
  north–south; string property ``tunnel``), 0 elsewhere; its image
  ``mazeplugin-bridges-<tile>.png`` draws the railings.
- **Rooms** (a dungeon): an object layer ``rooms`` (:func:`room_objects`).
- **Map properties**: ``generator``, ``grid`` (hex maps), ``size``
  (``"20x15"`` cells), ``seed`` (text), a square level's ``corridor`` and
  ``wall`` (ints), ``options`` (JSON text) and a dungeon's ``mission`` (JSON).

:mod:`mazeplugin.formats.tiled_read` reads both files back into the same level.

>>> import os, tempfile, mazeplugin as mp
>>> folder = tempfile.mkdtemp()
>>> mp.generate("kruskal", 4, 3, seed=7).save(os.path.join(folder, "level.tmx"))
>>> mp.generate("kruskal", 4, 3, grid="hex", seed=7).save(os.path.join(folder, "hex.tmj"))
>>> sorted(os.listdir(folder))
['hex.tmj', 'level.tmx', 'mazeplugin-hex-32.png', 'mazeplugin-tiles-16.png']
"""

from __future__ import annotations

import json
import math
import numbers
import os
import struct
import zlib
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple
from xml.sax.saxutils import quoteattr

import numpy as np
from numpy.typing import NDArray

from ..grids.hextiles import STAGGER_AXIS, STAGGER_INDEX, cell_tiles, passage_tiles
from ..limits import MAX_TILE_PIXELS
from .files import PathLike, UnsafeDestinationError, destination, read_limited, write_bytes, write_text
from .rebuild import check_loadable
from .recorded import plain_json
from .svg import COLOURS
from .tiled_common import Sheet

__all__ = ["save_tmx", "save_tmj", "tmj_data", "sheet", "tileset_png", "bridges_png", "png_bytes",
           "tiled_property", "thing_properties", "room_objects", "room_outline", "JSON_PROPS", "FLOOR_GID",
           "WALL_GID", "BRIDGE_FIRST_GID"]

FLOOR_GID, WALL_GID = 1, 2
"""Global tile ids in the tile layer (the tileset's first gid is 1)."""

BRIDGE_FIRST_GID = 3
"""The bridges tileset's first global id: 3 is a bridge over a tunnel east–west, 4 one over a tunnel north–south."""

JSON_PROPS = "json_props"
"""The Tiled property naming (as a JSON list) a thing's props written as JSON text: lists, objects, null."""

_TUNNELS = ("east-west", "north-south")
_TILED_VERSION = "1.10"
_TILED_RELEASE = "1.10.2"  # the Tiled release whose map format this follows (some loaders require it)
_COMMON: Dict[str, Any] = {"opacity": 1, "visible": True, "x": 0, "y": 0}  # every layer's


def sheet(kind: str, tile: object) -> Sheet:
    """The grid part (:class:`~mazeplugin.formats.tiled_common.Sheet`) of a ``kind`` (``"square"`` or ``"hex"``)
    level's map, ``tile`` pixels per tile (its height on a hex map, at least 2 there).

    >>> sheet("hex", 24), sheet("square", 16).centre(1, 1)
    (Sheet(orientation='hexagonal', width=21, height=24, side=12), (24.0, 24.0))
    """
    if kind not in ("square", "hex"):
        raise ValueError(f"a Tiled map is for square and hex levels; this is a {kind} level")
    low = 1 if kind == "square" else 2
    if isinstance(tile, bool) or not isinstance(tile, numbers.Integral):
        raise TypeError(f"tile must be an int (pixels per tile), not {type(tile).__name__}")
    size = int(tile)
    if not low <= size <= MAX_TILE_PIXELS:
        raise ValueError(f"tile must be from {low} to {MAX_TILE_PIXELS:,} pixels, got {tile}")
    if kind == "square":
        return Sheet("orthogonal", size, size)
    return Sheet("hexagonal", max(1, round(size * math.sqrt(3) / 2)), size, size // 2)


def save_tmx(level: Any, path: PathLike, *, tile: Optional[int] = None) -> None:
    """Write ``level`` (square or hex) as a Tiled XML map to ``path``, and its tileset images beside it."""
    write_text(path, tmx_text(tmj_data(level, path, tile)))


def save_tmj(level: Any, path: PathLike, *, tile: Optional[int] = None) -> None:
    """Write ``level`` (square or hex) as a Tiled JSON map to ``path``, and its tileset images beside it."""
    write_text(path, json.dumps(tmj_data(level, path, tile), separators=(",", ":")) + "\n")


def tmj_data(level: Any, path: PathLike, tile: Optional[int] = None) -> Dict[str, Any]:
    """The map of ``level`` as the ``.tmj`` document (a dict for ``json.dumps``), its tileset images written
    beside ``path``; ``tile`` pixels per tile (None: 16 on a square map, 32 on a hex one)."""
    square = level.kind == "square"
    if square:
        check_loadable(level, "a Tiled map")
    drawn = sheet(level.kind, (16 if square else 32) if tile is None else tile)
    markers = [(name, *drawn.centre(*place)) for name, place in (("entrance", level.entrance), ("exit", level.exit))
               if place is not None]
    first = 3 if square else len(markers) + 1  # a square map keeps ids 1 and 2 for its markers
    things = _thing_objects(level, drawn, first)  # before any file: a prop Tiled cannot hold is refused
    hexagons = "-hex" if drawn.orientation == "hexagonal" else ""  # the tileset: mazeplugin or mazeplugin-hex
    image = _image(path, f"mazeplugin{hexagons or '-tiles'}-{drawn.height}.png", lambda: tileset_png(drawn))
    tilesets = [_tileset(FLOOR_GID, f"mazeplugin{hexagons}", drawn, image, "wall", "bool", (False, True))]
    rows, columns = level.tiles.shape
    layers = [_tile_layer(1, "maze", columns, rows, (level.tiles.astype(np.int64) + FLOOR_GID).ravel().tolist()),
              _object_layer(2, "markers", [
                  {"id": i, "name": name, "type": name, "point": True, "x": x, "y": y, "width": 0, "height": 0,
                   "rotation": 0, "visible": True} for i, (name, x, y) in enumerate(markers, start=1)])]
    if things:
        layers.append(_object_layer(3, "things", things))
    if level.weave:
        image = _image(path, f"mazeplugin-bridges-{drawn.width}.png", lambda: bridges_png(drawn.width))
        tilesets.append(_tileset(BRIDGE_FIRST_GID, "mazeplugin-bridges", drawn, image, "tunnel", "string", _TUNNELS))
        bridges = np.where(level.bridges > 0, level.bridges.astype(np.int64) + (BRIDGE_FIRST_GID - 1), 0)
        layers.append(_tile_layer(len(layers) + 1, "bridges", columns, rows, bridges.ravel().tolist()))
    rooms = room_objects(level, drawn.width, first + len(things))
    if rooms:
        layers.append(_object_layer(len(layers) + 1, "rooms", [{**r, "rotation": 0, "visible": True} for r in rooms]))
    return {
        "type": "map", "version": _TILED_VERSION, "tiledversion": _TILED_RELEASE,
        "orientation": drawn.orientation, "renderorder": "right-down", "width": columns, "height": rows,
        "tilewidth": drawn.width, "tileheight": drawn.height, "infinite": False, **({} if not hexagons else {
            "hexsidelength": drawn.side, "staggeraxis": STAGGER_AXIS, "staggerindex": STAGGER_INDEX}),
        "nextlayerid": len(layers) + 1, "nextobjectid": first + len(things) + len(rooms),
        "compressionlevel": -1,
        "properties": [{"name": name, "type": kind, "value": value} for name, kind, value in _map_properties(level)],
        "tilesets": tilesets, "layers": layers,
    }


def _tileset(first: int, name: str, drawn: Sheet, image: str, prop: str, kind: str,
             values: Sequence[Any]) -> Dict[str, Any]:
    """A two-tile tileset whose tiles have the property ``prop`` (of Tiled type ``kind``) = ``values``."""
    return {"firstgid": first, "name": name, "tilewidth": drawn.width, "tileheight": drawn.height, "tilecount": 2,
            "columns": 2, "margin": 0, "spacing": 0, "image": image, "imagewidth": 2 * drawn.width,
            "imageheight": drawn.height,
            "tiles": [{"id": k, "properties": [{"name": prop, "type": kind, "value": value}]}
                      for k, value in enumerate(values)]}


def _tile_layer(layer_id: int, name: str, columns: int, rows: int, gids: List[int]) -> Dict[str, Any]:
    return {"id": layer_id, "name": name, "type": "tilelayer", "width": columns, "height": rows, "data": gids, **_COMMON}


def _object_layer(layer_id: int, name: str, objects: List[Dict[str, Any]]) -> Dict[str, Any]:
    return {"id": layer_id, "name": name, "type": "objectgroup", "draworder": "topdown", "objects": objects, **_COMMON}


def _map_properties(level: Any) -> List[Tuple[str, str, Any]]:
    """``(name, Tiled type, value)`` of the map properties."""
    square = level.kind == "square"
    props: List[Tuple[str, str, Any]] = [] if level.algorithm is None else [("generator", "string", level.algorithm)]
    props += [] if square else [("grid", "string", level.kind)]
    props.append(("size", "string", f"{level.width}x{level.height}"))
    props += [] if level.seed is None else [("seed", "string", str(level.seed))]
    props += [("corridor", "int", level.layout.corridor), ("wall", "int", level.layout.wall)] if square else []
    options = level.options if square else {k: v for k, v in level.options.items() if k != "grid"}
    if options:
        props.append(("options", "string", json.dumps(options, default=plain_json, sort_keys=True)))
        if isinstance(options.get("mission"), dict):  # a dungeon's mission, on its own for Tiled's users
            props.append(("mission", "string", json.dumps(options["mission"], default=plain_json)))
    return props


# -- things -------------------------------------------------------------------------


def _thing_objects(level: Any, drawn: Sheet, first: int) -> List[Dict[str, Any]]:
    """One ``.tmj`` object per thing, ids from ``first``: on a square map a rectangle over its tiles (an enemy
    with a patrol: a polyline from its tile's centre); on a hex map a point at its tile's centre (a door's:
    its passage's), an enemy a polyline through its patrol's cells."""
    if not level.things:
        return []
    square = level.kind == "square"
    if not square:
        cols, rows = cell_tiles(level.maze.grid)
        mid_cols, mid_rows = passage_tiles(level.maze.grid)
    out: List[Dict[str, Any]] = []
    for n, thing in enumerate(level.things, start=first):
        skip = {"door": ("tiles",) if square else ("edge", "cells"), "enemy": ("patrol",)}.get(thing.kind, ())
        props = thing_properties(thing, skip)  # where the object stands says the props in skip
        if square:
            at, patrol = (thing.x, thing.y), thing.props.get("patrol")
        else:
            edge = int(thing.props["edge"]) if thing.kind == "door" and "edge" in thing.props else -1
            at = (int(mid_cols[edge]), int(mid_rows[edge])) if edge >= 0 else (int(cols[thing.cell]), int(rows[thing.cell]))
            patrol = [(int(cols[c]), int(rows[c])) for c in thing.props.get("patrol") or ()] if thing.kind == "enemy" else None
        x, y = drawn.centre(*at)
        shape: Dict[str, Any] = {}
        if thing.kind == "enemy" and patrol:
            place = {"x": x, "y": y, "width": 0, "height": 0}
            shape["polyline"] = [{"x": px - x, "y": py - y} for px, py in (drawn.centre(*step) for step in patrol)]
        elif square:
            xs, ys = [tx for tx, _ in thing.tiles()], [ty for _, ty in thing.tiles()]
            place = {"x": min(xs) * drawn.width, "y": min(ys) * drawn.height,
                     "width": (max(xs) - min(xs) + 1) * drawn.width, "height": (max(ys) - min(ys) + 1) * drawn.height}
        else:
            place, shape["point"] = {"x": x, "y": y, "width": 0, "height": 0}, True
        out.append({"id": n, "name": f"{thing.kind} {thing.id}", "type": thing.kind, **place, "rotation": 0,
                    "visible": True, "properties": [{"name": k, "type": t, "value": v} for k, t, v in props], **shape})
    return out


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


# -- rooms --------------------------------------------------------------------------


def room_objects(level: Any, tile: int, first_id: int) -> List[Dict[str, Any]]:
    """A dungeon's rooms (``options["layout"]["rooms"]``) as Tiled objects in pixels, ids from ``first_id`` (none
    on other levels), named by the mission's room ids, typed by kind, over the room's tiles and outline: a rectangle,
    or for a shaped room (``shapes=``: L, T, plus, U) a polygon round its cells (a cell of the room's box whose middle
    tile is floor) and the walls about them. Nothing reads the layer back.

    >>> class Level:
    ...     options = {"layout": {"rooms": [{"id": "start", "kind": "start", "x": 0, "y": 0, "width": 5, "height": 5}]}}
    ...     tiles = np.array([[1] * 5, [1, 0, 1, 1, 1], [1, 0, 0, 0, 1], [1, 0, 1, 0, 1], [1] * 5])
    >>> room_objects(Level(), 16, 3)
    [{'id': 3, 'name': 'start', 'type': 'start', 'x': 0, 'y': 0, 'width': 80, 'height': 80}]
    >>> Level.options["layout"]["rooms"][0]["shape"] = "L"  # an L of three cells, its north-east cell solid
    >>> room_objects(Level(), 1, 3)[0]["polygon"]
    [{'x': 0, 'y': 0}, {'x': 3, 'y': 0}, {'x': 3, 'y': 2}, {'x': 5, 'y': 2}, {'x': 5, 'y': 5}, {'x': 0, 'y': 5}]
    """
    layout = level.options.get("layout")
    rooms = layout.get("rooms") if isinstance(layout, dict) else None
    if not isinstance(rooms, list):
        return []
    out = []
    for n, room in enumerate(rooms):
        x, y, width, height = (int(room[k]) for k in ("x", "y", "width", "height"))
        item: Dict[str, Any] = {"id": first_id + n, "name": str(room["id"]), "type": str(room.get("kind", "room")),
                                "x": x * tile, "y": y * tile}
        if room.get("shape", "rect") == "rect":
            item.update(width=width * tile, height=height * tile)
        else:
            box = np.asarray(level.tiles)[y : y + height, x : x + width]
            region = np.zeros(box.shape, dtype=bool)  # the room's cells and the walls about them
            for cy, cx in zip(*np.nonzero(box[1::2, 1::2] == 0)):
                region[2 * cy : 2 * cy + 3, 2 * cx : 2 * cx + 3] = True
            corners = room_outline(region)
            item.update(width=0, height=0, polygon=[{"x": cx * tile, "y": cy * tile} for cx, cy in corners])
        out.append(item)
    return out


def room_outline(region: Any) -> List[Tuple[int, int]]:
    """The corners ``(x, y)`` of the outline of ``region`` (a 2-d bool array, True inside; one orthogonal
    polygon without holes, as every room shape is), clockwise on the screen from its top-left corner, in tiles
    from the array's corner; no corner where the outline runs straight on.

    >>> room_outline(np.array([[True, False], [True, True]]))
    [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (0, 2)]
    """
    inside = np.pad(np.asarray(region, dtype=bool), 1)
    onward: Dict[Tuple[int, int], Tuple[int, int]] = {}
    for r, c in zip(*np.nonzero(inside)):
        x, y = int(c) - 1, int(r) - 1  # the tile's corner, without the padding
        if not inside[r - 1, c]:
            onward[(x, y)] = (x + 1, y)
        if not inside[r, c + 1]:
            onward[(x + 1, y)] = (x + 1, y + 1)
        if not inside[r + 1, c]:
            onward[(x + 1, y + 1)] = (x, y + 1)
        if not inside[r, c - 1]:
            onward[(x, y + 1)] = (x, y)
    first = min(onward, key=lambda corner: (corner[1], corner[0]))
    walk = [first]
    while onward[walk[-1]] != first:
        walk.append(onward[walk[-1]])
    n = len(walk)
    return [walk[k] for k in range(n)
            if (walk[k][0] - walk[k - 1][0]) * (walk[(k + 1) % n][1] - walk[k][1])
            != (walk[k][1] - walk[k - 1][1]) * (walk[(k + 1) % n][0] - walk[k][0])]


# -- the map as XML -----------------------------------------------------------------


def tmx_text(data: Dict[str, Any]) -> str:
    """The ``.tmj`` document ``data`` (see :func:`tmj_data`) as a Tiled XML map: the same map, CSV tile layers."""
    fields = " ".join(f'{key}="{0 if value is False else value}"' for key, value in data.items()
                      if key not in ("type", "compressionlevel", "properties", "tilesets", "layers"))
    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n', f"<map {fields}>\n",
             f" <properties>\n{_properties_xml(data['properties'], '  ')}\n </properties>\n"]
    for tileset in data["tilesets"]:
        tiles = "\n".join(f'  <tile id="{tile["id"]}">\n   <properties>\n{_properties_xml(tile["properties"], "    ")}'
                          f'\n   </properties>\n  </tile>' for tile in tileset["tiles"])
        parts.append(f' <tileset firstgid="{tileset["firstgid"]}" name="{tileset["name"]}" '
                     f'tilewidth="{tileset["tilewidth"]}" tileheight="{tileset["tileheight"]}" tilecount="2" '
                     f'columns="2">\n  <image source={quoteattr(tileset["image"])} width="{tileset["imagewidth"]}" '
                     f'height="{tileset["imageheight"]}"/>\n{tiles}\n </tileset>\n')
    for layer in data["layers"]:
        if layer["type"] == "tilelayer":
            gids, columns = layer["data"], layer["width"]
            csv = ",\n".join(",".join(map(str, gids[i:i + columns])) for i in range(0, len(gids), columns))
            parts.append(f' <layer id="{layer["id"]}" name="{layer["name"]}" width="{columns}" '
                         f'height="{layer["height"]}">\n  <data encoding="csv">\n{csv}\n</data>\n </layer>\n')
        else:
            objects = "\n".join(_object_xml(obj, layer["name"]) for obj in layer["objects"])
            parts.append(f' <objectgroup id="{layer["id"]}" name="{layer["name"]}">\n{objects}\n </objectgroup>\n')
    return "".join(parts) + "</map>\n"


def _properties_xml(props: List[Dict[str, Any]], indent: str) -> str:
    lines = []
    for prop in props:
        kind = "" if prop["type"] == "string" else f" type={quoteattr(prop['type'])}"
        lines.append(f"{indent}<property name={quoteattr(prop['name'])}{kind} value={quoteattr(_xml_value(prop['value']))}/>")
    return "\n".join(lines)


def _object_xml(obj: Dict[str, Any], layer: str) -> str:
    """An object of the ``layer`` named: a marker's position as ``:g`` text, a thing's and a room's in full."""
    place = (f"{obj['x']:g}", f"{obj['y']:g}") if layer == "markers" else (_number(obj["x"]), _number(obj["y"]))
    head = f'  <object id="{obj["id"]}" name={quoteattr(obj["name"])} type={quoteattr(obj["type"])} ' \
           f'x="{place[0]}" y="{place[1]}"'
    if obj["width"]:
        head += f' width="{obj["width"]:g}" height="{obj["height"]:g}"' if layer == "things" else \
            f' width="{obj["width"]}" height="{obj["height"]}"'
    body = []
    if "properties" in obj:
        body.append(f"   <properties>\n{_properties_xml(obj['properties'], '    ')}\n   </properties>")
    if obj.get("point"):
        body.append("   <point/>")
    for shape in ("polyline", "polygon"):
        if shape in obj:
            points = " ".join(f"{_number(p['x'])},{_number(p['y'])}" for p in obj[shape])
            body.append(f'   <{shape} points="{points}"/>')
    return head + (">\n" + "\n".join(body) + "\n  </object>" if body else "/>")


def _number(value: float) -> str:
    """A pixel coordinate as text, every digit kept (``:g`` would round a large map's to six)."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _xml_value(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


# -- tileset images -----------------------------------------------------------------


def tileset_png(drawn: Sheet) -> bytes:
    """The floor/wall tileset image of a map drawn as ``drawn``, PNG bytes: a floor tile, then a wall tile (RGB on
    an orthogonal map; on a hexagonal one two hexagons, transparent around them).

    >>> tileset_png(sheet("hex", 4))[:8] == bridges_png(8)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    width, height = drawn.width, drawn.height
    inside: Any = True
    if drawn.orientation == "hexagonal":
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float64) + 0.5
        dx, dy = np.abs(xs - width / 2), np.abs(ys - height / 2)
        inside = (dx <= width / 2) & (dy <= height / 2 - dx / math.sqrt(3))
    rgba = np.zeros((height, 2 * width, 4), dtype=np.uint8)
    for k, name in enumerate(("floor", "wall")):
        rgba[:, k * width:(k + 1) * width][inside] = _rgba(name)
    return png_bytes(rgba if drawn.orientation == "hexagonal" else rgba[:, :, :3])


def bridges_png(tile: int = 16) -> bytes:
    """The bridges tileset image as PNG bytes (RGBA): a bridge over a tunnel east–west (railings on its
    west and east edges: the bridge runs north–south), then one over a tunnel north–south; transparent
    between the railings, so the floor of the ``maze`` layer shows through."""
    tile = sheet("square", tile).width
    rail = max(1, tile // 6)
    rgba = np.zeros((tile, 2 * tile, 4), dtype=np.uint8)
    colour = _rgba("wall")
    rgba[:, :rail] = rgba[:, tile - rail:tile] = colour
    rgba[:rail, tile:] = rgba[tile - rail:, tile:] = colour
    return png_bytes(rgba)


def png_bytes(rgb: NDArray[np.uint8]) -> bytes:
    """A minimal truecolour PNG (IHDR, one IDAT, IEND) of a uint8 ``(h, w, 3)`` array, or ``(h, w, 4)`` with alpha."""
    height, width, channels = rgb.shape
    scanlines = np.zeros((height, 1 + channels * width), dtype=np.uint8)  # filter byte 0 per row
    scanlines[:, 1:] = rgb.reshape(height, channels * width)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6 if channels == 4 else 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(scanlines.tobytes(), 9))
            + chunk(b"IEND", b""))


def _rgba(name: str) -> Tuple[int, int, int, int]:
    return (int(COLOURS[name][1:3], 16), int(COLOURS[name][3:5], 16), int(COLOURS[name][5:7], 16), 255)


def _image(map_path: PathLike, name: str, image: Callable[[], bytes]) -> str:
    """Write the tileset image ``image()`` as ``name`` beside the map (unless an identical one is there); ``name``.
    The map must go to a regular file (or a new one, or a symlink to one): one written through a device or a FIFO
    would name an image nobody can find, so that is refused before anything is written."""
    where = destination(map_path)
    if where.kind != "file":
        raise UnsafeDestinationError(f"{os.fspath(map_path)!r} is not a regular file: a Tiled map is written to a "
                                     "file, with its tileset image beside it")
    path = os.path.join(os.path.dirname(where.path), name)
    data = image()
    try:
        same = read_limited(path, len(data), what="a tileset image") == data
    except (OSError, ValueError):
        same = False
    if not same:
        write_bytes(path, data)
    return name
