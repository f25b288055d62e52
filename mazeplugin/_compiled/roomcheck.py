"""``Maze.check``'s test that each room is one piece, compiled (the ``room-check`` kernel).

In the ground layer with :mod:`mazeplugin.maze`, which looks it up: a
union-find forest of the pieces the open passages make, in one pass in
row-major order (:func:`piece_forest`, shared with the rooms layer's kernel
:mod:`mazeplugin._compiled.rooms`), then the first room found in two pieces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from .grid import i32, u8
from .jit import njit, types

if TYPE_CHECKING:
    from ..maze import Maze

__all__ = ["root_of", "piece_forest", "split_room", "first_split_room"]


@njit(types.int64(i32, types.int64), cache=True, nogil=True, inline="always")
def root_of(parent: Any, cell: int) -> int:
    """The root of ``cell``'s tree (its smallest cell), halving the path as it goes."""
    while parent[cell] != cell:
        parent[cell] = parent[parent[cell]]
        cell = parent[cell]
    return cell


@njit(i32(u8, u8, types.int64, i32, types.boolean), cache=True, nogil=True, inline="always")
def piece_forest(east: Any, south: Any, width: int, rooms: Any, by_room: bool) -> Any:
    """A union-find forest of the pieces the open passages make (with ``by_room``, only
    passages between two cells of one room), in one pass in row-major order: each cell
    joins the tree of its west or north neighbour (pointing at its root); where it has both,
    the two trees are joined. Every cell points at a smaller one, so each root is the
    smallest cell of its piece; a last pass points every cell straight at its root
    (``component_roots``). Inlined: callers pass ``by_room`` as a constant."""
    size = east.size
    parent = np.empty(size, dtype=np.int32)
    for y in range(size // width):
        row = y * width
        for x in range(width):
            cell = row + x
            parent[cell] = cell
            if by_room and rooms[cell] <= 0:
                continue
            if x > 0 and east[cell - 1] and (not by_room or rooms[cell - 1] == rooms[cell]):
                parent[cell] = root_of(parent, cell - 1)
            if y > 0 and south[cell - width] and (not by_room or rooms[cell - width] == rooms[cell]):
                north = root_of(parent, cell - width)
                if parent[cell] == cell:
                    parent[cell] = north
                elif parent[cell] < north:
                    parent[north] = parent[cell]
                elif north < parent[cell]:
                    parent[parent[cell]] = north
                    parent[cell] = north
    for cell in range(size):  # flatten: a parent is a smaller cell, already pointing at its root
        parent[cell] = parent[parent[cell]]
    return parent


@njit(types.int64(u8, u8, i32, types.int64, types.int64), cache=True, nogil=True)
def split_room(east: Any, south: Any, rooms: Any, width: int, most: int) -> int:
    """The smallest room number (up to ``most``) whose cells are not all joined to each other
    by passages inside the room, or 0 (``Maze._check_rooms``)."""
    label = piece_forest(east, south, width, rooms, True)
    first = np.full(most + 1, -1, dtype=np.int64)  # each room's piece, from its first cell
    split = 0
    for cell in range(rooms.size):
        number = rooms[cell]
        if number <= 0:
            continue
        if first[number] < 0:
            first[number] = label[cell]
        elif first[number] != label[cell] and (split == 0 or number < split):
            split = number
    return split


def first_split_room(maze: Maze) -> int:
    """The smallest room number whose cells are not all joined inside the room, or 0."""
    rooms = np.ascontiguousarray(maze.rooms, dtype=np.int32)
    return int(split_room(_flat(maze.east), _flat(maze.south), rooms.reshape(-1), maze.width,
                          int(rooms.max(initial=0))))


def _flat(array: NDArray[Any]) -> NDArray[np.uint8]:
    """A flat uint8 view of a C-contiguous bool array, for a kernel to read or write."""
    if not array.flags.c_contiguous:  # never for a Maze made here; be safe for plugins
        raise ValueError("maze arrays must be C-contiguous")
    return array.reshape(-1).view(np.uint8)
