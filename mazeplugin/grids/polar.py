"""The polar grid ("theta" mazes): rings of cells around a middle, outer rings split into more cells.

Ring 0 has ``width`` cells (one cell is a round middle, with no hole); each
ring further out has as many cells as keep them about as wide as they are
deep: ring ``r`` has the count of ring ``r - 1`` times a whole ratio (1, 2,
3 …), so every cell has exactly one *inward* neighbour (its parent), its two
neighbours around the ring, and one or more *outward* neighbours. Cells are
numbered ring by ring, clockwise from angle 0 (pointing right). Source:
J. Buck, "Mazes for Programmers", ch. 7 (``polar_grid.rb``).

>>> grid = PolarGrid(1, 3)  # a middle cell and two rings
>>> grid.ring_sizes
(1, 6, 12)
>>> grid.neighbours_of(0).tolist()  # the middle opens onto every cell of ring 1
[1, 2, 3, 4, 5, 6]
>>> PolarGrid(8, 4).ring_sizes
(8, 16, 16, 32)
"""

from __future__ import annotations

import math
from typing import List, Optional, Tuple

import numpy as np

from .base import Grid, Point, Side, ring_points

__all__ = ["PolarGrid", "ring_sizes", "hole_radius"]


def hole_radius(inner: int) -> float:
    """The radius of the middle: 0 (a disc cell) for one inner cell, else a hole whose rim
    gives the innermost ring's cells about unit width."""
    return 0.0 if inner == 1 else max(0.5, inner / (2 * math.pi))


def ring_sizes(inner: int, rings: int) -> List[int]:
    """The cells in each ring, innermost first (rings are one unit deep).

    >>> ring_sizes(1, 4)
    [1, 6, 12, 24]
    """
    hole = hole_radius(inner)
    sizes = [inner]
    for r in range(1, rings):
        wide = 2 * math.pi * (hole + r) / sizes[-1]  # a cell's width if the count stayed
        sizes.append(sizes[-1] * max(1, math.floor(wide + 0.5)))
    return sizes


class PolarGrid(Grid):
    """``rings`` rings around a middle, ``inner`` cells in the innermost (see the module docstring)."""

    inner: int
    rings: int
    hole: float

    name = "polar"

    def __init__(self, inner: int, rings: int) -> None:
        self.inner, self.rings = int(inner), int(rings)
        # The middle: a disc for one cell, else a hole whose rim gives ring 0's cells unit width.
        self.hole = hole_radius(self.inner)
        sizes = ring_sizes(self.inner, self.rings)
        self.ring_sizes: Tuple[int, ...] = tuple(sizes)
        starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self.ring_starts: Tuple[int, ...] = tuple(int(s) for s in starts)
        pairs = []
        for r, size in enumerate(sizes):
            cells = np.arange(size, dtype=np.int64) + starts[r]
            if size >= 3:
                pairs.append(np.stack([cells, np.roll(cells, -1)], axis=1))
            elif size == 2:
                pairs.append(cells[None, :])  # one passage between the two, across angle 0
            if r:
                ratio = size // sizes[r - 1]
                pairs.append(np.stack([cells, starts[r - 1] + np.arange(size) // ratio], axis=1))
        edges = np.concatenate(pairs) if pairs else np.zeros((0, 2), dtype=np.int64)
        super().__init__(int(starts[-1]), edges)

    def ring_of(self, cell: int) -> Tuple[int, int]:
        """``(ring, index in the ring)`` of cell number ``cell``."""
        r = int(np.searchsorted(self.ring_starts, cell, side="right")) - 1
        return r, cell - self.ring_starts[r]

    def cell_at(self, ring: int, index: int) -> int:
        """The number of cell ``index`` (taken round the ring) of ring ``ring``."""
        return self.ring_starts[ring] + index % self.ring_sizes[ring]

    def _angles(self, ring: int, index: int) -> Tuple[float, float]:
        size = self.ring_sizes[ring]
        return 2 * math.pi * index / size, 2 * math.pi * (index + 1) / size

    def sides(self, cell: int) -> List[Side]:
        r, i = self.ring_of(cell)
        size = self.ring_sizes[r]
        c = self.extent()[0] / 2
        inner, outer = self.hole + r, self.hole + r + 1
        start, stop = self._angles(r, i)

        def arc(radius: float, a: float, b: float) -> List[Point]:
            return ring_points(c, c, radius, a, b, max(1, math.ceil(abs(b - a) * radius * 2)))

        sides: List[Side] = []
        if r:
            parent = self.ring_starts[r - 1] + i // (size // self.ring_sizes[r - 1])
            sides.append((parent, arc(inner, stop, start)))
        elif inner > 0:
            sides.append((-1, arc(inner, stop, start)))
        if size >= 2:
            before = self.cell_at(r, i - 1) if size >= 3 or i == 0 else -1
            after = self.cell_at(r, i + 1) if size >= 3 or i == 1 else -1
            sides.append((before, [ring_points(c, c, outer, start, start, 1)[0],
                                   ring_points(c, c, inner, start, start, 1)[0]]))
            sides.append((after, [ring_points(c, c, inner, stop, stop, 1)[0],
                                  ring_points(c, c, outer, stop, stop, 1)[0]]))
        if r + 1 < self.rings:
            ratio = self.ring_sizes[r + 1] // size
            for k in range(ratio):
                child = self.ring_starts[r + 1] + i * ratio + k
                a, b = self._angles(r + 1, i * ratio + k)
                sides.append((child, arc(outer, a, b)))
        else:
            sides.append((-1, arc(outer, start, stop)))
        return sides

    def openings(self) -> Tuple[Tuple[int, Optional[int]], Tuple[int, Optional[int]]]:
        """In through the outer wall at angle 0, to the middle (cell 0); with one ring, out
        through the outer wall opposite."""
        outer = self.ring_starts[-2]
        entrance = (outer, len(self.sides(outer)) - 1)
        if self.rings > 1:
            return entrance, (0, None)
        far = self.inner // 2
        return entrance, (far, len(self.sides(far)) - 1 if far != outer else None)

    def centre(self, cell: int) -> Point:
        r, i = self.ring_of(cell)
        c = self.extent()[0] / 2
        if r == 0 and self.ring_sizes[0] == 1 and self.hole == 0:
            return (c, c)
        start, stop = self._angles(r, i)
        middle, radius = (start + stop) / 2, self.hole + r + 0.5
        return (c + radius * math.cos(middle), c + radius * math.sin(middle))

    def extent(self) -> Point:
        side = 2 * (self.hole + self.rings)
        return (side, side)
