"""A dataset's manifest is proved whole before anything follows it, every request is bounded before any work,
and a folder's other files are never built over or deleted (issue 34, items 2, 3, 5 and 12;
mazeplugin/dataset/manifest_check.py, mazeplugin/limits.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

import mazeplugin as mp
import mazeplugin.dataset as ds
import mazeplugin.dataset.building as building
from mazeplugin.dataset.building import _new_manifest
from mazeplugin.dataset.spec import MAX_SHARD_SIZE, parse_spec
from mazeplugin.limits import MAX_DATASET_SHARDS, MAX_MANIFEST_BYTES

from budget import examples
from processes import child_env

SPEC = {"generator": "kruskal", "width": 3, "height": 3, "count": 8, "shard_size": 2}
SHARDS = 4


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("trust") / "good"
    ds.build(SPEC, out, workers=1)
    return out


def edited(built, where, change, files=lambda out, manifest: None):
    """A copy of the dataset with ``change`` made to its manifest (and ``files`` to its shard files)."""
    out = where / "edited"
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(built, out)
    manifest = json.loads((out / "manifest.json").read_text())
    files(out, manifest)
    change(manifest)
    (out / "manifest.json").write_text(json.dumps(manifest))
    return out


def refused_everywhere(out, words):
    """verify, info and open all refuse the folder with one DatasetError saying ``words``."""
    for call in (ds.verify, ds.info, lambda o: list(ds.open(o))):
        with pytest.raises(ds.DatasetError) as caught:
            call(out)
        assert "manifest.json" in str(caught.value) and words in str(caught.value), str(caught.value)


def _drop_last_shard(out, manifest):
    os.remove(out / manifest["shards"][-1]["file"])


def _swap_files(out, manifest):
    a, b = (out / manifest["shards"][i]["file"] for i in (0, 1))
    os.rename(a, out / "swap")
    os.rename(b, a)
    os.rename(out / "swap", b)


def _swap_records(manifest):
    first, second = manifest["shards"][0], manifest["shards"][1]
    for key in ("sha256", "bytes"):
        first[key], second[key] = second[key], first[key]


@pytest.mark.parametrize("change, files, words", [
    (lambda m: m["shards"].pop(), _drop_last_shard, "a shard's record was removed"),
    (_swap_records, _swap_files, None),  # files swapped with their checksums: the levels would come out of order
    (lambda m: m["shards"].reverse(), lambda out, m: None, "shards[0].file"),
    (lambda m: m["spec"]["levels"][0].__setitem__("count", 6), lambda out, m: None, "spec_sha256"),
    (lambda m: m["shards"][0].__setitem__("levels", 1), lambda out, m: None, "shards[0].levels"),
    (lambda m: m.__setitem__("levels", 6), lambda out, m: None, "levels is 6"),
    (lambda m: m["entries"][0].__setitem__("braid", 0.5), lambda out, m: None, "entries[0] has 'braid'"),
    (lambda m: m["entries"][0].__setitem__("count", 6), lambda out, m: None, "entries[0].count"),
    (lambda m: m.__setitem__("spec_sha256", "0" * 64), lambda out, m: None, "spec_sha256"),
    (lambda m: m.pop("spec"), lambda out, m: None, "spec must be the dataset's spec"),
    (lambda m: m["shards"][2].__setitem__("sha256", None) or m["shards"][2].__setitem__("bytes", None),
     lambda out, m: None, "shards[2] was never built"),
])
def test_a_manifest_that_does_not_agree_with_itself_is_refused_by_every_reader(built, tmp_path, change, files, words):
    out = edited(built, tmp_path, change, files)
    if words is None:  # files swapped with their checksums: each shard's slots give them away
        problems = ds.verify(out)
        assert len(problems) == 2 and all("shard files were swapped" in p for p in problems), problems
        with pytest.raises(ds.DatasetError, match="holds the levels of slots 2..3, its record in the manifest is "
                                                  "for slots 0..1: shard files were swapped"):
            list(ds.open(out))
        return
    refused_everywhere(out, words)


def test_an_edited_level_option_in_an_entry_is_found_by_verify(built, tmp_path):
    out = edited(built, tmp_path, lambda m: m["entries"][0]["level_options"].__setitem__("braid", 0.5))
    assert any("entries[0].level_options" in p for p in ds.verify(out))


@settings(max_examples=examples(60))
@given(st.data())
def test_any_other_set_or_order_of_shard_records_is_refused(built, tmp_path_factory, data):
    order = data.draw(st.permutations(range(SHARDS)))
    keep = data.draw(st.integers(0, SHARDS))
    chosen = list(order)[:keep]
    out = edited(built, tmp_path_factory.mktemp("records"),
                 lambda m: m.__setitem__("shards", [m["shards"][i] for i in chosen]))
    if chosen == list(range(SHARDS)):
        assert ds.verify(out) == [] and len(list(ds.open(out))) == SPEC["count"]
    else:
        refused_everywhere(out, "shard")


def test_the_untouched_dataset_is_proved(built):
    assert ds.verify(built) == [] and ds.info(built)["levels"] == 8 and len(list(ds.open(built))) == 8


# -- item 3 and 5: bounds before any work --------------------------------------------------------------


_TOO_MANY = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # a gigabyte: the shards' records alone took 3.6 GB
import mazeplugin.dataset as ds
for spec in json.loads(sys.argv[2]):
    try:
        ds.build(spec, sys.argv[1], workers=1, unique=spec.pop("unique", False))
    except (ds.SpecError, ds.DatasetError) as error:
        print(error)
print(resource.getrusage(resource.RUSAGE_SELF).ru_utime)
"""


