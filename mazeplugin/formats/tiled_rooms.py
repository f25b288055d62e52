"""A dungeon's rooms in a Tiled map: the object layer ``rooms`` the ``.tmx`` and ``.tmj`` writers add.

A level laid out from a mission (:mod:`mazeplugin.dungeon.layout`) records
each room's rectangle in tiles in ``options["layout"]["rooms"]``; a Tiled map
of it shows them as rectangles named by the mission's room ids, typed by the
room's kind (start, goal, key, lock, boss, room), each over the room's tiles,
outline included. Any other level has no such layer; the map's property
``mission`` holds the mission (JSON text, ``Mission.from_json`` reads it).

>>> class Level:
...     options = {"layout": {"rooms": [{"id": "start", "kind": "start", "x": 0, "y": 2, "width": 5, "height": 3}]}}
>>> room_objects(Level(), 16, 3)
[{'id': 3, 'name': 'start', 'type': 'start', 'x': 0, 'y': 32, 'width': 80, 'height': 48}]
>>> print(rooms_xml(room_objects(Level(), 16, 3), 4), end="")
 <objectgroup id="4" name="rooms">
  <object id="3" name="start" type="start" x="0" y="32" width="80" height="48"/>
 </objectgroup>
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List
from xml.sax.saxutils import quoteattr

if TYPE_CHECKING:  # pragma: no cover
    from ..level import Level

__all__ = ["room_objects", "rooms_xml"]


def room_objects(level: "Level", tile: int, first_id: int) -> List[Dict[str, Any]]:
    """A dungeon's rooms (``options["layout"]["rooms"]``) as Tiled rectangles in pixels, ids from ``first_id``;
    none for any other level."""
    layout = level.options.get("layout")
    rooms = layout.get("rooms") if isinstance(layout, dict) else None
    if not isinstance(rooms, list):
        return []
    return [{"id": first_id + n, "name": str(room["id"]), "type": str(room.get("kind", "room")),
             "x": int(room["x"]) * tile, "y": int(room["y"]) * tile, "width": int(room["width"]) * tile,
             "height": int(room["height"]) * tile} for n, room in enumerate(rooms)]


def rooms_xml(rooms: List[Dict[str, Any]], layer_id: int) -> str:
    """The ``.tmx`` object layer ``rooms`` (layer id ``layer_id``) of :func:`room_objects`' rectangles; no text
    without rooms."""
    if not rooms:
        return ""
    lines = [f' <objectgroup id="{layer_id}" name="rooms">']
    lines += [f'  <object id="{room["id"]}" name={quoteattr(room["name"])} type={quoteattr(room["type"])} '
              f'x="{room["x"]}" y="{room["y"]}" width="{room["width"]}" height="{room["height"]}"/>'
              for room in rooms]
    lines.append(" </objectgroup>")
    return "\n".join(lines) + "\n"
