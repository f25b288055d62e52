"""Rooms, step 4: doors between the rooms and the maze (see :mod:`mazeplugin.rooms.layer`).

Every wall between a room and a cell outside it (at the prefab's door marks;
anywhere on a rectangle's outline) is a possible door. In a random order, a
door opens when it joins two pieces not yet joined (Kruskal over the pieces:
the maze's trees and the rooms), so every room gets a door and the level is
one piece; then each room gets more doors up to ``doors`` (a count), or each
remaining possible door opens with chance ``doors`` (a float).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Set, Tuple, Union

import numpy as np
from numpy.typing import NDArray

from .._compiled import twin
from ..maze import Maze, mask_parts
from ..seeds import Random
from ..unionfind import component_roots, spanning_forest
from .placing import PlacedRoom, RoomTable
from .prefab import Prefab

__all__ = ["door_candidates", "open_doors"]

_ROOMS = twin("rooms")  # the compiled rooms kernel, or the plain code beside each use

# -- 4. doors -----------------------------------------------------------------


def door_candidates(
    maze: Maze, rooms: Sequence[PlacedRoom], *, within: Optional[NDArray[np.bool_]] = None
) -> Tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Every possible door as cell-id arrays ``(inside, outside)``: a room's cell and the cell beyond its mark.

    Listed room by room, each room's marks north, south, west, east. The
    cell beyond must be in ``within`` (default: the maze's mask). A door
    between two of ``rooms`` must be marked by both; it is listed once.
    """
    fast = _ROOMS.pick(maze.size)
    if fast is not None:  # the same list, made room by room in a compiled loop
        found: Tuple[NDArray[np.int64], NDArray[np.int64]] = fast.door_candidates(
            maze, RoomTable.of(rooms), maze.mask if within is None else within
        )
        return found
    h, w = maze.height, maze.width
    # Rooms sharing a prefab (the random rectangles share a few sizes) are done together.
    groups: Dict[int, Tuple[Prefab, List[int]]] = {}
    for k, room in enumerate(rooms):
        groups.setdefault(id(room.prefab), (room.prefab, []))[1].append(k)
    parts = []
    stride = max(len(prefab.door_offsets()[0]) for prefab, _ in groups.values()) + 1
    for prefab, ks in groups.values():
        cx, cy, dx, dy = prefab.door_offsets()
        xs = np.array([rooms[k].x for k in ks], dtype=np.int64)[:, None] + cx
        ys = np.array([rooms[k].y for k in ks], dtype=np.int64)[:, None] + cy
        order = np.array(ks, dtype=np.int64)[:, None] * stride + np.arange(len(cx))
        parts.append((order.ravel(), xs.ravel(), ys.ravel(), (xs + dx).ravel(), (ys + dy).ravel()))
    order, cx, cy, ox, oy = (np.concatenate(column) for column in zip(*parts))
    keep = np.argsort(order, kind="stable")
    cx, cy, ox, oy = cx[keep], cy[keep], ox[keep], oy[keep]
    ok = (ox >= 0) & (ox < w) & (oy >= 0) & (oy < h)
    a, b = (cy * w + cx)[ok], (oy * w + ox)[ok]
    usable = (maze.mask if within is None else within).flat[b].copy()
    other = maze.rooms.flat[b]
    # Into another of these rooms: only where it marks the same wall (the pair appears both ways);
    # into a room the generator made (the rooms generator's open rooms): anywhere.
    ours = np.isin(other, [room.number for room in rooms])
    pair = a * maze.size + b
    back = b * maze.size + a
    usable &= ~ours | np.isin(back, pair)
    usable &= ~ours | (a < b)  # list a door between two of these rooms once
    return a[usable], b[usable]


