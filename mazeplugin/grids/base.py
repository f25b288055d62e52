"""A grid topology: cells ``0 … n-1``, the pairs of neighbouring cells, and the passages opened between them.

This is the maze model of :mod:`mazeplugin.maze` with the square taken out:
a :class:`Grid` owns its cells and their neighbours (J. Buck, "Mazes for
Programmers": ``hex_grid.rb``, ``triangle_grid.rb``, ``polar_grid.rb``), and a
:class:`GridMaze` is a grid plus the set of open passages — one bool per
neighbouring pair (*edge*). Generators ask a grid only for the neighbours of
a cell, so every neighbour-only generator runs on every grid.

Neighbours are kept flat, in compressed sparse rows: the neighbours of
``cell`` are ``neighbours[offsets[cell]:offsets[cell + 1]]`` (ascending), and
``edge_ids`` at the same positions name the edge each step crosses. Edges
are the rows of ``edges``, ``(a, b)`` with ``a < b``, sorted. A hex or
triangle grid builds these arrays when they are first read (:attr:`Grid.built`):
its neighbours follow from the cell numbers (:attr:`Grid.lattice`), and the
compiled generators count them by arithmetic instead
(``mazeplugin._compiled.lattice``), so a level made there reads them only
for the answers that need them (solution, tiles, pictures, formats).

The square grid keeps its own fast arrays (:class:`mazeplugin.maze.Maze`);
the grids here are hexagonal, triangular and polar.

>>> from mazeplugin.grids import HexGrid
>>> grid = HexGrid(3, 2)
>>> grid.cells, len(grid.edges), grid.neighbours_of(0).tolist()
(6, 9, [1, 3])
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from .._compiled import twin
from ..rows import NeighbourRows

__all__ = ["Grid", "RowGrid", "GridMaze", "Point", "Side", "Rows", "lattice_rows"]

_GRID_ROWS = twin("grid-rows")  # the compiled grid-rows kernel, or the plain code beside each use

Point = Tuple[float, float]
Rows = Tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]
"""A grid's compressed neighbour rows: ``(offsets, neighbours, edge_ids)``."""
Side = Tuple[int, List[Point]]
"""One side of a cell's outline: ``(neighbour across it or -1, polyline)``; a wall unless that passage is open."""


