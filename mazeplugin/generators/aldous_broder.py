"""The Aldous–Broder algorithm, on any grid: a random walk that carves into every cell it first enters.

Walk from the entrance cell to a uniformly random neighbour, again and again;
whenever the walk enters a cell it has never visited, open the wall it came
through. Stop when every cell of the part has been visited (a square maze's
mask in parts: one walk per part, the entrance's first, each on fresh draws).
The passages are a *uniform* spanning tree: every perfect maze of the grid is
equally likely. Slow to finish (the walk keeps crossing visited ground), but
unbiased. Texture: about 29% dead ends, no bias, corridors of every length; a
perfect maze.

A step takes one of the cell's slots (:func:`~mazeplugin.generators.graph.walk_rows`):
on a square maze four, north, east, south, west, and a step into a wall stays
put; staying put never enters a new cell, so the cells entered, and the walls
entered through, are those of the simple random walk, and the tree is still
uniform. Where every cell has the same number of slots, the steps are drawn
as whole numbers in bulk. The compiled twin is ``mazeplugin/_compiled/aldous_broder.py``.

Sources: D. Aldous, "The random walk construction of uniform spanning trees
and uniform labelled trees" (1990); A. Broder, "Generating random spanning
trees" (1989); J. Buck, "Mazes for Programmers", ch. 4.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List

from .._compiled import kernel
from ..registry import GRIDS, register
from ..seeds import Random
from .graph import Opened, crossed, parts, walk_batch, walk_rows

if TYPE_CHECKING:  # pragma: no cover - a square level loads no grid module
    from ..grids import Grid


@register("aldous-broder", grids=GRIDS)
def aldous_broder(grid: Grid, rng: Random, start: int, goal: int) -> Opened:
    """Aldous–Broder: a random walk opens its way into each new cell. Uniform; about 29% dead ends. Perfect."""
    walks = parts(grid, start)
    fast = kernel("aldous-broder", grid.cells)
    if fast is not None:  # the same walks, compiled (mazeplugin/_compiled/aldous_broder.py)
        return fast.generate(grid, rng, walks)  # type: ignore[no-any-return]
    slots = walk_rows(grid)
    off, nbr, degree = slots.offsets, slots.neighbours, slots.degree
    batch = walk_batch(grid)
    visited, came_from = [False] * grid.cells, [-1] * grid.cells
    entered: List[int] = []
    for root, cells in walks:
        visited[root] = True
        cell, left = root, cells - 1
        while left:  # a fresh batch of steps at a time
            if degree:
                for pick in rng.integers(degree, batch).tolist():
                    nxt = nbr[degree * cell + pick]
                    if not visited[nxt]:
                        visited[nxt] = True
                        entered.append(nxt)
                        came_from[nxt] = cell
                        left -= 1
                        if not left:
                            break
                    cell = nxt
            else:
                for u in rng.random(batch).tolist():
                    nxt = nbr[off[cell] + int(u * (off[cell + 1] - off[cell]))]
                    if not visited[nxt]:
                        visited[nxt] = True
                        entered.append(nxt)
                        came_from[nxt] = cell
                        left -= 1
                        if not left:
                            break
                    cell = nxt
    return crossed(slots.rows, grid.edge_count, entered, came_from)
