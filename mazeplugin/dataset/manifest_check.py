"""A manifest read from disk, checked field by field before anything trusts it.

``verify``, ``info``, ``open`` and a resumed ``build`` read ``manifest.json``
and follow it: the shard files it names, the entries they belong to, their
sizes and checksums. A damaged or hand-edited manifest must give one
:class:`DatasetError` naming the field, not a ``KeyError`` from deep inside,
and a shard name must be a plain file name in the dataset's folder (a name
such as ``../../elsewhere`` would read outside it).

>>> check_manifest({"entries": [{}], "file_format": "npz", "complete": True, "levels": 1,
...                 "shards": [{"file": "../x.npz", "entry": 0, "shard": 0, "levels": 1, "sha256": None,
...                             "bytes": None}]}, "m.json")
Traceback (most recent call last):
...
mazeplugin.dataset.errors.DatasetError: m.json: shards[0].file must be a file name in the dataset's folder ending in .npz, got '../x.npz'
"""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .errors import DatasetError

__all__ = ["check_manifest", "prove_manifest", "sort_names", "check_slots"]

_SHA256 = re.compile(r"[0-9a-f]{64}")
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def check_manifest(data: Mapping[str, Any], path: str, file_formats: Sequence[str] = ("npz", "parquet")) -> None:
    """Raise :class:`DatasetError` naming ``path`` and the field when ``data`` is not a manifest's shape."""
    def bad(field: str, what: str, value: Any) -> DatasetError:
        return DatasetError(f"{path}: {field} must be {what}, got {value!r:.80}")

    entries = data.get("entries")
    if not isinstance(entries, list) or not entries or not all(isinstance(e, dict) for e in entries):
        raise bad("entries", "a non-empty list of objects", entries)
    file_format = data.get("file_format")
    if file_format not in file_formats:
        raise bad("file_format", " or ".join(repr(f) for f in file_formats), file_format)
    for field in ("complete", "unique"):
        if field in data and not isinstance(data[field], bool):
            raise bad(field, "true or false", data[field])
    if "levels" in data and not _whole(data["levels"]):
        raise bad("levels", "a whole number", data["levels"])
    shards = data.get("shards")
    if not isinstance(shards, list):
        raise bad("shards", "a list of objects", shards)
    for i, record in enumerate(shards):
        where = f"shards[{i}]"
        if not isinstance(record, dict):
            raise bad(where, "an object", record)
        name = record.get("file")
        if not isinstance(name, str) or not _NAME.fullmatch(name) or not name.endswith("." + str(file_format)):
            raise bad(f"{where}.file", f"a file name in the dataset's folder ending in .{file_format}", name)
        entry = record.get("entry")
        if not (isinstance(entry, int) and _whole(entry) and entry < len(entries)):
            raise bad(f"{where}.entry", f"an entry number from 0 to {len(entries) - 1}", entry)
        for field in ("shard", "levels") + (("first_slot",) if "first_slot" in record else ()):
            if not _whole(record.get(field)):
                raise bad(f"{where}.{field}", "a whole number", record.get(field))
        for field in ("bytes", "refitted"):
            if record.get(field) is not None and not _whole(record[field]):
                raise bad(f"{where}.{field}", "a whole number or null", record[field])
        digest = record.get("sha256")
        if digest is not None and not (isinstance(digest, str) and _SHA256.fullmatch(digest)):
            raise bad(f"{where}.sha256", "64 lowercase hex digits or null", digest)
        if (digest is None) != (record.get("bytes") is None):
            raise bad(f"{where}.bytes", "null exactly when sha256 is null (a shard not built yet)", record.get("bytes"))


# Keys of a manifest entry besides its spec entry's own (Entry.as_dict): what the build derives or records.
_DERIVED = {"entry", "last_seed", "shards", "grid", "edges", "tile_shape", "level_options", "duplicates",
            "replacements", "refitted"}


def prove_manifest(data: Mapping[str, Any], path: str) -> None:
    """Raise :class:`DatasetError` unless the manifest agrees with itself: a dataset nothing was taken from.

    On a manifest of :func:`check_manifest`'s shape: its ``spec`` is read again
    and its checksum must be ``spec_sha256``; the total and every entry's
    recorded keys must be the spec's; and the shards must be exactly the ones
    the spec makes, in order (every shard of every entry, each with its file
    name, entry, number, first slot and level count). A complete manifest has
    every shard built. So a shard's record taken out, two records swapped, a
    count or option edited, or a spec changed without its checksum, is
    refused, and every reader (``verify``, ``info``, ``open``, a resumed
    ``build``) can trust what it follows.
    """
    from .spec import SpecError, parse_spec
    from .tasks import shard_file

    raw_spec = data.get("spec")
    if not isinstance(raw_spec, dict):
        raise DatasetError(f"{path}: spec must be the dataset's spec (an object), got {raw_spec!r:.80}")
    try:
        spec = parse_spec(raw_spec, source="spec", trial=False)
    except SpecError as error:
        raise DatasetError(f"{path}: {error}") from None
    if data.get("spec_sha256") != spec.sha256():
        raise DatasetError(f"{path}: spec_sha256 {data.get('spec_sha256')!r:.80} is not the checksum of its spec "
                           f"({spec.sha256()}): the manifest was edited")
    if data.get("levels") != spec.levels:
        raise DatasetError(f"{path}: levels is {data.get('levels')!r:.80}, its spec makes {spec.levels:,}")
    entries = data["entries"]
    if len(entries) != len(spec.entries):
        raise DatasetError(f"{path}: {len(entries):,} entries, its spec has {len(spec.entries):,}")
    shards = data["shards"]
    wanted = sum(entry.shards for entry in spec.entries)
    if len(shards) != wanted:
        raise DatasetError(f"{path}: {len(shards):,} shard records, its spec makes {wanted:,} shards: "
                           "a shard's record was removed or added")
    k = 0
    for index, (entry, recorded) in enumerate(zip(spec.entries, entries)):
        own = entry.as_dict()
        own.update(entry=index, last_seed=entry.first_seed + entry.count - 1, shards=entry.shards)
        for key, value in own.items():
            if recorded.get(key) != value or type(recorded.get(key)) is not type(value):
                raise DatasetError(f"{path}: entries[{index}].{key} is {recorded.get(key)!r:.80}, its spec says "
                                   f"{value!r:.80}")
        extra = sorted(set(recorded) - set(own) - _DERIVED)
        if extra:
            raise DatasetError(f"{path}: entries[{index}] has {extra[0]!r}, which its spec does not")
        _check_replacements(recorded.get("replacements"), entry, f"{path}: entries[{index}].replacements")
        for shard in range(entry.shards):
            slots = entry.shard_slots(shard)
            expected = {"file": shard_file(index, entry, shard, data["file_format"]), "entry": index,
                        "shard": shard, "first_slot": slots.start, "levels": len(slots)}
            record = shards[k]
            for key, value in expected.items():
                if record.get(key) != value:
                    raise DatasetError(f"{path}: shards[{k}].{key} is {record.get(key)!r:.80}, the spec's shard "
                                       f"{shard} of entry {index} has {value!r}: shard records were removed, moved "
                                       "or edited")
            k += 1
    if data.get("complete"):
        unbuilt = [i for i, record in enumerate(shards) if record.get("sha256") is None]
        if unbuilt:
            raise DatasetError(f"{path}: complete is true but shards[{unbuilt[0]}] was never built")