def test_a_dataset_of_too_many_shards_is_refused_before_any_work(tmp_path):
    tiny = {"generator": "kruskal", "width": 3, "height": 3}
    specs = [dict(tiny, count=400_000, shard_size=1), dict(tiny, count=2**40), dict(tiny, count=10**7, shard_size=1),
             dict(tiny, count=2**40, shard_size=10**6), dict(tiny, count=10**8, shard_size=10**6, unique=True)]
    out = tmp_path / "big"
    done = subprocess.run([sys.executable, "-c", _TOO_MANY, str(out), json.dumps(specs)], capture_output=True,
                          text=True, timeout=600, env=child_env())
    assert done.returncode == 0, done.stderr[-2000:]
    *errors, cpu = done.stdout.splitlines()
    assert errors == [
        "<spec>: the dataset would have 400,000 shards; at most 100,000 are allowed (its manifest must stay "
        "readable): give shard_size at least 4",
        "<spec>: the dataset would have 109,951,163 shards; at most 100,000 are allowed (its manifest must stay "
        "readable): at most 100,000,000,000 levels fit, at 1,000,000 a shard",
        "<spec>: the dataset would have 10,000,000 shards; at most 100,000 are allowed (its manifest must stay "
        "readable): give shard_size at least 100",
        "<spec>: the dataset would have 1,099,512 shards; at most 100,000 are allowed (its manifest must stay "
        "readable): at most 100,000,000,000 levels fit, at 1,000,000 a shard",
        "unique=True keeps every level's digest in memory: at most 10,000,000 levels, this spec has 100,000,000 "
        "(build without unique, or split the spec)",
    ], errors
    assert float(cpu) < 60 and not out.exists()  # refused before any work (25 s and a MemoryError before)


def test_a_dataset_larger_than_the_free_disk_is_refused_before_any_work(tmp_path, monkeypatch):
    spec = {"generator": "kruskal", "width": 3, "height": 3, "count": 10**11, "shard_size": 10**6}
    out = tmp_path / "huge"
    monkeypatch.setattr(building, "_free_bytes", lambda folder: 10**12)  # a terabyte free, whatever this disk has
    with pytest.raises(ds.DatasetError, match=r"levels need at least 3\.2 TB of disk .* 1\.0 TB free there"):
        ds.build(spec, out, workers=1)
    assert os.listdir(out) == []
    small = dict(SPEC, count=10**6, shard_size=10**4)
    monkeypatch.setattr(building, "_free_bytes", lambda folder: 10**6)
    with pytest.raises(ds.DatasetError, match=r"1,000,000 levels need at least 32\.0 MB"):
        ds.build(small, tmp_path / "small", workers=1)


def test_the_manifest_of_the_most_shards_allowed_stays_readable():
    pytest.importorskip("pyarrow")  # a Parquet manifest, the largest kind (it names pyarrow's version)
    # The longest generator name and size the names can have, every shard built: the largest manifest there is.
    longest = max(mp.algorithms(), key=len)
    spec = parse_spec({"generator": longest, "width": 1, "height": 1,
                       "count": MAX_DATASET_SHARDS * MAX_SHARD_SIZE, "shard_size": MAX_SHARD_SIZE,
                       "first_seed": 2**63, "reserve_seed": 0})
    manifest = _new_manifest(spec, False, "parquet")
    for record in manifest["shards"]:
        record.update(sha256="f" * 64, bytes=2**40, refitted=MAX_SHARD_SIZE)
    manifest["complete"], manifest["bytes"] = True, 2**40 * MAX_DATASET_SHARDS
    size = len(json.dumps(manifest, indent=1)) + 1
    assert len(manifest["shards"]) == MAX_DATASET_SHARDS and size < MAX_MANIFEST_BYTES / 2, size


