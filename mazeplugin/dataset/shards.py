"""Shards: the levels of one slice of an entry, as columns of numpy arrays, and their ``.npz`` files.

A shard's arrays (every dtype little-endian and fixed):

- ``slot`` int64: each level's position in its entry (0-based); ``seed``
  uint64: the seed it was made from (the entry's ``first_seed + slot``, or a
  replacement, see :mod:`mazeplugin.dataset.building`); ``level_seed`` uint64:
  ``level.seed`` (differs from ``seed`` only under ``require``).
- ``tiles`` uint8 ``(levels, rows, ceil(columns / 8))``: each level's tiles
  packed 8 to a byte along rows (``np.packbits(tiles, axis=-1)``; 1 = wall),
  and ``tile_shape`` int64 ``[rows, columns]``: unpack with
  ``np.unpackbits(tiles, axis=-1, count=columns)``.
- ``bridges`` uint8 ``(levels, 2, rows, ceil(columns / 8))``, in a shard of a
  weave entry only (``weave`` in the spec entry): each level's
  :attr:`~mazeplugin.Level.bridges` as two bit planes packed like ``tiles``,
  plane 0 the tiles with a tunnel east–west (1) and plane 1 north–south (2):
  ``planes = np.unpackbits(bridges, axis=-1, count=columns)``, then
  ``planes[:, 0] + 2 * planes[:, 1]`` is the layer (all 0 for a level that got
  no crossing). Shards of every other entry have no ``bridges``.
- ``entrance``, ``exit`` int32 ``(levels, 2)``: ``(x, y)``, ``-1`` without markers.
- ``digest`` uint8 ``(levels, 32)``: :func:`mazeplugin.dataset.digest`.
- ``things`` and ``code``: UTF-8 text of all levels end to end (uint8), cut at
  ``things_offsets`` / ``code_offsets`` int64 ``(levels + 1)``: each level's
  things as a JSON list of ``{"kind", "x", "y", "id", "props"}``, and its
  level code (empty where the options have none).
- ``stats_<field>`` for every :class:`mazeplugin.analysis.Stats` field:
  int64 (``-1`` for None) or float64 (NaN for None); left out when the
  entry says ``"stats": false``.

An entry's opt-in ``"columns"`` (solution, distances, moves, actions, tokens,
images; a grid entry's solution and distances in cells) come after all of
these, in a grid shard too: see :mod:`mazeplugin.dataset.columns`; shards of
an entry without them hold none.

A shard of hex, triangle, polar or wrapping levels (``grid=``, ``wrap=``:
:class:`~mazeplugin.Level` s) has no tiles or things; in their
place, after ``level_seed``: ``passages`` uint8 ``(levels, ceil(edges / 8))``,
each level's open edges packed 8 to a byte in the grid's edge order
(``np.unpackbits(passages, axis=-1, count=edges)`` gives ``level.maze.open``),
``edge_count`` int64 ``[edges]``, ``entrance`` and ``exit`` int32 ``(levels,)``
(cells, -1 without markers), ``openings`` int32 ``(levels, 2, 2)``: each
opening's ``(cell, side)`` (side -1 for an opening inside a cell; a row of -1
for none); then ``digest``, ``code`` and the ``stats_`` columns as above
(``detour_ratio`` and ``turns`` are None on these grids).

The ``.npz`` file is an uncompressed zip written here byte by byte (entries in
the order above, every time stamp 1980-01-01 00:00, no extra fields, each
``.npy`` header written here too), so its bytes depend only on the arrays, on
every numpy and Python version: ``np.savez`` leaves the ``.npy`` headers to
numpy and the zip records (zip64 extras, versions) to Python's ``zipfile``,
which have changed between releases. ``np.load`` reads it as any ``.npz``.
"""

from __future__ import annotations

import json
import struct
import zlib
from typing import Any, BinaryIO, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, cast

import numpy as np
from numpy.typing import NDArray

import mazeplugin as mp
from mazeplugin import pipeline, pipeline_batch
from mazeplugin.difficulty import candidate_seeds
from mazeplugin.formats import jsonio
from mazeplugin.formats.jsontext import parse_json
from mazeplugin.level import Level
from mazeplugin.pipeline_batch import LevelBatch

