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

import re
from typing import Any, Mapping, Sequence

from .errors import DatasetError

__all__ = ["check_manifest"]

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
