"""Levels out to SVG, PNG, Tiled, JSON and npy, and back in: round-trips and refusals."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.formats import LevelFormatError, atomic_path
from mazeplugin.formats import jsonio

from processes import child_env

ALGORITHMS = mp.algorithms()
MARKERS = st.sampled_from(["border", "farthest", "random", "none"])


@st.composite
def levels(draw, max_cells: int = 9, widths: bool = True) -> mp.Level:
    """A generated level: any algorithm, size, seed, marker mode, and (optionally) corridor/wall widths."""
    algorithm = draw(st.sampled_from(ALGORITHMS))
    width = draw(st.integers(1, max_cells))
    height = draw(st.integers(1, max_cells))
    markers = draw(MARKERS)
    if markers == "random" and width * height < 2:
        markers = "border"
    corridor = draw(st.integers(1, 3)) if widths else 1
    wall = draw(st.integers(1, 2)) if widths else 1
    seed = draw(st.one_of(st.integers(0, 2**40), st.text("abcxyz", min_size=1, max_size=6)))
    return mp.generate(algorithm, width, height, seed=seed, markers=markers, corridor=corridor, wall=wall)


def assert_same_level(loaded: mp.Level, level: mp.Level) -> None:
    """Tiles, markers and the rebuilt maze model all equal the original's."""
    assert loaded.tiles.dtype == np.uint8
    assert np.array_equal(loaded.tiles, level.tiles)
    assert (loaded.entrance, loaded.exit) == (level.entrance, level.exit)
    assert (loaded.width, loaded.height) == (level.width, level.height)
    assert (loaded.layout.corridor, loaded.layout.wall) == (level.layout.corridor, level.layout.wall)
    assert np.array_equal(loaded.maze.mask, level.maze.mask)
    assert np.array_equal(loaded.maze.east, level.maze.east)
    assert np.array_equal(loaded.maze.south, level.maze.south)
    assert np.array_equal(loaded.maze.corners, level.maze.corners)
    assert str(loaded) == str(level)
    if level.entrance is not None:
        assert loaded.solution() == level.solution()
        assert np.array_equal(loaded.distances(level.entrance), level.distances(level.entrance))


# -- JSON -------------------------------------------------------------------------


@given(levels())
def test_json_round_trips_tiles_markers_maze_and_provenance(level):
    loaded = mp.from_json(level.to_json())
    assert_same_level(loaded, level)
    assert (loaded.algorithm, loaded.seed) == (level.algorithm, level.seed)
    assert loaded.options == json.loads(json.dumps(level.options))


def test_json_holds_the_documented_fields():
    level = mp.generate("kruskal", 4, 3, seed=7, markers="farthest")
    data = json.loads(level.to_json())
    assert data["format"] == "mazeplugin.level" and data["version"] == 1
    assert (data["generator"], data["width"], data["height"], data["seed"]) == ("kruskal", 4, 3, 7)
    assert data["options"] == {"markers": "farthest"}
    assert data["entrance"] == list(level.entrance) and data["exit"] == list(level.exit)
    assert [[int(c) for c in row] for row in data["tiles"]] == level.tiles.tolist()


def test_json_loads_levels_with_masks_and_braids():
    mask = ["#####.", "######", ".#####"]
    level = mp.generate("backtracker", 6, 3, seed=2, mask=mask, braid=0.5)
    loaded = mp.from_json(level.to_json())
    assert_same_level(loaded, level)
    # The mask is recorded as text rows, which generate() takes back.
    assert loaded.options["mask"] == ["#####.", "######", ".#####"]
    again = mp.generate("backtracker", 6, 3, seed=2, mask=loaded.options["mask"], braid=0.5)
    assert np.array_equal(again.tiles, level.tiles)


def test_json_refuses_options_it_cannot_hold():
    level = mp.Level(mp.generate("kruskal", 2, 2, seed=1).maze, options={"colour": object()})
    with pytest.raises(TypeError, match="option 'colour'"):
        level.to_json()


def _good() -> dict:
    return json.loads(mp.generate("kruskal", 3, 2, seed=1).to_json())


def _edit(change) -> str:
    data = _good()
    change(data)
    return json.dumps(data)


