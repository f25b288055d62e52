"""Rooms and mazes: a dungeon of open rooms joined by winding corridors.

Throw rectangular rooms at random (each attempt that would touch an earlier
room, or leave the mask, is dropped); each room is open floor, no pillars.
Fill the cells between rooms with a depth-first maze (one tree per connected
stretch of corridor). Open a random spanning tree of doors between the
pieces, the rooms and the corridor trees (Kruskal), so every room is
reached, plus each other possible door with a small chance, for loops.
Finally fill in dead-end corridors — each one with probability ``prune`` —
back to the nearest junction or room: filled cells become solid rock (they
leave ``maze.mask``). The entrance and exit cells are never filled.
Texture: open rooms, winding corridors between them, loops through extra
doors and, with ``prune=1``, no dead-end corridors; not a perfect maze.

The rooms, the corridors and the doors are those of :mod:`mazeplugin.rooms`
(``rooms=`` in any generator), with Nystrom's placement by attempts.

Source: B. Nystrom, "Rooms and Mazes: A Procedural Dungeon Generator" (2014).
"""

from __future__ import annotations

import numbers
from typing import Any, Mapping, Optional, Tuple

import numpy as np

from .._compiled import kernel
from ..limits import MAX_CELLS, check_number
from ..maze import Maze
from ..registry import register
from ..seeds import Random
from .backtracker import backtracker

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
        if not 0 <= int(attempts) <= limit:
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
    from ..rooms.layer import build, scatter_rooms  # (on first use: import mazeplugin stays quick)

    low, high = _check_options(room_size, attempts, extra_doors, prune, maze.size)
    tries = maze.size // 10 + 1 if attempts is None else int(attempts)
    placed = scatter_rooms(maze.mask, rng, (low, high), tries)
    build(maze, placed, rng, float(extra_doors), lambda corridors: backtracker(corridors, rng))
    _fill_dead_ends(maze, rng, prune)


def _fill_dead_ends(maze: Maze, rng: Random, prune: float) -> None:
    """Fill in dead-end corridors, each with probability ``prune``, back to a
    junction, a room or the entrance or exit cell."""
    fast = kernel("rooms", maze.size)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/rooms.py)
        fast.fill_dead_ends(maze, rng, prune)
        return
    w = maze.width
    east = maze.east.ravel().tolist()
    south = maze.south.ravel().tolist()  # the last row and column are always closed, so
    inside = maze.mask.ravel().tolist()  # east[cell - 1] and south[cell - w] need no bounds check
    degree = maze.degree().ravel().tolist()
    keep = (maze.rooms > 0).ravel().tolist()
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
    shape = (maze.height, maze.width)
    maze.east[:] = np.reshape(east, shape)
    maze.south[:] = np.reshape(south, shape)
    maze.mask[:] = np.reshape(inside, shape)