def open_doors(
    maze: Maze,
    rooms: Sequence[PlacedRoom],
    rng: Random,
    doors: Union[int, float],
    *,
    dig: Optional[NDArray[np.bool_]] = None,
) -> None:
    """Open doors so every room is joined and the level is one piece, then more by ``doors``.

    ``dig``: the mask before the generator ran. Where a generator filled
    cells in (the ``rooms`` generator prunes dead ends) and a room or a piece
    of the maze was left apart, a corridor is dug back through those cells.
    """
    if not rooms:
        return
    fast = _ROOMS.pick(maze.size)
    if fast is not None:
        rooms = RoomTable.of(rooms)  # one table for every kernel below
    numbers = int(maze.rooms.max()) + 1
    room_of = maze.rooms.reshape(-1)  # room numbers by cell id (a copy if not contiguous: read only)
    if dig is not None and not np.array_equal(dig, maze.mask):  # (no cell filled in: no room shut in)
        # A room whose every mark faces filled-in cells: give it back the cell beyond its first mark.
        a, b = door_candidates(maze, rooms, within=dig)
        owner = room_of[a]
        faces = maze.mask.reshape(-1)[b]
        if fast is not None:  # the same cells, in one compiled pass over the list
            maze.mask.flat[fast.shut_rooms(owner, faces, b, numbers)] = True
        else:
            faces_maze = np.zeros(numbers, dtype=bool)
            faces_maze[owner[faces]] = True
            present, first = np.unique(owner, return_index=True)
            shut = ~faces_maze[present]
            maze.mask.flat[b[first[shut]]] = True
    a, b = door_candidates(maze, rooms)
    if fast is not None:  # the same flags, in one compiled pass
        has = fast.rooms_with_doors(room_of, a, b, numbers)
    else:
        has = np.zeros(numbers, dtype=bool)
        has[room_of[a]] = True
        has[room_of[b]] = True
    if isinstance(rooms, RoomTable):
        closed = [rooms[int(k)] for k in np.flatnonzero(~has[rooms.numbers])]
    else:
        closed = [room for room in rooms if not has[room.number]]
    if closed:
        alone = _rooms_alone(maze, dig)
        for room in closed:
            if room.number not in alone:
                raise ValueError(
                    f"room {room.number} at ({room.x}, {room.y}) has no place for a door: every door mark "
                    "leads off the grid, outside the mask or into a room wall without a mark"
                )
    pieces_left = None  # pieces of the level once these doors are open, when known
    if fast is not None and isinstance(doors, float):
        # All that follows, in one compiled pass: the same two draws, the same doors.
        pieces_left = fast.open_doors_by_chance(maze, a, b, rng, doors)
        if dig is not None and pieces_left > 1:
            _dig_between_pieces(maze, dig, _numbers(rooms))
        return
    # rng.permutation; compiled: the same stable sort of the same raw words (mazeplugin/_compiled/sort.py)
    order = rng.permutation(len(a)) if fast is None else fast.permutation(rng, len(a))
    a, b = a[order], b[order]
    # Kruskal over the pieces, the maze's trees and the rooms as they are: the doors in the
    # minimum spanning forest of passages (weights lowest) then doors in their random order.
    if fast is not None:  # the same forest, by a union-find over the passages then the doors in turn
        chosen, pieces_left = fast.chosen_doors(maze, a, b)
    else:
        pa, pb = maze.passages()
        forest = spanning_forest(maze.size, np.concatenate([pa, a]), np.concatenate([pb, b]))
        chosen = np.zeros(len(a), dtype=bool)
        chosen[forest[forest >= len(pa)] - len(pa)] = True
    owner = room_of[a].astype(np.int64)
    if isinstance(doors, float):
        chosen |= rng.random(len(a)) < doors
    else:
        have = np.bincount(owner[chosen], minlength=numbers)
        have += np.bincount(room_of[b][chosen], minlength=numbers)
        need = np.maximum(doors - have, 0)
        need[0] = 0
        rest = np.flatnonzero(~chosen)
        by_room = rest[np.argsort(owner[rest], kind="stable")]  # each room's rest in the random order
        first_of = np.searchsorted(owner[by_room], owner[by_room], side="left")
        rank = np.arange(len(by_room)) - first_of
        chosen[by_room[rank < need[owner[by_room]]]] = True
    maze.open_many(a[chosen], b[chosen])
    # (Every door not chosen joins two cells joined already: the Kruskal forest's pieces are the level's.)
    if dig is not None and (pieces_left is None or pieces_left > 1):
        _dig_between_pieces(maze, dig, _numbers(rooms))


def _numbers(rooms: Sequence[PlacedRoom]) -> Set[int]:
    """The room numbers of ``rooms`` (a list or a :class:`RoomTable`)."""
    if isinstance(rooms, RoomTable):
        return set(rooms.numbers.tolist())
    return {room.number for room in rooms}


