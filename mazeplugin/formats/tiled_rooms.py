"""A dungeon's rooms in a Tiled map: the object layer ``rooms`` the ``.tmx`` and ``.tmj`` writers add.

A level laid out from a mission (:mod:`mazeplugin.dungeon.layout`) records
each room's rectangle in tiles in ``options["layout"]["rooms"]``; a Tiled map
of it shows them as objects named by the mission's room ids, typed by the
room's kind (start, goal, key, lock, boss, treasure, room), each over the
room's tiles, outline included: a rectangle, or for a room whose record names
a ``"shape"`` other than ``"rect"`` (``shapes=``: L, T, plus, U) a polygon
(TMX ``<polygon points=...>``, TMJ ``"polygon"``) round the room's cells and
the walls about them, read off the level's tiles (a cell of the room's box is
the room's when its middle tile is floor). Any other level has no such layer;
the map's property ``mission`` holds the mission (JSON text,
``Mission.from_json`` reads it). Nothing reads the layer back: a level loads
from its tiles, things and properties.

>>> class Level:
...     options = {"layout": {"rooms": [{"id": "start", "kind": "start", "x": 0, "y": 2, "width": 5, "height": 3}]}}
>>> room_objects(Level(), 16, 3)
[{'id': 3, 'name': 'start', 'type': 'start', 'x': 0, 'y': 32, 'width': 80, 'height': 48}]
>>> print(rooms_xml(room_objects(Level(), 16, 3), 4), end="")
 <objectgroup id="4" name="rooms">
  <object id="3" name="start" type="start" x="0" y="32" width="80" height="48"/>
 </objectgroup>

An L of three cells, its box 2 × 2 cells (5 × 5 tiles), the north-east cell solid:

>>> import numpy as np
>>> Level.tiles = np.array([[1] * 5, [1, 0, 1, 1, 1], [1, 0, 0, 0, 1], [1, 0, 1, 0, 1], [1] * 5])
>>> Level.options["layout"]["rooms"][0].update(y=0, height=5, shape="L")
>>> print(rooms_xml(room_objects(Level(), 1, 3), 4), end="")
 <objectgroup id="4" name="rooms">
  <object id="3" name="start" type="start" x="0" y="0">
   <polygon points="0,0 3,0 3,2 5,2 5,5 0,5"/>
  </object>
 </objectgroup>
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Tuple
from xml.sax.saxutils import quoteattr

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ..level import Level

__all__ = ["room_objects", "rooms_xml", "room_outline"]


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


def _room_region(level: "Level", x: int, y: int, width: int, height: int) -> Any:
    """The tiles of the room's box that are its cells or the walls about them (True)."""
    box = np.asarray(level.tiles)[y : y + height, x : x + width]
    cells = box[1::2, 1::2] == 0
    region = np.zeros(box.shape, dtype=bool)
    for cy, cx in zip(*np.nonzero(cells)):
        region[2 * cy : 2 * cy + 3, 2 * cx : 2 * cx + 3] = True
    return region


def room_objects(level: "Level", tile: int, first_id: int) -> List[Dict[str, Any]]:
    """A dungeon's rooms (``options["layout"]["rooms"]``) as Tiled rectangles, or polygons for shaped rooms, in
    pixels, ids from ``first_id``; none for any other level."""
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
            corners = room_outline(_room_region(level, x, y, width, height))
            item.update(width=0, height=0, polygon=[{"x": cx * tile, "y": cy * tile} for cx, cy in corners])
        out.append(item)
    return out


def _object_xml(room: Dict[str, Any]) -> str:
    head = f'  <object id="{room["id"]}" name={quoteattr(room["name"])} type={quoteattr(room["type"])} ' \
           f'x="{room["x"]}" y="{room["y"]}"'
    if "polygon" not in room:
        return f'{head} width="{room["width"]}" height="{room["height"]}"/>'
    points = " ".join(f'{point["x"]},{point["y"]}' for point in room["polygon"])
    return f'{head}>\n   <polygon points="{points}"/>\n  </object>'


def rooms_xml(rooms: List[Dict[str, Any]], layer_id: int) -> str:
    """The ``.tmx`` object layer ``rooms`` (layer id ``layer_id``) of :func:`room_objects`' rectangles and
    polygons; no text without rooms."""
    if not rooms:
        return ""
    lines = [f' <objectgroup id="{layer_id}" name="rooms">']
    lines += [_object_xml(room) for room in rooms]
    lines.append(" </objectgroup>")
    return "\n".join(lines) + "\n"
