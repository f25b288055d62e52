"""Rooms in any maze: reserve the rooms, let the generator fill the rest, carve the rooms, open doors.

1. **Place** the rooms (:func:`place_rooms`, in :mod:`~mazeplugin.rooms.placing`): rooms given at a cell are
   checked where they are; the others (prefabs without ``at``, and the
   ``rooms=N`` random rectangles with sides drawn from ``room_size``) go at
   a random place where they fit, one cell clear of every other room, so the
   maze can run between them. Every random number comes from the rooms
   stream (stream 4), so a level without rooms never changes.
2. **Reserve**: the room cells leave the mask while the generator runs, so
   it fills only the cells between the rooms.
3. **Carve** (:func:`carve_rooms`): each room's inside is written into the
   maze (passages, open corners, ``maze.rooms`` numbers; a prefab's solid
   cells leave the mask).
4. **Doors** (:func:`open_doors`, in :mod:`~mazeplugin.rooms.doors`): every wall between a room and a cell
   outside it (at the prefab's door marks; anywhere on a rectangle's
   outline) is a possible door. In a random order, a door opens when it
   joins two pieces not yet joined (Kruskal over the pieces: the maze's
   trees and the rooms), so every room gets a door and the level is one
   piece; then each room gets more doors up to ``doors`` (a count), or each
   remaining possible door opens with chance ``doors`` (a float).

On the compiled path the same steps run as kernels
(:mod:`mazeplugin._compiled.rooms`) over a :class:`RoomTable`, the rooms as
arrays; they draw the same numbers and give the same level.

>>> import mazeplugin as mp
>>> level = mp.generate("backtracker", 8, 5, seed=3, rooms=[(1, 1, 3, 2)])
>>> int(level.maze.rooms.max()), int(level.maze.corners.sum())
(1, 2)
>>> print(level)
#################
S #       #     #
# ####### # ### #
# #     # # #   #
# #     # # # # #
#       #   # # #
# ####### ### # #
# #   #   #   # #
# # # ##### ### #
#   #       #   E
#################
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence, Tuple, Union

import numpy as np
from numpy.typing import NDArray

from .._compiled import twin
from ..maze import Maze
from ..seeds import Random
from .doors import door_candidates, open_doors
from .placing import (
    DEFAULT_ROOM_SIZE,
    MAX_DOORS,
    MAX_ROOM_SIDE,
    MAX_ROOMS,
    PackedPrefabs,
    PlacedRoom,
    RoomSpec,
    RoomTable,
    check_rooms,
    place_rooms,
    scatter_rooms,
)

__all__ = ["RoomSpec", "PlacedRoom", "RoomTable", "PackedPrefabs", "check_rooms", "solid_cells", "room_cells",
           "scatter_rooms", "place_rooms", "carve_rooms", "door_candidates", "open_doors", "build", "MAX_ROOMS",
           "MAX_DOORS", "MAX_ROOM_SIDE", "DEFAULT_ROOM_SIZE"]

_ROOMS = twin("rooms")  # the compiled rooms kernel, or the plain code beside each use


# -- 2./3. reserving and carving -----------------------------------------------------


def room_cells(rooms: Sequence[PlacedRoom], shape: Tuple[int, int]) -> NDArray[np.bool_]:
    """Every cell inside a room's rectangle (solid prefab cells too)."""
    fast = _ROOMS.pick(shape[0] * shape[1])
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/rooms.py)
        covered: NDArray[np.bool_] = fast.room_cells(RoomTable.of(rooms), shape)
        return covered
    cells = np.zeros(shape, dtype=bool)
    for room in rooms:
        cells[room.window] = True
    return cells


def solid_cells(rooms: Sequence[PlacedRoom], shape: Tuple[int, int]) -> NDArray[np.bool_]:
    """The solid cells inside rooms (a prefab's ``#`` cells): they leave the mask."""
    cells = np.zeros(shape, dtype=bool)
    for room in rooms:
        cells[room.window] = ~room.prefab.floor
    return cells


def carve_rooms(maze: Maze, rooms: Sequence[PlacedRoom]) -> None:
    """Write each room's inside into ``maze``: passages, open corners, room numbers, solid cells."""
    fast = _ROOMS.pick(maze.size)
    if fast is not None:  # the same loop, compiled
        fast.carve_rooms(maze, RoomTable.of(rooms))
        return
    for room in rooms:
        p, (ys, xs) = room.prefab, room.window
        maze.mask[ys, xs] = p.floor
        maze.east[ys, xs] = p.east
        maze.south[ys, xs] = p.south
        maze.corners[room.y : room.y + p.height - 1, room.x : room.x + p.width - 1] = p.corners
        maze.rooms[ys, xs] = np.where(p.floor, room.number, 0)


# -- all four ------------------------------------------------------------------


def build(
    maze: Maze, rooms: Sequence[PlacedRoom], rng: Random, doors: Union[int, float], run: Callable[[Maze], None]
) -> None:
    """Reserve ``rooms`` out of ``maze``'s mask, ``run`` the generator on the rest, carve the rooms, open doors.

    ``maze.start``/``maze.goal`` stay as they are (markers may sit in rooms);
    the generator sees them moved to a maze cell when they fall in a room.
    """
    if _ROOMS.pick(maze.size) is not None:
        rooms = RoomTable.of(rooms)  # the kernels below read a table: make it once
    full = maze.mask.copy()
    reserved = room_cells(rooms, full.shape)
    start, goal = maze.start, maze.goal
    maze.mask &= ~reserved
    corridor_cells = maze.cells()
    if len(corridor_cells):
        if reserved[start[1], start[0]]:
            maze.start = maze.cell_xy(int(corridor_cells[0]))
        if reserved[goal[1], goal[0]]:
            maze.goal = maze.cell_xy(int(corridor_cells[-1]))
        run(maze)
    maze.start, maze.goal = start, goal
    maze.mask |= full & reserved
    # Number these rooms after any the generator made (the rooms generator does).
    offset = int(maze.rooms.max())
    if offset and isinstance(rooms, RoomTable):
        rooms = rooms.renumbered(offset)
    elif offset:
        rooms = [replace(room, number=room.number + offset) for room in rooms]
    carve_rooms(maze, rooms)
    open_doors(maze, rooms, rng, doors, dig=full)
    maze.check()
