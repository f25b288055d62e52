"""Bounds on what a Parquet shard may decode to, proved before pyarrow decodes it.

pyarrow decompresses zstd pages and expands dictionary and RLE runs itself,
and the footer's sizes do not bound what comes out: a shard of a few
kilobytes (even one whose checksum matches a forged manifest) could hold a
zstd page of a gigabyte of zeros, a million rows of one RLE run, or one
dictionary value repeated on every row. So before any column is decoded:

- the footer must say what the manifest's record does: ``levels`` rows, at
  most that many row groups, every column chunk compressed with zstd or not at
  all, a flat column one value a row;
- every page header of every chunk to be read is parsed here (Thrift's
  compact protocol, nothing decoded) and their values must add up to the
  chunk's, their uncompressed sizes (what pyarrow allocates to decompress a
  page, and refuses a page that decompresses to more) to at most the shard's
  budget: ``levels`` times :func:`level_budget` of its entry (the tiles or
  edges of a level, from the manifest entry that ``verify`` proves against
  the spec);

and then columns are read one at a time, text and binary columns kept as
dictionaries until their decoded size (counted from the dictionary's value
lengths) is known to fit, the decoded total checked after each column.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from .errors import DatasetError

__all__ = ["FOOTER_LIMITS", "level_budget", "checked_file", "read_columns"]

ALLOWED_COMPRESSION = ("ZSTD", "UNCOMPRESSED")
"""The page compressions read: mazeplugin writes zstd."""

FOOTER_LIMITS = {"thrift_container_size_limit": 4096, "thrift_string_size_limit": 1 << 20}
"""How far pyarrow's footer reader goes: a shard's footer has a few dozen columns, one row group and a schema
of a few kilobytes; pyarrow's own limits (a million entries a list, 100 MB a string) would let a forged footer
of megabytes unpack to hundreds of megabytes of metadata."""

_MAX_DEPTH = 16  # nested Thrift structs in a page header: a handful in any real file


def level_budget(entry: Mapping[str, Any]) -> int:
    """Most bytes one level of the manifest entry ``entry`` may take in a Parquet shard, decoded or in its pages.

    The tiles (or edges) ``n`` of a level, from the entry's ``tile_shape`` (or
    ``edges``; a square entry's ``tile_shape`` at most 4 times what its
    width, height, ``corridor`` and ``wall`` make, whatever a forged manifest
    says): 64 KiB + 512 n, plus 32 s² n with the ``"images"`` column at scale
    ``s``. Every column mazeplugin writes fits many times over (the largest, a
    route with keys or the distances, is a few ``int32`` a tile; honest shards
    of 6 kinds of entry take at most 5 % of it).

    >>> level_budget({"tile_shape": [9, 9]})
    107008
    >>> level_budget({"tile_shape": [9, 9], "width": 4, "height": 4}) == level_budget(
    ...     {"tile_shape": [9000, 9000], "width": 4, "height": 4}) - 512 * (4 * 81 - 81)
    True
    >>> level_budget({"tile_shape": [9, 9], "columns": ["images"], "image_scale": 2})
    117376
    """
    from mazeplugin.limits import MAX_TILES

    shape, edges = entry.get("tile_shape"), entry.get("edges")
    if isinstance(shape, list) and len(shape) == 2 and all(_whole(v) for v in shape):
        tiles = int(shape[0]) * int(shape[1])
    elif isinstance(edges, int) and _whole(edges):
        tiles = edges
    else:
        raise DatasetError(f"manifest entry {entry.get('entry')}: has no tile_shape or edges to bound its shards by")
    corridor, wall = entry.get("corridor", 1), entry.get("wall", 1)
    width, height = entry.get("width"), entry.get("height")
    if shape is not None and all(_whole(v) for v in (corridor, wall, width, height)):
        pitch = corridor + wall  # a square level's tiles: (height * pitch + wall) x (width * pitch + wall)
        tiles = min(tiles, 4 * (height * pitch + wall) * (width * pitch + wall))  # (4: room to spare)
    if not 0 < tiles <= MAX_TILES:
        raise DatasetError(f"manifest entry {entry.get('entry')}: {tiles:,} tiles a level is outside 1..{MAX_TILES:,}")
    scale = (entry.get("image_scale") or 1) if "images" in (entry.get("columns") or ()) else 0
    if not _whole(scale) or scale > 1024:
        raise DatasetError(f"manifest entry {entry.get('entry')}: image_scale {scale!r:.40} is not a scale")
    return (64 << 10) + 512 * tiles + 32 * int(scale) ** 2 * tiles


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def checked_file(data: bytes, name: str, levels: int, budget: int, columns: Optional[Sequence[str]] = None) -> Any:
    """The ``pyarrow.parquet.ParquetFile`` of the shard ``data`` (file ``name``, ``levels`` rows), once its footer
    and the page headers of ``columns`` (every column when None) are within ``budget`` bytes (see the module)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        file = pq.ParquetFile(pa.BufferReader(data), **FOOTER_LIMITS)
        meta = file.metadata
    except (pa.ArrowException, OSError, ValueError) as error:
        raise DatasetError(f"shard {name}: not a Parquet file this mazeplugin reads ({str(error)[:200]})") from None
    if meta.num_rows != levels:
        raise DatasetError(f"shard {name}: its footer says {meta.num_rows:,} rows, the manifest's record "
                           f"{levels:,} levels")
    if not 0 < meta.num_row_groups <= max(levels, 1):
        raise DatasetError(f"shard {name}: {meta.num_row_groups:,} row groups for {levels:,} levels")
    schema = file.schema
    wanted = range(meta.num_columns) if columns is None else [
        i for i in range(meta.num_columns) if schema.column(i).path.split(".")[0] in columns]
    total = 0
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        for i in wanted:
            chunk = group.column(i)
            where = f"shard {name}: column {chunk.path_in_schema!r:.60} of row group {g}"
            if chunk.compression not in ALLOWED_COMPRESSION:
                raise DatasetError(f"{where} is compressed with {chunk.compression}; mazeplugin writes "
                                   f"{' or '.join(ALLOWED_COMPRESSION).lower()} pages and reads no other")
            flat = schema.column(i).max_repetition_level == 0
            if flat and chunk.num_values != group.num_rows:
                raise DatasetError(f"{where}: {chunk.num_values:,} values for {group.num_rows:,} rows")
            if chunk.num_values > budget or chunk.total_uncompressed_size > budget:
                raise DatasetError(f"{where}: {chunk.num_values:,} values, {chunk.total_uncompressed_size:,} bytes "
                                   f"uncompressed; a shard of {levels:,} levels takes at most {budget:,} bytes")
            total += _pages(data, chunk, where, budget - total)
    arrow = file.schema_arrow  # reopened to read its text and binary columns as dictionaries (see read_columns)
    return pq.ParquetFile(pa.BufferReader(data), read_dictionary=[n for n in arrow.names if _text(arrow.field(n).type)],
                          **FOOTER_LIMITS)