# -- item 5: a FIFO where the manifest or a shard should be --------------------------------------------

_FIFO_CHILD = """
import sys
import mazeplugin as mp
import mazeplugin.dataset as ds
import mazeplugin.dataset.building as building
for call in (ds.verify, ds.info, lambda o: list(ds.open(o))):
    try:
        call(sys.argv[1])
    except ds.DatasetError as error:
        print(error)
"""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_named_manifest_json_is_refused_without_blocking(tmp_path):
    out = tmp_path / "levels"
    out.mkdir()
    os.mkfifo(out / "manifest.json")  # nothing ever writes to it: reading it would wait forever
    result = subprocess.run([sys.executable, "-c", _FIFO_CHILD, str(out)], capture_output=True, text=True,
                            timeout=600, env=child_env())  # a hang guard only
    lines = result.stdout.splitlines()
    assert len(lines) == 3 and all("manifest.json: is a FIFO" in line for line in lines), result
    with pytest.raises(ds.DatasetError, match="is a FIFO"):
        ds.build(SPEC, out, workers=1)


# -- item 12: the folder's other files -----------------------------------------------------------------


def test_a_complete_folder_with_a_users_file_is_not_built_over(built, tmp_path):
    out = tmp_path / "mine"
    shutil.copytree(built, out)
    (out / "notes.txt").write_text("mine")
    before = {name: (out / name).read_bytes() for name in os.listdir(out)}
    with pytest.raises(ds.DatasetError, match=r"holds files that are not its dataset's \(notes.txt\)"):
        ds.build(SPEC, out, workers=1)
    assert {name: (out / name).read_bytes() for name in os.listdir(out)} == before
    assert ds.verify(out) == ["notes.txt: a file this dataset's manifest does not name"]


def test_a_users_partial_looking_file_is_kept_and_only_the_builds_own_leftovers_go(built, tmp_path):
    out = tmp_path / "resume"
    shutil.copytree(built, out)
    manifest = json.loads((out / "manifest.json").read_text())
    ours = manifest["shards"][0]["file"] + ".partial-77"
    (out / ours).write_bytes(b"half a shard")
    assert ds.verify(out) == [f"{ours}: left by an interrupted build (build again to remove it)"]
    ds.build(SPEC, out, workers=1)
    assert not (out / ours).exists() and ds.verify(out) == []
    (out / "X.npz.partial-5").write_bytes(b"a user's file")
    (out / "000-kruskal-3x3-00009.npz").write_bytes(b"a shard of no manifest")
    assert sorted(ds.verify(out)) == ["000-kruskal-3x3-00009.npz: a file this dataset's manifest does not name",
                                      "X.npz.partial-5: a file this dataset's manifest does not name"]
    with pytest.raises(ds.DatasetError, match="holds files that are not its dataset's"):
        ds.build(SPEC, out, workers=1)
    assert (out / "X.npz.partial-5").read_bytes() == b"a user's file"


# -- item 4: a build killed from outside leaves no worker and no lock behind -------------------------------

_BUILD = """
import sys
import mazeplugin.dataset as ds
ds.build(sys.argv[1], sys.argv[2], workers=2)
"""

