"""The neighbour interface the generators are written against.

A generator over the neighbour interface asks a grid only for the
neighbours of a cell, in J. Buck's way: a grid owns its cells and
neighbours, an algorithm decides which passages to open, and returns one
bool per edge of the grid (:data:`Opened`). Random numbers come only from the
:class:`~mazeplugin.seeds.Random` given, as floats in ``[0, 1)`` read in
order (:func:`uniforms`), so the same grid, seed and options give the same
maze on every machine; an index below ``k`` is ``int(u * k)``. Neighbours are
read from the grid's flat arrays (``offsets``, ``neighbours``, ``edge_ids``)
turned into lists once (:func:`flat`, :func:`walk_rows`), so the loops are
tight Python.

A square :class:`~mazeplugin.maze.Maze` is seen through this interface as a
:class:`MazeGrid` (:func:`maze_grid`); a neighbour-only loop steps by its
four slots a cell (:func:`walk_rows`: a wall is a slot holding the cell
itself, so a random walk stepping into it stays put, as the square walks
always did), remembers cells, and finds the edges it crossed in bulk
(:func:`crossed`); :func:`parts` gives a mask's parts, one tree each.
``kruskal``, ``prim``, ``prim-simplified``, ``union-find``, ``wilson``,
``aldous-broder``, ``hunt-and-kill`` and ``growing-tree`` are written this
way once, in their own modules; ``backtracker`` keeps a square loop of its
own beside its function over this interface (``generators.backtracker.on_grid``).

>>> from mazeplugin.grids import HexGrid
>>> grid = HexGrid(4, 3)
>>> walk_rows(grid).around[0] == tuple(grid.neighbours_of(0).tolist())  # each cell's neighbours, in order
True
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, Iterator, List, Optional, Tuple, Union

import numpy as np
from numpy.typing import NDArray

from ..maze import Maze, mask_parts
from ..seeds import Random
from ..rows import NeighbourRows

if TYPE_CHECKING:  # pragma: no cover - the grids load with the first grid (a square level needs none)
    from ..grids import Grid

__all__ = ["uniforms", "flat", "Slots", "walk_rows", "crossed", "walk_batch", "parts", "maze_grid", "MazeGrid", "Opened"]

BATCH = 1 << 14  # floats per draw; the numbers read are the same for any batch size

Lists = Tuple[List[int], List[int], List[int]]
Rows = Tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]
Opened = Union[List[bool], NDArray[np.bool_]]
"""What a grid generator returns: one bool per edge of the grid, True where a passage opens."""


def uniforms(rng: Random, first: int = BATCH) -> Iterator[float]:
    """Floats uniform in ``[0, 1)`` from ``rng``, in order: ``first`` at a time, doubling up to ``BATCH``.

    The floats read are the same for any batch sizes (they are ``rng``'s
    stream in order); small first batches keep tiny mazes cheap.
    """
    batch = max(1, min(first, BATCH))
    while True:
        yield from rng.random(batch).tolist()
        batch = min(2 * batch, BATCH)


def flat(grid: Grid) -> Lists:
    """``(offsets, neighbours, edge_ids)`` of ``grid`` as lists, for tight loops."""
    return grid.offsets.tolist(), grid.neighbours.tolist(), grid.edge_ids.tolist()


class Slots:
    """The slots a neighbour-only loop steps by (:func:`walk_rows`): cell ``c``'s are
    ``offsets[c] … offsets[c + 1] - 1``, ``neighbours[k]`` the cell in slot ``k``."""

    def __init__(self, offsets: NDArray[np.int64], neighbours: NDArray[np.int64], edge_ids: NDArray[np.int64]):
        self.rows: Rows = (offsets, neighbours, edge_ids)
        """The same as arrays, edges included, for :func:`crossed`."""
        self.offsets: List[int] = offsets.tolist()
        self.neighbours: List[int] = neighbours.tolist()
        degrees = np.diff(offsets)
        self.degree = int(degrees[0]) if degrees.size and degrees.min() == degrees.max() else 0
        """How many slots every cell has, or 0 when cells differ (a walk then draws floats, not whole steps)."""

    @cached_property
    def around(self) -> List[Tuple[int, ...]]:
        """Each cell's slots' cells as a tuple: one lookup a cell for a loop that scans them all."""
        off, nbr, d = self.offsets, self.neighbours, self.degree
        if d:
            return list(zip(*[iter(nbr)] * d))
        return [tuple(nbr[off[c]:off[c + 1]]) for c in range(len(off) - 1)]


CACHED_CELLS = 1 << 18
"""A full square maze this big or smaller keeps its :class:`Slots` for the next maze of its size."""


def walk_rows(grid: "Grid | MazeGrid") -> Slots:
    """The slots a neighbour-only loop over ``grid`` steps by: a square maze's four a cell
    (:attr:`MazeGrid.slots`: a wall is a slot holding the cell itself), any other grid's own rows.
    A full square maze's are built once per size (the last few sizes are kept)."""
    if isinstance(grid, MazeGrid):
        if grid.walls is not None and grid.cells <= CACHED_CELLS:
            return _square_slots(*grid.walls)
        return _maze_slots(grid)
    return Slots(grid.offsets, grid.neighbours, grid.edge_ids)


