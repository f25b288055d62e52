"""Hex levels as Tiled hexagonal maps (``.tmx``): the tilemap of :mod:`mazeplugin.grids.hextiles`.

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
- Map properties ``generator``, ``grid`` (``"hex"``), ``size`` (cells) and ``seed``.

>>> import os, tempfile, mazeplugin as mp
>>> folder = tempfile.mkdtemp()
>>> mp.generate("kruskal", 4, 3, grid="hex", seed=7).save_tmx(os.path.join(folder, "hex.tmx"))
>>> sorted(os.listdir(folder))
['hex.tmx', 'mazeplugin-hex-32.png']
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, List, Tuple
from xml.sax.saxutils import quoteattr

import numpy as np

from ..limits import MAX_TILE_PIXELS, check_int
from .files import PathLike, UnsafeDestinationError, destination, read_limited, write_bytes, write_text
from .svg import COLOURS
from .tiled import FLOOR_GID, png_bytes

if TYPE_CHECKING:  # pragma: no cover
    from ..grid_level import GridLevel

__all__ = ["save_tmx", "hex_tileset_png", "tile_size", "tile_centre"]


def tile_size(tile: int) -> Tuple[int, int, int]:
    """``(width, height, hexsidelength)`` in pixels of a pointy-top hex tile ``tile`` pixels high."""
    return max(1, round(tile * math.sqrt(3) / 2)), tile, tile // 2


def tile_centre(col: int, row: int, tile: int) -> Tuple[float, float]:
    """The pixel centre of map tile ``(col, row)`` (odd rows shifted right), as Tiled draws it."""
    width, height, side = tile_size(tile)
    return col * width + width / 2 + (width / 2 if row & 1 else 0), row * (height + side) / 2 + height / 2


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
    """Write hex ``level`` as a Tiled hexagonal map to ``path``, and its tileset image beside it."""
    tile = check_int("tile", tile, low=2, high=MAX_TILE_PIXELS, what="an int (pixels per tile)")
    tiles = level.tiles  # a ValueError for a level that is not hex
    rows, columns = tiles.shape
    width, height, side = tile_size(tile)
    image = _write_tileset_image(path, tile)
    gids = (tiles.astype(np.int64) + FLOOR_GID).astype(str)
    csv = ",\n".join(",".join(row) for row in gids.tolist())
    markers: List[Tuple[str, Tuple[int, int]]] = []
    if level.entrance_tile is not None and level.exit_tile is not None:
        markers = [("entrance", level.entrance_tile), ("exit", level.exit_tile)]
    objects = "\n".join(
        f'  <object id="{i}" name="{name}" type="{name}" x="{x:g}" y="{y:g}">\n   <point/>\n  </object>'
        for i, (name, (x, y)) in enumerate(((n, tile_centre(c, r, tile)) for n, (c, r) in markers), start=1))
    props = [("generator", str(level.algorithm)), ("grid", "hex"), ("size", f"{level.width}x{level.height}"),
             ("seed", str(level.seed))]
    properties = "\n".join(f"  <property name={quoteattr(n)} value={quoteattr(v)}/>" for n, v in props)
    text = f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="hexagonal" renderorder="right-down" width="{columns}" height="{rows}" tilewidth="{width}" tileheight="{height}" infinite="0" hexsidelength="{side}" staggeraxis="y" staggerindex="{level.stagger_index}" nextlayerid="3" nextobjectid="{len(markers) + 1}">
 <properties>
{properties}
 </properties>
 <tileset firstgid="1" name="mazeplugin-hex" tilewidth="{width}" tileheight="{height}" tilecount="2" columns="2">
  <image source={quoteattr(image)} width="{2 * width}" height="{height}"/>
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
 <layer id="1" name="maze" width="{columns}" height="{rows}">
  <data encoding="csv">
{csv}
</data>
 </layer>
 <objectgroup id="2" name="markers">
{objects}
 </objectgroup>
</map>
"""
    write_text(path, text)


def _write_tileset_image(map_path: PathLike, tile: int) -> str:
    """Write the tileset image beside the map (unless an identical one is there); its relative name."""
    where = destination(map_path)
    if where.kind != "file":
        raise UnsafeDestinationError(
            f"{os.fspath(map_path)!r} is not a regular file: a Tiled map is written to a file, "
            "with its tileset image beside it"
        )
    name = f"mazeplugin-hex-{tile}.png"
    path = os.path.join(os.path.dirname(where.path), name)
    data = hex_tileset_png(tile)
    try:
        same = read_limited(path, len(data), what="a tileset image") == data
    except (OSError, ValueError):
        same = False
    if not same:
        write_bytes(path, data)
    return name
