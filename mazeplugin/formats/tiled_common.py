"""What Tiled's readers and writer share: :class:`Sheet` (a map's grid part: orientation and tile size, a tile's
centre and the tile under a pixel), :class:`TiledMap`, the map's size and kind, numbers, markers.

>>> hexagons = Sheet("hexagonal", 21, 24, 12)
>>> hexagons.centre(1, 1), hexagons.tile_at(*hexagons.centre(1, 1)), Sheet("orthogonal", 16, 16).tile_at(40, 3)
((42.0, 30.0), (1, 1), (2, 0))
>>> map_size("3", "2", "m.tmx")
(3, 2)
>>> count("-1", "a tile id", "m.tmx")
Traceback (most recent call last):
...
mazeplugin.errors.LevelFormatError: m.tmx: a tile id must be a non-negative int, got '-1'
"""

from __future__ import annotations

import json
import math
from typing import Any, Callable, Dict, NamedTuple, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from ..grids.hextiles import STAGGER_AXIS as HEX_STAGGER_AXIS
from ..grids.hextiles import STAGGER_INDEX as HEX_STAGGER_INDEX
from ..limits import MAX_OPTIONS_BYTES, MAX_TILES
from ..seeds import Seed
from .files import LevelFormatError
from .recorded import recorded_seed

__all__ = [
    "TiledMap", "SizeCheck", "ROLES", "check_map_kind", "infinite_map", "map_size", "positive_int", "count", "is_marker",
    "add_marker", "brief", "text_of", "recorded_properties", "Sheet",
]

ROLES = ("entrance", "exit", "door")
"""Objects read by name, type or class."""


SizeCheck = Callable[[str, int, int, Dict[str, Any], str], None]
"""Called by the readers with ``(orientation, columns, rows, map properties, source)`` once the first
tile layer's size is checked against the map's and before any layer is decoded: a loader refuses there a
size its level cannot have."""


class TiledMap:
    """What a Tiled map says about a level (or a prefab room), before it is rebuilt into one.

    Attributes:
        walls: bool ``(rows, columns)``: True where a tile with ``wall`` = true lies.
        markers: ``{"entrance": (x, y), "exit": (x, y)}`` tiles (either may be missing).
        properties: the map's custom properties, by name.
        source: the file name, for messages.
        doors: bool ``(rows, columns)``: where a tile with the bool property
            ``door`` = true lies, or a ``door`` object (prefabs' door marks).
        orientation: ``"orthogonal"``, or ``"hexagonal"`` for a hex level's map (odd rows shifted right).
        bridges: uint8 ``(rows, columns)``: a weave level's bridges (1: over a tunnel east–west, 2:
            north–south, 0: none), from tiles with the ``tunnel`` property; all 0 on other maps.
    """

    doors: NDArray[np.bool_]

    def __init__(self, walls: NDArray[np.bool_], markers: Dict[str, Tuple[int, int]],
                 properties: Dict[str, Any], source: str, doors: Optional[NDArray[np.bool_]] = None,
                 things: Tuple[Any, ...] = (), orientation: str = "orthogonal",
                 bridges: Optional[NDArray[np.uint8]] = None) -> None:
        self.walls = walls
        self.markers = markers
        self.properties = properties
        self.source = source
        self.doors = doors if doors is not None else np.zeros(walls.shape, dtype=bool)
        self.things = things  # from an object layer "things" (mazeplugin.content.tiled)
        self.orientation = orientation
        self.bridges = bridges if bridges is not None else np.zeros(walls.shape, dtype=np.uint8)


def check_map_kind(orientation: Any, infinite: bool, source: str, *, stagger_axis: Any = None,
                   stagger_index: Any = None) -> str:
    """The map's orientation, ``"orthogonal"`` or ``"hexagonal"`` (staggered along y, odd rows shifted:
    the layout of :mod:`mazeplugin.grids.hextiles`); refuse other maps, and infinite ones."""
    if orientation not in ("orthogonal", "hexagonal"):
        raise LevelFormatError(f"{source}: the map is {brief(orientation)}; a maze level is an orthogonal map "
                               "(or a hexagonal one, for a hex level)")
    if orientation == "hexagonal" and (stagger_axis, stagger_index) != (HEX_STAGGER_AXIS, HEX_STAGGER_INDEX):
        raise LevelFormatError(
            f"{source}: the hexagonal map has staggeraxis {brief(stagger_axis)} and staggerindex "
            f"{brief(stagger_index)}; a hex level is read from pointy-top tiles with odd rows shifted "
            f"(staggeraxis {HEX_STAGGER_AXIS!r}, staggerindex {HEX_STAGGER_INDEX!r}: Tiled, Map > Map Properties)")
    if infinite:
        raise infinite_map(source)
    return str(orientation)


class Sheet(NamedTuple):
    """The grid part of a Tiled map: its orientation and tile size in pixels (``side``: a hexagonal map's
    ``hexsidelength``; a hexagonal map is staggered along y, odd rows shifted half a tile right)."""

    orientation: str
    width: int
    height: int
    side: int = 0

    def centre(self, col: int, row: int) -> Tuple[float, float]:
        """The pixel centre of tile ``(col, row)``, as Tiled draws it."""
        if self.orientation != "hexagonal":
            return (col + 0.5) * self.width, (row + 0.5) * self.height
        return (col * self.width + self.width / 2 + (self.width / 2 if row & 1 else 0),
                row * (self.height + self.side) / 2 + self.height / 2)

    def tile_at(self, x: float, y: float) -> Tuple[int, int]:
        """The ``(column, row)`` of the tile under pixel ``(x, y)`` (finite): on a hexagonal map, the tile whose
        centre is nearest. May be outside the map; ``(-1, -1)`` far off any map (where a squared distance
        would overflow)."""
        if max(abs(x), abs(y)) > 1e15:
            return -1, -1
        if self.orientation != "hexagonal":
            return math.floor(x / self.width), math.floor(y / self.height)
        row0 = math.floor(y / max((self.height + self.side) / 2, 1e-9))
        best: Tuple[float, int, int] = (math.inf, 0, 0)
        for row in (row0 - 1, row0, row0 + 1):
            col0 = math.floor((x - (self.width / 2 if row & 1 else 0)) / self.width)
            for col in (col0 - 1, col0, col0 + 1):
                cx, cy = self.centre(col, row)
                best = min(best, ((cx - x) ** 2 + (cy - y) ** 2, col, row))
        return best[1], best[2]


