"""Compiled :mod:`mazeplugin.generators.union_find` on any grid, square included: the same tries, the same draws.

The plain loop reads two floats per try (a cell, then one of its
neighbours) until the entrance and exit cells are joined; here the same raw
words in the same order (:func:`~mazeplugin._compiled.draws.feed`), and Rem's
union-find: whether a try joins two sets depends only on the tries before
it, not on how the forest is kept, so the passages are the same. A cell's
neighbours and the edges to them come from the grid's rows (:func:`join`), or
by arithmetic with no rows to build: on a square maze without a mask
(north, east, south, west; walls in ``Maze.walls()`` order) and on a hex or
triangle lattice (:func:`lattice_join`, :mod:`mazeplugin._compiled.lattice`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..seeds import Random
from .draws import feed
from .grid import graph_arrays, i32, u64, u8
from .lattice import edge_between, lattice_steps
from .rand import below
from .unionfind import rem_connected, rem_join

if TYPE_CHECKING:  # pragma: no cover - a square level loads no grid module
    from ..grids import Grid


@njit(types.int64(i32, i32, i32, u64, i32, types.int64, types.int64, u8, types.int64, types.int64), cache=True,
      nogil=True)
def join(offsets: Any, neighbours: Any, edge_ids: Any, words: Any, parent: Any, start: int, goal: int,
         opened: Any, width: int, height: int) -> int:
    """Join random cells to random neighbours until ``start`` and ``goal`` are one set (then -1)
    or fewer than two words are left (then the words read). With ``width`` > 0 the grid is a
    ``width × height`` square maze without a mask, worked out by arithmetic (the rows are not read)."""
    cells = parent.size
    east_walls = (width - 1) * height
    ends = np.empty(4, dtype=np.int64)  # a square cell's neighbours, north, east, south, west ...
    walls = np.empty(4, dtype=np.int64)  # ... and the walls to them
    if rem_connected(parent, start, goal):
        return -1
    t = 0
    while words.size - t >= 2:
        cell = below(words[t], cells)
        if width:
            y = cell // width
            x = cell - y * width
            degree = 0
            if y > 0:
                ends[degree], walls[degree] = cell - width, east_walls + cell - width
                degree += 1
            if x < width - 1:
                ends[degree], walls[degree] = cell + 1, cell - y
                degree += 1
            if y < height - 1:
                ends[degree], walls[degree] = cell + width, east_walls + cell
                degree += 1
            if x > 0:
                ends[degree], walls[degree] = cell - 1, cell - y - 1
                degree += 1
        else:
            degree = offsets[cell + 1] - offsets[cell]
        t += 2
        if degree == 0:  # alone in a mask: both words read, nothing to join
            continue
        r = below(words[t - 1], degree)
        other, edge = (ends[r], walls[r]) if width else (neighbours[offsets[cell] + r], edge_ids[offsets[cell] + r])
        # Only a join can connect the two: ask then, not after every try (the plain loop's answer).
        if rem_join(parent, cell, other):
            opened[edge] = 1
            if rem_connected(parent, start, goal):
                return -1
    return t


@njit(types.int64(u8, u8, i32, types.int64, types.int64, types.int64, types.int64, u64, i32, types.int64,
                  types.int64, u8), cache=True, nogil=True)
def lattice_join(kind: Any, degrees: Any, steps: Any, stride: int, shape: int, width: int, height: int, words: Any,
                 parent: Any, start: int, goal: int, opened: Any) -> int:
    """:func:`join` on a hex or triangle lattice: the ``r``-th neighbour of ``cell`` is
    ``cell + steps[kind[cell] * stride + r]``, the edge to it counted by ``edge_between``."""
    cells = kind.size
    if rem_connected(parent, start, goal):
        return -1
    t = 0
    while words.size - t >= 2:
        cell = below(words[t], cells)
        k = np.int64(kind[cell])  # (not a uint8: k * stride must not wrap)
        r = below(words[t + 1], degrees[k])
        t += 2
        other = cell + steps[k * stride + r]
        if rem_join(parent, cell, other):  # (only a join can connect the two, as in join)
            opened[edge_between(shape, width, height, cell, other)] = 1
            if rem_connected(parent, start, goal):
                return -1
    return t


def generate(grid: "Grid", rng: Random, start: int, goal: int) -> NDArray[np.bool_]:
    """The union-find web on ``grid`` with its loop compiled: one bool per edge, True where open."""
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    parent = np.arange(grid.cells, dtype=np.int32)  # Rem's forest: each cell its own parent
    first = 4 * grid.cells + 64
    if grid.lattice is not None:  # hex, triangle: arithmetic (mazeplugin/_compiled/lattice.py)
        shape, width, height = grid.lattice
        kind, degrees, steps, stride, _, _ = lattice_steps(shape, width, height)
        feed(lambda words: int(lattice_join(kind, degrees, steps, stride, shape, width, height, words, parent,
                                            start, goal, opened)), rng, first)
    elif getattr(grid, "walls", None) is not None:  # a square maze without a mask (generators.graph.MazeGrid)
        none = np.zeros(0, dtype=np.int32)
        w, h = grid.walls  # type: ignore[attr-defined]
        feed(lambda words: int(join(none, none, none, words, parent, start, goal, opened, w, h)), rng, first)
    else:
        offsets, neighbours, edge_ids = graph_arrays(grid)
        feed(lambda words: int(join(offsets, neighbours, edge_ids, words, parent, start, goal, opened, 0, 0)), rng,
             first)
    return opened.view(np.bool_)
