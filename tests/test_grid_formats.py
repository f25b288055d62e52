"""Every format a grid level is written in (issue 21): hex Tiled maps (TMX and TMJ) read back, hand-drawn
hexagonal maps load or name the tile at fault, and every format round-trips or draws what the passages say.

Hex: JSON, TMX and TMJ read back into the same level; SVG and PNG are pictures (written the same bytes each
time, drawing a wall on every closed side). Triangle, polar and wrapping square levels: JSON, SVG and PNG.
Hostile hex maps (truncated, bytes changed) give ``LevelFormatError`` and nothing else.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.formats import LevelFormatError, load_tiled
from mazeplugin.grids.hextiles import cell_tiles, passage_tiles
from mazeplugin.seeds import resolve_seed

GRID_GENERATORS = mp.algorithms(grid="hex")  # every generator over the neighbour interface

SEEDS = st.one_of(st.integers(0, 2**64), st.text("abcxyz019 -", max_size=8))
HEX_LEVELS = st.builds(
    lambda algorithm, w, h, seed, markers, braid: mp.generate(algorithm, w, h, grid="hex", seed=seed,
                                                              markers=markers, braid=braid),
    st.sampled_from(sorted(GRID_GENERATORS)), st.integers(1, 9), st.integers(1, 6), SEEDS,
    st.sampled_from(["border", "none"]), st.sampled_from([0.0, 0.5, 1.0]))
GRAPH_LEVELS = st.one_of(
    st.builds(lambda grid, algorithm, w, h, seed, markers: mp.generate(algorithm, w, h, grid=grid, seed=seed,
                                                                       markers=markers),
              st.sampled_from(["hex", "triangle", "polar"]), st.sampled_from(sorted(GRID_GENERATORS)),
              st.integers(2, 8), st.integers(1, 5), SEEDS, st.sampled_from(["border", "none"])),
    st.builds(lambda wrap, algorithm, w, h, seed: mp.generate(algorithm, w, h, wrap=wrap, seed=seed),
              st.sampled_from(["x", "y", "xy"]), st.sampled_from(sorted(GRID_GENERATORS)), st.integers(3, 8),
              st.integers(3, 6), SEEDS),
)


def same_level(again, level):
    """Everything a grid level is: grid, size, passages, markers and what made it."""
    assert (again.grid, again.width, again.height, again.algorithm) == (level.grid, level.width, level.height,
                                                                        level.algorithm)
    assert again.seed == resolve_seed(str(level.seed))  # a Tiled property is text: "7" reads as 7, as it made
    assert np.array_equal(again.maze.open, level.maze.open)
    assert (again.entrance_cell, again.exit_cell, again.openings) == (level.entrance_cell, level.exit_cell, level.openings)
    assert again.options == level.options
    assert np.array_equal(again.tiles, level.tiles)


# -- hex levels as Tiled maps: written, read back, read by other loaders ----------------------


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(level=HEX_LEVELS, kind=st.sampled_from(["tmx", "tmj"]), tile=st.integers(2, 48))
def test_hex_tiled_maps_read_back_as_the_same_level_and_are_written_the_same_each_time(level, kind, tile,
                                                                                        tmp_path_factory):
    folder = tmp_path_factory.mktemp("hex")
    first, second = folder / f"a.{kind}", folder / f"b.{kind}"
    level.save(first, tile=tile)
    level.save(second, tile=tile)
    assert first.read_bytes() == second.read_bytes()
    same_level(mp.load(first), level)
    same_level(load_tiled(first), level)


def test_hex_tmj_is_the_tmx_map_as_json_and_loads_in_pytiled_parser(tmp_path):
    pytiled_parser = pytest.importorskip("pytiled_parser")
    level = mp.generate("backtracker", 6, 4, grid="hex", seed=9)
    level.save(tmp_path / "hex.tmj", tile=24)
    level.save(tmp_path / "hex.tmx", tile=24)
    from_json, from_xml = (pytiled_parser.parse_map(tmp_path / name) for name in ("hex.tmj", "hex.tmx"))
    for tiled in (from_json, from_xml):
        assert (tiled.orientation, tiled.stagger_axis, tiled.stagger_index) == ("hexagonal", "y", "odd")
        assert tiled.hex_side_length == 12 and (tiled.tile_size.width, tiled.tile_size.height) == (21, 24)
        assert (tiled.map_size.height, tiled.map_size.width) == level.tiles.shape
        layer = next(layer for layer in tiled.layers if layer.name == "maze")
        assert np.array_equal(np.array(layer.data) - 1, level.tiles)  # gid 1 floor, 2 wall
        markers = next(layer for layer in tiled.layers if layer.name == "markers")
        assert sorted(obj.name for obj in markers.tiled_objects) == ["entrance", "exit"]
        assert tiled.properties["grid"] == "hex"
    assert from_json.properties == from_xml.properties
    tileset = next(iter(from_json.tilesets.values()))
    assert {tile_id: tile.properties["wall"] for tile_id, tile in tileset.tiles.items()} == {0: False, 1: True}


def test_hex_tmx_with_options_loads_in_pytmx(tmp_path):
    pytmx = pytest.importorskip("pytmx")
    level = mp.generate("wilson", 5, 4, grid="hex", seed=2, braid=0.5, markers="none")
    level.save(tmp_path / "hex.tmx", tile=20)
    tiled = pytmx.TiledMap(str(tmp_path / "hex.tmx"))
    assert tiled.orientation == "hexagonal" and json.loads(tiled.properties["options"]) == {
        "braid": 0.5, "markers": "none"}
    layer = tiled.get_layer_by_name("maze")
    walls = np.array([[bool(tiled.get_tile_properties_by_gid(gid)["wall"]) for gid in row] for row in layer.data])
    assert np.array_equal(walls, level.tiles == 1)


def test_the_entrance_and_exit_objects_sit_on_their_opening_tiles(tmp_path):
    level = mp.generate("kruskal", 4, 3, grid="hex", seed=5)
    level.save(tmp_path / "hex.tmj", tile=32)
    data = json.loads((tmp_path / "hex.tmj").read_text())
    objects = {o["name"]: (o["x"], o["y"]) for o in data["layers"][1]["objects"]}
    width, height, side = data["tilewidth"], data["tileheight"], data["hexsidelength"]
    for name, (col, row) in (("entrance", level.entrance_tile), ("exit", level.exit_tile)):
        shift = width / 2 if row % 2 else 0  # odd rows shifted right
        assert objects[name] == pytest.approx((col * width + shift + width / 2, row * (height + side) / 2 + height / 2))


# -- hexagonal maps drawn by hand -------------------------------------------------------------

HAND_TMX = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="hexagonal" renderorder="right-down" width="{cols}" height="{rows}" tilewidth="28"
     tileheight="32" infinite="0" hexsidelength="{side}" staggeraxis="{axis}" staggerindex="{index}">
 <tileset firstgid="10" name="meadow" tilewidth="28" tileheight="32" tilecount="3" columns="3">
  <tile id="0"><properties><property name="kind" value="grass"/></properties></tile>
  <tile id="1"><properties><property name="wall" type="bool" value="true"/></properties></tile>
  <tile id="2"><properties><property name="wall" type="bool" value="false"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="{cols}" height="{rows}"><data encoding="csv">{ground}</data></layer>
 <group id="2" name="decor">
  <layer id="3" name="rocks" width="{cols}" height="{rows}"><data encoding="csv">{rocks}</data></layer>
 </group>
 <objectgroup id="4" name="spots">{objects}</objectgroup>
</map>
"""