BAD_JSON = [
    ("not json at all", "not valid JSON"),
    ('{"format": "mazeplugin.level", "version": 1, "tiles": ["111', "truncated"),
    ("[1, 2, 3]", "not a mazeplugin level"),
    (_edit(lambda d: d.update(format="something.else")), "not a mazeplugin level"),
    (_edit(lambda d: d.update(version=4)), "format version 4 is newer"),
    (_edit(lambda d: d.update(version="1")), "version"),
    (_edit(lambda d: d.update(extra=1)), "unknown field 'extra'"),
    (_edit(lambda d: d.pop("seed")), "missing field 'seed'"),
    (_edit(lambda d: d.update(width=2.5)), "'width' must be an int"),
    (_edit(lambda d: d.update(width=0)), "width must be at least 1"),
    (_edit(lambda d: d.update(width=100_000, height=100_000)), "too large"),
    (_edit(lambda d: d.update(corridor=200_000)), "corridor must be an int from 1 to 64"),
    (_edit(lambda d: d.update(width=1000, height=1000, corridor=64)), "at most 268,435,456 tiles"),
    (_edit(lambda d: d.update(width=4)), "tiles row 0 must be a string of 9 characters"),
    (_edit(lambda d: d.update(height=3)), "list of 7 row strings for 3 × 3 cells"),
    (_edit(lambda d: d["tiles"].pop()), "list of 5 row strings"),
    (_edit(lambda d: d["tiles"].__setitem__(2, "10111")), "tiles row 2 must be a string of 7"),
    (_edit(lambda d: d["tiles"].__setitem__(2, 1011101)), "tiles row 2 must be a string of 7"),
    (_edit(lambda d: d["tiles"].__setitem__(2, "1011121")), r"tile \(5, 2\) is '2'"),
    (_edit(lambda d: d["tiles"].__setitem__(2, "10111é1")), r"tile \(5, 2\) is 'é'"),
    (_edit(lambda d: d["tiles"].__setitem__(2, "1001101")), r"tile \(2, 2\) is floor.*corner is floor only inside an open area"),
    (_edit(lambda d: d["tiles"].__setitem__(0, "0111111")), r"tile \(0, 0\) is floor"),
    (_edit(lambda d: d.update(entrance=[2, 2])), r"entrance \(2, 2\) is on a wall"),
    (_edit(lambda d: d.update(exit=[70, 1])), r"exit \(70, 1\) is outside the map"),
    (_edit(lambda d: d.update(exit=[1])), "'exit' must be"),
    (_edit(lambda d: d.update(exit=[True, 1])), "'exit' must be"),
    (_edit(lambda d: d.update(seed=-4)), "seed"),
    (_edit(lambda d: d.update(generator=7)), "generator"),
    (_edit(lambda d: d.update(options=[1])), "options"),
]


@pytest.mark.parametrize("text,message", BAD_JSON)
def test_json_loader_rejects_bad_text_with_a_clear_error(text, message):
    with pytest.raises(LevelFormatError, match=message) as info:
        mp.from_json(text)
    assert str(info.value).startswith("<json text>: ")
    assert isinstance(info.value, ValueError)


def test_json_loader_rejects_a_passage_into_a_wall_filled_cell():
    # A 2x1 maze whose second cell is wall-filled, with the wall between them opened.
    text = _edit(lambda d: d.update(width=2, height=1, entrance=None, exit=None,
                                     tiles=["11111", "10011", "11111"]))
    with pytest.raises(LevelFormatError, match="wall-filled cell"):
        mp.from_json(text)


def test_json_loader_rejects_an_opening_into_a_wall_filled_cell():
    text = _edit(lambda d: d.update(width=2, height=1, entrance=None, exit=None,
                                     tiles=["11111", "10110", "11111"]))
    with pytest.raises(LevelFormatError, match=r"cell \(1, 0\), which is wall-filled"):
        mp.from_json(text)


def test_json_loader_refuses_oversized_text_before_parsing(monkeypatch):
    monkeypatch.setattr(jsonio, "MAX_JSON_CHARS", 100)
    with pytest.raises(LevelFormatError, match="too large"):
        jsonio.from_json(" " * 101)


