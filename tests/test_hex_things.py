"""Hex levels' content in Tiled hexagonal maps (issue 21): keys, doors, treasure and enemies written as a
``things`` object layer at their tiles' centres, read back as the same ``CellThing`` s and proved; things
moved where a hex level cannot have them are refused naming the thing. pytmx and pytiled-parser read the maps.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.formats import LevelFormatError, load_tiled
from mazeplugin.formats.tiled import sheet
from mazeplugin.grids.hextiles import cell_tiles, passage_tiles


def furnished(seed, keys, treasure, enemies, braid=0.0, algorithm="backtracker", size=(10, 8)):
    """A hex level with content, or None when that much does not fit."""
    try:
        return mp.generate(algorithm, *size, grid="hex", seed=seed, keys=keys, treasure=treasure,
                           enemies=enemies, braid=braid)
    except ValueError:
        return None


def same_level(again, level):
    assert again.grid == "hex" and (again.width, again.height) == (level.width, level.height)
    assert (again.maze.open == level.maze.open).all()
    assert (again.entrance_cell, again.exit_cell, again.openings) == (level.entrance_cell, level.exit_cell, level.openings)
    assert (again.algorithm, again.seed, again.options) == (level.algorithm, level.seed, level.options)
    assert again.things == level.things
    assert [t.props for t in again.things] == [t.props for t in level.things]  # props are not in ==
    again.check()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), keys=st.integers(0, 3), treasure=st.integers(0, 4), enemies=st.integers(0, 2),
       braid=st.sampled_from([0.0, 0.3]), algorithm=st.sampled_from(["backtracker", "wilson", "kruskal"]),
       kind=st.sampled_from(["tmx", "tmj"]), tile=st.integers(2, 48))
def test_hex_maps_carry_every_thing_and_read_back_the_same_level(seed, keys, treasure, enemies, braid, algorithm,
                                                                 kind, tile, tmp_path_factory):
    level = furnished(seed, keys, treasure, enemies, braid, algorithm)
    assume(level is not None and level.things)
    path = tmp_path_factory.mktemp("hex") / f"level.{kind}"
    level.save(path, tile=tile)
    same_level(mp.load(path), level)
    same_level(load_tiled(path), level)


def test_things_stand_at_their_tiles_centres(tmp_path):
    level = furnished(4, 2, 2, 1)
    level.save(tmp_path / "hex.tmx", tile=32)
    root = ET.parse(tmp_path / "hex.tmx").getroot()
    group = next(g for g in root.iter("objectgroup") if g.get("name") == "things")
    objects = {int(next(p.get("value") for p in o.iter("property") if p.get("name") == "thing_id")): o
               for o in group.findall("object")}
    assert sorted(objects) == [t.id for t in level.things]
    cols, rows = cell_tiles(level.maze.grid)
    mid_cols, mid_rows = passage_tiles(level.maze.grid)
    for thing in level.things:
        obj = objects[thing.id]
        where = (float(obj.get("x")), float(obj.get("y")))
        assert obj.get("type") == thing.kind
        if thing.kind == "door":
            edge = thing.props["edge"]
            assert where == sheet("hex", 32).centre(int(mid_cols[edge]), int(mid_rows[edge]))
        else:
            assert where == sheet("hex", 32).centre(int(cols[thing.cell]), int(rows[thing.cell]))
        if thing.kind == "enemy":
            points = [tuple(map(float, p.split(","))) for p in obj.find("polyline").get("points").split()]
            assert [(where[0] + x, where[1] + y) for x, y in points] == [
                sheet("hex", 32).centre(int(cols[c]), int(rows[c])) for c in thing.props["patrol"]]


def test_a_hex_tmx_with_things_loads_in_pytmx(tmp_path):
    pytmx = pytest.importorskip("pytmx")
    level = furnished(4, 2, 2, 1)
    level.save(tmp_path / "hex.tmx", tile=20)
    tiled = pytmx.TiledMap(str(tmp_path / "hex.tmx"))
    things = tiled.get_layer_by_name("things")
    read = sorted((obj.properties["thing_id"], obj.type) for obj in things)
    assert read == [(t.id, t.kind) for t in level.things]
    locks = {obj.properties["thing_id"]: obj.properties.get("lock") for obj in things}
    assert locks == {t.id: t.props.get("lock") for t in level.things}


def test_a_hex_tmj_and_tmx_with_things_load_in_pytiled_parser(tmp_path):
    pytiled_parser = pytest.importorskip("pytiled_parser")
    level = furnished(4, 2, 2, 1)
    level.save(tmp_path / "hex.tmj", tile=24)
    level.save(tmp_path / "hex.tmx", tile=24)
    for name in ("hex.tmj", "hex.tmx"):
        tiled = pytiled_parser.parse_map(tmp_path / name)
        layer = next(layer for layer in tiled.layers if layer.name == "things")
        kinds = sorted((int(obj.properties["thing_id"]), obj.class_) for obj in layer.tiled_objects)
        assert kinds == [(t.id, t.kind) for t in level.things], name
        enemy = next(obj for obj in layer.tiled_objects if obj.class_ == "enemy")
        assert len(enemy.points) == len(next(t for t in level.things if t.kind == "enemy").props["patrol"])


def _objects(data):
    return next(layer for layer in data["layers"] if layer["name"] == "things")["objects"]


def _edited(level, tmp_path, edit):
    level.save(tmp_path / "hex.tmj")
    data = json.loads((tmp_path / "hex.tmj").read_text())
    edit(data, level)
    (tmp_path / "hex.tmj").write_text(json.dumps(data))
    return tmp_path / "hex.tmj"


def _move(kind, to):
    """An edit moving the first thing of ``kind`` to the centre of the tile ``to(level, thing)`` gives."""
    def edit(data, level):
        thing = next(t for t in level.things if t.kind == kind)
        obj = next(o for o in _objects(data) if o["type"] == kind)
        obj["x"], obj["y"] = sheet("hex", 32).centre(*to(level, thing))
    return edit


def _cell(level, cell):
    cols, rows = cell_tiles(level.maze.grid)
    return int(cols[cell]), int(rows[cell])


@pytest.mark.parametrize("edit,words", [
    (_move("key", lambda level, t: (0, 0)), ["hex.tmj: things: key 1 is on tile (0, 0), which is not a cell's tile"]),
    (_move("door", lambda level, t: _cell(level, t.cell)), ["things: door 2", "not between two cells"]),
    (_move("key", lambda level, t: _cell(level, level.exit_cell)), ["things: key 1 stands on the entrance or exit"]),
    (_move("key", lambda level, t: _cell(level, next(d for d in level.things if d.kind == "door").props["cells"][1])),
     ["things:", "key"]),
    (lambda data, level: next(o for o in _objects(data) if o["type"] == "enemy")["polyline"].append({"x": 9999, "y": 0}),
     ["things object", "enemy", "outside the map"]),
    (lambda data, level: next(o for o in _objects(data) if o["type"] == "enemy")["polyline"].append({"x": 14, "y": 24}),
     ["things: enemy", "not on a cell's tile"]),
    (lambda data, level: _objects(data).remove(next(o for o in _objects(data) if o["type"] == "key")),
     ["things: door 2", "no key"]),
])
def test_things_a_hex_level_cannot_have_are_refused_naming_the_thing(edit, words, tmp_path):
    level = furnished(4, 1, 1, 1)
    assert [t.kind for t in level.things][:2] == ["key", "door"]
    with pytest.raises(LevelFormatError) as caught:
        mp.load(_edited(level, tmp_path, edit))
    for word in words:
        assert word in str(caught.value), str(caught.value)


def test_a_thing_moved_to_another_free_cell_loads_there(tmp_path):
    level = furnished(4, 0, 1, 0)
    treasure = level.things[0]
    free = next(c for c in range(level.maze.grid.cells)
                if c not in (level.entrance_cell, level.exit_cell, treasure.cell))
    path = _edited(level, tmp_path, _move("treasure", lambda lv, t: _cell(lv, free)))
    again = mp.load(path)
    assert [(t.kind, t.cell, t.id) for t in again.things] == [("treasure", free, treasure.id)]


def test_a_door_read_back_names_its_cells_in_the_order_the_player_meets_them(tmp_path):
    level = furnished(4, 2, 0, 0)
    level.save(tmp_path / "hex.tmx")
    for door in (t for t in mp.load(tmp_path / "hex.tmx").things if t.kind == "door"):
        before, after = door.props["cells"]
        assert door.cell == before
        way = level.solution_cells()
        assert way.index(before) < way.index(after)


@pytest.mark.parametrize("kind", ["tmx", "tmj"])
def test_the_command_line_writes_a_hex_levels_content_into_its_map(kind, capsys, tmp_path):
    from test_cli import run  # the command line run in this process: (status, stdout, stderr)

    path = tmp_path / f"hex.{kind}"
    status, _, err = run(capsys, "generate", "backtracker", "--grid", "hex", "--size", "10x8", "--seed", "4",
                         "--keys", "2", "--treasure", "2", "--enemies", "1", "-o", str(path))
    assert status == 0, err
    level = mp.generate("backtracker", 10, 8, grid="hex", seed=4, keys=2, treasure=2, enemies=1)
    same_level(load_tiled(path), level)
    assert sorted(t.kind for t in load_tiled(path).things) == ["door", "door", "enemy", "key", "key",
                                                               "treasure", "treasure"]


def test_the_command_line_refuses_an_npy_that_would_drop_content(capsys, tmp_path):
    from test_cli import run

    path = tmp_path / "level.npy"
    status, _, err = run(capsys, "generate", "backtracker", "--size", "12x9", "--seed", "3", "--keys", "2",
                         "-o", str(path))
    assert status == 2 and "cannot write an .npy tilemap of a level with things" in err
    assert not path.exists()