def hand_drawn(path, tiles, *, objects="", axis="y", index="odd", side=16):
    """A hexagonal map as a designer draws it: grass everywhere, rocks (``wall`` tiles, gid 11) where
    ``tiles`` is 1 on a layer inside a group, flowers (gid 12) here and there; no mazeplugin properties."""
    rows, cols = tiles.shape
    ground = np.where(np.arange(tiles.size).reshape(tiles.shape) % 7 == 0, 12, 10)
    rocks = np.where(tiles == 1, 11, 0)
    csv = lambda a: ",\n".join(",".join(map(str, row)) for row in a.tolist())  # noqa: E731
    path.write_text(HAND_TMX.format(cols=cols, rows=rows, ground=csv(ground), rocks=csv(rocks), objects=objects,
                                    axis=axis, index=index, side=side))
    return path


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_hand_drawn_hexagonal_map_loads_as_the_maze_its_tiles_show(seed, tmp_path):
    level = mp.generate("backtracker", 6, 5, grid="hex", seed=seed)
    tiles = level.tiles.copy()
    closed = np.flatnonzero(~level.maze.open)
    cols, rows = passage_tiles(level.maze.grid)
    tiles[rows[closed[0]], cols[closed[0]]] = 0  # the designer opens one more passage: a loop
    again = load_tiled(hand_drawn(tmp_path / "drawn.tmx", tiles))
    assert again.grid == "hex" and (again.width, again.height) == (6, 5)
    expected = level.maze.open.copy()
    expected[closed[0]] = True
    assert np.array_equal(again.maze.open, expected)
    assert again.stats().passages == again.stats().cells  # a spanning tree and one more passage
    assert (again.entrance_cell, again.exit_cell, again.algorithm, again.seed) == (0, 29, None, None)
    assert again.options == {"grid": "hex"} and np.array_equal(again.tiles, tiles)
    assert len(again.solution_cells()) <= len(level.solution_cells())


