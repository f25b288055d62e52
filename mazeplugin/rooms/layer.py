"""Rooms in any maze: reserve the rooms, let the generator fill the rest, carve the rooms, open doors.

1. **Place** the rooms (:func:`place_rooms`): rooms given at a cell are
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
4. **Doors** (:func:`open_doors`): every wall between a room and a cell
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

import numbers
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple, Union, overload

import numpy as np
from numpy.typing import NDArray

from .._compiled import kernel
from ..generators.disjoint_sets import component_roots, spanning_forest
from ..maze import Maze
from ..seeds import Random
from .prefab import Prefab

__all__ = ["RoomSpec", "check_rooms", "solid_cells", "scatter_rooms", "place_rooms", "carve_rooms", "open_doors", "build", "MAX_ROOMS", "MAX_DOORS"]

MAX_ROOMS = 10_000
"""Most rooms one level may ask for."""

MAX_DOORS = 64
"""Most doors per room ``doors=`` may ask for."""

MAX_ROOM_SIDE = 1 << 24
"""Largest ``room_size`` side (random rooms are clamped to the maze anyway)."""

DEFAULT_ROOM_SIZE = (3, 6)


@dataclass(frozen=True)
class RoomSpec:
    """Checked ``rooms=``/``doors=``/``room_size=`` arguments: what to place, before any work."""

    given: Tuple[Prefab, ...]  # placed at their cell, or at random when ``at`` is None
    count: int  # random rectangles to add
    room_size: Tuple[int, int]
    doors: Union[int, float]

    def recorded(self) -> Any:
        """The ``rooms=`` argument as plain data (what ``level.options`` keeps)."""
        if not self.given:
            return self.count
        return [
            {"prefab": p.to_text(), "at": list(p.at) if p.at is not None else None} for p in self.given
        ]


def check_rooms(rooms: Any, doors: Any = 1, room_size: Any = None) -> RoomSpec:
    """Check ``rooms=`` (a count, or a list of ``(x, y, w, h)`` rectangles and :class:`Prefab` s),
    ``doors=`` and ``room_size=``; a clear ``TypeError``/``ValueError`` naming what is wrong.

    >>> check_rooms(2).count, check_rooms(2).room_size
    (2, (3, 6))
    >>> check_rooms([(0, 0, 3, 2)]).given
    (Prefab(3x2 cells, at=(0, 0)),)
    >>> check_rooms([(0, 0, 3)])
    Traceback (most recent call last):
    ...
    TypeError: rooms[0] must be an (x, y, w, h) rectangle in cells or a mazeplugin.Prefab, got (0, 0, 3)
    """
    size = _check_room_size(DEFAULT_ROOM_SIZE if room_size is None else room_size)
    door_rule = _check_doors(doors)
    if isinstance(rooms, bool):
        raise TypeError("rooms must be a count or a list of rectangles and prefabs, not bool")
    if isinstance(rooms, numbers.Integral):
        if not 0 <= int(rooms) <= MAX_ROOMS:
            raise ValueError(f"rooms must be from 0 to {MAX_ROOMS:,}, got {rooms}")
        return RoomSpec((), int(rooms), size, door_rule)
    if room_size is not None:
        raise ValueError("room_size= sizes random rooms; give it with rooms=<count>, not with a list of rooms")
    if isinstance(rooms, (str, bytes)) or not isinstance(rooms, Sequence):
        raise TypeError(
            f"rooms must be a count or a list of (x, y, w, h) rectangles and prefabs, not {type(rooms).__name__}"
        )
    if len(rooms) > MAX_ROOMS:
        raise ValueError(f"at most {MAX_ROOMS:,} rooms, got {len(rooms):,}")
    given = []
    for k, room in enumerate(rooms):
        if isinstance(room, Prefab):
            given.append(room)
            continue
        if isinstance(room, dict) and set(room) == {"prefab", "at"}:  # what RoomSpec.recorded() writes
            given.append(Prefab.from_text(room["prefab"], at=room["at"]))
            continue
        try:
            x, y, w, h = room
        except (TypeError, ValueError):
            raise TypeError(
                f"rooms[{k}] must be an (x, y, w, h) rectangle in cells or a mazeplugin.Prefab, got {room!r}"
            ) from None
        if any(isinstance(v, bool) or not isinstance(v, numbers.Integral) for v in (x, y, w, h)):
            raise TypeError(f"rooms[{k}] = {room!r}: x, y, w and h must be ints")
        if w < 1 or h < 1:
            raise ValueError(f"room {k + 1} = {tuple(room)!r} must be at least 1 × 1 cells")
        given.append(Prefab.rectangle(int(w), int(h), at=(int(x), int(y))))
    return RoomSpec(tuple(given), 0, size, door_rule)


def _check_room_size(room_size: Any) -> Tuple[int, int]:
    try:
        low, high = room_size
    except (TypeError, ValueError):
        raise TypeError(f"room_size must be a (smallest, largest) pair of ints, got {room_size!r}") from None
    if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in (low, high)):
        raise TypeError(f"room_size must be a (smallest, largest) pair of ints, got {room_size!r}")
    if not 1 <= low <= high <= MAX_ROOM_SIDE:
        raise ValueError(f"room_size must satisfy 1 <= smallest <= largest <= {MAX_ROOM_SIDE:,}, got {room_size!r}")
    return int(low), int(high)


def _check_doors(doors: Any) -> Union[int, float]:
    if isinstance(doors, bool) or not isinstance(doors, (numbers.Integral, numbers.Real)):
        raise TypeError(f"doors must be a count (int) or a chance (float), not {type(doors).__name__}")
    if isinstance(doors, numbers.Integral):
        if not 1 <= int(doors) <= MAX_DOORS:
            raise ValueError(f"doors must be a count from 1 to {MAX_DOORS} per room, or a chance from 0.0 to 1.0; got {doors}")
        return int(doors)
    if not 0.0 <= float(doors) <= 1.0:
        raise ValueError(f"doors must be a count from 1 to {MAX_DOORS} per room, or a chance from 0.0 to 1.0; got {doors}")
    return float(doors)


# -- 1. placing ------------------------------------------------------------------


@dataclass(frozen=True)
class PlacedRoom:
    """Room ``number`` (1, 2, ...): ``prefab`` with its top-left cell at ``(x, y)``."""

    number: int
    x: int
    y: int
    prefab: Prefab

    @property
    def window(self) -> Tuple[slice, slice]:
        """The ``[y, x]`` slices of the room's rectangle of cells."""
        return (slice(self.y, self.y + self.prefab.height), slice(self.x, self.x + self.prefab.width))


