"""Hostile level files (issue 23): every loader's outcome is a Level or a LevelFormatError naming the file,
and its memory and time stay bounded by the level's own size, not by what a small file can make it build.

The bombs run in a child process under an address-space limit (``RLIMIT_AS``)
and a CPU-time limit, and report the peak of the memory the load allocated
(``tracemalloc``, which numpy's arrays report to as well); the bounds asserted
sit well above what the loaders now need and below what they needed before.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.formats import LevelFormatError, load_tiled
from mazeplugin.formats.jsonio import load_json
from mazeplugin.formats.recorded import check_plain

from processes import child_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _rich_level(seed):
    """A small level with a key, its door, treasure and an enemy: every kind of thing a file can carry."""
    return mp.generate("backtracker", 9, 7, seed=seed, braid=0.5, keys=1, treasure=1, enemies=1, markers="farthest")


LEVELS = {seed: _rich_level(seed) for seed in (1, 2)}


def _outcome(load, path):
    """Load ``path``: a Level, or a LevelFormatError whose message starts with the file name; anything else fails."""
    try:
        return load(path)
    except LevelFormatError as error:
        assert str(error).startswith(str(path)), str(error)
        return error


# -- structure-aware fuzz: a valid file with one field mutated ---------------------------

HUGE_INT = "9" * 5000
DEEP = "[" * 1500 + "]" * 1500
DEEP_OBJECT = '{"a": ' * 600 + "1" + "}" * 600
JSON_VALUES = st.sampled_from([
    None, True, False, 0, -1, 1.5, 2**31, 2**64, "", "x", "1", [], {}, [1, 2], [[None, 5]], [[1, 2], [3]],
    {"x": 1}, "@HUGE", "@DEEP", "@DEEP_OBJECT", "@NAN",
])
TEXT_VALUES = st.sampled_from([
    "", "0", "-1", "1.5", "nan", "inf", "1e400", "true", "x", "4294967296", "2147483648", " 1", "{}", HUGE_INT,
    "csv", "base64", "zlib", "gzip", "zstd", "group", "layer", "door", "key", "enemy", "things", "entrance", "exit",
])


def _paths(value, prefix=()):
    """Every (container path) in a parsed JSON value, the value's own path first."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, prefix + (index,))


def _mutated_json(text, path_index, value, delete):
    data = json.loads(text)
    paths = list(_paths(data))[1:]
    path = paths[path_index % len(paths)]
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    out = json.dumps(data)
    return (out.replace('"@HUGE"', HUGE_INT).replace('"@DEEP"', DEEP).replace('"@DEEP_OBJECT"', DEEP_OBJECT)
            .replace('"@NAN"', "NaN"))


@FUZZ
@given(seed=st.sampled_from(sorted(LEVELS)), kind=st.sampled_from(["tmj", "json"]), path_index=st.integers(0, 10**6),
       value=JSON_VALUES, delete=st.booleans())
def test_fuzz_a_json_file_with_one_field_mutated_loads_or_is_refused(tmp_path, seed, kind, path_index, value, delete):
    level = LEVELS[seed]
    path = tmp_path / f"level.{kind}"
    level.save(path)
    path.write_text(_mutated_json(path.read_text(), path_index, value, delete))
    _outcome(load_tiled if kind == "tmj" else load_json, path)


@FUZZ
@given(seed=st.sampled_from(sorted(LEVELS)), encoding=st.sampled_from(["csv", "base64-zlib", "xml"]),
       element_index=st.integers(0, 10**6), attribute_index=st.integers(0, 100), value=TEXT_VALUES,
       action=st.sampled_from(["attribute", "text", "delete", "duplicate", "nest"]))
