"""Rooms and mazes: a dungeon of open rooms joined by winding corridors.

Place non-overlapping rectangular rooms at random (each attempt that would
touch an earlier room, or leave the mask, is dropped); open every wall inside
a room, so a room is open floor. Fill the cells between rooms with a
depth-first maze (one tree per connected stretch of corridor). Each room and
each corridor tree is a region; open a random spanning tree of doors between
regions (Kruskal over the region graph) so every region is reached, plus
each other possible door with a small chance, for loops. Finally fill in
dead-end corridors — each one with probability ``prune`` — back to the
nearest junction or room: filled cells become solid rock (they leave
``maze.mask``). The entrance and exit cells are never filled. Texture: open
rooms, winding corridors between them, loops through extra doors and, with
``prune=1``, no dead-end corridors; not a perfect maze.

Source: B. Nystrom, "Rooms and Mazes: A Procedural Dungeon Generator" (2014).
"""

from __future__ import annotations

import numbers
from typing import Any, Mapping, Optional, Tuple

import numpy as np

from ..limits import MAX_CELLS, check_number
from ..maze import Maze
from ..registry import register
from ..seeds import Random
from .disjoint_sets import DisjointSets


MAX_ROOM_SIDE = 1 << 24
"""Largest ``room_size`` side accepted (rooms are clamped to the maze anyway)."""

MIN_ATTEMPTS_LIMIT = 100_000
"""``attempts`` may be up to ``max(MIN_ATTEMPTS_LIMIT, cells // 5)`` (twice the default on big mazes)."""


def max_attempts(cells: int) -> int:
    """The most room placements ``attempts`` may ask for on a maze of ``cells`` cells."""
    return max(MIN_ATTEMPTS_LIMIT, cells // 5)


def _check_options(
    room_size: Any, attempts: Any, extra_doors: Any, prune: Any, cells: Optional[int] = None
) -> Tuple[int, int]:
    try:
        low, high = room_size
    except (TypeError, ValueError):
        raise TypeError(f"rooms room_size must be a (smallest, largest) pair of ints, got {room_size!r}") from None
    if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in (low, high)):
        raise TypeError(f"rooms room_size must be a (smallest, largest) pair of ints, got {room_size!r}")
    if not 1 <= low <= high <= MAX_ROOM_SIDE:
        raise ValueError(
            f"rooms room_size must satisfy 1 <= smallest <= largest <= {MAX_ROOM_SIDE:,}, got {room_size!r}"
        )
    if attempts is not None:
        limit = max_attempts(cells) if cells is not None else max_attempts(MAX_CELLS)
        if isinstance(attempts, bool) or not isinstance(attempts, numbers.Integral):
            raise TypeError(f"rooms attempts must be None or an int from 0 to {limit:,}, got {attempts!r}")
        if not 0 <= attempts <= limit:
            size = f" for {cells:,} cells" if cells is not None else ""
            raise ValueError(
                f"rooms attempts must be None or an int from 0 to {limit:,}{size} "
                f"(at most max({MIN_ATTEMPTS_LIMIT:,}, cells // 5)), got {attempts!r}"
            )
    for name, value in (("extra_doors", extra_doors), ("prune", prune)):
        check_number(f"rooms {name}", value, low=0, high=1)
    return int(low), int(high)


def _check(options: Mapping[str, Any], width: Optional[int], height: Optional[int]) -> None:
    merged = {"room_size": (2, 5), "attempts": None, "extra_doors": 0.02, "prune": 1.0, **options}
    cells = width * height if width is not None and height is not None else None
    _check_options(merged["room_size"], merged["attempts"], merged["extra_doors"], merged["prune"], cells)


