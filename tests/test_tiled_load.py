"""Tiled maps loaded back: round trips, designer edits, encodings, other parsers, Tiled itself, bad files."""

from __future__ import annotations

import base64
import gzip
import json
import os
import re
import shutil
import subprocess
import zlib

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.formats import LevelFormatError, load_tiled
from mazeplugin.formats.tiled import FLOOR_GID, WALL_GID
from mazecheck import assert_valid_solution

ALL = mp.algorithms()
MASKABLE = [n for n in ALL if mp.get_generator(n).masks]
seeds = st.integers(min_value=0, max_value=2**32)


@st.composite
def levels(draw, max_cells=12):
    algorithm = draw(st.sampled_from(ALL))
    width = draw(st.integers(1 if algorithm != "rooms" else 3, max_cells))
    height = draw(st.integers(1 if algorithm != "rooms" else 3, max_cells))
    options = {}
    if draw(st.booleans()):
        options["corridor"] = draw(st.integers(1, 3))
        options["wall"] = draw(st.integers(1, 2))
    options["markers"] = draw(st.sampled_from(["border", "farthest", "random", "none"]))
    if draw(st.booleans()):
        options["braid"] = draw(st.sampled_from([0.3, 1.0]))
    if getattr(mp.get_generator(algorithm), "fills", False) and width >= 4 and height >= 4 and draw(st.booleans()):
        options["rooms"] = draw(st.integers(1, 2))       # open rooms inside the maze
        options["room_size"] = (2, 3)
    try:
        return mp.generate(algorithm, width, height, seed=draw(seeds), **options)
    except ValueError as error:  # rooms that do not fit this small a maze
        assume("room" not in str(error))
        raise


def same_level(a, b):
    assert a.tiles.tobytes() == b.tiles.tobytes() and a.tiles.shape == b.tiles.shape
    assert (a.entrance, a.exit) == (b.entrance, b.exit)
    assert (a.algorithm, a.seed, a.layout.corridor, a.layout.wall) == (b.algorithm, b.seed, b.layout.corridor, b.layout.wall)


# -- round trips --------------------------------------------------------------------


@given(levels(), st.sampled_from(["tmx", "tmj"]), st.integers(1, 32))
def test_saved_map_loads_back_identical(tmp_path_factory, level, kind, tile):
    path = tmp_path_factory.mktemp("rt") / f"level.{kind}"
    level.save(path, tile=tile)
    again = mp.load(path)
    same_level(again, level)
    assert json.loads(json.dumps(again.options)) == json.loads(json.dumps(level.options, default=lambda v: v.tolist()
                                                                           if not v.dtype == bool else
                                                                           ["".join(r) for r in np.where(v, "#", ".")]))
    assert load_tiled(path).tiles.tobytes() == level.tiles.tobytes()
    if level.entrance is not None:
        assert again.solution() == level.solution()
    assert again.stats() == level.stats()
    assert again.dead_ends() == level.dead_ends()


@st.composite
def levels_with_a_room(draw):
    """A perfect maze with a rectangle of cells opened into a room (open corners), border markers."""
    from mazeplugin.tiles import Layout, Opening

    algorithm = draw(st.sampled_from([n for n in ALL if mp.get_generator(n).perfect]))
    width, height = draw(st.integers(2, 10)), draw(st.integers(2, 10))
    corridor, wall = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    maze = mp.generate(algorithm, width, height, seed=draw(seeds)).maze.copy()
    w, h = draw(st.integers(2, width)), draw(st.integers(2, height))
    x, y = draw(st.integers(0, width - w)), draw(st.integers(0, height - h))
    maze.east[y:y + h, x:x + w - 1] = True
    maze.south[y:y + h - 1, x:x + w] = True
    maze.corners[y:y + h - 1, x:x + w - 1] = True
    maze.rooms[y:y + h, x:x + w] = 1
    maze.check()
    openings = [Opening((0, 0), "west"), Opening((width - 1, height - 1), "east")]
    layout = Layout(width, height, corridor=corridor, wall=wall)
    return mp.Level(maze, layout=layout, entrance=layout.opening_tile(openings[0]),
                    exit=layout.opening_tile(openings[1]), openings=openings)


@given(levels_with_a_room(), st.sampled_from(["tmx", "tmj"]))
def test_map_with_an_open_room_loads_back_with_the_room(tmp_path_factory, level, kind):
    path = tmp_path_factory.mktemp("room") / f"level.{kind}"
    level.save(path)
    again = load_tiled(path)
    assert again.tiles.tobytes() == level.tiles.tobytes()
    assert ((again.maze.rooms > 0) == (level.maze.rooms > 0)).all()
    assert (again.maze.corners == level.maze.corners).all()
    assert again.stats() == level.stats()
    assert again.solution() == level.solution()


@given(levels(max_cells=8))
def test_loaded_level_saves_the_same_files_again(tmp_path_factory, level):
    folder = tmp_path_factory.mktemp("again")
    level.save(folder / "a.tmx")
    level.save(folder / "a.tmj")
    mp.load(folder / "a.tmx").save(folder / "b.tmx")
    mp.load(folder / "a.tmj").save(folder / "b.tmj")
    assert (folder / "a.tmx").read_bytes() == (folder / "b.tmx").read_bytes()
    assert (folder / "a.tmj").read_bytes() == (folder / "b.tmj").read_bytes()


