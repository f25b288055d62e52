"""Structural checks on levels, shared by the test modules.

Each check recomputes its property from the tilemap alone (not from the
generator's own bookkeeping), so a generator bug cannot hide behind itself.
"""

from __future__ import annotations

import hashlib
import os
from collections import deque
from contextlib import contextmanager
from typing import Iterator

import numpy as np
from hypothesis import strategies as st

import mazeplugin as mp


def floor_components(tiles: np.ndarray) -> np.ndarray:
    """Label each floor tile with its 4-connected component (0 on walls)."""
    h, w = tiles.shape
    labels = np.zeros((h, w), dtype=np.int64)
    current = 0
    for y0, x0 in zip(*np.nonzero(tiles == mp.FLOOR)):
        if labels[y0, x0]:
            continue
        current += 1
        labels[y0, x0] = current
        queue = deque([(y0, x0)])
        while queue:
            y, x = queue.popleft()
            for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                if 0 <= ny < h and 0 <= nx < w and tiles[ny, nx] == mp.FLOOR and not labels[ny, nx]:
                    labels[ny, nx] = current
                    queue.append((ny, nx))
    return labels


def cell_passage_counts(level: mp.Level) -> tuple[int, int]:
    """(cells, open passages between cells), read off a corridor=wall=1 tilemap."""
    t = level.tiles
    cells = int((t[1::2, 1::2] == mp.FLOOR).sum())
    east = int((t[1:-1:2, 2:-1:2] == mp.FLOOR).sum())
    south = int((t[2:-1:2, 1:-1:2] == mp.FLOOR).sum())
    return cells, east + south


def marker_openings(level: mp.Level) -> set:
    return {m for m in (level.entrance, level.exit) if m is not None}


def assert_outer_ring_is_wall(level: mp.Level) -> None:
    t = level.tiles
    h, w = t.shape
    ring = np.ones_like(t, dtype=bool)
    ring[1:-1, 1:-1] = False
    for y, x in zip(*np.nonzero(ring & (t == mp.FLOOR))):
        assert (int(x), int(y)) in marker_openings(level), f"outer ring open at {(x, y)}"


def assert_pillars_are_wall(level: mp.Level) -> None:
    """Every corner tile (even x, even y) is wall, except the open corners inside rooms."""
    wall = level.tiles[0::2, 0::2] == mp.WALL
    expected = np.ones_like(wall)
    expected[1:-1, 1:-1] = ~level.maze.corners
    assert (wall == expected).all()


def room_counts(maze: mp.Maze) -> tuple:
    """(rooms, passages inside rooms, rooms with three or more doors), counted cell by cell."""
    numbers = sorted(set(maze.rooms[maze.rooms > 0].tolist()))
    inner, doors = 0, {n: 0 for n in numbers}
    a, b = maze.passages()
    for x, y in zip(a.tolist(), b.tolist()):
        rx, ry = int(maze.rooms.flat[x]), int(maze.rooms.flat[y])
        if rx == ry and rx > 0:
            inner += 1
            continue
        for r in (rx, ry):
            if r > 0:
                doors[r] += 1
    return len(numbers), inner, sum(1 for n in numbers if doors[n] >= 3)


def assert_valid_solution(level: mp.Level) -> None:
    path = level.solution()
    assert path[0] == level.entrance and path[-1] == level.exit
    assert len(set(path)) == len(path), "solution revisits a tile"
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        assert abs(x0 - x1) + abs(y0 - y1) == 1, "solution step is not 4-adjacent"
    for x, y in path:
        assert level.tiles[y, x] == mp.FLOOR, f"solution walks through wall {(x, y)}"


def assert_perfect(level: mp.Level) -> None:
    """All cells reachable from each other and no loops: a spanning tree."""
    cells, passages = cell_passage_counts(level)
    assert cells == level.width * level.height
    assert passages == cells - 1, f"{passages} passages for {cells} cells"
    labels = floor_components(level.tiles)
    assert len(np.unique(labels[1::2, 1::2])) == 1, "some cell cannot be reached"


def digest(level: mp.Level) -> str:
    """A fingerprint of everything a player sees: tiles, shape and markers."""
    h = hashlib.sha256()
    h.update(repr((level.tiles.shape, level.entrance, level.exit)).encode())
    h.update(np.ascontiguousarray(level.tiles).tobytes())
    return h.hexdigest()[:16]


@contextmanager
def on_path(mode: str) -> Iterator[None]:
    """Run the block with ``MAZEPLUGIN_COMPILED=mode`` ("1" compiled, "0" plain), restored after."""
    from mazeplugin import _compiled

    old = os.environ.get(_compiled.MODE_VARIABLE)
    os.environ[_compiled.MODE_VARIABLE] = mode
    try:
        yield
    finally:
        if old is None:
            del os.environ[_compiled.MODE_VARIABLE]
        else:
            os.environ[_compiled.MODE_VARIABLE] = old


@st.composite
def pillared_prefabs(draw, max_width: int = 6, max_height: int = 5, max_doors: int = 4) -> "mp.Prefab":
    """An open rectangle of cells with random pillars (closed corners) and a random non-empty set of door marks."""
    w, h = draw(st.integers(1, max_width)), draw(st.integers(1, max_height))
    room = mp.Prefab.rectangle(w, h)
    tiles = room.tiles.copy()
    pillars = draw(st.lists(st.booleans(), min_size=(w - 1) * (h - 1), max_size=(w - 1) * (h - 1)))
    if pillars:
        tiles[2:-1:2, 2:-1:2] = np.array(pillars, dtype=np.uint8).reshape(h - 1, w - 1)
    places = np.argwhere(room.doors)
    chosen = draw(st.lists(st.integers(0, len(places) - 1), min_size=1, max_size=max_doors))
    doors = np.zeros(tiles.shape, dtype=bool)
    for k in chosen:
        doors[tuple(places[k])] = True
    return mp.Prefab(tiles, doors)


def outcome(make) -> tuple:
    """Everything a level holds and shows, down to room numbers, open corners, stats and paths
    (or the error it raised): what two paths that make the same level must agree on."""
    try:
        level = make()
    except (ValueError, TypeError) as error:
        return ("error", type(error).__name__, str(error))
    maze = level.maze
    seen = [digest(level), level.tiles.tobytes(), level.tiles.shape, level.entrance, level.exit,
            maze.east.tobytes(), maze.south.tobytes(), maze.mask.tobytes(), maze.corners.tobytes(),
            maze.rooms.tobytes(), repr(level.options), level.stats()]
    if level.entrance is not None:
        seen += [level.solution(), level.distances(level.entrance).tobytes()]
    return tuple(seen)
