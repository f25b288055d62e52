"""The sidewinder algorithm: east-running corridors, each joined north at one random cell.

The top row is one corridor. In every other row, walk east carving a "run";
at each cell flip a coin (forced at the east edge) to close the run, and when
it closes, open the north wall of one random cell of the run. Rows are
independent given their coins, so the whole maze is a few vectorised numpy
steps. Texture: about 27% dead ends; an unbroken corridor along the top and
a northward bias (no dead end opens toward the south); a perfect maze. Cannot
take a mask.

Sources: W. D. Pullen, "Think Labyrinth: Maze Algorithms" ("Sidewinder
Mazes"); J. Buck, "Mazes for Programmers", ch. 2.
"""

from __future__ import annotations

import numpy as np

from ..maze import Maze
from ..registry import register
from ..seeds import Random


@register("sidewinder", masks=False)
def sidewinder(maze: Maze, rng: Random) -> None:
    """Sidewinder: east runs, each opened north at one random cell. About 27% dead ends, north bias. Perfect."""
    h, w = maze.height, maze.width
    maze.east[0, :-1] = True
    if h == 1:
        return
    close = rng.random((h - 1) * w).reshape(h - 1, w) < 0.5
    close[:, -1] = True  # a run always ends at the east edge
    maze.east[1:] = ~close
    maze.east[:, -1] = False
    # Runs, flattened over rows 1.. (a run never crosses a row: the last column closes it).
    ends = np.flatnonzero(close)
    starts = np.concatenate([[0], ends[:-1] + 1])
    chosen = starts + (rng.random(len(ends)) * (ends - starts + 1)).astype(np.int64)
    # Cell chosen at flat index i of rows 1.. opens north: south[y - 1, x] of that cell.
    maze.south.flat[chosen] = True
