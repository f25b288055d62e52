"""Weave levels in datasets: shards keep each level's bridges, the digest covers them, nothing else moves."""

from __future__ import annotations

import dataclasses
import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import mazeplugin as mp
import mazeplugin.dataset as ds
from mazeplugin.dataset import figures
from mazeplugin.dataset.cli import main
from mazeplugin.formats.rebuild import level_from_tiles

MASK = ["########", ".######.", "########", "########"]
# A plain entry first (the first entry of tests/test_dataset_figures.py, whose shard checksums are
# pinned there), then weave entries: every crossing, a share of them with braid and farthest
# markers, a mask, and weave=0.3 on a size where some levels get no crossing at all.
PLAIN = {"generator": "backtracker", "width": 9, "height": 9, "count": 120, "shard_size": 60}
PLAIN_PINNED = ["c3934ea40f74b7b4bffe4b1f6a58ab30e49e24d9327727f988ddb677906dbc5e",
                "dc0438a8fd699089c2b1acccd9a49ab9cc7aa2aba1be2289f45d9cf9d574df26"]
WEAVE = [
    {"generator": "backtracker", "width": 10, "height": 8, "count": 20, "shard_size": 7, "weave": True},
    {"generator": "kruskal", "width": 9, "height": 7, "count": 12, "weave": 0.5, "braid": 0.5,
     "markers": "farthest"},
    {"generator": "wilson", "width": 8, "height": 4, "count": 8, "weave": True, "mask": MASK},
    {"generator": "kruskal", "width": 4, "height": 3, "count": 10, "weave": 0.3},
]
SPEC: Dict[str, Any] = {"levels": [PLAIN] + WEAVE}
OWN = ("generator", "width", "height", "count", "shard_size", "first_seed")


def generated(entry: Dict[str, Any], seed: int) -> mp.Level:
    level = mp.generate(entry["generator"], entry["width"], entry["height"], seed=seed,
                        **{k: v for k, v in entry.items() if k not in OWN})
    assert isinstance(level, mp.Level)
    return level


def checksums(manifest: Dict[str, Any]) -> List[Tuple[str, str]]:
    return [(s["file"], s["sha256"]) for s in manifest["shards"]]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Tuple[Path, Dict[str, Any]]:
    out = tmp_path_factory.mktemp("weave") / "levels"
    return out, ds.build(SPEC, out, workers=1)


def assert_same_level(level: Any, made: mp.Level) -> None:
    assert isinstance(level, mp.Level)
    assert level.tiles.tobytes() == made.tiles.tobytes()
    assert level.weave == made.weave and level.bridges.tobytes() == made.bridges.tobytes()
    assert (level.entrance, level.exit, level.seed) == (made.entrance, made.exit, made.seed)
    assert level.solution() == made.solution()
    assert level.stats() == made.stats()
    assert level.to_json() == made.to_json()
    assert ds.digest(level) == ds.digest(made)


def assert_dataset_is_generated(out: Path) -> None:
    levels = list(ds.open(out))
    assert len(levels) == sum(entry["count"] for entry in SPEC["levels"])
    made = [generated(entry, seed) for entry in SPEC["levels"] for seed in range(entry["count"])]
    assert any(level.weave for level in made) and not all(level.weave for level in made[120:])
    for level, expected in zip(levels, made):
        assert_same_level(level, expected)


# -- the digest ------------------------------------------------------------------------------


def test_weave_digest_is_pinned_and_differs_from_the_same_tiles_without_bridges():
    level = mp.generate("backtracker", 10, 8, seed=2, weave=True)
    assert level.weave
    assert ds.digest(level) == "5776763fc1b4d2a15c7a70a2021c57fddcc8b0dcbc609ed93f8aa28a45d697df"
    bare = level_from_tiles(level.tiles, entrance=level.entrance, exit=level.exit)
    assert not bare.weave and ds.digest(bare) != ds.digest(level)
    again = level_from_tiles(level.tiles, entrance=level.entrance, exit=level.exit, bridges=level.bridges)
    assert ds.digest(again) == ds.digest(level)  # the level, not how it was made
    # One bridge turned (its tunnel north-south where it ran east-west, over the same crossing floor):
    # the same tiles and markers, another level.
    ys, xs = np.nonzero(level.bridges)
    turned = level.bridges.copy()
    turned[ys[0], xs[0]] = 3 - turned[ys[0], xs[0]]
    other = level_from_tiles(level.tiles, entrance=level.entrance, exit=level.exit, bridges=turned)
    assert ds.digest(other) not in (ds.digest(level), ds.digest(bare))