def test_loaded_level_renders_and_exports_like_a_generated_one(tmp_path):
    level = mp.generate("backtracker", 9, 7, seed=5)
    level.save(tmp_path / "a.tmx")
    again = mp.load(tmp_path / "a.tmx")
    assert again.to_svg(cell=4, show_solution=True) == level.to_svg(cell=4, show_solution=True)
    assert str(again) == str(level)
    assert mp.from_json(again.to_json()).tiles.tobytes() == level.tiles.tobytes()
    assert mp.level_code(again) == mp.level_code(level) == "backtracker-9x7-5"
    assert_valid_solution(again)


def test_load_tiled_tells_the_format_by_extension_or_content(tmp_path):
    level = mp.generate("prim", 5, 4, seed=2)
    level.save(tmp_path / "a.tmx")
    level.save(tmp_path / "a.tmj")
    shutil.copy(tmp_path / "a.tmx", tmp_path / "a.map")
    shutil.copy(tmp_path / "a.tmj", tmp_path / "a.json")
    for name in ("a.tmx", "a.tmj", "a.map", "a.json"):
        same_level(load_tiled(tmp_path / name), level)
        same_level(mp.load(tmp_path / name), level)  # by suffix, and by content (a .map; a .json Tiled map)
    with pytest.raises(LevelFormatError, match="a.tmx: not valid JSON"), pytest.deprecated_call():
        mp.Level.load_tmj(tmp_path / "a.tmx")
    with pytest.raises(LevelFormatError, match="a.tmj: not valid XML"), pytest.deprecated_call():
        mp.Level.load_tmx(tmp_path / "a.tmj")


# -- what Tiled writes: encodings -----------------------------------------------------


def _gids(level):
    return (level.tiles.astype("<u4") + FLOOR_GID)


def _encode(gids, how):
    raw = gids.astype("<u4").tobytes()
    packed = {"base64": raw, "zlib": zlib.compress(raw), "gzip": gzip.compress(raw)}[how]
    return base64.b64encode(packed).decode()


def reencode_tmx(path, gids, how):
    """Rewrite a .tmx's tile layer as Tiled would with another layer format."""
    text = path.read_text()
    if how == "xml":
        data = "<data>\n" + "\n".join(f'   <tile gid="{g}"/>' if g else "   <tile/>" for g in gids.ravel().tolist()) + "\n  </data>"
    elif how == "csv":
        data = '<data encoding="csv">\n' + ",\n".join(",".join(map(str, row)) for row in gids.tolist()) + "\n</data>"
    else:
        compression = "" if how == "base64" else f' compression="{how}"'
        data = f'<data encoding="base64"{compression}>\n   {_encode(gids, how)}\n  </data>'
    path.write_text(re.sub(r"<data[^>]*>.*?</data>", lambda _: data, text, count=1, flags=re.S))


def reencode_tmj(path, gids, how):
    data = json.loads(path.read_text())
    layer = data["layers"][0]
    if how == "csv":
        layer["data"] = gids.ravel().tolist()
        layer.pop("encoding", None)
        layer.pop("compression", None)
    else:
        layer["encoding"] = "base64"
        layer["compression"] = "" if how == "base64" else how
        layer["data"] = _encode(gids, how)
    path.write_text(json.dumps(data))


@given(levels(max_cells=8), st.sampled_from(["csv", "base64", "zlib", "gzip", "xml"]), st.booleans())
def test_every_tmx_layer_format_loads(tmp_path_factory, level, how, flipped):
    path = tmp_path_factory.mktemp("enc") / "level.tmx"
    level.save(path)
    gids = _gids(level).astype(np.int64)
    if flipped:  # Tiled's flip flags (horizontal, vertical, diagonal) on every other tile
        gids[::2, ::3] |= 0x80000000 | 0x40000000 | 0x20000000
    reencode_tmx(path, gids, how)
    same_level(mp.load(path), level)


@given(levels(max_cells=8), st.sampled_from(["csv", "base64", "zlib", "gzip"]))
def test_every_tmj_layer_format_loads(tmp_path_factory, level, how):
    path = tmp_path_factory.mktemp("enc") / "level.tmj"
    level.save(path)
    reencode_tmj(path, _gids(level), how)
    same_level(mp.load(path), level)


# -- designers' edits ---------------------------------------------------------------


def _move_a_wall(level, rng):
    """Open a wall between two cells and close a passage on the loop it made: still a perfect maze."""
    tiles = level.tiles.copy()
    walls = [(x, y) for y in range(1, tiles.shape[0] - 1) for x in range(1, tiles.shape[1] - 1)
             if tiles[y, x] and (x % 2) != (y % 2)]
    x, y = walls[rng.integers(len(walls))]
    a, b = ((x - 1, y), (x + 1, y)) if x % 2 == 0 else ((x, y - 1), (x, y + 1))
    path = mp.paths.shortest_path(tiles, a, b)
    passages = [(px, py) for px, py in path if (px % 2) != (py % 2)]
    px, py = passages[rng.integers(len(passages))]
    tiles[y, x], tiles[py, px] = mp.FLOOR, mp.WALL
    return tiles


@given(st.sampled_from(["kruskal", "backtracker", "wilson"]), st.integers(3, 12), st.integers(3, 12), seeds,
       st.sampled_from(["tmx", "tmj"]))