class PackedPrefabs(NamedTuple):
    """The distinct prefabs of a :class:`RoomTable`, their arrays one after another, for kernels.

    Prefab ``j`` is ``width[j]`` × ``height[j]`` cells; its ``floor``,
    ``east`` and ``south`` (row-major) start at ``cell_start[j]``, its
    ``corners`` at ``corner_start[j]``, and its door marks
    (:meth:`Prefab.door_offsets`) are ``door_start[j]`` to ``door_start[j + 1]``
    of ``cx, cy, dx, dy``.
    """

    width: NDArray[np.int64]
    height: NDArray[np.int64]
    cell_start: NDArray[np.int64]
    corner_start: NDArray[np.int64]
    door_start: NDArray[np.int64]
    floor: NDArray[np.uint8]
    east: NDArray[np.uint8]
    south: NDArray[np.uint8]
    corners: NDArray[np.uint8]
    cx: NDArray[np.int64]
    cy: NDArray[np.int64]
    dx: NDArray[np.int64]
    dy: NDArray[np.int64]


class RoomTable(Sequence[PlacedRoom]):
    """Placed rooms as arrays, for the compiled path: room ``k`` is ``prefabs[kinds[k]]`` with
    its top-left cell at ``(xs[k], ys[k])``, numbered ``numbers[k]``.

    A sequence of :class:`PlacedRoom` (made when asked for), so whatever takes
    a list of rooms takes a table; the kernels read the arrays, and no Python
    object is made per room.

    >>> table = RoomTable.of([PlacedRoom(1, 4, 2, Prefab.rectangle(3, 2))])
    >>> table.xs.tolist(), table.kinds.tolist(), table[0].window
    ([4], [0], (slice(2, 4, None), slice(4, 7, None)))
    """

    def __init__(
        self,
        xs: NDArray[np.int64],
        ys: NDArray[np.int64],
        numbers: NDArray[np.int64],
        kinds: NDArray[np.int64],
        prefabs: Sequence[Prefab],
    ) -> None:
        self.xs, self.ys, self.numbers, self.kinds = xs, ys, numbers, kinds
        self.prefabs: Tuple[Prefab, ...] = tuple(prefabs)
        self._packed: Optional[PackedPrefabs] = None

    @classmethod
    def of(cls, rooms: Sequence[PlacedRoom]) -> "RoomTable":
        """``rooms`` as a table (itself if it is one); rooms sharing a prefab object share a kind."""
        if isinstance(rooms, RoomTable):
            return rooms
        kinds: Dict[int, int] = {}
        prefabs: List[Prefab] = []
        for room in rooms:
            if kinds.setdefault(id(room.prefab), len(prefabs)) == len(prefabs):
                prefabs.append(room.prefab)
        rows = np.array([(r.x, r.y, r.number, kinds[id(r.prefab)]) for r in rooms], dtype=np.int64).reshape(-1, 4)
        xs, ys, numbers, kind = (np.ascontiguousarray(column) for column in rows.T)
        return cls(xs, ys, numbers, kind, prefabs)

    def __len__(self) -> int:
        return len(self.xs)

    @overload
    def __getitem__(self, k: int) -> PlacedRoom: ...

    @overload
    def __getitem__(self, k: slice) -> Sequence[PlacedRoom]: ...

    def __getitem__(self, k: Union[int, slice]) -> Union[PlacedRoom, Sequence[PlacedRoom]]:
        if isinstance(k, slice):
            return [self[i] for i in range(len(self))[k]]
        return PlacedRoom(int(self.numbers[k]), int(self.xs[k]), int(self.ys[k]), self.prefabs[int(self.kinds[k])])

    def renumbered(self, offset: int) -> "RoomTable":
        """The same rooms numbered ``offset`` higher."""
        return RoomTable(self.xs, self.ys, self.numbers + offset, self.kinds, self.prefabs)

    def packed(self) -> PackedPrefabs:
        """The prefabs' arrays packed for kernels (made once per table)."""
        if self._packed is None:
            self._packed = _pack(self.prefabs)
        return self._packed


