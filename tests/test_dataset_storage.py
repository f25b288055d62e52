"""Where datasets live: the one-build-per-folder lock (two real processes), fsspec URLs, Hugging Face loading."""

from __future__ import annotations

import hashlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import mazeplugin as mp
import mazeplugin.dataset as ds
from mazeplugin.dataset.storage import LOCK_FILE, Folder

from processes import child_env

ROOT = Path(__file__).resolve().parent.parent
HANG_GUARD = 300  # seconds: only ends a stuck child process, never judges speed

SPEC: Dict[str, Any] = {
    "levels": [
        {"generator": "backtracker", "width": 9, "height": 9, "count": 60, "shard_size": 25},
        {"generator": "wilson", "width": 6, "height": 5, "count": 30, "first_seed": 1000, "shard_size": 16,
         "keys": 1, "treasure": 2},
    ]
}

# A real build in a child process that stops inside its first shard until its standard input closes.
HOLDER = textwrap.dedent("""
    import json, sys
    import mazeplugin.dataset as ds
    from mazeplugin.dataset import building
    real = building.run_shard
    def waits(task):
        print("building", flush=True)
        sys.stdin.readline()
        return real(task)
    building.run_shard = waits
    ds.build(json.loads(sys.argv[1]), sys.argv[2], workers=1)
    print("done", flush=True)
""")


def checksums(manifest: Dict[str, Any]) -> List[Tuple[str, str]]:
    return [(s["file"], s["sha256"]) for s in manifest["shards"]]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Tuple[Path, Dict[str, Any]]:
    out = tmp_path_factory.mktemp("dataset") / "levels"
    return out, ds.build(SPEC, out, workers=1)