def test_map_with_a_wall_moved_by_editing_the_file_loads_and_solves(tmp_path_factory, algorithm, w, h, seed, kind):
    level = mp.generate(algorithm, w, h, seed=seed)
    edited = _move_a_wall(level, np.random.default_rng(seed))
    path = tmp_path_factory.mktemp("edit") / f"level.{kind}"
    level.save(path)
    (reencode_tmx if kind == "tmx" else reencode_tmj)(path, edited.astype(np.int64) + FLOOR_GID, "csv")
    again = load_tiled(path)
    assert again.tiles.tobytes() == edited.tobytes()
    s = again.stats()
    assert (s.cells, s.passages, s.loops) == (w * h, w * h - 1, 0)
    assert_valid_solution(again)


def test_wall_opened_makes_a_loop_that_stats_count(tmp_path):
    level = mp.generate("backtracker", 8, 6, seed=3)
    tiles = level.tiles.astype(np.int64)
    y, x = next((y, x) for y in range(1, tiles.shape[0] - 1) for x in range(2, tiles.shape[1] - 1, 2)
                if y % 2 and tiles[y, x])
    tiles[y, x] = 0
    level.save(tmp_path / "a.tmx")
    reencode_tmx(tmp_path / "a.tmx", tiles + FLOOR_GID, "csv")
    assert mp.load(tmp_path / "a.tmx").stats().loops == 1


def test_moved_markers_are_read_from_the_object_layer(tmp_path):
    level = mp.generate("kruskal", 6, 5, seed=1)
    level.save(tmp_path / "a.tmj")
    data = json.loads((tmp_path / "a.tmj").read_text())
    objects = data["layers"][1]["objects"]
    objects[0]["x"], objects[0]["y"] = 3 * 16 + 2, 5 * 16 + 15      # a point anywhere in tile (3, 5)
    objects[1].update(point=False, x=9 * 16, y=1 * 16, width=16, height=16)  # a rectangle over tile (9, 1)
    (tmp_path / "a.tmj").write_text(json.dumps(data))
    # The old openings in the outer wall are still floor: refused until the designer walls them up.
    _refused(tmp_path / "a.tmj", "the outer wall is open at tile (0, 1) but no entrance or exit marker is there")
    tiles = np.asarray(data["layers"][0]["data"]).reshape(level.tiles.shape)
    for x, y in (level.entrance, level.exit):
        tiles[y, x] = WALL_GID
    data["layers"][0]["data"] = tiles.ravel().tolist()
    (tmp_path / "a.tmj").write_text(json.dumps(data))
    again = mp.load(tmp_path / "a.tmj")
    assert (again.entrance, again.exit) == ((3, 5), (9, 1))
    path = again.solution()
    assert path[0] == (3, 5) and path[-1] == (9, 1)
    assert_valid_solution(again)


PAINTED_TMX = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="{w}" height="{h}" tilewidth="32" tileheight="32" infinite="0" nextlayerid="5" nextobjectid="9">
 <tileset firstgid="1" name="dungeon" tilewidth="32" tileheight="32" tilecount="6" columns="3">
  <image source="dungeon.png" width="96" height="64"/>
  <tile id="1"><properties><property name="wall" type="bool" value="true"/></properties></tile>
  <tile id="2"><properties><property name="wall" type="bool" value="false"/><property name="kind" value="grass"/></properties></tile>
  <tile id="4"><properties><property name="wall" type="bool" value="true"/></properties></tile>
 </tileset>
 <tileset firstgid="7" source="props.tsx"/>
 <group id="3" name="terrain">
  <layer id="1" name="floor" width="{w}" height="{h}">
   <data encoding="base64" compression="zlib">{floor}</data>
  </layer>
 </group>
 <layer id="2" name="walls" width="{w}" height="{h}">
  <data encoding="csv">{walls}</data>
 </layer>
 <objectgroup id="4" name="things">
  <object id="1" name="start" class="entrance" x="{ex}" y="{ey}" width="32" height="32"/>
  <object id="2" name="chest" type="treasure" x="40" y="40"><point/></object>
  <object id="3" name="exit" gid="8" x="{xx}" y="{xy}" width="32" height="32"/>
 </objectgroup>
</map>
"""

PROPS_TSX = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="props" tilewidth="32" tileheight="32" tilecount="4" columns="4">
 <image source="props.png" width="128" height="32"/>
 <tile id="3"><properties><property name="wall" type="bool" value="true"/></properties></tile>
</tileset>
"""


def test_map_painted_with_any_tileset_and_layers_loads(tmp_path):
    """A designer's own tilesets: wall tiles marked by the property, walls on their own layer over grass."""
    level = mp.generate("wilson", 7, 5, seed=11, markers="farthest")
    h, w = level.tiles.shape
    rng = np.random.default_rng(0)
    floor = np.where(rng.random((h, w)) < 0.5, 1, 3)                   # two floor tiles (no wall property / false)
    wall_ids = rng.choice([2, 5, 10], size=(h, w))                     # three wall tiles, one from the external set
    walls = np.where(level.tiles == 1, wall_ids, 0)                    # 0: nothing painted on the walls layer
    walls[0, 0] |= 0x80000000                                          # one flipped wall
    (tmp_path / "props.tsx").write_text(PROPS_TSX)
    ex, ey = level.entrance
    xx, xy = level.exit
    (tmp_path / "painted.tmx").write_text(PAINTED_TMX.format(
        w=w, h=h, floor=_encode(floor, "zlib"),
        walls=",\n".join(",".join(map(str, row)) for row in walls.tolist()),
        ex=ex * 32, ey=ey * 32, xx=xx * 32, xy=(xy + 1) * 32,
    ))
    again = mp.load(tmp_path / "painted.tmx")
    assert again.tiles.tobytes() == level.tiles.tobytes()
    assert (again.entrance, again.exit) == (level.entrance, level.exit)
    assert (again.algorithm, again.seed, again.options) == (None, None, {})
    assert again.solution() == level.solution()


