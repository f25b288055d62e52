"""The neighbour-only generators, on any grid: each asks the grid only for the neighbours of a cell.

These are the square generators of this package again, written once for a
:class:`~mazeplugin.grids.Grid` (hexagonal, triangular, polar) in J. Buck's
way: a grid owns its cells and neighbours, an algorithm decides which
passages to open. Each function returns ``open``, one bool per edge of the
grid. Random numbers come only from the :class:`~mazeplugin.seeds.Random`
given, as floats in ``[0, 1)`` read in order (:func:`uniforms`), so the same
grid, seed and options give the same maze on every machine; an index below
``k`` is ``int(u * k)``.

Neighbours are read from the grid's flat arrays (``offsets``, ``neighbours``,
``edge_ids``) turned into lists once, so the loops are tight Python over
flat lists. The square grid keeps its own generators and their compiled
kernels; each of these has a compiled twin, ``mazeplugin._compiled.graph_<name>``
(asked for as ``kernel("graph-<name>", cells)``), which reads the same
floats in the same order and opens the same passages.

>>> from mazeplugin.grids import HexGrid
>>> from mazeplugin.seeds import Random
>>> grid = HexGrid(4, 3)
>>> open = run_on_grid("wilson", grid, Random.from_seed(7))
>>> int(open.sum()) == grid.cells - 1  # a spanning tree
True
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple, Union

import numpy as np
from numpy.typing import NDArray

from .._compiled import kernel
from ..grids import Grid
from ..seeds import Random
from ..unionfind import DisjointSets, spanning_forest
from .growing_tree import parse_strategy

__all__ = ["GRID_GENERATORS", "PERFECT", "run_on_grid", "uniforms", "check_grid_generator"]

BATCH = 1 << 14  # floats per draw; the numbers read are the same for any batch size

Lists = Tuple[List[int], List[int], List[int]]
Opened = Union[List[bool], NDArray[np.bool_]]
"""What a grid generator returns: one bool per edge of the grid, True where a passage opens."""


def uniforms(rng: Random, first: int = BATCH) -> Iterator[float]:
    """Floats uniform in ``[0, 1)`` from ``rng``, in order: ``first`` at a time, doubling up to ``BATCH``.

    The floats read are the same for any batch sizes (they are ``rng``'s
    stream in order); small first batches keep tiny mazes cheap.
    """
    batch = max(1, min(first, BATCH))
    while True:
        yield from rng.random(batch).tolist()
        batch = min(2 * batch, BATCH)


def flat(grid: Grid) -> Lists:
    """``(offsets, neighbours, edge_ids)`` of ``grid`` as lists, for tight loops."""
    return grid.offsets.tolist(), grid.neighbours.tolist(), grid.edge_ids.tolist()


def backtracker(grid: Grid, rng: Random, start: int) -> Opened:
    """Recursive backtracker: step to a random unvisited neighbour; when there is none, back up."""
    fast = kernel("graph-backtracker", grid.cells)
    if fast is not None:  # the same walk, compiled (mazeplugin/_compiled/graph_backtracker.py)
        return fast.generate(grid, rng, start)  # type: ignore[no-any-return]
    off, nbr, eid = flat(grid)
    draws = uniforms(rng, 4 * grid.cells + 64)
    visited, opened = [False] * grid.cells, [False] * len(grid.edges)
    visited[start] = True
    path = [start]
    while path:
        cell = path[-1]
        fresh = [k for k in range(off[cell], off[cell + 1]) if not visited[nbr[k]]]
        if not fresh:
            path.pop()
            continue
        k = fresh[int(next(draws) * len(fresh))]
        opened[eid[k]] = visited[nbr[k]] = True
        path.append(nbr[k])
    return opened


def hunt_and_kill(grid: Grid, rng: Random, start: int) -> Opened:
    """Hunt-and-kill: walk to random unvisited neighbours; when stuck, hunt for an unvisited cell beside a visited one."""
    fast = kernel("graph-hunt-and-kill", grid.cells)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/graph_hunt_and_kill.py)
        return fast.generate(grid, rng, start)  # type: ignore[no-any-return]
    off, nbr, eid = flat(grid)
    draws = uniforms(rng, 4 * grid.cells + 64)
    visited, opened = [False] * grid.cells, [False] * len(grid.edges)
    visited[start] = True
    cell, scan = start, 0
    while cell >= 0:
        fresh = [k for k in range(off[cell], off[cell + 1]) if not visited[nbr[k]]]
        if fresh:  # kill: walk on
            k = fresh[int(next(draws) * len(fresh))]
            opened[eid[k]] = visited[nbr[k]] = True
            cell = nbr[k]
            continue
        while scan < grid.cells and visited[scan]:  # every cell before `scan` is visited
            scan += 1
        cell = -1
        for hunted in range(scan, grid.cells):  # hunt: the first unvisited cell beside a visited one
            if not visited[hunted]:
                seen = [k for k in range(off[hunted], off[hunted + 1]) if visited[nbr[k]]]
                if seen:
                    opened[eid[seen[int(next(draws) * len(seen))]]] = visited[hunted] = True
                    cell = hunted
                    break
    return opened


def aldous_broder(grid: Grid, rng: Random, start: int) -> Opened:
    """Aldous–Broder: a random walk opens the passage into each cell it enters first. Uniform."""
    fast = kernel("graph-aldous-broder", grid.cells)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/graph_aldous_broder.py)
        return fast.generate(grid, rng, start)  # type: ignore[no-any-return]
    off, nbr, eid = flat(grid)
    draws = uniforms(rng, 4 * grid.cells + 64)
    visited, opened = [False] * grid.cells, [False] * len(grid.edges)
    visited[start] = True
    cell, left = start, grid.cells - 1
    while left:
        k = off[cell] + int(next(draws) * (off[cell + 1] - off[cell]))
        cell = nbr[k]
        if not visited[cell]:
            opened[eid[k]] = visited[cell] = True
            left -= 1
    return opened


def wilson(grid: Grid, rng: Random, root: int) -> Opened:
    """Wilson's: loop-erased random walks from each cell outside the tree, grafted on where they hit it. Uniform."""
    fast = kernel("graph-wilson", grid.cells)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/graph_wilson.py)
        return fast.generate(grid, rng, root)  # type: ignore[no-any-return]
    off, nbr, eid = flat(grid)
    draws = uniforms(rng, 4 * grid.cells + 64)
    in_tree, opened = [False] * grid.cells, [False] * len(grid.edges)
    in_tree[root] = True
    exit_of = [-1] * grid.cells  # the last step each walk took from each cell: loops erase themselves
    for first in range(grid.cells):
        cell = first
        while not in_tree[cell]:  # walk until the tree is hit
            k = exit_of[cell] = off[cell] + int(next(draws) * (off[cell + 1] - off[cell]))
            cell = nbr[k]
        cell = first
        while not in_tree[cell]:  # graft the loop-erased path
            k = exit_of[cell]
            in_tree[cell] = opened[eid[k]] = True
            cell = nbr[k]
    return opened