from .digest import digest_bytes, tiles_digest
from .errors import DatasetError
from .figures import FLOAT_STATS, STATS_FIELDS, batch_stats, shard_stats
from .spec import Entry, passes

__all__ = ["STATS_FIELDS", "LevelMaker", "make_level", "shard_arrays", "batch_arrays", "batch_digests", "write_npz", "npz_bytes", "MAX_REFITS", "UnfitError",
           "bridge_planes", "bridge_layers"]


MAX_REFITS = 1000
"""Most derived seeds tried for one slot whose level cannot hold the entry's content."""


class UnfitError(ValueError):
    """No seed tried for a slot made a level that holds the entry's content."""


class LevelMaker:
    """Makes an entry's level of a seed, exactly as ``mp.generate(generator, width, height, seed=seed, **kwargs)``.

    ``generate`` checks every argument on every call, a third of a 9 x 9
    level's time. An entry's arguments are the same for every seed, so here
    they are checked once (:meth:`mazeplugin.pipeline.Build.checked`, for the
    entry's first seed) and each level runs the same stages on that
    checked build reseeded (:meth:`~mazeplugin.pipeline.Build.reseeded`: its own seed, random streams and maze): what
    ``generate`` does after its checks. Entries with ``require`` (a search
    over seeds) go through ``generate`` itself.
    """

    entry: Entry
    kwargs: Dict[str, Any]

    def __init__(self, entry: Entry, kwargs: Optional[Mapping[str, Any]] = None) -> None:
        self.entry = entry
        self.kwargs = dict(entry.kwargs() if kwargs is None else kwargs)
        self._template: Optional[pipeline.Build] = None
        if entry.generator != "dungeon" and not {"require", "grid", "wrap", "progress", "attempts"} & set(self.kwargs):
            self._template = pipeline.Build.checked(entry.generator, entry.width, entry.height,
                                                    seed=entry.first_seed, **self.kwargs)

    def batch(self, seeds: Sequence[int]) -> Optional[LevelBatch]:
        """The levels of ``seeds`` made together (:func:`mazeplugin.pipeline_batch.make_batch`), or None
        when the entry is not one the batched lane takes (then make them one by one)."""
        template = self._template
        if template is None or pipeline_batch.why_not(template) is not None or not seeds or self.entry.filters:
            return None
        return pipeline_batch.make_batch(template, seeds)

    def __call__(self, seed: int) -> mp.AnyLevel:
        """The level of ``seed``; ``ValueError`` when it cannot hold the entry's content (as from ``generate``)."""
        template = self._template
        if template is None:
            level: mp.AnyLevel = mp.generate(self.entry.generator, self.entry.width, self.entry.height, seed=seed,
                                          **self.kwargs)
            return level
        return pipeline.run(template.reseeded(seed))


def make_level(entry: Entry, maker: LevelMaker, seed: int) -> Tuple[int, mp.AnyLevel]:
    """``(seed used, level)`` for ``seed``: the level of ``seed`` itself, or, when its level cannot
    hold the entry's content (``ValueError`` from generate), of the first derived seed
    (:func:`mazeplugin.difficulty.candidate_seeds`) whose level can. The same on every run.

    A level outside the entry's ``"filters"`` is refitted the same way, and
    an entry with ``"columns"`` also needs each level's columns
    (:func:`mazeplugin.dataset.columns.level_columns`): a level without them (a
    route that needs a key swap, see :mod:`mazeplugin.dataset.expert`) is
    refitted the same way.
    """
    used, level, _ = fit_level(entry, maker, seed)
    return used, level


def fit_level(entry: Entry, maker: LevelMaker, seed: int,
              columns: bool = True) -> Tuple[int, mp.AnyLevel, Dict[str, NDArray[Any]]]:
    """:func:`make_level` and the level's opt-in columns (empty without ``"columns"``). ``columns=False``
    leaves the columns out, and so does not refit a level for want of them: the caller computes them and,
    for a level without them, asks again with ``columns=True`` (the level :func:`make_level` gives)."""
    try:
        return _made(entry, maker, seed, columns)
    except ValueError as first:
        error = first
    for tries, candidate in enumerate(candidate_seeds(seed)):
        if tries >= MAX_REFITS:
            break
        try:
            return _made(entry, maker, candidate, columns)
        except ValueError:
            continue
    raise UnfitError(f"seed {seed} and {MAX_REFITS} seeds derived from it make no {entry.generator} "
                     f"{entry.width}x{entry.height} level that fits: {error}")


