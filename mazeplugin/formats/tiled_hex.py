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
from typing import TYPE_CHECKING, List, Tuple
from xml.sax.saxutils import quoteattr

import numpy as np

from ..limits import MAX_TILE_PIXELS, check_int
from .files import PathLike, write_text
from .svg import COLOURS
from .tiled import png_bytes, tmx_text, write_tileset_image

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
    image = write_tileset_image(path, f"mazeplugin-hex-{tile}.png", lambda: hex_tileset_png(tile))
    markers: List[Tuple[str, float, float]] = []
    if level.entrance_tile is not None and level.exit_tile is not None:
        markers = [(name, *tile_centre(c, r, tile)) for name, (c, r) in
                   (("entrance", level.entrance_tile), ("exit", level.exit_tile))]
    props = [("generator", str(level.algorithm)), ("grid", "hex"), ("size", f"{level.width}x{level.height}"),
             ("seed", str(level.seed))]
    properties = "\n".join(f"  <property name={quoteattr(n)} value={quoteattr(v)}/>" for n, v in props)
    text = tmx_text(
        map_attributes=f'orientation="hexagonal" renderorder="right-down" width="{columns}" height="{rows}" '
                       f'tilewidth="{width}" tileheight="{height}" infinite="0" hexsidelength="{side}" staggeraxis="y" '
                       f'staggerindex="{level.stagger_index}" nextlayerid="3" nextobjectid="{len(markers) + 1}"',
        properties=properties, tileset="mazeplugin-hex", tile_width=width, tile_height=height, image=image,
        tiles=tiles, markers=markers,
    )
    write_text(path, text)