def test_painted_map_agrees_with_pytmx_and_pytiled_parser(tmp_path):
    test_map_painted_with_any_tileset_and_layers_loads(tmp_path)
    path = tmp_path / "painted.tmx"
    ours = mp.load(path).tiles.astype(bool)
    pytmx = pytest.importorskip("pytmx")
    tmx = pytmx.TiledMap(str(path), load_all_tiles=False, image_loader=lambda *a, **k: (lambda *b: None))
    theirs = np.zeros_like(ours)
    for layer_index, layer in enumerate(tmx.layers):
        if isinstance(layer, pytmx.TiledTileLayer):
            for x, y, gid in layer.iter_data():
                props = tmx.get_tile_properties_by_gid(gid) if gid else None
                theirs[y, x] |= bool(props and props.get("wall"))
    assert (theirs == ours).all()
    pytiled_parser = pytest.importorskip("pytiled_parser")
    parsed = pytiled_parser.parse_map(path)
    theirs = np.zeros_like(ours)
    tilesets = sorted(parsed.tilesets.items())

    def is_wall(gid):
        gid &= 0x0FFFFFFF
        first, tileset = max((f, t) for f, t in tilesets if f <= gid)
        tile = (tileset.tiles or {}).get(gid - first)
        return bool(tile and tile.properties and tile.properties.get("wall"))

    def tile_layers(layers):
        for layer in layers:
            if isinstance(layer, pytiled_parser.LayerGroup):
                yield from tile_layers(layer.layers)
            elif isinstance(layer, pytiled_parser.TileLayer):
                yield layer

    for layer in tile_layers(parsed.layers):
        theirs |= np.array([[bool(g) and is_wall(g) for g in row] for row in layer.data])
    assert (theirs == ours).all()


@given(levels(max_cells=6), st.sampled_from(["tmx", "tmj"]), st.sampled_from(["csv", "zlib", "gzip", "base64"]))
def test_pytiled_parser_reads_the_same_walls_and_markers(tmp_path_factory, level, kind, how):
    pytiled_parser = pytest.importorskip("pytiled_parser")
    path = tmp_path_factory.mktemp("ptp") / f"level.{kind}"
    level.save(path)
    (reencode_tmx if kind == "tmx" else reencode_tmj)(path, _gids(level).astype(np.int64), how)
    parsed = pytiled_parser.parse_map(path)
    walls = np.array(parsed.layers[0].data) == WALL_GID
    ours = load_tiled(path)
    assert (walls == ours.tiles.astype(bool)).all()
    markers = {o.name: (int(o.coordinates.x // 16), int(o.coordinates.y // 16)) for o in parsed.layers[1].tiled_objects}
    assert (markers.get("entrance"), markers.get("exit")) == (ours.entrance, ours.exit)


# -- through Tiled itself -------------------------------------------------------------


def _tiled():
    tiled = shutil.which("tiled")
    if tiled is None:
        pytest.skip("the Tiled editor is not installed (Debian package 'tiled'; .ci/tiled.sh installs it in CI)")
    return tiled


def _tiled_export(source, target):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=str(source.parent))
    result = subprocess.run([_tiled(), "--export-map", str(source), str(target)], env=env,
                            capture_output=True, text=True, timeout=600)
    if result.returncode != 0 or not target.exists():
        pytest.skip(f"tiled --export-map could not run here: {result.stderr.strip()[-200:]}")


@pytest.mark.parametrize("how", ["csv", "base64", "zlib", "gzip"])
@pytest.mark.parametrize("kind, target", [("tmx", "tmj"), ("tmj", "tmx"), ("tmx", "tmx")])
def test_maps_round_trip_through_the_tiled_editor(tmp_path, kind, target, how):
    level = mp.generate("rooms", 14, 10, seed=4, markers="random", corridor=2, wall=1)
    source = tmp_path / f"a.{kind}"
    level.save(source)
    (reencode_tmx if kind == "tmx" else reencode_tmj)(source, _gids(level), how)
    exported = tmp_path / f"tiled-out.{target}"
    _tiled_export(source, exported)
    same_level(load_tiled(exported), level)


@pytest.mark.parametrize("kind, target", [("tmx", "tmj"), ("tmj", "tmx")])
def test_hex_maps_with_content_round_trip_through_the_tiled_editor(tmp_path, kind, target):
    """A hexagonal map (staggered rows, things at hex tile centres) as Tiled itself saves it again."""
    level = mp.generate("wilson", 7, 5, grid="hex", seed=3, keys=1, treasure=2, enemies=1)
    level.save(tmp_path / f"h.{kind}")
    _tiled_export(tmp_path / f"h.{kind}", tmp_path / f"tiled-out.{target}")
    again = load_tiled(tmp_path / f"tiled-out.{target}")
    assert again.kind == "hex" and bool((again.maze.open == level.maze.open).all())
    assert (again.entrance, again.exit, again.things) == (level.entrance, level.exit, level.things)


@pytest.mark.parametrize("kind, target", [("tmx", "tmj"), ("tmj", "tmx")])
def test_weave_maps_round_trip_through_the_tiled_editor(tmp_path, kind, target):
    """The bridges layer and its tileset's 'tunnel' property survive Tiled saving the map again."""
    level = mp.generate("backtracker", 10, 8, seed=2, weave=True)
    level.save(tmp_path / f"w.{kind}")
    _tiled_export(tmp_path / f"w.{kind}", tmp_path / f"tiled-out.{target}")
    again = load_tiled(tmp_path / f"tiled-out.{target}")
    assert again.tiles.tobytes() == level.tiles.tobytes() and again.bridges.tobytes() == level.bridges.tobytes()
    assert again.solution() == level.solution()


def test_wall_edit_made_in_tiled_format_loads(tmp_path):
    """An edited .tmj converted by Tiled to .tmx (as a designer saving in Tiled) keeps the edit."""
    level = mp.generate("kruskal", 9, 6, seed=8)
    edited = _move_a_wall(level, np.random.default_rng(8))
    level.save(tmp_path / "a.tmj")
    reencode_tmj(tmp_path / "a.tmj", edited.astype(np.int64) + FLOOR_GID, "zlib")
    _tiled_export(tmp_path / "a.tmj", tmp_path / "b.tmx")
    assert mp.load(tmp_path / "b.tmx").tiles.tobytes() == edited.tobytes()


# -- bad files ---------------------------------------------------------------------


@pytest.fixture
def tmx(tmp_path):
    level = mp.generate("kruskal", 4, 3, seed=7)
    level.save(tmp_path / "a.tmx")
    return tmp_path / "a.tmx"


@pytest.fixture
def tmj(tmp_path):
    level = mp.generate("kruskal", 4, 3, seed=7)
    level.save(tmp_path / "a.tmj")
    return tmp_path / "a.tmj"


def _edit(path, old, new, count=1):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, count))