def _rooms_alone(maze: Maze, dig: Optional[NDArray[np.bool_]]) -> Set[int]:
    """Numbers of the rooms that fill a whole part of the mask: they need no door."""


    area = maze.mask if dig is None else dig | maze.mask
    parts, count = mask_parts(area)
    ordinary = np.bincount(parts[(maze.rooms == 0) & area], minlength=count)
    per_part_rooms: Dict[int, Set[int]] = {}
    for number, part in zip(maze.rooms[maze.rooms > 0].tolist(), parts[maze.rooms > 0].tolist()):
        per_part_rooms.setdefault(part, set()).add(number)
    return {
        rooms.pop() for part, rooms in per_part_rooms.items() if len(rooms) == 1 and ordinary[part] == 0
    }


def _dig_between_pieces(maze: Maze, dig: NDArray[np.bool_], placed: Set[int]) -> None:
    """Join the pieces of each part of ``dig`` by the shortest corridors through cells outside the mask.

    Breadth-first from the first piece of a part in pieces through those
    cells to the nearest cell of another piece; repeated until each part is
    one piece (rarely needed: plain Python). Corridors leave from and reach
    corridor cells only; where that finds no way (a pocket fenced in by rooms
    and the border), they may also leave from or reach a room the generator
    made (an open rectangle: a door may go anywhere on its outline), but never
    one of ``placed`` (this layer's rooms, whose doors are where their marks are).
    """
    w, h = maze.width, maze.height
    fast = _ROOMS.pick(maze.size)
    part = None
    while True:
        if fast is not None:  # the same pieces and count, by a compiled union-find
            piece, count = fast.pieces(maze.east, maze.south, maze.mask)
        else:
            pa, pb = maze.passages()
            piece = component_roots(maze.size, pa, pb)
            count = len(np.unique(piece[maze.cells()]))
        if count <= 1:
            return
        cells = maze.cells()
        if part is None:
            if fast is not None:
                east, south = np.zeros_like(dig), np.zeros_like(dig)  # the walls between two cells of dig
                east[:, :-1] = dig[:, :-1] & dig[:, 1:]
                south[:-1, :] = dig[:-1, :] & dig[1:, :]
                part = fast.pieces(east, south, dig)[0]
            else:
                wa, wb = Maze(w, h, dig).walls()
                part = component_roots(maze.size, wa, wb)
        pairs, first = np.unique(part[cells] * maze.size + piece[cells], return_index=True)
        parts_seen, count = np.unique(pairs // maze.size, return_counts=True)
        if (count <= 1).all():
            return
        split = int(parts_seen[count > 1][0])
        start = int(cells[first[np.flatnonzero(pairs // maze.size == split)[0]]])
        main = int(piece[start])
        main_cells = cells[piece[cells] == main].tolist()
        room = maze.rooms.ravel().tolist()
        came, found = _corridor_search(maze, dig, main_cells, room, set())
        if found < 0:  # fenced in by rooms: through the generator's own rooms' walls
            generated = set(np.unique(maze.rooms).tolist()) - placed - {0}
            came, found = _corridor_search(maze, dig, main_cells, room, generated)
        if found < 0:  # pragma: no cover - a part of dig is connected through its cells
            raise ValueError("rooms: a piece of the maze cannot be joined to the rest")
        while came[found] >= 0:
            maze.mask.flat[found] = True
            maze.open(found, came[found])
            found = came[found]


def _corridor_search(
    maze: Maze, dig: NDArray[np.bool_], main_cells: List[int], room: List[int], open_rooms: Set[int]
) -> Tuple[Dict[int, int], int]:
    """Breadth-first from ``main_cells`` (one piece) through cells of ``dig`` outside the mask to the
    nearest maze cell of another piece: ``(came_from, that cell)``, or ``-1`` for none. Room cells are
    left and entered only when their room is one of ``open_rooms``."""
    w, h = maze.width, maze.height
    in_mask = maze.mask.ravel().tolist()
    diggable = dig.ravel().tolist()
    frontier = list(main_cells)
    came = {c: -1 for c in frontier}
    for c in frontier:  # grows as it goes: a breadth-first queue
        if room[c] and room[c] not in open_rooms:
            continue  # corridors leave from corridor cells, not through room walls
        x, y = c % w, c // w
        for n, ok in ((c - w, y > 0), (c + 1, x + 1 < w), (c + w, y + 1 < h), (c - 1, x > 0)):
            if not ok or n in came or not diggable[n] or (room[n] and room[n] not in open_rooms):
                continue
            came[n] = c
            if in_mask[n]:
                return came, n
            frontier.append(n)
    return came, -1
