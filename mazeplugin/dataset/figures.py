"""The ``stats()`` figures of a whole shard, in one compiled pass where the levels allow it.

A shard keeps :meth:`mazeplugin.Level.stats` of every level (the ``stats_<name>``
columns of :mod:`mazeplugin.dataset.shards`). Asking each level costs as much
as making it, most of it per-call work, so :func:`shard_stats` hands the levels
whose maze is plain (every cell inside the mask, no rooms: what most entries
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
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

import mazeplugin as mp
from mazeplugin.analysis import Stats

__all__ = ["STATS_FIELDS", "FLOAT_STATS", "shard_stats", "COMPILED_MIN_CELLS"]

STATS_FIELDS: Tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Stats))
"""The ``stats()`` figures each shard keeps, as ``stats_<name>`` columns."""

FLOAT_STATS = frozenset(f.name for f in dataclasses.fields(Stats) if "float" in str(f.type))
"""The figures kept as float64 (NaN for None); the others are int64 (-1 for None)."""

COMPILED_MIN_CELLS = 20_000
"""Cells in a shard from which the compiled pass loads numba by itself (once numba is loaded: any shard)."""


def _plain(level: mp.Level) -> bool:
    maze = level.maze
    return bool(maze.mask.all()) and not maze.rooms.any()


def _cell(level: mp.Level, tile: Tuple[int, int]) -> int:
    """The cell number of the cell a marker tile is on or beside (as ``Level.stats`` finds it)."""
    bx, by = level.layout.base_of(tile)
    x = min(max((bx - 1) // 2, 0), level.width - 1)
    y = min(max((by - 1) // 2, 0), level.height - 1)
    return y * level.width + x


def _use_compiled(levels: Sequence[mp.Level]) -> bool:
    from mazeplugin.compiled import available

    if not available():
        return False
    cells = len(levels) * levels[0].width * levels[0].height
    return "numba" in sys.modules or cells >= COMPILED_MIN_CELLS


def _compiled_rows(levels: Sequence[mp.Level]) -> List[Optional[Dict[str, Any]]]:
    """Each plain level's figures as a dict (None for the others, to ask one by one)."""
    from .figures_kernel import COLUMNS, shard_figures

    plain = [i for i, level in enumerate(levels) if _plain(level)]
    rows: List[Optional[Dict[str, Any]]] = [None] * len(levels)
    if not plain:
        return rows
    width = levels[0].width
    east = np.stack([levels[i].maze.east.reshape(-1) for i in plain]).view(np.uint8)
    south = np.stack([levels[i].maze.south.reshape(-1) for i in plain]).view(np.uint8)
    starts = np.full(len(plain), -1, dtype=np.int64)
    goals = np.full(len(plain), -1, dtype=np.int64)
    for k, i in enumerate(plain):
        level = levels[i]
        if level.entrance is not None and level.exit is not None:
            starts[k], goals[k] = _cell(level, level.entrance), _cell(level, level.exit)
    figures = shard_figures(east, south, width, starts, goals).tolist()
    for k, i in enumerate(plain):
        row = dict(zip(COLUMNS, figures[k]))
        cells = row["cells"]
        row["dead_end_fraction"] = row["dead_ends"] / cells if cells else 0.0
        length = row["solution_length"]
        row["detour_ratio"] = None
        if length < 0:
            row["solution_length"] = row["decision_points"] = row["turns"] = None
        else:
            (x0, y0), (x1, y1) = divmod(int(starts[k]), width)[::-1], divmod(int(goals[k]), width)[::-1]
            straight = math.hypot(x1 - x0, y1 - y0)
            row["detour_ratio"] = length / straight if straight else None
        rows[i] = row
    return rows


def shard_stats(levels: Sequence[mp.Level]) -> Dict[str, NDArray[Any]]:
    """``{field: column}`` of the ``stats()`` figures of ``levels`` (one maze size): int64
    with -1 for None, float64 with NaN for None, as the shard columns keep them."""
    rows: List[Optional[Dict[str, Any]]] = (_compiled_rows(levels) if levels and _use_compiled(levels)
                                            else [None] * len(levels))
    columns: Dict[str, List[Any]] = {name: [] for name in STATS_FIELDS}
    for level, row in zip(levels, rows):
        figures = row if row is not None else dataclasses.asdict(level.stats())
        for name in STATS_FIELDS:
            columns[name].append(figures[name])
    arrays: Dict[str, NDArray[Any]] = {}
    for name in STATS_FIELDS:
        values = columns[name]
        if name in FLOAT_STATS:
            arrays[name] = np.array([np.nan if v is None else v for v in values], dtype="<f8")
        else:
            arrays[name] = np.array([-1 if v is None else v for v in values], dtype="<i8")
    return arrays