def test_fuzz_a_tmx_file_with_one_field_mutated_loads_or_is_refused(tmp_path, seed, encoding, element_index,
                                                                     attribute_index, value, action):
    level = LEVELS[seed]
    path = tmp_path / "level.tmx"
    level.save(path)
    root = ET.fromstring(path.read_text())
    data = root.find("layer/data")
    if encoding != "csv":  # re-encode the layer as Tiled may save it
        gids = [int(v) for v in data.text.replace("\n", "").split(",")]
        if encoding == "xml":
            data.attrib.clear()
            data.text = None
            for gid in gids:
                ET.SubElement(data, "tile", {"gid": str(gid)} if gid else {})
        else:
            raw = b"".join(g.to_bytes(4, "little") for g in gids)
            data.attrib.update(encoding="base64", compression="zlib")
            data.text = base64.b64encode(zlib.compress(raw)).decode()
    parents = {child: parent for parent in root.iter() for child in parent}
    elements = list(root.iter())
    element = elements[element_index % len(elements)]
    if action == "attribute" and element.attrib:
        names = sorted(element.attrib)
        element.set(names[attribute_index % len(names)], value)
    elif action == "text":
        element.text = value
    elif action in ("delete", "duplicate") and element in parents:
        parent = parents[element]
        if action == "delete":
            parent.remove(element)
        else:
            parent.insert(list(parent).index(element), ET.fromstring(ET.tostring(element)))
    text = ET.tostring(root, encoding="unicode")
    if action == "nest":  # the tile layer inside group layers 5,000 deep
        text = text.replace("<layer ", "<group>" * 5000 + "<layer ", 1).replace("</layer>", "</layer>" + "</group>" * 5000, 1)
    path.write_text(text)
    _outcome(load_tiled, path)


# -- the cases issue 23 names ------------------------------------------------------------


def _tmj_data(level, tmp_path):
    path = tmp_path / "level.tmj"
    level.save(path)
    return path, json.loads(path.read_text())


def _things_layer(data):
    return next(layer for layer in data["layers"] if layer.get("name") == "things")


def _set_prop(obj, name, value):
    props = [p for p in obj.get("properties", []) if p["name"] != name]
    obj["properties"] = props + [{"name": name, "type": "string", "value": value}]


@pytest.mark.parametrize("kind, name, value, message", [
    ("door", "key", {}, "props['key'] must be an int"),
    ("door", "tiles", 5, "props['tiles'] must be a list"),
    ("door", "tiles", [[None, 5]], "props['tiles'] must be a list of [x, y] int pairs"),
    ("door", "lock", "first", "props['lock'] must be an int"),
    ("key", "door", [1], "props['door'] must be an int"),
    ("enemy", "patrol", [1, 2], "props['patrol'] must be a list of [x, y] int pairs"),
])
def test_thing_props_of_the_wrong_type_are_refused_in_tmj_and_json(tmp_path, kind, name, value, message):
    level = LEVELS[1]
    path, data = _tmj_data(level, tmp_path)
    obj = next(o for o in _things_layer(data)["objects"] if o["type"] == kind)
    if name in ("tiles", "patrol"):  # read from the object's shape in a .tmj: give it as a property
        obj.pop("polyline", None)
        obj["width"] = obj["height"] = 0
    _set_prop(obj, name, value)
    path.write_text(json.dumps(data))
    error = _outcome(load_tiled, path)
    assert isinstance(error, LevelFormatError) and message in str(error), error

    path = tmp_path / "level.json"
    level.save(path)
    data = json.loads(path.read_text())
    thing = next(t for t in data["things"] if t["kind"] == kind)
    thing["props"][name] = value
    path.write_text(json.dumps(data))
    error = _outcome(load_json, path)
    assert isinstance(error, LevelFormatError) and message in str(error), error


def test_thing_properties_nested_500_deep_are_refused(tmp_path):
    path, data = _tmj_data(LEVELS[1], tmp_path)
    nested = 1
    for _ in range(500):
        nested = [nested]
    _set_prop(_things_layer(data)["objects"][0], "note", nested)
    path.write_text(json.dumps(data))
    error = _outcome(load_tiled, path)
    assert isinstance(error, LevelFormatError) and "nested more than" in str(error)


@pytest.mark.parametrize("text", [DEEP, DEEP_OBJECT, '{"type": "map", "width": ' + HUGE_INT + "}"])
def test_json_nested_too_deep_or_with_huge_ints_is_a_format_error(tmp_path, text):
    for name, load in (("m.tmj", load_tiled), ("level.json", load_json)):
        (tmp_path / name).write_text(text)
        assert isinstance(_outcome(load, tmp_path / name), LevelFormatError)


