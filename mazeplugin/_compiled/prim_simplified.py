"""Compiled :mod:`mazeplugin.generators.prim_simplified` on any grid, square included: the same frontier, the same draws.

The plain loop reads one float per frontier wall it takes out (swap with the
last, pop); here the same raw words in the same order, the frontier an array
kept in the plain list's order. On a square maze (:func:`grow_framed`) the
maze is framed by a ring of cells counted as in the tree, so a cell's
neighbours are ``cell - pitch, + 1, + pitch, - 1`` with no bounds checks; on
any other grid (:func:`grow`) a frontier wall is a slot of the grid's
neighbour rows, or on a hex or triangle lattice a cell and which of its
neighbours, read from the cell's kind, the edges counted from their number
(:func:`~mazeplugin._compiled.lattice.neighbour_rows`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray
from .jit import njit, types

from ..seeds import Random
from .draws import feed
from .grid import framed, framed_passages, framed_walls, grid_roots, i32, i64, open_between, u64, u8
from .lattice import edge_at, neighbour_at, neighbour_rows, on_rows, row_of
from .rand import below

if TYPE_CHECKING:  # pragma: no cover - a square level loads no grid module
    from ..grids import Grid


@njit([types.int64(i64, types.int64, types.uint64), types.int64(i32, types.int64, types.uint64)], cache=True,
      nogil=True, inline="always")
def take(frontier: Any, size: int, word: int) -> int:
    """The frontier step every lane shares: a random one of the ``size`` walls in ``frontier``, taken out as
    the plain list does (swapped with the last, which the caller then drops by counting ``size`` down)."""
    i = below(word, size)
    wall = frontier[i]
    frontier[i] = frontier[size - 1]
    return int(wall)


@njit(types.void(u8, i64, u64, types.int64, u8, u8), cache=True, nogil=True)
def grow_framed(in_tree: Any, roots: Any, words: Any, pitch: int, east: Any, south: Any) -> None:
    """Grow through random frontier walls (swap-remove), one tree per unvisited root.

    A wall is coded ``4 * outside_cell + k``: the outside cell's neighbour in
    direction ``k`` (north, east, south, west) is the tree cell beside it,
    pushed in the plain loop's order.
    """
    step = np.array([-pitch, 1, pitch, -1], dtype=np.int64)
    frontier = np.empty(words.size + 4, dtype=np.int64)
    taken = 0
    for r in range(roots.size):
        root = roots[r]
        if in_tree[root]:
            continue
        in_tree[root] = 1
        size = 0
        for k in range(4):
            far = root + step[k]
            if not in_tree[far]:
                frontier[size] = 4 * far + (k + 2) % 4
                size += 1
        while size:
            wall = take(frontier, size, words[taken])
            taken += 1
            size -= 1
            nxt = wall >> 2
            if in_tree[nxt]:
                continue
            in_tree[nxt] = 1
            open_between(east, south, nxt + step[wall & 3], nxt)
            for k in range(4):
                far = nxt + step[k]
                if not in_tree[far]:
                    frontier[size] = 4 * far + (k + 2) % 4
                    size += 1


@njit(on_rows(types.int64, types.int64, u64, i64, i32, u8, u8), cache=True, nogil=True, inline="always")
def grow_on(kind: Any, degrees: Any, steps: Any, stride: int, offsets: Any, neighbours: Any, edge_ids: Any, shape: int,
         width: int, height: int, bits: int, words: Any, state: Any, frontier: Any, in_tree: Any,
         opened: Any) -> int:
    """Take random frontier edges until there are none (then -1) or the words run out (then the
    words read); ``state[0]`` is the frontier's length. A frontier edge is the slot of its far end
    in the grid's rows, or on a lattice ``cell << bits | r``, the ``r``-th neighbour of ``cell`` (the
    grid's neighbours as :func:`~mazeplugin._compiled.lattice.neighbour_rows` gives them): the plain
    list's slots in the same order."""
    size = state[0]
    mask = (1 << bits) - 1
    t = 0
    while size:
        if t == words.size:
            state[0] = size
            return t
        slot = take(frontier, size, words[t])
        t += 1
        size -= 1
        source, j = -1, slot
        if shape:
            source = slot >> bits
            j = row_of(kind, degrees, stride, offsets, shape, source)[0] + (slot & mask)
        cell = neighbour_at(steps, neighbours, shape, source, j)
        if not in_tree[cell]:
            in_tree[cell] = 1
            opened[edge_at(edge_ids, shape, width, height, source, j, cell)] = 1
            first, degree = row_of(kind, degrees, stride, offsets, shape, cell)
            for j in range(first, first + degree):
                if not in_tree[neighbour_at(steps, neighbours, shape, cell, j)]:
                    frontier[size] = cell << bits | (j - first) if shape else j
                    size += 1
    state[0] = 0
    return -1


@njit(on_rows(types.int64, types.int64, u64, i64, i32, u8, u8), cache=True, nogil=True)
def grow(kind: Any, degrees: Any, steps: Any, stride: int, offsets: Any, neighbours: Any, edge_ids: Any, shape: int,
         width: int, height: int, bits: int, words: Any, state: Any, frontier: Any, in_tree: Any,
         opened: Any) -> int:
    """:func:`grow_on` compiled twice: on a lattice and on the rows."""
    if shape:
        return grow_on(kind, degrees, steps, stride, offsets, neighbours, edge_ids, shape, width, height, bits, words,
                       state, frontier, in_tree, opened)
    return grow_on(kind, degrees, steps, stride, offsets, neighbours, edge_ids, 0, width, height, bits, words,
                   state, frontier, in_tree, opened)


def generate(grid: "Grid", rng: Random, start: int) -> NDArray[np.bool_]:
    """Simplified Prim's on ``grid`` with its loop compiled: one bool per edge, True where open."""
    maze = getattr(grid, "maze", None)
    if maze is not None:  # a square maze (generators.graph.MazeGrid): framed, one tree per part of its mask
        words = rng.raw(2 * maze.size)  # the plain loop reads at most one float per wall slot
        in_tree = framed(~maze.mask, True)
        east, south = framed_passages(maze)
        grow_framed(in_tree, grid_roots(grid, start), words, maze.width + 2, east, south)
        return framed_walls(maze, east, south)
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    in_tree = np.zeros(grid.cells, dtype=np.uint8)
    in_tree[start] = 1
    # (A lattice's frontier edge, its cell and which of the cell's at most 6 neighbours, takes 3 bits more than
    # the cell: an int32 below 2**28 cells. Beyond, the grid's rows.)
    near = neighbour_rows(grid, arithmetic=grid.cells < 1 << 28)
    kind, degrees, _, stride, offsets = near[:5]
    bits = max(stride - 1, 1).bit_length() if near[7] else 0
    # Each edge is pushed at most once from each end (when the cell it leaves joins the tree): room for all.
    frontier = np.empty(2 * grid.edge_count, dtype=np.int32)
    if near[7]:  # a lattice: (start, r) for each of its neighbours r
        degree = int(degrees[kind[start]])
        frontier[:degree] = (start << bits) + np.arange(degree)
    else:  # the slots of its row
        degree = int(offsets[start + 1] - offsets[start])
        frontier[:degree] = np.arange(offsets[start], offsets[start + 1])
    state = np.array([degree], dtype=np.int64)

    def step(words: NDArray[np.uint64]) -> int:
        return grow(*near, bits, words, state, frontier, in_tree, opened)

    feed(step, rng, 2 * grid.cells + 64)
    return opened.view(np.bool_)
