"""What the ``.tmx`` and ``.tmj`` readers share: :class:`TiledMap`, the map's size and kind, numbers, markers.

>>> map_size("3", "2", "m.tmx")
(3, 2)
>>> count("-1", "a tile id", "m.tmx")
Traceback (most recent call last):
...
mazeplugin.errors.LevelFormatError: m.tmx: a tile id must be a non-negative int, got '-1'
"""

from __future__ import annotations

import math
from typing import Any, Dict, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from ..limits import MAX_TILES
from .files import LevelFormatError

__all__ = [
    "TiledMap", "ROLES", "check_map_kind", "infinite_map", "map_size", "positive_int", "count", "is_marker",
    "add_marker", "brief", "text_of",
]

ROLES = ("entrance", "exit", "door")
"""Objects read by name, type or class."""


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

    doors: NDArray[np.bool_]

    def __init__(self, walls: NDArray[np.bool_], markers: Dict[str, Tuple[int, int]],
                 properties: Dict[str, Any], source: str, doors: Optional[NDArray[np.bool_]] = None,
                 things: Tuple[Any, ...] = ()) -> None:
        self.walls = walls
        self.markers = markers
        self.properties = properties
        self.source = source
        self.doors = doors if doors is not None else np.zeros(walls.shape, dtype=bool)
        self.things = things  # from an object layer "things" (mazeplugin.content.tiled)


def check_map_kind(orientation: Any, infinite: bool, source: str) -> None:
    """Refuse a map that is not orthogonal, or is infinite."""
    if orientation != "orthogonal":
        raise LevelFormatError(f"{source}: the map is {brief(orientation)}; a maze level is an orthogonal map")
    if infinite:
        raise infinite_map(source)


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
               tile: Tuple[int, int], size: Tuple[int, int], source: str) -> None:
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