@register("rooms", perfect=False, check=_check)
def rooms(
    maze: Maze,
    rng: Random,
    *,
    room_size: Tuple[int, int] = (2, 5),
    attempts: Optional[int] = None,
    extra_doors: float = 0.02,
    prune: float = 1.0,
) -> None:
    """Rooms and mazes: open rooms, corridors between, doors, dead ends filled in. Not perfect.

    Options: ``room_size`` (smallest, largest side in cells), ``attempts``
    (room placements tried; default one per 10 cells, at most
    ``max(100_000, cells // 5)``), ``extra_doors``
    (chance of each extra door), ``prune`` (fraction of dead-end corridors
    filled in).
    """
    low, high = _check_options(room_size, attempts, extra_doors, prune, maze.size)
    extra_doors, prune = float(extra_doors), float(prune)
    h, w = maze.height, maze.width
    tries = maze.size // 10 + 1 if attempts is None else int(attempts)

    # 1. Rooms: rectangles inside the mask, kept one cell apart.
    room_of = np.full((h, w), -1, dtype=np.int64)
    reserved = np.zeros((h, w), dtype=bool)  # room cells and the margin around them
    count = 0
    for r in rng.random(4 * tries).reshape(tries, 4).tolist():
        rw = min(low + int(r[0] * (high - low + 1)), w)
        rh = min(low + int(r[1] * (high - low + 1)), h)
        x = int(r[2] * (w - rw + 1))
        y = int(r[3] * (h - rh + 1))
        if reserved[y : y + rh, x : x + rw].any() or not maze.mask[y : y + rh, x : x + rw].all():
            continue
        room_of[y : y + rh, x : x + rw] = count
        reserved[max(y - 1, 0) : y + rh + 1, max(x - 1, 0) : x + rw + 1] = True
        maze.east[y : y + rh, x : x + rw - 1] = True
        maze.south[y : y + rh - 1, x : x + rw] = True
        count += 1

    # 2. Corridors: a depth-first maze in the cells between rooms, one tree per
    #    connected stretch; region[cell] numbers rooms first, then corridor trees.
    size = maze.size
    table = maze.neighbour_table()
    neighbour = np.where(table < 0, size, table).ravel().tolist()  # neighbour[4 * cell + k]
    in_room = room_of >= 0
    region = np.where(in_room, room_of, -1).ravel().tolist() + [-2]  # -2: off the grid or mask
    visited = (in_room | ~maze.mask).ravel().tolist() + [True]
    picks = rng.random(size).tolist()
    opened_a, opened_b = [], []
    regions = count
    for root in maze.roots():
        if visited[root]:
            continue
        visited[root] = True
        region[root] = regions
        stack = [root]
        while stack:
            cell = stack[-1]
            fresh = [n for n in neighbour[4 * cell : 4 * cell + 4] if not visited[n]]
            if not fresh:
                stack.pop()
                continue
            nxt = fresh[int(picks[len(opened_a)] * len(fresh))]
            visited[nxt] = True
            region[nxt] = regions
            opened_a.append(cell)
            opened_b.append(nxt)
            stack.append(nxt)
        regions += 1
    maze.open_many(opened_a, opened_b)

    # 3. Doors: a random spanning tree over the regions (Kruskal), plus extra doors.
    labels = np.array(region[:size], dtype=np.int64)
    a, b = maze.walls()
    door = labels[a] != labels[b]
    a, b = a[door], b[door]
    order = rng.permutation(len(a))
    a, b = a[order], b[order]
    chosen = np.zeros(len(a), dtype=bool)
    chosen[DisjointSets(regions).union_each(labels[a].tolist(), labels[b].tolist())] = True
    chosen |= rng.random(len(a)) < extra_doors
    maze.open_many(a[chosen], b[chosen])

    # 4. Fill in dead-end corridors, each with probability `prune`, back to a
    #    junction, a room or the entrance or exit cell.
    east = maze.east.ravel().tolist()
    south = maze.south.ravel().tolist()  # the last row and column are always closed, so
    inside = maze.mask.ravel().tolist()  # east[cell - 1] and south[cell - w] need no bounds check
    degree = maze.degree().ravel().tolist()
    keep = in_room.ravel().tolist()
    keep[maze.cell_id(*maze.start)] = keep[maze.cell_id(*maze.goal)] = True
    dead = np.flatnonzero(maze.degree() == 1).tolist()
    for cell, coin in zip(dead, rng.random(len(dead)).tolist()):
        if coin >= prune:
            continue
        while degree[cell] == 1 and not keep[cell]:
            if east[cell]:
                east[cell], nxt = False, cell + 1
            elif south[cell]:
                south[cell], nxt = False, cell + w
            elif east[cell - 1]:
                east[cell - 1], nxt = False, cell - 1
            else:
                south[cell - w], nxt = False, cell - w
            inside[cell] = False
            degree[cell] = 0
            degree[nxt] -= 1
            cell = nxt
    maze.east[:] = np.reshape(east, (h, w))
    maze.south[:] = np.reshape(south, (h, w))
    maze.mask[:] = np.reshape(inside, (h, w))
