"""Rooms, step 1: what a room request is, and where each room goes (see :mod:`mazeplugin.rooms.layer`).

Rooms given at a cell are checked where they are; the others (prefabs
without ``at``, and the ``rooms=N`` random rectangles with sides drawn from
``room_size``) go at a random place where they fit, one cell clear of every
other room. Every random number comes from the rooms stream. On the compiled
path the rooms are a :class:`RoomTable` (arrays) read by kernels.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union, overload

import numpy as np
from numpy.typing import NDArray

from .._compiled import twin
from ..seeds import Random
from .prefab import Prefab

__all__ = ["RoomSpec", "PlacedRoom", "PackedPrefabs", "RoomTable", "check_rooms", "place_rooms", "scatter_rooms",
           "MAX_ROOMS", "MAX_DOORS", "MAX_ROOM_SIDE", "DEFAULT_ROOM_SIZE"]

_ROOMS = twin("rooms")  # the compiled rooms kernel, or the plain code beside each use

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

    xs: NDArray[np.int64]
    ys: NDArray[np.int64]
    numbers: NDArray[np.int64]
    kinds: NDArray[np.int64]

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
    fast = _ROOMS.pick(mask.size)
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
