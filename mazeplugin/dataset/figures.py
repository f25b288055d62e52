"""The ``stats()`` figures of a whole shard, in one compiled pass where the levels allow it.

A shard keeps :meth:`mazeplugin.Level.stats` of every level (the ``stats_<name>``
columns of :mod:`mazeplugin.dataset.shards`). Asking each level costs as much
as making it, most of it per-call work, so :func:`shard_stats` hands the levels
whose maze is plain (every cell inside the mask, no rooms, no bridges: what most entries
make) to one numba loop over the shard (:mod:`mazeplugin.dataset.figures_kernel`)
and asks only the others one by one. The figures, and so the shard bytes, are
the same either way; the compiled pass runs when the compiled path is on
(:func:`mazeplugin.compiled.available`) and the shard is big enough to be worth
loading numba for.

>>> import mazeplugin as mp
>>> levels = [mp.generate("backtracker", 9, 9, seed=s) for s in range(3)]
>>> columns = shard_stats(levels)
>>> [int(v) for v in columns["solution_length"]] == [lv.stats().solution_length for lv in levels]
True
"""

from __future__ import annotations

import dataclasses
import math
import sys
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

import mazeplugin as mp
from mazeplugin._compiled import forked_mid_load, twin
from mazeplugin.analysis import Stats
from mazeplugin.pipeline_batch import LevelBatch

__all__ = ["STATS_FIELDS", "FLOAT_STATS", "shard_stats", "batch_stats", "COMPILED_MIN_CELLS"]

_BFS = twin("bfs")  # the searches' kernel, which the compiled pass imports

STATS_FIELDS: Tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Stats))
"""The ``stats()`` figures each shard keeps, as ``stats_<name>`` columns."""

FLOAT_STATS = frozenset(f.name for f in dataclasses.fields(Stats) if "float" in str(f.type))
"""The figures kept as float64 (NaN for None); the others are int64 (-1 for None)."""

COMPILED_MIN_CELLS = 20_000
"""Cells in a shard from which the compiled pass loads numba by itself (once numba is loaded: any shard)."""