def test_a_hand_drawn_map_without_openings_has_no_markers_and_objects_on_the_openings_are_read(tmp_path):
    level = mp.generate("kruskal", 4, 3, grid="hex", seed=4, markers="none")
    again = mp.load(hand_drawn(tmp_path / "shut.tmx", level.tiles))
    assert (again.entrance_cell, again.exit_cell, again.openings) == (None, None, ())
    assert again.options == {"grid": "hex", "markers": "none"}
    opened = mp.generate("kruskal", 4, 3, grid="hex", seed=4)
    centre = {name: (col * 28 + 14 + 14 * (row % 2), row * 24 + 16)  # 28 x 32 tiles, side 16: rows 24 apart
              for name, (col, row) in (("entrance", opened.entrance_tile), ("exit", opened.exit_tile))}
    centre["entrance"] = (centre["entrance"][0] - 8, centre["entrance"][1] + 5)  # off centre: the nearest tile
    points = "".join(f'<object id="{i}" name="{name}" x="{x}" y="{y}"><point/></object>'
                     for i, (name, (x, y)) in enumerate(centre.items(), start=1))
    again = mp.load(hand_drawn(tmp_path / "open.tmx", opened.tiles, objects=points))
    assert (again.entrance_cell, again.exit_cell, again.openings) == (opened.entrance_cell, opened.exit_cell, opened.openings)


def break_tiles(change):
    level = mp.generate("backtracker", 5, 4, grid="hex", seed=6)
    tiles = level.tiles.copy()
    grid = level.maze.grid
    cols, rows = cell_tiles(grid)
    mid_cols, mid_rows = passage_tiles(grid)
    change(tiles, grid, (cols, rows), (mid_cols, mid_rows), level)
    return tiles


def _wall_a_cell_with_an_open_passage(tiles, grid, cells, mids, level):
    k = int(np.flatnonzero(level.maze.open)[0])
    b = int(grid.edges[k, 1])
    tiles[cells[1][b], cells[0][b]] = 1


def _wall_a_dead_end_cell_and_its_passage(tiles, grid, cells, mids, level):
    end = level.dead_ends()[-1]
    k = int(np.flatnonzero(level.maze.open & ((grid.edges[:, 0] == end) | (grid.edges[:, 1] == end)))[0])
    tiles[cells[1][end], cells[0][end]] = 1
    tiles[mids[1][k], mids[0][k]] = 1


@pytest.mark.parametrize("change,words", [
    (_wall_a_cell_with_an_open_passage, [r"tile \(\d+, \d+\) is floor, the passage between cells \(\d+, \d+\) and",
                                         r"'s tile \(\d+, \d+\) is wall"]),
    (_wall_a_dead_end_cell_and_its_passage, [r"tile \(\d+, \d+\) is cell \(\d+, \d+\) and is wall"]),
    (lambda t, *_: t.__setitem__((0, 3), 0), [r"tile \(3, 0\) is floor but is neither a cell", "margin"]),
    (lambda t, g, c, m, level: t.__setitem__(level.exit_tile[::-1], 1),
     [r"tile \(11, 7\), the exit's opening east of the last cell, is wall", "both openings or neither"]),
])
def test_tiles_that_are_not_a_doubled_hex_lattice_are_refused_naming_the_tile(change, words, tmp_path):
    path = hand_drawn(tmp_path / "bad.tmx", break_tiles(change))
    with pytest.raises(LevelFormatError) as caught:
        load_tiled(path)
    assert str(caught.value).startswith(str(path))
    for pattern in words:
        assert re.search(pattern, str(caught.value)), (pattern, str(caught.value))


