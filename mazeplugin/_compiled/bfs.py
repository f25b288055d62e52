"""Compiled breadth-first searches: :mod:`mazeplugin.paths` over floor tiles and
:func:`mazeplugin.analysis.stats`'s sweeps over cells.

Breadth-first distances are unique, and both the path walk and the sweeps
take neighbours in the plain code's order (north, east, south, west), so
every answer is the plain code's answer, for any tilemap (open rooms and
corners included): the tile search is the plain tile-by-tile search.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np
from .jit import njit, types
from numpy.typing import NDArray

from ..maze import Maze
from .grid import i32, i64, u8

Tile = Tuple[int, int]


@njit(types.int64(u8, types.int64, types.int64, types.int64, i32, i64), cache=True, nogil=True, inline="always")
def spread(free: Any, pitch: int, source: int, target: int, dist: Any, queue: Any) -> int:
    """Breadth-first steps from ``source`` over ``free`` (padded, flat) tiles into ``dist``, which the
    caller fills with -1; returns how many tiles ``queue`` holds, in the order reached (``source`` first,
    then each tile's north, east, south, west).

    Stops as soon as ``target`` (>= 0) is reached, without queueing it: every
    tile nearer than it has its distance by then, which is all a path walk reads.
    """
    dist[source] = 0
    queue[0] = source
    if source == target:
        return 1
    head, tail = 0, 1
    while head < tail:
        i = queue[head]
        head += 1
        d = dist[i] + 1
        for j in (i - pitch, i + 1, i + pitch, i - 1):
            if free[j] and dist[j] < 0:
                dist[j] = d
                if j == target:
                    return tail
                queue[tail] = j
                tail += 1
    return tail


@njit(i32(u8, types.int64, types.int64, types.int64), cache=True, nogil=True)
def tile_distances(free: Any, pitch: int, source: int, target: int) -> Any:
    """Steps from ``source`` over ``free`` (padded, flat) tiles; -1 unreached (see :func:`spread`)."""
    dist = np.full(free.size, -1, dtype=np.int32)
    spread(free, pitch, source, target, dist, np.empty(free.size, dtype=np.int64))
    return dist


@njit(i64(i32, types.int64, types.int64), cache=True, nogil=True)
def walk_down(dist: Any, pitch: int, start: int) -> Any:
    """The path from ``start`` downhill to distance 0, taking the first of north,
    east, south, west that is one step nearer (padded, flat tile numbers)."""
    step = np.array([-pitch, 1, pitch, -1], dtype=np.int64)
    path = np.empty(dist[start] + 1, dtype=np.int64)
    i = start
    path[0] = i
    for d in range(dist[start] - 1, -1, -1):
        for k in range(4):
            j = i + step[k]
            if dist[j] == d:
                i = j
                break
        path[dist[start] - d] = i
    return path


def _padded_free(tiles: NDArray[np.uint8]) -> Tuple[NDArray[np.uint8], int]:
    h, w = tiles.shape
    padded = np.zeros((h + 2, w + 2), dtype=np.uint8)
    padded[1:-1, 1:-1] = tiles == 0
    return padded.ravel(), w + 2


def distance_map(tiles: NDArray[np.uint8], source: Tile) -> NDArray[np.int32]:
    """:func:`mazeplugin.paths.distance_map`, compiled."""
    h, w = tiles.shape
    free, pitch = _padded_free(tiles)
    dist = tile_distances(free, pitch, (source[1] + 1) * pitch + source[0] + 1, -1)
    inner: NDArray[np.int32] = dist.reshape(h + 2, pitch)[1:-1, 1:-1].copy()
    return inner


def shortest_path(tiles: NDArray[np.uint8], start: Tile, goal: Tile) -> Optional[List[Tile]]:
    """:func:`mazeplugin.paths.shortest_path`, compiled."""
    free, pitch = _padded_free(tiles)
    s = (start[1] + 1) * pitch + start[0] + 1
    g = (goal[1] + 1) * pitch + goal[0] + 1
    dist = tile_distances(free, pitch, g, s)  # from the goal: the path reads forwards
    if dist[s] < 0:
        return None
    path = walk_down(dist, pitch, s)
    xs = (path % pitch - 1).tolist()
    ys = (path // pitch - 1).tolist()
    return list(zip(xs, ys))


@njit(
    types.UniTuple(types.int64, 2)(u8, u8, types.int64, types.int64, types.int64, i32, i64, i64),  # type: ignore[no-untyped-call, unused-ignore]
    cache=True,
    nogil=True,
)
def sweep(east: Any, south: Any, width: int, source: int, target: int, dist: Any, parent: Any, queue: Any) -> Any:
    """Breadth-first from ``source`` through open passages, neighbours north, east,
    south, west; ``(cells reached, the last reached)``, stopping at ``target``.
    ``dist`` (all -1 on entry) gets the distances, ``parent`` the cell each was
    reached from, ``queue`` the cells reached."""
    dist[source] = 0
    queue[0] = source
    head, tail = 0, 1
    while head < tail:
        cell = queue[head]
        head += 1
        if cell == target:
            break
        d = dist[cell] + 1
        if cell >= width and south[cell - width] and dist[cell - width] < 0:
            dist[cell - width] = d
            parent[cell - width] = cell
            queue[tail] = cell - width
            tail += 1
        if east[cell] and dist[cell + 1] < 0:
            dist[cell + 1] = d
            parent[cell + 1] = cell
            queue[tail] = cell + 1
            tail += 1
        if south[cell] and dist[cell + width] < 0:
            dist[cell + width] = d
            parent[cell + width] = cell
            queue[tail] = cell + width
            tail += 1
        if cell % width and east[cell - 1] and dist[cell - 1] < 0:
            dist[cell - 1] = d
            parent[cell - 1] = cell
            queue[tail] = cell - 1
            tail += 1
    return tail, queue[tail - 1]


@njit(
    types.UniTuple(types.int64, 2)(u8, u8, u8, types.int64, i32, i64, i64, u8),  # type: ignore[no-untyped-call, unused-ignore]
    cache=True,
    nogil=True,
)
def sweeps(mask: Any, east: Any, south: Any, width: int, dist: Any, parent: Any, queue: Any, seen: Any) -> Any:
    """``(pieces, longest)`` as ``analysis.stats`` computes them: a double sweep per
    connected piece, pieces taken from their first cell (``east``/``south``/``mask`` flat).
    The buffers are :func:`sweep`'s (``dist`` all -1, and so again on return) and ``seen``
    (all 0 on entry; the cells of the pieces marked on return), one number a cell each."""
    n = mask.size
    pieces = 0
    longest = 0
    for cell in range(n):
        if not mask[cell] or seen[cell]:
            continue
        pieces += 1
        count, last = sweep(east, south, width, cell, -1, dist, parent, queue)
        for i in range(count):
            seen[queue[i]] = 1
            dist[queue[i]] = -1
        if count > 1:
            count, far = sweep(east, south, width, last, -1, dist, parent, queue)
            longest = max(longest, dist[far])
            for i in range(count):
                dist[queue[i]] = -1
    return pieces, longest


@njit(i64(u8, u8, types.int64, types.int64, types.int64), cache=True, nogil=True)
def shortest_walk(east: Any, south: Any, width: int, source: int, target: int) -> Any:
    """The cells of ``analysis._shortest_walk``: breadth-first from ``source``, each
    cell reached from the first cell to reach it; empty when ``target`` is not reached."""
    n = east.size
    dist = np.full(n, -1, dtype=np.int32)
    parent = np.empty(n, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    sweep(east, south, width, source, target, dist, parent, queue)
    if dist[target] < 0:
        return np.empty(0, dtype=np.int64)
    walk = np.empty(dist[target] + 1, dtype=np.int64)
    cell = target
    for i in range(dist[target], -1, -1):
        walk[i] = cell
        cell = parent[cell]
    return walk


def stats_sweeps(maze: Maze, start: int, goal: int) -> Tuple[int, int, Optional[List[int]]]:
    """``(pieces, longest path, walk from start to goal or None)`` for ``analysis.stats``;
    ``start`` -1: no walk."""
    mask, east, south = (a.reshape(-1).view(np.uint8) for a in (maze.mask, maze.east, maze.south))
    n = mask.size
    pieces, longest = sweeps(mask, east, south, maze.width, np.full(n, -1, dtype=np.int32),
                             np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), np.zeros(n, dtype=np.uint8))
    walk = None
    if start >= 0:
        cells = shortest_walk(east, south, maze.width, start, goal)
        walk = cells.tolist() if cells.size else None
    return pieces, longest, walk
