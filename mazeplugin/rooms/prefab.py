"""Prefabs: rooms with a designed inside, drawn as text in base tiles.

A prefab is a block of the width-1 tilemap, ``2*h + 1`` rows of ``2*w + 1``
characters for a room of ``w`` × ``h`` cells, exactly as the room would print
with the default layout (``corridor`` and ``wall`` widen it like the rest of
the level):

- ``#`` wall, ``.`` floor;
- ``+`` on the outline: a place where a door may open (it stays wall unless
  a door is chosen there). At least one is needed.

Odd-odd characters are the room's cells (``#`` there: a solid cell, e.g. a
thick pillar), the characters between two cells are the walls or passages
between them, and even-even characters inside are the corners between four
cells (``.`` only where those four cells are joined all round, ``#`` for a
pillar). The outline is wall except for ``+`` marks beside a floor cell.
So a prefab says nothing the maze model cannot: cells in or out, passages,
corners.

>>> vault = Prefab.from_text('''
...     #+#####
...     #.....+
...     #.#.#.#
...     #.....#
...     #####+#
... ''', at=(2, 1))
>>> vault.width, vault.height, vault.at
(3, 2, (2, 1))
>>> vault.corners.tolist()   # two pillars inside the room
[[False, False]]
>>> print(vault.to_text())
#+#####
#.....+
#.#.#.#
#.....#
#####+#
"""

from __future__ import annotations

import numbers
import os
import textwrap
from typing import Any, List, Optional, Tuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .. import seam
from ..errors import LevelFormatError

__all__ = ["Prefab", "WALL_CHAR", "FLOOR_CHAR", "DOOR_CHAR"]

WALL_CHAR = "#"
FLOOR_CHAR = "."
DOOR_CHAR = "+"

MAX_PREFAB_CELLS = 1 << 16
"""Most cells one prefab may have (65,536, e.g. 256 × 256)."""

_MAX_TEXT_CHARS = 8 * MAX_PREFAB_CELLS + 65_536  # about 4 characters a cell, with room for indentation