@pytest.mark.parametrize("edit,words", [
    (dict(tiles=np.ones((4, 12), np.uint8)), ["12 × 4 tiles", "an odd number of rows"]),
    (dict(tiles=np.ones((5, 11), np.uint8)), ["11 × 5 tiles", "an even number of columns"]),
    (dict(index="even"), ["staggerindex 'even'", "staggerindex 'odd'"]),
    (dict(axis="x"), ["staggeraxis 'x'"]),
    (dict(objects='<object id="1" name="entrance" x="100" y="100"><point/></object>'),
     [r"the entrance object is on tile \(3, 4\)", r"opening west of the first cell, tile \(0, 1\)"]),
    (dict(objects='<object id="1" name="exit" x="1e300" y="5"/>'), ["exit object at pixel", "outside the map"]),
])
def test_hexagonal_maps_that_are_no_hex_level_are_refused_saying_why(edit, words, tmp_path):
    tiles = edit.pop("tiles", mp.generate("kruskal", 5, 4, grid="hex", seed=1).tiles)
    path = hand_drawn(tmp_path / "bad.tmx", tiles, **edit)
    with pytest.raises(LevelFormatError) as caught:
        mp.load(path)
    for word in words:
        assert re.search(word, str(caught.value)), (word, str(caught.value))


def test_a_hex_map_of_more_cells_than_a_hex_level_may_have_is_refused(tmp_path, monkeypatch):
    import mazeplugin.formats.tiled_read as reader

    mp.generate("kruskal", 5, 4, grid="hex", seed=1).save(tmp_path / "hex.tmx")
    monkeypatch.setattr(reader, "MAX_GRID_CELLS", 19)  # the check, on a small map: 20 cells is one too many
    with pytest.raises(LevelFormatError, match="hex.tmx: a hex level of 5 × 4 cells is larger than 19 cells"):
        load_tiled(tmp_path / "hex.tmx")
    monkeypatch.setattr(reader, "MAX_GRID_CELLS", 20)
    assert load_tiled(tmp_path / "hex.tmx").maze.grid.cells == 20


@pytest.mark.parametrize("orientation", ["isometric", "staggered"])
@pytest.mark.parametrize("kind", ["tmx", "tmj"])
def test_other_orientations_keep_a_clear_refusal(orientation, kind, tmp_path):
    level = mp.generate("kruskal", 4, 3, grid="hex", seed=1)
    level.save(tmp_path / f"m.{kind}")
    text = (tmp_path / f"m.{kind}").read_text().replace('"hexagonal"', f'"{orientation}"')
    (tmp_path / f"m.{kind}").write_text(text)
    for load in (load_tiled, mp.load):
        with pytest.raises(LevelFormatError, match=f"the map is '{orientation}'; a maze level is an orthogonal map"):
            load(tmp_path / f"m.{kind}")


def test_each_loader_names_the_other_for_the_other_kind_of_map(tmp_path):
    mp.generate("kruskal", 4, 3, grid="hex", seed=1).save(tmp_path / "hex.tmx")
    mp.generate("kruskal", 4, 3, seed=1).save(tmp_path / "square.tmj")
    with pytest.raises(LevelFormatError, match="hex.tmx: the map is hexagonal, a hex level: load it with mp.load"):
        with pytest.deprecated_call():
            mp.Level.load_tmx(tmp_path / "hex.tmx")
    assert mp.load(tmp_path / "hex.tmx").grid == "hex" and mp.load(tmp_path / "square.tmj").grid == "square"
    with pytest.raises(LevelFormatError, match="the map is hexagonal"):
        mp.Prefab.from_tiled(tmp_path / "hex.tmx")
    with pytest.raises(LevelFormatError, match="square.tmj: the map is orthogonal, a square level: load it with mp.load"):
        with pytest.deprecated_call():
            mp.GridLevel.load_tmj(tmp_path / "square.tmj")
    assert isinstance(load_tiled(tmp_path / "square.tmj"), mp.Level)
    with pytest.raises(ValueError, match="corridor= is for square levels"):
        load_tiled(tmp_path / "hex.tmx", corridor=2)
    assert load_tiled(tmp_path / "hex.tmx", corridor=1, wall=1).grid == "hex"


