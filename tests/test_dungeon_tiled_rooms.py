"""A dungeon's rooms in Tiled (formats.tiled.room_objects): a shaped room (``shapes=``: L, T, plus, U) is a polygon
enclosing exactly its cells and the walls about them, read here by pytmx and checked tile by tile against the
room's floor; rectangles stay rectangles, and a map with polygons loads back."""

from __future__ import annotations

import json

import numpy as np
import pytest

import mazeplugin as mp

TILE = 8


def inside(points, px: float, py: float) -> bool:
    """Whether (px, py) lies inside the polygon ``points`` (ray casting; never on an edge here)."""
    hit = False
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]):
        if (y1 > py) != (y2 > py) and px < x1 + (py - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def room_tiles(level: mp.Level, room: dict) -> set:
    """The room's floor tiles inside its outline and every tile beside one (diagonals too) within its box:
    its cells with the walls about them, found from the floor alone."""
    x, y, w, h = room["x"], room["y"], room["width"], room["height"]
    floor = level.tiles[y + 1 : y + h - 1, x + 1 : x + w - 1] == mp.FLOOR
    out = set()
    for fy, fx in zip(*np.nonzero(floor)):
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                out.add((x + 1 + int(fx) + dx, y + 1 + int(fy) + dy))
    return out


@pytest.mark.parametrize("seed, options", [(5, {"shapes": "mixed"}),
                                           (7, {"shapes": ("L", "T", "plus", "U"), "interior": "backtracker"})])
def test_a_shaped_room_is_a_polygon_round_exactly_its_tiles(tmp_path, seed, options):
    pytmx = pytest.importorskip("pytmx")
    level = mp.generate("dungeon", 48, 48, seed=seed, rooms=10, locks=1, **options)
    level.save(tmp_path / "d.tmx", tile=TILE)
    level.save(tmp_path / "d.tmj", tile=TILE)
    tiled = pytmx.TiledMap(str(tmp_path / "d.tmx"))
    objects = {obj.name: obj for obj in tiled.get_layer_by_name("rooms")}
    layer = next(item for item in json.loads((tmp_path / "d.tmj").read_text())["layers"] if item["name"] == "rooms")
    tmj = {item["name"]: item for item in layer["objects"]}
    records = level.options["layout"]["rooms"]
    assert set(objects) == set(tmj) == {room["id"] for room in records}
    polygons = 0
    for room in records:
        obj, item = objects[room["id"]], tmj[room["id"]]
        assert obj.type == item["type"] == room["kind"]
        assert (obj.x, obj.y) == (item["x"], item["y"]) == (room["x"] * TILE, room["y"] * TILE)
        if room["shape"] == "rect":
            assert not hasattr(obj, "points") and "polygon" not in item
            assert (obj.width, obj.height) == (room["width"] * TILE, room["height"] * TILE)
            continue
        polygons += 1
        points = [(p.x, p.y) for p in obj.points]  # pytmx: in the map's pixels
        assert points == [(obj.x + p["x"], obj.y + p["y"]) for p in item["polygon"]]
        expected = room_tiles(level, room)
        assert len(expected) < room["width"] * room["height"]  # a polygon, not its box
        for ty in range(room["y"] - 1, room["y"] + room["height"] + 1):
            for tx in range(room["x"] - 1, room["x"] + room["width"] + 1):
                assert inside(points, (tx + 0.5) * TILE, (ty + 0.5) * TILE) == ((tx, ty) in expected), (room, tx, ty)
    assert polygons >= 3
    for suffix in ("tmx", "tmj"):  # the polygons do not stop the map loading
        back = mp.load(tmp_path / f"d.{suffix}")
        assert back.tiles.tobytes() == level.tiles.tobytes() and back.things == level.things


def test_a_dungeon_without_shapes_has_only_rectangles(tmp_path):
    level = mp.generate("dungeon", 40, 40, seed=3, rooms=12, locks=2, pattern="lock-and-key", interior="wilson")
    level.save(tmp_path / "d.tmx")
    level.save(tmp_path / "d.tmj")
    assert "polygon" not in (tmp_path / "d.tmx").read_text() and "polygon" not in (tmp_path / "d.tmj").read_text()
    assert (tmp_path / "d.tmx").read_text().count('name="rooms"') == 1