def _check_replacements(value: Any, entry: Any, where: str) -> None:
    """A ``unique`` build's replacements: ``[slot, seed]`` pairs, slots rising inside the entry, seeds reserved."""
    if value is None:
        return
    if not isinstance(value, list):
        raise DatasetError(f"{where} must be a list of [slot, seed] pairs, got {value!r:.80}")
    last = -1
    for pair in value:
        if not (isinstance(pair, list) and len(pair) == 2 and all(_whole(v) for v in pair)
                and last < pair[0] < entry.count and pair[1] >= entry.reserve_seed):
            raise DatasetError(f"{where}: {pair!r:.80} is not a [slot, seed] pair with slots rising below "
                               f"{entry.count:,} and a seed of the reserved range from {entry.reserve_seed}")
        last = pair[0]


_MANIFEST_TEMPORARY = re.compile(r"\.manifest\.json\.[0-9]+-[0-9a-f]{8}\.tmp\.json")
"""What :func:`mazeplugin.formats.files.write_text` writes the manifest under before renaming it."""


def sort_names(names: Sequence[str], data: Optional[Mapping[str, Any]], own: Sequence[str]) -> Tuple[List[str], List[str]]:
    """The names in a dataset folder that are leftovers of its builds, and those that are not the dataset's at all.

    Leftovers are a shard of ``data`` (the manifest, or None) written under its
    ``.partial-PID`` name, or the manifest's temporary name, by a build that was
    interrupted: the next build deletes them. Anything else but ``data``'s shards
    and the ``own`` names (the manifest, the lock) belongs to someone else.

    >>> sort_names(["manifest.json", "a.npz", "a.npz.partial-12", "b.npz.partial-3", "notes.txt"],
    ...            {"shards": [{"file": "a.npz"}]}, ["manifest.json"])
    (['a.npz.partial-12'], ['b.npz.partial-3', 'notes.txt'])
    """
    shards = {record["file"] for record in data["shards"]} if data is not None else set()
    leftovers, foreign = [], []
    for name in sorted(names):
        if name in own or name in shards:
            continue
        base, dot, pid = name.rpartition(".partial-")
        if (dot and pid.isdigit() and base in shards) or _MANIFEST_TEMPORARY.fullmatch(name):
            leftovers.append(name)
        else:
            foreign.append(name)
    return leftovers, foreign


def check_slots(data: bytes, record: Mapping[str, Any], file_format: str) -> None:
    """Raise :class:`DatasetError` unless the shard ``data`` holds the slots its manifest ``record`` says, in order.

    A shard's checksum proves its bytes, not its place: two shard files
    swapped together with their checksums would otherwise read back out of
    seed order.
    """
    if file_format == "parquet":
        from .parquet import slots_from_parquet

        slots = slots_from_parquet(data, record["file"], record["levels"])
    else:
        slots = npz_arrays(data, record["file"], ("slot",))["slot"]
    first, count = record["first_slot"], record["levels"]
    if len(slots) != count or not np.array_equal(slots, np.arange(first, first + count)):
        held = f"{int(slots[0])}..{int(slots[-1])}" if len(slots) else "none"
        raise DatasetError(f"shard {record['file']}: holds the levels of slots {held}, its record in the manifest "
                           f"is for slots {first}..{first + count - 1}: shard files were swapped or replaced")


def npz_arrays(data: bytes, name: str, only: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    """The arrays of the ``.npz`` shard ``data`` (those named in ``only``, else all), refused before
    anything is inflated unless every member is stored uncompressed within the file, as mazeplugin
    writes them: a deflated member could inflate far past the shard's size.
    """
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for member in archive.infolist():
            if member.compress_type != zipfile.ZIP_STORED or member.file_size > len(data):
                raise DatasetError(
                    f"shard {name}: member {member.filename!r:.60} is compressed ({member.file_size:,} bytes "
                    f"from {member.compress_size:,}); mazeplugin writes shards uncompressed and reads no other"
                )
    with np.load(io.BytesIO(data), allow_pickle=False) as npz:
        return {key: npz[key] for key in (npz.files if only is None else only)}
