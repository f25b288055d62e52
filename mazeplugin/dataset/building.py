"""Building, verifying and describing a dataset folder.

A dataset is a folder of shard files and ``manifest.json``. Each shard holds
the levels of one slice of one spec entry, and its bytes depend only on the
spec (see :mod:`mazeplugin.dataset.shards`): not on the engine, the number of
workers or machines, nor the order shards finish. So a build can be split
any way, and resumed:

- The manifest is written first (``"complete": false``) and again as shards
  finish, each with its SHA-256; a shard is written under a ``.partial-PID``
  name and renamed when whole, so no partial shard has its final name.
- ``build`` again on the same folder and spec keeps every shard whose
  checksum matches the manifest, makes the others, and deletes leftover
  partial files. A folder holding another spec, or other files, is refused:
  nothing is overwritten.
- A build holds the folder's lock (:mod:`mazeplugin.dataset.storage`) from
  before it reads the folder until it returns: a second build into the same
  folder fails at once naming the first one's pid and host, and the lock of a
  killed build is taken over. The folder may be an fsspec URL
  (``memory://``, ``file://``, ``s3://``, ...): the same bytes, written whole
  under a partial name and then moved.

Under ``unique=True`` the build first reads every level's digest (a pass
over all seeds, shared out like the shards), then walks the entries in
order, slot by slot: a level whose digest was already seen (in this entry or
an earlier one) is replaced by the next seed of the entry's reserved range
(``reserve_seed``, ``reserve_seed + 1``, ...) whose level is new. The
replacements are recorded in the manifest before any shard is written, so
the result is the same on every run.

A slot whose seed makes a level that cannot hold the entry's content (keys
need a corridor every route crosses) takes the first derived seed whose
level can (:func:`mazeplugin.dataset.shards.make_level`); the ``seed`` column
says which seed made each level.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any, Dict, List, Mapping, Optional, Sequence, Set, Tuple, Union, cast

import numpy as np

import mazeplugin as mp
from mazeplugin.formats.jsontext import parse_json
from mazeplugin.level import Level
from mazeplugin.limits import MAX_MANIFEST_BYTES, MAX_UNIQUE_LEVELS, check_dataset_disk

from .digest import DIGEST_VERSION, digest_bytes
from .shards import LevelMaker, make_level
from .errors import DatasetError
from .manifest_check import check_manifest, check_slots, prove_manifest, sort_names
from .storage import LOCK_FILE, Folder
from .tasks import Progress, ShardTask, run_shard, run_tasks, scan_digests, shard_file
from .spec import Entry, PathLike, SEED_RANGE, Spec, SpecError, check_entry, level_options, load_spec, parse_spec

__all__ = [
    "DatasetError",
    "MANIFEST",
    "FORMAT",
    "VERSION",
    "SEED_PROMISE",
    "ENGINES",
    "FILE_FORMATS",
    "build",
    "verify",
    "info",
    "read_manifest",
]

MANIFEST = "manifest.json"
FORMAT = "mazeplugin.dataset"
VERSION = 1
SEED_PROMISE = 1
"""The version of mazeplugin's promise that a (generator, size, seed, options) always makes the same tiles.

