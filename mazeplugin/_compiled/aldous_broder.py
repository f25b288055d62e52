"""Compiled :mod:`mazeplugin.generators.aldous_broder` on any grid, square included: the same walk on the same draws.

The plain walk reads one random step per step, ``int(u * slots)`` choosing
the neighbour; here the same raw words in the same order
(:func:`~mazeplugin._compiled.draws.feed`), turned into the same indices
``int(unit(word) * slots)``. On a square maze (:func:`walk_framed`) the maze
is framed by a ring of cells counted as outside, and a step into a wall stays
put, as the plain walk's slot holding the cell itself does.

On any other grid (:func:`walk`) a step is
:func:`~mazeplugin._compiled.lattice.lattice_step` on a hex or triangle grid: an
inner cell's neighbour from the parity the walk carries along, no edge arrays
(the edge a step opens is counted by
:func:`~mazeplugin._compiled.lattice.edge_between`); elsewhere from the cells'
kinds (:func:`~mazeplugin._compiled.grid.walk_steps`).
"""

from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .draws import feed
from .grid import framed, framed_id, framed_passages, framed_walls, i64, open_between, u8, u64
from .lattice import edge_between, lattice_step, on_walks, parity_of, walk_table
from .rand import unit


# What a framed cell is to the walk: one byte, so each step reads one place.
_UNVISITED, _VISITED, _OUTSIDE = 0, 1, 2


@njit(types.void(u8, u64, i64, types.int64, u8, u8), cache=True, nogil=True)
def walk_framed(cells: Any, words: Any, state: Any, pitch: int, east: Any, south: Any) -> None:
    """Walk on ``words`` from ``state[0]`` until ``state[1]`` cells are left unvisited
    or the words run out (a step into a wall stays put); ``state`` is updated.

    ``cells`` holds ``_UNVISITED``, ``_VISITED`` or ``_OUTSIDE`` per framed cell.
    A step's direction is ``below(word, 4)``, which is the word's top two bits
    (``unit(word) * 4`` scales by a power of two: exact, then truncated).
    """
    step = np.array([-pitch, 1, pitch, -1], dtype=np.int64)
    cell, unvisited = state[0], state[1]
    for pos in range(words.size):
        nxt = cell + step[words[pos] >> np.uint64(62)]
        seen = cells[nxt]
        if seen == _UNVISITED:
            cells[nxt] = _VISITED
            open_between(east, south, cell, nxt)
            unvisited -= 1
            if not unvisited:
                cell = nxt
                break
        if seen != _OUTSIDE:
            cell = nxt
    state[0], state[1] = cell, unvisited


@njit(on_walks(types.int64, u64, i64, u8), cache=True, nogil=True, inline="always")
def walk_on(kind: Any, degrees: Any, steps: Any, stride: int, common: int, seen: int, inner: Any, flip: Any,
            degree: int, offsets: Any, edge_ids: Any, shape: int, width: int, height: int, words: Any, state: Any,
            opened: Any) -> int:
    """Walk from ``state[0]`` until ``state[1]`` cells are left unvisited (then -1) or the words
    run out (then the words read); ``state`` is updated for the next words.

    A step goes to the ``r``-th neighbour, ``r = int(unit(word) * degree)``: on a lattice
    :func:`~mazeplugin._compiled.lattice.lattice_step`, else read from the cell's kind, guessing it has
    ``common`` neighbours (checked, and redone when wrong); ``kind[cell] >= seen`` marks a visited cell.
    """
    cell, left = state[0], state[1]
    usual = np.float64(common)
    p = parity_of(shape, width, cell) if shape else 0
    k = int(kind[cell]) - seen  # the walk stands on visited cells only
    t = 0
    while left:
        if t == words.size:
            state[0], state[1] = cell, left
            return t
        u = unit(words[t])
        t += 1
        if shape:
            r, nxt, p = lattice_step(u, cell, k, p, degrees, steps, stride, inner, flip, degree, shape, width)
        else:
            r = int(u * usual)  # the guess: ``common`` neighbours
            nxt = cell + steps[k * stride + r]
            if degrees[k] != common:
                r = int(u * np.float64(degrees[k]))
                nxt = cell + steps[k * stride + r]
        b = int(kind[nxt])
        if b < seen:  # entered first: open the passage in
            kind[nxt] = b + seen
            opened[edge_between(shape, width, height, cell, nxt) if shape else edge_ids[offsets[cell] + r]] = 1
            left -= 1
            k = b
        else:
            k = b - seen
        cell = nxt
    state[0], state[1] = cell, 0
    return -1


@njit(on_walks(types.int64, u64, i64, u8), cache=True, nogil=True)
def walk(kind: Any, degrees: Any, steps: Any, stride: int, common: int, seen: int, inner: Any, flip: Any,
         degree: int, offsets: Any, edge_ids: Any, shape: int, width: int, height: int, words: Any, state: Any,
         opened: Any) -> int:
    """:func:`walk_on` compiled twice: on a lattice and on the rows."""
    if shape:
        return walk_on(kind, degrees, steps, stride, common, seen, inner, flip, degree, offsets, edge_ids, shape,
                       width, height, words, state, opened)
    return walk_on(kind, degrees, steps, stride, common, seen, inner, flip, degree, offsets, edge_ids, 0, width,
                   height, words, state, opened)


def generate(grid: Grid, rng: Random, walks: List[Tuple[int, int]]) -> NDArray[np.bool_]:
    """Aldous–Broder on ``grid`` with its walk compiled, one walk from each ``(root, cells)`` of ``walks``
    until it has entered that many cells: one bool per edge, True where open."""
    maze = getattr(grid, "maze", None)
    if maze is not None:  # a square maze (generators.graph.MazeGrid): framed, each walk on fresh batches
        cells = framed(~maze.mask, True) * np.uint8(_OUTSIDE)  # the ring and masked-out cells: outside
        east, south = framed_passages(maze)
        ids = np.flatnonzero(maze.mask.ravel())  # the maze cell of each grid cell
        state = np.zeros(2, dtype=np.int64)
        for root, size in walks:
            framed_root = int(framed_id(maze, int(ids[root])))
            cells[framed_root] = _VISITED
            state[0], state[1] = framed_root, size - 1
            while state[1]:
                walk_framed(cells, rng.raw(min(1 << 16, 8 * maze.size + 64)), state, maze.width + 2, east, south)
        return framed_walls(maze, east, south)
    start = walks[0][0]  # (every other grid is one part)
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    state = np.array([start, grid.cells - 1], dtype=np.int64)
    near = walk_table(grid)
    near[0][start] += near[5]  # the start cell: seen

    def step(words: NDArray[np.uint64]) -> int:
        return walk(*near, words, state, opened)

    feed(step, rng, 8 * grid.cells + 64)
    return opened.view(np.bool_)
