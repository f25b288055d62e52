"""A damaged or hand-edited dataset folder: one DatasetError naming the manifest field or the shard, never a
KeyError or IndexError from inside, and no shard name that reads outside the folder
(mazeplugin/dataset/manifest_check.py, mazeplugin/dataset/reading.py)."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import mazeplugin.dataset as ds

from processes import child_env

SPEC = {"generator": "kruskal", "width": 4, "height": 4, "count": 6, "shard_size": 3, "keys": 1}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("hostile") / "good"
    ds.build(SPEC, out, workers=1)
    return out


def copy_with(built, tmp_path, change):
    out = tmp_path / "edited"
    shutil.copytree(built, out)
    manifest = json.loads((out / "manifest.json").read_text())
    change(manifest)
    (out / "manifest.json").write_text(json.dumps(manifest))
    return out


@pytest.mark.parametrize("change, words", [
    (lambda m: m["shards"][0].pop("file"), "shards[0].file must be a file name in the dataset's folder"),
    (lambda m: m["shards"][0].__setitem__("file", "../../outside.npz"), "shards[0].file must be a file name"),
    (lambda m: m["shards"][1].__setitem__("file", "sub/000-kruskal-4x4-00001.npz"), "shards[1].file"),
    (lambda m: m["shards"][0].__setitem__("file", "000-kruskal-4x4-00000.parquet"), "ending in .npz"),
    (lambda m: m["shards"][0].__setitem__("entry", 7), "shards[0].entry must be an entry number from 0 to 0"),
    (lambda m: m["shards"][0].__setitem__("levels", -1), "shards[0].levels must be a whole number"),
    (lambda m: m["shards"][0].__setitem__("sha256", "xyz"), "shards[0].sha256 must be 64 lowercase hex digits"),
    (lambda m: m["shards"][0].__setitem__("bytes", None), "shards[0].bytes must be null exactly when sha256 is"),
    (lambda m: m.__setitem__("shards", 5), "shards must be a list of objects"),
    (lambda m: m.pop("entries"), "entries must be a non-empty list of objects"),
    (lambda m: m.__setitem__("file_format", "csv"), "file_format must be 'npz' or 'parquet'"),
    (lambda m: m.__setitem__("complete", "yes"), "complete must be true or false"),
])
def test_a_damaged_manifest_is_one_error_naming_the_field(built, tmp_path, change, words):
    out = copy_with(built, tmp_path, change)
    for call in (ds.verify, ds.info, lambda o: list(ds.open(o))):
        with pytest.raises(ds.DatasetError) as caught:
            call(out)
        assert "manifest.json" in str(caught.value) and words in str(caught.value)
    result = subprocess.run([sys.executable, "-m", "mazeplugin", "dataset", "verify", str(out)],
                            capture_output=True, text=True, timeout=300, env=child_env())
    assert result.returncode == 1 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert words in result.stderr


def _npz(arrays):
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


@pytest.mark.parametrize("spoil", [
    lambda arrays: _npz({k: v for k, v in arrays.items() if k != "tile_shape"}),   # a column missing
    lambda arrays: _npz({**arrays, "things_offsets": arrays["things_offsets"][:1]}),  # offsets cut short
    lambda arrays: b"PK\x03\x04 not a zip at all",
    lambda arrays: b"\x00" * 64,
])
def test_a_shard_that_is_not_one_is_a_dataset_error_naming_it_even_with_a_matching_checksum(built, tmp_path, spoil):
    out = tmp_path / "edited"
    shutil.copytree(built, out)
    manifest = json.loads((out / "manifest.json").read_text())
    record = manifest["shards"][1]
    with np.load(out / record["file"], allow_pickle=False) as npz:
        arrays = {name: npz[name] for name in npz.files}
    data = spoil(arrays)
    (out / record["file"]).write_bytes(data)
    record["sha256"], record["bytes"] = hashlib.sha256(data).hexdigest(), len(data)
    (out / "manifest.json").write_text(json.dumps(manifest))
    problems = ds.verify(out)  # the checksums match: reading its slot column may already find it is no shard
    assert problems in ([], [f"{record['file']}: not a shard this mazeplugin reads (BadZipFile)"],
                        [f"{record['file']}: not a shard this mazeplugin reads (ValueError)"]), problems
    for raw in (False, True):
        with pytest.raises(ds.DatasetError, match=f"shard {record['file']}: not a shard this mazeplugin reads"):
            list(ds.open(out, raw=raw))


def test_the_untouched_dataset_still_reads(built):
    assert ds.verify(built) == [] and len(list(ds.open(built))) == 6
    assert zipfile.is_zipfile(built / json.loads((built / "manifest.json").read_text())["shards"][0]["file"])


def test_a_compressed_shard_member_is_refused_before_it_is_inflated(built, tmp_path):
    # A shard (and its checksum in the manifest) replaced by a zip whose 'slot' is a deflated
    # 64 MiB array in 64 KiB: refused from the zip's directory, nothing inflated (issue 34 item 8).
    import tracemalloc

    out = tmp_path / "edited"
    shutil.copytree(built, out)
    manifest = json.loads((out / "manifest.json").read_text())
    record = manifest["shards"][1]
    sink = io.BytesIO()
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        buffer = io.BytesIO()
        np.save(buffer, np.zeros(8 << 20, dtype=np.int64))
        archive.writestr("slot.npy", buffer.getvalue())
    data = sink.getvalue()
    assert len(data) < 1 << 20
    (out / record["file"]).write_bytes(data)
    record["sha256"], record["bytes"] = hashlib.sha256(data).hexdigest(), len(data)
    (out / "manifest.json").write_text(json.dumps(manifest))
    tracemalloc.start()
    try:
        problems = ds.verify(out)
        with pytest.raises(ds.DatasetError, match=f"shard {record['file']}: member 'slot.npy' is compressed"):
            list(ds.open(out))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(problems) == 1 and "member 'slot.npy' is compressed" in problems[0], problems
    assert peak < 16 << 20  # the inflated member alone would be 64 MiB