def _made(entry: Entry, maker: LevelMaker, seed: int,
          columns: bool = True) -> Tuple[int, mp.AnyLevel, Dict[str, NDArray[Any]]]:
    level = maker(seed)
    if entry.filters and not passes(entry, level):
        raise ValueError(f"the level of seed {seed} is outside the entry's filters {dict(entry.filters)}")
    if not columns or not entry.columns:
        return seed, level, {}
    from .columns import grid_level_columns, level_columns

    if level.kind != "square":  # a graph level's columns are of its cells and passages
        return seed, level, grid_level_columns(cast(Level, level), entry.columns)
    return seed, level, level_columns(cast(mp.Level, level), entry.columns, entry.tokenizer)


def _text_column(texts: Sequence[str]) -> Tuple[NDArray[np.uint8], NDArray[np.int64]]:
    data = [t.encode("utf-8") for t in texts]
    offsets = np.zeros(len(data) + 1, dtype="<i8")
    np.cumsum([len(d) for d in data], out=offsets[1:])
    return np.frombuffer(b"".join(data), dtype=np.uint8).copy(), offsets


def text_at(data: NDArray[np.uint8], offsets: NDArray[np.int64], index: int) -> str:
    """The ``index``-th text of a text column."""
    return bytes(data[int(offsets[index]):int(offsets[index + 1])]).decode("utf-8")


def things_at(arrays: Mapping[str, NDArray[Any]], index: int) -> Any:
    """The ``index``-th level's things, parsed from the shard's ``things`` column (a JSON list; read safely:
    a shard's text nested too deep or not JSON is a :class:`DatasetError`, not a traceback)."""
    data = bytes(arrays["things"][int(arrays["things_offsets"][index]):int(arrays["things_offsets"][index + 1])])
    return parse_json(data, f"level {index} of the shard", what="a list of things", error=DatasetError)


