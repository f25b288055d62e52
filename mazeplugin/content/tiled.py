"""Things back from a Tiled map's ``things`` object layer (what :mod:`mazeplugin.formats.tiled` writes).

Each object of the layer is one thing: its ``type`` (or ``class``) the kind,
its ``thing_id`` property the id, its other properties the props (those
named in its ``json_props`` property, a JSON list, parsed from JSON text). Where it
stands comes from its shape, in tiles: a door's rectangle gives every tile it
blocks (``props["tiles"]``) and the thing's tile is the middle one; an
enemy's polyline gives its patrol, the polyline's origin its tile; any other
object stands on the tile under its rectangle's top-left corner (a point
object: the tile under it). A designer may move, add or delete things in
Tiled; the level then has to pass :meth:`Level.check` to load. A thing added
without a ``thing_id`` gets the next free id (after the largest given), in
the layer's order; two things given the same id are refused.

The built-in kinds' props are checked for their types
(:func:`~mazeplugin.content.things.check_props`), and the tiles things list are
bounded before they are listed: a door's rectangle covers at most
:data:`MAX_DOOR_TILES` tiles (one passage, ``corridor`` × ``wall`` at their
widest), and all doors' tiles and patrol points together at most
:data:`MAX_LISTED_TILES` (and no more than the map has tiles), so a small file
cannot make a huge list.

On a hexagonal map (a hex level's) a thing stands on the tile whose centre is nearest its point (a rectangle's
centre); a door lists that one tile, and an enemy's polyline points give its
patrol's tiles the same way. Which cells and passages they are is for the
hex reader (:mod:`mazeplugin.formats.tiled_read`) to say.

>>> door = {"type": "door", "x": 32, "y": 0, "width": 64, "height": 32, "properties": {"key": 1}}
>>> square = Sheet("orthogonal", 32, 32)
>>> things_from_objects([door], square, (5, 3), "m.tmx")[0].props["tiles"]
((1, 0), (2, 0))
>>> things_from_objects([dict(door, width=3200, height=3200)], square, (500, 200), "m.tmx")
Traceback (most recent call last):
...
mazeplugin.errors.LevelFormatError: m.tmx: things object 1 (door): its rectangle covers 10,000 tiles; a door blocks one passage, at most 4,096 tiles
"""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any, Dict, List, Sequence, Tuple

from ..formats.files import LevelFormatError
from ..formats.tiled_common import Sheet
from ..limits import MAX_CORRIDOR, MAX_WALL
from .things import Thing, check_props

__all__ = ["things_from_objects", "MAX_THINGS_OBJECTS", "MAX_DOOR_TILES", "MAX_LISTED_TILES"]

MAX_THINGS_OBJECTS = 1 << 20
"""Most objects a ``things`` layer may hold."""

MAX_DOOR_TILES = MAX_CORRIDOR * MAX_WALL
"""Most tiles one door's rectangle may cover (4,096: the widest passage through the thickest wall)."""

MAX_LISTED_TILES = 1 << 20
"""Most tiles all doors and patrols of a ``things`` layer may list together (1,048,576)."""