class Grid(NeighbourRows):
    """Cells numbered ``0 … cells-1`` and the edges between neighbours, with their geometry for drawing.

    Subclasses give the edges and the outline of each cell (:meth:`sides`)
    in drawing units (y down); everything else is computed here once.
    """

    cells: int

    name = "graph"

    lattice: "Tuple[int, int, int] | None" = None
    """``(shape, width, height)`` for a hex or triangle grid, whose neighbours follow from the cell
    numbers (``mazeplugin._compiled.lattice``; ``shape`` as :func:`lattice_rows` takes it); else None."""

    def __init__(self, cells: int, edges: "NDArray[np.int64] | None" = None, *, rows: "Rows | None" = None) -> None:
        """``edges`` as ``(a, b)`` rows in any order; or, with ``rows`` (a subclass that built them in
        one pass, :func:`lattice_rows`), int64 ``edges`` already sorted, each ``a < b``, and their
        ``(offsets, neighbours, edge_ids)``, taken as they are. Without ``edges`` (a subclass that
        builds them when first asked for, :meth:`_build`), nothing is built yet."""
        self.cells = int(cells)
        self._edges: "NDArray[np.int64] | None" = None
        self._rows: "Rows | None" = None
        if edges is not None:
            self._set(edges, rows)

    def _build(self) -> None:
        """Build the edges and rows of a grid made without them (a subclass calls :meth:`_set`)."""
        raise NotImplementedError(f"{type(self).__name__} was made without its edges")

    def _set(self, edges: NDArray[np.int64], rows: "Rows | None" = None) -> None:
        """Keep ``edges`` and their compressed rows (see :meth:`__init__`)."""
        if rows is not None:
            self._edges, self._rows = edges, rows
            return
        given = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        # Each pair smaller cell first (what a sort of each row gives, without sorting 2-element rows).
        pairs = np.stack([np.minimum(given[:, 0], given[:, 1]), np.maximum(given[:, 0], given[:, 1])], axis=1)
        n = max(self.cells, 1)
        key = pairs[:, 0] * n + pairs[:, 1]  # sorts as (a, b) would
        if key.size and not (key[1:] >= key[:-1]).all():
            pairs = pairs[np.argsort(key, kind="stable")]  # runs of sorted pairs: timsort is quick
        fast = _GRID_ROWS.pick(2 * len(pairs))
        if fast is not None:  # the same rows by a counting sort (mazeplugin/_compiled/gridrows.py)
            self._edges, self._rows = pairs, fast.compressed_rows(self.cells, pairs)
            return
        m = len(pairs)
        # Each edge seen from both ends, smaller neighbours first: a stable sort by the cell alone
        # then leaves every cell's neighbours ascending.
        source = np.concatenate([pairs[:, 1], pairs[:, 0]])
        target = np.concatenate([pairs[:, 0], pairs[:, 1]])
        order = np.argsort(source, kind="stable")
        offsets = np.zeros(self.cells + 1, dtype=np.int64)
        np.cumsum(np.bincount(source, minlength=self.cells), out=offsets[1:])
        self._edges, self._rows = pairs, (offsets, target[order], np.where(order >= m, order - m, order))

    def _arrays(self) -> "Tuple[NDArray[np.int64], Rows]":
        if self._edges is None or self._rows is None:
            self._build()
            assert self._edges is not None and self._rows is not None, f"{type(self).__name__}._build set nothing"
        return self._edges, self._rows

    @property
    def built(self) -> bool:
        """Whether the edges and neighbour rows exist yet (a hex or triangle grid builds them when first read)."""
        return self._edges is not None

    @property
    def edges(self) -> NDArray[np.int64]:
        """The edges (neighbouring pairs) as ``(a, b)`` rows, ``a < b``, sorted: edge ``k`` is row ``k``."""
        return self._arrays()[0]

    @property
    def offsets(self) -> NDArray[np.int64]:
        """Where each cell's row starts in :attr:`neighbours` and :attr:`edge_ids` (``cells + 1`` values)."""
        return self._arrays()[1][0]

    @property
    def neighbours(self) -> NDArray[np.int64]:
        """Every cell's neighbours, ascending, one row after another (see :attr:`offsets`)."""
        return self._arrays()[1][1]

    @property
    def edge_ids(self) -> NDArray[np.int64]:
        """The edge each entry of :attr:`neighbours` crosses."""
        return self._arrays()[1][2]

    @property
    def edge_count(self) -> int:
        """How many edges the grid has (a hex or triangle grid says without building them)."""
        return len(self.edges)

    def sides(self, cell: int) -> List[Side]:
        """The outline of ``cell``: each side with the neighbour across it (-1 on the grid's edge)."""
        raise NotImplementedError(f"{type(self).__name__} has no geometry")

    def centre(self, cell: int) -> Point:
        """The middle of ``cell`` in drawing units."""
        points = [p for _, line in self.sides(cell) for p in line]
        return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))

    def openings(self) -> Tuple[Tuple[int, Optional[int]], Tuple[int, Optional[int]]]:
        """Where the entrance and exit go: ``((cell, side), (cell, side))``, ``side`` an index into
        :meth:`sides` (the grid's edge opened for it) or None for a marker inside the cell."""
        return (0, None), (self.cells - 1, None)

    def extent(self) -> Point:
        """``(width, height)`` of the drawing, in drawing units, from ``(0, 0)``."""
        raise NotImplementedError(f"{type(self).__name__} has no geometry")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.cells} cells, {self.edge_count} edges)"


class RowGrid(Grid):
    """A grid of ``width × height`` cells numbered row by row (hex, triangle, square): cell ``(x, y)`` is
    ``y * width + x``. Made with a ``lattice`` shape (hex, triangle), its edges and rows are built when
    first read: a generator with a lattice kernel needs none of them (its neighbours and edge numbers
    are arithmetic, mazeplugin/_compiled/lattice.py)."""

    width: int
    height: int

    def __init__(self, width: int, height: int, lattice: int) -> None:
        self.width, self.height = int(width), int(height)
        self.lattice = (lattice, self.width, self.height)
        super().__init__(self.width * self.height)

    def _build(self) -> None:
        assert self.lattice is not None
        built = lattice_rows(*self.lattice)
        if built is not None:  # the same arrays in one compiled pass (mazeplugin/_compiled/gridrows.py)
            self._set(built[0], built[1])
        else:
            self._set(self._numpy_edges())

    def _numpy_edges(self) -> NDArray[np.int64]:
        """The ``(a, b)`` edges of a lattice grid, by numpy (when the compiled pass is off)."""
        raise NotImplementedError

    def cell_at(self, x: int, y: int) -> int:
        """The number of cell ``(x, y)``."""
        return y * self.width + x

    def xy(self, cell: int) -> Tuple[int, int]:
        """The ``(x, y)`` of cell number ``cell``."""
        return cell % self.width, cell // self.width


