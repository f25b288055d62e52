"""Wilson's algorithm: loop-erased random walks, each grafted onto the growing tree.

The tree starts as one cell (the one nearest the middle of the maze). From
each cell not yet in the tree, walk at random until the walk hits the tree,
remembering only the last exit taken from each cell (which erases every loop
the walk made); then retrace the remembered exits from the walk's first cell
and add that loop-free path to the tree. The result is a *uniform* spanning tree, like Aldous–Broder's, but
found much faster once the tree is large. Texture: about 29% dead ends, no
bias; a perfect maze.

Sources: D. B. Wilson, "Generating random spanning trees more quickly than
the cover time" (STOC 1996); J. Buck, "Mazes for Programmers", ch. 4.
"""

from __future__ import annotations

from typing import Iterator, List

import numpy as np
from numpy.typing import NDArray

from .._compiled import kernel
from ..maze import Maze
from ..registry import GRIDS, register
from . import graph
from ..seeds import Random
from ..maze import mask_parts


def tree_roots(maze: Maze) -> List[int]:
    """The cell each part's tree starts from: the part's cell nearest its centroid.

    Any root gives a uniform tree; a central one makes the first walks, which
    must find a one-cell tree, shorter and less variable than a corner would.
    """
    if maze.mask.all():  # one part: the same sums and distances, without a sort
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
    roots: List[int] = (ys * maze.width + xs)[nearest[first_of_part]].tolist()
    return roots


@register("wilson", grids=GRIDS, graph=graph.wilson)
def wilson(maze: Maze, rng: Random) -> None:
    """Wilson's: loop-erased random walks grafted onto a growing tree. Uniform; about 29% dead ends. Perfect."""
    # Each step draws one of four directions; a step into a wall stays put. Loop
    # erasure removes those empty steps, so the grafted paths are the loop-erased
    # paths of the simple random walk, and the tree is still uniform.
    fast = kernel("wilson", maze.size)
    if fast is not None:  # the same walks, compiled (mazeplugin/_compiled/wilson.py)
        fast.generate(maze, rng, tree_roots(maze))
        return
    table = maze.neighbour_table()
    stay = np.arange(maze.size, dtype=np.int64)[:, None]
    step_to = np.where(table < 0, stay, table).ravel().tolist()  # step_to[4 * cell + direction]
    in_tree = (~maze.mask).ravel().tolist()
    for root in tree_roots(maze):
        in_tree[root] = True
    exit_of = [-1] * maze.size  # the last exit the current walk took from each cell
    batch = min(1 << 16, 8 * maze.size + 64)
    directions: Iterator[int] = iter(())  # random directions, drawn `batch` at a time; walks share them
    opened_a, opened_b = [], []
    for first in maze.cells().tolist():
        if in_tree[first]:
            continue
        cell = first
        while True:  # walk until the tree is hit
            for direction in directions:
                exit_of[cell] = cell = step_to[4 * cell + direction]
                if in_tree[cell]:
                    break
            else:
                directions = iter(rng.integers(4, batch).tolist())
                continue
            break
        cell = first
        while not in_tree[cell]:  # graft the loop-erased path
            in_tree[cell] = True
            nxt = exit_of[cell]
            opened_a.append(cell)
            opened_b.append(nxt)
            cell = nxt
    maze.open_many(opened_a, opened_b)