@lru_cache(maxsize=64)  # the rooms generator's tables share a few tuples of cached rectangles
def _pack(prefabs: Tuple[Prefab, ...]) -> PackedPrefabs:
    widths = np.array([p.width for p in prefabs], dtype=np.int64)
    heights = np.array([p.height for p in prefabs], dtype=np.int64)
    offsets = [p.door_offsets() for p in prefabs]
    marks = np.array([len(o[0]) for o in offsets], dtype=np.int64)

    def starts(sizes: NDArray[np.int64]) -> NDArray[np.int64]:
        return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)

    def joined(arrays: List[NDArray[Any]], dtype: Any) -> NDArray[Any]:
        return np.concatenate([a.ravel() for a in arrays] + [np.zeros(0, dtype=dtype)]).astype(dtype)

    return PackedPrefabs(
        widths, heights, starts(widths * heights), starts(np.maximum(widths - 1, 0) * np.maximum(heights - 1, 0)),
        starts(marks),
        joined([p.floor for p in prefabs], np.uint8), joined([p.east for p in prefabs], np.uint8),
        joined([p.south for p in prefabs], np.uint8), joined([p.corners for p in prefabs], np.uint8),
        *(joined([o[i] for o in offsets], np.int64) for i in range(4)),
    )


def place_rooms(spec: RoomSpec, mask: NDArray[np.bool_], rng: Random) -> List[PlacedRoom]:
    """Where each room goes: given cells are checked, the rest placed at random where they fit.

    Raises ``ValueError`` naming the room (numbered from 1 in the order given,
    random rectangles after) and why: past the border, too large, over cells
    outside the mask, overlapping an earlier room, or no room left for it.
    """
    h, w = mask.shape
    taken = np.zeros((h, w), dtype=bool)  # cells of rooms placed so far
    placed: List[PlacedRoom] = []
    for k, prefab in enumerate(spec.given, 1):
        if prefab.width > w or prefab.height > h:
            raise ValueError(
                f"room {k} ({prefab.width} × {prefab.height} cells) is too large for a {w} × {h}-cell maze"
            )
        if prefab.at is None:
            continue
        x, y = prefab.at
        if x < 0 or y < 0 or x + prefab.width > w or y + prefab.height > h:
            raise ValueError(
                f"room {k} at ({x}, {y}), {prefab.width} × {prefab.height} cells, runs past the border of "
                f"the {w} × {h}-cell maze (cells x 0..{w - 1}, y 0..{h - 1})"
            )
        room = PlacedRoom(k, x, y, prefab)
        if (prefab.floor & ~mask[room.window]).any():
            raise ValueError(f"room {k} at ({x}, {y}) covers cells outside the mask")
        if taken[room.window].any():
            other = next(r for r in placed if _overlap(r, room))
            raise ValueError(f"room {k} at ({x}, {y}) overlaps room {other.number} at ({other.x}, {other.y})")
        taken[room.window] = True
        placed.append(room)
    # Random places: prefabs without `at`, then `count` rectangles with sides drawn from room_size.
    low, high = spec.room_size
    sides = (low + (rng.random(2 * spec.count) * (high - low + 1)).astype(np.int64)).tolist()
    wanted = [(k, p) for k, p in enumerate(spec.given, 1) if p.at is None]
    wanted += [
        (len(spec.given) + n + 1, _open_rectangle(min(sides[2 * n], w), min(sides[2 * n + 1], h)))
        for n in range(spec.count)
    ]
    blocked = ~mask  # outside the mask, or within one cell of a room
    for room in placed:
        blocked[max(room.y - 1, 0) : room.y + room.prefab.height + 1, max(room.x - 1, 0) : room.x + room.prefab.width + 1] = True
    picks = rng.random(len(wanted) * (2 * _QUICK_TRIES + 1)).reshape(len(wanted), 2 * _QUICK_TRIES + 1).tolist()
    free = np.zeros((h + 2, w + 2), dtype=bool)  # maze cells not in a room, padded by one: marks may face off the grid
    free[1:-1, 1:-1] = mask & ~taken
    for (k, prefab), pick in zip(wanted, picks):
        spot = _random_spot(prefab, blocked, free, pick)
        if spot is None:
            raise ValueError(
                f"room {k} ({prefab.width} × {prefab.height} cells) does not fit: no place inside the mask "
                f"is one cell clear of the {len(placed)} rooms placed before it with a door mark facing "
                "the maze; ask for fewer or smaller rooms"
            )
        room = PlacedRoom(k, spot[0], spot[1], prefab)
        taken[room.window] = True
        blocked[max(room.y - 1, 0) : room.y + prefab.height + 1, max(room.x - 1, 0) : room.x + prefab.width + 1] = True
        free[room.y + 1 : room.y + prefab.height + 1, room.x + 1 : room.x + prefab.width + 1] = False
        placed.append(room)
    placed.sort(key=lambda r: r.number)
    return placed


