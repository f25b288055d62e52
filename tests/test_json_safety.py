"""JSON read safely everywhere mazeplugin reads it (mazeplugin/formats/jsontext.py), and any level file loaded
by one call (mazeplugin/formats/level_files.py).

Python's JSON reader recurses: text nested a few thousand lists deep raises RecursionError, which is not a
ValueError, so before this every loader that called ``json.loads`` without the Tiled reader's guard (grid
levels, dataset specs in JSON or TOML, dataset manifests, a build's lock file) showed a bare traceback.
"""

from __future__ import annotations

import pytest

import mazeplugin as mp
from mazeplugin.errors import LevelFormatError

from mazeplugin.formats import jsonio
from mazeplugin.formats.jsontext import parse_json

DEEP = "[" * 100_000
DEEP_OBJECT = '{"a":' * 100_000


@pytest.mark.parametrize("text", [DEEP, DEEP_OBJECT, DEEP.encode()])
def test_nesting_too_deep_is_a_format_error_naming_the_source(text):
    with pytest.raises(LevelFormatError, match=r"^f\.json: not a level: lists or objects nested too deep"):
        parse_json(text, "f.json", what="a level")


@pytest.mark.parametrize("text, words", [
    ('{"a": 1', "truncated"),
    ('{"a": 1}}', "not valid JSON"),
    (b"\xff\xfe{}", "not UTF-8"),
    ("[" + "1" * 5000 + "]", "not valid JSON"),  # more digits than Python converts
    ("[[], [], []]", "4 JSON lists and objects is more than a thing holds (at most 3)"),
    ('["a", "b"]', "2 JSON strings is more than a thing holds (at most 1)"),
])
def test_every_fault_is_one_error_of_the_callers_kind(text, words):
    class Mine(ValueError):
        pass

    with pytest.raises(Mine) as caught:
        parse_json(text, "x", what="a thing", containers=3, strings=1, error=Mine)
    assert str(caught.value).startswith("x: ") and words in str(caught.value)


@pytest.mark.parametrize("load", [mp.from_json, jsonio.from_json])
@pytest.mark.parametrize("text", [DEEP, DEEP_OBJECT])
def test_level_and_grid_level_json_refuse_deep_nesting(load, text):
    with pytest.raises(LevelFormatError, match="nested too deep"):
        load(text)


def test_grid_level_files_that_are_not_utf8_are_refused_not_read_with_replacements(tmp_path):
    text = mp.generate("wilson", 4, 3, seed=1, grid="hex").to_json()
    path = tmp_path / "bad.json"
    path.write_bytes(text.replace('"wilson"', '"wil\xffson"').encode("latin-1"))
    with pytest.raises(LevelFormatError, match=r"bad\.json: not UTF-8"):
        mp.load(path)


def test_every_json_loader_reads_every_grids_level_the_deprecated_ones_too(tmp_path):
    made = {"polar": mp.generate("wilson", 5, 4, seed=3, grid="polar", keys=1),
            "square": mp.generate("wilson", 5, 4, seed=3), "wrap": mp.generate("wilson", 5, 4, seed=3, wrap="xy")}
    for name, level in made.items():
        level.save(tmp_path / f"{name}.json")
        for owner in ("Level", "GridLevel"):
            with pytest.deprecated_call():
                assert getattr(mp, owner).load_json(tmp_path / f"{name}.json").to_json() == level.to_json(), owner
        assert jsonio.load_json(tmp_path / f"{name}.json").to_json() == level.to_json()
    assert [mp.load(tmp_path / f"{name}.json").grid for name in ("polar", "wrap", "square")] == ["polar", "square",
                                                                                                  "square"]


def test_load_level_reads_every_kind_of_level_file_as_its_own_kind(tmp_path):
    made = {
        "square.json": mp.generate("kruskal", 6, 5, seed=2, keys=1),
        "square.tmx": mp.generate("kruskal", 6, 5, seed=2),
        "square.tmj": mp.generate("prim", 6, 5, seed=2),
        "square.npy": mp.generate("prim", 6, 5, seed=4),
        "hex.json": mp.generate("wilson", 6, 5, seed=2, grid="hex", treasure=2),
        "hex.tmx": mp.generate("wilson", 6, 5, seed=2, grid="hex"),
        "hex.tmj": mp.generate("kruskal", 6, 5, seed=3, grid="hex"),
        "triangle.json": mp.generate("backtracker", 6, 5, seed=2, grid="triangle"),
        "wrap.json": mp.generate("backtracker", 6, 5, seed=2, wrap="x"),
    }
    for name, level in made.items():
        path = tmp_path / name
        level.save(path)
        loaded = mp.load(path)
        assert type(loaded) is type(level), name
        assert loaded.kind == level.kind, name
        if level.kind != "square":
            assert loaded.maze.open.tobytes() == level.maze.open.tobytes(), name
            assert (loaded.grid, loaded.options.get("wrap")) == (level.grid, level.options.get("wrap"))
        else:
            assert loaded.tiles.tobytes() == level.tiles.tobytes(), name
        assert (loaded.entrance, loaded.exit) == (level.entrance, level.exit), name
        assert len(loaded.things) == len(level.things), name


