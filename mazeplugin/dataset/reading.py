"""Reading a dataset back: levels in seed order, one shard in memory at a time."""

from __future__ import annotations

import hashlib
import zipfile
from typing import Any, Dict, Iterator, Mapping, Optional, Union

import numpy as np
from numpy.typing import NDArray

import mazeplugin as mp

from .building import DatasetError, entries_of, read_manifest
from .columns import columns_at, names_in
from .manifest_check import check_slots, npz_arrays
from .shards import bridge_layers, levels_of, things_at
from .spec import PathLike
from .storage import Folder

__all__ = ["open_dataset", "shard_arrays_of"]


def shard_arrays_of(out: Union[PathLike, Folder], record: Mapping[str, Any], file_format: str, *,
                    check: bool = True, entry: Optional[Mapping[str, Any]] = None) -> Dict[str, NDArray[Any]]:
    """The arrays of one shard (its manifest ``record``), its checksum checked first when ``check``.

    A Parquet shard needs ``entry``, the manifest's entry of the shard: what
    its levels may decode to is bounded by their size
    (:func:`mazeplugin.dataset.parquet_check.level_budget`).
    """
    folder = out if isinstance(out, Folder) else Folder(out)
    path = folder.name(record["file"])
    try:
        data = folder.read_bytes(record["file"])
    except OSError as error:
        raise DatasetError(f"cannot read shard {path}: {error.strerror or error}") from None
    if check and hashlib.sha256(data).hexdigest() != record["sha256"]:
        raise DatasetError(f"shard {record['file']}: checksum differs from the manifest's; "
                           "run `mazeplugin dataset verify` and build again to remake it")
    if check:
        try:
            check_slots(data, record, file_format)
        except DatasetError:
            raise
        except (KeyError, ValueError, EOFError, OSError, zipfile.BadZipFile) as error:
            raise DatasetError(f"shard {record['file']}: not a shard this mazeplugin reads "
                               f"({type(error).__name__}: {str(error)[:200]})") from None
    if file_format == "parquet":
        from .parquet import arrays_from_parquet
        from .parquet_check import level_budget

        if entry is None:
            raise TypeError("shard_arrays_of needs the manifest entry of a Parquet shard")
        try:
            return arrays_from_parquet(data, record["file"], record["levels"], level_budget(entry))
        except DatasetError:
            raise
        except (KeyError, ValueError, IndexError, EOFError, OSError) as error:
            raise DatasetError(f"shard {record['file']}: not a shard this mazeplugin reads "
                               f"({type(error).__name__}: {str(error)[:200]})") from None
    try:
        return npz_arrays(data, record["file"])
    except (KeyError, ValueError, EOFError, OSError, zipfile.BadZipFile) as error:
        raise DatasetError(f"shard {record['file']}: not a shard this mazeplugin reads "
                           f"({type(error).__name__}: {str(error)[:200]})") from None


def _raw_grid(arrays: Mapping[str, NDArray[Any]], index: int) -> Iterator[Dict[str, Any]]:
    edges = int(arrays["edge_count"][0])
    names = names_in(arrays)
    for i in range(len(arrays["slot"])):
        entrance, exit = (int(arrays[k][i]) for k in ("entrance", "exit"))
        yield {
            "entry": index,
            "slot": int(arrays["slot"][i]),
            "seed": int(arrays["seed"][i]),
            "passages": np.unpackbits(arrays["passages"][i], count=edges).astype(bool),
            "entrance": entrance if entrance >= 0 else None,
            "exit": exit if exit >= 0 else None,
            "digest": bytes(arrays["digest"][i]).hex(),
            **({"columns": columns_at(arrays, i, names)} if names else {}),
        }


def _raw(arrays: Mapping[str, NDArray[Any]], index: int) -> Iterator[Dict[str, Any]]:
    if "passages" in arrays:
        yield from _raw_grid(arrays, index)
        return
    columns = int(arrays["tile_shape"][1])
    names = names_in(arrays)
    for i in range(len(arrays["slot"])):
        entrance = tuple(int(v) for v in arrays["entrance"][i])
        exit = tuple(int(v) for v in arrays["exit"][i])
        yield {
            "entry": index,
            "slot": int(arrays["slot"][i]),
            "seed": int(arrays["seed"][i]),
            "tiles": np.unpackbits(arrays["tiles"][i], axis=-1, count=columns),
            "entrance": entrance if entrance != (-1, -1) else None,
            "exit": exit if exit != (-1, -1) else None,
            "things": things_at(arrays, i),
            "digest": bytes(arrays["digest"][i]).hex(),
            **({"bridges": bridge_layers(arrays["bridges"][i], columns)} if "bridges" in arrays else {}),
            **({"columns": columns_at(arrays, i, names)} if names else {}),
        }


