"""Parquet shards (the ``parquet`` extra: ``pip install "mazeplugin[parquet]"``): one row per level.

Columns: ``entry``, ``slot``, ``seed``, ``level_seed``, ``generator``,
``width``, ``height`` (cells), ``rows``, ``columns`` (tiles), ``tiles``
(binary: ``rows * columns`` bytes, 0 floor and 1 wall, row by row),
``entrance_x``, ``entrance_y``, ``exit_x``, ``exit_y`` (-1 without markers),
``things`` (JSON text), ``code`` (the level code, empty where there is none),
``digest`` (64 hex digits) and one column per ``stats()`` figure
(``stats_<name>``, null for None; none with ``"stats": false``). A shard of a
weave entry has ``bridges`` after ``tiles`` (binary: ``rows * columns`` bytes,
:attr:`~mazeplugin.Level.bridges` row by row: 0, 1 tunnel east–west, 2 north–south);
other shards have no such column. An entry's opt-in ``"columns"`` come last
(list columns: see :mod:`mazeplugin.dataset.columns`). ``pyarrow.dataset.dataset(folder)`` and
Hugging Face ``datasets.load_dataset("parquet", data_files=...)`` read them.

A shard of grid levels (``grid=``, ``wrap=``) has, in place of the tile,
marker and things columns: ``grid``, ``wrap`` (empty for none), ``edges``,
``passages`` (binary: one byte per edge of the grid, in its edge order, 1
open), ``entrance`` and ``exit`` (cells, -1 without markers) and
``entrance_opening_cell``, ``entrance_opening_side``, ``exit_opening_cell``,
``exit_opening_side`` (-1 for none; a side of -1 is an opening inside a cell),
and last its opt-in ``"columns"``: ``solution`` (list of int32 cells),
``solution_length``, ``distances`` (list of int32, one a cell).

A Parquet file names the pyarrow version that wrote it, so its bytes (and
checksum) are the same for the same spec and pyarrow version; the ``.npz``
shards do not depend on any library version.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

import numpy as np
from numpy.typing import NDArray

from .columns import COLUMNS, RAGGED, names_in
from .parquet_check import checked_file, read_columns
from .shards import STATS_FIELDS, bridge_layers, bridge_planes, text_at
from .spec import Entry

__all__ = ["require_pyarrow", "parquet_bytes", "arrays_from_parquet"]


def require_pyarrow() -> None:
    """Import pyarrow, or say how to install it."""
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        from .errors import DatasetError

        raise DatasetError('Parquet shards need pyarrow: pip install "mazeplugin[parquet]"') from None


def parquet_bytes(arrays: Mapping[str, NDArray[Any]], entry: Entry, entry_index: int) -> bytes:
    """A Parquet file (zstd-compressed, one row group) of a shard's arrays."""
    import pyarrow as pa

    if "passages" in arrays:
        return _grid_parquet_bytes(arrays, entry, entry_index)
    count = len(arrays["slot"])
    rows, columns = (int(n) for n in arrays["tile_shape"])
    tiles = np.unpackbits(arrays["tiles"], axis=-1, count=columns).reshape(count, rows * columns)
    entrance, exit = arrays["entrance"], arrays["exit"]
    table: Dict[str, Any] = {
        "entry": pa.array(np.full(count, entry_index, dtype=np.int32)),
        "slot": pa.array(arrays["slot"]),
        "seed": pa.array(arrays["seed"]),
        "level_seed": pa.array(arrays["level_seed"]),
        "generator": pa.array([entry.generator] * count, pa.string()),
        "width": pa.array(np.full(count, entry.width, dtype=np.int32)),
        "height": pa.array(np.full(count, entry.height, dtype=np.int32)),
        "rows": pa.array(np.full(count, rows, dtype=np.int32)),
        "columns": pa.array(np.full(count, columns, dtype=np.int32)),
        "tiles": pa.array([t.tobytes() for t in tiles], pa.binary()),
        **({"bridges": pa.array([b.tobytes() for b in bridge_layers(arrays["bridges"], columns)], pa.binary())}
           if "bridges" in arrays else {}),
        "entrance_x": pa.array(entrance[:, 0]),
        "entrance_y": pa.array(entrance[:, 1]),
        "exit_x": pa.array(exit[:, 0]),
        "exit_y": pa.array(exit[:, 1]),
        "things": pa.array([text_at(arrays["things"], arrays["things_offsets"], i) for i in range(count)], pa.string()),
        "code": pa.array([text_at(arrays["code"], arrays["code_offsets"], i) for i in range(count)], pa.string()),
        "digest": pa.array([bytes(d).hex() for d in arrays["digest"]], pa.string()),
    }
    _stats_columns(arrays, table)
    _opt_in_columns(arrays, table, count)
    return _write(table, count)