def _refused(path, *words, load=load_tiled):
    with pytest.raises(LevelFormatError) as error:
        load(path)
    message = str(error.value)
    assert message.startswith(str(path)), message
    for word in words:
        assert word in message, message
    return message


def test_xml_with_entities_is_refused_before_expanding(tmx):
    bomb = ('<?xml version="1.0"?>\n<!DOCTYPE map [\n <!ENTITY a "aaaaaaaaaa">\n'
            + "".join(f' <!ENTITY {chr(98 + i)} "&{chr(97 + i)};&{chr(97 + i)};&{chr(97 + i)};&{chr(97 + i)};">\n' for i in range(10))
            + ']>\n<map orientation="orthogonal" width="1" height="1">&k;</map>\n')
    tmx.write_text(bomb)
    _refused(tmx, "DOCTYPE")
    tmx.write_text('<?xml version="1.0"?>\n<!DOCTYPE map SYSTEM "http://example.invalid/map.dtd">\n<map/>')
    _refused(tmx, "DOCTYPE")


def test_oversized_map_is_refused_before_decoding(tmx):
    _edit(tmx, 'width="9" height="7"', 'width="100000" height="100000"')
    _refused(tmx, "too large", "100,000 × 100,000")


def test_inflation_is_bounded(tmx):
    bomb = zlib.compress(bytes(64 << 20))  # 64 MiB of zeros, about 64 KiB compressed
    text = tmx.read_text()
    tmx.write_text(re.sub(r"<data[^>]*>.*?</data>",
                          lambda _: f'<data encoding="base64" compression="zlib">{base64.b64encode(bomb).decode()}</data>',
                          text, flags=re.S))
    _refused(tmx, "inflates beyond the map's 63 tiles")


@pytest.mark.parametrize("old, new, words", [
    ('orientation="orthogonal"', 'orientation="isometric"', ["'isometric'", "orthogonal"]),
    ('infinite="0"', 'infinite="1"', ["infinite", "untick"]),
    ('width="9" height="7" tilewidth', 'width="9" height="8" tilewidth', ["layer 'maze' is 9 × 7 tiles, the map 9 × 8"]),
    ('<data encoding="csv">', '<data encoding="base64" compression="zstd">', ["zstd", "Base64 (zlib)"]),
    ('<data encoding="csv">', '<data encoding="hex">', ["encoding 'hex'"]),
    ('2,2,2,2,2,2,2,2,2', '2,2,2,2,2,2,2,2,9', ["tile id 9 at (8, 0), which no tileset holds"]),
    ('2,2,2,2,2,2,2,2,2', '2,2,2,2,2,2,2,2,x', ["holds 'x'"]),
    ('2,2,2,2,2,2,2,2,2', '2,2,2,2,2,2,2,2', ["62 CSV values, the map 63 tiles", "truncated"]),
    ('value="true"/>', 'value="false"/>', ["no tile in the map's tilesets has the bool property 'wall'"]),
    ('<property name="wall" type="bool" value="true"/>', '<property name="wall" value="yes"/>', ["'wall' = 'yes'"]),
    ('name="exit" type="exit"', 'name="entrance" type="entrance"', ["more than one entrance"]),
    ('x="136"', 'x="9000"', ["exit object at pixel (9000, 88) is outside the map"]),
    ('x="136" y="88"', 'x="72" y="88"', ["exit (4, 5) is on a wall tile"]),
    ('<property name="corridor" type="int" value="1"/>', '<property name="corridor" type="int" value="2"/>',
     ["is not a maze with corridor=2"]),
    ('<property name="seed" value="7"/>', '<property name="seed" value="7"/><property name="options" value="[1"/>',
     ["'options' is not JSON"]),
    ('<tileset firstgid="1"', '<tileset firstgid="1" source="missing.tsx"', ["tileset 'missing.tsx'", "cannot read"]),
    ('<property name="seed" value="7"/>', '<property name="seed" value="7"/><property name="options" value="{&quot;braid&quot;: 2}"/>',
     ["option 'braid'", "from 0 to 1"]),
    ('<property name="wall" type="int" value="1"/>', '<property name="wall" type="int" value="65"/>',
     ["map property 'wall'", "from 1 to 64"]),
    ("</map>", "", ["truncated"]),
    ('<map version', '<mapx version', ["not valid XML"]),
])
def test_bad_tmx_is_refused_naming_the_file_and_problem(tmx, old, new, words):
    _edit(tmx, old, new)
    _refused(tmx, *words, load=mp.load)