def test_a_weave_level_without_crossings_hashes_as_the_plain_level_it_is():
    level = mp.generate("kruskal", 4, 3, seed=0, weave=0.3)
    assert not level.weave
    bare = level_from_tiles(level.tiles, entrance=level.entrance, exit=level.exit)
    assert ds.digest(level) == ds.digest(bare)


def test_every_non_weave_digest_stays_as_pinned():
    # The pins of tests/test_dataset.py, again beside the weave layout: weave touched none of them.
    assert ds.DIGEST_VERSION == 1
    assert ds.digest(mp.generate("backtracker", 9, 9, seed=1)) == (
        "464cb0e6e45272b92c349b92ffa1f10d4717dd790881ba795e1c0a449083af5d")
    assert ds.digest(mp.generate("kruskal", 4, 3, seed=7, markers="none")) == (
        "ef87acbd5057bdc7cbaf9e5e5d95b5db72292934af1131985946484de237a783")


# -- shards ----------------------------------------------------------------------------------


def test_weave_shards_read_back_as_generate_makes_them(built):
    out, manifest = built
    assert manifest["complete"] and ds.verify(out) == []
    assert_dataset_is_generated(out)


def test_only_weave_shards_hold_bridges_and_the_plain_shards_keep_their_checksums(built):
    out, manifest = built
    plain = [s for s in manifest["shards"] if s["entry"] == 0]
    assert [s["sha256"] for s in plain] == PLAIN_PINNED
    for record in manifest["shards"]:
        with np.load(out / record["file"], allow_pickle=False) as z:
            assert ("bridges" in z.files) == (record["entry"] > 0)
            if record["entry"] == 0:
                continue
            rows, columns = (int(n) for n in z["tile_shape"])
            planes = np.unpackbits(z["bridges"], axis=-1, count=columns)  # as the shards docstring says
            layers = planes[:, 0] + 2 * planes[:, 1]
            entry = SPEC["levels"][record["entry"]]
            for i, (layer, seed) in enumerate(zip(layers, z["seed"].tolist())):
                made = generated(entry, seed)
                assert layer.tobytes() == made.bridges.tobytes()
                kept = {name: figures._value(name, z["stats_" + name][i]) for name in figures.STATS_FIELDS}
                assert kept == dataclasses.asdict(made.stats())  # the figures walk over and under bridges


def test_raw_rows_of_a_weave_entry_carry_the_bridges(built):
    out, _ = built
    rows = list(ds.open(out, raw=True))
    assert all("bridges" not in row for row in rows[:120])
    for row in rows[120:]:
        made = generated(SPEC["levels"][row["entry"]], row["seed"])
        assert row["bridges"].tobytes() == made.bridges.tobytes() and row["digest"] == ds.digest(made)


def test_weave_shard_bytes_are_the_same_with_1_and_2_workers(tmp_path, built):
    _, one = built
    assert checksums(ds.build(SPEC, tmp_path / "two", workers=2)) == checksums(one)