def things_json(level: mp.Level) -> str:
    """The level's things as a JSON list (sorted keys, no spaces)."""
    return json.dumps([{"kind": t.kind, "x": t.x, "y": t.y, "id": t.id, "props": t.props} for t in level.things],
                      sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _code(level: mp.AnyLevel) -> str:
    try:
        return mp.level_code(level)
    except ValueError:
        return ""


def _grid_arrays(levels: Sequence[Tuple[int, int, Level]], fields: Sequence[str]) -> Dict[str, NDArray[Any]]:
    """The columns of a shard of grid levels (see the module docstring)."""
    count = len(levels)
    edges = int(levels[0][2].maze.open.size)
    passages = np.empty((count, edges), dtype=np.uint8)
    cells = np.full((count, 2), -1, dtype="<i4")
    openings = np.full((count, 2, 2), -1, dtype="<i4")
    digests = np.empty((count, 32), dtype=np.uint8)
    for i, (_, _, level) in enumerate(levels):
        passages[i] = level.maze.open
        cells[i] = [-1 if c is None else c for c in (level.entrance_cell, level.exit_cell)]
        if len(level.openings) > 2:  # pragma: no cover - a level has an entrance and an exit at most
            raise ValueError(f"a grid level with {len(level.openings)} openings cannot be stored")
        for k, (cell, side) in enumerate(level.openings):
            openings[i, k] = (cell, -1 if side is None else side)
        digests[i] = np.frombuffer(digest_bytes(level), dtype=np.uint8)
    codes, code_offsets = _text_column([_code(level) for _, _, level in levels])
    arrays: Dict[str, NDArray[Any]] = {
        "slot": np.array([slot for slot, _, _ in levels], dtype="<i8"),
        "seed": np.array([seed for _, seed, _ in levels], dtype="<u8"),
        "level_seed": np.array([int(level.seed) for _, _, level in levels], dtype="<u8"),  # type: ignore[arg-type]
        "passages": np.packbits(passages, axis=-1),
        "edge_count": np.array([edges], dtype="<i8"),
        "entrance": np.ascontiguousarray(cells[:, 0]),
        "exit": np.ascontiguousarray(cells[:, 1]),
        "openings": openings,
        "digest": digests,
        "code": codes,
        "code_offsets": code_offsets,
    }
    figures = [level.stats() for _, _, level in levels] if fields else []
    for name in fields:
        values = [getattr(f, name) for f in figures]
        arrays["stats_" + name] = (np.array([np.nan if v is None else v for v in values], dtype="<f8")
                                   if name in FLOAT_STATS else
                                   np.array([-1 if v is None else v for v in values], dtype="<i8"))
    return arrays


def shard_arrays(levels: Sequence[Tuple[int, int, mp.AnyLevel]], *, stats: bool = True,
                 bridges: bool = False) -> Dict[str, NDArray[Any]]:
    """The shard columns (see the module docstring) of ``(slot, seed, level)`` triples, in slot order.

    ``stats=False`` leaves out the ``stats_*`` columns (the entry's ``"stats": false``);
    ``bridges=True`` adds the ``bridges`` column (a weave entry's shard: see
    :func:`mazeplugin.dataset.spec.is_weave`).
    """
    fields = STATS_FIELDS if stats else ()
    if levels[0][2].kind != "square":
        return _grid_arrays(cast(Sequence[Tuple[int, int, Level]], levels), fields)
    return _square_arrays(cast(Sequence[Tuple[int, int, mp.Level]], levels), fields, bridges)


def bridge_planes(layers: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """Bridge layers ``(..., rows, columns)`` as the ``bridges`` column keeps them,
    ``(..., 2, rows, ceil(columns / 8))``: two bit planes (tunnel east–west,
    tunnel north–south) packed like the tiles.

    >>> import mazeplugin as mp
    >>> level = mp.generate("backtracker", 10, 8, seed=2, weave=True)
    >>> planes = bridge_planes(level.bridges)
    >>> planes.shape, bool((bridge_layers(planes, level.tiles.shape[1]) == level.bridges).all())
    ((2, 17, 3), True)
    """
    planes = np.stack([layers == mp.UNDER_EAST_WEST, layers == mp.UNDER_NORTH_SOUTH], axis=-3)
    return np.packbits(planes, axis=-1)


def bridge_layers(planes: NDArray[np.uint8], columns: int) -> NDArray[np.uint8]:
    """The bridge layers ``(..., rows, columns)`` of packed planes (:func:`bridge_planes` undone)."""
    bits = np.unpackbits(planes, axis=-1, count=columns)
    return np.asarray(bits[..., 0, :, :] + np.uint8(2) * bits[..., 1, :, :], dtype=np.uint8)


def _square_arrays(levels: Sequence[Tuple[int, int, mp.Level]], fields: Sequence[str],
                   bridges: bool = False) -> Dict[str, NDArray[Any]]:
    """The columns of a shard of square tilemap levels (see the module docstring)."""
    count = len(levels)
    rows, columns = levels[0][2].tiles.shape
    tiles = np.empty((count, rows, columns), dtype=np.uint8)
    entrance = np.full((count, 2), -1, dtype="<i4")
    exit = np.full((count, 2), -1, dtype="<i4")
    digests = np.empty((count, 32), dtype=np.uint8)
    planes = np.empty((count, 2, rows, -(-columns // 8)) if bridges else (0,), dtype=np.uint8)
    for i, (_, _, level) in enumerate(levels):
        tiles[i] = level.tiles
        if bridges:
            planes[i] = bridge_planes(level.bridges)  # level by level: no unpacked layers of the whole shard
        if level.entrance is not None:
            entrance[i] = level.entrance
        if level.exit is not None:
            exit[i] = level.exit
        digests[i] = np.frombuffer(digest_bytes(level), dtype=np.uint8)
    return _square_columns(
        [slot for slot, _, _ in levels], [seed for _, seed, _ in levels],
        [int(level.seed) for _, _, level in levels],  # type: ignore[arg-type]
        tiles, planes if bridges else None, entrance, exit, digests,
        [things_json(level) for _, _, level in levels], [_code(level) for _, _, level in levels],
        shard_stats([level for _, _, level in levels]) if fields else {}, fields)


def batch_arrays(slots: Sequence[int], batch: LevelBatch, *, stats: bool = True) -> Dict[str, NDArray[Any]]:
    """:func:`shard_arrays` of the levels of a :class:`~mazeplugin.pipeline_batch.LevelBatch` (slot
    ``slots[i]``, seed ``batch.seeds[i]``), made from its arrays: the same columns, no ``Level`` made."""
    count = len(batch)
    entrance = np.full((count, 2), -1, dtype="<i4")
    exit = np.full((count, 2), -1, dtype="<i4")
    if batch.entrance is not None:
        entrance[:] = batch.entrance
    if batch.exit is not None:
        exit[:] = batch.exit
    digests = np.frombuffer(batch_digests(batch), dtype=np.uint8).reshape(count, 32)
    seeds = [int(seed) for seed in batch.seeds]
    fields = STATS_FIELDS if stats else ()
    return _square_columns(list(slots), seeds, seeds, batch.tiles, None, entrance, exit, digests,
                           ["[]"] * count, batch.codes(), batch_stats(batch) if fields else {}, fields)


def batch_digests(batch: LevelBatch) -> bytes:
    """The 32-byte digests (:func:`mazeplugin.dataset.digest`) of a batch's levels, end to end."""
    return b"".join(tiles_digest(tiles, batch.entrance, batch.exit) for tiles in batch.tiles)


def _square_columns(slots: Sequence[int], seeds: Sequence[int], level_seeds: Sequence[int], tiles: NDArray[np.uint8],
                    planes: Optional[NDArray[np.uint8]], entrance: NDArray[np.int32], exit: NDArray[np.int32],
                    digests: NDArray[np.uint8], things: Sequence[str], codes: Sequence[str],
                    figures: Mapping[str, NDArray[Any]], fields: Sequence[str]) -> Dict[str, NDArray[Any]]:
    """A square shard's columns, in the order the module docstring gives, from each level's parts."""
    rows, columns = tiles.shape[1:]
    things_data, things_offsets = _text_column(things)
    codes_data, code_offsets = _text_column(codes)
    arrays: Dict[str, NDArray[Any]] = {
        "slot": np.array(slots, dtype="<i8"),
        "seed": np.array(seeds, dtype="<u8"),
        "level_seed": np.array(level_seeds, dtype="<u8"),
        "tiles": np.packbits(tiles, axis=-1),
        "tile_shape": np.array([rows, columns], dtype="<i8"),
        **({"bridges": planes} if planes is not None else {}),
        "entrance": entrance,
        "exit": exit,
        "digest": digests,
        "things": things_data,
        "things_offsets": things_offsets,
        "code": codes_data,
        "code_offsets": code_offsets,
    }
    for name in fields:
        arrays["stats_" + name] = figures[name]
    return arrays


def _npy(array: NDArray[Any]) -> bytes:
    """An ``.npy`` file (format 1.0) of ``array``, its header written here so no numpy version changes it."""
    array = np.asarray(array)
    if not array.flags.c_contiguous:
        array = array.copy(order="C")  # (np.ascontiguousarray would make a 0-d array 1-d)
    descr = array.dtype.str
    if array.dtype.byteorder == "=":  # pragma: no cover - every shard dtype is given with its order
        descr = np.dtype(descr).newbyteorder("<").str
    shape = "(" + "".join(f"{n}, " for n in array.shape)
    shape = shape[:-2] + ",)" if len(array.shape) == 1 else (shape[:-2] + ")" if array.shape else "()")
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}"
    total = 10 + len(header) + 1
    header += " " * (-total % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + array.tobytes()


_DOS_DATE = (0 << 9) | (1 << 5) | 1  # 1980-01-01, the earliest a zip can say
_MADE_BY = (3 << 8) | 20  # Unix, zip 2.0
_FILE_MODE = (0o100644 << 16)


def npz_bytes(arrays: Mapping[str, NDArray[Any]]) -> bytes:
    """The bytes of an uncompressed ``.npz`` of ``arrays`` (in their order), the same on every run."""
    local: List[bytes] = []
    central: List[bytes] = []
    offset = 0
    for name, array in arrays.items():
        data = _npy(array)
        file_name = (name + ".npy").encode("ascii")
        crc = zlib.crc32(data) & 0xFFFFFFFF
        if len(data) >= 0xFFFFFFFF or offset >= 0xFFFFFFFF:
            raise ValueError("a shard is over 4 GiB; give the entry a smaller shard_size")
        head = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, _DOS_DATE, crc, len(data), len(data),
                           len(file_name), 0)
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, _MADE_BY, 20, 0, 0, 0, _DOS_DATE, crc,
                                   len(data), len(data), len(file_name), 0, 0, 0, 0, _FILE_MODE, offset) + file_name)
        local.append(head + file_name + data)
        offset += len(head) + len(file_name) + len(data)
    directory = b"".join(central)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central), len(directory), offset, 0)
    return b"".join(local) + directory + end


