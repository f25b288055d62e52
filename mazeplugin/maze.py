"""The one model of a maze: a grid of cells and the open passages between them.

Generators receive a :class:`Maze` with every wall standing and open passages;
everything else (tilemaps, markers, text, pictures, analysis) is computed from
``east``, ``south`` (and, for open areas, ``corners`` and ``rooms``) in one
place each.

Open areas: the corner between four cells (the "pillar" tile in a tilemap)
is wall unless ``corners`` opens it, which is allowed only where the four
cells around it are joined to each other, so an open area is all floor.
``rooms`` numbers the cells of each room (open area) 1, 2, ...; analysis
treats a room as one open space. Perfect generators never set either.

Cells are numbered row-major: cell ``(x, y)`` has id ``y * width + x``.
Arrays are indexed ``[y, x]``.

>>> maze = Maze(3, 2)
>>> maze.open(maze.cell_id(0, 0), maze.cell_id(1, 0))
>>> maze.open(maze.cell_id(1, 0), maze.cell_id(1, 1))
>>> maze.east.astype(int).tolist(), maze.south.astype(int).tolist()
([[1, 0, 0], [0, 0, 0]], [[0, 1, 0], [0, 0, 0]])
>>> maze.passage_count()
2
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._compiled import twin
from .unionfind import DisjointSets, component_roots

__all__ = ["Maze", "Cell", "mask_parts", "UNDER_EAST_WEST", "UNDER_NORTH_SOUTH"]

_ROOM_CHECK = twin("room-check")  # Maze.check's rooms test, compiled (a ground kernel, as this module)

Cell = Tuple[int, int]
"""A cell position ``(x, y)``."""

# Neighbour directions in the order of Maze.neighbour_table's columns.
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3

UNDER_EAST_WEST = 1
"""``Maze.under`` and ``Level.bridges`` (weave): the tunnel under this bridge runs east–west."""
UNDER_NORTH_SOUTH = 2
"""``Maze.under`` and ``Level.bridges`` (weave): the tunnel under this bridge runs north–south."""


class Maze:
    """A ``width`` × ``height`` grid of cells and the passages opened between them.

    Attributes:
        width, height: size in cells.
        mask: bool ``(height, width)``; True where a cell belongs to the maze.
            Cells outside the mask are solid wall and never get passages.
        east: bool ``(height, width)``; True where cell ``(x, y)`` is open to
            ``(x + 1, y)``. The last column is always False.
        south: bool ``(height, width)``; True where cell ``(x, y)`` is open to
            ``(x, y + 1)``. The last row is always False.
        corners: bool ``(height - 1, width - 1)``; True where the corner
            between cells ``(x, y)``, ``(x + 1, y)``, ``(x, y + 1)`` and
            ``(x + 1, y + 1)`` is open floor (only where all four are joined
            to each other). False everywhere for a perfect maze.
        rooms: int32 ``(height, width)``; 0 for ordinary cells, ``k >= 1``
            for the cells of room (open area) ``k``. A room's cells are
            joined to each other through passages inside the room.
        under: None (no crossings: every maze but a weave), or int8
            ``(height, width)``: ``UNDER_EAST_WEST`` (1) where a straight
            under-passage joins ``(x - 1, y)`` and ``(x + 1, y)`` beneath cell
            ``(x, y)`` (a bridge, whose own passages then run north–south),
            ``UNDER_NORTH_SOUTH`` (2) where one joins ``(x, y - 1)`` and
            ``(x, y + 1)`` (the bridge runs east–west), 0 elsewhere. See
            :mod:`mazeplugin.weave`.
        start, goal: the cells the entrance and exit will be in, when known
            before generation (generators that must join them, like
            ``union-find``, read these). Defaults: the first and last cells.
    """

    def __init__(
        self,
        width: int,
        height: int,
        mask: Optional[ArrayLike] = None,
        *,
        start: Optional[Cell] = None,
        goal: Optional[Cell] = None,
    ) -> None:
        self.width: int = int(width)
        self.height: int = int(height)
        shape = (self.height, self.width)
        self.mask: NDArray[np.bool_]
        if mask is None:
            self.mask = np.ones(shape, dtype=bool)
        else:
            self.mask = np.array(mask, dtype=bool, copy=True)
            if self.mask.shape != shape:
                raise ValueError(f"mask must have shape {shape}, got {self.mask.shape}")
        self.east: NDArray[np.bool_] = np.zeros(shape, dtype=bool)
        self.south: NDArray[np.bool_] = np.zeros(shape, dtype=bool)
        self.corners: NDArray[np.bool_] = np.zeros((max(self.height - 1, 0), max(self.width - 1, 0)), dtype=bool)
        self.rooms: NDArray[np.int32] = np.zeros(shape, dtype=np.int32)
        self.under: Optional[NDArray[np.int8]] = None
        # The first and last maze cells (argmax stops at the first True: no pass over a full grid).
        flat = self.mask.reshape(-1)
        first = int(np.argmax(flat)) if flat.size else 0
        last = flat.size - 1 - int(np.argmax(flat[::-1])) if flat.size and flat[first] else 0
        self.start: Cell = start if start is not None else self.cell_xy(first)
        self.goal: Cell = goal if goal is not None else self.cell_xy(last)

    # -- cells ---------------------------------------------------------------

    @property
    def size(self) -> int:
        """Number of grid positions, ``width * height`` (masked-out ones included)."""
        return self.width * self.height

    def cell_count(self) -> int:
        """Number of cells that belong to the maze."""
        return int(self.mask.sum())

    def cell_id(self, x: int, y: int) -> int:
        """The id of cell ``(x, y)``."""
        return y * self.width + x

    def cell_xy(self, cell: int) -> Cell:
        """The ``(x, y)`` of cell id ``cell``."""
        y, x = divmod(int(cell), self.width)
        return (x, y)

    def cells(self) -> NDArray[np.int64]:
        """Ids of the cells that belong to the maze, ascending."""
        return np.flatnonzero(self.mask).astype(np.int64)

    def roots(self) -> List[int]:
        """Where a generator growing one tree per part of the mask tries to start.

        The ``start`` cell first, then every maze cell in row-major order;
        skip those already in a tree, and each part gets exactly one root.

        >>> Maze(2, 2, start=(1, 1)).roots()
        [3, 0, 1, 2, 3]
        """
        rest: List[int] = self.cells().tolist()
        return [self.cell_id(*self.start)] + rest

    def neighbour_table(self) -> NDArray[np.int64]:
        """``(size, 4)`` ids of each cell's neighbours north, east, south, west.

        -1 where the neighbour is off the grid or outside the mask (and for
        every direction of a cell outside the mask). Tight generator loops
        call ``.tolist()`` on this once.
        """
        w, h = self.width, self.height
        ids = np.arange(w * h, dtype=np.int64).reshape(h, w)
        table = np.full((h, w, 4), -1, dtype=np.int64)
        table[1:, :, NORTH] = ids[:-1, :]
        table[:, :-1, EAST] = ids[:, 1:]
        table[:-1, :, SOUTH] = ids[1:, :]
        table[:, 1:, WEST] = ids[:, :-1]
        flat = table.reshape(-1, 4)
        inside = self.mask.reshape(-1)
        flat[~inside] = -1
        outside_neighbour = np.zeros(flat.shape, dtype=bool)
        valid = flat >= 0
        outside_neighbour[valid] = ~inside[flat[valid]]
        flat[outside_neighbour] = -1
        return flat

    def walls(self) -> Tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Every inner wall between two maze cells, as cell-id arrays ``(a, b)``.

        East walls first (row-major, ``b == a + 1``), then south walls
        (row-major, ``b == a + width``).
        """
        w = self.width
        ids = np.arange(self.size, dtype=np.int64).reshape(self.height, w)
        east = self.mask[:, :-1] & self.mask[:, 1:]
        south = self.mask[:-1, :] & self.mask[1:, :]
        a = np.concatenate([ids[:, :-1][east], ids[:-1, :][south]])
        b = np.concatenate([ids[:, :-1][east] + 1, ids[:-1, :][south] + w])
        return a, b

    # -- passages ------------------------------------------------------------

    def open(self, a: int, b: int) -> None:
        """Open the passage between neighbouring cells ``a`` and ``b``."""
        lo, hi = (a, b) if a < b else (b, a)
        if hi - lo == 1 and hi % self.width != 0:
            self.east.flat[lo] = True
        elif hi - lo == self.width:
            self.south.flat[lo] = True
        else:
            raise ValueError(f"cells {self.cell_xy(a)} and {self.cell_xy(b)} are not neighbours")

    def open_many(self, a: ArrayLike, b: ArrayLike) -> None:
        """Open the passages between neighbouring cells ``a[i]`` and ``b[i]`` (vectorised)."""
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        lo = np.minimum(a, b)
        step = np.abs(a - b)
        is_east = (step == 1) & (np.maximum(a, b) % self.width != 0)
        is_south = step == self.width
        if self.width == 1:
            is_east[:] = False
        if not np.all(is_east | is_south):
            raise ValueError("open_many() needs pairs of neighbouring cells")
        self.east.flat[lo[is_east]] = True
        self.south.flat[lo[is_south]] = True

    def is_open(self, a: int, b: int) -> bool:
        """Whether the passage between neighbouring cells ``a`` and ``b`` is open."""
        lo, hi = (a, b) if a < b else (b, a)
        if hi - lo == 1 and hi % self.width != 0:
            return bool(self.east.flat[lo])
        if hi - lo == self.width:
            return bool(self.south.flat[lo])
        return False

    def passages(self) -> Tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The open passages as cell-id arrays ``(a, b)``, east ones first."""
        east = np.flatnonzero(self.east)
        south = np.flatnonzero(self.south)
        return (
            np.concatenate([east, south]).astype(np.int64),
            np.concatenate([east + 1, south + self.width]).astype(np.int64),
        )

    def passage_count(self) -> int:
        """Number of open passages."""
        return int(self.east.sum() + self.south.sum())

    def degree(self) -> NDArray[np.int8]:
        """``(height, width)`` number of open passages at each cell."""
        d = self.east.astype(np.int8) + self.south
        d[:, 1:] += self.east[:, :-1]
        d[1:, :] += self.south[:-1, :]
        return d

    def joined_corners(self) -> NDArray[np.bool_]:
        """``(height - 1, width - 1)``: True where the four cells around a corner are joined all round.

        Only these corners may be opened (see ``corners``).

        >>> maze = Maze(2, 2)
        >>> maze.open_many([0, 0, 1, 2], [1, 2, 3, 3])
        >>> maze.joined_corners().tolist()
        [[True]]
        """
        e, s = self.east, self.south
        return e[:-1, :-1] & e[1:, :-1] & s[:-1, :-1] & s[:-1, 1:]

    def rooms_from_corners(self) -> None:
        """Number ``rooms`` from the open corners: cells around open corners that touch form one room.

        What a tilemap tells of rooms (loaders use this): a room whose every
        corner is a pillar (one cell wide, say) reads back as ordinary cells.
        Rooms are numbered 1, 2, ... in row-major order of their first cell.

        >>> maze = Maze(3, 2)
        >>> maze.open_many([0, 0, 1, 3], [1, 3, 4, 4])
        >>> maze.corners[0, 0] = True
        >>> maze.rooms_from_corners()
        >>> maze.rooms.tolist()
        [[1, 1, 0], [1, 1, 0]]
        """

        self.rooms = np.zeros((self.height, self.width), dtype=np.int32)
        ys, xs = np.nonzero(self.corners)
        if not len(ys):
            return
        index = np.int32 if self.size < 2**31 else np.int64  # (half the memory for a map of open rooms)
        top_left = ys.astype(index) * self.width + xs.astype(index)
        del ys, xs
        around = [top_left + 1, top_left + self.width, top_left + self.width + 1]
        roots = component_roots(self.size, np.tile(top_left, 3), np.concatenate(around))
        covered = np.zeros(self.size, dtype=bool)  # the cells around open corners, in id order
        for ids in [top_left] + around:
            covered[ids] = True
        del around
        cells = np.flatnonzero(covered)
        # A component's root is its smallest cell id, so sorted roots number rooms by first cell.
        firsts = np.unique(roots[cells])
        self.rooms.flat[cells] = np.searchsorted(firsts, roots[cells]) + 1

    def check(self) -> None:
        """Raise ``ValueError`` if a passage leaves the grid or the mask, or an open area is not one.

        A corner may be open only where its four cells are joined all round,
        and each room's cells must be maze cells joined to each other.
        The framework calls this after every generator, so a faulty plugin
        is caught where it goes wrong, not later in a renderer.
        """
        if self.east[:, -1].any() or self.south[-1, :].any():
            raise ValueError("a passage leads off the grid")
        outside = ~self.mask
        # (The last column's east and the last row's south are closed: compare each cell with the next.)
        if not self.mask.all() and (
            (self.east[:, :-1] & (outside[:, :-1] | outside[:, 1:])).any()
            or (self.south[:-1, :] & (outside[:-1, :] | outside[1:, :])).any()
        ):
            raise ValueError("a passage leads into a cell outside the mask")
        h, w = self.height, self.width
        if self.corners.shape != (max(h - 1, 0), max(w - 1, 0)) or self.rooms.shape != (h, w):
            raise ValueError("corners must be (height - 1, width - 1) and rooms (height, width)")
        loose = self.corners & ~self.joined_corners() if self.corners.any() else None  # (none open: none loose)
        if loose is not None and loose.any():
            y, x = (int(v) for v in np.argwhere(loose)[0])
            raise ValueError(
                f"the corner between cells ({x}, {y}) and ({x + 1}, {y + 1}) is open, "
                "but those four cells are not joined all round"
            )
        if self.rooms.any():
            self._check_rooms()
        if self.under is not None:
            self.check_under()

    def under_passages(self) -> Tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """The under-passages of a weave as cell-id arrays ``(a, bridge, b)``: ``a`` and ``b`` are
        joined beneath ``bridge`` (``a`` west or north of it); empty without crossings.

        >>> maze = Maze(3, 3)
        >>> maze.under = np.zeros((3, 3), dtype=np.int8)
        >>> maze.under[1, 1] = UNDER_EAST_WEST
        >>> [v.tolist() for v in maze.under_passages()]
        [[3], [4], [5]]
        """
        if self.under is None:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty
        flat = self.under.reshape(-1)
        bridge = np.flatnonzero(flat).astype(np.int64)
        step = np.where(flat[bridge] == UNDER_EAST_WEST, 1, self.width).astype(np.int64)
        return bridge - step, bridge, bridge + step

    def check_under(self) -> None:
        """Each bridge is a straight crossing: inside the grid, its own two passages straight along
        one axis and none along the other, its under-passage's ends maze cells, no bridge beside another."""
        under = self.under
        h, w = self.height, self.width
        if under is None:  # pragma: no cover - the caller checks
            return
        if under.shape != (h, w) or not np.isin(under, (0, UNDER_EAST_WEST, UNDER_NORTH_SOUTH)).all():
            raise ValueError("under must be (height, width) of 0, 1 (east-west) or 2 (north-south)")
        bridge = under != 0
        if not bridge.any():
            return
        if bridge[0, :].any() or bridge[-1, :].any() or bridge[:, 0].any() or bridge[:, -1].any():
            raise ValueError("a bridge (under) lies on the edge of the grid; an under-passage needs a cell on each side")
        ew, ns = under == UNDER_EAST_WEST, under == UNDER_NORTH_SOUTH
        e, s = self.east, self.south
        west_open = np.zeros_like(e)
        west_open[:, 1:] = e[:, :-1]
        north_open = np.zeros_like(s)
        north_open[1:, :] = s[:-1, :]
        mask = self.mask
        beside = np.zeros_like(bridge)
        beside[:, 1:] |= bridge[:, :-1]
        beside[:, :-1] |= bridge[:, 1:]
        beside[1:, :] |= bridge[:-1, :]
        beside[:-1, :] |= bridge[1:, :]
        ends_in = np.zeros_like(bridge)
        ends_in[1:-1, 1:-1] = np.where(ew[1:-1, 1:-1], mask[1:-1, :-2] & mask[1:-1, 2:], mask[:-2, 1:-1] & mask[2:, 1:-1])
        bad = (
            (ew & ~(north_open & s & ~west_open & ~e))
            | (ns & ~(west_open & e & ~north_open & ~s))
            | (bridge & (beside | ~mask | (self.rooms != 0)))
            | (bridge & ~ends_in)
        )
        if bad.any():
            y, x = (int(v) for v in np.argwhere(bad)[0])
            raise ValueError(
                f"the bridge at cell ({x}, {y}) is not a straight crossing: a bridge's own passages run straight "
                "through it along one axis, its under-passage along the other, between two maze cells, "
                "and no bridge lies beside another"
            )

    def _check_rooms(self) -> None:
        """Each room's cells lie in the mask and are joined to each other inside the room."""

        rooms = self.rooms
        if (rooms < 0).any() or (rooms.astype(bool) & ~self.mask).any():
            raise ValueError("rooms must be 0 or a room number >= 1, and room cells must be maze cells")
        fast = _ROOM_CHECK.pick(self.size)
        if fast is not None:  # the same check, by a compiled union-find over the passages inside rooms
            split = fast.first_split_room(self)
            if split:
                raise ValueError(f"room {split}'s cells are not all joined to each other")
            return
        a, b = self.passages()
        inside = (rooms.flat[a] == rooms.flat[b]) & (rooms.flat[a] > 0)
        roots = component_roots(self.size, a[inside], b[inside])
        cells = np.flatnonzero(rooms)
        pairs = np.unique(rooms.flat[cells].astype(np.int64) * self.size + roots[cells])
        numbers, pieces = np.unique(pairs // self.size, return_counts=True)
        if (pieces > 1).any():
            raise ValueError(f"room {int(numbers[pieces > 1][0])}'s cells are not all joined to each other")

    def copy(self) -> Maze:
        """An independent copy."""
        other = Maze.__new__(Maze)
        other.width, other.height = self.width, self.height
        other.mask = self.mask.copy()
        other.east = self.east.copy()
        other.south = self.south.copy()
        other.corners = self.corners.copy()
        other.rooms = self.rooms.copy()
        other.under = None if self.under is None else self.under.copy()
        other.start, other.goal = self.start, self.goal
        return other

    def __repr__(self) -> str:
        return (
            f"Maze({self.width}x{self.height}, {self.cell_count()} cells, "
            f"{self.passage_count()} passages)"
        )


def mask_parts(mask: NDArray[np.bool_]) -> Tuple[NDArray[np.int64], int]:
    """Label the 4-connected parts of a mask: ``(labels, count)``.

    ``labels`` is int64 shaped like ``mask``: -1 outside, else the part's
    number, numbered in row-major order of each part's first cell.
    """
    h, w = mask.shape
    if mask.all():
        return np.zeros((h, w), dtype=np.int64), 1
    a, b = Maze(w, h, mask).walls()
    sets = DisjointSets(h * w)
    sets.union_each(a.tolist(), b.tolist())
    cells = np.flatnonzero(mask)
    roots = np.array([sets.find(c) for c in cells.tolist()], dtype=np.int64)
    _, first, inverse = np.unique(roots, return_index=True, return_inverse=True)
    # np.unique numbers roots by value; renumber by each part's first cell.
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    labels = np.full(h * w, -1, dtype=np.int64)
    labels[cells] = rank[inverse.ravel()]
    return labels.reshape(h, w), len(first)
