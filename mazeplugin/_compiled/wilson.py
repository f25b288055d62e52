"""Compiled :mod:`mazeplugin.generators.wilson` on any grid, square included: the same walks on the same draws.

The plain loop reads one random step per step of each loop-erased walk;
here the same raw words in the same order
(:func:`~mazeplugin._compiled.draws.feed`), turned into the same indices
``int(unit(word) * slots)``. On a square maze (:func:`walk_framed`) the maze
is framed by a ring of blocked cells, and a step into a wall stays put, as
the plain walk's slot holding the cell itself does. On any other grid
(:func:`walk`) the walks step as the Aldous–Broder kernel's do: on a hex or
triangle grid carrying the parity of the cell they stand on, the edges
grafted counted by :func:`~mazeplugin._compiled.lattice.edge_between` (no
edge arrays); elsewhere read from the cells' kinds
(:func:`~mazeplugin._compiled.grid.walk_steps`).
"""

from __future__ import annotations

from typing import Any, List

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .draws import feed
from .grid import framed, framed_id, framed_passages, framed_walls, i32, i64, open_between, u64, u8
from .lattice import edge_between, lattice_step, on_walks, parity_of, walk_table
from .rand import below, unit


@njit(types.boolean(u8, u8, i32, u64, i64, types.int64, u8, u8), cache=True, nogil=True)
def walk_framed(inside: Any, in_tree: Any, exit_of: Any, words: Any, state: Any, pitch: int, east: Any, south: Any) -> bool:
    """Walk from each cell not in the tree (row-major) and graft the loop-erased path.

    Resumable: returns False when ``words`` run out, with ``state`` =
    (next first cell, current cell of the walk or -1) to go on with new words.
    """
    step = np.array([-pitch, 1, pitch, -1], dtype=np.int64)
    first, cell = state[0], state[1]
    pos = 0
    end = inside.size - pitch
    while first < end:
        if cell < 0:
            if not inside[first] or in_tree[first]:
                first += 1
                continue
            cell = first
        while True:  # walk until the tree is hit; a step into a wall stays put
            if pos == words.size:
                state[0], state[1] = first, cell
                return False
            nxt = cell + step[below(words[pos], 4)]
            pos += 1
            if not inside[nxt]:
                nxt = cell
            exit_of[cell] = nxt
            cell = nxt
            if in_tree[cell]:
                break
        cell = first
        while not in_tree[cell]:  # graft the loop-erased path
            in_tree[cell] = 1
            nxt = exit_of[cell]
            open_between(east, south, cell, nxt)
            cell = nxt
        first += 1
        cell = -1
    state[0], state[1] = first, -1
    return True


@njit(on_walks(types.int64, u64, i64, u8, u8), cache=True, nogil=True, inline="always")
def walk_on(kind: Any, degrees: Any, steps: Any, stride: int, common: int, seen: int, inner: Any, flip: Any,
            degree: int, offsets: Any, edge_ids: Any, shape: int, width: int, height: int, words: Any, state: Any,
            exit_of: Any, opened: Any) -> int:
    """Walk from each cell outside the tree (in cell order) and graft the loop-erased path.

    ``exit_of[cell]`` is the neighbour (``r``-th) the walk last left ``cell``
    by, so loops erase themselves. A step is Aldous–Broder's
    (:func:`~mazeplugin._compiled.aldous_broder.walk_on`); ``kind[cell] >= seen``
    marks a cell in the tree. Resumable: returns the words read when they
    run out, with ``state`` = (the walk's first cell, its current cell or -1)
    to go on with; -1 when done.
    """
    cells = kind.size
    usual = np.float64(common)
    first, cell = state[0], state[1]
    t = 0
    while first < cells:
        if cell < 0:
            cell = first
        k = int(kind[cell])
        p = parity_of(shape, width, cell) if shape else 0
        while k < seen:  # walk until the tree is hit
            if t == words.size:
                state[0], state[1] = first, cell
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
            exit_of[cell] = r
            cell = nxt
            k = int(kind[cell])
        cell = first
        k = int(kind[cell])
        while k < seen:  # graft the loop-erased path
            r = int(exit_of[cell])
            nxt = cell + steps[k * stride + r]
            kind[cell] = k + seen
            opened[edge_between(shape, width, height, cell, nxt) if shape else edge_ids[offsets[cell] + r]] = 1
            cell = nxt
            k = int(kind[cell])
        first += 1
        cell = -1
    state[0], state[1] = first, -1
    return -1


@njit(on_walks(types.int64, u64, i64, u8, u8), cache=True, nogil=True)
def walk(kind: Any, degrees: Any, steps: Any, stride: int, common: int, seen: int, inner: Any, flip: Any,
         degree: int, offsets: Any, edge_ids: Any, shape: int, width: int, height: int, words: Any, state: Any,
         exit_of: Any, opened: Any) -> int:
    """:func:`walk_on` compiled twice: on a lattice and on the rows."""
    if shape:
        return walk_on(kind, degrees, steps, stride, common, seen, inner, flip, degree, offsets, edge_ids, shape,
                       width, height, words, state, exit_of, opened)
    return walk_on(kind, degrees, steps, stride, common, seen, inner, flip, degree, offsets, edge_ids, 0, width,
                   height, words, state, exit_of, opened)


def generate(grid: Grid, rng: Random, roots: List[int]) -> NDArray[np.bool_]:
    """Wilson's on ``grid`` with its walks compiled, each part's tree grown from its cell in ``roots``:
    one bool per edge, True where open."""
    maze = getattr(grid, "maze", None)
    if maze is not None:  # a square maze (generators.graph.MazeGrid): framed, four directions a step
        inside = framed(maze.mask, False)
        in_tree = framed(~maze.mask, True)
        in_tree[framed_id(maze, np.flatnonzero(maze.mask.ravel())[roots])] = 1  # (grid cells: the mask's, in order)
        exit_to = np.zeros(inside.size, dtype=np.int32)
        east, south = framed_passages(maze)
        state = np.array([maze.width + 2, -1], dtype=np.int64)
        words = np.empty(0, dtype=np.uint64)
        while not walk_framed(inside, in_tree, exit_to, words, state, maze.width + 2, east, south):
            words = rng.raw(min(1 << 16, 8 * maze.size + 64))
        return framed_walls(maze, east, south)
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    exit_of = np.zeros(grid.cells, dtype=np.uint8)
    state = np.array([0, -1], dtype=np.int64)
    near = walk_table(grid)
    near[0][roots] += near[5]  # the roots: in the tree

    def step(words: NDArray[np.uint64]) -> int:
        return walk(*near, words, state, exit_of, opened)

    feed(step, rng, 4 * grid.cells + 64)
    return opened.view(np.bool_)