def write_npz(f: BinaryIO, arrays: Mapping[str, NDArray[Any]]) -> None:
    """Write :func:`npz_bytes` of ``arrays`` to the open binary file ``f``."""
    f.write(npz_bytes(arrays))


def read_npz(path: str) -> Dict[str, NDArray[Any]]:
    """Every array of a shard file (never unpickling)."""
    with np.load(path, allow_pickle=False) as data:
        return {name: data[name] for name in data.files}


def _grid_levels_of(arrays: Mapping[str, NDArray[Any]], entry: Entry,
                    level_options: Mapping[str, Any]) -> Iterator[Level]:
    """The :class:`~mazeplugin.Level` s of a grid shard's arrays, in slot order."""
    edges = int(arrays["edge_count"][0])
    for i in range(len(arrays["slot"])):
        bits = np.unpackbits(arrays["passages"][i], count=edges)
        entrance, exit = (int(arrays[k][i]) for k in ("entrance", "exit"))
        data = {
            "format": "mazeplugin-grid-level", "version": 1,
            "grid": entry.options.get("grid", "square"), "width": entry.width, "height": entry.height,
            "wrap": entry.options.get("wrap"), "algorithm": entry.generator, "seed": int(arrays["level_seed"][i]),
            "options": dict(level_options),
            "entrance": entrance if entrance >= 0 else None, "exit": exit if exit >= 0 else None,
            "openings": [[int(c), int(s) if s >= 0 else None] for c, s in arrays["openings"][i] if c >= 0],
            "passages": (bits + np.uint8(ord("0"))).tobytes().decode("ascii"),
        }
        yield cast(Any, jsonio.from_json(json.dumps(data)))  # (a grid level: the shard says so)