@pytest.mark.parametrize("change,words", [
    (lambda m: m["layers"].append({"id": 3, "name": "things", "type": "objectgroup", "objects": [
        {"id": 9, "name": "key 1", "type": "key", "x": 14, "y": 16, "point": True}]}),
     ["things: key 1 is on tile (0, 0), which is not a cell's tile"]),
    (lambda m: m["properties"].append({"name": "grid", "type": "string", "value": "triangle"}),
     ["map property 'grid' is 'triangle'"]),
    (lambda m: m["properties"].append({"name": "options", "type": "string", "value": "[1]"}),
     ["map property 'options' must be a JSON object"]),
    (lambda m: m["properties"].append({"name": "options", "type": "string", "value": '{"wrap": "x"}'}),
     ["a hex level does not wrap"]),
    (lambda m: m["properties"].append({"name": "generator", "type": "int", "value": 3}),
     ["map property 'generator' must be text"]),
    (lambda m: m.update(hexsidelength=-4), ["hexsidelength must be a non-negative int"]),
])
def test_bad_fields_of_a_hex_tmj_are_named(change, words, tmp_path):
    mp.generate("kruskal", 4, 3, grid="hex", seed=1).save(tmp_path / "hex.tmj")
    data = json.loads((tmp_path / "hex.tmj").read_text())
    data["properties"] = [p for p in data["properties"] if p["name"] not in ("grid", "generator")]
    change(data)
    (tmp_path / "hex.tmj").write_text(json.dumps(data))
    with pytest.raises(LevelFormatError) as caught:
        mp.load(tmp_path / "hex.tmj")
    for word in words:
        assert word in str(caught.value), str(caught.value)


def test_wrapping_square_levels_are_not_tiled_maps_and_say_so(tmp_path):
    level = mp.generate("kruskal", 5, 4, wrap="x", seed=1)
    for kind in ("tmx", "tmj"):
        with pytest.raises(ValueError, match=rf"a wrapping square level \(wrap='x'\) cannot be saved as \.{kind} "
                                             r"\(a Tiled map holds square and hex levels\)"):
            level.save(tmp_path / f"never.{kind}")
        with pytest.raises(ValueError, match=r"cannot be saved as \.tm"), pytest.deprecated_call():
            getattr(level, f"save_{kind}")(tmp_path / f"never.{kind}")  # the deprecated alias says the same
    assert list(tmp_path.iterdir()) == []


# -- hostile hex maps ---------------------------------------------------------------------------


def _written(kind):
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp())
    mp.generate("wilson", 5, 3, grid="hex", seed=2, braid=0.3).save(folder / f"m.{kind}", tile=8)
    return (folder / f"m.{kind}").read_bytes()


WRITTEN = {kind: _written(kind) for kind in ("tmx", "tmj")}
JUNK = [b"-1", b"1e400", b"99999", b"null", b"true", b'"x"', b"[]", b"{}", b"hexagonal", b"even", b"x", b"0",
        b"\xff\xfe", b"&#0;", b"&amp;", b"UTF-0"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["tmx", "tmj"]), data=st.data())
def test_truncated_or_changed_hex_maps_load_or_raise_level_format_error_only(kind, data, tmp_path_factory):
    damaged = bytearray(WRITTEN[kind])
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(damaged) - 1))
        how = data.draw(st.sampled_from(["byte", "cut", "drop", "put"]))
        if how == "byte":
            damaged[at] = data.draw(st.sampled_from(b'0123456789<>"{}[],:-.ab \n\x00\xff'))
        elif how == "put":  # a field's value replaced by another kind of value
            damaged[at:at + data.draw(st.integers(0, 6))] = data.draw(st.sampled_from(JUNK))
        elif how == "drop":
            del damaged[at:at + data.draw(st.integers(1, 40))]
        else:
            del damaged[at:]
        if not damaged:
            break
    path = tmp_path_factory.mktemp("bad") / f"m.{kind}"
    path.write_bytes(bytes(damaged))
    try:
        level = load_tiled(path)
    except LevelFormatError as error:
        assert str(error).startswith(str(path))
        return
    if level.grid == "hex":  # a change that still leaves a hex maze: it loads, and saves and loads again the same
        again = path.with_name(f"again.{kind}")
        level.save(again)
        assert np.array_equal(load_tiled(again).maze.open, level.maze.open)