def _text(kind: Any) -> bool:
    import pyarrow as pa

    return bool(pa.types.is_binary(kind) or pa.types.is_string(kind) or pa.types.is_large_binary(kind)
                or pa.types.is_large_string(kind))


def _pages(data: bytes, chunk: Any, where: str, budget: int) -> int:
    """The uncompressed bytes of the pages of a column chunk (every page header read, no page decoded), refused
    past ``budget`` or unless its data pages hold exactly the chunk's values."""
    start = chunk.data_page_offset
    if chunk.has_dictionary_page and 0 < chunk.dictionary_page_offset < start:
        start = chunk.dictionary_page_offset
    end = start + chunk.total_compressed_size
    if not 0 <= start <= end <= len(data):
        raise DatasetError(f"{where}: its pages at bytes {start:,}..{end:,} are outside the file's {len(data):,}")
    pos, values, size = start, 0, 0
    while pos < end:
        header, pos = _struct(data, pos, end, 0)
        compressed, uncompressed = header.get(3), header.get(2)
        if not (isinstance(compressed, int) and isinstance(uncompressed, int) and compressed >= 0
                and uncompressed >= 0 and pos + compressed <= end):
            raise DatasetError(f"{where}: a page header at byte {pos:,} is not one this mazeplugin reads")
        pos += compressed
        size += uncompressed
        page = header.get(5, header.get(8))  # a data page (v1 or v2)
        if isinstance(page, dict):
            count = page.get(1)
            values += count if isinstance(count, int) and count >= 0 else budget + 1
        if size > budget or values > chunk.num_values:
            raise DatasetError(f"{where}: its pages hold {values:,} values (the footer says {chunk.num_values:,}) "
                               f"of {size:,} bytes uncompressed, past what the shard's levels may take")
    if values != chunk.num_values:
        raise DatasetError(f"{where}: its pages hold {values:,} values, the footer says {chunk.num_values:,}")
    return size


