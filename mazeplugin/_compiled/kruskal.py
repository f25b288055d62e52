"""Compiled :mod:`mazeplugin.generators.kruskal` on any grid, square included: the shuffle and the union-find pass.

The plain path shuffles the edges with ``rng.permutation`` (the stable order
of one raw word per edge) and joins them through ``DisjointSets.union_each``;
here the same words are sorted by :func:`~mazeplugin._compiled.sort.stable_argsort`
(the same permutation) and joined with Rem's union-find. Which edges join two
sets depends only on the edges and their order, so the passages are the same.

The cells of edge ``k`` come from the grid's ``edges``, or by arithmetic,
with no edge arrays to build or miss the cache on: on a hex or triangle
lattice (:func:`~mazeplugin._compiled.lattice.edge_cells`) and on a square
maze without a mask (:data:`WALLS`: ``Maze.walls()`` order, east walls row by
row, then south walls). :func:`generate_many` carves a batch of such square
mazes in one call (``pipeline_batch``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Tuple

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..seeds import Random
from .grid import i32, i64, u8
from .lattice import edge_cells
from .sort import stable_argsort
from .unionfind import rem_join, self_parents

if TYPE_CHECKING:  # pragma: no cover - a square level loads no grid module
    from ..grids import Grid

WALLS = -1
"""``shape`` of a square maze without a mask: edge ``k`` is wall ``k`` of ``Maze.walls()``."""


@njit(types.void(types.int64, i64, i64, i32, u8, types.int64, types.int64, types.int64), cache=True, nogil=True)
def join_in_order(cells: int, a: Any, b: Any, order: Any, opened: Any, shape: int, width: int, height: int) -> None:
    """Kruskal's pass: open edge ``order[i]`` when it joins two sets of ``cells``. Edge ``k`` joins
    ``a[k]`` and ``b[k]``, or, by ``shape``, the cells worked out from ``k`` (see the module docstring)."""
    parent = self_parents(cells)
    sets = cells
    east_walls = (width - 1) * height
    for i in range(order.size):
        if sets == 1:  # one tree: as union_each, stop
            break
        k = int(order[i])
        if shape == WALLS:
            x = k + k // (width - 1) if k < east_walls else k - east_walls
            y = x + 1 if k < east_walls else x + width
        elif shape:
            x, y = edge_cells(shape, width, height, k)
        else:
            x, y = int(a[k]), int(b[k])
        if rem_join(parent, x, y):
            sets -= 1
            opened[k] = 1


def join_edges(grid: "Grid", order: NDArray[np.int32], opened: NDArray[np.uint8]) -> None:
    """:func:`join_in_order` over ``grid``'s edges: by arithmetic where it can, else its ``edges``."""
    none = np.zeros(0, dtype=np.int64)
    if grid.lattice is not None:
        join_in_order(grid.cells, none, none, order, opened, *grid.lattice)
    elif getattr(grid, "walls", None) is not None:  # a square maze without a mask (generators.graph.MazeGrid)
        join_in_order(grid.cells, none, none, order, opened, WALLS, *grid.walls)  # type: ignore[attr-defined]
    else:
        edges = grid.edges
        join_in_order(grid.cells, np.ascontiguousarray(edges[:, 0]), np.ascontiguousarray(edges[:, 1]), order,
                      opened, 0, 0, 0)


def generate(grid: "Grid", rng: Random) -> NDArray[np.bool_]:
    """Kruskal's generator on ``grid`` with its shuffle and union-find compiled: one bool per edge."""
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    join_edges(grid, stable_argsort(rng.raw(grid.edge_count)), opened)  # rng.permutation(edges): the same order
    return opened.view(np.bool_)


@njit(types.void(types.uint64[:, ::1], types.int64, types.int64, types.uint8[:, ::1]), cache=True, nogil=True)
def carve_many(words: Any, width: int, height: int, opened: Any) -> None:
    """Kruskal's pass for a batch of square ``width`` × ``height`` mazes without a mask: maze ``i``
    shuffles its walls by ``words[i]`` and leaves them in ``opened[i]`` (``Maze.walls()`` order)."""
    none = np.empty(0, dtype=np.int64)
    for i in range(words.shape[0]):
        join_in_order(width * height, none, none, stable_argsort(words[i]), opened[i], WALLS, width, height)


def words_per_maze(width: int, height: int) -> int:
    """The raw words :func:`generate` draws for a square ``width`` × ``height`` maze: one per inner wall."""
    return (width - 1) * height + width * (height - 1)


def generate_many(words: NDArray[np.uint64], width: int, height: int,
                  start: Tuple[int, int]) -> Tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """The passages ``(east, south)``, each ``(mazes, height, width)``, that :func:`generate` opens in a
    square maze without a mask from each row of ``words`` (:func:`words_per_maze` words a row; ``start``
    plays no part)."""
    count, east_walls = words.shape[0], (width - 1) * height
    opened = np.zeros((count, words_per_maze(width, height)), dtype=np.uint8)
    carve_many(np.ascontiguousarray(words), width, height, opened)
    east = np.zeros((count, height, width), dtype=bool)
    south = np.zeros((count, height, width), dtype=bool)
    east[:, :, :-1] = opened[:, :east_walls].reshape(count, height, width - 1)
    south[:, :-1, :] = opened[:, east_walls:].reshape(count, height - 1, width)
    return east, south