It has never changed; a dataset records it so a reader knows its levels can be made again from their seeds.
"""
ENGINES = ("processes", "ray")
FILE_FORMATS = ("npz", "parquet")
MAX_WORKERS = 256


def read_manifest(out: Union[PathLike, Folder]) -> Dict[str, Any]:
    """The manifest of the dataset in folder ``out`` (a path or fsspec URL), checked to be one; :class:`DatasetError` otherwise."""
    folder = out if isinstance(out, Folder) else Folder(out)
    path = folder.name(MANIFEST)
    try:
        text = folder.read_bytes(MANIFEST, MAX_MANIFEST_BYTES + 1)
        if len(text) > MAX_MANIFEST_BYTES:
            raise DatasetError(f"{path}: larger than {MAX_MANIFEST_BYTES >> 20} MiB, more than any dataset's "
                               "manifest (mazeplugin.limits.MAX_MANIFEST_BYTES)")
        data = parse_json(text, path, what="a dataset manifest", error=DatasetError)
    except FileNotFoundError:
        raise DatasetError(f"{folder.out} holds no dataset ({MANIFEST} is missing)") from None
    except DatasetError:
        raise  # what parse_json found, already naming the manifest
    except (OSError, ValueError) as error:
        raise DatasetError(f"cannot read {path}: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DatasetError(f"{path} is not a mazeplugin dataset manifest (no \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise DatasetError(f"{path}: manifest version {data.get('version')!r}; this mazeplugin reads version {VERSION}")
    check_manifest(data, path, FILE_FORMATS)
    prove_manifest(data, path)
    return data


def _write_manifest(folder: Folder, manifest: Mapping[str, Any]) -> None:
    folder.write_text(MANIFEST, json.dumps(manifest, indent=1) + "\n")


def _made_shape(trial: "mp.AnyLevel") -> Dict[str, Any]:
    """What an entry's manifest records of its first level's shape: a graph level's grid and passage
    count, or a square level's tile shape."""
    if trial.kind != "square":
        return {"grid": trial.grid, "edges": int(cast(Level, trial).maze.open.size)}
    return {"tile_shape": list(trial.tiles.shape)}


def _new_manifest(spec: Spec, unique: bool, file_format: str) -> Dict[str, Any]:
    entries = []
    shards = []
    for index, entry in enumerate(spec.entries):
        trial = check_entry(entry, f"levels[{index}]")
        entries.append({
            "entry": index,
            **entry.as_dict(),
            "last_seed": entry.first_seed + entry.count - 1,
            "shards": entry.shards,
            **_made_shape(trial),
            "level_options": level_options(trial),  # as a level file records them (those its levels share)
        })
        for shard in range(entry.shards):
            slots = entry.shard_slots(shard)
            shards.append({"file": shard_file(index, entry, shard, file_format), "entry": index, "shard": shard,
                           "first_slot": slots.start, "levels": len(slots), "sha256": None, "bytes": None,
                           "refitted": None})
    return {
        "format": FORMAT,
        "version": VERSION,
        "complete": False,
        "levels": spec.levels,
        "file_format": file_format,
        "unique": unique,
        "spec_sha256": spec.sha256(),
        "mazeplugin": mp.__version__,
        "numpy": np.__version__,
        "seed_promise": SEED_PROMISE,
        "digest_version": DIGEST_VERSION,
        "spec": spec.as_dict(),
        **({"pyarrow": _pyarrow_version()} if file_format == "parquet" else {}),
        "entries": entries,
        "shards": shards,
    }


def _pyarrow_version() -> str:
    import pyarrow

    return str(pyarrow.__version__)


def _spec_of(spec: Union[Spec, Mapping[str, Any], PathLike]) -> Spec:
    if isinstance(spec, Spec):
        return spec
    if isinstance(spec, Mapping):
        return parse_spec(spec)
    return load_spec(spec)


