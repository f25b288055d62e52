"""Rooms in any maze: open rooms and designed prefabs, joined to the maze by doors.

A layer above the maze model: :func:`mazeplugin.generate` calls it when
given ``rooms=``; see :mod:`mazeplugin.rooms.layer` for how rooms are placed,
kept out of the generator's way, carved and given doors, and
:mod:`mazeplugin.rooms.prefab` for prefabs drawn as text.

>>> import mazeplugin as mp
>>> level = mp.generate("wilson", 40, 30, seed=7, rooms=5)
>>> int(level.maze.rooms.max()), level.dead_ends() == [c for c in level.dead_ends() if not level.maze.rooms[c[1], c[0]]]
(5, True)
"""

from __future__ import annotations

from .layer import MAX_DOORS, MAX_ROOMS, PlacedRoom, RoomSpec, build, check_rooms, place_rooms, scatter_rooms, solid_cells
from .prefab import DOOR_CHAR, FLOOR_CHAR, WALL_CHAR, Prefab

__all__ = [
    "DOOR_CHAR",
    "FLOOR_CHAR",
    "MAX_DOORS",
    "MAX_ROOMS",
    "PlacedRoom",
    "Prefab",
    "RoomSpec",
    "WALL_CHAR",
    "build",
    "check_rooms",
    "place_rooms",
    "scatter_rooms",
    "solid_cells",
]