@pytest.mark.parametrize("options", ['{"x": ' + HUGE_INT + "}", DEEP, '{"x": [' + "[]," * 70_000 + "[]]}"])
def test_a_map_options_property_with_huge_ints_deep_nesting_or_many_lists_is_refused(tmp_path, options):
    path, data = _tmj_data(LEVELS[1], tmp_path)
    data["properties"] = [p for p in data["properties"] if p["name"] != "options"]
    data["properties"].append({"name": "options", "type": "string", "value": options})
    path.write_text(json.dumps(data))
    error = _outcome(load_tiled, path)
    assert isinstance(error, LevelFormatError) and "'options'" in str(error), error


def test_an_external_tsj_nested_too_deep_is_a_format_error(tmp_path):
    path, data = _tmj_data(LEVELS[1], tmp_path)
    data["tilesets"] = [{"firstgid": 1, "source": "t.tsj"}]
    path.write_text(json.dumps(data))
    (tmp_path / "t.tsj").write_text(DEEP)
    error = _outcome(load_tiled, path)
    assert isinstance(error, LevelFormatError) and "t.tsj" in str(error)


def test_group_layers_nested_5000_deep_still_load(tmp_path):
    level = LEVELS[1]
    path = tmp_path / "level.tmx"
    level.save(path)
    text = path.read_text()
    path.write_text(text.replace("<layer ", "<group>" * 5000 + "<layer ", 1)
                    .replace("</layer>", "</layer>" + "</group>" * 5000, 1))
    assert load_tiled(path).tiles.tobytes() == level.tiles.tobytes()
    path, data = _tmj_data(level, tmp_path)
    layer = data["layers"][0]
    for _ in range(300):  # a dict and a list a level: 600 deep, as deep as json.loads reads with room
        layer = {"type": "group", "name": "g", "layers": [layer]}
    data["layers"][0] = layer
    path.write_text(json.dumps(data))
    assert load_tiled(path).tiles.tobytes() == level.tiles.tobytes()


@pytest.mark.parametrize("data, message", [
    (None, '"data" must be a list'),
    ([[0, 1]], "holds a list"),
    ([None], "holds None"),
    ([True], "holds True"),
    ([2**64], "ids are 0.."),
    ([-1], "ids are 0.."),
])
def test_ragged_or_null_tmj_data_is_refused(tmp_path, data, message):
    path, parsed = _tmj_data(LEVELS[1], tmp_path)
    layer = parsed["layers"][0]
    count = len(layer["data"])
    layer["data"] = data if data is None else (data + layer["data"])[:count]
    path.write_text(json.dumps(parsed))
    error = _outcome(load_tiled, path)
    assert isinstance(error, LevelFormatError) and message in str(error), error


@pytest.mark.parametrize("kind", ["tmx", "tmj"])
def test_a_map_without_tilesets_names_the_first_unknown_tile(tmp_path, kind):
    path = tmp_path / f"level.{kind}"
    LEVELS[1].save(path)
    if kind == "tmx":
        root = ET.fromstring(path.read_text())
        root.remove(root.find("tileset"))
        path.write_text(ET.tostring(root, encoding="unicode"))
    else:
        data = json.loads(path.read_text())
        data["tilesets"] = []
        path.write_text(json.dumps(data))
    error = _outcome(load_tiled, path)
    assert isinstance(error, LevelFormatError) and "at (0, 0), which no tileset holds" in str(error), error


def test_check_plain_charges_a_list_before_walking_it():
    class Counted(list):
        looked = 0

        def __iter__(self):
            Counted.looked += 1
            return super().__iter__()

    with pytest.raises(ValueError, match="larger than"):
        check_plain({"x": Counted([0] * 100_000)})
    assert Counted.looked == 0


# -- bombs, in a child process with limited memory and CPU ------------------------------