def kruskal(grid: Grid, rng: Random) -> Opened:
    """Randomized Kruskal: every edge in random order, opened when it joins two sets of a disjoint-set forest."""
    fast = kernel("graph-kruskal", grid.cells)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/graph_kruskal.py)
        return fast.generate(grid, rng)  # type: ignore[no-any-return]
    order = rng.permutation(len(grid.edges))
    a, b = grid.edges[order, 0].tolist(), grid.edges[order, 1].tolist()
    opened = np.zeros(len(grid.edges), dtype=bool)
    opened[order[DisjointSets(grid.cells).union_each(a, b)]] = True
    return opened


def prim(grid: Grid, rng: Random) -> Opened:
    """True Prim's on random edge weights: the unique minimum spanning tree, found in bulk (Borůvka)."""
    fast = kernel("graph-prim", grid.cells)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/graph_prim.py)
        return fast.generate(grid, rng)  # type: ignore[no-any-return]
    order = np.argsort(rng.random(len(grid.edges)), kind="stable")
    opened = np.zeros(len(grid.edges), dtype=bool)
    opened[order[spanning_forest(grid.cells, grid.edges[order, 0], grid.edges[order, 1])]] = True
    return opened


def prim_simplified(grid: Grid, rng: Random, start: int) -> Opened:
    """Simplified Prim's: open a uniformly random frontier edge whose far cell is outside the tree."""
    fast = kernel("graph-prim-simplified", grid.cells)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/graph_prim_simplified.py)
        return fast.generate(grid, rng, start)  # type: ignore[no-any-return]
    off, nbr, eid = flat(grid)
    draws = uniforms(rng, 4 * grid.cells + 64)
    in_tree, opened = [False] * grid.cells, [False] * len(grid.edges)
    in_tree[start] = True
    frontier = list(range(off[start], off[start + 1]))
    while frontier:
        i = int(next(draws) * len(frontier))
        frontier[i], frontier[-1] = frontier[-1], frontier[i]
        k = frontier.pop()  # swap-remove: constant time
        cell = nbr[k]
        if not in_tree[cell]:
            in_tree[cell] = opened[eid[k]] = True
            frontier.extend(j for j in range(off[cell], off[cell + 1]) if not in_tree[nbr[j]])
    return opened


