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

from typing import Any, Optional, Tuple

import numpy as np

from ..maze import Maze
from ..registry import register
from ..rooms.layer import build, scatter_rooms
from ..seeds import Random
from .backtracker import backtracker

MAX_ATTEMPTS = 1 << 24
"""Most room placements ``attempts`` may ask for."""


def _check_options(room_size: Any, attempts: Any, extra_doors: Any, prune: Any) -> Tuple[int, int]:
    try:
        low, high = room_size
    except (TypeError, ValueError):
        raise TypeError(f"rooms room_size must be a (smallest, largest) pair of ints, got {room_size!r}") from None
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in (low, high)):
        raise TypeError(f"rooms room_size must be a (smallest, largest) pair of ints, got {room_size!r}")
    if not 1 <= low <= high:
        raise ValueError(f"rooms room_size must satisfy 1 <= smallest <= largest, got {room_size!r}")
    if attempts is not None and (
        isinstance(attempts, bool) or not isinstance(attempts, (int, np.integer)) or not 0 <= attempts <= MAX_ATTEMPTS
    ):
        raise ValueError(f"rooms attempts must be None or an int from 0 to {MAX_ATTEMPTS:,}, got {attempts!r}")
    for name, value in (("extra_doors", extra_doors), ("prune", prune)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise ValueError(f"rooms {name} must be a number from 0 to 1, got {value!r}")
    return int(low), int(high)


@register("rooms", perfect=False)
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
    (room placements tried; default one per 10 cells), ``extra_doors``
    (chance of each extra door), ``prune`` (fraction of dead-end corridors
    filled in).
    """
    low, high = _check_options(room_size, attempts, extra_doors, prune)
    tries = maze.size // 10 + 1 if attempts is None else int(attempts)
    placed = scatter_rooms(maze.mask, rng, (low, high), tries)
    build(maze, placed, rng, float(extra_doors), lambda corridors: backtracker(corridors, rng))
    _fill_dead_ends(maze, rng, prune)


def _fill_dead_ends(maze: Maze, rng: Random, prune: float) -> None:
    """Fill in dead-end corridors, each with probability ``prune``, back to a
    junction, a room or the entrance or exit cell."""
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