def test_impossible_tiles_are_refused_by_the_rebuild(tmx):
    _edit(tmx, "2,2,2,2,2,2,2,2,2,\n1,1,1,1", "2,2,2,2,2,2,2,2,2,\n1,1,1,1")  # unchanged: sanity
    text = tmx.read_text()
    rows = re.search(r'<data encoding="csv">\n(.*?)\n</data>', text, re.S).group(1).split(",\n")
    rows[2] = "2,1,1," + rows[2][6:]  # (2, 2) is a wall corner between cells: never floor
    tmx.write_text(text.replace(re.search(r'<data encoding="csv">\n(.*?)\n</data>', text, re.S).group(1), ",\n".join(rows)))
    _refused(tmx, "tile (2, 2) is floor", "a corner is floor only inside an open area")


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(type="tileset"), ["not a Tiled map"]),
    (lambda d: d["layers"][0].update(data=d["layers"][0]["data"][:-1]), ["62 tile ids, the map 63 tiles"]),
    (lambda d: d["layers"][0]["data"].__setitem__(5, "2"), ["holds '2'", "tile ids are ints"]),
    (lambda d: d["layers"][0]["data"].__setitem__(5, 2**40), ["tile id 1099511627776"]),
    (lambda d: d["layers"][0].update(encoding="base64", data="!!!"), ["corrupted base64"]),
    (lambda d: d["layers"][0].update(encoding="base64", compression="gzip",
                                     data=base64.b64encode(gzip.compress(bytes(8))[:-6]).decode()), ["gzip"]),
    (lambda d: d.update(width=70000, height=70000), ["too large"]),
    (lambda d: d.update(layers=[d["layers"][1]]), ["no tile layer"]),
    (lambda d: d["layers"][0].update(chunks=[]), ["infinite"]),
    (lambda d: d.update(tilewidth=0), ["tilewidth must be at least 1"]),
    (lambda d: d["layers"][1]["objects"][0].update(x="8"), ["x='8', not a number"]),
    (lambda d: d["tilesets"][0]["tiles"][1]["properties"][0].update(value=1), ["'wall' = 1; it must be a bool"]),
    (lambda d: d.update(properties=[{"name": "seed", "type": "int", "value": -3}]), ["map property 'seed'", "got -3"]),
])
def test_bad_tmj_is_refused_naming_the_file_and_problem(tmj, change, words):
    data = json.loads(tmj.read_text())
    change(data)
    tmj.write_text(json.dumps(data))
    _refused(tmj, *words, load=mp.load)


def test_truncated_tmj_says_truncated(tmj):
    tmj.write_bytes(tmj.read_bytes()[:200])
    _refused(tmj, "truncated")


def test_fifo_and_directory_are_refused_without_hanging(tmp_path):
    fifo = tmp_path / "level.tmx"
    os.mkfifo(fifo)
    _refused(fifo, "regular file")
    folder = tmp_path / "folder.tmj"
    folder.mkdir()
    with pytest.raises(LevelFormatError, match="folder.tmj"):
        load_tiled(folder)


def test_external_tileset_read_as_carefully_as_the_map(tmp_path):
    test_map_painted_with_any_tileset_and_layers_loads(tmp_path)
    (tmp_path / "props.tsx").write_text('<?xml version="1.0"?>\n<!DOCTYPE t [<!ENTITY x "y">]>\n<tileset/>')
    _refused(tmp_path / "painted.tmx", "tileset 'props.tsx'", "DOCTYPE")


def test_corridor_and_wall_arguments_override_the_properties(tmp_path):
    level = mp.generate("kruskal", 5, 4, seed=3, corridor=2, wall=1)
    level.save(tmp_path / "a.tmx")
    _edit(tmp_path / "a.tmx", '<property name="corridor" type="int" value="2"/>\n', "")
    _refused(tmp_path / "a.tmx", "corridor=1")
    again = mp.load(tmp_path / "a.tmx", corridor=2)
    assert again.tiles.tobytes() == level.tiles.tobytes() and again.width == 5
    with pytest.raises(ValueError, match="corridor must be an int from 1 to 64"):
        mp.load(tmp_path / "a.tmx", corridor=0)


# -- prefab rooms drawn in Tiled ---------------------------------------------------------

VAULT = """
###+#####+###
#...........#
#.#.#...#.#.#
#...........+
#.#.#...#.#.#
+...........#
#####+#######
"""