_CHILD = r"""
import json, resource, sys, tracemalloc
limit, cpu = int(sys.argv[2]), int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
from mazeplugin.formats import LevelFormatError, load_tiled, jsonio, tiled_read
from mazeplugin.formats.jsonio import load_json
load = load_json if sys.argv[1].endswith(".json") else load_tiled

def read_limited(*args, _read=jsonio.read_limited, **kwargs):
    data = _read(*args, **kwargs)
    tracemalloc.reset_peak()  # f.read(limit + 1) asks for the largest file allowed, then shrinks to the file
    return data

jsonio.read_limited = tiled_read.read_limited = read_limited
tracemalloc.start()  # numpy's arrays are traced too
try:
    load(sys.argv[1])
    outcome = "Level"
except LevelFormatError as error:
    outcome = "LevelFormatError: " + str(error)[:300]
extra = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"extra": extra, "cpu": usage.ru_utime + usage.ru_stime, "outcome": outcome}))
"""
MIB = 1 << 20


def _load_in_child(path, *, limit=2560 * MIB, cpu=60):
    """Load ``path`` in a child limited to ``limit`` bytes of address space and ``cpu`` seconds: its report.

    The address space holds the interpreter and numpy (about 0.5 GiB) and the buffer ``read_limited``
    reserves for a file of the largest size allowed (1 GiB, mostly never touched)."""
    env = child_env(PYTHONPATH=ROOT, MAZEPLUGIN_NO_PLUGINS="1", OPENBLAS_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", _CHILD, str(path), str(limit), str(cpu)], env=env,
                          capture_output=True, text=True, timeout=cpu * 4 + 60, cwd=os.path.dirname(path))
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _tmx(side, data, *, tileset="", objects=""):
    tileset = tileset or ('<tileset firstgid="1" name="t" tilewidth="8" tileheight="8" tilecount="2" columns="1">'
                          '<tile id="1"><properties><property name="wall" type="bool" value="true"/></properties>'
                          '</tile></tileset>')
    return (f'<?xml version="1.0"?><map orientation="orthogonal" width="{side[0]}" height="{side[1]}" '
            f'tilewidth="8" tileheight="8">{tileset}<layer name="maze" width="{side[0]}" height="{side[1]}">'
            f'{data}</layer>{objects}</map>')


def _zlib_data(count, gid=0):
    raw = zlib.compress(gid.to_bytes(4, "little") * count, 9)
    return f'<data encoding="base64" compression="zlib">{base64.b64encode(raw).decode()}</data>'


def test_a_door_over_a_huge_map_is_refused_before_its_tiles_are_listed(tmp_path):
    side = 2049  # 4,198,401 tiles (a maze's size, so the door is what is refused): listing them all took over 500 MB
    door = (f'<objectgroup name="things"><object id="1" type="door" x="0" y="0" width="{8 * side}" '
            f'height="{8 * side}"/></objectgroup>')
    path = tmp_path / "door.tmx"
    path.write_text(_tmx((side, side), _zlib_data(side * side), objects=door))
    report = _load_in_child(path)
    assert "a door blocks one passage" in report["outcome"], report
    assert report["extra"] < 3 * side * side + 48 * MIB, report  # two bool maps and a block of ids


def test_a_large_map_decodes_in_blocks_within_a_few_bytes_a_tile(tmp_path):
    side = 2048  # even: refused as no maze's size right after decoding
    path = tmp_path / "large.tmx"
    path.write_text(_tmx((side, side), _zlib_data(side * side, gid=1)))  # all floor: no maze, refused after decoding
    report = _load_in_child(path)
    assert report["outcome"].startswith("LevelFormatError"), report
    assert report["extra"] < 3 * side * side + 24 * MIB, report  # several int64 arrays of the map's size: 84 MB


