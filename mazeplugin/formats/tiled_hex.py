"""Hex levels as Tiled hexagonal maps, ``.tmx`` (XML) and ``.tmj`` (JSON): the tilemap of :mod:`mazeplugin.grids.hextiles`.

What is written (the same shape as :mod:`mazeplugin.formats.tiled`'s square maps):

- A hexagonal map (``orientation="hexagonal"``, ``staggeraxis="y"``,
  ``staggerindex="odd"``: pointy-top tiles, odd rows shifted half a tile
  right), ``tile`` pixels high, ``round(tile * √3 / 2)`` wide, with
  ``hexsidelength`` ``tile // 2``, so the hexagons are regular.
- One tileset embedded in the map, two hexagonal tiles: id 0 floor, id 1
  wall, each with a bool ``wall`` property; its image
  ``mazeplugin-hex-<tile>.png`` (transparent outside the hexagons) is
  written beside the map.
- A tile layer ``maze`` (global ids 1 floor, 2 wall) and an object layer
  ``markers`` with ``entrance`` and ``exit`` points at their tiles' centres.
- With things (``keys=``, ``treasure=``, ``enemies=``, ``place=``: see
  :mod:`mazeplugin.content.cells`), an object layer ``things`` as on square
  maps: one object per thing, its ``type`` the kind, its id and props as
  Tiled properties (``thing_id``; ``key``/``door``/``lock``; other props as
  JSON text, named in ``json_props``, as on square maps). Every thing is a point at its
  tile's centre: a key, treasure or a game's own thing at its cell's tile, a
  door at its passage's tile (the tile between its two cells), an enemy a
  polyline from its cell's tile through the tiles of the cells it patrols.
  A door's passage and cells, and an enemy's patrol, are where the objects
  are, so a designer moves them in Tiled by moving the objects.
- Map properties ``generator``, ``grid`` (``"hex"``), ``size`` (cells),
  ``seed`` (as text; ``generator`` and ``seed`` only when known) and, when the
  level was made with any (``braid``, ``markers="none"``, a generator's own),
  ``options``: JSON text.

Both files read back (:mod:`mazeplugin.formats.tiled_hex_read`) into the same level,
things included.

>>> import os, tempfile, mazeplugin as mp
>>> folder = tempfile.mkdtemp()
>>> mp.generate("kruskal", 4, 3, grid="hex", seed=7).save(os.path.join(folder, "hex.tmx"))
>>> mp.generate("kruskal", 4, 3, grid="hex", seed=7).save(os.path.join(folder, "hex.tmj"))
>>> sorted(os.listdir(folder))
['hex.tmj', 'hex.tmx', 'mazeplugin-hex-32.png']
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any, Dict, List, Tuple
from xml.sax.saxutils import quoteattr

import numpy as np

from ..grids import HexGrid
from ..grids.hextiles import STAGGER_AXIS, STAGGER_INDEX, cell_tiles, passage_tiles
from ..limits import MAX_TILE_PIXELS, check_int
from .files import PathLike, write_text
from .recorded import plain_json
from .svg import COLOURS
from .tiled import png_bytes, thing_properties, things_xml, tmj_data, tmx_text, write_tileset_image
from .tiled_common import hex_tile_centre

if TYPE_CHECKING:  # pragma: no cover
    from ..grid_level import GridLevel

__all__ = ["save_tmx", "save_tmj", "hex_tileset_png", "tile_size", "tile_centre", "TILESET_NAME"]

TILESET_NAME = "mazeplugin-hex"


def tile_size(tile: int) -> Tuple[int, int, int]:
    """``(width, height, hexsidelength)`` in pixels of a pointy-top hex tile ``tile`` pixels high."""
    return max(1, round(tile * math.sqrt(3) / 2)), tile, tile // 2


def tile_centre(col: int, row: int, tile: int) -> Tuple[float, float]:
    """The pixel centre of map tile ``(col, row)`` (odd rows shifted right), as Tiled draws it."""
    return hex_tile_centre(col, row, *tile_size(tile))


def hex_tileset_png(tile: int) -> bytes:
    """The tileset image: a floor hexagon, then a wall hexagon, transparent around them."""
    width, height, _ = tile_size(tile)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64) + 0.5
    dx, dy = np.abs(xs - width / 2), np.abs(ys - height / 2)
    inside = (dx <= width / 2) & (dy <= height / 2 - dx / math.sqrt(3))
    rgba = np.zeros((height, 2 * width, 4), dtype=np.uint8)
    for k, name in enumerate(("floor", "wall")):
        colour = [int(COLOURS[name][i:i + 2], 16) for i in (1, 3, 5)] + [255]
        rgba[:, k * width:(k + 1) * width][inside] = colour
    return png_bytes(rgba)


def save_tmx(level: "GridLevel", path: PathLike, *, tile: int = 32) -> None:
    """Write hex ``level`` as a Tiled hexagonal map (XML) to ``path``, and its tileset image beside it."""
    map_ = _HexMap(level, path, tile)
    properties = "\n".join(f"  <property name={quoteattr(n)} value={quoteattr(v)}/>" for n, _, v in map_.properties)
    text = tmx_text(
        map_attributes=f'orientation="hexagonal" renderorder="right-down" width="{map_.columns}" '
                       f'height="{map_.rows}" tilewidth="{map_.width}" tileheight="{map_.height}" infinite="0" '
                       f'hexsidelength="{map_.side}" staggeraxis="{STAGGER_AXIS}" staggerindex="{STAGGER_INDEX}" '
                       f'nextlayerid="{map_.next_layer}" nextobjectid="{map_.next_object}"',
        properties=properties, tileset=TILESET_NAME, tile_width=map_.width, tile_height=map_.height,
        image=map_.image, tiles=map_.tiles, markers=map_.markers, after=things_xml(map_.things),
    )
    write_text(path, text)


def save_tmj(level: "GridLevel", path: PathLike, *, tile: int = 32) -> None:
    """Write hex ``level`` as a Tiled hexagonal map (JSON) to ``path``, and its tileset image beside it."""
    map_ = _HexMap(level, path, tile)
    data = tmj_data(
        fields={"orientation": "hexagonal", "renderorder": "right-down", "width": map_.columns,
                "height": map_.rows, "tilewidth": map_.width, "tileheight": map_.height, "infinite": False,
                "hexsidelength": map_.side, "staggeraxis": STAGGER_AXIS, "staggerindex": STAGGER_INDEX,
                "nextlayerid": map_.next_layer, "nextobjectid": map_.next_object},
        properties=map_.properties, tileset=TILESET_NAME, tile_width=map_.width, tile_height=map_.height,
        image=map_.image, tiles=map_.tiles, markers=map_.markers, things=map_.things,
    )
    write_text(path, json.dumps(data, separators=(",", ":")) + "\n")


class _HexMap:
    """What both hex writers write: the tiles, tile size, tileset image (written beside ``path``),
    marker points and map properties of ``level``."""

    def __init__(self, level: "GridLevel", path: PathLike, tile: int) -> None:
        if level.grid != "hex":
            raise ValueError(f"a Tiled hexagonal map is for hex levels; this is a {level.grid} level")
        tile = check_int("tile", tile, low=2, high=MAX_TILE_PIXELS, what="an int (pixels per tile)")
        self.tiles = level.tiles
        self.rows, self.columns = self.tiles.shape
        self.width, self.height, self.side = tile_size(tile)
        self.things = _thing_objects(level, tile, first_id=3)  # before any file: a prop Tiled cannot hold is refused
        self.image = write_tileset_image(path, f"mazeplugin-hex-{tile}.png", lambda: hex_tileset_png(tile))
        self.markers: List[Tuple[str, float, float]] = []
        if level.entrance_tile is not None and level.exit_tile is not None:
            self.markers = [(name, *tile_centre(c, r, tile)) for name, (c, r) in
                            (("entrance", level.entrance_tile), ("exit", level.exit_tile))]
        props = [("generator", level.algorithm), ("grid", "hex"), ("size", f"{level.width}x{level.height}"),
                 ("seed", None if level.seed is None else str(level.seed))]
        options = {k: v for k, v in level.options.items() if k != "grid"}
        if options:
            props.append(("options", json.dumps(options, default=plain_json, sort_keys=True)))
        self.properties: List[Tuple[str, str, Any]] = [(n, "string", v) for n, v in props if v is not None]
        for n, obj in enumerate(self.things, start=len(self.markers) + 1):
            obj["id"] = n
        self.next_layer = 4 if self.things else 3
        self.next_object = len(self.markers) + len(self.things) + 1


def _thing_objects(level: "GridLevel", tile: int, first_id: int) -> List[Dict[str, Any]]:
    """One Tiled object per thing (as :func:`mazeplugin.formats.tiled.things_xml` takes them): a point at
    its cell's tile centre (a door: its passage's), an enemy a polyline through its patrol's cells."""
    if not level.things:
        return []
    grid = level.maze.grid
    assert isinstance(grid, HexGrid)  # _HexMap checked the level is hex
    cols, rows = cell_tiles(grid)
    mid_cols, mid_rows = passage_tiles(grid)

    def cell_centre(cell: int) -> Tuple[float, float]:
        return tile_centre(int(cols[cell]), int(rows[cell]), tile)

    out: List[Dict[str, Any]] = []
    for n, thing in enumerate(level.things, start=first_id):
        shape = {"door": ("edge", "cells"), "enemy": ("patrol",)}.get(thing.kind, ())  # where the object is
        props = thing_properties(thing, shape)
        obj: Dict[str, Any] = {"id": n, "name": f"{thing.kind} {thing.id}", "type": thing.kind, "props": props,
                               "width": 0, "height": 0}
        if thing.kind == "door" and "edge" in thing.props:
            edge = int(thing.props["edge"])
            x, y = tile_centre(int(mid_cols[edge]), int(mid_rows[edge]), tile)
        else:
            x, y = cell_centre(thing.cell)
        obj.update(x=x, y=y)
        if thing.kind == "enemy" and thing.props.get("patrol"):
            obj["polyline"] = [(px - x, py - y) for px, py in map(cell_centre, thing.props["patrol"])]
        else:
            obj["point"] = True
        out.append(obj)
    return out
