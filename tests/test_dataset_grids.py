"""Datasets of hex, triangle, polar and wrapping levels (grid=, wrap=): passages in the shards, a digest over them."""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import mazeplugin as mp
import mazeplugin.dataset as ds

SPEC: Dict[str, Any] = {"levels": [
    {"generator": "backtracker", "width": 6, "height": 5, "count": 30, "shard_size": 12, "grid": "hex"},
    {"generator": "wilson", "width": 5, "height": 4, "count": 10, "grid": "triangle", "markers": "none"},
    {"generator": "kruskal", "width": 4, "height": 3, "count": 10, "grid": "polar", "braid": 0.5},
    {"generator": "backtracker", "width": 6, "height": 4, "count": 10, "wrap": "x"},
    {"generator": "backtracker", "width": 5, "height": 5, "count": 5},  # a square entry beside them
]}
OWN = ("generator", "width", "height", "count", "shard_size", "first_seed", "columns")


def generated(entry: Dict[str, Any], seed: int) -> Any:
    return mp.generate(entry["generator"], entry["width"], entry["height"], seed=seed,
                       **{k: v for k, v in entry.items() if k not in OWN})


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Tuple[Any, Dict[str, Any]]:
    out = tmp_path_factory.mktemp("grids") / "levels"
    return out, ds.build(SPEC, out, workers=1)


def test_grid_digests_are_pinned():
    # The grid digest's byte layout is a promise like the square one's (mazeplugin/dataset/digest.py).
    assert ds.digest(mp.generate("backtracker", 6, 5, seed=1, grid="hex")) == (
        "6755e6556c7f1ba180a7d34aa838264ebf9520e0ab50e6dc3d739e8b44f168fa")
    assert ds.digest(mp.generate("wilson", 4, 3, seed=2, grid="polar")) == (
        "e37ebda42410dd40dfdc8dcb4410aaf2817e4a13da8c16089cd47cad5cb411fa")
    assert ds.digest(mp.generate("kruskal", 5, 4, seed=3, wrap="xy")) == (
        "aad3d45a58630a78ec68da3354d764aa2979d5ce94647e0805255049621ba854")