_REAPER = """
import ctypes, os, signal, subprocess, sys, time
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphans come to us
spec, out = sys.argv[1], sys.argv[2]
build = subprocess.Popen([sys.executable, "-c", sys.argv[3], spec, out])
while not (os.path.isdir(out) and any(name.endswith(".npz") for name in os.listdir(out))):
    time.sleep(0.02)  # until the pool has written a shard
os.kill(build.pid, signal.SIGKILL)  # the main process alone, as `kill -9 PID` does
build.wait()
orphans = 0
while True:  # every orphaned worker, reaped as it dies (a worker that lives on keeps this waiting)
    try:
        os.waitpid(-1, 0)
    except ChildProcessError:
        break
    orphans += 1
print(orphans)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the subreaper that counts orphans is Linux's")
def test_killing_a_builds_main_process_ends_its_workers_and_frees_its_folder(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"generator": "kruskal", "width": 20, "height": 20, "count": 20_000,
                                "shard_size": 50, "stats": False}))
    out = tmp_path / "killed"
    result = subprocess.run([sys.executable, "-c", _REAPER, str(spec), str(out), _BUILD], capture_output=True,
                            text=True, timeout=300, env=child_env())  # a hang guard only: orphans would live on
    assert result.returncode == 0 and int(result.stdout) >= 1, result
    # The folder is free at once: the next build takes the dead build's lock over (and checks the folder).
    with pytest.raises(ds.DatasetError, match="holds a dataset of another spec"):
        ds.build(SPEC, out, workers=1)  # the lock is taken (no 'being built by another build'), the folder checked


def _deathsig(task):
    import ctypes
    import signal as signals

    value = ctypes.c_int(-1)
    ctypes.CDLL(None, use_errno=True).prctl(2, ctypes.byref(value), 0, 0, 0)  # PR_GET_PDEATHSIG
    return value.value == signals.SIGKILL


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_every_pool_worker_is_set_to_die_with_the_build(tmp_path):
    from mazeplugin.dataset.tasks import ShardTask, _run_local

    entry = ds.parse_spec(SPEC).entries[0]
    tasks = [ShardTask(0, entry, shard, "", str(tmp_path), "npz") for shard in range(4)]
    answers = []
    _run_local(tasks, _deathsig, 2, lambda task, answer: answers.append(answer))
    assert answers == [True] * 4


def test_a_forked_child_does_not_hold_its_parents_build_lock(tmp_path):
    from mazeplugin.dataset.storage import Folder

    lock = Folder(tmp_path).lock()
    read, write = os.pipe()
    ready_read, ready_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child (a pool worker, say) lives on until told
        os.close(write)
        os.write(ready_write, b"r")  # fork has returned here: the at-fork handlers have run
        os.read(read, 1)
        os._exit(0)
    os.close(read)
    os.close(ready_write)
    assert os.read(ready_read, 1) == b"r"  # (not before: the child runs its handlers beside the parent)
    os.close(ready_read)
    try:
        with pytest.raises(ds.DatasetError, match="being built by another build"):
            Folder(tmp_path).lock()  # the parent holds it
        os.close(lock._fd)  # the parent dies holding it (kill -9): its descriptor closes, the file stays
        taken = Folder(tmp_path).lock()  # free, though the child still runs
        assert taken.previous is not None and str(os.getpid()) in taken.previous
        taken.release()
    finally:
        os.write(write, b"x")
        os.close(write)
        os.waitpid(pid, 0)


# -- item 9: a full disk or a read-only folder is one line, not a traceback --------------------------------

_FULL_DISK = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of killing
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), int(sys.argv[1])))
from mazeplugin.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.skipif(not hasattr(__import__("signal"), "SIGXFSZ"), reason="RLIMIT_FSIZE is POSIX")
@pytest.mark.parametrize("limit", [2_000, 20_000])  # the manifest (3 kB) fails, or a worker's shard (27 kB)
def test_a_disk_that_fills_during_a_build_is_one_line(tmp_path, limit):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"generator": "kruskal", "width": 24, "height": 24, "count": 400, "shard_size": 40}))
    out = tmp_path / "full"
    result = subprocess.run([sys.executable, "-c", _FULL_DISK, str(limit), "dataset", "build", str(spec), str(out),
                             "--workers", "2", "--quiet"], capture_output=True, text=True, timeout=600,
                            env=child_env())
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "cannot write" in lines[0] and "File too large" in lines[0], result.stderr
    assert not [name for name in os.listdir(out) if ".partial-" in name]


def test_disk_full_and_a_read_only_folder_name_the_file_and_what_to_do(tmp_path, monkeypatch):
    import errno

    real_open = os.open

    def read_only(path, *args, **kwargs):
        if str(path).endswith(".mazeplugin-build.lock"):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only)
    with pytest.raises(ds.DatasetError, match=r"cannot write .*\.mazeplugin-build\.lock: Read-only file system; "
                                              r"the folder is on a read-only file system"):
        ds.build(SPEC, tmp_path / "ro", workers=1)
    monkeypatch.setattr(os, "open", real_open)

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)  # a shard's bytes do not fit on the disk
    with pytest.raises(ds.DatasetError, match=r"cannot write .*000-kruskal-3x3-00000\.npz: No space left on device; "
                                              r"free some space and build again to resume"):
        ds.build(SPEC, tmp_path / "full", workers=1)
    monkeypatch.undo()
    assert not [name for name in os.listdir(tmp_path / "full") if ".partial-" in name]