def test_truncated_json_file_is_reported_with_its_name(tmp_path):
    path = tmp_path / "level.json"
    text = mp.generate("kruskal", 5, 5, seed=1).to_json()
    path.write_text(text[: len(text) // 2])
    with pytest.raises(LevelFormatError, match=rf"^{path}: truncated"):
        jsonio.load_json(path)
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(LevelFormatError, match=rf"^{path}: not UTF-8"):
        jsonio.load_json(path)


def test_json_file_round_trips(tmp_path):
    level = mp.generate("prim", 6, 5, seed="castle")
    path = tmp_path / "level.json"
    path.write_text(level.to_json())
    assert_same_level(jsonio.load_json(path), level)


# -- npy --------------------------------------------------------------------------


@settings(max_examples=30)
@given(levels())
def test_npy_round_trips_tiles_and_markers(tmp_path_factory, level):
    path = tmp_path_factory.mktemp("npy") / "level.npy"
    level.save(path)
    assert np.array_equal(np.load(path, allow_pickle=False), level.marked())
    loaded = mp.load(path, corridor=level.layout.corridor, wall=level.layout.wall)
    assert_same_level(loaded, level)


def test_npy_loads_a_plain_tile_array_without_markers(tmp_path):
    level = mp.generate("kruskal", 5, 4, seed=3)
    path = tmp_path / "tiles.npy"
    np.save(path, level.tiles.astype(np.int64))
    loaded = mp.load(path)
    assert np.array_equal(loaded.tiles, level.tiles)
    assert loaded.entrance is None and loaded.exit is None


def _npy(tmp_path, array, name="level.npy", **kwargs):
    path = tmp_path / name
    np.save(path, array, **kwargs)
    return path


def test_npy_refuses_a_pickle_without_unpickling(tmp_path):
    path = _npy(tmp_path, np.array([[1, None]], dtype=object), allow_pickle=True)
    with pytest.raises(LevelFormatError, match=rf"^{path}: .*Python objects \(a pickle\)"):
        mp.load(path)


@pytest.mark.parametrize("array,message", [
    (np.zeros((3, 5), dtype=np.float32), "int or bool array"),
    (np.zeros((3, 5, 2), dtype=np.uint8), "2-dimensional"),
    (np.ones((4, 5), dtype=np.uint8), "not a maze with corridor=1, wall=1"),
    (np.full((3, 5), 7, dtype=np.uint8), r"tile \(0, 0\) is 7"),
    (np.array([[1, 1, 1], [2, 2, 1], [1, 1, 1]], dtype=np.int8), "2 tiles hold 2"),
])
def test_npy_refuses_arrays_that_are_not_levels(tmp_path, array, message):
    path = _npy(tmp_path, array)
    with pytest.raises(LevelFormatError, match=message):
        mp.load(path)


def test_npy_refuses_an_oversized_shape_before_reading_tiles(tmp_path):
    # A header that promises 2**40 tiles, followed by nothing.
    path = tmp_path / "huge.npy"
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(
            f, {"descr": "|u1", "fortran_order": False, "shape": (2**20 + 1, 2**20 + 1)}
        )
    with pytest.raises(LevelFormatError, match="too large"):
        mp.load(path)


def test_truncated_npy_is_reported_with_its_name(tmp_path):
    path = tmp_path / "level.npy"
    mp.generate("kruskal", 8, 8, seed=1).save(path)
    data = path.read_bytes()
    path.write_bytes(data[:-40])
    with pytest.raises(LevelFormatError, match=rf"^{path}: truncated"):
        mp.load(path)
    path.write_bytes(b"PK\x03\x04 not an npy")
    with pytest.raises(LevelFormatError, match=rf"^{path}: not an .npy file"):
        mp.load(path)
    path.write_bytes(data[:12])
    with pytest.raises(LevelFormatError, match=rf"^{path}: corrupted .npy header"):
        mp.load(path)


def test_npy_layout_arguments_are_checked():
    with pytest.raises(TypeError, match="corridor"):
        mp.load("x.npy", corridor=1.5)
    with pytest.raises(ValueError, match="wall must be at least 1"):
        mp.load("x.npy", wall=0)


# -- SVG --------------------------------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def _svg_walls(root: ET.Element, shape: tuple) -> np.ndarray:
    """Tiles covered by the wall path's rectangles (each 'Mx yhNv1h-Nz')."""
    covered = np.zeros(shape, dtype=np.int64)
    d = root.find(f"{SVG}path[@class='walls']").get("d")
    for run in filter(None, d.split("M")):
        head, tail = run.split("h", 1)
        x, y = (int(v) for v in head.split())
        n = int(tail.split("v")[0])
        covered[y, x:x + n] += 1
    return covered


@settings(max_examples=30)
@given(levels(), st.sampled_from([1, 7.5, 16]))
def test_svg_draws_exactly_the_wall_tiles_and_the_markers(level, cell):
    root = ET.fromstring(level.to_svg(cell=cell))
    rows, columns = level.tiles.shape
    assert root.tag == f"{SVG}svg"
    assert float(root.get("width")) == columns * cell and float(root.get("height")) == rows * cell
    assert root.get("viewBox") == f"0 0 {columns} {rows}"
    assert np.array_equal(_svg_walls(root, level.tiles.shape), level.tiles)  # each wall tile once
    for name in ("entrance", "exit"):
        circle = root.find(f"{SVG}circle[@class='{name}']")
        tile = getattr(level, name)
        if tile is None:
            assert circle is None
        else:
            assert (float(circle.get("cx")), float(circle.get("cy"))) == (tile[0] + 0.5, tile[1] + 0.5)
    assert root.find(f"{SVG}polyline") is None


def test_svg_solution_is_a_polyline_through_the_solution_tiles():
    level = mp.generate("backtracker", 7, 5, seed=4)
    root = ET.fromstring(level.to_svg(show_solution=True))
    points = root.find(f"{SVG}polyline[@class='solution']").get("points").split()
    assert [tuple(float(v) for v in p.split(",")) for p in points] == [
        (x + 0.5, y + 0.5) for x, y in level.solution()
    ]


def test_svg_arguments_are_checked():
    level = mp.generate("kruskal", 3, 3, seed=1)
    with pytest.raises(ValueError, match="cell must be a positive number"):
        level.to_svg(cell=0)
    with pytest.raises(TypeError, match="cell must be a number"):
        level.to_svg(cell="10")
    with pytest.raises(ValueError, match="no entrance and exit"):
        mp.generate("kruskal", 3, 3, seed=1, markers="none").to_svg(show_solution=True)


# -- PNG --------------------------------------------------------------------------


def test_png_has_the_tile_size_and_the_palette_colours(tmp_path):
    pygame = pytest.importorskip("pygame")
    from mazeplugin import pg

    level = mp.generate("kruskal", 5, 4, seed=2)
    path = tmp_path / "level.png"
    level.save(path, tile=3, show_solution=True)
    image = pygame.image.load(str(path))
    rows, columns = level.tiles.shape
    assert image.get_size() == (columns * 3, rows * 3)
    solution = set(level.solution())
    for y in range(rows):
        for x in range(columns):
            if (x, y) in solution:
                continue
            colour = tuple(image.get_at((3 * x + 1, 3 * y + 1))[:3])
            expected = pg.DEFAULT_PALETTE.wall if level.tiles[y, x] else pg.DEFAULT_PALETTE.floor
            assert colour == expected, (x, y)
    assert [p.name for p in tmp_path.iterdir()] == ["level.png"]


def test_png_without_pygame_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "mazeplugin.pg", None)  # import fails as if pygame were absent
    with pytest.raises(ImportError, match=r'pip install "mazeplugin\[pygame\]"'):
        mp.generate("kruskal", 3, 3, seed=1).save(tmp_path / "level.png")
    assert list(tmp_path.iterdir()) == []


# -- Tiled ------------------------------------------------------------------------


def _png_size(path: Path) -> tuple:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@settings(max_examples=15)
@given(levels(max_cells=6), st.sampled_from([8, 16, 32]))
def test_tmx_round_trips_through_pytmx(tmp_path_factory, level, tile):
    pytmx = pytest.importorskip("pytmx")
    folder = tmp_path_factory.mktemp("tmx")
    level.save(folder / "level.tmx", tile=tile)
    tmx = pytmx.TiledMap(str(folder / "level.tmx"))
    rows, columns = level.tiles.shape
    assert (tmx.width, tmx.height, tmx.tilewidth, tmx.tileheight) == (columns, rows, tile, tile)
    assert tmx.orientation == "orthogonal"
    layer = tmx.get_layer_by_name("maze")
    walls = np.array([[tmx.get_tile_properties(x, y, 0)["wall"] for x in range(columns)]
                      for y in range(rows)])
    assert np.array_equal(walls, level.tiles == mp.WALL)
    assert layer.name == "maze"
    markers = {o.name: (o.x / tile - 0.5, o.y / tile - 0.5) for o in tmx.get_layer_by_name("markers")}
    expected = {n: getattr(level, n) for n in ("entrance", "exit") if getattr(level, n) is not None}
    assert markers == expected
    assert tmx.properties["generator"] == level.algorithm
    assert tmx.properties["size"] == f"{level.width}x{level.height}"
    assert mp.seeds.resolve_seed(tmx.properties["seed"]) == level.seed
    assert _png_size(folder / f"mazeplugin-tiles-{tile}.png") == (2 * tile, tile)


@settings(max_examples=15)
@given(levels(max_cells=6), st.sampled_from(["tmx", "tmj"]))
def test_tmx_and_tmj_round_trip_through_pytiled_parser(tmp_path_factory, level, kind):
    pytiled_parser = pytest.importorskip("pytiled_parser")
    folder = tmp_path_factory.mktemp("tiled")
    path = folder / f"level.{kind}"
    level.save(path)
    tiled = pytiled_parser.parse_map(path)
    rows, columns = level.tiles.shape
    assert (tiled.map_size.width, tiled.map_size.height) == (columns, rows)
    tileset = tiled.tilesets[1]
    wall_of_gid = {1 + tile_id: tile.properties["wall"] for tile_id, tile in tileset.tiles.items()}
    layer, markers = tiled.layers
    gids = np.array(layer.data)
    assert np.array_equal(np.vectorize(wall_of_gid.get)(gids), level.tiles == mp.WALL)
    found = {o.name: (o.coordinates.x / 16 - 0.5, o.coordinates.y / 16 - 0.5) for o in markers.tiled_objects}
    expected = {n: getattr(level, n) for n in ("entrance", "exit") if getattr(level, n) is not None}
    assert found == expected
    assert all(type(o).__name__ == "Point" for o in markers.tiled_objects)
    assert tiled.properties["generator"] == level.algorithm
    assert tiled.properties["size"] == f"{level.width}x{level.height}"
    assert mp.seeds.resolve_seed(tiled.properties["seed"]) == level.seed
    assert (folder / tileset.image).exists()


def test_tiled_export_works_without_pygame(tmp_path):
    code = (
        "import sys; sys.modules['pygame'] = None\n"
        "import mazeplugin as mp\n"
        "level = mp.generate('kruskal', 4, 3, seed=7)\n"
        f"level.save({str(tmp_path / 'a.tmx')!r}); level.save({str(tmp_path / 'a.tmj')!r})\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=600, env=child_env())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.tmj", "a.tmx", "mazeplugin-tiles-16.png"]


def test_tiled_tile_size_is_checked(tmp_path):
    level = mp.generate("kruskal", 3, 3, seed=1)
    with pytest.raises(ValueError, match="tile must be from 1 to 4,096"):
        level.save(tmp_path / "a.tmx", tile=0)
    with pytest.raises(TypeError, match="tile must be an int"):
        level.save(tmp_path / "a.tmj", tile=1.5)


# -- atomic writes ----------------------------------------------------------------


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "level.npy"
    mp.generate("kruskal", 3, 3, seed=1).save(path)
    before = path.read_bytes()

    def broken_save(file, array, **kwargs):
        file.write(b"\x93NUMPY half a file")
        raise OSError("disk full")

    monkeypatch.setattr(np, "save", broken_save)
    with pytest.raises(OSError, match="disk full"):
        mp.generate("kruskal", 9, 9, seed=2).save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["level.npy"]


def test_atomic_path_keeps_the_extension_and_normal_permissions(tmp_path):
    target = tmp_path / "picture.png"
    with atomic_path(target) as temporary:
        assert temporary.endswith(".png") and os.path.basename(temporary).startswith(".")
        Path(temporary).write_bytes(b"x")
        assert not target.exists()
    assert target.read_bytes() == b"x"
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask
