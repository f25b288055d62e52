"""Compiled :mod:`mazeplugin.generators.aldous_broder` on any grid, square included: the same walk on the same draws.

The plain walk reads one random step per step, ``int(u * slots)`` choosing
the neighbour; here the same raw words in the same order
(:func:`~mazeplugin._compiled.draws.feed`), turned into the same indices
``int(unit(word) * slots)``. On a square maze (:func:`walk_framed`) the maze
is framed by a ring of cells counted as outside, and a step into a wall stays
put, as the plain walk's slot holding the cell itself does.

On a hex or triangle grid (:func:`lattice_walk`) a step on an inner cell
takes its neighbour from the cell's parity, which the walk carries along
(each step flips it or not, by the neighbour chosen), instead of from the
kind byte of the cell it stands on: the next cell's address then waits on
no load, as on the square grid, and the byte read is only checked (visited?
on a border?). Border cells take their kind's steps. No edge arrays: the
edge a step opens is counted by :func:`~mazeplugin._compiled.lattice.edge_between`.
On any other grid (:func:`walk`) steps are read from the cells' kinds
(:func:`~mazeplugin._compiled.grid.walk_steps`).
"""

from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .draws import feed
from .grid import framed, framed_id, framed_passages, framed_walls, graph_arrays, i32, i64, open_between, u8, u64, walk_steps
from .lattice import BORDER, SEEN, edge_between, inner_steps, lattice_steps, parity_of
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


def _signature(kind: Any) -> Any:
    return types.int64(i32, i32, kind, u8, i32, types.int64, types.int64, types.int64, u64, i64, u8)


@njit([_signature(u8), _signature(i32)], cache=True, nogil=True)
def walk(offsets: Any, edge_ids: Any, kind: Any, degrees: Any, steps: Any, stride: int, common: int, seen: int,
         words: Any, state: Any, opened: Any) -> int:
    """Walk from ``state[0]`` until ``state[1]`` cells are left unvisited (then -1) or the words
    run out (then the words read); ``state`` is updated for the next words.

    A step goes to the ``r``-th neighbour, ``r = int(unit(word) * degree)``,
    read from the cell's kind (see :func:`~mazeplugin._compiled.grid.walk_steps`);
    ``kind[cell] >= seen`` marks a visited cell.
    """
    cell, left = state[0], state[1]
    usual = np.float64(common)
    k = int(kind[cell]) - seen  # the walk stands on visited cells only
    t = 0
    while left:
        if t == words.size:
            state[0], state[1] = cell, left
            return t
        u = unit(words[t])
        t += 1
        r = int(u * usual)  # the guess: ``common`` neighbours
        nxt = cell + steps[k * stride + r]
        if degrees[k] != common:
            r = int(u * np.float64(degrees[k]))
            nxt = cell + steps[k * stride + r]
        b = int(kind[nxt])
        if b < seen:  # entered first: open the passage in
            kind[nxt] = b + seen
            opened[edge_ids[offsets[cell] + r]] = 1
            left -= 1
            k = b
        else:
            k = b - seen
        cell = nxt
    state[0], state[1] = cell, 0
    return -1


@njit(types.int64(types.int64, types.int64, types.int64, u8, u8, i32, types.int64, i32, u8, types.int64, u64, i64,
                  u8), cache=True, nogil=True)
def lattice_walk(shape: int, width: int, height: int, kind: Any, degrees: Any, steps: Any, stride: int, inner: Any,
                 flip: Any, degree: int, words: Any, state: Any, opened: Any) -> int:
    """:func:`walk` on a hex or triangle lattice (see the module docstring): an inner cell of parity
    ``p`` steps to ``cell + inner[p * degree + r]``, a border cell as its kind says."""
    cell, left = state[0], state[1]
    p = parity_of(shape, width, cell)
    inner_degree = np.float64(degree)
    k = int(kind[cell]) - SEEN  # the walk stands on visited cells only
    t = 0
    while left:
        if t == words.size:
            state[0], state[1] = cell, left
            return t
        u = unit(words[t])
        t += 1
        if k & BORDER == 0:  # an inner cell: its steps from the parity carried along, not from memory
            r = int(u * inner_degree)
            nxt = cell + inner[p * degree + r]
            p ^= flip[r]
        else:
            r = int(u * np.float64(degrees[k]))
            nxt = cell + steps[k * stride + r]
            p = parity_of(shape, width, nxt)
        b = int(kind[nxt])
        if b < SEEN:  # entered first: open the passage in
            kind[nxt] = b + SEEN
            opened[edge_between(shape, width, height, cell, nxt)] = 1
            left -= 1
            k = b
        else:
            k = b - SEEN
        cell = nxt
    state[0], state[1] = cell, 0
    return -1


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
    if grid.lattice is not None:  # hex, triangle: arithmetic (mazeplugin/_compiled/lattice.py)
        shape, width, height = grid.lattice
        kind, degrees, steps, stride, _, _ = lattice_steps(shape, width, height)
        inner, flip, degree = inner_steps(shape, width)
        kind[start] += SEEN

        def lattice_step(words: NDArray[np.uint64]) -> int:
            return lattice_walk(shape, width, height, kind, degrees, steps, stride, inner, flip, degree, words, state,
                                opened)

        feed(lattice_step, rng, 8 * grid.cells + 64)
        return opened.view(np.bool_)
    offsets, neighbours, edge_ids = graph_arrays(grid)
    kind, degrees, steps, stride, common, seen = walk_steps(offsets, neighbours)
    kind[start] += seen

    def step(words: NDArray[np.uint64]) -> int:
        return walk(offsets, edge_ids, kind, degrees, steps, stride, common, seen, words, state, opened)

    feed(step, rng, 8 * grid.cells + 64)
    return opened.view(np.bool_)