def test_grid_digest_changes_with_any_passage_or_marker_and_not_with_the_seed():
    level = mp.generate("wilson", 5, 4, seed=9, grid="triangle")
    base = ds.digest(level)
    for edge in (0, len(level.maze.open) // 2, len(level.maze.open) - 1):
        flipped = level.maze.open.copy()
        flipped[edge] = not flipped[edge]
        other = mp.Level(type(level.maze)(level.maze.grid, flipped), width=5, height=4, entrance=level.entrance_cell,
                         exit=level.exit_cell, openings=level.openings, algorithm=level.algorithm, seed=level.seed,
                         options=level.options)
        assert ds.digest(other) != base
    moved = mp.Level(level.maze, width=5, height=4, entrance=level.exit_cell, exit=level.entrance_cell,
                     openings=level.openings[::-1], algorithm="kruskal", seed=12345, options=level.options)
    assert ds.digest(moved) != base
    same_maze = mp.Level(level.maze, width=5, height=4, entrance=level.entrance_cell, exit=level.exit_cell,
                         openings=level.openings, algorithm="kruskal", seed=12345, options=level.options)
    assert ds.digest(same_maze) == base  # what the level is, not how it was made
    # The same passages on another grid (a hex grid of as many edges is not this level): other digests.
    assert ds.digest(mp.generate("wilson", 5, 4, seed=9, grid="hex")) != base


def test_grid_shards_are_the_same_bytes_with_1_and_2_workers(tmp_path, built):
    _, manifest = built
    two = ds.build(SPEC, tmp_path / "two", workers=2)
    assert [(s["file"], s["sha256"]) for s in two["shards"]] == [(s["file"], s["sha256"]) for s in manifest["shards"]]
    assert ds.verify(tmp_path / "two") == []


def test_grid_levels_read_back_as_generate_makes_them(built):
    out, manifest = built
    levels = list(ds.open(out))
    expected = [generated(entry, seed) for entry in SPEC["levels"] for seed in range(entry["count"])]
    assert len(levels) == len(expected) == manifest["levels"]
    assert [type(level).__name__ for level in levels] == [type(level).__name__ for level in expected]
    assert [level.to_json() for level in levels] == [level.to_json() for level in expected]
    assert [ds.digest(level) for level in levels] == [ds.digest(level) for level in expected]
    assert levels[0].solution_cells() == expected[0].solution_cells()
    entries = manifest["entries"]
    assert entries[0]["grid"] == "hex" and entries[0]["edges"] == len(expected[0].maze.open)
    assert "tile_shape" not in entries[0] and entries[4]["tile_shape"] == list(expected[-1].tiles.shape)


def test_grid_shard_columns_hold_passages_markers_and_stats(built):
    out, manifest = built
    record = manifest["shards"][0]
    with np.load(out / record["file"], allow_pickle=False) as shard:
        arrays = {name: shard[name] for name in shard.files}
    assert "tiles" not in arrays and "things" not in arrays
    edges = int(arrays["edge_count"][0])
    for i, seed in enumerate(arrays["seed"].tolist()):
        level = mp.generate("backtracker", 6, 5, seed=seed, grid="hex")
        assert (np.unpackbits(arrays["passages"][i], count=edges).astype(bool) == level.maze.open).all()
        assert (arrays["entrance"][i], arrays["exit"][i]) == (level.entrance_cell, level.exit_cell)
        assert [tuple(o) for o in arrays["openings"][i].tolist()] == [(c, -1 if s is None else s)
                                                                      for c, s in level.openings]
        figures = dataclasses.asdict(level.stats())
        assert arrays["stats_solution_length"][i] == figures["solution_length"]
        assert arrays["stats_longest_path"][i] == figures["longest_path"]
        assert arrays["stats_dead_ends"][i] == figures["dead_ends"]
        assert np.isnan(arrays["stats_turns"][i]) if arrays["stats_turns"].dtype.kind == "f" else (
            arrays["stats_turns"][i] == -1)  # None on a hex grid
        assert bytes(arrays["digest"][i]).hex() == ds.digest(level)
    raw = next(iter(ds.open(out, raw=True)))
    assert raw["passages"].dtype == bool and raw["entrance"] == arrays["entrance"][0]


def test_unique_replaces_repeated_grid_levels(tmp_path):
    # A polar grid of 3 cells in one ring has few mazes: repeats are certain among 12 seeds.
    spec = {"generator": "kruskal", "width": 3, "height": 1, "count": 3, "grid": "polar", "markers": "none"}
    plain = list(ds.open(ds.build(spec, tmp_path / "plain", workers=1) and tmp_path / "plain"))
    assert len({ds.digest(level) for level in plain}) < 3
    manifest = ds.build(spec, tmp_path / "unique", workers=1, unique=True)
    levels = list(ds.open(tmp_path / "unique"))
    assert len({ds.digest(level) for level in levels}) == 3 and manifest["entries"][0]["duplicates"] >= 1


def test_grid_levels_in_parquet_read_back_and_open_with_pyarrow(tmp_path, built):
    pytest.importorskip("pyarrow")
    import pyarrow.dataset as pads

    out, _ = built
    one = ds.build(SPEC, tmp_path / "pq1", workers=1, file_format="parquet")
    two = ds.build(SPEC, tmp_path / "pq2", workers=2, file_format="parquet")
    assert [s["sha256"] for s in one["shards"]] == [s["sha256"] for s in two["shards"]]
    assert ds.verify(tmp_path / "pq1") == []
    from_npz = [level.to_json() for level in ds.open(out)]
    assert [level.to_json() for level in ds.open(tmp_path / "pq1")] == from_npz
    files = [str(tmp_path / "pq1" / s["file"]) for s in one["shards"] if s["entry"] == 2]  # the polar entry
    table = pads.dataset(files, format="parquet").to_table()
    row = table.slice(3, 1).to_pylist()[0]
    level = mp.generate("kruskal", 4, 3, seed=row["seed"], grid="polar", braid=0.5)
    assert row["grid"] == "polar" and row["wrap"] == "" and row["edges"] == len(level.maze.open)
    assert np.frombuffer(row["passages"], dtype=np.uint8).astype(bool).tolist() == level.maze.open.tolist()
    assert (row["entrance"], row["exit"]) == (level.entrance_cell, level.exit_cell) and row["digest"] == ds.digest(level)
    assert row["stats_solution_length"] == level.stats().solution_length and row["stats_turns"] is None


COLUMN_SPEC: Dict[str, Any] = {"levels": [
    {"generator": "backtracker", "width": 7, "height": 6, "count": 8, "shard_size": 5, "grid": "hex", "keys": 1,
     "columns": ["solution", "distances"]},
    {"generator": "wilson", "width": 5, "height": 4, "count": 5, "grid": "triangle", "columns": ["solution"]},
    {"generator": "kruskal", "width": 4, "height": 3, "count": 5, "grid": "polar", "braid": 0.5,
     "columns": ["distances"]},
    {"generator": "backtracker", "width": 6, "height": 4, "count": 5, "wrap": "x", "columns": ["solution", "distances"]},
]}


@pytest.mark.parametrize("file_format", ["npz", "parquet"])
def test_grid_columns_are_each_levels_cells(tmp_path, file_format):
    """Grid entries' solution (cells, key detours included) and distances (one a cell) read back as each
    level's own; every other column of a shard is the one the entry makes without columns."""
    if file_format == "parquet":
        pytest.importorskip("pyarrow")
    ds.build(COLUMN_SPEC, tmp_path / "cols", workers=1, file_format=file_format)
    plain = {"levels": [{k: v for k, v in e.items() if k != "columns"} for e in COLUMN_SPEC["levels"]]}
    ds.build(plain, tmp_path / "plain", workers=1, file_format=file_format)
    seen = 0
    for level, bare in zip(ds.open(tmp_path / "cols"), ds.open(tmp_path / "plain")):
        assert level.kind != "square" and ds.digest(level) == ds.digest(bare)
        columns = level.columns
        entry = next(e for e in COLUMN_SPEC["levels"] if e.get("grid", "square") == level.grid
                     and (e.get("wrap") is not None) == (level.options.get("wrap") is not None))
        assert sorted(columns) == sorted(entry["columns"])
        made = generated(entry, level.seed)  # (with its keys and doors: a grid shard holds no things)
        if "solution" in columns:
            assert columns["solution"].dtype == np.int32 and columns["solution"].tolist() == made.solution_cells()
        if "distances" in columns:
            assert columns["distances"].shape == (level.cells,)
            assert (columns["distances"] == made.distances_cells()).all() and columns["distances"][level.entrance_cell] == 0
        seen += 1
    assert seen == 23
    raw = next(iter(ds.open(tmp_path / "cols", raw=True)))
    assert raw["columns"]["solution"].tolist() == generated(COLUMN_SPEC["levels"][0], raw["seed"]).solution_cells()
    if file_format == "npz":  # the shards without columns are the same bytes as before, the columns after them
        for path in sorted((tmp_path / "plain").glob("*.npz")):
            with np.load(path) as a, np.load(tmp_path / "cols" / path.name) as b:
                assert b.files[:len(a.files)] == a.files
                assert all(a[k].tobytes() == b[k].tobytes() for k in a.files)
                assert set(b.files[len(a.files):]) <= {"solution", "solution_offsets", "solution_length", "distances"}


@pytest.mark.parametrize("grid, column", [("hex", "moves"), ("triangle", "actions"), ("polar", "images"),
                                          ("hex", "tokens"), ("wrap", "moves")])
def test_grid_entries_refuse_columns_they_have_not(grid, column):
    entry: Dict[str, Any] = {"generator": "backtracker", "width": 5, "height": 4, "count": 2,
                             "columns": ["solution", column]}
    entry.update({"wrap": "x"} if grid == "wrap" else {"grid": grid})
    what = "wrapping square" if grid == "wrap" else grid
    with pytest.raises(ds.SpecError, match=f"column '{column}' is not defined on {what} levels .*take the columns "
                                           "solution, distances"):
        ds.parse_spec(entry)
    with pytest.raises(ds.SpecError, match="need an entrance and an exit"):
        ds.parse_spec({**entry, "columns": ["distances"], "markers": "none"})
