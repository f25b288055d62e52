"""The growing tree algorithm: grow from a list of active cells, chosen by a strategy.

Start with the entrance cell in the active list. Repeatedly choose an active
cell; if it has an unvisited neighbour, open the wall to a random one and add
that neighbour to the list, else remove the cell from the list. Texture: it
depends on which active cell is chosen (the strategy):

- ``"newest"``: the last one added — a depth-first backtracker: long winding
  corridors, about 10% dead ends.
- ``"random"``: any one — like Prim's: short corridors spreading evenly from
  the start, about 27% dead ends.
- ``"oldest"``: the first one still active — long straight corridors fanning
  out from the start, a strong radial bias, about 2% dead ends.
- ``"middle"``: the middle of the list — much like ``"oldest"``.
- ``"<strategy>:<p>"``, e.g. ``"newest:0.75"``: that strategy with probability
  ``p``, otherwise a random active cell, mixing the two textures (about 14%
  dead ends for ``"newest:0.75"``, 20% for ``"newest:0.5"``).

Dead-end figures measured at 100 × 100 cells.
A perfect maze.

Sources: W. D. Pullen, "Think Labyrinth: Maze Algorithms" ("Growing tree");
J. Buck, "Mazes for Programmers", ch. 11.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Optional, Tuple

import numpy as np

from .._compiled import kernel
from ..maze import Maze
from ..registry import GRIDS, register
from .graph import Opened, flat, uniforms
from ..seeds import Random

if TYPE_CHECKING:  # pragma: no cover - a square level loads no grid
    from ..grids import Grid

STRATEGIES = ("newest", "random", "oldest", "middle")


def parse_strategy(strategy: object) -> Tuple[str, float]:
    """``(name, p)``: choose by ``name`` with probability ``p``, else at random.

    >>> parse_strategy("newest"), parse_strategy("oldest:0.25")
    (('newest', 1.0), ('oldest', 0.25))
    """
    allowed = (
        "growing-tree strategy must be 'newest', 'random', 'oldest', 'middle', or "
        "'<strategy>:<p>' such as 'newest:0.75' (that strategy with probability p, "
        "else random)"
    )
    if not isinstance(strategy, str):
        raise TypeError(f"{allowed}; got {type(strategy).__name__}")
    name, colon, p_text = strategy.partition(":")
    if name not in STRATEGIES:
        raise ValueError(f"{allowed}; got {strategy!r}")
    if not colon:
        return name, 1.0
    try:
        p = float(p_text)
    except ValueError:
        raise ValueError(f"{allowed}; got {strategy!r}") from None
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"{allowed}, with p from 0 to 1; got {strategy!r}")
    return name, p


def _check(options: Mapping[str, Any], width: Optional[int], height: Optional[int]) -> None:
    parse_strategy(options.get("strategy", "newest"))


def growing_tree_on_grid(grid: Grid, rng: Random, start: int, goal: int, *, strategy: str = "newest") -> Opened:
    """Growing tree: from an active cell chosen by ``strategy``, open to a random unvisited neighbour."""
    name, p = parse_strategy(strategy)
    fast = kernel("graph-growing-tree", grid.cells)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/graph_growing_tree.py)
        return fast.generate(grid, rng, start, name, p)  # type: ignore[no-any-return]
    off, nbr, eid = flat(grid)
    draws = uniforms(rng, 4 * grid.cells + 64)
    visited, opened = [False] * grid.cells, [False] * len(grid.edges)
    visited[start] = True
    active = [start]
    while active:
        if p < 1.0 and next(draws) >= p:
            at = int(next(draws) * len(active))
        elif name == "newest":
            at = len(active) - 1
        elif name == "oldest":
            at = 0
        elif name == "middle":
            at = len(active) // 2
        else:
            at = int(next(draws) * len(active))
        cell = active[at]
        fresh = [k for k in range(off[cell], off[cell + 1]) if not visited[nbr[k]]]
        if not fresh:
            del active[at]
            continue
        k = fresh[int(next(draws) * len(fresh))]
        opened[eid[k]] = visited[nbr[k]] = True
        active.append(nbr[k])
    return opened



@register("growing-tree", check=_check, grids=GRIDS, graph=growing_tree_on_grid)
def growing_tree(maze: Maze, rng: Random, *, strategy: str = "newest") -> None:
    """Growing tree: grow from active cells chosen newest/random/oldest/middle or a mix. Perfect."""
    name, p = parse_strategy(strategy)
    if name == "random":
        p = 0.0
    fast = kernel("growing-tree", maze.size)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/growing_tree.py)
        fast.generate(maze, rng, name, p)
        return
    table = maze.neighbour_table()
    # neighbour[4 * cell + k]: the k-th neighbour; off the grid or mask it is cell `size`,
    neighbour = np.where(table < 0, maze.size, table).ravel().tolist()
    visited = (~maze.mask).ravel().tolist() + [True]  # ... which counts as visited
    steps = 2 * maze.size  # each step adds a cell or retires one
    directions = rng.random(steps).tolist()
    coins = rng.random(steps).tolist() if 0.0 < p < 1.0 else None
    picks = rng.random(steps).tolist() if p < 1.0 else None
    step = 0
    opened_a, opened_b = [], []
    for root in maze.roots():  # one tree per part
        if visited[root]:
            continue
        visited[root] = True
        active = [root]
        while active:
            if p == 1.0 or (coins is not None and coins[step] < p):
                i = -1 if name == "newest" else 0 if name == "oldest" else len(active) // 2
            else:
                i = int(picks[step] * len(active))  # type: ignore[index]
            cell = active[i]
            fresh = [n for n in neighbour[4 * cell : 4 * cell + 4] if not visited[n]]
            if fresh:
                nxt = fresh[int(directions[step] * len(fresh))]
                visited[nxt] = True
                opened_a.append(cell)
                opened_b.append(nxt)
                active.append(nxt)
            else:
                del active[i]
            step += 1
    maze.open_many(opened_a, opened_b)
