"""Wilson's algorithm, on any grid: loop-erased random walks, each grafted onto the growing tree.

The tree starts as one cell (the one nearest the middle of the grid; on a
square maze, of each part of its mask). From each cell not yet in the tree,
in order, walk at random until the walk hits the tree, remembering only the
last exit taken from each cell (which erases every loop the walk made); then
retrace the remembered exits from the walk's first cell and add that
loop-free path to the tree. The result is a *uniform* spanning tree, like
Aldous–Broder's, but found much faster once the tree is large. Texture:
about 29% dead ends, no bias; a perfect maze.

A step takes one of the cell's slots (:func:`~mazeplugin.generators.graph.walk_rows`):
on a square maze four, north, east, south, west, and a step into a wall stays
put; loop erasure removes those empty steps, so the grafted paths are the
loop-erased paths of the simple random walk and the tree is still uniform.
Where every cell has the same number of slots, the steps are drawn as whole
numbers in bulk (``rng.integers``: the same numbers as ``int(u * slots)``).
The compiled twin is ``mazeplugin/_compiled/wilson.py``.

Sources: D. B. Wilson, "Generating random spanning trees more quickly than
the cover time" (STOC 1996); J. Buck, "Mazes for Programmers", ch. 4.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, List

import numpy as np
from numpy.typing import NDArray

from .._compiled import kernel
from ..maze import Maze, mask_parts
from ..registry import GRIDS, register
from ..seeds import Random
from .graph import MazeGrid, Opened, crossed, uniforms, walk_batch, walk_rows

if TYPE_CHECKING:  # pragma: no cover - a square level loads no grid module
    from ..grids import Grid


@register("wilson", grids=GRIDS)
def wilson(grid: Grid, rng: Random, start: int, goal: int) -> Opened:
    """Wilson's: loop-erased random walks grafted onto a growing tree. Uniform; about 29% dead ends. Perfect."""
    roots = tree_roots(grid)
    fast = kernel("wilson", grid.cells)
    if fast is not None:  # the same walks, compiled (mazeplugin/_compiled/wilson.py)
        return fast.generate(grid, rng, roots)  # type: ignore[no-any-return]
    slots = walk_rows(grid)
    off, nbr, degree = slots.offsets, slots.neighbours, slots.degree
    batch = walk_batch(grid)
    in_tree, exit_to = [False] * grid.cells, [-1] * grid.cells  # exit_to: where a walk last left a cell for
    for root in roots:
        in_tree[root] = True
    picks: Iterator[int] = iter(())  # whole steps, drawn `batch` at a time, when every cell has `degree` slots
    draws = uniforms(rng, batch)  # else floats
    grafted: List[int] = []
    for first in range(grid.cells):
        cell = first
        if degree:
            while not in_tree[cell]:  # walk until the tree is hit
                for pick in picks:
                    exit_to[cell] = cell = nbr[degree * cell + pick]
                    if in_tree[cell]:
                        break
                else:
                    picks = iter(rng.integers(degree, batch).tolist())
        else:
            while not in_tree[cell]:
                exit_to[cell] = cell = nbr[off[cell] + int(next(draws) * (off[cell + 1] - off[cell]))]
        cell = first
        while not in_tree[cell]:  # graft the loop-erased path
            in_tree[cell] = True
            grafted.append(cell)
            cell = exit_to[cell]
    return crossed(slots.rows, grid.edge_count, grafted, exit_to)


def tree_roots(grid: "Grid | MazeGrid") -> List[int]:
    """The cells the tree starts from: the middle cell of a grid; on a square maze, each part of its mask's
    cell nearest that part's centroid.

    Any root gives a uniform tree; a central one makes the first walks, which
    must find a one-cell tree, shorter and less variable than a corner would.
    """
    if not isinstance(grid, MazeGrid):
        return [grid.cells // 2]
    maze: Maze = grid.maze
    if grid.walls is not None:  # one part: the same sums and distances, without a sort
        h, w = maze.height, maze.width
        centre_y = np.float64(w * (h * (h - 1) // 2)) / np.float64(h * w)
        centre_x = np.float64(h * (w * (w - 1) // 2)) / np.float64(h * w)
        distance = ((np.arange(h) - centre_y) ** 2)[:, None] + ((np.arange(w) - centre_x) ** 2)[None, :]
        return [int(np.argmin(distance))]
    labels, count = mask_parts(maze.mask)
    ys, xs = np.nonzero(maze.mask)
    part = labels[ys, xs]
    cells_in = np.bincount(part, minlength=count)
    part_y: NDArray[np.float64] = np.bincount(part, ys, minlength=count) / cells_in
    part_x: NDArray[np.float64] = np.bincount(part, xs, minlength=count) / cells_in
    distance = (ys - part_y[part]) ** 2 + (xs - part_x[part]) ** 2
    nearest = np.lexsort((distance, part))  # by part, then by distance
    first_of_part = np.flatnonzero(np.diff(part[nearest], prepend=-1))
    roots: List[int] = nearest[first_of_part].tolist()  # (the mask's cells in row-major order: grid cells)
    return roots
