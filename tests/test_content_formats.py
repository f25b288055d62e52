"""Level content everywhere a level goes: codes, the command line, SVG, PNG, Tiled maps, pygame."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import mazeplugin as mp

from processes import child_env

RICH = dict(seed=7, keys=2, treasure=5, enemies=3)


def rich_level(**kw):
    return mp.generate("backtracker", 30, 20, **{**RICH, **kw})


# -- level codes -------------------------------------------------------------------


def test_a_code_with_content_makes_the_same_level_and_things():
    level = rich_level()
    code = mp.level_code(level)
    assert code == "backtracker-30x20-7+k2t5e3"
    again = mp.level_from_code(code)
    assert again.things == level.things and again.tiles.tobytes() == level.tiles.tobytes()


def test_codes_of_today_still_parse_the_same():
    for code, expected in [("kruskal-20x15-7", ("kruskal", 20, 15, 7)),
                           ("union-find-8x6-my castle", ("union-find", 8, 6, "my castle")),
                           ("prim-5x5-a-b-c", ("prim", 5, 5, "a-b-c"))]:
        parsed = mp.parse_level_code(code)
        assert parsed == expected and parsed.content == {}
        algorithm, width, height, seed = parsed  # still four values


def test_only_counts_go_in_a_code():
    assert mp.level_code(mp.generate("kruskal", 9, 9, seed=1, treasure=2)) == "kruskal-9x9-1+t2"
    with pytest.raises(ValueError, match="holds no options"):
        mp.level_code(mp.generate("kruskal", 9, 9, seed=1, place=[mp.Place("coin", 1)]))
    with pytest.raises(ValueError, match="unambiguous"):
        mp.level_code(mp.generate("kruskal", 9, 9, seed="x+k1"))
    with pytest.raises(ValueError, match="keys twice"):
        mp.parse_level_code("kruskal-9x9-1+k1k2")


# -- command line --------------------------------------------------------------------


def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "mazeplugin", *args], capture_output=True, text=True,
                          timeout=600, cwd=cwd, env=child_env())


def test_the_command_line_places_content(tmp_path):
    out = _cli("generate", "backtracker", "--size", "30x20", "--seed", "7", "--keys", "2", "--treasure", "5",
               "--enemies", "3", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.rstrip("\n") == str(rich_level())
    out = _cli("generate", "backtracker", "--size", "30x20", "--seed", "7", "--keys", "2",
               "-o", str(tmp_path / "level.tmj"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    bad = _cli("generate", "backtracker", "--size", "3x3", "--seed", "7", "--keys", "5", cwd=tmp_path)
    assert bad.returncode == 2 and "can hold" in bad.stderr
    bad = _cli("generate", "backtracker", "--keys", "-2", cwd=tmp_path)
    assert bad.returncode == 2 and "--keys" in bad.stderr


# -- pictures ---------------------------------------------------------------------------


def test_svg_draws_every_thing_with_its_kind():
    level = rich_level(place=[mp.Place("torch", 2)])
    root = ET.fromstring(level.to_svg())
    ns = "{http://www.w3.org/2000/svg}"
    classes = [el.get("class") for el in root.iter() if (el.get("class") or "").startswith("thing ")]
    assert sorted(classes) == sorted(f"thing {t.kind}" for t in level.things)
    assert len([el for el in root.iter(f"{ns}polyline") if el.get("class") == "patrol"]) == 3


def test_png_shows_things(tmp_path):
    pygame = pytest.importorskip("pygame")
    level = rich_level()
    plain = mp.generate("backtracker", 30, 20, seed=7)
    level.save(tmp_path / "rich.png", tile=8)
    plain.save(tmp_path / "plain.png", tile=8)
    rich = pygame.surfarray.array3d(pygame.image.load(str(tmp_path / "rich.png")))
    bare = pygame.surfarray.array3d(pygame.image.load(str(tmp_path / "plain.png")))
    for thing in level.things:
        x, y = thing.x * 8 + 4, thing.y * 8 + 4
        assert (rich[x, y] != bare[x, y]).any(), f"{thing.kind} {thing.id} not drawn"


# -- Tiled ------------------------------------------------------------------------------


def test_tmx_things_layer_reads_in_pytmx(tmp_path):
    pytmx = pytest.importorskip("pytmx")
    level = rich_level(corridor=2, place=[mp.Place("torch", 2)])
    path = tmp_path / "level.tmx"
    level.save(path, tile=16)
    tiled = pytmx.TiledMap(str(path))
    objects = list(tiled.get_layer_by_name("things"))
    assert [o.type for o in objects] == [t.kind for t in level.things]
    ids = {o.properties["thing_id"]: o for o in objects}
    assert set(ids) == {t.id for t in level.things}
    for thing in level.things:
        obj = ids[thing.id]
        if thing.kind == "enemy":
            points = [(p.x / 16 - 0.5, p.y / 16 - 0.5) for p in obj.points]
            assert points == [tuple(map(float, p)) for p in thing.props["patrol"]]
        else:
            covered = {(x, y) for x in range(int(obj.x) // 16, int(obj.x + obj.width) // 16)
                       for y in range(int(obj.y) // 16, int(obj.y + obj.height) // 16)}
            assert covered == set(thing.tiles())
        for name, value in thing.props.items():
            if name not in ("tiles", "patrol"):
                assert obj.properties[name] == value


def test_tmj_things_layer_reads_in_pytiled_parser(tmp_path):
    parser = pytest.importorskip("pytiled_parser")
    level = rich_level()
    path = tmp_path / "level.tmj"
    level.save(path, tile=16)
    tiled = parser.parse_map(pathlib.Path(path))
    layer = next(layer for layer in tiled.layers if layer.name == "things")
    objects = {o.properties["thing_id"]: o for o in layer.tiled_objects}
    for thing in level.things:
        obj = objects[thing.id]
        assert obj.class_ == thing.kind
        if thing.kind == "enemy":
            assert type(obj).__name__ == "Polyline"
            start = (obj.coordinates.x, obj.coordinates.y)
            assert [((start[0] + p.x) / 16 - 0.5, (start[1] + p.y) / 16 - 0.5) for p in obj.points] == [
                tuple(map(float, p)) for p in thing.props["patrol"]]
        if thing.kind == "key":
            assert obj.properties["door"] == thing.props["door"]
    data = json.loads(path.read_text())
    assert data["nextobjectid"] > max(o["id"] for layer in data["layers"] if "objects" in layer for o in layer["objects"])


def test_maps_without_things_have_no_things_layer(tmp_path):
    level = mp.generate("kruskal", 5, 5, seed=1)
    level.save(tmp_path / "a.tmx")
    assert "things" not in (tmp_path / "a.tmx").read_text()


# -- pygame ----------------------------------------------------------------------------


def test_doors_block_until_their_key_is_held():
    pytest.importorskip("pygame")
    import mazeplugin.pg as mpg

    level = rich_level()
    doors = [t for t in level.things if t.kind == "door"]
    keys = {t.props["door"]: t for t in level.things if t.kind == "key"}
    for door in doors:
        rect = mpg.tile_rect(door.tile, 10)
        assert not mpg.may_enter(level, rect, (), tile=10)
        assert mpg.may_enter(level, rect, [keys[door.id]], tile=10)
        assert mpg.may_enter(level, rect, [keys[door.id].id], tile=10)
    shut = mpg.passable_tiles(level)
    assert int((shut != level.tiles).sum()) == sum(len(d.tiles()) for d in doors)
    everything = mpg.passable_tiles(level, [t.id for t in level.things if t.kind == "key"])
    assert np.array_equal(everything, level.tiles)
    with pytest.raises(TypeError, match="keys must hold key ids"):
        mpg.passable_tiles(level, ["gold"])


def test_default_sprites_and_own_images_are_drawn():
    pygame = pytest.importorskip("pygame")
    import mazeplugin.pg as mpg

    level = rich_level()
    surface = pygame.Surface((level.tiles.shape[1] * 8, level.tiles.shape[0] * 8))
    surface.fill((0, 0, 0))
    red = pygame.Surface((8, 8))
    red.fill((255, 0, 0))
    mpg.draw_things(surface, level, tile=8, images={"treasure": red}, hidden={1})
    for thing in level.things:
        colour = tuple(surface.get_at((thing.x * 8 + 4, thing.y * 8 + 4)))[:3]
        if thing.id == 1:
            assert colour == (0, 0, 0)
        elif thing.kind == "treasure":
            assert colour == (255, 0, 0)
        else:
            assert colour != (0, 0, 0)


def test_the_command_line_takes_a_code_with_content_as_seed(tmp_path):
    out = _cli("generate", "kruskal", "--seed", "backtracker-30x20-7+k2t5e3", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.rstrip("\n") == str(rich_level(enemies=3))


# -- JSON ---------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mazeplugin.formats import jsonio  # noqa: E402


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(mp.algorithms()), st.integers(10, 20), st.integers(10, 20), st.integers(0, 2**32),
       st.integers(1, 3), st.integers(1, 2))
def test_json_keeps_things_exactly(algorithm, width, height, seed, corridor, keys):
    try:
        level = mp.generate(algorithm, width, height, seed=seed, corridor=corridor, keys=keys, treasure=3,
                            enemies=1, place=[mp.Place("torch", 2, where="junctions")])
    except ValueError as error:
        assert "does not fit" in str(error)
        return
    again = mp.from_json(level.to_json())
    assert again.things == level.things
    assert again.options == level.options
    assert again.solution() == level.solution()
    assert json.loads(level.to_json())["version"] == 2


def test_json_without_things_stays_version_1(tmp_path):
    level = mp.generate("kruskal", 6, 5, seed=2)
    assert json.loads(level.to_json())["version"] == 1
    level.save(tmp_path / "old.json")
    assert mp.load(tmp_path / "old.json").things == ()


def _json_with(edit):
    data = json.loads(rich_level().to_json())
    edit(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda d: d["things"].append({"kind": "coin", "x": 0, "y": 0, "id": 99, "props": {}}), "not a floor tile"),
        (lambda d: d["things"].append({"kind": "coin", "x": 10**6, "y": 1, "id": 99, "props": {}}), "'x' must be an int from 0"),
        (lambda d: d["things"][0].update(id=d["things"][1]["id"]), "share an id"),
        (lambda d: d["things"][0].update(colour="red"), "exactly id, kind, props, x, y"),
        (lambda d: d["things"][0].update(kind=""), "kind"),
        (lambda d: d["things"][0].update(props=[1]), "props"),
        (lambda d: d.update(things={}), "must be a list"),
        (lambda d: d.update(version=1), "unknown field 'things'"),
        (lambda d: d.pop("things"), "missing field 'things'"),
        (lambda d: d["things"].pop(0), "has no key"),
        (lambda d: d["options"].update(keys=-1), "keys must be"),
        (lambda d: d["options"].update(place=[{"kind": "door", "count": 1}]), "built-in kind"),
    ],
)
def test_json_refuses_bad_things_clearly(edit, message):
    with pytest.raises(mp.LevelFormatError, match=message):
        jsonio.from_json(_json_with(edit))


def test_json_refuses_a_key_moved_behind_its_door():
    level = rich_level()
    walk = level.solution()
    data = json.loads(level.to_json())
    door = next(t for t in data["things"] if t["kind"] == "door" and t["props"]["lock"] == 2)
    after = walk[len(walk) - 2]  # beside the exit, beyond every door
    key = next(t for t in data["things"] if t["id"] == door["props"]["key"])
    key["x"], key["y"] = after
    with pytest.raises(mp.LevelFormatError, match="cannot be reached"):
        jsonio.from_json(json.dumps(data))


def test_npy_refuses_a_level_with_things_instead_of_dropping_them(tmp_path):
    level = rich_level()
    with pytest.raises(ValueError, match="cannot write an .npy tilemap of a level with things .*save JSON"):
        level.save(tmp_path / "level.npy")
    assert list(tmp_path.iterdir()) == []
    level.things = ()
    level.save(tmp_path / "level.npy")  # its tiles and markers alone: all an .npy holds
    again = mp.load(tmp_path / "level.npy")
    assert again.tiles.tobytes() == level.tiles.tobytes()
    assert (again.entrance, again.exit) == (level.entrance, level.exit)


# -- Tiled maps back into levels, things included ---------------------------------------


@pytest.mark.parametrize("extension", ["tmx", "tmj"])
@pytest.mark.parametrize("kw", [dict(), dict(corridor=2), dict(corridor=3, wall=2), dict(braid=0.1, keys=1)])
def test_things_come_back_from_tiled_maps(tmp_path, extension, kw):
    level = rich_level(place=[mp.Place("torch", 3)], **kw)
    path = tmp_path / f"level.{extension}"
    level.save(path)
    again = mp.load(path)
    assert again.things == level.things
    assert again.solution() == level.solution()


def test_a_key_moved_behind_its_door_in_tiled_is_refused(tmp_path):
    level = rich_level()
    path = tmp_path / "level.tmj"
    level.save(path, tile=16)
    data = json.loads(path.read_text())
    walk = level.solution()
    layer = next(layer for layer in data["layers"] if layer["name"] == "things")
    key = next(o for o in layer["objects"] if o["type"] == "key")
    key["x"], key["y"] = walk[-2][0] * 16, walk[-2][1] * 16  # beside the exit, past every door
    path.write_text(json.dumps(data))
    with pytest.raises(mp.LevelFormatError, match="things: key .* cannot be reached"):
        mp.load(path)


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda o: o.update(x=10**9), "outside the map"),
        (lambda o: o.update(polyline="zigzag"), "polyline"),
        (lambda o: o.update(properties=[{"name": "thing_id", "type": "int", "value": 1}]), "share a thing_id"),
    ],
)
def test_bad_things_in_a_tiled_map_are_refused_clearly(tmp_path, edit, message):
    level = rich_level()
    path = tmp_path / "level.tmj"
    level.save(path, tile=16)
    data = json.loads(path.read_text())
    layer = next(layer for layer in data["layers"] if layer["name"] == "things")
    edit(next(o for o in layer["objects"] if o["type"] == "enemy"))
    path.write_text(json.dumps(data))
    with pytest.raises(mp.LevelFormatError, match=message):
        mp.load(path)