def test_weave_shards_in_parquet_read_back_and_keep_the_plain_shards_bytes(tmp_path):
    pytest.importorskip("pyarrow")
    import pyarrow.dataset as pads

    one = ds.build(SPEC, tmp_path / "one", workers=1, file_format="parquet")
    two = ds.build(SPEC, tmp_path / "two", workers=2, file_format="parquet")
    assert checksums(one) == checksums(two) and ds.verify(tmp_path / "one") == []
    alone = ds.build({"levels": [PLAIN]}, tmp_path / "alone", workers=1, file_format="parquet")
    assert checksums(alone) == [c for c, s in zip(checksums(one), one["shards"]) if s["entry"] == 0]
    assert_dataset_is_generated(tmp_path / "one")
    import pyarrow as pa
    import pyarrow.parquet as pq

    # Weave shards have one column more: pyarrow reads the folder as one table given the unified schema.
    files = sorted(str(p) for p in (tmp_path / "one").glob("*.parquet"))
    schema = pa.unify_schemas([pq.read_schema(f) for f in files])
    table = pads.dataset(files, format="parquet", schema=schema).to_table()
    assert table.num_rows == 170 and table["bridges"].null_count == 120
    row = table.slice(125, 1).to_pylist()[0]
    made = generated(SPEC["levels"][row["entry"]], row["seed"])
    bridges = np.frombuffer(row["bridges"], dtype=np.uint8).reshape(row["rows"], row["columns"])
    assert bridges.tobytes() == made.bridges.tobytes() and row["digest"] == ds.digest(made)
    assert row["stats_solution_length"] == made.stats().solution_length


def test_unique_tells_weave_levels_apart_by_their_bridges(tmp_path):
    # 3 x 3 has few levels (repeats happen) and a bridge in some: over the middle cell.
    spec = {"generator": "kruskal", "width": 3, "height": 3, "count": 40, "shard_size": 16, "weave": True,
            "reserve_seed": 5000}
    one = ds.build(spec, tmp_path / "one", workers=1, unique=True)
    two = ds.build(spec, tmp_path / "two", workers=2, unique=True)
    assert checksums(one) == checksums(two)
    entry = one["entries"][0]
    assert entry["duplicates"] > 0 and len(entry["replacements"]) == entry["duplicates"]
    levels = list(ds.open(tmp_path / "one"))
    keys = {(level.tiles.tobytes(), level.entrance, level.exit, level.bridges.tobytes()) for level in levels}
    assert len(keys) == 40 and len({ds.digest(level) for level in levels}) == 40
    assert any(level.weave for level in levels)
    replaced = dict(entry["replacements"])
    for slot, level in enumerate(levels):
        assert_same_level(level, mp.generate("kruskal", 3, 3, seed=replaced.get(slot, slot), weave=True))


def test_cli_builds_verifies_and_describes_a_weave_dataset(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"levels": WEAVE[:2]}), encoding="utf-8")
    out = tmp_path / "out"
    for argv in (["build", str(spec), str(out), "--workers", "1", "-q"], ["verify", str(out)], ["info", str(out)]):
        stdout, stderr = io.StringIO(), io.StringIO()
        with redirect_stdout(stdout), redirect_stderr(stderr):
            assert main(argv) == 0, stderr.getvalue()
    assert "backtracker" in stdout.getvalue() and "Traceback" not in stderr.getvalue()
    assert ds.info(out)["levels"] == 32


def test_a_weave_entry_with_what_weave_cannot_take_is_refused_naming_the_entry(tmp_path):
    # (weave with rooms: BAD_SPECS in tests/test_dataset.py)
    with pytest.raises(ds.SpecError, match=r"levels\[0\].*corridor=1, wall=1 only"):
        ds.build({"generator": "backtracker", "width": 9, "height": 9, "count": 5, "weave": True, "corridor": 2},
                 tmp_path / "never", workers=1)
    assert not (tmp_path / "never").exists()


# -- figures ---------------------------------------------------------------------------------


def test_shard_figures_of_weave_levels_are_their_own_stats(monkeypatch):
    monkeypatch.setattr(figures, "COMPILED_MIN_CELLS", 0)  # the compiled pass, where it is on, sees every shard
    levels = [mp.generate("backtracker", 10, 8, seed=s, weave=True, braid=b) for s in range(4) for b in (0, 0.5)]
    levels.append(mp.generate("backtracker", 10, 8, seed=1))  # and a plain one beside them
    assert sum(level.weave for level in levels) == 8
    columns = figures.shard_stats(levels)
    for i, level in enumerate(levels):
        got = {name: figures._value(name, columns[name][i]) for name in figures.STATS_FIELDS}
        assert got == dataclasses.asdict(level.stats())
    from mazeplugin.compiled import available

    if available():
        rows = figures._compiled_rows(levels)
        assert rows[:8] == [None] * 8 and rows[8] == dataclasses.asdict(levels[8].stats())