def test_thousands_of_wall_tiles_cost_one_lookup_per_block_not_a_map_pass_each(tmp_path):
    kinds, side = 20_000, 2048
    tiles = "".join(f'<tile id="{i}"><properties><property name="wall" type="bool" value="true"/></properties></tile>'
                    for i in range(kinds))
    tileset = f'<tileset firstgid="1" name="t" tilewidth="8" tileheight="8" tilecount="{kinds}">{tiles}</tileset>'
    count = side * side
    raw = (b"".join((1 + i).to_bytes(4, "little") for i in range(kinds)) * (count // kinds + 1))[:4 * count]
    data = f'<data encoding="base64" compression="zlib">{base64.b64encode(zlib.compress(raw)).decode()}</data>'
    path = tmp_path / "walls.tmx"
    path.write_text(_tmx((side, side), data, tileset=tileset))
    report = _load_in_child(path, cpu=120)
    assert report["outcome"].startswith("LevelFormatError"), report  # an even side: no maze's size
    assert report["cpu"] < 15, report  # 20,000 passes over 4 million tiles took 36 s; now about a second


def test_a_long_csv_layer_for_a_tiny_map_is_refused_unparsed(tmp_path):
    path = tmp_path / "csv.tmx"
    path.write_text(_tmx((3, 3), '<data encoding="csv">' + "1," * (8 * MIB) + "1</data>"))  # one cell's maze
    size = path.stat().st_size
    report = _load_in_child(path)
    assert "characters of CSV" in report["outcome"], report
    assert report["extra"] < 3 * size + 16 * MIB, report  # the file, and its text once; parsing took 27 times it


def test_tile_elements_are_kept_four_bytes_each(tmp_path):
    side = 512
    path = tmp_path / "tiles.tmx"
    path.write_text(_tmx((side, side), "<data>" + "<tile/>\n" * (side * side) + "</data>"))
    report = _load_in_child(path, cpu=120)
    assert report["outcome"].startswith("LevelFormatError"), report  # all floor: not a maze
    assert report["extra"] < 2 * path.stat().st_size + 16 * MIB, report  # an element each: 38 MB


def test_more_tile_elements_than_the_map_has_tiles_are_refused_while_parsing(tmp_path):
    path = tmp_path / "tiles.tmx"
    path.write_text(_tmx((2, 2), "<data>" + "<tile/>" * 100_000 + "</data>"))
    error = _outcome(load_tiled, path)
    assert isinstance(error, LevelFormatError) and "more <tile> elements than the map's 4 tiles" in str(error)


def test_a_huge_list_in_the_options_is_refused_at_the_budget(tmp_path):
    data = json.loads(mp.formats.jsonio.to_json(mp.generate("kruskal", 4, 3, seed=1)))
    data["options"] = {"x": "@@"}
    path = tmp_path / "level.json"
    path.write_text(json.dumps(data).replace('"@@"', "[" + "0," * (4 * MIB) + "0]"))
    size = path.stat().st_size
    report = _load_in_child(path)
    assert "larger than 65,536 bytes" in report["outcome"], report
    # json.loads itself: about 8 bytes an item (a pointer to the cached 0), 4 a byte of the file;
    # check_plain pushed a tuple for every item (over 70 bytes each) before its budget check
    assert report["extra"] < 6 * size + 16 * MIB, report


@pytest.mark.parametrize("name", ["m.tmj", "level.json"])
def test_millions_of_empty_lists_are_refused_before_parsing(tmp_path, name):
    path = tmp_path / name
    path.write_text('{"type": "map", "x": [' + "[]," * (5 * MIB) + "[]]}")
    size = path.stat().st_size
    report = _load_in_child(path)
    assert "JSON lists and objects" in report["outcome"], report
    assert report["extra"] < 3 * size + 16 * MIB, report  # parsed, they took 21 times the file


def test_millions_of_strings_in_a_tmj_are_refused_before_parsing(tmp_path):
    from mazeplugin.formats.tiled_parse import MAX_JSON_STRINGS

    path = tmp_path / "m.tmj"
    path.write_text('{"type": "map", "x": [' + '"ab",' * MAX_JSON_STRINGS + '"ab"]}')
    report = _load_in_child(path)
    assert "JSON strings" in report["outcome"], report
    assert report["extra"] < 2 * path.stat().st_size + 16 * MIB, report  # parsed, they took 14.5 times the file


def test_more_xml_elements_than_a_map_holds_are_refused_while_parsing(tmp_path):
    from mazeplugin.formats.tiled_parse import MAX_XML_ELEMENTS

    path = tmp_path / "objects.tmx"
    objects = '<objectgroup name="o">' + '<object id="1"/>' * MAX_XML_ELEMENTS + "</objectgroup>"
    path.write_text(_tmx((1, 1), _zlib_data(1), objects=objects))
    error = _outcome(load_tiled, path)
    assert isinstance(error, LevelFormatError) and f"more than {MAX_XML_ELEMENTS:,} XML elements" in str(error)