def prefab_tmx(prefab, doors_as="objects", tile=16):
    """A prefab as a Tiled map a designer would draw: the mazeplugin tileset, doors as objects or door tiles."""
    gids = prefab.tiles.astype(np.int64) + 1
    if doors_as == "tiles":
        gids[prefab.doors] = 3
    rows, columns = gids.shape
    csv = ",\n".join(",".join(map(str, row)) for row in gids.tolist())
    objects = "".join(
        f'  <object id="{i}" name="door" x="{(x + 0.5) * tile:g}" y="{(y + 0.5) * tile:g}"><point/></object>\n'
        for i, (y, x) in enumerate(np.argwhere(prefab.doors).tolist(), start=1)
    ) if doors_as == "objects" else ""
    door_tile = ('<tile id="2"><properties><property name="door" type="bool" value="true"/>'
                 '<property name="wall" type="bool" value="true"/></properties></tile>') if doors_as == "tiles" else ""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" orientation="orthogonal" renderorder="right-down" width="{columns}" height="{rows}" tilewidth="{tile}" tileheight="{tile}" infinite="0">
 <tileset firstgid="1" name="mazeplugin" tilewidth="{tile}" tileheight="{tile}" tilecount="3" columns="3">
  <tile id="1"><properties><property name="wall" type="bool" value="true"/></properties></tile>
  {door_tile}
 </tileset>
 <layer id="1" name="room" width="{columns}" height="{rows}"><data encoding="csv">{csv}</data></layer>
 <objectgroup id="2" name="doors">
{objects} </objectgroup>
</map>
"""


@st.composite
def prefabs(draw):
    """Random prefabs: an open rectangle with some pillars and some door marks."""
    w, h = draw(st.integers(1, 6)), draw(st.integers(1, 5))
    room = mp.Prefab.rectangle(w, h)
    tiles = room.tiles.copy()
    if w > 1 and h > 1:
        pillars = draw(st.lists(st.tuples(st.integers(0, w - 2), st.integers(0, h - 2)), max_size=3))
        for x, y in pillars:
            tiles[2 * y + 2, 2 * x + 2] = 1
    doors = room.doors & np.array(draw(st.lists(st.booleans(), min_size=room.doors.size, max_size=room.doors.size))
                                  ).reshape(room.doors.shape)
    if not doors.any():
        doors = room.doors.copy()
    return mp.Prefab(tiles, doors)


@given(prefabs(), st.sampled_from(["objects", "tiles"]))
def test_prefab_drawn_in_tiled_loads_as_the_same_prefab(tmp_path_factory, prefab, doors_as):
    path = tmp_path_factory.mktemp("prefab") / "room.tmx"
    path.write_text(prefab_tmx(prefab, doors_as))
    loaded = mp.Prefab.from_tiled(path, at=(2, 1))
    assert loaded.to_text() == prefab.to_text() and loaded.at == (2, 1)


def test_shipped_vault_is_the_text_vault_and_goes_into_a_maze(tmp_path):
    docs = os.path.join(os.path.dirname(__file__), "..", "docs", "vault.tmx")
    vault = mp.Prefab.from_tiled(docs, at=(10, 8))
    assert vault.to_text() == mp.Prefab.from_text(VAULT).to_text()
    level = mp.generate("backtracker", 40, 30, seed=7, rooms=[vault])
    same = mp.generate("backtracker", 40, 30, seed=7, rooms=[mp.Prefab.from_text(VAULT, at=(10, 8))])
    assert level.tiles.tobytes() == same.tiles.tobytes()
    assert_valid_solution(level)


def test_prefab_round_trips_through_the_tiled_editor(tmp_path):
    prefab = mp.Prefab.from_text(VAULT)
    (tmp_path / "vault.tmx").write_text(prefab_tmx(prefab, "tiles"))
    _tiled_export(tmp_path / "vault.tmx", tmp_path / "vault.tmj")
    assert mp.Prefab.from_tiled(tmp_path / "vault.tmj").to_text() == prefab.to_text()


@pytest.mark.parametrize("change, words", [
    (lambda t: t.replace('name="door" x="56"', 'name="door" x="40"'), ["door mark at tile (2, 0)", "not beside a floor cell"]),
    (lambda t: re.sub(r'<object id="\d+" name="door"[^>]*><point/></object>\n', "", t), ["no door marks"]),
    (lambda t: t.replace("2,1,1,1,1,1,1,1,1,1,1,1,2", "2,1,1,1,1,1,1,1,1,1,1,1", 1), ["CSV values"]),
    (lambda t: t.replace('width="13" height="7" tile', 'width="13" height="7" tile', 1).replace(
        '<layer id="1" name="room" width="13" height="7"><data encoding="csv">2,2,2,2,2,2,2,2,2,2,2,2,2,\n',
        '<layer id="1" name="room" width="13" height="7"><data encoding="csv">2,2,2,2,2,2,1,2,2,2,2,2,2,\n'),
     ["outline tile (6, 0) is floor"]),
])
def test_bad_prefab_map_is_refused_naming_the_file(tmp_path, change, words):
    text = prefab_tmx(mp.Prefab.from_text(VAULT))
    changed = change(text)
    assert changed != text
    (tmp_path / "vault.tmx").write_text(changed)
    _refused(tmp_path / "vault.tmx", *words, load=mp.Prefab.from_tiled)


def test_prefab_map_must_be_in_base_tiles(tmp_path):
    text = prefab_tmx(mp.Prefab.from_text(VAULT)).replace(
        ' <tileset', ' <properties><property name="corridor" type="int" value="2"/></properties>\n <tileset', 1)
    (tmp_path / "vault.tmx").write_text(text)
    _refused(tmp_path / "vault.tmx", "drawn in base tiles", load=mp.Prefab.from_tiled)
    with pytest.raises(TypeError, match="at="):
        mp.Prefab.from_tiled(tmp_path / "vault.tmx", at="here")


@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=60), st.lists(st.sampled_from(["", " ", "\n", "\r\n", "\t"]), min_size=1),
       st.booleans())
def test_fast_csv_parse_equals_int_parse(values, spaces, trailing):
    from mazeplugin.formats.tiled_layers import csv_digits as _csv_digits

    text = "".join(f"{spaces[i % len(spaces)]}{v}{spaces[(i + 1) % len(spaces)]}," for i, v in enumerate(values))
    text = text if trailing else text[:-1]
    assert _csv_digits(text, len(values)).tolist() == values
    assert _csv_digits(text, len(values) + 1) is None
    if "," in text:  # an empty value
        assert _csv_digits(text.replace(",", ",,", 1), len(values)) is None
    assert _csv_digits(text + "x", len(values)) is None


# -- level content (things) in the object layer ----------------------------------------------


@given(st.integers(4, 14), st.integers(4, 10), seeds, st.integers(0, 3), st.integers(0, 4), st.integers(0, 2),
       st.sampled_from([(1, 1), (2, 1), (3, 2)]), st.sampled_from(["tmx", "tmj"]))
def test_things_load_back_from_the_object_layer(tmp_path_factory, w, h, seed, keys, treasure, enemies, widths, kind):
    try:
        level = mp.generate("backtracker", w, h, seed=seed, keys=keys, treasure=treasure, enemies=enemies,
                            corridor=widths[0], wall=widths[1])
    except ValueError as error:  # more content than this small a level holds
        assume("does not fit" not in str(error))
        raise
    path = tmp_path_factory.mktemp("things") / f"level.{kind}"
    level.save(path)
    again = load_tiled(path)
    assert again.things == level.things
    assert again.tiles.tobytes() == level.tiles.tobytes()
    again.check()


def test_things_moved_and_added_in_tiled_load(tmp_path):
    level = mp.generate("backtracker", 12, 9, seed=4, treasure=2, enemies=1)
    level.save(tmp_path / "a.tmj")
    data = json.loads((tmp_path / "a.tmj").read_text())
    things = next(layer for layer in data["layers"] if layer["name"] == "things")
    treasure = next(o for o in things["objects"] if o["type"] == "treasure")
    floor = [(x, y) for y, x in np.argwhere(level.tiles == 0).tolist()
             if (x, y) not in {t.tile for t in level.things} and (x, y) not in (level.entrance, level.exit)
             and 0 < x < level.tiles.shape[1] - 1]
    (mx, my), (ax, ay) = floor[5], floor[-5]
    treasure.update(x=mx * 16, y=my * 16)                                       # moved
    new_id = max(t.id for t in level.things) + 1
    things["objects"].append({"id": 99, "name": "", "type": "treasure", "x": ax * 16, "y": ay * 16,
                              "width": 16, "height": 16, "rotation": 0, "visible": True,
                              "properties": [{"name": "thing_id", "type": "int", "value": new_id}]})   # added
    (tmp_path / "a.tmj").write_text(json.dumps(data))
    again = mp.load(tmp_path / "a.tmj")
    tiles = {t.id: t.tile for t in again.things}
    moved_id = next(p["value"] for p in treasure["properties"] if p["name"] == "thing_id")
    assert tiles[moved_id] == (mx, my) and tiles[new_id] == (ax, ay)
    assert len(again.things) == len(level.things) + 1


def test_content_level_round_trips_through_the_tiled_editor(tmp_path):
    level = mp.generate("backtracker", 16, 10, seed=9, keys=2, treasure=3, enemies=2)
    level.save(tmp_path / "a.tmx")
    _tiled_export(tmp_path / "a.tmx", tmp_path / "b.tmj")
    again = load_tiled(tmp_path / "b.tmj")
    assert again.things == level.things and again.tiles.tobytes() == level.tiles.tobytes()


def test_things_added_in_tiled_without_an_id_get_the_next_free_ids(tmp_path):
    level = mp.generate("backtracker", 12, 9, seed=4, treasure=2, enemies=1)
    level.save(tmp_path / "a.tmj")
    data = json.loads((tmp_path / "a.tmj").read_text())
    things = next(layer for layer in data["layers"] if layer["name"] == "things")
    first = min(level.things, key=lambda t: t.id)
    things["objects"] = [o for o in things["objects"]  # the designer deletes the first thing: ids now skip one
                         if not any(p["name"] == "thing_id" and p["value"] == first.id for p in o.get("properties", []))]
    taken = {t.tile for t in level.things} | {level.entrance, level.exit}
    floor = [(x, y) for y, x in np.argwhere(level.tiles == 0).tolist() if (x, y) not in taken]
    for k, (x, y) in enumerate((floor[3], floor[-3])):  # two treasures, no thing_id: as a designer adds them
        things["objects"].append({"id": 90 + k, "name": "", "type": "treasure", "x": x * 16, "y": y * 16,
                                  "width": 16, "height": 16, "rotation": 0, "visible": True})
    (tmp_path / "a.tmj").write_text(json.dumps(data))
    again = mp.load(tmp_path / "a.tmj")
    top = max(t.id for t in level.things)
    added = {t.id: t.tile for t in again.things if t.id > top}
    assert added == {top + 1: floor[3], top + 2: floor[-3]}
    assert [t for t in again.things if t.id <= top] == [t for t in level.things if t.id != first.id]