def _maze_slots(grid: "MazeGrid") -> Slots:
    return Slots(np.arange(0, 4 * grid.cells + 1, 4), *grid.slots)


@lru_cache(maxsize=4)
def _square_slots(width: int, height: int) -> Slots:
    return _maze_slots(MazeGrid(Maze(width, height)))


def crossed(rows: Rows, edge_count: int, cells: List[int], exit_to: List[int]) -> NDArray[np.bool_]:
    """One bool per edge, True where a walk left one of ``cells`` for its neighbour ``exit_to[cell]``, over
    the slots ``rows`` (no cell has a neighbour twice), found in bulk: a walk remembers cells, not slots."""
    offsets, neighbours, edge_ids = rows
    source = np.asarray(cells, dtype=np.int64)
    target = np.asarray(exit_to, dtype=np.int64)[source]
    start = offsets[source]
    degree = offsets[source + 1] - start
    edge = np.zeros(len(source), dtype=np.int64)
    for j in range(int(degree.max(initial=0))):
        slot = np.minimum(start + j, len(neighbours) - 1)
        hit = (j < degree) & (neighbours[slot] == target)
        edge[hit] = edge_ids[slot[hit]]
    opened = np.zeros(edge_count, dtype=bool)
    opened[edge] = True
    return opened


def walk_batch(grid: "Grid | MazeGrid") -> int:
    """How many random steps a walk over ``grid`` draws at a time (a square maze: as many as its
    walks always drew, eight a cell of its whole rectangle)."""
    return min(1 << 16, 8 * (grid.maze.size if isinstance(grid, MazeGrid) else grid.cells) + 64)


def parts(grid: "Grid | MazeGrid", start: int) -> List[Tuple[int, int]]:
    """``(root, cells)`` of each part of ``grid`` for a generator that grows one tree a part: the part of
    ``start`` first, from ``start``, then the others in order of their first cell, each from that cell
    (``Maze.roots()``). Only a square maze's mask falls apart in parts; every other grid is one."""
    if not isinstance(grid, MazeGrid) or grid.connected:
        return [(start, grid.cells)]
    labels = mask_parts(grid.maze.mask)[0].ravel()[grid.ids]
    sizes = np.bincount(labels).tolist()
    firsts = np.unique(labels, return_index=True)[1].tolist()  # (parts are numbered by their first cell)
    own = int(labels[start])
    return [(start, sizes[own])] + [(firsts[p], sizes[p]) for p in range(len(sizes)) if p != own]


def maze_grid(maze: Maze) -> "MazeGrid":
    """The grid of a square ``maze`` (see :class:`MazeGrid`)."""
    return MazeGrid(maze)