def lattice_rows(shape: int, width: int, height: int, wrap_x: bool = False,
                 wrap_y: bool = False) -> "Tuple[NDArray[np.int64], Rows] | None":
    """``(edges, (offsets, neighbours, edge_ids))`` of a ``width × height`` hex, triangle or
    (wrapping) square grid in one compiled pass, when the compiled path is on; else None (the
    grid classes then build them with numpy: the same arrays, ``tests/test_grids.py``).

    ``shape`` is ``mazeplugin._compiled.gridrows.SQUARE``, ``HEX`` or ``TRIANGLE`` (0, 1, 2).
    """
    fast = _GRID_ROWS.pick(4 * width * height)  # about 2 × edges, as Grid.__init__ asks
    if fast is None:
        return None
    edges, offsets, neighbours, edge_ids = fast.lattice_rows(shape, width, height, wrap_x, wrap_y)
    return edges, (offsets, neighbours, edge_ids)


class GridMaze:
    """A grid and its open passages: ``open[k]`` is True when edge ``k`` (``grid.edges[k]``) is a passage.

    >>> from mazeplugin.grids import TriangleGrid
    >>> maze = GridMaze(TriangleGrid(3, 1))
    >>> maze.link(0, 1); maze.passages().tolist(), maze.linked(1).tolist()
    ([[0, 1]], [0])
    """

    grid: Grid

    __slots__ = ("grid", "open")

    def __init__(self, grid: Grid, open: "NDArray[np.bool_] | None" = None) -> None:
        self.grid = grid
        edges = grid.edge_count  # (a hex or triangle grid's edges are not built for this)
        self.open: NDArray[np.bool_] = (np.zeros(edges, dtype=bool) if open is None
                                       else np.asarray(open, dtype=bool))
        if self.open.shape != (edges,):
            raise ValueError(f"open must hold one bool per edge ({edges}), got shape {self.open.shape}")

    def link(self, a: int, b: int) -> None:
        """Open the passage between neighbours ``a`` and ``b``."""
        self.open[self.grid.edge(a, b)] = True

    def passages(self) -> NDArray[np.int64]:
        """The open passages as ``(a, b)`` rows, ``a < b``."""
        return self.grid.edges[self.open]

    def degrees(self) -> NDArray[np.int64]:
        """Each cell's count of open passages."""
        return np.bincount(self.passages().ravel(), minlength=self.grid.cells).astype(np.int64)

    def linked(self, cell: int) -> NDArray[np.int64]:
        """The neighbours of ``cell`` reachable through an open passage."""
        start, stop = self.grid.offsets[cell], self.grid.offsets[cell + 1]
        return self.grid.neighbours[start:stop][self.open[self.grid.edge_ids[start:stop]]]

    def open_adjacency(self) -> Tuple[NDArray[np.int64], NDArray[np.int64]]:
        """``(offsets, neighbours)`` of the passages alone, in the grid's compressed-row form."""
        keep = self.open[self.grid.edge_ids]
        owner = np.repeat(np.arange(self.grid.cells), self.grid.degrees())
        counts = np.bincount(owner[keep], minlength=self.grid.cells)
        offsets = np.zeros(self.grid.cells + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        return offsets, self.grid.neighbours[keep]


def ring_points(cx: float, cy: float, radius: float, start: float, stop: float, steps: int) -> List[Point]:
    """Points along a circle's arc from angle ``start`` to ``stop`` (radians), ``steps`` pieces."""
    angles: Sequence[float] = np.linspace(start, stop, steps + 1).tolist()
    return [(cx + radius * float(np.cos(a)), cy + radius * float(np.sin(a))) for a in angles]