def open_dataset(out: PathLike, *, raw: bool = False,
                 check: bool = True) -> Iterator[Union[mp.AnyLevel, Dict[str, Any]]]:
    """The levels of the dataset in ``out``: entries in spec order, each in seed (slot) order.

    Yields :class:`~mazeplugin.Level` objects (of every grid), or with ``raw=True`` dicts of
    ``entry, slot, seed, tiles`` (uint8 ``[y, x]``), ``entrance, exit, things,
    digest`` (``passages``, one bool an edge, in place of ``tiles`` and no
    ``things`` for grid levels), and for a weave entry ``bridges`` (uint8
    ``[y, x]``, :attr:`~mazeplugin.Level.bridges`). An entry with ``"columns"``
    (:mod:`mazeplugin.dataset.columns`) puts them on each of its levels as a dict
    ``level.columns`` (``raw["columns"]``): ``level.columns["actions"]``, ... One shard is in memory at a time; ``check`` compares each
    shard's checksum with the manifest before reading it.
    """
    folder = Folder(out)
    manifest = read_manifest(folder)
    if not manifest.get("complete"):
        raise DatasetError(f"{folder.out}: the build did not finish; run build again to resume it")
    entries = entries_of(manifest)
    for record in manifest["shards"]:
        index = record["entry"]
        try:
            arrays = shard_arrays_of(folder, record, manifest["file_format"], check=check,
                                     entry=manifest["entries"][index])
            if raw:
                yield from _raw(arrays, index)
            else:
                names = names_in(arrays)
                for i, level in enumerate(levels_of(arrays, entries[index],
                                                    manifest["entries"][index]["level_options"])):
                    if names:  # the entry's opt-in columns (mazeplugin.dataset.columns), as level.columns
                        setattr(level, "columns", columns_at(arrays, i, names))
                    yield level
        except DatasetError:
            raise
        except (KeyError, IndexError, TypeError, ValueError, EOFError, zipfile.BadZipFile) as error:
            # a shard file (or its manifest entry) not as this mazeplugin writes them
            raise DatasetError(f"shard {record['file']}: not a shard this mazeplugin reads "
                               f"({type(error).__name__}: {str(error)[:200]})") from None



def parquet_schema(out: PathLike) -> Any:
    """One pyarrow schema for every Parquet shard of the dataset in ``out``: the union of its entries' schemas.

    Shards of different kinds of entries have different columns (a weave entry's
    have ``bridges``; a hex, triangle, polar or wrapping entry's have ``passages``
    and cell markers in place of tiles). Given this schema, readers keep every
    column and fill the ones a shard lacks with nulls; without it,
    ``pyarrow.dataset`` takes the first file's columns and drops the others, and
    Hugging Face ``datasets`` refuses the folder::

        schema = ds.parquet_schema(out)
        table = pyarrow.dataset.dataset(files, format="parquet", schema=schema).to_table()
        hf = datasets.load_dataset("parquet", data_files=files, features=datasets.Features.from_arrow_schema(schema))

    One built shard per entry is read (the schema is the entry's); a dataset of
    ``.npz`` shards is a :class:`DatasetError`.
    """
    from .parquet import union_schema

    folder = Folder(out)
    manifest = read_manifest(folder)
    if manifest["file_format"] != "parquet":
        raise DatasetError(f"{folder.out} holds {manifest['file_format']} shards, not Parquet: it has no Parquet schema")
    first: Dict[int, Mapping[str, Any]] = {}
    for record in manifest["shards"]:
        if record.get("sha256") is not None:
            first.setdefault(int(record["entry"]), record)
    if not first:
        raise DatasetError(f"{folder.out}: no shard is built yet; run build")
    shards = []
    for _, record in sorted(first.items()):
        try:
            shards.append(folder.read_bytes(record["file"]))
        except OSError as error:
            raise DatasetError(f"cannot read shard {folder.name(record['file'])}: {error.strerror or error}") from None
    return union_schema(shards, [record["file"] for _, record in sorted(first.items())])
