"""Simplified Prim's algorithm, on any grid: grow the tree through a random frontier wall, all weights equal.

Keep a list of walls between the tree and cells outside it. Take a uniformly
random wall from the list (swap-remove: constant time); if the cell beyond is
still outside the tree, open the wall and add that cell's walls to the list,
in the grid's neighbour order (north, east, south, west on the square grid).
With no weights the tree spreads evenly from the start "like poured syrup",
unlike true Prim's (``prim``), whose random weights make it flow around
clumps. Texture: bushy, short corridors, about 32% dead ends and simple
solutions; a perfect maze. One tree grows from the entrance cell, then one
from the first cell outside it, and so on, for a mask in parts. Each wall
taken reads one float. The compiled twin is
``mazeplugin/_compiled/prim_simplified.py``.

Sources: W. D. Pullen, "Think Labyrinth: Maze Algorithms" ("Prim's algorithm
(simplified)"); J. Buck, "Mazes for Programmers", ch. 11 ("Simplified Prim's").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List

from .._compiled import kernel
from ..registry import GRIDS, register
from ..seeds import Random
from .graph import Opened, flat, uniforms

if TYPE_CHECKING:  # pragma: no cover - a square level loads no grid module
    from ..grids import Grid


@register("prim-simplified", grids=GRIDS)
def prim_simplified(grid: Grid, rng: Random, start: int, goal: int) -> Opened:
    """Simplified Prim's: open a random frontier wall, unweighted. Bushy, about 32% dead ends. Perfect."""
    fast = kernel("prim-simplified", grid.cells)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/prim_simplified.py)
        return fast.generate(grid, rng, start)  # type: ignore[no-any-return]
    off, nbr, eid = flat(grid)
    draws = uniforms(rng, 2 * grid.cells + 64)
    in_tree, opened = [False] * grid.cells, [False] * grid.edge_count
    for root in [start, *range(grid.cells)]:  # one tree per part
        if in_tree[root]:
            continue
        in_tree[root] = True
        frontier: List[int] = list(range(off[root], off[root + 1]))  # a wall: the slot of its far cell
        while frontier:
            i = int(next(draws) * len(frontier))
            k = frontier[i]
            frontier[i] = frontier[-1]  # swap-remove: constant time
            frontier.pop()
            cell = nbr[k]
            if in_tree[cell]:
                continue
            in_tree[cell] = opened[eid[k]] = True
            for j in range(off[cell], off[cell + 1]):
                if not in_tree[nbr[j]]:
                    frontier.append(j)
    return opened
