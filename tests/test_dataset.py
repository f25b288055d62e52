"""Level datasets (mazeplugin.dataset): specs, digests, shards, builds, resuming, reading back, the CLI."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import subprocess
import sys
import time
import zipfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import mazeplugin as mp
import mazeplugin.dataset as ds
from mazeplugin.dataset import building as build_module
from mazeplugin.dataset import spec as spec_module
from mazeplugin.dataset.cli import main

from processes import child_env

ROOT = Path(__file__).resolve().parent.parent

# Two entries, one with content, shards of uneven fill: small enough to build in a second.
SPEC: Dict[str, Any] = {
    "levels": [
        {"generator": "backtracker", "width": 9, "height": 9, "count": 260, "shard_size": 50},
        {"generator": "wilson", "width": 6, "height": 5, "count": 90, "first_seed": 1000, "shard_size": 40,
         "keys": 1, "treasure": 2, "braid": 0.3},
    ]
}


def checksums(manifest: Dict[str, Any]) -> List[Tuple[str, str]]:
    return [(s["file"], s["sha256"]) for s in manifest["shards"]]


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run_cli(argv: List[str]) -> Tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Tuple[Path, Dict[str, Any]]:
    out = tmp_path_factory.mktemp("dataset") / "levels"
    return out, ds.build(SPEC, out, workers=1)


# -- specs ------------------------------------------------------------------------


def test_spec_fills_defaults_and_splits_into_shards():
    spec = ds.parse_spec(json.dumps(SPEC))
    first, second = spec.entries
    assert (first.first_seed, first.shard_size, first.shards) == (0, 50, 6)
    assert list(first.shard_slots(5)) == list(range(250, 260))
    assert second.options == {"keys": 1, "treasure": 2, "braid": 0.3}
    assert second.reserve_seed == 2**63 + 1000
    assert spec.levels == 350
    # One entry without "levels" is the same spec as a list of that one entry.
    alone = ds.parse_spec(json.dumps(SPEC["levels"][0]))
    assert alone.sha256() == ds.parse_spec({"levels": [SPEC["levels"][0]]}).sha256()
    assert alone.sha256() != spec.sha256()


TOML = """
[[levels]]
generator = "backtracker"
width = 9
height = 9
count = 260
shard_size = 50