def levels_of(arrays: Mapping[str, NDArray[Any]], entry: Entry,
              level_options: Mapping[str, Any]) -> Iterator[mp.AnyLevel]:
    """The :class:`~mazeplugin.Level` s of a shard's arrays, in slot order (rebuilt from their tiles), or the
    :class:`~mazeplugin.Level` s of a grid shard (rebuilt from their passages)."""
    from mazeplugin.formats import jsonio

    if "passages" in arrays:
        yield from _grid_levels_of(arrays, entry, level_options)
        return

    rows, columns = (int(n) for n in arrays["tile_shape"])
    corridor = entry.options.get("corridor", 1)
    wall = entry.options.get("wall", 1)
    for i in range(len(arrays["slot"])):
        tiles = np.unpackbits(arrays["tiles"][i], axis=-1, count=columns)
        digits = (tiles + np.uint8(ord("0"))).tobytes().decode("ascii")
        entrance: Optional[List[int]] = [int(v) for v in arrays["entrance"][i]]
        exit: Optional[List[int]] = [int(v) for v in arrays["exit"][i]]
        data = {
            "format": jsonio.FORMAT,
            "version": 2,
            "generator": entry.generator,
            "width": entry.width,
            "height": entry.height,
            "seed": int(arrays["level_seed"][i]),
            "options": dict(level_options),
            "corridor": corridor,
            "wall": wall,
            "entrance": entrance if entrance != [-1, -1] else None,
            "exit": exit if exit != [-1, -1] else None,
            "tiles": [digits[r * columns:(r + 1) * columns] for r in range(rows)],
            "things": things_at(arrays, i),
        }
        layer = bridge_layers(arrays["bridges"][i], columns) if "bridges" in arrays else None
        if layer is not None and layer.any():  # a weave level: its bridges, as a version 3 level file
            ys, xs = np.nonzero(layer)
            data["version"] = 3
            data["bridges"] = [[x, y, int(layer[y, x])] for x, y in zip(xs.tolist(), ys.tolist())]
        yield jsonio.from_json(json.dumps(data))