def _cell(level: mp.Level, tile: Tuple[int, int]) -> int:
    """The cell number of the cell a marker tile is on or beside (as ``Level.stats`` finds it)."""
    bx, by = level.layout.base_of(tile)
    x = min(max((bx - 1) // 2, 0), level.width - 1)
    y = min(max((by - 1) // 2, 0), level.height - 1)
    return y * level.width + x


def _use_compiled(levels: Sequence[mp.Level]) -> bool:
    from mazeplugin.compiled import available

    if not available() or levels[0].kind != "square":
        return False
    cells = len(levels) * levels[0].width * levels[0].height
    return ("numba" in sys.modules or cells >= COMPILED_MIN_CELLS) and _searches_loaded()


def _searches_loaded() -> bool:
    """Whether the searches' kernel (``bfs``, which the compiled pass imports) is loaded in this process.

    Asked of the compiled layer, never by importing the kernel module here: in a process forked
    while a background thread was loading kernels, that module's import lock stays held by a thread
    that no longer exists. The layer says no then (and while a warm-up is still running), and the
    plain figures are used: the same values.
    """
    return not forked_mid_load() and _BFS.pick() is not None


def _compiled_rows(levels: Sequence[mp.Level]) -> List[Optional[Dict[str, Any]]]:
    """Each plain level's figures as a dict (None for the others, to ask one by one); for tests."""
    columns = _empty_columns(len(levels))
    done = _compiled_columns(levels, columns)
    return [{name: _value(name, columns[name][i]) for name in STATS_FIELDS} if done[i] else None
            for i in range(len(levels))]


def _value(name: str, value: Any) -> Any:
    if name in FLOAT_STATS:
        return None if math.isnan(value) else float(value)
    return None if value == -1 else int(value)


def _empty_columns(count: int) -> Dict[str, NDArray[Any]]:
    return {name: (np.full(count, np.nan, dtype="<f8") if name in FLOAT_STATS else np.full(count, -1, dtype="<i8"))
            for name in STATS_FIELDS}


def _compiled_columns(levels: Sequence[mp.Level], columns: Dict[str, NDArray[Any]]) -> NDArray[np.bool_]:
    """Fill ``columns`` for the plain levels (every cell in the mask, no rooms, no bridges); which levels those were."""
    mazes = [level.maze for level in levels]
    plain: NDArray[np.bool_] = np.asarray(np.stack([maze.mask for maze in mazes]).all(axis=(1, 2)))
    plain &= ~np.stack([maze.rooms for maze in mazes]).any(axis=(1, 2))
    plain &= ~np.array([level.weave for level in levels], dtype=bool)  # tunnels: the kernel walks no bridges
    chosen = np.flatnonzero(plain)
    if not chosen.size:
        return plain
    width = levels[0].width
    east = np.stack([mazes[i].east.reshape(-1) for i in chosen]).view(np.uint8)
    south = np.stack([mazes[i].south.reshape(-1) for i in chosen]).view(np.uint8)
    starts = np.full(len(chosen), -1, dtype=np.int64)
    goals = np.full(len(chosen), -1, dtype=np.int64)
    for k, i in enumerate(chosen.tolist()):
        level = levels[i]
        if level.entrance is not None and level.exit is not None:
            starts[k], goals[k] = _cell(level, level.entrance), _cell(level, level.exit)
    _fill_columns(columns, chosen, east, south, width, starts, goals)
    return plain


def batch_stats(batch: LevelBatch) -> Dict[str, NDArray[Any]]:
    """:func:`shard_stats` of the levels of a :class:`~mazeplugin.pipeline_batch.LevelBatch` (plain mazes:
    the compiled pass for all of them), from its passages: no ``Level`` made."""
    count = len(batch)
    columns = _empty_columns(count)
    if not _searches_loaded():  # the figures of each level, as Level.stats() finds them
        _plain_columns(columns, [batch.level(i) for i in range(count)], range(count))
        return columns
    first = batch.level(0)  # (the marker cells, as Level.stats finds them: the same for every level of a batch)
    start = goal = -1
    if batch.entrance is not None and batch.exit is not None:
        start, goal = _cell(first, batch.entrance), _cell(first, batch.exit)
    east = np.ascontiguousarray(batch.east.reshape(count, -1)).view(np.uint8)
    south = np.ascontiguousarray(batch.south.reshape(count, -1)).view(np.uint8)
    _fill_columns(columns, np.arange(count), east, south, batch.layout.width,
                  np.full(count, start, dtype=np.int64), np.full(count, goal, dtype=np.int64))
    return columns


def _fill_columns(columns: Dict[str, NDArray[Any]], chosen: NDArray[np.int64], east: NDArray[np.uint8],
                  south: NDArray[np.uint8], width: int, starts: NDArray[np.int64], goals: NDArray[np.int64]) -> None:
    """The figures of plain mazes (passages ``east``, ``south``: one flat row each) into rows ``chosen``."""
    from .figures_kernel import COLUMNS, shard_figures

    figures = shard_figures(east, south, width, starts, goals)
    for j, name in enumerate(COLUMNS):
        columns[name][chosen] = figures[:, j]
    cells = figures[:, 0]
    dead = figures[:, 2]
    # IEEE division of the same two integers: the very float ``dead / cells`` gives.
    columns["dead_end_fraction"][chosen] = np.where(cells > 0, dead / np.maximum(cells, 1), 0.0)
    lengths = figures[:, 6].tolist()
    ratios = columns["detour_ratio"]
    for k, (i, length, start, goal) in enumerate(zip(chosen.tolist(), lengths, starts.tolist(), goals.tolist())):
        if length >= 0:
            straight = math.sqrt((goal % width - start % width) ** 2 + (goal // width - start // width) ** 2)
            if straight:
                ratios[i] = length / straight  # as analysis.stats: the same bits on every Python


def shard_stats(levels: Sequence[mp.Level]) -> Dict[str, NDArray[Any]]:
    """``{field: column}`` of the ``stats()`` figures of ``levels`` (one maze size): int64
    with -1 for None, float64 with NaN for None, as the shard columns keep them."""
    columns = _empty_columns(len(levels))
    done = _compiled_columns(levels, columns) if levels and _use_compiled(levels) else np.zeros(len(levels), bool)
    _plain_columns(columns, levels, np.flatnonzero(~done).tolist())
    return columns


def _plain_columns(columns: Dict[str, NDArray[Any]], levels: Sequence[mp.Level], rows: Iterable[int]) -> None:
    """Rows ``rows`` of ``columns`` from ``levels[row].stats()``, level by level."""
    for i in rows:
        figures = levels[i].stats()
        for name in STATS_FIELDS:
            value = getattr(figures, name)
            if value is not None:
                columns[name][i] = value