class Prefab:
    """A room with a designed inside, placed at cell ``at`` or at random where it fits.

    Attributes:
        tiles: uint8 ``(2*height + 1, 2*width + 1)`` base-tile block, 1 = wall.
        doors: bool, shaped like ``tiles``: True where a door may open (outline only).
        at: the cell ``(x, y)`` of the room's top-left cell, or None to place it at random.
        width, height: size in cells.
        floor: bool ``(height, width)``: the room's cells (False: a solid cell).
        east, south: bool ``(height, width)``: passages open inside the room.
        corners: bool ``(height - 1, width - 1)``: corners open inside the room.
    """

    def __init__(self, tiles: ArrayLike, doors: ArrayLike, *, at: Optional[Tuple[int, int]] = None) -> None:
        block = np.asarray(tiles)
        marks = np.asarray(doors)
        if block.ndim != 2 or marks.shape != block.shape:
            raise ValueError(
                f"prefab tiles must be 2-D and doors the same shape; got {block.shape} and {marks.shape}"
            )
        if block.size and not np.isin(block, (0, 1)).all():
            raise ValueError("prefab tiles must be 0 (floor) or 1 (wall)")
        self.tiles: NDArray[np.uint8] = block.astype(np.uint8)
        self.doors: NDArray[np.bool_] = marks.astype(bool)
        self.at: Optional[Tuple[int, int]] = _check_at(at)
        self._offsets: Optional[
            Tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]
        ] = None
        self._check_shape()
        t = self.tiles == 0
        self.height: int = (self.tiles.shape[0] - 1) // 2
        self.width: int = (self.tiles.shape[1] - 1) // 2
        self.floor: NDArray[np.bool_] = t[1::2, 1::2].copy()
        self.east: NDArray[np.bool_] = np.zeros((self.height, self.width), dtype=bool)
        self.east[:, :-1] = t[1::2, 2:-1:2]
        self.south: NDArray[np.bool_] = np.zeros((self.height, self.width), dtype=bool)
        self.south[:-1, :] = t[2:-1:2, 1::2]
        self.corners: NDArray[np.bool_] = t[2:-1:2, 2:-1:2].copy()
        self._check_inside()
        self.tiles.flags.writeable = False
        self.doors.flags.writeable = False

    @classmethod
    def from_text(cls, text: str, *, at: Optional[Tuple[int, int]] = None) -> "Prefab":
        """A prefab from text: ``#`` wall, ``.`` floor, ``+`` a possible door on the outline.

        Leading and trailing blank lines and common indentation are ignored.

        >>> Prefab.from_text("#+#\\n#.#\\n###").doors.astype(int).tolist()
        [[0, 1, 0], [0, 0, 0], [0, 0, 0]]
        >>> Prefab.from_text("###\\n#.\\n###")
        Traceback (most recent call last):
        ...
        ValueError: prefab text rows must all have the same length: row 2 has 2 characters, row 1 has 3
        """
        if not isinstance(text, str):
            raise TypeError(f"prefab text must be a str, not {type(text).__name__}")
        if len(text) > _MAX_TEXT_CHARS:
            raise ValueError(
                f"prefab text has {len(text):,} characters; at most {_MAX_TEXT_CHARS:,} "
                f"(a prefab has at most {MAX_PREFAB_CELLS:,} cells)"
            )
        rows = [row.rstrip() for row in textwrap.dedent(text).strip("\n").splitlines()]
        if not rows or not rows[0]:
            raise ValueError("prefab text is empty")
        for number, row in enumerate(rows, 1):
            if len(row) != len(rows[0]):
                raise ValueError(
                    f"prefab text rows must all have the same length: row {number} has "
                    f"{len(row)} characters, row 1 has {len(rows[0])}"
                )
            bad = [ch for ch in row if ch not in (WALL_CHAR, FLOOR_CHAR, DOOR_CHAR)]
            if bad:
                raise ValueError(
                    f"prefab text row {number} has {bad[0]!r}; use {WALL_CHAR!r} wall, "
                    f"{FLOOR_CHAR!r} floor, {DOOR_CHAR!r} possible door"
                )
        chars = np.array([list(row) for row in rows])
        return cls((chars != FLOOR_CHAR).astype(np.uint8), chars == DOOR_CHAR, at=at)

    @classmethod
    def from_tiled(cls, path: "os.PathLike[str] | str", *, at: Optional[Tuple[int, int]] = None) -> "Prefab":
        """A prefab drawn in the Tiled editor (``.tmx`` or ``.tmj``), in base tiles like :meth:`from_text`.

        Wall tiles have the bool property ``wall``; door marks are tiles with
        the bool property ``door``, or objects named (or of class) ``door``,
        on the outline. The file is read like a level map (see
        :mod:`mazeplugin.formats.tiled_read`); a bad file or room raises
        :class:`~mazeplugin.formats.files.LevelFormatError` naming the file.
        """
        at = _check_at(at)
        tiles, doors, source = seam.read_prefab(path)
        try:
            return cls(tiles, doors, at=at)
        except ValueError as error:
            raise LevelFormatError(f"{source}: {error}") from None

    @classmethod
    def rectangle(cls, width: int, height: int, *, at: Optional[Tuple[int, int]] = None) -> "Prefab":
        """An open ``width`` × ``height``-cell room, with a possible door at every place on its outline.

        >>> print(Prefab.rectangle(2, 1).to_text())
        #+#+#
        +...+
        #+#+#
        """
        w, h = (_positive(name, v) for name, v in (("width", width), ("height", height)))
        if w * h > MAX_PREFAB_CELLS:
            raise ValueError(f"a room of {w} × {h} cells is too large; at most {MAX_PREFAB_CELLS:,} cells")
        tiles = np.ones((2 * h + 1, 2 * w + 1), dtype=np.uint8)
        tiles[1:-1, 1:-1] = 0
        doors = np.zeros(tiles.shape, dtype=bool)
        doors[0, 1::2] = doors[-1, 1::2] = True
        doors[1::2, 0] = doors[1::2, -1] = True
        return cls(tiles, doors, at=at)

    def placed(self, at: Tuple[int, int]) -> "Prefab":
        """The same prefab placed at cell ``at``."""
        return Prefab(self.tiles, self.doors, at=at)

    def to_text(self) -> str:
        """The prefab as :meth:`from_text` reads it."""
        chars = np.where(self.tiles == 0, FLOOR_CHAR, WALL_CHAR)
        chars[self.doors] = DOOR_CHAR
        return "\n".join("".join(row) for row in chars.tolist())

    def door_sides(self) -> List[Tuple[Tuple[int, int], Tuple[int, int]]]:
        """The possible doors as ``(cell, step)`` pairs: the room's cell and the step out of the room.

        >>> Prefab.from_text("#+#\\n#.+\\n###").door_sides()
        [((0, 0), (0, -1)), ((0, 0), (1, 0))]
        """
        out = []
        for y, x in np.argwhere(self.doors).tolist():
            if y == 0:
                out.append(((x // 2, 0), (0, -1)))
            elif y == self.tiles.shape[0] - 1:
                out.append(((x // 2, self.height - 1), (0, 1)))
            elif x == 0:
                out.append(((0, y // 2), (-1, 0)))
            else:
                out.append(((self.width - 1, y // 2), (1, 0)))
        return out

    def door_offsets(self) -> Tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """The possible doors as arrays ``(cx, cy, dx, dy)``: the room's cell and the step out of
        the room, north side first, then south, west, east (each in order along its side)."""
        if self._offsets is None:
            marks = self.doors
            xs_n, xs_s = np.flatnonzero(marks[0, 1::2]), np.flatnonzero(marks[-1, 1::2])
            ys_w, ys_e = np.flatnonzero(marks[1::2, 0]), np.flatnonzero(marks[1::2, -1])
            top, bottom, left, right = 0, self.height - 1, 0, self.width - 1
            cx = np.concatenate([xs_n, xs_s, np.full(len(ys_w), left), np.full(len(ys_e), right)])
            cy = np.concatenate([np.full(len(xs_n), top), np.full(len(xs_s), bottom), ys_w, ys_e])
            sizes = (len(xs_n), len(xs_s), len(ys_w), len(ys_e))
            dx = np.repeat([0, 0, -1, 1], sizes)
            dy = np.repeat([-1, 1, 0, 0], sizes)
            self._offsets = (cx.astype(np.int64), cy.astype(np.int64), dx.astype(np.int64), dy.astype(np.int64))
        return self._offsets

    def __repr__(self) -> str:
        return f"Prefab({self.width}x{self.height} cells, at={self.at})"

    # -- checks ------------------------------------------------------------

    def _check_shape(self) -> None:
        rows, columns = self.tiles.shape
        if rows < 3 or columns < 3 or rows % 2 == 0 or columns % 2 == 0:
            raise ValueError(
                f"a prefab is (2 × height + 1) rows of (2 × width + 1) tiles, at least 3 × 3; "
                f"got {columns} × {rows}"
            )
        if (rows // 2) * (columns // 2) > MAX_PREFAB_CELLS:
            raise ValueError(f"a prefab of {columns // 2} × {rows // 2} cells is too large; at most {MAX_PREFAB_CELLS:,} cells")

    def _check_inside(self) -> None:
        t, marks = self.tiles, self.doors
        rows, columns = t.shape
        ring = np.ones(t.shape, dtype=bool)
        ring[1:-1, 1:-1] = False
        if (ring & (t == 0)).any():
            y, x = np.argwhere(ring & (t == 0))[0].tolist()
            raise ValueError(f"prefab outline tile ({x}, {y}) is floor; the outline is wall, with {DOOR_CHAR!r} where a door may go")
        if (marks & ~ring).any():
            y, x = np.argwhere(marks & ~ring)[0].tolist()
            raise ValueError(f"prefab door mark at tile ({x}, {y}) is inside the room; door marks go on the outline")
        ys, xs = np.nonzero(marks)
        beside = np.zeros(len(ys), dtype=bool)
        for k, (y, x) in enumerate(zip(ys.tolist(), xs.tolist())):
            if (x % 2 == 1) != (y % 2 == 1):  # beside a cell, not on a corner
                cy = min(max(y, 1), rows - 2) // 2
                cx = min(max(x, 1), columns - 2) // 2
                beside[k] = self.floor[cy, cx]
        if (~beside).any():
            k = int(np.flatnonzero(~beside)[0])
            raise ValueError(
                f"prefab door mark at tile ({xs[k]}, {ys[k]}) is not beside a floor cell; "
                "a door goes in the outline next to a '.' cell, not on a corner"
            )
        if not len(ys):
            raise ValueError(f"prefab has no door marks: put {DOOR_CHAR!r} on its outline where doors may go")
        floor = self.floor
        loose_east = self.east & ~(floor & np.roll(floor, -1, axis=1))
        loose_south = self.south & ~(floor & np.roll(floor, -1, axis=0))
        if loose_east.any() or loose_south.any():
            y, x = np.argwhere(loose_east)[0].tolist() if loose_east.any() else np.argwhere(loose_south)[0].tolist()
            raise ValueError(f"prefab has a floor tile between cell ({x}, {y}) and a solid cell; a passage joins two floor cells")
        e, s = self.east, self.south
        joined = e[:-1, :-1] & e[1:, :-1] & s[:-1, :-1] & s[:-1, 1:]
        if (self.corners & ~joined).any():
            y, x = np.argwhere(self.corners & ~joined)[0].tolist()
            raise ValueError(
                f"prefab corner tile ({2 * x + 2}, {2 * y + 2}) is floor, but the four cells around it "
                "are not joined all round"
            )
        if not floor.any():
            raise ValueError("prefab has no floor cell")
        if _pieces(floor, e, s) > 1:
            raise ValueError("prefab floor is in pieces; a room's cells must all be joined to each other")


def _pieces(floor: NDArray[np.bool_], east: NDArray[np.bool_], south: NDArray[np.bool_]) -> int:
    """Number of pieces of the floor cells joined by the passages (a small flood fill)."""
    h, w = floor.shape
    seen = ~floor
    pieces = 0
    for y0, x0 in np.argwhere(floor).tolist():
        if seen[y0, x0]:
            continue
        pieces += 1
        seen[y0, x0] = True
        stack = [(x0, y0)]
        while stack:
            x, y = stack.pop()
            for nx, ny, ok in (
                (x + 1, y, x + 1 < w and east[y, x]),
                (x - 1, y, x > 0 and east[y, x - 1]),
                (x, y + 1, y + 1 < h and south[y, x]),
                (x, y - 1, y > 0 and south[y - 1, x]),
            ):
                if ok and not seen[ny, nx]:
                    seen[ny, nx] = True
                    stack.append((nx, ny))
    return pieces


def _positive(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"room {name} must be an int, not {type(value).__name__}")
    if value < 1:
        raise ValueError(f"room {name} must be at least 1, got {value}")
    return int(value)


def _check_at(at: Any) -> Optional[Tuple[int, int]]:
    if at is None:
        return None
    try:
        x, y = at
    except (TypeError, ValueError):
        raise TypeError(f"prefab at= must be an (x, y) cell or None, got {at!r}") from None
    if any(isinstance(v, bool) or not isinstance(v, numbers.Integral) for v in (x, y)):
        raise TypeError(f"prefab at= must be an (x, y) pair of ints, got {at!r}")
    return (int(x), int(y))