def infinite_map(source: str) -> LevelFormatError:
    """The error for an infinite (chunked) map, saying how to save it instead."""
    return LevelFormatError(
        f"{source}: the map is infinite (stored in chunks); a level has a fixed size: "
        "untick Map > Map Properties > Infinite in Tiled and save again"
    )


def map_size(width: Any, height: Any, source: str) -> Tuple[int, int]:
    """``(columns, rows)`` of the map, at most ``MAX_TILES`` tiles."""
    columns = positive_int(width, "the map's width", source)
    rows = positive_int(height, "the map's height", source)
    if rows * columns > MAX_TILES:
        raise LevelFormatError(
            f"{source}: {columns:,} × {rows:,} tiles is too large; at most {MAX_TILES:,} tiles are allowed"
        )
    return columns, rows


def positive_int(value: Any, what: str, source: str) -> int:
    """An int >= 1 from an int or its decimal text."""
    number = count(value, what, source)
    if number < 1:
        raise LevelFormatError(f"{source}: {what} must be at least 1, got {number}")
    return number


def count(value: Any, what: str, source: str) -> int:
    """A non-negative int (below 2**40) from an int or its decimal text."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 12:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 40:
        return value
    raise LevelFormatError(f"{source}: {what} must be a non-negative int, got {brief(value)}")


def is_marker(fields: Dict[str, Any]) -> bool:
    """Whether an object is an entrance or exit (by name, else by type or class): a marker even in ``things``."""
    role = fields["name"] if fields["name"] in ROLES else fields["type"]
    return role in ("entrance", "exit")


def add_marker(markers: Dict[str, Tuple[int, int]], doors: NDArray[np.bool_], obj: Dict[str, Any],
               sheet: Sheet, size: Tuple[int, int], source: str) -> None:
    """Record an ``entrance``/``exit`` object's tile, or a ``door`` object's (by name, else by type or class)."""
    role = obj["name"] if obj["name"] in ROLES else obj["type"]
    if role not in ROLES:
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
    column, row = sheet.tile_at(x, y)
    if not (0 <= column < size[0] and 0 <= row < size[1]):
        raise LevelFormatError(
            f"{source}: the {role} object at pixel ({x:g}, {y:g}) is outside the map "
            f"({size[0]} × {size[1]} tiles of {sheet.width} × {sheet.height} pixels)"
        )
    if role == "door":
        doors[row, column] = True
    else:
        markers[role] = (column, row)


def brief(value: Any, width: int = 40) -> str:
    """A short repr of a value from a file, for messages: scalars as themselves (cut to ``width``), containers by
    type and length (a container's repr could be huge, or nested too deep to make)."""
    if value is None or isinstance(value, (bool, float)):
        return repr(value)
    if isinstance(value, int):
        return repr(value) if value.bit_length() < 128 else f"an int of {value.bit_length():,} bits"
    if isinstance(value, str):
        return repr(value[:width]) + ("..." if len(value) > width else "")
    if isinstance(value, (list, dict)):
        return f"a {'list' if isinstance(value, list) else 'JSON object'} of {len(value):,} items"
    return type(value).__name__


def text_of(value: Any) -> str:
    """A name or type field as text: a string as it is, a number or bool as its text, anything else empty."""
    if isinstance(value, str):
        return value
    if value is None or isinstance(value, (bool, float)) or (isinstance(value, int) and value.bit_length() < 128):
        return str(value)
    return ""


def recorded_properties(tiled: TiledMap) -> Tuple[Optional[str], Optional[Seed], Optional[Dict[str, Any]]]:
    """``(generator, seed, options)`` from the map's properties of those names (None where absent):
    the generator text, the seed resolved, the options parsed from JSON text into an object (bounded
    before parsing; what they may hold is for the caller to check)."""
    source, props = tiled.source, tiled.properties
    algorithm = props.get("generator")
    if algorithm is not None and not isinstance(algorithm, str):
        raise LevelFormatError(f"{source}: map property 'generator' must be text, got {brief(algorithm)}")
    seed = recorded_seed(props.get("seed"), source, "map property 'seed'")
    if props.get("options") in (None, ""):
        return algorithm, seed, None
    text = props["options"]
    if isinstance(text, str) and text.count("[") + text.count("{") > MAX_OPTIONS_BYTES:
        raise LevelFormatError(f"{source}: map property 'options' holds more lists and objects than "
                               f"{MAX_OPTIONS_BYTES:,} bytes of options can")  # refused before parsing them
    try:
        parsed = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError) as error:  # ValueError: not JSON, or an int too long to convert
        raise LevelFormatError(f"{source}: map property 'options' is not JSON: {getattr(error, 'msg', error)}") from None
    if not isinstance(parsed, dict):
        raise LevelFormatError(f"{source}: map property 'options' must be a JSON object, got {brief(text, 60)}")
    return algorithm, seed, parsed
