"""One way to load and save (issue 29): level.save(path) by suffix, mp.load(path) by suffix and content,
mp.from_json(text); the per-format methods as warning aliases writing the same bytes."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import mazeplugin as mp

LEVELS = {
    "square": dict(), "keys": dict(keys=1, treasure=1), "weave": dict(weave=True), "wide": dict(corridor=2, wall=1),
    "wrap": dict(wrap="xy"), "hex": dict(grid="hex", keys=1), "triangle": dict(grid="triangle"),
    "polar": dict(grid="polar"),
}
# What each kind of level saves as, and the per-format alias that wrote the same file before.
ALIASES = {"json": "save_json", "tmx": "save_tmx", "tmj": "save_tmj", "npy": "save_npy", "png": "save_png"}
HOLDS = {
    "square": {"json", "tmx", "tmj", "npy", "svg", "png", "txt"}, "keys": {"json", "tmx", "tmj", "svg", "png", "txt"},
    "weave": {"json", "tmx", "tmj", "svg", "png", "txt"}, "wide": {"json", "tmx", "tmj", "npy", "svg", "png", "txt"},
    "wrap": {"json", "svg", "png", "txt"}, "hex": {"json", "tmx", "tmj", "svg", "png", "txt"},
    "triangle": {"json", "svg", "png"}, "polar": {"json", "svg", "png"},
}
READ_BACK = {"json", "tmx", "tmj", "npy"}


def _level(name):
    return mp.generate("backtracker", 6, 5, seed=3, **LEVELS[name])


@pytest.mark.parametrize("name", list(LEVELS))
def test_save_writes_every_format_its_grid_holds_and_the_aliases_write_the_same_bytes(name, tmp_path):
    pytest.importorskip("pygame")
    level = _level(name)
    for suffix in ("json", "tmx", "tmj", "npy", "svg", "png", "txt"):
        path = tmp_path / f"new.{suffix}"
        if suffix not in HOLDS[name]:
            # refused by the suffix (what the grid holds), or by what the file would lose (things, bridges)
            with pytest.raises(ValueError, match=rf"cannot be saved as \.{suffix} \(.*\); it saves as \.json|"
                                                 r"cannot write an \.npy tilemap of a (weave level|level with things)"):
                level.save(path)
            assert not path.exists()
            continue
        level.save(path)
        written = path.read_bytes()
        if suffix in ALIASES:
            old = tmp_path / f"old.{suffix}"
            with pytest.deprecated_call(match=rf"{type(level).__name__}\.{ALIASES[suffix]}\(path\) is deprecated; "
                                              r"use level\.save\(path\)"):
                getattr(level, ALIASES[suffix])(old)
            assert old.read_bytes() == written, suffix
        elif suffix == "svg":
            assert written.decode() == level.to_svg()
        else:
            assert written.decode() == (level.to_text() if level.kind == "square" else str(level)) + "\n"
        if suffix in READ_BACK:
            kw = dict(corridor=2, wall=1) if name == "wide" and suffix == "npy" else {}
            again = mp.load(path, **kw)
            assert type(again) is type(level)
            if suffix == "json":
                assert again.to_json() == level.to_json()
            else:
                assert np.array_equal(again.marked(), level.marked()) and again.things == level.things


def test_save_takes_each_writers_options_and_names_the_allowed_ones(tmp_path):
    level = _level("square")
    level.save(tmp_path / "a.svg", cell=4, show_solution=True)
    assert (tmp_path / "a.svg").read_text() == level.to_svg(4, show_solution=True)
    level.save(tmp_path / "a.txt", style="blocks")
    assert (tmp_path / "a.txt").read_text() == level.to_text("blocks") + "\n"
    with pytest.raises(TypeError, match=r"save\(\) got option 'tile': a \.json of a square level takes no options"):
        level.save(tmp_path / "b.json", tile=3)
    with pytest.raises(TypeError, match=r"option 'cell': a \.tmx of a hex level takes tile"):
        _level("hex").save(tmp_path / "b.tmx", cell=3)
    with pytest.raises(ValueError, match=r"path must end in \.json, \.tmx, .*got \.dat"):
        level.save(tmp_path / "b.dat")
    with pytest.raises(ValueError, match="format must be one of json, tmx"):
        level.save(tmp_path / "b.dat", format="xml")
    level.save(tmp_path / "b.dat", format="json")  # format= where the suffix says nothing
    assert mp.load(tmp_path / "b.dat").to_json() == level.to_json()  # read back by its content
    assert list(p.name for p in tmp_path.iterdir() if p.name.startswith("b")) == ["b.dat"]


@pytest.mark.parametrize("source, suffix", [("json", "level"), ("tmx", "map"), ("npy", "bin"), ("tmj", "json")])
def test_load_reads_a_file_by_its_content_when_the_suffix_does_not_say(source, suffix, tmp_path):
    level = _level("square")
    level.save(tmp_path / f"a.{source}")
    (tmp_path / f"b.{suffix}").write_bytes((tmp_path / f"a.{source}").read_bytes())
    if source in ("tmx", "tmj"):  # the tileset image beside the map
        for extra in tmp_path.glob("a*.png"):
            (tmp_path / extra.name).write_bytes(extra.read_bytes())
    again = mp.load(tmp_path / f"b.{suffix}")
    assert np.array_equal(again.marked(), level.marked())


def test_from_json_reads_every_grids_text_and_the_aliases_warn():
    for name in LEVELS:
        level = _level(name)
        assert mp.from_json(level.to_json()).to_json() == level.to_json()
    square, hex_ = _level("square"), _level("hex")
    with pytest.deprecated_call(match=r"Level\.from_json\(text\) is deprecated; use mp\.from_json\(text\)"):
        assert mp.Level.from_json(square.to_json()).to_json() == square.to_json()
    with pytest.deprecated_call(match=r"GridLevel\.from_json\(text\) is deprecated; use mp\.from_json\(text\)"):
        assert mp.GridLevel.from_json(hex_.to_json()).to_json() == hex_.to_json()


def test_the_load_aliases_warn_naming_mp_load_and_read_what_they_read(tmp_path):
    square, hex_ = _level("square"), _level("hex")
    for suffix in ("json", "tmx", "tmj", "npy"):
        square.save(tmp_path / f"s.{suffix}")
        with pytest.deprecated_call(match=rf"Level\.load_{suffix}\(path\) is deprecated; use mp\.load\(path\)"):
            again = getattr(mp.Level, f"load_{suffix}")(tmp_path / f"s.{suffix}")
        assert np.array_equal(again.marked(), square.marked())
    for suffix in ("json", "tmx", "tmj"):
        hex_.save(tmp_path / f"h.{suffix}")
        with pytest.deprecated_call(match=rf"GridLevel\.load_{suffix}\(path\) is deprecated; use mp\.load\(path\)"):
            again = getattr(mp.GridLevel, f"load_{suffix}")(tmp_path / f"h.{suffix}")
        assert np.array_equal(again.maze.open, hex_.maze.open) and again.things == hex_.things


def test_the_library_itself_never_warns_when_used_the_new_way(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for name in LEVELS:
            level = _level(name)
            level.save(tmp_path / f"{name}.json")
            mp.load(tmp_path / f"{name}.json")
            mp.from_json(level.to_json())


def test_the_format_modules_json_writers_are_warning_aliases_writing_the_same_bytes(tmp_path):
    from mazeplugin.formats import grid_json, jsonio

    for module, level in ((jsonio, _level("keys")), (grid_json, _level("hex"))):
        with pytest.deprecated_call(match=rf"mazeplugin\.formats\.{module.__name__.split('.')[-1]}\.save_json"):
            module.save_json(level, tmp_path / "old.json")
        level.save(tmp_path / "new.json")
        assert (tmp_path / "old.json").read_bytes() == (tmp_path / "new.json").read_bytes()