def scatter_rooms(
    mask: NDArray[np.bool_], rng: Random, room_size: Tuple[int, int], attempts: int
) -> Sequence[PlacedRoom]:
    """Rooms thrown at random: ``attempts`` rectangles with sides in ``room_size``; each is kept
    when it lies inside the mask, one cell clear of the rooms kept before it (Nystrom's placement)."""
    fast = kernel("rooms", mask.size)
    if fast is not None:  # the same placement, compiled (mazeplugin/_compiled/rooms.py), kept as a table
        rows = fast.scatter(mask, rng, room_size, attempts)
        pitch = mask.shape[0] + 1  # sizes as width * pitch + height: rooms of one size share a prefab
        codes = rows[:, 2] * pitch + rows[:, 3]
        sizes = np.array(sorted(set(codes.tolist())), dtype=np.int64)  # a few sizes: quicker than np.unique
        kinds = np.searchsorted(sizes, codes).astype(np.int64)
        prefabs = [_open_rectangle(v // pitch, v % pitch) for v in sizes.tolist()]
        numbers = np.arange(1, len(rows) + 1, dtype=np.int64)
        return RoomTable(rows[:, 0].copy(), rows[:, 1].copy(), numbers, kinds, prefabs)
    h, w = mask.shape
    low, high = room_size
    near = np.zeros((h, w), dtype=bool)  # kept rooms and the one-cell margin around them
    placed: List[PlacedRoom] = []
    for r in rng.random(4 * attempts).reshape(attempts, 4).tolist():
        rw = min(low + int(r[0] * (high - low + 1)), w)
        rh = min(low + int(r[1] * (high - low + 1)), h)
        x = int(r[2] * (w - rw + 1))
        y = int(r[3] * (h - rh + 1))
        if near[y : y + rh, x : x + rw].any() or not mask[y : y + rh, x : x + rw].all():
            continue
        near[max(y - 1, 0) : y + rh + 1, max(x - 1, 0) : x + rw + 1] = True
        placed.append(PlacedRoom(len(placed) + 1, x, y, _open_rectangle(rw, rh)))
    return placed


_RECTANGLES: Dict[Tuple[int, int], Prefab] = {}


def _open_rectangle(width: int, height: int) -> Prefab:
    """:meth:`Prefab.rectangle`, made once per size (thousands of rooms share a few sizes)."""
    key = (width, height)
    if key not in _RECTANGLES:
        _RECTANGLES[key] = Prefab.rectangle(width, height)
    return _RECTANGLES[key]


def _overlap(a: PlacedRoom, b: PlacedRoom) -> bool:
    return bool(
        a.x < b.x + b.prefab.width and b.x < a.x + a.prefab.width
        and a.y < b.y + b.prefab.height and b.y < a.y + a.prefab.height
    )


_QUICK_TRIES = 16
"""Random places tried for a room before every place is searched."""


def _random_spot(
    prefab: Prefab, blocked: NDArray[np.bool_], free: NDArray[np.bool_], pick: List[float]
) -> Optional[Tuple[int, int]]:
    """A top-left cell where ``prefab`` lies on no ``blocked`` cell (inside the mask, one cell clear of
    every room) with a door mark facing a ``free`` cell (a maze cell outside rooms, in an array padded
    by one), or None if there is none.

    ``pick`` holds ``2 * _QUICK_TRIES + 1`` random numbers: first up to
    ``_QUICK_TRIES`` places tried at random (a room costs its own area, not
    the maze's), then one choice among every place that fits, found with a
    summed-area table.
    """
    h, w = blocked.shape
    rh, rw = prefab.height, prefab.width
    cx, cy, dx, dy = prefab.door_offsets()
    ox, oy = cx + dx + 1, cy + dy + 1  # where each mark faces, from the top-left cell, in `free`
    for t in range(_QUICK_TRIES):
        x = int(pick[2 * t] * (w - rw + 1))
        y = int(pick[2 * t + 1] * (h - rh + 1))
        if not blocked[y : y + rh, x : x + rw].any() and free[y + oy, x + ox].any():
            return (x, y)
    area = np.zeros((h + 1, w + 1), dtype=np.int64)
    area[1:, 1:] = blocked.cumsum(axis=0).cumsum(axis=1)
    inside = area[rh:, rw:] - area[:-rh, rw:] - area[rh:, :-rw] + area[:-rh, :-rw]
    fits = inside == 0
    reach = np.zeros(fits.shape, dtype=bool)
    for mx, my in zip(ox.tolist(), oy.tolist()):
        reach |= free[my : my + fits.shape[0], mx : mx + fits.shape[1]]
    spots = np.flatnonzero(fits & reach)
    if not len(spots):
        return None
    y, x = divmod(int(spots[int(pick[-1] * len(spots))]), inside.shape[1])
    return (x, y)


# -- 2./3. reserving and carving -----------------------------------------------------


def room_cells(rooms: Sequence[PlacedRoom], shape: Tuple[int, int]) -> NDArray[np.bool_]:
    """Every cell inside a room's rectangle (solid prefab cells too)."""
    fast = kernel("rooms", shape[0] * shape[1])
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
    fast = kernel("rooms", maze.size)
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


# -- 4. doors -----------------------------------------------------------------


def door_candidates(
    maze: Maze, rooms: Sequence[PlacedRoom], *, within: Optional[NDArray[np.bool_]] = None
) -> Tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Every possible door as cell-id arrays ``(inside, outside)``: a room's cell and the cell beyond its mark.

    Listed room by room, each room's marks north, south, west, east. The
    cell beyond must be in ``within`` (default: the maze's mask). A door
    between two of ``rooms`` must be marked by both; it is listed once.
    """
    fast = kernel("rooms", maze.size)
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
    fast = kernel("rooms", maze.size)
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
    from ..shaping import mask_parts

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
    fast = kernel("rooms", maze.size)
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


# -- all four ------------------------------------------------------------------


def build(
    maze: Maze, rooms: Sequence[PlacedRoom], rng: Random, doors: Union[int, float], run: Callable[[Maze], None]
) -> None:
    """Reserve ``rooms`` out of ``maze``'s mask, ``run`` the generator on the rest, carve the rooms, open doors.

    ``maze.start``/``maze.goal`` stay as they are (markers may sit in rooms);
    the generator sees them moved to a maze cell when they fall in a room.
    """
    if kernel("rooms", maze.size) is not None:
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