[[levels]]
generator = "wilson"
width = 6
height = 5
count = 90
first_seed = 1000
shard_size = 40
keys = 1
treasure = 2
braid = 0.3
"""


def _has_toml() -> bool:
    if sys.version_info >= (3, 11):
        return True
    try:
        import tomli  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(not _has_toml(), reason="TOML needs Python 3.11 or tomli")
def test_toml_and_json_specs_are_the_same_spec(tmp_path):
    (tmp_path / "spec.toml").write_text(TOML, encoding="utf-8")
    (tmp_path / "spec.json").write_text(json.dumps(SPEC), encoding="utf-8")
    assert ds.load_spec(tmp_path / "spec.toml").sha256() == ds.load_spec(tmp_path / "spec.json").sha256()


def test_toml_without_tomllib_or_tomli_says_what_to_install(monkeypatch):
    class OldSys:
        version_info = (3, 10, 0)

    monkeypatch.setattr(spec_module, "sys", OldSys)
    monkeypatch.setitem(sys.modules, "tomli", None)  # importing it fails
    with pytest.raises(ds.SpecError, match=r"Python 3\.11 .*pip install tomli"):
        ds.parse_spec(TOML, kind="toml")


BAD_SPECS = [
    ({"generator": "no-such", "width": 9, "height": 9, "count": 5}, r"unknown generator 'no-such'; choose one of .*backtracker"),
    ({"generator": "kruskal", "width": 9, "height": 9, "count": 5, "shard_size": 0}, r"shard_size must be an int from 1"),
    ({"generator": "kruskal", "width": 9, "height": 9, "count": 0}, r"count must be an int from 1"),
    ({"generator": "kruskal", "width": 10**8, "height": 9, "count": 5}, r"width must be an int from 1 to"),
    ({"generator": "kruskal", "width": 5000, "height": 5000, "count": 5}, r"width × height must be at most"),
    ({"generator": "kruskal", "width": 3000, "height": 3000, "count": 5, "shard_size": 1}, r"3000 × 3000 would need about .* working memory"),
    ({"generator": "kruskal", "width": 3, "height": 3, "count": 5, "keys": 20}, r"levels\[0\].*keys"),
    ({"generator": "kruskal", "width": 9, "height": 9, "count": 5, "colour": "red"}, r"levels\[0\].*colour"),
    ({"generator": "kruskal", "width": 9, "height": 9, "count": 5, "seed": 3}, r"'seed' is not a dataset key"),
    ({"generator": "kruskal", "width": 9, "height": 9, "count": 5, "mask": "shape.png"}, r"mask must be a list"),
    ({"generator": "backtracker", "width": 9, "height": 9, "count": 5, "weave": True, "rooms": 2}, r"levels\[0\].*weave= cannot be combined"),
    ({"generator": "kruskal", "width": 9, "height": 9, "count": 5, "reserve_seed": 2}, r"reserve_seed 2 lies inside"),
    ({"generator": "kruskal", "width": 9, "height": 9, "count": 5, "first_seed": 2**64 - 2}, r"at most 2\*\*64"),
    ({"generator": "kruskal", "width": 9, "height": 9, "count": True}, r"count must be an int, not bool"),
    ({"generator": "kruskal", "width": 200, "height": 200, "count": 10**6, "shard_size": 10**6}, r"tiles a shard"),
    ({"generator": "kruskal", "height": 9, "count": 5}, r"missing 'width'"),
    ({"levels": []}, r"non-empty list"),
    ({"levels": [{"generator": "kruskal", "width": 9, "height": 9, "count": 5}], "count": 3}, r"unknown key 'count'"),
]


@pytest.mark.parametrize("raw, message", BAD_SPECS, ids=[m[:28] for _, m in BAD_SPECS])
def test_bad_spec_is_refused_before_any_work(tmp_path, raw, message):
    out = tmp_path / "never"
    with pytest.raises(ds.SpecError, match=message):
        ds.build(raw, out, workers=1)
    assert not out.exists()
    (tmp_path / "spec.json").write_text(json.dumps(raw), encoding="utf-8")
    status, _, err = run_cli(["build", str(tmp_path / "spec.json"), str(out)])
    assert status == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not out.exists()


def test_unreadable_spec_text_is_one_clear_error():
    with pytest.raises(ds.SpecError, match="not valid JSON"):
        ds.parse_spec("{generator: kruskal")
    with pytest.raises(ds.SpecError, match="a spec is an object"):
        ds.parse_spec("[1, 2]")


def test_bad_build_arguments_name_what_is_allowed(tmp_path):
    spec = SPEC["levels"][0]
    with pytest.raises(ds.DatasetError, match="engine must be one of 'processes', 'ray'"):
        ds.build(spec, tmp_path / "a", engine="dask")
    with pytest.raises(ds.DatasetError, match="workers must be an int from 1 to 256"):
        ds.build(spec, tmp_path / "a", workers=0)
    with pytest.raises(ds.DatasetError, match="address is for engine='ray'"):
        ds.build(spec, tmp_path / "a", address="auto")
    assert not (tmp_path / "a").exists()


# -- the digest ---------------------------------------------------------------------


def test_digests_are_pinned():
    # The digest's byte layout is a promise (see mazeplugin/dataset/digest.py): these never change.
    assert ds.digest(mp.generate("backtracker", 9, 9, seed=1)) == (
        "464cb0e6e45272b92c349b92ffa1f10d4717dd790881ba795e1c0a449083af5d")
    assert ds.digest(mp.generate("wilson", 12, 8, seed=5, keys=1, treasure=2)) == (
        "962e284b4bd0b926835b4886f12b728056b8d59ed3e3a57a1df5d262c3e8bb5b")
    assert ds.digest(mp.generate("kruskal", 4, 3, seed=7, markers="none")) == (
        "ef87acbd5057bdc7cbaf9e5e5d95b5db72292934af1131985946484de237a783")


@settings(max_examples=40, deadline=None)
@given(seed_a=st.integers(0, 2**64 - 1), seed_b=st.integers(0, 2**64 - 1), content=st.booleans())
def test_digest_is_equal_exactly_when_tiles_markers_and_things_are(seed_a, seed_b, content):
    kwargs = {"treasure": 1} if content else {}
    try:  # 3 x 2 has few mazes: equal levels happen
        a = mp.generate("kruskal", 3, 2, seed=seed_a, **kwargs)
        b = mp.generate("kruskal", 3, 2, seed=seed_b, **kwargs)
    except ValueError:  # no room for treasure off the route
        assume(False)
    same = (a.tiles.tobytes() == b.tiles.tobytes() and a.entrance == b.entrance and a.exit == b.exit
            and a.things == b.things)
    assert (ds.digest(a) == ds.digest(b)) == same


def test_digest_covers_the_level_not_how_it_was_made():
    from mazeplugin.formats.rebuild import level_from_tiles

    level = mp.generate("backtracker", 7, 5, seed=3)
    rebuilt = level_from_tiles(level.tiles, entrance=level.entrance, exit=level.exit)
    assert rebuilt.seed is None and ds.digest(rebuilt) == ds.digest(level)
    unmarked = level_from_tiles(level.tiles, unmarked_openings=True)
    assert ds.digest(unmarked) != ds.digest(level)  # the markers count
    with pytest.raises(TypeError, match="must be a mazeplugin level"):
        ds.digest(level.tiles)  # type: ignore[arg-type]


# -- shards and their bytes ------------------------------------------------------------


def test_shard_bytes_are_the_same_with_1_2_and_4_workers(tmp_path, built):
    _, one = built
    for workers in (2, 4):
        manifest = ds.build(SPEC, tmp_path / f"w{workers}", workers=workers)
        assert checksums(manifest) == checksums(one)
    assert len(one["shards"]) == 6 + 3


def test_shard_bytes_do_not_depend_on_the_clock(tmp_path, built, monkeypatch):
    out, manifest = built
    later = 1_900_000_000.0  # a fixed moment in 2030, long after any build here
    monkeypatch.setattr(time, "time", lambda: later)
    again = ds.build(SPEC, tmp_path / "later", workers=1)
    assert checksums(again) == checksums(manifest)
    with zipfile.ZipFile(out / manifest["shards"][0]["file"]) as z:
        assert {info.date_time for info in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        assert {info.compress_type for info in z.infolist()} == {zipfile.ZIP_STORED}


def test_npz_layout_is_pinned_and_loads_with_numpy():
    # Written byte by byte (not np.savez), so no numpy or Python release changes a shard's checksum.
    from mazeplugin.dataset.shards import npz_bytes

    arrays = {"slot": np.arange(3, dtype="<i8"), "tiles": np.arange(24, dtype=np.uint8).reshape(2, 3, 4),
              "ratio": np.array([0.5, np.nan], dtype="<f8"), "shape": np.array(7, dtype="<i4"),
              "columns": np.arange(6, dtype="<i8").reshape(2, 3).T}
    data = npz_bytes(arrays)
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        assert z.files == list(arrays)
        for name, array in arrays.items():
            assert z[name].dtype == array.dtype and z[name].shape == array.shape
            np.testing.assert_array_equal(z[name], array)
    assert hashlib.sha256(data).hexdigest() == "732a62d3d9e3aaf4e5b057f05857a145b2265c92c0a193de5615107af83ebefd"


def test_npz_shards_hold_the_generated_levels(built):
    out, manifest = built
    record = manifest["shards"][-1]  # the content entry's last, short shard
    assert record["levels"] == 10
    with np.load(out / record["file"], allow_pickle=False) as z:
        rows, columns = z["tile_shape"]
        tiles = np.unpackbits(z["tiles"], axis=-1, count=columns)
        for i, (slot, seed) in enumerate(zip(z["slot"], z["seed"])):
            assert slot == 80 + i
            level = mp.generate("wilson", 6, 5, seed=int(seed), keys=1, treasure=2, braid=0.3)
            assert (tiles[i] == level.tiles).all()
            assert tuple(z["entrance"][i]) == level.entrance and tuple(z["exit"][i]) == level.exit
            assert bytes(z["digest"][i]).hex() == ds.digest(level)
            assert z["stats_dead_ends"][i] == level.stats().dead_ends
            things = json.loads(bytes(z["things"][z["things_offsets"][i]:z["things_offsets"][i + 1]]))
            assert [t["kind"] for t in things] == [t.kind for t in level.things]


def test_manifest_says_what_made_the_dataset(built):
    _, manifest = built
    assert manifest["complete"] and manifest["levels"] == 350 and manifest["file_format"] == "npz"
    assert manifest["mazeplugin"] == mp.__version__ and manifest["numpy"] == np.__version__
    assert manifest["seed_promise"] == 1 and manifest["digest_version"] == 1
    assert manifest["spec"] == ds.parse_spec(SPEC).as_dict()
    second = manifest["entries"][1]
    assert (second["first_seed"], second["last_seed"], second["shards"]) == (1000, 1089, 3)
    assert sum(s["levels"] for s in manifest["shards"]) == 350


# -- reading back --------------------------------------------------------------------


def test_open_yields_levels_in_seed_order_as_generate_makes_them(built):
    out, _ = built
    levels = list(ds.open(out))
    assert len(levels) == 350
    firsts, seconds = levels[:260], levels[260:]
    assert [level.seed for level in firsts] == list(range(260))
    for level in firsts[::37] + seconds[::11]:
        if level.width == 9:
            made = mp.generate("backtracker", 9, 9, seed=level.seed)
        else:
            made = mp.generate("wilson", 6, 5, seed=level.seed, keys=1, treasure=2, braid=0.3)
        assert level.tiles.tobytes() == made.tiles.tobytes()
        assert (level.entrance, level.exit, level.things) == (made.entrance, made.exit, made.things)
        assert level.solution() == made.solution()
    raw = list(ds.open(out, raw=True))
    assert [r["digest"] for r in raw] == [ds.digest(level) for level in levels]
    assert raw[260]["entry"] == 1 and raw[260]["slot"] == 0 and raw[0]["tiles"].shape == (19, 19)


def test_entries_with_masks_rooms_places_and_requirements_read_back_as_generated(tmp_path):
    mask = ["########", ".######.", "########", "########"]
    spec = {"levels": [
        {"generator": "wilson", "width": 12, "height": 10, "count": 6, "shard_size": 4,
         "require": {"dead_ends": [10, None]}, "markers": "farthest"},
        {"generator": "backtracker", "width": 14, "height": 10, "count": 4, "rooms": 2, "corridor": 2,
         "place": [{"kind": "coin", "count": 3}]},
        {"generator": "kruskal", "width": 8, "height": 4, "count": 3, "markers": "none", "mask": mask},
    ]}
    ds.build(spec, tmp_path / "mixed", workers=1)
    levels = list(ds.open(tmp_path / "mixed"))
    assert len(levels) == 13
    assert all(level.stats().dead_ends >= 10 for level in levels[:6])
    remade = [mp.generate("wilson", 12, 10, seed=level.seed, markers="farthest") for level in levels[:6]]
    remade += [mp.generate("backtracker", 14, 10, seed=level.seed, rooms=2, corridor=2, place=[mp.Place("coin", 3)])
               for level in levels[6:10]]
    remade += [mp.generate("kruskal", 8, 4, seed=seed, markers="none", mask=mask) for seed in range(3)]
    assert [ds.digest(level) for level in levels] == [ds.digest(level) for level in remade]
    assert [t.kind for t in levels[6].things] == ["coin"] * 3 and levels[-1].entrance is None


def test_a_slot_whose_level_cannot_hold_the_content_takes_a_derived_seed(tmp_path):
    # backtracker 9 x 9 seed 170 has no corridor every route crosses: no room for a locked door.
    with pytest.raises(ValueError, match="keys=1 does not fit"):
        mp.generate("backtracker", 9, 9, seed=170, keys=1)
    spec = {"generator": "backtracker", "width": 9, "height": 9, "count": 5, "first_seed": 168, "keys": 1}
    manifest = ds.build(spec, tmp_path / "keys", workers=1)
    levels = list(ds.open(tmp_path / "keys"))
    assert [level.seed for level in levels[:2]] == [168, 169]
    assert levels[2].seed != 170 and [t.kind for t in levels[2].things] == ["key", "door"]
    again = mp.generate("backtracker", 9, 9, seed=levels[2].seed, keys=1)
    assert ds.digest(again) == ds.digest(levels[2])
    assert manifest["entries"][0]["refitted"] == 1


def test_an_entry_without_stats_keeps_the_same_levels_in_leaner_shards(tmp_path, built):
    out, manifest = built
    lean_spec = {"levels": [dict(SPEC["levels"][0], stats=False), SPEC["levels"][1]]}
    lean = ds.build(lean_spec, tmp_path / "lean", workers=1)
    assert lean["spec_sha256"] != manifest["spec_sha256"]
    first = lean["shards"][0]
    assert first["bytes"] < manifest["shards"][0]["bytes"]
    with np.load(tmp_path / "lean" / first["file"]) as z:
        assert not any(name.startswith("stats_") for name in z.files) and "tiles" in z.files
    assert checksums(lean)[6:] == checksums(manifest)[6:]  # the second entry is unchanged
    assert [r["digest"] for r in ds.open(tmp_path / "lean", raw=True)] == [r["digest"] for r in ds.open(out, raw=True)]
    with pytest.raises(ds.SpecError, match="stats must be true or false"):
        ds.parse_spec({"generator": "kruskal", "width": 3, "height": 3, "count": 1, "stats": "no"})


# -- folders: no overwriting, resuming, verifying ----------------------------------------


def test_a_folder_with_another_spec_or_other_files_is_refused_untouched(tmp_path, built):
    out, _ = built
    before = {p.name: file_sha256(p) for p in out.iterdir()}
    other = {"generator": "kruskal", "width": 9, "height": 9, "count": 5}
    with pytest.raises(ds.DatasetError, match="holds a dataset of another spec"):
        ds.build(other, out, workers=1)
    with pytest.raises(ds.DatasetError, match="another unique setting"):
        ds.build(SPEC, out, workers=1, unique=True)
    assert {p.name: file_sha256(p) for p in out.iterdir()} == before
    older = tmp_path / "older"
    ds.build(SPEC["levels"][0], older, workers=1)
    manifest_path = older / ds.MANIFEST
    recorded = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest_path.write_text(json.dumps(dict(recorded, mazeplugin="0.0.1")), encoding="utf-8")
    with pytest.raises(ds.DatasetError, match="another mazeplugin version"):
        ds.build(SPEC["levels"][0], older, workers=1)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ds.DatasetError, match="not empty and holds no dataset"):
        ds.build(other, busy, workers=1)
    assert sorted(p.name for p in busy.iterdir()) == ["notes.txt"]
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    with pytest.raises(ds.DatasetError, match="not a folder"):
        ds.build(other, afile, workers=1)


def test_verify_names_each_bad_shard_and_build_remakes_only_those(tmp_path, built):
    _, manifest = built
    out = tmp_path / "copy"
    ds.build(SPEC, out, workers=2)
    names = [s["file"] for s in manifest["shards"]]
    broken, missing = out / names[1], out / names[7]
    data = bytearray(broken.read_bytes())
    data[-40] ^= 1
    broken.write_bytes(bytes(data))
    missing.unlink()
    (out / (names[3] + ".partial-99")).write_bytes(b"half a shard")
    status, _, err = run_cli(["verify", str(out)])
    assert status == 1
    assert f"{names[1]}: checksum differs" in err and f"{names[7]}: missing" in err
    assert names[0] not in err
    kept = {name: os.stat(out / name).st_mtime_ns for name in names if name not in (names[1], names[7])}
    again = ds.build(SPEC, out, workers=2)
    assert checksums(again) == checksums(manifest)
    assert ds.verify(out) == []
    assert {name: os.stat(out / name).st_mtime_ns for name in kept} == kept  # good shards were not rewritten
    assert not any(".partial-" in p.name for p in out.iterdir())


def test_an_interrupted_build_resumes_where_it_stopped(tmp_path, built, monkeypatch):
    _, manifest = built
    out = tmp_path / "interrupted"
    real = build_module.run_shard
    calls = []

    def stops_after_three(task):
        if len(calls) == 3:
            raise KeyboardInterrupt
        calls.append(task.file)
        return real(task)

    monkeypatch.setattr(build_module, "run_shard", stops_after_three)
    with pytest.raises(KeyboardInterrupt):
        ds.build(SPEC, out, workers=1)
    half = ds.read_manifest(out)
    assert not half["complete"]
    assert [s["file"] for s in half["shards"] if s["sha256"]] == calls
    assert sorted(p.name for p in out.iterdir() if p.suffix == ".npz") == sorted(calls)
    assert any("not built yet" in problem for problem in ds.verify(out))
    with pytest.raises(ds.DatasetError, match="did not finish"):
        next(iter(ds.open(out)))
    monkeypatch.setattr(build_module, "run_shard", real)
    made = []
    monkeypatch.setattr(build_module, "run_shard", lambda task: made.append(task.file) or real(task))
    again = ds.build(SPEC, out, workers=1)
    assert set(made).isdisjoint(calls) and len(made) == len(manifest["shards"]) - 3
    assert checksums(again) == checksums(manifest)


# -- unique ------------------------------------------------------------------------------


def test_unique_replaces_repeats_by_reserved_seeds_the_same_on_every_run(tmp_path):
    spec = {"generator": "kruskal", "width": 3, "height": 3, "count": 80, "shard_size": 16, "reserve_seed": 5000}
    one = ds.build(spec, tmp_path / "one", workers=1, unique=True)
    two = ds.build(spec, tmp_path / "two", workers=2, unique=True)
    assert checksums(one) == checksums(two)
    entry = one["entries"][0]
    assert entry["duplicates"] > 0 and len(entry["replacements"]) == entry["duplicates"]
    levels = list(ds.open(tmp_path / "one"))
    assert len(levels) == 80 and len({ds.digest(level) for level in levels}) == 80
    replaced = dict(entry["replacements"])
    for slot, level in enumerate(levels):
        assert level.seed == replaced.get(slot, slot)
    assert all(seed >= 5000 for seed in replaced.values())
    # Without --unique the repeats stay: the first level of each repeat is where it was.
    plain = list(ds.open(ds.build(spec, tmp_path / "plain", workers=1) and tmp_path / "plain"))
    kept = [slot for slot in range(80) if slot not in replaced]
    assert [ds.digest(plain[slot]) for slot in kept] == [ds.digest(levels[slot]) for slot in kept]


def test_unique_says_when_a_size_has_too_few_levels(tmp_path):
    spec = {"generator": "kruskal", "width": 1, "height": 2, "count": 3}  # one maze only
    with pytest.raises(ds.DatasetError, match="too few distinct levels"):
        ds.build(spec, tmp_path / "tiny", workers=1, unique=True)


# -- the command line ------------------------------------------------------------------


def test_cli_builds_verifies_and_describes(tmp_path, built):
    _, manifest = built
    spec_path = tmp_path / "spec.json"
    spec_path.write_text(json.dumps(SPEC), encoding="utf-8")
    out = tmp_path / "cli"
    status, _, err = run_cli(["build", str(spec_path), str(out), "--workers", "2"])
    assert status == 0 and "350 levels in 9 shards" in err
    assert checksums(ds.read_manifest(out)) == checksums(manifest)
    status, text, _ = run_cli(["verify", str(out)])
    assert status == 0 and "every shard matches" in text
    status, text, _ = run_cli(["info", str(out)])
    assert status == 0 and "350 levels in 9 npz shards" in text and "wilson 6x5, 90 levels, seeds 1000..1089" in text
    status, text, _ = run_cli(["info", str(out), "--json"])
    assert json.loads(text)["levels"] == 350
    status, _, err = run_cli(["build", str(spec_path), str(out), "--workers", "0"])
    assert status == 2 and "--workers" in err
    status, _, err = run_cli(["info", str(tmp_path)])
    assert status == 1 and "holds no dataset" in err


def test_python_dash_m_runs_the_dataset_cli(tmp_path, built):
    out, _ = built
    env = child_env(PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "mazeplugin.dataset", "verify", str(out)],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr


def test_importing_the_dataset_layer_leaves_ray_and_pyarrow_unimported():
    code = ("import sys, mazeplugin; assert 'mazeplugin.dataset' not in sys.modules; "
            "import mazeplugin.dataset; print(sorted(m for m in ('ray', 'pyarrow') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_dataset_layer_sits_on_top_and_keeps_its_heavy_imports_inside():
    package = ROOT / "mazeplugin"
    below: List[str] = []
    heavy: Dict[str, set] = {}
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(package).as_posix()
        hook = name == "cli.py" or name.startswith("cli/")  # `mazeplugin dataset ...` hands over to dataset.cli
        if not name.startswith("dataset/") and not hook and re.search(r"^\s*(?:from|import)\s+(?:mazeplugin)?\.*dataset\b", text, re.M):
            below.append(name)
        for module in re.findall(r"^\s*(?:from|import)\s+(ray|pyarrow|tomli|tomllib)\b", text, re.M):
            heavy.setdefault(module, set()).add(name)
    assert below == []  # nothing below imports the dataset layer (but the command line's hook)
    # Ray, pyarrow and the TOML readers only in the dataset modules that need them (inside functions:
    # test_importing_the_dataset_layer_leaves_ray_and_pyarrow_unimported).
    assert heavy == {"ray": {"dataset/ray_engine.py"}, "pyarrow": {"dataset/parquet.py", "dataset/parquet_check.py", "dataset/building.py"},
                     "tomli": {"dataset/spec.py"}, "tomllib": {"dataset/spec.py"}}


# -- optional engines and formats ---------------------------------------------------------


def test_parquet_shards_hold_the_same_levels(tmp_path, built):
    pytest.importorskip("pyarrow")
    import pyarrow.dataset as pads

    out, _ = built
    one = ds.build(SPEC, tmp_path / "pq1", workers=1, file_format="parquet")
    two = ds.build(SPEC, tmp_path / "pq2", workers=2, file_format="parquet")
    assert checksums(one) == checksums(two)
    assert [ds.digest(level) for level in ds.open(tmp_path / "pq1")] == [r["digest"] for r in ds.open(out, raw=True)]
    table = pads.dataset(str(tmp_path / "pq1"), format="parquet", exclude_invalid_files=True).to_table()
    assert table.num_rows == 350
    row = table.slice(261, 1).to_pylist()[0]
    level = mp.generate("wilson", 6, 5, seed=row["seed"], keys=1, treasure=2, braid=0.3)
    tiles = np.frombuffer(row["tiles"], dtype=np.uint8).reshape(row["rows"], row["columns"])
    assert (tiles == level.tiles).all() and row["digest"] == ds.digest(level)
    assert row["stats_solution_length"] == level.stats().solution_length


def test_ray_engine_writes_the_same_shards_as_the_process_pool(tmp_path, built):
    pytest.importorskip("ray")
    import ray

    _, manifest = built
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = ds.build(SPEC, tmp_path / "ray", engine="ray", workers=2)
    finally:
        ray.shutdown()
    assert checksums(on_ray) == checksums(manifest)
    assert ds.verify(tmp_path / "ray") == []


def test_a_grid_level_spec_checks_its_shard_size_before_any_work(tmp_path):
    # Grid levels are stored (tests/test_dataset_grids.py); a shard of them must still fit in memory.
    with pytest.raises(ds.SpecError, match="shard_size"):
        ds.build({"generator": "backtracker", "width": 200, "height": 200, "count": 100_000, "shard_size": 100_000,
                  "grid": "hex"}, str(tmp_path / "out"))
    assert not (tmp_path / "out").exists()