def _check_choice(name: str, value: object, allowed: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise DatasetError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")
    return value


def _check_place(folder: Folder) -> None:
    """Refuse a file where the folder should be, before anything is made."""
    if folder.exists() and not folder.isdir():
        raise DatasetError(f"{folder.out} exists and is not a folder; give a new or empty folder")


def _prepare_folder(folder: Folder, manifest: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """The manifest already in ``folder`` for the same dataset (to resume), None for a new or empty folder.

    Refuses a folder with another dataset, or a non-empty folder without a
    manifest. Called holding the build lock (whose file it overlooks).
    """
    names = [name for name in folder.listdir() if name != LOCK_FILE]
    if MANIFEST not in names:
        if names:
            raise DatasetError(f"{folder.out} is not empty and holds no dataset; give a new or empty folder "
                               "(nothing was changed)")
        return None
    old = read_manifest(folder)
    foreign = sort_names(names, old, (MANIFEST,))[1]
    if foreign:
        more = f" and {len(foreign) - 1:,} more" if len(foreign) > 1 else ""
        raise DatasetError(f"{folder.out} holds files that are not its dataset's ({foreign[0]}{more}); move them "
                           "out of the folder or build into another one (nothing was changed)")
    for key, what in (("spec_sha256", "spec"), ("unique", "unique setting"), ("file_format", "file format"),
                      ("mazeplugin", "mazeplugin version"), ("seed_promise", "seed promise"),
                      ("digest_version", "digest version"), ("pyarrow", "pyarrow version")):
        # A shard made by another version could differ from one made now: no mixing in one folder.
        if old.get(key) != manifest.get(key):
            raise DatasetError(f"{folder.out} holds a dataset of another {what} ({key} {old.get(key)!r}, this build "
                               f"{manifest.get(key)!r}); give a new folder (nothing was changed)")
    return old


def _plan_unique(spec: Spec, manifest: Dict[str, Any], out: str, engine: str, workers: int,
                 address: Optional[str], progress: Progress) -> None:
    """Find repeated levels and their replacements (see the module docstring); record them in ``manifest``."""
    tasks = [ShardTask(i, entry, shard, "", out, "npz")
             for i, entry in enumerate(spec.entries) for shard in range(entry.shards)]
    digests: Dict[Tuple[int, int], bytes] = {}

    def done(task: ShardTask, result: bytes) -> None:
        digests[(task.entry_index, task.shard)] = result
        progress.advance(len(result) // 32)

    run_tasks(engine, tasks, scan_digests, workers, address, done)
    seen: Set[bytes] = set()
    for index, entry in enumerate(spec.entries):
        maker = LevelMaker(entry)
        replacements: List[List[int]] = []
        reserve = entry.reserve_seed
        tries = 0
        duplicates = 0
        for shard in range(entry.shards):
            block = digests.pop((index, shard))
            for k, slot in enumerate(entry.shard_slots(shard)):
                d = block[32 * k:32 * k + 32]
                if d not in seen:
                    seen.add(d)
                    continue
                duplicates += 1
                while True:
                    if tries >= max(1000, entry.count) or reserve >= SEED_RANGE:
                        raise DatasetError(
                            f"levels[{index}]: after {tries:,} seeds of the reserved range from "
                            f"{entry.reserve_seed} no new {entry.generator} {entry.width}x{entry.height} "
                            f"level was found; this size has too few distinct levels for count={entry.count:,}")
                    seed, level = make_level(entry, maker, reserve)
                    reserve += 1
                    tries += 1
                    d = digest_bytes(level)
                    if d not in seen:
                        seen.add(d)
                        replacements.append([slot, seed])
                        break
        manifest["entries"][index]["duplicates"] = duplicates
        manifest["entries"][index]["replacements"] = replacements


def build(
    spec: Union[Spec, Mapping[str, Any], PathLike],
    out: PathLike,
    *,
    engine: str = "processes",
    workers: Optional[int] = None,
    address: Optional[str] = None,
    unique: bool = False,
    file_format: str = "npz",
    progress: bool = False,
) -> Dict[str, Any]:
    """Build the dataset of ``spec`` (a :class:`Spec`, a mapping or a spec file path) in folder ``out``; its manifest.

    ``engine="processes"`` shares the shards out to ``workers`` local
    processes (default: every core); ``engine="ray"`` to Ray tasks, on the
    cluster at ``address`` (``"auto"``) or a local one started for the
    build. Building again on the same folder resumes: good shards are kept.
    ``progress=True`` shows levels/s and the time left on standard error.

    >>> import os, tempfile
    >>> out = os.path.join(tempfile.mkdtemp(), "tiny")
    >>> spec = {"generator": "kruskal", "width": 5, "height": 4, "count": 6, "shard_size": 4}
    >>> manifest = build(spec, out, workers=1)
    >>> manifest["complete"], [s["levels"] for s in manifest["shards"]]
    (True, [4, 2])
    >>> verify(out)
    []
    """
    engine = _check_choice("engine", engine, ENGINES)
    file_format = _check_choice("file_format", file_format, FILE_FORMATS)
    folder = Folder(out)
    if folder.is_memory():
        # memory:// lives in this process: workers elsewhere would write into their own memory.
        if engine == "ray" or (workers is not None and workers != 1):
            raise DatasetError(f"{folder.out}: a memory:// file system lives in one process; build there with "
                               "engine='processes' and workers=1 (or give a folder or a shared URL)")
        workers = 1
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise DatasetError(f"workers must be an int from 1 to {MAX_WORKERS}, got {workers!r}")
    if address is not None and engine != "ray":
        raise DatasetError("address is for engine='ray' (the Ray cluster to run on)")
    if not isinstance(unique, bool):
        raise DatasetError(f"unique must be True or False, got {unique!r}")
    if file_format == "parquet":
        from .parquet import require_pyarrow

        require_pyarrow()
    if engine == "ray":
        from .ray_engine import require_ray

        require_ray()
    the_spec = _spec_of(spec)
    if unique and the_spec.levels > MAX_UNIQUE_LEVELS:
        raise DatasetError(f"unique=True keeps every level's digest in memory: at most {MAX_UNIQUE_LEVELS:,} levels, "
                           f"this spec has {the_spec.levels:,} (build without unique, or split the spec)")
    manifest = _new_manifest(the_spec, unique, file_format)
    _check_place(folder)
    folder.makedirs()
    with folder.lock():  # one build per folder: a second one fails here, naming this one
        return _build_locked(the_spec, folder, manifest, engine, workers, address, unique, file_format, progress)


def _free_bytes(folder: Folder) -> Optional[int]:
    """The bytes free on the disk of a local folder (None elsewhere: an object store has no such figure)."""
    if not folder.is_local:
        return None
    import shutil

    try:
        return int(shutil.disk_usage(folder.root).free)
    except OSError:
        return None


def _build_locked(the_spec: Spec, folder: Folder, manifest: Dict[str, Any], engine: str, workers: int,
                  address: Optional[str], unique: bool, file_format: str, progress: bool) -> Dict[str, Any]:
    """The rest of :func:`build`, holding the folder's lock."""
    old = _prepare_folder(folder, manifest)
    if old is not None:
        for entry, old_entry in zip(manifest["entries"], old["entries"]):
            for key in ("duplicates", "replacements"):
                if key in old_entry:
                    entry[key] = old_entry[key]
        recorded = {s["file"]: s for s in old["shards"]}
        manifest["shards"] = [recorded.get(s["file"], s) for s in manifest["shards"]]
    free = _free_bytes(folder)
    if free is not None:
        try:
            check_dataset_disk(sum(s["levels"] for s in manifest["shards"] if s["sha256"] is None), free, folder.out)
        except ValueError as error:
            raise DatasetError(f"{error} (nothing was built)") from None
    for name in sort_names(folder.listdir(), manifest, (MANIFEST, LOCK_FILE))[0]:
        folder.remove(name)  # a shard an interrupted build did not finish (no live build owns it: we hold the lock)
    bar = Progress(the_spec.levels, label="build", enabled=progress)
    try:
        if unique and "replacements" not in manifest["entries"][0]:
            scan = Progress(the_spec.levels, label="unique: reading digests", enabled=progress)
            _plan_unique(the_spec, manifest, folder.out, engine, workers, address, scan)
            scan.close()
        _write_manifest(folder, manifest)
        tasks = []
        for record in manifest["shards"]:
            name = record["file"]
            if record["sha256"] is not None and folder.isfile(name) and folder.sha256(name) == record["sha256"]:
                bar.advance(record["levels"])
                continue
            index, shard = record["entry"], record["shard"]
            entry = the_spec.entries[index]
            slots = entry.shard_slots(shard)
            replacements = tuple((slot, seed) for slot, seed in manifest["entries"][index].get("replacements", ())
                                 if slot in slots)
            tasks.append(ShardTask(index, entry, shard, record["file"], folder.out, file_format, replacements))
        by_file = {record["file"]: record for record in manifest["shards"]}
        last_write = [time.monotonic()]

        def done(task: ShardTask, result: Dict[str, Any]) -> None:
            by_file[task.file].update(result)
            bar.advance(result["levels"])
            if time.monotonic() - last_write[0] > 1.0:
                _write_manifest(folder, manifest)
                last_write[0] = time.monotonic()

        try:
            run_tasks(engine, tasks, run_shard, workers, address, done)
        finally:
            _write_manifest(folder, manifest)  # every finished shard is recorded, even when interrupted
    finally:
        bar.close()
    for index, entry in enumerate(manifest["entries"]):
        entry["refitted"] = sum(s["refitted"] for s in manifest["shards"] if s["entry"] == index)
    manifest["complete"] = True
    manifest["bytes"] = sum(s["bytes"] for s in manifest["shards"])
    _write_manifest(folder, manifest)
    return manifest


def verify(out: PathLike) -> List[str]:
    """Check every shard of the dataset in ``out`` against its manifest; the problems found (empty: all good).

    Each problem names its shard: missing, unfinished, or with another size or checksum.
    """
    folder = Folder(out)
    manifest = read_manifest(folder)
    problems = []
    if not manifest.get("complete"):
        problems.append(f"{folder.out}: the build did not finish; run build again to resume it")
    unbuilt = [record["file"] for record in manifest["shards"] if record.get("sha256") is None]
    if unbuilt:
        problems.append(f"{unbuilt[0]}: not built yet" if len(unbuilt) == 1 else
                        f"{unbuilt[0]} and {len(unbuilt) - 1:,} more shards: not built yet")
    problems.extend(_derived_problems(manifest, folder.name(MANIFEST)))
    leftovers, foreign = sort_names(folder.listdir(), manifest, (MANIFEST, LOCK_FILE))
    problems.extend(f"{name}: a file this dataset's manifest does not name" for name in foreign)
    problems.extend(f"{name}: left by an interrupted build (build again to remove it)" for name in leftovers)
    for record in manifest["shards"]:
        name = record["file"]
        if record.get("sha256") is None:
            continue
        if not folder.isfile(name):
            problems.append(f"{name}: missing")
        elif folder.size(name) != record["bytes"]:
            problems.append(f"{name}: {folder.size(name):,} bytes, the manifest says {record['bytes']:,}")
        elif folder.sha256(name) != record["sha256"]:
            problems.append(f"{record['file']}: checksum differs from the manifest's")
        else:
            try:
                data = folder.read_bytes(name)
                check_slots(data, record, manifest["file_format"])
                if manifest["file_format"] == "parquet":  # every footer and page header within the levels' bounds
                    from .parquet_check import checked_file, level_budget

                    checked_file(data, name, record["levels"], record["levels"] * level_budget(
                        manifest["entries"][record["entry"]]))
            except DatasetError as error:
                problems.append(str(error).removeprefix("shard "))
            except Exception as error:  # noqa: BLE001 - bytes the checksum vouches for that are no shard
                problems.append(f"{name}: not a shard this mazeplugin reads ({type(error).__name__})")
    return problems


def _derived_problems(manifest: Mapping[str, Any], path: str) -> List[str]:
    """What the manifest's entries record of their first level (shape, grid, options) against a level made now."""
    problems = []
    for index, entry in enumerate(entries_of(manifest)):
        try:
            trial = check_entry(entry, f"levels[{index}]")
        except SpecError as error:  # this mazeplugin cannot make the entry's levels: nothing to prove them by
            problems.append(f"{path}: {error}")
            continue
        made = _made_shape(trial)
        made["level_options"] = level_options(trial)
        for key, value in made.items():
            if manifest["entries"][index].get(key) != value:
                problems.append(f"{path}: entries[{index}].{key} is not what its spec makes ({value!r:.80})")
    return problems


def info(out: PathLike) -> Dict[str, Any]:
    """A summary of the dataset in ``out``: levels, shards, bytes, format, versions and each entry's figures."""
    manifest = read_manifest(out)
    built = [s for s in manifest["shards"] if s.get("sha256") is not None]
    return {
        "folder": Folder(out).out,
        "complete": manifest["complete"],
        "levels": manifest["levels"],
        "shards": len(manifest["shards"]),
        "shards_built": len(built),
        "bytes": sum(s["bytes"] for s in built),
        "file_format": manifest["file_format"],
        "unique": manifest["unique"],
        "mazeplugin": manifest["mazeplugin"],
        "numpy": manifest["numpy"],
        "seed_promise": manifest["seed_promise"],
        "entries": [
            {key: entry.get(key) for key in ("generator", "width", "height", "count", "first_seed", "last_seed",
                                             "shards", "duplicates", "refitted")}
            for entry in manifest["entries"]
        ],
    }


def entries_of(manifest: Mapping[str, Any]) -> List[Entry]:
    """The spec entries recorded in a manifest."""
    spec = parse_spec(manifest["spec"], source="manifest spec", trial=False)
    return list(spec.entries)