def test_load_level_refuses_what_it_cannot_read_naming_the_file(tmp_path):
    (tmp_path / "level.png").write_bytes(b"")
    with pytest.raises(ValueError, match=r"level\.png: not a level file mazeplugin reads .*\.json, \.tmx, \.tmj, \.npy"):
        mp.load(tmp_path / "level.png")
    (tmp_path / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(24))  # a PNG's signature: a picture
    with pytest.raises(ValueError, match=r"picture\.png: a picture of a level, which mazeplugin does not read back"):
        mp.load(tmp_path / "picture.png")
    (tmp_path / "other.json").write_text('{"format": "something-else"}')
    with pytest.raises(LevelFormatError, match=r"other\.json: not a mazeplugin level"):
        mp.load(tmp_path / "other.json")
    (tmp_path / "deep.json").write_text(DEEP)
    with pytest.raises(LevelFormatError, match=r"deep\.json: not a level: lists or objects nested too deep"):
        mp.load(tmp_path / "deep.json")
    mp.generate("kruskal", 4, 3, seed=1).save(tmp_path / "square.json")
    with pytest.raises(ValueError, match="corridor= is for Tiled maps and .npy files"):
        mp.load(tmp_path / "square.json", corridor=2)
    with pytest.deprecated_call():
        from mazeplugin.formats import load_level

        assert load_level(tmp_path / "square.json").to_json() == mp.load(tmp_path / "square.json").to_json()


# -- the dataset's spec, manifest and lock file -------------------------------------------------------------

dataset = pytest.importorskip("mazeplugin.dataset")


@pytest.mark.parametrize("kind, text", [("json", DEEP), ("json", DEEP_OBJECT), ("toml", "a = " + DEEP),
                                        ("toml", "a = " + "{b = " * 100_000)])
def test_a_spec_nested_too_deep_is_a_spec_error(kind, text):
    from mazeplugin.dataset.spec import SpecError, parse_spec

    with pytest.raises(SpecError, match=r"^spec\.\w+: not .*nested too deep"):
        parse_spec(text, source=f"spec.{kind}", kind=kind)


def test_a_manifest_nested_too_deep_is_one_dataset_error(tmp_path):
    from mazeplugin.dataset.building import read_manifest
    from mazeplugin.dataset.errors import DatasetError

    (tmp_path / "manifest.json").write_text('{"format": ' + DEEP)
    with pytest.raises(DatasetError) as caught:
        read_manifest(tmp_path)
    assert str(caught.value).count("manifest.json") == 1 and "nested too deep" in str(caught.value)


def test_a_lock_file_nested_too_deep_reads_as_a_build_that_has_not_written_its_pid():
    """On fsspec file systems the lock is a file made exclusively; its text names the holder."""
    fsspec = pytest.importorskip("fsspec")
    from mazeplugin.dataset.errors import DatasetError
    from mazeplugin.dataset.storage import LOCK_FILE

    out = "memory://json-safety/out"
    with fsspec.open(f"{out}/{LOCK_FILE}", "w") as lock:
        lock.write("[" * 4000)
    try:
        with pytest.raises(DatasetError, match="being built by another build \\(a build that has not written its pid"):
            dataset.build({"generator": "kruskal", "width": 4, "height": 4, "count": 2, "shard_size": 2}, out)
    finally:
        fsspec.filesystem("memory").rm("/json-safety", recursive=True)


def test_a_shard_whose_things_text_is_nested_too_deep_is_a_dataset_error(tmp_path):
    import numpy as np

    from mazeplugin.dataset.errors import DatasetError
    from mazeplugin.dataset.shards import things_at

    good = b'[{"kind":"key","x":1,"y":1,"id":1,"props":{}}]'
    for text, fine in ((good, True), (b"[" * 50_000, False), (b"[{", False)):
        arrays = {"things": np.frombuffer(text, dtype=np.uint8), "things_offsets": np.array([0, len(text)])}
        if fine:
            assert things_at(arrays, 0)[0]["kind"] == "key"
        else:
            with pytest.raises(DatasetError, match="^level 0 of the shard: "):
                things_at(arrays, 0)
