"""Weave: passages that cross under others, on a square maze (Buck, "Mazes for Programmers", ch. 9).

A *crossing* is a cell whose own two passages run straight through it
(north–south only, or east–west only) and under which a second, straight
passage joins its two other neighbours: the cell is a **bridge** over a
**tunnel**. Nothing turns or ends under a bridge, and no bridge lies beside
another, so a player always sees where a tunnel leads.

How crossings are added (after the generator carves, from the seed's own
weave stream, so every other stage's numbers stay as they were):

1. The candidates are the cells whose passages run straight through, away
   from the grid's edge (a tunnel needs a cell on each side) and off the
   entrance's and exit's cells, taken in a random order; each is taken with
   chance ``fraction`` (``weave=True`` is 1: every candidate that fits).
2. A candidate is a crossing unless it lies beside a crossing already taken,
   or its three passages (the bridge's two and the tunnel) would close a loop
   among the passages of the crossings already taken.
3. Each tunnel closes a loop with the maze's passages; one passage on it that
   belongs to no crossing is closed: the crossings' passages first, then the
   maze's other passages in a random order, are put through a union-find
   (Kruskal), and those that would close a loop are the ones closed.

So a maze that was a spanning tree of its cells stays one, counting each
tunnel as a passage: a weave level is perfect when its generator is. This is
Buck's "add the crossings to a finished maze" done after the fact, so it works
for every perfect generator and keeps the generator's texture away from the
crossings (his Kruskal weave places them first; his backtracker tunnels as it
goes). Only perfect generators take weave (a maze with loops would lose them).

``braid=`` with ``weave=`` braids after the crossings (:func:`braid_woven`):
the same rule as :func:`mazeplugin.shaping.braid`, with a tunnel counted as a
passage of the cells at its ends and no wall of a bridge ever opened, so
every bridge stays a straight crossing.

Content (``keys=``, ``treasure=``, ``enemies=``, ``place=``) on a weave is
placed on its cells joined by their passages and tunnels and proved on its
tiles with each bridge tile two places
(:func:`mazeplugin.content.placing.place_woven`), so a door is never one
that a walk over or under a bridge goes round.

>>> import mazeplugin as mp
>>> level = mp.generate("backtracker", 12, 8, seed=3, weave=True)
>>> int((level.bridges > 0).sum()) > 0, level.stats().loops
(True, 0)
"""

from __future__ import annotations

from typing import Iterable, List, Tuple

import numpy as np
from numpy.typing import NDArray

from .maze import UNDER_EAST_WEST, UNDER_NORTH_SOUTH, Cell, Maze
from .seeds import Random
from .shaping import braid_dead_ends
from .unionfind import DisjointSets

__all__ = ["check_weave", "weave", "braid_woven", "crossing_candidates", "UNDER_EAST_WEST", "UNDER_NORTH_SOUTH"]


def check_weave(weave: object) -> float:
    """``weave`` as the share of candidate crossings taken: False → 0, True → 1, or a number in [0, 1].

    >>> check_weave(True), check_weave(False), check_weave(0.25)
    (1.0, 0.0, 0.25)
    >>> check_weave("yes")
    Traceback (most recent call last):
    ...
    TypeError: weave must be True, False or a number from 0 to 1 (the share of candidate crossings taken), not str
    """
    if isinstance(weave, (bool, np.bool_)):
        return 1.0 if weave else 0.0
    if not isinstance(weave, (int, float, np.integer, np.floating)):
        raise TypeError("weave must be True, False or a number from 0 to 1 "
                        f"(the share of candidate crossings taken), not {type(weave).__name__}")
    value = float(weave)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"weave must be True, False or a number from 0 to 1 "
                         f"(the share of candidate crossings taken), got {weave!r}")
    return value


def crossing_candidates(maze: Maze, avoid: Iterable[Cell] = ()) -> Tuple[NDArray[np.int64], NDArray[np.int8]]:
    """Cells that could be bridges, ascending ids, and the way each one's tunnel would run.

    A candidate is an ordinary maze cell off the grid's edge whose two open
    passages run straight through it, with maze cells on the other two sides;
    ``avoid`` (the marker cells) are left out.
    """
    h, w = maze.height, maze.width
    under = np.zeros((h, w), dtype=np.int8)
    if h < 3 or w < 3:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int8)
    e, s, mask = maze.east, maze.south, maze.mask & (maze.rooms == 0)
    inner = (slice(1, -1), slice(1, -1))
    east, west = e[1:-1, 1:-1], e[1:-1, :-2]
    south, north = s[1:-1, 1:-1], s[:-2, 1:-1]
    here = mask[inner]
    runs_ns = here & north & south & ~east & ~west & mask[1:-1, :-2] & mask[1:-1, 2:]
    runs_ew = here & east & west & ~north & ~south & mask[:-2, 1:-1] & mask[2:, 1:-1]
    under[inner][runs_ns] = UNDER_EAST_WEST  # the bridge runs north-south: its tunnel east-west
    under[inner][runs_ew] = UNDER_NORTH_SOUTH
    for x, y in avoid:
        under[y, x] = 0
    cells = np.flatnonzero(under).astype(np.int64)
    return cells, under.reshape(-1)[cells]