class MazeGrid(NeighbourRows):
    """A square :class:`~mazeplugin.maze.Maze` seen through the neighbour interface of a
    :class:`~mazeplugin.grids.Grid`: the cells of its mask, numbered in row-major order, each cell's
    neighbours north, east, south, west, and its edges the maze's inner walls in :meth:`Maze.walls`
    order (east walls row by row, then south walls). It has a grid's arrays (built when first read)
    and neighbour questions, not its drawing (a plain square level draws from its tiles), so a square
    level loads no grid module. ``walls`` is ``(width, height)`` when the mask is full (edge ``k``
    is then wall ``k``, worked out by arithmetic in the kernels), else None.

    >>> grid = maze_grid(Maze(3, 2))
    >>> grid.cells, grid.edge_count, grid.neighbours_of(4).tolist()  # north, east, west of the middle
    (6, 7, [1, 5, 3])
    """

    name = "square"
    wrap = None
    lattice = None

    def __init__(self, maze: Maze) -> None:
        self.maze = maze
        w, h = maze.width, maze.height
        self.walls: Optional[Tuple[int, int]] = (w, h) if maze.mask.all() else None
        self.connected = self.walls is not None  # (a mask may fall apart in parts)
        if self.walls is not None:
            self.cells, self.edge_count = w * h, (w - 1) * h + w * (h - 1)
        else:
            self.cells, self.edge_count = int(maze.mask.sum()), len(self.walls_between[0])

    @cached_property
    def walls_between(self) -> Tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The maze cells ``(a, b)`` on the two sides of each edge (:meth:`Maze.walls`)."""
        return self.maze.walls()

    @cached_property
    def ids(self) -> NDArray[np.int64]:
        """The maze cell of each grid cell."""
        return np.flatnonzero(self.maze.mask.ravel())

    @cached_property
    def number(self) -> NDArray[np.int64]:
        """The grid cell of each maze cell, -1 outside the mask."""
        inside = self.maze.mask.ravel()
        return np.where(inside, np.cumsum(inside) - 1, -1)

    @cached_property
    def edges(self) -> NDArray[np.int64]:
        """The edges as ``(a, b)`` rows (grid cells), in ``Maze.walls()`` order."""
        a, b = self.walls_between
        return np.stack([a, b], axis=1) if self.walls is not None else np.stack([self.number[a], self.number[b]], axis=1)

    @cached_property
    def _sides(self) -> Tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Each cell's neighbours north, east, south, west (maze cells, -1 where none) and the edges to them."""
        w = self.maze.width
        if self.walls is not None:  # by arithmetic: east walls row by row, then south walls
            table = self.maze.neighbour_table()
            cell = np.arange(self.cells, dtype=np.int64)
            east, south = cell - cell // w, cell + (w - 1) * self.maze.height
            wall = np.stack([south - w, east, south, east - 1], axis=1)
            wall[table < 0] = -1
            return table, wall
        a, b = self.walls_between
        table = self.maze.neighbour_table()[self.ids]
        wall = np.full((self.maze.size, 4), -1, dtype=np.int64)  # the wall (edge) on each side of each maze cell
        east = np.flatnonzero(b - a == 1) if w > 1 else np.zeros(0, dtype=np.int64)
        south = np.flatnonzero(b - a == w)
        wall[a[east], 1], wall[b[east], 3] = east, east
        wall[a[south], 2], wall[b[south], 0] = south, south
        return table, wall[self.ids]

    @cached_property
    def _rows(self) -> Tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        table, wall = self._sides
        keep = table >= 0
        offsets = np.zeros(self.cells + 1, dtype=np.int64)
        np.cumsum(keep.sum(axis=1), out=offsets[1:])
        return offsets, self.number[table[keep]], wall[keep]

    @cached_property
    def slots(self) -> Tuple[NDArray[np.int64], NDArray[np.int64]]:
        """``(neighbours, edge_ids)``, four slots a cell (north, east, south, west) for a random walk:
        the neighbour there, or the cell itself where a wall of the maze or its mask stands (edge -1), so
        a step into a wall stays put. Loop erasure (Wilson's) and "first entered" (Aldous–Broder) skip
        those steps: the tree is still that of the simple random walk, as on every other grid."""
        table, wall = self._sides
        itself = np.arange(self.cells, dtype=np.int64)[:, None]
        cells = table if self.walls is not None else self.number[table]
        return np.where(table >= 0, cells, itself).ravel(), wall.ravel()

    @property
    def offsets(self) -> NDArray[np.int64]:
        """Where each cell's row starts in :attr:`neighbours` and :attr:`edge_ids` (``cells + 1`` values)."""
        return self._rows[0]

    @property
    def neighbours(self) -> NDArray[np.int64]:
        """Every cell's neighbours, north, east, south, west, one row after another."""
        return self._rows[1]

    @property
    def edge_ids(self) -> NDArray[np.int64]:
        """The edge each entry of :attr:`neighbours` crosses."""
        return self._rows[2]

    def cell_of(self, x: int, y: int) -> int:
        """The grid cell of maze cell ``(x, y)``; the first cell when that one is outside the mask."""
        return y * self.maze.width + x if self.walls is not None else max(int(self.number[y * self.maze.width + x]), 0)

    def open_on(self, maze: Maze, opened: NDArray[np.bool_]) -> None:
        """Open the passages ``opened`` (one bool per edge) in ``maze``."""
        if self.walls is not None:
            w, h = self.walls
            maze.east[:, :-1] |= opened[:(w - 1) * h].reshape(h, w - 1)
            maze.south[:-1, :] |= opened[(w - 1) * h:].reshape(h - 1, w)
            return
        a, b = self.walls_between
        maze.open_many(a[opened], b[opened])