def _varint(data: bytes, pos: int, end: int) -> Tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= end or shift > 63:
            raise DatasetError("a Parquet page header is cut short or malformed")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, pos


def _zigzag(value: int) -> int:
    return (value >> 1) ^ -(value & 1)


_FIXED = {3: 1, 7: 8}  # byte, double: fixed widths in the compact protocol


def _value(data: bytes, pos: int, end: int, kind: int, depth: int) -> Tuple[Any, int]:
    """One value of compact-protocol type ``kind`` at ``pos``: ints and structs kept, the rest skipped (None)."""
    if kind in (1, 2):
        return kind == 1, pos
    if kind in _FIXED:
        if pos + _FIXED[kind] > end:
            raise DatasetError("a Parquet page header is cut short")
        return None, pos + _FIXED[kind]
    if kind in (4, 5, 6):
        raw, pos = _varint(data, pos, end)
        return _zigzag(raw), pos
    if kind == 8:
        length, pos = _varint(data, pos, end)
        if pos + length > end:
            raise DatasetError("a Parquet page header is cut short")
        return None, pos + length
    if kind == 12:
        return _struct(data, pos, end, depth + 1)
    if kind in (9, 10):
        if pos >= end:
            raise DatasetError("a Parquet page header is cut short")
        head = data[pos]
        pos += 1
        count, element = head >> 4, head & 0x0F
        if count == 15:
            count, pos = _varint(data, pos, end)
        for _ in range(min(count, end - pos + 1)):
            _, pos = _value(data, pos, end, 3 if element in (1, 2) else element, depth + 1)
        return None, pos
    if kind == 11:
        count, pos = _varint(data, pos, end)
        if count:
            if pos >= end:
                raise DatasetError("a Parquet page header is cut short")
            types = data[pos]
            pos += 1
            for _ in range(min(count, end - pos + 1)):
                for element in (types >> 4, types & 0x0F):
                    _, pos = _value(data, pos, end, 3 if element in (1, 2) else element, depth + 1)
        return None, pos
    raise DatasetError(f"a Parquet page header holds a value of unknown type {kind}")


def _struct(data: bytes, pos: int, end: int, depth: int) -> Tuple[Dict[int, Any], int]:
    """The fields of a compact-protocol struct at ``pos`` (``{field id: value}``) and the position after it."""
    if depth > _MAX_DEPTH:
        raise DatasetError("a Parquet page header nests too deep")
    fields: Dict[int, Any] = {}
    field = 0
    while True:
        if pos >= end:
            raise DatasetError("a Parquet page header is cut short")
        head = data[pos]
        pos += 1
        if head == 0:
            return fields, pos
        delta, kind = head >> 4, head & 0x0F
        if delta:
            field += delta
        else:
            raw, pos = _varint(data, pos, end)
            field = _zigzag(raw)
        fields[field], pos = _value(data, pos, end, kind, depth)


def read_columns(file: Any, name: str, budget: int, columns: Optional[Sequence[str]] = None,
                 caps: Optional[Mapping[str, int]] = None) -> Any:
    """A ``pyarrow.Table`` of ``columns`` (every one when None) of the checked ``file``, read one at a time, each
    text or binary column as a dictionary first: refused once the decoded total would pass ``budget``, or a
    column named in ``caps`` its own bound there (a column of fixed-size values turned into Python objects)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    names: List[str] = list(file.schema_arrow.names if columns is None else columns)
    total = 0
    read: Dict[str, Any] = {}
    for column in names:
        part = file.read(columns=[column])[column]
        if pa.types.is_dictionary(part.type) and _text(part.type.value_type):
            size = sum(pc.sum(pc.take(pc.binary_length(chunk.dictionary), chunk.indices)).as_py() or 0
                       for chunk in part.chunks) + 8 * len(part)
        else:
            size = part.nbytes
        total += size
        cap = (caps or {}).get(column, budget)
        if total > budget or size > cap:
            raise DatasetError(f"shard {name}: column {column!r:.60} decodes past {min(budget, cap):,} bytes, the "
                               "most a shard of its levels takes")
        read[column] = part.cast(part.type.value_type) if pa.types.is_dictionary(part.type) else part
    return pa.table(read)
