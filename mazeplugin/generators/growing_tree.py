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
A perfect maze; on a square maze whose mask falls apart, one tree a part.

Which floats each choice reads is the grid's (:func:`draw_rule`): a square
maze draws them ahead, one of each kind a step, as it always did; every
other grid reads them in turn. The compiled twin is
``mazeplugin/_compiled/growing_tree.py``.

Sources: W. D. Pullen, "Think Labyrinth: Maze Algorithms" ("Growing tree");
J. Buck, "Mazes for Programmers", ch. 11.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, List, Mapping, Optional, Tuple

from .._compiled import kernel
from ..registry import GRIDS, register
from ..seeds import Random
from .graph import MazeGrid, Opened, crossed, parts, uniforms, walk_rows

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


Draw = Callable[[int], float]
"""The float a choice of step ``step`` reads."""


def draw_rule(grid: "Grid | MazeGrid", rng: Random, name: str, p: float) -> Tuple[Draw, Draw, Draw]:
    """``(coin, pick, neighbour)``: the floats the choices read. A square maze draws them ahead, one of
    each kind a step (two steps a cell: each adds a cell or retires one): the neighbours', then the coins
    (a ``"<name>:<p>"`` strategy; none for ``"random"``), then the active cells' (when any is random).
    Every other grid reads its floats in turn, as the choices need them."""
    if isinstance(grid, MazeGrid):
        steps, p = 2 * grid.maze.size, 0.0 if name == "random" else p
        neighbours = rng.random(steps).tolist()
        coins = rng.random(steps).tolist() if 0.0 < p < 1.0 else None
        picks = rng.random(steps).tolist() if p < 1.0 else []
        return (coins.__getitem__ if coins is not None else _never_below), picks.__getitem__, neighbours.__getitem__
    draws = uniforms(rng, 4 * grid.cells + 64)

    def in_turn(step: int) -> float:
        return next(draws)

    return in_turn, in_turn, in_turn


def _never_below(step: int) -> float:
    return 1.0  # no coins: the strategy's choice is never taken ("random", or p = 0)


@register("growing-tree", check=_check, grids=GRIDS)
def growing_tree(grid: Grid, rng: Random, start: int, goal: int, *, strategy: str = "newest") -> Opened:
    """Growing tree: grow from active cells chosen newest/random/oldest/middle or a mix. Perfect."""
    name, p = parse_strategy(strategy)
    fast = kernel("growing-tree", grid.cells)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/growing_tree.py)
        return fast.generate(grid, rng, start, name, p)  # type: ignore[no-any-return]
    slots = walk_rows(grid)  # (a square maze's wall: a slot holding the cell itself, visited)
    around = slots.around
    coin, pick, neighbour = draw_rule(grid, rng, name, p)
    visited, came_from = [False] * grid.cells, [-1] * grid.cells
    entered: List[int] = []
    step = 0
    for root, _ in parts(grid, start):  # one tree a part
        visited[root] = True
        active = [root]
        while active:
            if (p >= 1.0 or coin(step) < p) and name != "random":
                i = -1 if name == "newest" else 0 if name == "oldest" else len(active) // 2
            else:
                i = int(pick(step) * len(active))
            cell = active[i]
            fresh = [n for n in around[cell] if not visited[n]]
            if fresh:
                nxt = fresh[int(neighbour(step) * len(fresh))]
                visited[nxt] = True
                came_from[nxt] = cell
                entered.append(nxt)
                active.append(nxt)
            else:
                del active[i]
            step += 1
    return crossed(slots.rows, grid.edge_count, entered, came_from)
