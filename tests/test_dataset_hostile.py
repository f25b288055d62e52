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


# Parquet shards: pyarrow decompresses zstd pages and expands dictionary and RLE runs itself, so a forged shard of
# a few kilobytes (its checksum in a forged manifest) could decode to gigabytes in verify or open. Its footer and
# page headers are checked against the manifest's record and entry first (mazeplugin/dataset/parquet_check.py).

@pytest.fixture(scope="module")
def built_parquet(tmp_path_factory):
    pytest.importorskip("pyarrow", reason="Parquet shards need pyarrow (the dataset extra)")
    out = tmp_path_factory.mktemp("hostile-parquet") / "good"
    ds.build({**SPEC, "keys": 0}, out, workers=1, file_format="parquet")
    return out


def forge_parquet(built, tmp_path, make):
    """A copy of ``built`` whose second shard is ``make(good table)`` by pyarrow, its checksum in the manifest."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = tmp_path / "forged"
    shutil.copytree(built, out)
    manifest = json.loads((out / "manifest.json").read_text())
    record = manifest["shards"][1]
    table, options = make(pq.read_table(out / record["file"]), pa)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd", **options)
    data = sink.getvalue().to_pybytes()
    assert len(data) < 2 << 20
    (out / record["file"]).write_bytes(data)
    record["sha256"], record["bytes"] = hashlib.sha256(data).hexdigest(), len(data)
    (out / "manifest.json").write_text(json.dumps(manifest))
    return out, record["file"]


def _with_tiles(table, pa, values):
    return table.set_column(table.schema.get_field_index("tiles"), "tiles", pa.array(values, pa.binary()))


def test_a_parquet_shard_whose_footer_has_a_million_rows_is_refused_before_its_slots_are_read(built_parquet, tmp_path):
    # 2**20 slots of one value (a few RLE runs): the old verify decoded all of them.
    out, name = forge_parquet(built_parquet, tmp_path,
                              lambda t, pa: (pa.table({"slot": pa.array(np.full(1 << 20, 3, dtype=np.int64))}), {}))
    words = "its footer says 1,048,576 rows, the manifest's record 3 levels"
    assert ds.verify(out) == [f"{name}: {words}"]
    with pytest.raises(ds.DatasetError, match=f"^shard {name}: {words}$"):
        list(ds.open(out))


def test_a_parquet_zstd_page_of_zeros_is_refused_from_its_header_before_it_is_decompressed(built_parquet, tmp_path):
    # One level's tiles a 64 MiB zstd page of zeros (about 2 KiB in the file); slots and rows as the record says.
    out, name = forge_parquet(built_parquet, tmp_path, lambda t, pa: (
        _with_tiles(t, pa, [b"\0" * (64 << 20)] + t["tiles"].to_pylist()[1:]), {"use_dictionary": False}))
    problems = ds.verify(out)
    assert len(problems) == 1 and problems[0].startswith(f"{name}: column 'tiles' of row group 0: 3 values, "), problems
    assert "a shard of 3 levels takes at most" in problems[0]
    for raw in (False, True):
        with pytest.raises(ds.DatasetError, match=f"^shard {name}: column 'tiles' of row group 0: 3 values"):
            list(ds.open(out, raw=raw))
    # The manifest's entry forged too, to say each level has 16384 x 16384 tiles: the bound still comes from the
    # entry's width and height (a 4 x 4 entry: at most 4 times its 9 x 9 tiles).
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["entries"][0]["tile_shape"] = [16384, 16384]
    (out / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ds.DatasetError, match=f"^shard {name}: column 'tiles' of row group 0: 3 values, [0-9,]+ "
                                              "bytes uncompressed; a shard of 3 levels takes at most 694,272 bytes"):
        list(ds.open(out))


def _varint(value, length):
    """``value`` as a compact-protocol varint of exactly ``length`` bytes (padded with continuation bytes)."""
    out = bytearray()
    for _ in range(length):
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out[-1] &= 0x7F
    assert value == 0
    return bytes(out)


def test_a_parquet_footer_that_understates_a_zstd_page_is_refused_from_the_page_header(built_parquet, tmp_path):
    # As above (16 MiB of zeros), then the footer's total_uncompressed_size of the chunk patched to 300 bytes in
    # place: only the page header still tells; the old reader decompressed the page.
    import pyarrow as pa
    import pyarrow.parquet as pq

    out, name = forge_parquet(built_parquet, tmp_path, lambda t, pa: (
        _with_tiles(t, pa, [b"\0" * (16 << 20)] + t["tiles"].to_pylist()[1:]), {"use_dictionary": False}))
    manifest = json.loads((out / "manifest.json").read_text())
    record = manifest["shards"][1]
    data = bytearray((out / name).read_bytes())
    meta = pq.ParquetFile(pa.BufferReader(bytes(data))).metadata.row_group(0)
    chunk = next(meta.column(i) for i in range(meta.num_columns) if meta.column(i).path_in_schema == "tiles")
    size = _varint(2 * chunk.total_uncompressed_size, 4)  # zigzag; field 6, an i64, one after field 5
    at = bytes(data).index(b"\x16" + size, len(data) - 8 - int.from_bytes(data[-8:-4], "little"))
    data[at + 1:at + 5] = _varint(2 * 300, 4)
    assert next(c.total_uncompressed_size for c in (pq.ParquetFile(pa.BufferReader(bytes(data))).metadata.row_group(0)
                                                    .column(i) for i in range(meta.num_columns))
                if c.path_in_schema == "tiles") == 300
    (out / name).write_bytes(bytes(data))
    record["sha256"], record["bytes"] = hashlib.sha256(data).hexdigest(), len(data)
    (out / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ds.DatasetError, match=f"^shard {name}: column 'tiles' of row group 0: its pages hold 3 "
                                              r"values \(the footer says 3\) of 16,777,[0-9]+ bytes uncompressed"):
        list(ds.open(out))


def test_a_parquet_dictionary_value_repeated_on_every_row_is_refused_before_it_is_expanded(built_parquet, tmp_path):
    # Every level's tiles one 256 KiB dictionary value: the pages fit the shard's bound, the expanded column
    # (three copies) does not; it is counted from the dictionary before it is expanded (the old reader expanded it).
    out, name = forge_parquet(built_parquet, tmp_path,
                              lambda t, pa: (_with_tiles(t, pa, [b"\1" * (256 << 10)] * 3), {"use_dictionary": True}))
    for raw in (False, True):
        with pytest.raises(ds.DatasetError, match=f"^shard {name}: column 'tiles' decodes past 321,024 bytes"):
            list(ds.open(out, raw=raw))


def test_a_parquet_digest_column_of_long_strings_is_refused_before_it_becomes_python_strings(built_parquet, tmp_path):
    # Inside the shard's whole bound, but a digest is 64 hex digits: 100 KB ones are refused by the column's own.
    def make(table, pa):
        index = table.schema.get_field_index("digest")
        return table.set_column(index, "digest", pa.array(["ab" * 50_000] * 3, pa.string())), {}

    out, name = forge_parquet(built_parquet, tmp_path, make)
    with pytest.raises(ds.DatasetError, match=f"^shard {name}: column 'digest' decodes past 65,752 bytes"):
        list(ds.open(out, raw=True))


def test_a_parquet_page_that_claims_more_values_than_its_footer_is_refused_from_its_header():
    # The page header's value count patched from 3 to 63 in place (the footer still says 3).
    pytest.importorskip("pyarrow", reason="Parquet shards need pyarrow (the dataset extra)")
    import pyarrow as pa
    import pyarrow.parquet as pq

    from mazeplugin.dataset.parquet_check import checked_file

    sink = io.BytesIO()
    pq.write_table(pa.table({"slot": pa.array(np.arange(3, dtype=np.int64))}), sink, compression="none",
                   use_dictionary=False, write_statistics=False, data_page_version="1.0")
    data = bytearray(sink.getvalue())
    checked_file(bytes(data), "lie.parquet", 3, 1 << 20)  # as written: fine
    start = pq.ParquetFile(io.BytesIO(bytes(data))).metadata.row_group(0).column(0).data_page_offset
    at = bytes(data).index(b"\x2c\x15\x06", start)  # data_page_header { num_values: 3 } (zigzag 6)
    data[at + 2] = 2 * 63
    with pytest.raises(ds.DatasetError, match=r"^shard lie.parquet: column 'slot' of row group 0: its pages hold 63 "
                                              r"values \(the footer says 3\)"):
        checked_file(bytes(data), "lie.parquet", 3, 1 << 20)


def test_a_parquet_footer_listing_thousands_of_columns_is_refused_before_it_is_unpacked(built_parquet, tmp_path):
    # pyarrow's own footer limits (a million entries a list) would unpack a forged footer of megabytes into
    # hundreds of megabytes of metadata; a shard's footer lists a few dozen columns.
    out, name = forge_parquet(built_parquet, tmp_path, lambda t, pa: (
        pa.table({"slot": t["slot"], **{f"c{i}": pa.array([0, 0, 0], pa.int8()) for i in range(5000)}}), {}))
    problems = ds.verify(out)
    assert len(problems) == 1 and problems[0].startswith(f"{name}: not a Parquet file this mazeplugin reads"), problems
    with pytest.raises(ds.DatasetError, match=f"^shard {name}: not a Parquet file this mazeplugin reads"):
        list(ds.open(out))
    from mazeplugin.dataset.parquet import union_schema  # what ds.parquet_schema reads a footer with

    with pytest.raises(ds.DatasetError, match=f"^shard {name}: not a Parquet file this mazeplugin reads"):
        union_schema([(out / name).read_bytes()], [name])


def test_the_untouched_parquet_dataset_still_reads_exactly(built_parquet):
    assert ds.verify(built_parquet) == []
    levels = list(ds.open(built_parquet))
    again = [mp_level for mp_level in ds.open(built_parquet, check=False)]
    assert len(levels) == 6 and [lv.to_json() for lv in levels] == [lv.to_json() for lv in again]