@pytest.mark.parametrize("grid", ["hex", "square"])
def test_an_xml_declaration_naming_an_unknown_encoding_is_a_level_format_error(grid, tmp_path):
    level = mp.generate("kruskal", 4, 3, seed=1, **({"grid": "hex"} if grid == "hex" else {}))
    level.save(tmp_path / "m.tmx")
    text = (tmp_path / "m.tmx").read_text()
    (tmp_path / "m.tmx").write_text(text.replace('encoding="UTF-8"', 'encoding="UTF-0"', 1))
    with pytest.raises(LevelFormatError, match="m.tmx: not valid XML: unknown encoding: UTF-0"):
        load_tiled(tmp_path / "m.tmx")


# -- every format of every grid -----------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(level=GRAPH_LEVELS)
def test_svg_draws_one_wall_per_closed_side_and_is_the_same_text_each_time(level):
    picture = level.to_svg(cell=12, show_solution=True)
    assert picture == level.to_svg(cell=12, show_solution=True)
    root = ET.fromstring(picture)
    walls = root.find("{http://www.w3.org/2000/svg}path[@class='walls']").get("d")
    grid = level.maze.grid
    rim = sum(other < 0 for cell in range(grid.cells) for other, _ in grid.sides(cell))
    opened = sum(side is not None for _, side in level.openings)
    assert walls.count("M") == int((~level.maze.open).sum()) + rim - opened
    discs = {c.get("class") for c in root.iter("{http://www.w3.org/2000/svg}circle")}
    assert discs == ({"entrance", "exit"} if level.entrance_cell is not None else set())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(level=GRAPH_LEVELS)
def test_json_reads_back_every_grid_level_and_is_the_same_text_each_time(level, tmp_path_factory):
    text = level.to_json()
    assert text == level.to_json()
    path = tmp_path_factory.mktemp("json") / "level.json"
    level.save(path)
    again = mp.load(path)
    assert (again.grid, again.width, again.height, again.seed, again.options) == (
        level.grid, level.width, level.height, level.seed, level.options)
    assert np.array_equal(again.maze.open, level.maze.open)
    assert (again.entrance_cell, again.exit_cell, again.openings) == (level.entrance_cell, level.exit_cell, level.openings)
    assert again.to_json() == text


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(level=GRAPH_LEVELS)
def test_png_is_written_the_same_each_time_and_pygame_loads_it(level, tmp_path_factory):
    pygame = pytest.importorskip("pygame")
    import mazeplugin.pg as mpg

    folder = tmp_path_factory.mktemp("png")
    level.save(folder / "a.png", cell=10, show_solution=level.entrance_cell is not None)
    level.save(folder / "b.png", cell=10, show_solution=level.entrance_cell is not None)
    assert (folder / "a.png").read_bytes() == (folder / "b.png").read_bytes()
    picture = pygame.image.load(str(folder / "a.png"))
    assert picture.get_size() == mpg.render(level, cell=10).get_size()
    colours = {tuple(picture.get_at((x, y)))[:3] for x in range(picture.get_width())
               for y in range(picture.get_height())}
    assert mpg.DEFAULT_PALETTE.wall in colours and mpg.DEFAULT_PALETTE.floor in colours


@pytest.mark.parametrize("kind", ["tmx", "tmj"])
def test_the_command_line_writes_hex_maps_that_load_as_the_librarys_level(kind, capsys, tmp_path):
    from test_cli import run  # the command line run in this process: (status, stdout, stderr)

    path = tmp_path / f"hex.{kind}"
    status, _, _ = run(capsys, "generate", "wilson", "--grid", "hex", "--size", "5x4", "--seed", "7", "-o", str(path))
    assert status == 0
    same_level(load_tiled(path), mp.generate("wilson", 5, 4, grid="hex", seed=7))