def start_holder(out: Path) -> "subprocess.Popen[str]":
    env = child_env(PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = subprocess.Popen([sys.executable, "-c", HOLDER, json.dumps(SPEC), str(out)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    ready, _, _ = select.select([child.stdout], [], [], HANG_GUARD)
    if not ready:
        child.kill()
        pytest.fail("the holding build never started its first shard")
    line = child.stdout.readline()
    if line != "building\n":
        child.kill()
        pytest.fail(f"the holding build failed: {line!r} {child.communicate(timeout=HANG_GUARD)[1][-2000:]}")
    return child


# -- the lock ---------------------------------------------------------------------------


def test_a_second_build_into_a_folder_a_live_build_holds_fails_at_once_naming_it(tmp_path, built):
    out = tmp_path / "levels"
    holder = start_holder(out)
    try:
        lock = json.loads((out / LOCK_FILE).read_text())
        assert lock["pid"] == holder.pid and lock["host"] == socket.gethostname()
        before = sorted(p.name for p in out.iterdir())
        with pytest.raises(ds.DatasetError) as error:
            ds.build(SPEC, out, workers=1)
        message = str(error.value)
        assert str(out) in message and f"pid {holder.pid}" in message and socket.gethostname() in message
        assert sorted(p.name for p in out.iterdir()) == before  # the refused build touched nothing
        status, _, err = run_cli(["build", str(write_spec(tmp_path)), str(out), "-q"])
        assert status == 1 and f"pid {holder.pid}" in err
        stdout, stderr = holder.communicate("go\n", timeout=HANG_GUARD)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait(timeout=HANG_GUARD)
    assert holder.returncode == 0 and stdout.endswith("done\n"), stderr[-2000:]
    assert not (out / LOCK_FILE).exists()  # a finished build lets go of its folder
    assert checksums(ds.read_manifest(out)) == checksums(built[1])
    again = ds.build(SPEC, out, workers=1)  # and the folder can be built again (resumed: nothing to do)
    assert checksums(again) == checksums(built[1]) and ds.verify(out) == []


def test_the_lock_of_a_killed_build_is_taken_over_and_its_partial_shard_removed(tmp_path, built):
    out = tmp_path / "levels"
    holder = start_holder(out)
    (out / "000-backtracker-9x9-00000.npz.partial-999999").write_bytes(b"half a shard")
    holder.send_signal(signal.SIGKILL)
    holder.communicate(timeout=HANG_GUARD)
    assert json.loads((out / LOCK_FILE).read_text())["pid"] == holder.pid  # left behind, but no longer held
    manifest = ds.build(SPEC, out, workers=2)
    assert checksums(manifest) == checksums(built[1]) and ds.verify(out) == []
    assert sorted(p.name for p in out.iterdir()) == sorted([s["file"] for s in manifest["shards"]] + ["manifest.json"])


def test_a_lock_file_alone_does_not_make_a_folder_look_used(tmp_path):
    out = tmp_path / "levels"
    out.mkdir()
    (out / LOCK_FILE).write_text('{"pid": 1, "host": "elsewhere", "since": "then"}')  # nobody holds the flock
    assert ds.build({"generator": "kruskal", "width": 4, "height": 4, "count": 3}, out, workers=1)["complete"]


def test_a_write_once_lock_refuses_a_live_holder_and_takes_over_a_dead_one_on_this_host(tmp_path):
    pytest.importorskip("fsspec")
    folder = Folder("memory://mazeplugin-lock-test/a")
    folder.makedirs()
    with folder.lock() as first:
        assert first.previous is None
        with pytest.raises(ds.DatasetError, match=rf"memory://mazeplugin-lock-test/a .*pid {os.getpid()} on host"):
            folder.lock()
    assert LOCK_FILE not in folder.listdir()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          timeout=HANG_GUARD)
    pid = int(dead.stdout)  # a process that has ended: its lock is stale
    folder.write_atomic(LOCK_FILE, json.dumps({"pid": pid, "host": socket.gethostname(), "since": "x"}).encode())
    with folder.lock() as taken:
        assert taken.previous is not None and f"pid {pid}" in taken.previous
    folder.write_atomic(LOCK_FILE, json.dumps({"pid": pid, "host": "another-host", "since": "x"}).encode())
    with pytest.raises(ds.DatasetError, match=f"another-host.*delete memory://mazeplugin-lock-test/a/{LOCK_FILE}"):
        folder.lock()  # another machine's pid cannot be checked from here


# -- fsspec URLs ----------------------------------------------------------------------


def test_a_memory_url_dataset_has_the_same_bytes_and_levels_as_a_local_one(built):
    fsspec = pytest.importorskip("fsspec")
    out = "memory://mazeplugin-test/levels"
    manifest = ds.build(SPEC, out)  # memory:// lives in this process: one worker, here
    assert checksums(manifest) == checksums(built[1])
    fs = fsspec.filesystem("memory")
    for name, sha in checksums(manifest):
        assert hashlib.sha256(fs.cat_file(f"/mazeplugin-test/levels/{name}")).hexdigest() == sha
    assert not any(".partial-" in p or LOCK_FILE in p for p in fs.ls("/mazeplugin-test/levels", detail=False))
    assert ds.verify(out) == []
    assert ds.info(out)["levels"] == 90 and ds.info(out)["folder"] == out
    local = [ds.digest(level) for level in ds.open(built[0])]
    assert [ds.digest(level) for level in ds.open(out)] == local
    assert [r["digest"] for r in ds.open(out, raw=True)] == local
    level = next(iter(ds.open(out)))
    assert (level.tiles == mp.generate("backtracker", 9, 9, seed=0).tiles).all()
    fs.pipe_file(f"/mazeplugin-test/levels/{manifest['shards'][1]['file']}", b"not a shard")
    problems = ds.verify(out)
    assert len(problems) == 1 and manifest["shards"][1]["file"] in problems[0]
    assert checksums(ds.build(SPEC, out)) == checksums(built[1])  # resumed: the bad shard remade
    assert ds.verify(out) == []


def test_a_memory_url_refuses_workers_in_other_processes():
    pytest.importorskip("fsspec")
    for kwargs in ({"workers": 2}, {"engine": "ray"}):
        with pytest.raises(ds.DatasetError, match="memory:// file system lives in one process"):
            ds.build(SPEC, "memory://mazeplugin-test/refused", **kwargs)


def test_a_file_url_dataset_built_by_two_workers_matches_the_local_one(tmp_path, built):
    pytest.importorskip("fsspec")
    out = f"file://{tmp_path}/levels"
    manifest = ds.build(SPEC, out, workers=2)
    assert checksums(manifest) == checksums(built[1])
    assert sorted(p.name for p in (tmp_path / "levels").iterdir()) == sorted(
        [s["file"] for s in manifest["shards"]] + ["manifest.json"])
    assert ds.verify(out) == [] and ds.verify(tmp_path / "levels") == []  # the same folder either way
    assert [ds.digest(level) for level in ds.open(out)] == [ds.digest(level) for level in ds.open(built[0])]


def test_a_url_without_a_known_protocol_is_one_clear_error(tmp_path):
    pytest.importorskip("fsspec")
    with pytest.raises(ds.DatasetError, match="nosuchprotocol://x: fsspec cannot open this URL"):
        ds.build(SPEC, "nosuchprotocol://x")
    with pytest.raises(ds.DatasetError, match="fsspec cannot open"):
        ds.verify("nosuchprotocol://x")


def test_parquet_shards_on_a_memory_url_read_back(built):
    pytest.importorskip("fsspec")
    pytest.importorskip("pyarrow")
    out = "memory://mazeplugin-test/parquet"
    ds.build(SPEC, out, file_format="parquet")
    assert ds.verify(out) == []
    assert [r["digest"] for r in ds.open(out, raw=True)] == [r["digest"] for r in ds.open(built[0], raw=True)]


# -- Hugging Face datasets ------------------------------------------------------------------


def test_parquet_shards_load_with_hugging_face_datasets(tmp_path, monkeypatch, built):
    pytest.importorskip("pyarrow")
    datasets = pytest.importorskip("datasets")
    for name in ("HF_HOME", "HF_DATASETS_CACHE"):
        monkeypatch.setenv(name, str(tmp_path / "hf"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    out = tmp_path / "parquet"
    manifest = ds.build(SPEC, out, workers=1, file_format="parquet")
    files = [str(out / s["file"]) for s in manifest["shards"]]
    table = datasets.load_dataset("parquet", data_files=files, split="train", cache_dir=str(tmp_path / "hf"))
    assert table.num_rows == 90
    assert table["digest"] == [r["digest"] for r in ds.open(built[0], raw=True)]
    row = table[70]  # in the wilson entry, with content
    level = mp.generate("wilson", 6, 5, seed=row["seed"], keys=1, treasure=2)
    tiles = np.frombuffer(row["tiles"], dtype=np.uint8).reshape(row["rows"], row["columns"])
    assert (tiles == level.tiles).all() and row["generator"] == "wilson"
    assert row["stats_solution_length"] == level.stats().solution_length
    assert [t["kind"] for t in json.loads(row["things"])] == [t.kind for t in level.things]



def test_a_mixed_parquet_folder_loads_whole_with_its_unified_schema(tmp_path, monkeypatch):
    """Plain, weave and hex entries' shards have different columns: without the unified schema pyarrow keeps only the
    first file's and Hugging Face refuses the folder; with ``ds.parquet_schema`` both read every row and column."""
    pa = pytest.importorskip("pyarrow")
    pads = pytest.importorskip("pyarrow.dataset")
    datasets = pytest.importorskip("datasets")
    for name in ("HF_HOME", "HF_DATASETS_CACHE"):
        monkeypatch.setenv(name, str(tmp_path / "hf"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    spec = {"levels": [
        {"generator": "backtracker", "width": 6, "height": 5, "count": 6, "shard_size": 3},
        {"generator": "backtracker", "width": 6, "height": 5, "count": 4, "shard_size": 4, "weave": True},
        {"generator": "wilson", "width": 4, "height": 4, "count": 5, "shard_size": 5, "grid": "hex"},
    ]}
    out = tmp_path / "mixed"
    manifest = ds.build(spec, out, workers=1, file_format="parquet")
    files = [str(out / s["file"]) for s in manifest["shards"]]
    schema = ds.parquet_schema(out)
    assert {"tiles", "bridges", "passages", "digest"} <= set(schema.names)
    table = pads.dataset(files, format="parquet", schema=schema).to_table()
    assert table.num_rows == 15 and table["bridges"].null_count == 11 and table["passages"].null_count == 10
    assert table["digest"].to_pylist() == [r["digest"] for r in ds.open(out, raw=True)]
    hf = datasets.load_dataset("parquet", data_files=files, split="train", cache_dir=str(tmp_path / "hf"),
                               features=datasets.Features.from_arrow_schema(schema))
    assert hf.num_rows == 15 and hf["digest"] == table["digest"].to_pylist()
    weave = mp.generate("backtracker", 6, 5, seed=hf[6]["seed"], weave=True)
    bridges = np.frombuffer(hf[6]["bridges"], dtype=np.uint8).reshape(weave.bridges.shape)
    assert (bridges == weave.bridges).all()
    assert pa.types.is_binary(schema.field("passages").type)
    npz = tmp_path / "npz"
    ds.build(spec["levels"][0], npz, workers=1)
    with pytest.raises(ds.DatasetError, match="npz shards, not Parquet"):
        ds.parquet_schema(npz)


# -- helpers ----------------------------------------------------------------------------


def write_spec(folder: Path) -> Path:
    path = folder / "spec.json"
    path.write_text(json.dumps(SPEC))
    return path


def run_cli(argv: List[str]) -> Tuple[int, str, str]:
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from mazeplugin.dataset.cli import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()