def growing_tree(grid: Grid, rng: Random, start: int, strategy: str = "newest") -> Opened:
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


def union_find(grid: Grid, rng: Random, start: int, goal: int) -> Opened:
    """The union-find web: join a random cell to a random neighbour until entrance and exit meet. Not perfect."""
    fast = kernel("graph-union-find", grid.cells)
    if fast is not None:  # the same loop, compiled (mazeplugin/_compiled/graph_union_find.py)
        return fast.generate(grid, rng, start, goal)  # type: ignore[no-any-return]
    off, nbr, eid = flat(grid)
    draws = uniforms(rng, 4 * grid.cells + 64)
    opened = [False] * len(grid.edges)
    sets = DisjointSets(grid.cells)
    while not sets.connected(start, goal):
        cell = int(next(draws) * grid.cells)
        k = off[cell] + int(next(draws) * (off[cell + 1] - off[cell]))
        if sets.union(cell, nbr[k]):
            opened[eid[k]] = True
    return opened


Runner = Callable[[Grid, Random, int, int, Mapping[str, Any]], Opened]

GRID_GENERATORS: Dict[str, Runner] = {
    "aldous-broder": lambda g, rng, s, e, o: aldous_broder(g, rng, s),
    "backtracker": lambda g, rng, s, e, o: backtracker(g, rng, s),
    "growing-tree": lambda g, rng, s, e, o: growing_tree(g, rng, s, **o),
    "hunt-and-kill": lambda g, rng, s, e, o: hunt_and_kill(g, rng, s),
    "kruskal": lambda g, rng, s, e, o: kruskal(g, rng),
    "prim": lambda g, rng, s, e, o: prim(g, rng),
    "prim-simplified": lambda g, rng, s, e, o: prim_simplified(g, rng, s),
    "union-find": lambda g, rng, s, e, o: union_find(g, rng, s, e),
    "wilson": lambda g, rng, s, e, o: wilson(g, rng, g.cells // 2),
}
"""Every generator that runs on every grid: ``run(grid, rng, entrance cell, exit cell, options)``."""

PERFECT = frozenset(GRID_GENERATORS) - {"union-find"}
"""The grid generators whose mazes are spanning trees (one way between any two cells)."""

OPTIONS: Dict[str, Tuple[str, ...]] = {"growing-tree": ("strategy",)}


def check_grid_generator(algorithm: str, grid: str, options: Mapping[str, Any]) -> None:
    """A clear error when ``algorithm`` cannot run on ``grid``, or takes none of ``options`` there."""
    if algorithm not in GRID_GENERATORS and grid == "square":  # only a wrapping square comes here
        raise ValueError(f"algorithm {algorithm!r} cannot wrap; generators that take wrap=: "
                         f"{', '.join(sorted(GRID_GENERATORS))}")
    if algorithm not in GRID_GENERATORS:
        raise ValueError(
            f"algorithm {algorithm!r} runs only on the square grid, not grid={grid!r}; generators for "
            f"grid={grid!r}: {', '.join(sorted(GRID_GENERATORS))}"
        )
    unknown = sorted(set(options) - set(OPTIONS.get(algorithm, ())))
    if unknown:
        takes = ", ".join(OPTIONS.get(algorithm, ())) or "no options"
        raise TypeError(f"algorithm {algorithm!r} on grid={grid!r} takes {takes}; got {', '.join(unknown)}")
    if "strategy" in options:
        parse_strategy(options["strategy"])


def run_on_grid(algorithm: str, grid: Grid, rng: Random, start: int = 0, goal: Optional[int] = None,
                options: Optional[Mapping[str, Any]] = None) -> NDArray[np.bool_]:
    """``algorithm``'s passages on ``grid``: one bool per edge, True where open.

    ``start`` is the entrance cell (where growing generators begin), ``goal``
    the exit cell (where the union-find web stops; the last cell by default).
    """
    check_grid_generator(algorithm, grid.name, options or {})
    end = grid.cells - 1 if goal is None else goal
    return np.asarray(GRID_GENERATORS[algorithm](grid, rng, start, end, dict(options or {})), dtype=bool)
