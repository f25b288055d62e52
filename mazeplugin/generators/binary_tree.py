"""The binary tree algorithm: every cell opens one of two walls toward a chosen corner.

Each cell opens its wall toward one of the two sides named by the bias (for
``"northeast"``: north or east) at the flip of a coin; cells on one of those
edges of the grid have no choice, and the corner cell opens nothing. Every
cell decides alone, so the whole maze is one vectorised numpy step. Texture:
25% dead ends; two unbroken corridors along the bias corner's edges and a
strong diagonal bias (every path toward the corner runs monotonically); a
perfect maze. Cannot take a mask.

Sources: W. D. Pullen, "Think Labyrinth: Maze Algorithms" ("Binary tree
Mazes"); J. Buck, "Mazes for Programmers", ch. 2.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

import numpy as np

from ..maze import Maze
from ..registry import register
from ..seeds import Random

BIASES = ("northeast", "northwest", "southeast", "southwest")


def _check_bias(bias: object) -> None:
    if not isinstance(bias, str) or bias not in BIASES:
        raise ValueError(f"binary-tree bias must be one of {', '.join(map(repr, BIASES))}; got {bias!r}")


def _check(options: Mapping[str, Any], width: Optional[int], height: Optional[int]) -> None:
    _check_bias(options.get("bias", "northeast"))


@register("binary-tree", masks=False, check=_check)
def binary_tree(maze: Maze, rng: Random, *, bias: str = "northeast") -> None:
    """Binary tree: each cell opens north or east (or toward another bias corner). 25% dead ends, strong diagonal bias. Perfect."""
    _check_bias(bias)
    h, w = maze.height, maze.width
    north, west = bias.startswith("north"), bias.endswith("west")
    rows = np.arange(h)[:, None]
    columns = np.arange(w)[None, :]
    can_go_vertical = (rows > 0) if north else (rows < h - 1)
    can_go_horizontal = (columns > 0) if west else (columns < w - 1)
    heads = rng.random(h * w).reshape(h, w) < 0.5
    vertical = can_go_vertical & (heads | ~can_go_horizontal)
    horizontal = can_go_horizontal & ~vertical
    if north:
        maze.south[:-1, :] = vertical[1:, :]
    else:
        maze.south[:] = vertical
    if west:
        maze.east[:, :-1] = horizontal[:, 1:]
    else:
        maze.east[:] = horizontal