def weave(maze: Maze, rng: Random, fraction: float, avoid: Iterable[Cell] = ()) -> int:
    """Add crossings to the perfect ``maze`` (see the module docstring); how many were added.

    Sets ``maze.under`` and closes one passage per crossing, so a spanning
    tree stays one. Draws ``2 × candidates + passages`` numbers from ``rng``.
    """
    cells, kinds = crossing_candidates(maze, avoid)
    maze.under = under = np.zeros((maze.height, maze.width), dtype=np.int8)
    order = rng.permutation(len(cells)).tolist()
    draws = rng.random(len(cells)).tolist()
    flat = under.reshape(-1)
    w = maze.width
    sets = DisjointSets(maze.size)
    parent = sets.parent  # finds and links inlined (path halving): this loop visits every candidate

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = i = parent[parent[i]]
        return i

    cell_list, kind_list = cells.tolist(), kinds.tolist()
    bridge_at = [0] * maze.size  # (a list: numpy scalar reads cost more than the whole test)
    added = 0
    for k in order:
        if draws[k] >= fraction:
            continue
        c = cell_list[k]
        if bridge_at[c - 1] or bridge_at[c + 1] or bridge_at[c - w] or bridge_at[c + w]:
            continue  # beside a bridge: its tunnel's end or its own passage would be a bridge's side
        tunnel = 1 if kind_list[k] == UNDER_EAST_WEST else w
        over = w + 1 - tunnel  # the bridge's own axis: the other one
        ra, rc, rb = find(c - over), find(c), find(c + over)
        rl, rr = find(c - tunnel), find(c + tunnel)
        # The three new links a-c, c-b, left-right between these sets must form no loop.
        if ra == rc or rb == rc or ra == rb or rl == rr or (rl in (ra, rb, rc) and rr in (ra, rb, rc)):
            continue
        parent[ra] = parent[rb] = rc
        if rl == ra or rl == rb:
            rl = rc
        if rr == ra or rr == rb:
            rr = rc
        parent[rr] = rl
        bridge_at[c] = kind_list[k]
        added += 1
    sets.count -= 3 * added
    taken = [cell_list[k] for k in range(len(cell_list)) if bridge_at[cell_list[k]]]
    flat[taken] = [bridge_at[c] for c in taken]
    # Kruskal over the other passages, in a random order: those closing a loop are closed.
    pa, pb = maze.passages()
    free = (flat[pa] == 0) & (flat[pb] == 0)
    pa, pb = pa[free], pb[free]
    shuffled = rng.permutation(len(pa))
    pa, pb = pa[shuffled], pb[shuffled]
    kept = np.zeros(len(pa), dtype=bool)
    kept[sets.union_each(pa.tolist(), pb.tolist())] = True
    close_a, close_b = pa[~kept], pb[~kept]
    lo = np.minimum(close_a, close_b)
    across = np.abs(close_a - close_b) == 1 if w > 1 else np.zeros(len(lo), dtype=bool)
    maze.east.flat[lo[across]] = False
    maze.south.flat[lo[~across]] = False
    return added


def braid_woven(maze: Maze, rng: Random, fraction: float) -> None:
    """Braid a woven ``maze``: remove ``round(fraction × dead ends)`` dead ends, as
    :func:`mazeplugin.shaping.braid` does, counting each tunnel as a passage of
    the cells at its ends and never opening a wall of a bridge.

    >>> import mazeplugin as mp
    >>> level = mp.generate("backtracker", 12, 8, seed=3, weave=True, braid=1)
    >>> level.weave, level.stats().dead_ends, level.stats().loops > 0
    (True, 0, True)
    """
    degree_grid = maze.degree().astype(np.int64)
    ends_a, _, ends_b = maze.under_passages()
    flat_degree = degree_grid.reshape(-1)
    np.add.at(flat_degree, ends_a, 1)
    np.add.at(flat_degree, ends_b, 1)
    bridge = (maze.under if maze.under is not None else np.zeros(degree_grid.shape, dtype=np.int8)).reshape(-1)
    dead: List[int] = np.flatnonzero((degree_grid == 1) & (maze.rooms == 0)).tolist()
    neighbours = maze.neighbour_table().tolist()
    bridges: List[int] = bridge.tolist()

    def closed(cell: int) -> List[Tuple[int, int]]:
        return [(n, n) for n in neighbours[cell] if n >= 0 and not bridges[n] and not maze.is_open(cell, n)]

    braid_dead_ends(dead, flat_degree.tolist(), fraction, rng, closed, lambda cell, way: maze.open(cell, way))