def things_from_objects(
    objects: Sequence[Dict[str, Any]], sheet: Sheet, size: Tuple[int, int], source: str,
) -> Tuple[Thing, ...]:
    """Things from plain object dicts: ``type``, ``x``, ``y``, ``width``, ``height``, ``properties`` (a dict)
    and, for polylines, ``polyline`` (a list of ``(x, y)`` offsets). ``sheet`` is the map's grid part
    (:class:`~mazeplugin.formats.tiled_common.Sheet`), ``size`` its ``(columns, rows)``."""
    if len(objects) > MAX_THINGS_OBJECTS:
        raise LevelFormatError(f"{source}: the things layer has more than {MAX_THINGS_OBJECTS:,} objects")
    columns, rows = size
    listed = min(MAX_LISTED_TILES, columns * rows)  # tiles the doors and patrols may still list
    given = [_given_id(obj) for obj in objects]
    next_id = max((i for i in given if isinstance(i, int) and not isinstance(i, bool)), default=0) + 1
    out: List[Thing] = []
    for n, obj in enumerate(objects, start=1):
        kind = str(obj.get("type") or "")
        where = f"{source}: things object {n} ({kind[:40] or 'no type'})"

        def cell(px: float, py: float) -> Tuple[int, int]:
            if not (math.isfinite(px) and math.isfinite(py)):
                raise LevelFormatError(f"{where}: position ({px}, {py}) is not a number")
            x, y = sheet.tile_at(px, py)
            if not (0 <= x < columns and 0 <= y < rows):
                raise LevelFormatError(f"{where}: pixel ({px:g}, {py:g}) is outside the map")
            return (x, y)

        props = dict(obj.get("properties") or {})
        thing_id = props.pop("thing_id", None)
        _decode(props, props.pop("json_props", None), where)
        if thing_id is None:  # added in Tiled without an id: the next free one
            thing_id, next_id = next_id, next_id + 1
        x, y, width, height = (float(obj.get(k, 0) or 0) for k in ("x", "y", "width", "height"))
        polyline = obj.get("polyline")
        if polyline:
            listed -= len(polyline)
            if listed < 0:
                raise LevelFormatError(f"{where}: the things' doors and patrols list more than "
                                       f"{min(MAX_LISTED_TILES, columns * rows):,} tiles")
            tx, ty = cell(x, y)
            props["patrol"] = [cell(x + px, y + py) for px, py in polyline]
        elif sheet.orientation == "hexagonal":  # one tile: the nearest centre to the object's
            tx, ty = cell(x + width / 2, y + height / 2)
            if kind == "door":
                props["tiles"] = [(tx, ty)]
        elif kind == "door" and width > 0 and height > 0:
            x0, y0 = cell(x, y)
            x1, y1 = cell(x + width - 0.5, y + height - 0.5)
            covered = (x1 - x0 + 1) * (y1 - y0 + 1)
            if covered > MAX_DOOR_TILES:
                raise LevelFormatError(f"{where}: its rectangle covers {covered:,} tiles; a door blocks one passage, "
                                       f"at most {MAX_DOOR_TILES:,} tiles")
            listed -= covered
            if listed < 0:
                raise LevelFormatError(f"{where}: the things' doors and patrols list more than "
                                       f"{min(MAX_LISTED_TILES, columns * rows):,} tiles")
            props["tiles"] = [(a, b) for b in range(y0, y1 + 1) for a in range(x0, x1 + 1)]
            tx, ty = x0 + (x1 - x0) // 2, y0 + (y1 - y0) // 2
        else:
            tx, ty = cell(x + min(width, sheet.width) / 2, y + min(height, sheet.height) / 2)
        try:
            check_props(kind, props)
            out.append(Thing(kind, tx, ty, thing_id, props))
        except (TypeError, ValueError) as error:
            raise LevelFormatError(f"{where}: {error}") from None
    ids = [t.id for t in out]
    if len(set(ids)) != len(ids):
        twice = min(i for i, count in Counter(ids).items() if count > 1)
        raise LevelFormatError(f"{source}: two things share a thing_id ({twice}); each thing's id must be its own")
    return tuple(sorted(out, key=lambda t: t.id))


def _decode(props: Dict[str, Any], names: Any, where: str) -> None:
    """Props the writer wrote as JSON text (named by the ``json_props`` property, a JSON list) parsed back."""
    if names is None:
        return
    try:
        listed = json.loads(names) if isinstance(names, str) else None
    except (ValueError, RecursionError):
        listed = None
    if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
        raise LevelFormatError(f"{where}: property 'json_props' must be a JSON list of prop names")
    for name in listed:
        text = props.get(name)
        try:
            props[name] = json.loads(text) if isinstance(text, str) else None
        except (ValueError, RecursionError):
            raise LevelFormatError(f"{where}: prop {name!r:.40} is listed in 'json_props' but is not JSON text") from None
        if not isinstance(text, str):
            raise LevelFormatError(f"{where}: prop {name!r:.40} is listed in 'json_props' but is not text")


def _given_id(obj: Dict[str, Any]) -> Any:
    props = obj.get("properties")
    return props.get("thing_id") if isinstance(props, dict) else None
