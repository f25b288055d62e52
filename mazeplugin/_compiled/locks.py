"""Keys and locked doors on a batch of levels in one call: the compiled twin of ``keys=`` placement.

:func:`mazeplugin.content.placing.place_things` with only ``keys`` asked for
does, per level: the floor graph (:func:`mazeplugin._compiled.content.floor_graph`),
the route's separators, the cells that may hold a key, a noise float per such
cell from the content stream, the lock candidates
(:func:`~mazeplugin._compiled.content.lock_candidates`) and the plan of
:func:`mazeplugin.content.locks.plan_locks`. Its Python around the kernels
costs more than they do on the small levels an environment resets to; here
the whole of it runs for every level of a batch in one loop, the plan written
out below with the same bisections, the same ties (the earlier door of two as
near its share, the first key of the best score) and the same floats.

The random words are drawn outside (``keyed_words`` of the content stream), as
for every kernel: a level reads the first of its row, one per usable cell.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .content import floor_graph, lock_candidates
from .grid import f64, i64
from .jit import njit, types
from .rand import unit


@njit(types.int64(i64, types.float64, types.int64, types.int64), cache=True, nogil=True)
def bisect_left(values: Any, x: float, lo: int, hi: int) -> int:
    """``bisect.bisect_left(values, x, lo, hi)`` (``x`` a float: the plan bisects for a door's share)."""
    while lo < hi:
        mid = (lo + hi) // 2
        if values[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(types.int64(i64, types.int64), cache=True, nogil=True)
def bisect_right(values: Any, x: int) -> int:
    """``bisect.bisect_right(values, x)``."""
    lo, hi = 0, values.size
    while lo < hi:
        mid = (lo + hi) // 2
        if x < values[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(types.int64(i64, i64, types.int64), cache=True, nogil=True)
def earliest(doors: Any, tops: Any, previous: int) -> int:
    """The first door possible after a door at route index ``previous`` (-1: none)."""
    n = bisect_right(tops, previous)
    if n == tops.size:
        return -1
    m = bisect_right(doors, tops[n])
    return doors[m] if m < doors.size else -1


@njit(types.int64(i64, i64, types.int64, types.int64), cache=True, nogil=True)
def capacity(doors: Any, tops: Any, previous: int, limit: int) -> int:
    """How many locks fit after a door at ``previous``, counting up to ``limit``."""
    count = 0
    while count < limit:
        previous = earliest(doors, tops, previous)
        if previous < 0:
            break
        count += 1
    return count


@njit(types.boolean(types.int64, types.int64, i64, i64, i64, f64, i64, i64), cache=True, nogil=True)
def plan(keys: int, length: int, doors: Any, tops: Any, numbers: Any, scores: Any, door_out: Any,
         key_out: Any) -> bool:
    """:func:`mazeplugin.content.locks.plan_locks` into ``door_out``/``key_out``; False when ``keys`` do not fit."""
    if capacity(doors, tops, -1, keys) < keys:
        return False
    previous = -1
    for i in range(1, keys + 1):
        low = earliest(doors, tops, previous)
        first = bisect_left(doors, float(low), 0, doors.size)
        lo_n, hi_n = first, doors.size - 1
        while lo_n < hi_n:
            mid = (lo_n + hi_n + 1) // 2
            if capacity(doors, tops, doors[mid], keys - i) == keys - i:
                lo_n = mid
            else:
                hi_n = mid - 1
        target = i * (length - 1) / (keys + 1)
        j = bisect_left(doors, target, first, lo_n + 1)
        door = -1
        gap = 0.0
        for k in range(max(j - 1, first), min(j + 1, lo_n + 1)):
            d = abs(doors[k] - target)
            if door < 0 or d < gap:
                door, gap = doors[k], d
        a = bisect_right(tops, previous)
        b = bisect_left(tops, float(door), 0, tops.size)
        best = a
        for k in range(a + 1, b):
            if scores[k] > scores[best]:
                best = k
        door_out[i - 1] = door
        key_out[i - 1] = numbers[best]
        previous = door
    return True


@njit(
    types.void(types.uint8[:, :, ::1], types.int64, types.int64, i64, i64, types.uint64[:, ::1], types.int64,
               types.int64[:, ::1], types.int64[:, ::1], types.boolean[::1]),  # type: ignore[no-untyped-call, unused-ignore]
    cache=True,
    nogil=True,
)
def place_locks(base: Any, entrance: int, goal: int, cell_tiles: Any, markers: Any, words: Any, keys: int,
                door_tiles: Any, key_cells: Any, placed: Any) -> None:
    """``keys`` locks on each base tilemap ``base[i]`` (1 wall, 0 floor), as ``place_things`` places them.

    ``entrance``, ``goal``: the markers' base tiles as padded flat indices
    (``(y + 1) * (columns + 2) + x + 1``); ``cell_tiles``: each cell's base tile
    so, cells in row order; ``markers``: the cell numbers that hold a marker;
    ``words[i]``: the first words of level ``i``'s content stream (at least one per cell).
    Out, per level: ``placed[i]`` (False: its route cannot hold ``keys`` locks,
    or its exit is not reached), ``door_tiles[i, k]`` (door ``k + 1``'s base tile,
    padded flat) and ``key_cells[i, k]`` (the cell number of its key).
    """
    count, rows, columns = base.shape
    stride = columns + 2
    floor = np.zeros((rows + 2) * stride, dtype=np.uint8)
    cells = cell_tiles.size
    usable = np.empty(cells, dtype=np.int64)
    flat = np.empty(cells, dtype=np.int64)
    noise = np.empty(cells, dtype=np.float64)
    cell_degree = np.empty(cells, dtype=np.int64)
    cell_path = np.empty(cells, dtype=np.int64)
    door_pos = np.empty(keys, dtype=np.int64)
    key_n = np.empty(keys, dtype=np.int64)
    for i in range(count):
        for y in range(rows):
            for x in range(columns):
                floor[(y + 1) * stride + x + 1] = 1 if base[i, y, x] == 0 else 0
        degree, dist, parent, route, index, dist_path, touch_high, span_lo, span_hi = floor_graph(
            floor, stride, entrance, goal)
        length = route.size
        if length == 0:
            placed[i] = False
            continue
        # The separators: inner route positions no loop's span bypasses (FloorGraph.separators).
        if length < 3:
            cuts = np.zeros(0, dtype=np.int64)
        else:
            cover = np.zeros(length + 1, dtype=np.int64)
            for s in range(span_lo.size):
                if span_hi[s] - span_lo[s] >= 2:
                    cover[span_lo[s] + 1] += 1
                    cover[span_hi[s]] -= 1
            inner = 0
            covered = 0
            marks = np.zeros(length, dtype=np.bool_)
            for p in range(length - 1):
                covered += cover[p]
                if p >= 1 and covered == 0:
                    marks[p] = True
                    inner += 1
            cuts = np.empty(inner, dtype=np.int64)
            inner = 0
            for p in range(1, length - 1):
                if marks[p]:
                    cuts[inner] = p
                    inner += 1
        # The cells that may hold a key: reached floor, not a marker's cell (cell numbers in row order).
        m = 0
        for n in range(cells):
            t = cell_tiles[n]
            if floor[t] == 0 or dist[t] < 0 or n == markers[0] or n == markers[1]:
                continue
            usable[m] = n
            flat[m] = t
            noise[m] = unit(words[i, m]) * 0.5
            cell_degree[m] = degree[t]
            cell_path[m] = dist_path[t]
            m += 1
        doors, highs, order, score = lock_candidates(route, cuts, degree, stride, touch_high, flat[:m],
                                                     cell_path[:m], noise[:m], cell_degree[:m])
        if not plan(keys, length, doors, highs, order, score, door_pos, key_n):
            placed[i] = False
            continue
        placed[i] = True
        for k in range(keys):
            door_tiles[i, k] = route[door_pos[k]]
            key_cells[i, k] = usable[key_n[k]]