def _opt_in_columns(arrays: Mapping[str, NDArray[Any]], table: Dict[str, Any], count: int) -> None:
    """The opt-in columns (:mod:`mazeplugin.dataset.columns`) as list columns, after the stats."""
    import pyarrow as pa

    for name in names_in(arrays):
        values = arrays[name]
        flat: NDArray[Any] = values.reshape(-1)
        if name in ("distances", "images"):
            offsets = np.arange(count + 1, dtype=np.int32) * (flat.size // max(count, 1))
        else:
            offsets = arrays[name + "_offsets"] * (2 if name == "solution" and values.ndim == 2 else 1)
        table[name] = pa.ListArray.from_arrays(pa.array(offsets.astype(np.int32)), pa.array(flat))
        if name == "solution":
            table["solution_length"] = pa.array(arrays["solution_length"])


def _opt_in_from_table(table: Any, arrays: Dict[str, NDArray[Any]], shape: tuple[int, ...]) -> None:
    """The opt-in columns of a table into ``arrays``: ``shape`` the tiles' ``(rows, columns)``, or ``(cells,)`` for
    a grid shard (whose solutions are cells, one number a step)."""
    count = table.num_rows
    for name in COLUMNS:
        if name not in table.column_names:
            continue
        column = table[name].combine_chunks()
        flat = np.asarray(column.values.to_numpy(zero_copy_only=False), dtype=RAGGED.get(name, np.dtype("u1") if name == "images" else np.dtype("<i4")))
        if name == "distances":
            arrays[name] = flat.reshape((count,) + shape)
            continue
        if name == "images":  # (levels, 2, rows * s, columns * s, 3): the scale from the pixel count
            scale = int(round((flat.size / max(count, 1) / (6 * shape[0] * shape[1])) ** 0.5))
            arrays[name] = flat.astype(np.uint8).reshape(count, 2, shape[0] * scale, shape[1] * scale, 3)
            continue
        offsets = np.asarray(column.offsets.to_numpy(), dtype="<i8")
        if name == "solution":
            width = 2 if len(shape) == 2 else 1
            arrays[name] = flat.reshape(-1, 2) if width == 2 else flat
            arrays[name + "_offsets"] = offsets // width
            arrays["solution_length"] = np.asarray(table["solution_length"].to_numpy(), dtype="<i4")
        else:
            arrays[name] = flat
            arrays[name + "_offsets"] = offsets


def _stats_columns(arrays: Mapping[str, NDArray[Any]], table: Dict[str, Any]) -> None:
    import pyarrow as pa

    for name in STATS_FIELDS:
        if "stats_" + name not in arrays:
            continue  # the entry said "stats": false
        values = arrays["stats_" + name]
        missing = np.isnan(values) if values.dtype.kind == "f" else values == -1
        table["stats_" + name] = pa.array(values, mask=missing)


def _write(table: Dict[str, Any], count: int) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(pa.table(table), sink, compression="zstd", row_group_size=max(count, 1))
    return bytes(sink.getvalue().to_pybytes())


def _grid_parquet_bytes(arrays: Mapping[str, NDArray[Any]], entry: Entry, entry_index: int) -> bytes:
    """A Parquet file of a grid shard's arrays: ``passages`` one byte an edge (1 open), cells for markers."""
    import pyarrow as pa

    count = len(arrays["slot"])
    edges = int(arrays["edge_count"][0])
    passages = np.unpackbits(arrays["passages"], axis=-1, count=edges)
    openings = arrays["openings"]
    table: Dict[str, Any] = {
        "entry": pa.array(np.full(count, entry_index, dtype=np.int32)),
        "slot": pa.array(arrays["slot"]),
        "seed": pa.array(arrays["seed"]),
        "level_seed": pa.array(arrays["level_seed"]),
        "generator": pa.array([entry.generator] * count, pa.string()),
        "grid": pa.array([str(entry.options.get("grid", "square"))] * count, pa.string()),
        "wrap": pa.array([str(entry.options.get("wrap") or "")] * count, pa.string()),
        "width": pa.array(np.full(count, entry.width, dtype=np.int32)),
        "height": pa.array(np.full(count, entry.height, dtype=np.int32)),
        "edges": pa.array(np.full(count, edges, dtype=np.int32)),
        "passages": pa.array([p.tobytes() for p in passages], pa.binary()),
        "entrance": pa.array(arrays["entrance"]),
        "exit": pa.array(arrays["exit"]),
        "entrance_opening_cell": pa.array(np.ascontiguousarray(openings[:, 0, 0])),
        "entrance_opening_side": pa.array(np.ascontiguousarray(openings[:, 0, 1])),
        "exit_opening_cell": pa.array(np.ascontiguousarray(openings[:, 1, 0])),
        "exit_opening_side": pa.array(np.ascontiguousarray(openings[:, 1, 1])),
        "code": pa.array([text_at(arrays["code"], arrays["code_offsets"], i) for i in range(count)], pa.string()),
        "digest": pa.array([bytes(d).hex() for d in arrays["digest"]], pa.string()),
    }
    _stats_columns(arrays, table)
    _opt_in_columns(arrays, table, count)
    return _write(table, count)


def _grid_arrays_from_table(table: Any) -> Dict[str, NDArray[Any]]:
    count = table.num_rows
    edges = int(table["edges"][0].as_py())
    passages = np.frombuffer(b"".join(table["passages"].to_pylist()), dtype=np.uint8).reshape(count, edges)
    codes, code_offsets = _texts(table["code"].to_pylist())
    openings = np.stack([np.stack([table[f"{k}_opening_cell"].to_numpy(), table[f"{k}_opening_side"].to_numpy()],
                                  axis=1) for k in ("entrance", "exit")], axis=1).astype("<i4")
    arrays: Dict[str, NDArray[Any]] = {
        "slot": table["slot"].to_numpy(),
        "seed": table["seed"].to_numpy(),
        "level_seed": table["level_seed"].to_numpy(),
        "passages": np.packbits(passages, axis=-1),
        "edge_count": np.array([edges], dtype="<i8"),
        "entrance": table["entrance"].to_numpy(),
        "exit": table["exit"].to_numpy(),
        "openings": openings,
        "digest": np.array([list(bytes.fromhex(d)) for d in table["digest"].to_pylist()], dtype=np.uint8),
        "code": codes,
        "code_offsets": code_offsets,
    }
    _opt_in_from_table(table, arrays, (-1,))  # (distances: one number a cell)
    return arrays


def _texts(values: Any) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    data = [v.encode("utf-8") for v in values]
    offsets = np.zeros(len(data) + 1, dtype="<i8")
    np.cumsum([len(d) for d in data], out=offsets[1:])
    return np.frombuffer(b"".join(data), dtype=np.uint8).copy(), offsets


def slots_from_parquet(data: bytes, name: str, levels: int) -> NDArray[Any]:
    """The ``slot`` column of a Parquet shard's bytes (file ``name``, ``levels`` levels by its manifest record;
    nothing else is read): a :class:`~mazeplugin.dataset.DatasetError` when its footer or pages say otherwise
    (see :mod:`mazeplugin.dataset.parquet_check`)."""
    budget = (64 << 10) + 64 * levels
    file = checked_file(data, name, levels, budget, ["slot"])
    return np.asarray(read_columns(file, name, budget, ["slot"])["slot"].to_numpy())


def arrays_from_parquet(data: bytes, name: str, levels: int, level_bytes: int) -> Dict[str, NDArray[Any]]:
    """The shard arrays (as :mod:`mazeplugin.dataset.shards` lays them out) of a Parquet shard's bytes (file
    ``name``, ``levels`` levels by its manifest record, each at most ``level_bytes``: see
    :func:`mazeplugin.dataset.parquet_check.level_budget`), refused before anything could decode past that."""
    budget = levels * level_bytes
    small = 72 * levels + (64 << 10)  # 64 hex digits or a name a level (and the offsets), made Python strings
    table = read_columns(checked_file(data, name, levels, budget), name, budget,
                         caps={"digest": small, "generator": small, "grid": small, "wrap": small})
    if "passages" in table.column_names:
        return _grid_arrays_from_table(table)
    rows, columns = int(table["rows"][0].as_py()), int(table["columns"][0].as_py())
    count = table.num_rows
    tiles = np.frombuffer(b"".join(table["tiles"].to_pylist()), dtype=np.uint8).reshape(count, rows, columns)
    things, things_offsets = _texts(table["things"].to_pylist())
    codes, code_offsets = _texts(table["code"].to_pylist())
    arrays: Dict[str, NDArray[Any]] = {
        "slot": table["slot"].to_numpy(),
        "seed": table["seed"].to_numpy(),
        "level_seed": table["level_seed"].to_numpy(),
        "tiles": np.packbits(tiles, axis=-1),
        "tile_shape": np.array([rows, columns], dtype="<i8"),
        **({"bridges": bridge_planes(np.frombuffer(b"".join(table["bridges"].to_pylist()), dtype=np.uint8)
                                     .reshape(count, rows, columns))} if "bridges" in table.column_names else {}),
        "entrance": np.stack([table["entrance_x"].to_numpy(), table["entrance_y"].to_numpy()], axis=1),
        "exit": np.stack([table["exit_x"].to_numpy(), table["exit_y"].to_numpy()], axis=1),
        "digest": np.array([list(bytes.fromhex(d)) for d in table["digest"].to_pylist()], dtype=np.uint8),
        "things": things,
        "things_offsets": things_offsets,
        "code": codes,
        "code_offsets": code_offsets,
    }
    _opt_in_from_table(table, arrays, (rows, columns))
    return arrays


def union_schema(shards: List[bytes], names: Optional[List[str]] = None) -> Any:
    """The pyarrow schema holding every column of these Parquet shards' bytes (:func:`pyarrow.unify_schemas`),
    each footer read within the limits a shard's keeps (:data:`mazeplugin.dataset.parquet_check.FOOTER_LIMITS`)."""
    require_pyarrow()
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .errors import DatasetError
    from .parquet_check import FOOTER_LIMITS

    schemas = []
    for index, data in enumerate(shards):
        try:
            schemas.append(pq.ParquetFile(pa.BufferReader(data), **FOOTER_LIMITS).schema_arrow)
        except (pa.ArrowException, OSError, ValueError) as error:
            name = names[index] if names is not None else f"number {index}"
            raise DatasetError(f"shard {name}: not a Parquet file this mazeplugin reads ({str(error)[:200]})") from None
    return pa.unify_schemas(schemas)
