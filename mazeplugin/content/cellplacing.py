"""Placing keys and locked doors, treasure, enemies and a game's own kinds on a grid level's cells.

The grid counterpart of :mod:`mazeplugin.content.placing`, on the graph of
cells and open passages (:class:`~mazeplugin.content.cells.CellGraph`), so it
serves hex, triangle, polar and wrapping square levels alike, loops from
``braid=`` included:

- **Doors** stand on passages of the direct route that every walk from the
  entrance to the exit crosses: a route passage that no part of the level
  off the route, and no passage between two route cells, bypasses. Which of
  them hold a lock, and which cell holds each key, is the plan the square
  levels use (:func:`~mazeplugin.content.locks.plan_locks`): the key of door
  ``i`` lies between door ``i - 1`` and door ``i``, off the route, at the end
  of the side branch that costs the longest detour (dead ends first).
- **Treasure**: dead ends farthest from the route first, then other cells
  off the route; **Place** requests: cells with the asked number of open
  passages, ``min_distance`` passages from the entrance. Both spread out: no
  two closer than a spacing in passages walked, which starts wide and halves
  until all fit (``Place.spacing`` is the least).
- **Enemies** start at least :data:`~mazeplugin.content.request.ENEMY_DISTANCE`
  passages from the entrance and patrol a corridor stretch of at most
  ``2 * PATROL_CELLS + 1`` cells that keeps off the route, every door, and
  the way (up the breadth-first tree from the entrance) to every key,
  treasure and Place thing: the level is solvable without touching one.

No thing stands on the entrance or exit cell. Every choice among equals
draws from the content stream (stream 3 of the seed), so a grid level's
passages never change with its content.

**Weave levels** (:func:`place_woven`) are square levels whose bridge tiles
are two places, the bridge and the tunnel under it, so their floor tiles are
not their passage graph. They are furnished here, on the graph of their cells
joined by their open passages and one passage per tunnel
(:func:`woven_cells`): a door stands on a passage every walk crosses, over or
under (on a tunnel, on its tile beside the bridge, on the entrance's side);
no thing stands on a bridge tile and no enemy patrols a bridge or a tunnel's
end. The things are then drawn on the tiles as on any square level
(:class:`~mazeplugin.content.things.Thing`; a door's ``props["tiles"]`` is its
one tile) and proved on the tiles' two layers
(:class:`~mazeplugin.content.cellproof.TileNodes`).

>>> import mazeplugin as mp
>>> level = mp.generate("backtracker", 12, 9, seed=4, weave=True, keys=2, treasure=2, enemies=1)
>>> level.weave, [t.kind for t in level.things]
(True, ['key', 'door', 'key', 'door', 'treasure', 'treasure', 'enemy'])
>>> level.check()
"""

from __future__ import annotations

from typing import Any, Collection, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np
from numpy.typing import NDArray

from ..grid_level import GridLevel
from ..level import Level
from ..maze import Maze
from ..seeds import Random
from ..unionfind import component_roots, tree_roots
from .cells import CellGraph, CellThing
from . import engine
from .choosing import corridor_stretch
from .locks import crossed, key_candidates, plan_locks
from .request import ENEMY_DISTANCE, PATROL_CELLS, ContentRequest, with_content
from .things import Place, Thing

Tile = Tuple[int, int]

__all__ = ["grid_furnished", "place_cell_things", "place_woven", "woven_cells", "ContentRequest"]


def grid_furnished(level: GridLevel, rng: Random, k: int, t: int, e: int, requests: Tuple[Place, ...]) -> GridLevel:
    """:func:`~mazeplugin.content.furnish` on a grid level, with the stream given and the arguments checked
    (``generate`` calls this)."""
    made = place_cell_things(CellGraph.of(level.maze), level.entrance_cell, level.exit_cell, rng, keys=k, treasure=t,
                             enemies=e, place=requests, existing=level.things)
    return with_content(level, made, k, t, e, requests)


def place_cell_things(graph: CellGraph, entrance: Optional[int], exit: Optional[int], rng: Random, *,
                      keys: int = 0, treasure: int = 0, enemies: int = 0, place: Sequence[Place] = (),
                      existing: Sequence[CellThing] = (), bare: Collection[int] = (),
                      unpatrolled: Collection[int] = ()) -> Tuple[CellThing, ...]:
    """The things :func:`grid_furnished` adds, drawn from ``rng`` (arguments already checked).

    ``bare`` cells hold no thing and ``unpatrolled`` ones no enemy's patrol (a weave's bridges and the
    ends of its tunnels, :func:`place_woven`); the numbers drawn do not depend on them.
    """
    if keys and (entrance is None or exit is None):
        raise ValueError("keys need a level with an entrance and an exit (markers='border')")
    places = _CellPlaces(graph, entrance, exit, existing, bare, unpatrolled)
    next_id = max((t.id for t in existing), default=0) + 1
    made = engine.place(places, rng, next_id, keys=keys, treasure=treasure, enemies=enemies, requests=place)
    return tuple(sorted(made, key=lambda t: t.id))


class _CellPlaces:
    """A graph level's cells as the engine's places: distances and spread in passages walked."""

    def __init__(self, graph: CellGraph, entrance: Optional[int], exit: Optional[int],
                 existing: Sequence[CellThing], bare: Collection[int], unpatrolled: Collection[int]) -> None:
        n = self.area = graph.cells
        self.graph, self.unpatrolled = graph, unpatrolled
        self.has_route = entrance is not None and exit is not None
        self.degree = graph.degree
        if entrance is not None and exit is not None:
            dist_list, parent = graph.search([entrance])
            dist_e = np.asarray(dist_list, dtype=np.int64)
            if dist_e[exit] < 0:
                raise ValueError("the exit cannot be reached from the entrance")
            self.route = graph.way(parent, exit)
            self.dist_path = _steps_to_route(np.asarray(parent, dtype=np.int64), dist_e, self.route)
        else:
            dist_e = np.zeros(n, dtype=np.int64)
            parent, self.route = [-1] * n, []
            self.dist_path = np.zeros(n, dtype=np.int64)
        self.parent, self.distance = parent, dist_e
        self.free = dist_e >= 0
        self.taken: Set[int] = {m for m in (entrance, exit) if m is not None}
        for thing in existing:
            if thing.kind != "door":
                self.taken.add(thing.cell)
        self.free[list(self.taken)] = False
        self.free[list(bare)] = False
        self.floor_words = "cells"
        self.needed: Set[int] = set()

    def locks(self, keys: int, noise: NDArray[np.float64]) -> List[Tuple[Any, int]]:
        plan = _plan_doors(self.graph, self.route, keys, self.free, self.degree, self.dist_path, noise)
        return [((edge, cells), key) for edge, cells, key in plan]

    def thing(self, kind: str, place: int, id: int, props: Dict[str, Any]) -> CellThing:
        return CellThing(kind, place, id, props)

    def door(self, door: Any, id: int, key: int, lock: int) -> CellThing:
        edge, (before, after) = door
        return CellThing("door", before, id, {"edge": edge, "cells": [before, after], "key": key, "lock": lock})

    def claim(self, place: int) -> None:
        pass  # (a claimed cell is no longer free, which patrols read)

    def spread(self, order: NDArray[np.int64], count: int, spacing: int,
               accept: engine.Accept = None) -> List[int]:
        blocked = bytearray(self.graph.cells)
        chosen: List[int] = []
        for cell in order.tolist():
            if blocked[cell] or (accept is not None and not accept(cell)):
                continue
            chosen.append(cell)
            if len(chosen) == count:
                break
            frontier = [cell]
            blocked[cell] = 1
            for _ in range(spacing - 1):  # cells within spacing - 1 passages are too close
                following = []
                for c in frontier:
                    for other, _edge in self.graph.steps(c):
                        if not blocked[other]:
                            blocked[other] = 1
                            following.append(other)
                frontier = following
        return chosen

    def ways(self, claimed: List[int]) -> None:
        self.needed = needed = set(self.route)
        for cell in claimed:
            while cell >= 0 and cell not in needed:
                needed.add(cell)
                cell = self.parent[cell]

    def neighbours(self, cell: int) -> List[int]:
        return [other for other, _edge in self.graph.steps(cell)]

    def patrol(self, place: int, patrolled: Set[int]) -> Optional[List[int]]:
        far = ENEMY_DISTANCE if self.has_route else 0
        free, degree, dist_e = self.free, self.degree, self.distance

        def walkable(cell: int) -> bool:
            return (cell not in self.needed and cell not in self.taken and cell not in patrolled and bool(free[cell])
                    and degree[cell] <= 2 and dist_e[cell] >= far and cell not in self.unpatrolled)

        if not walkable(place):
            return None
        walk = corridor_stretch(self.neighbours, place, walkable, PATROL_CELLS)
        if len(walk) < 2:  # a patrol moves
            return None
        patrolled.update(walk)
        return walk

    def patrol_props(self, route: List[int]) -> Tuple[int, ...]:
        return tuple(route)


def _steps_to_route(parent: NDArray[np.int64], dist: NDArray[np.int64], route: List[int]) -> NDArray[np.int64]:
    """Steps up the breadth-first tree from each reached cell to the route (0 on it), as the square
    levels measure a side branch; by pointer jumping, a few numpy passes however deep the tree."""
    n = len(parent)
    here = np.arange(n, dtype=np.int64)
    on_route = np.zeros(n, dtype=bool)
    on_route[route] = True
    anchor = tree_roots(np.where(on_route | (parent < 0), here, parent))  # a route cell is a root
    return np.where(dist >= 0, dist - dist[anchor], 0)


def _plan_doors(graph: CellGraph, route: List[int], keys: int, free: NDArray[np.bool_], degree: NDArray[np.int64],
                dist_path: NDArray[np.int64], noise: NDArray[np.float64]) -> List[Tuple[int, Tuple[int, int], int]]:
    """``(door edge, (cell before, cell after), key cell)`` per lock, in the order the player meets them.

    Route positions interleave cells and passages: route cell ``i`` is
    position ``2i``, the passage after it ``2i + 1``, so the plan of
    :func:`~mazeplugin.content.locks.plan_locks` reads them as one line.
    """
    n = graph.cells
    index = np.full(n, -1, dtype=np.int64)
    index[route] = np.arange(len(route))
    on_route = index >= 0
    passages = graph.edges[graph.open]
    a, b = passages[:, 0], passages[:, 1]
    # Parts of the level off the route, and the route cells each touches (lowest and highest).
    both_off = ~on_route[a] & ~on_route[b]
    part = component_roots(n, a[both_off], b[both_off])
    lo = np.full(n, len(route), dtype=np.int64)
    hi = np.full(n, -1, dtype=np.int64)
    for side, other in ((a, b), (b, a)):
        touching = ~on_route[side] & on_route[other]
        np.minimum.at(lo, part[side[touching]], index[other[touching]])
        np.maximum.at(hi, part[side[touching]], index[other[touching]])
    spans = [(lo[p], hi[p]) for p in np.flatnonzero(hi - lo >= 1).tolist()]
    chord = on_route[a] & on_route[b] & (np.abs(index[a] - index[b]) > 1)
    spans += list(zip(np.minimum(index[a], index[b])[chord].tolist(), np.maximum(index[a], index[b])[chord].tolist()))
    # A part or a chord from route cell low to high bypasses the passages between: doors on passages crossed.
    door_at = crossed(2 * len(route) - 1, [(2 * low, 2 * high) for low, high in spans])
    door_at = door_at[door_at % 2 == 1]
    order, highs, score = key_candidates(np.where(on_route, -1, hi[part]), dist_path, degree, noise, free)
    plan = []
    for position, key in plan_locks(keys, 2 * len(route) - 1, door_at, 2 * highs, order, score):
        before, after = route[(position - 1) // 2], route[(position + 1) // 2]
        plan.append((graph.edge(before, after), (before, after), key))
    return plan


# -- a weave level: placed on its cells joined by passages and tunnels ----------------------


def woven_cells(maze: Maze) -> Tuple[CellGraph, Dict[int, int]]:
    """The graph of ``maze``'s cells (``y * width + x``) joined by its open passages and its tunnels, and
    the bridge cell of each tunnel's edge number (edges: east passages, south passages, then tunnels).

    >>> import mazeplugin as mp
    >>> maze = mp.generate("kruskal", 6, 5, seed=1, weave=True).maze
    >>> graph, tunnels = woven_cells(maze)
    >>> int(graph.degree.sum()) == 2 * (len(maze.passages()[0]) + len(tunnels))
    True
    """
    h, w = maze.height, maze.width
    ids = np.arange(h * w, dtype=np.int64).reshape(h, w)
    a, bridge, b = maze.under_passages()
    east = np.stack([ids[:, :-1].ravel(), ids[:, 1:].ravel()], axis=1)
    south = np.stack([ids[:-1, :].ravel(), ids[1:, :].ravel()], axis=1)
    edges = np.concatenate([east, south, np.stack([a, b], axis=1)])
    open_ = np.concatenate([maze.east[:, :-1].ravel(), maze.south[:-1, :].ravel(), np.ones(len(a), dtype=bool)])
    first = len(east) + len(south)
    return CellGraph(h * w, edges, open_), {first + k: int(c) for k, c in enumerate(bridge.tolist())}


def place_woven(level: Level, rng: Random, keys: int, treasure: int, enemies: int,
                place: Sequence[Place]) -> Tuple[Thing, ...]:
    """The things :func:`~mazeplugin.content.furnish` adds to weave ``level`` (see the module docstring)."""
    maze, layout = level.maze, level.layout
    w: int = maze.width
    graph, tunnels = woven_cells(maze)

    def cell(tile: Tile) -> int:
        x, y = layout.cell_of(tile)
        return y * w + x

    def tile(c: int) -> Tile:
        return (2 * (c % w) + 1, 2 * (c // w) + 1)

    def between(c: int, d: int) -> Tile:
        (x0, y0), (x1, y1) = tile(c), tile(d)
        return ((x0 + x1) // 2, (y0 + y1) // 2)

    bridges = set(tunnels.values())
    ends = {int(c) for pair in graph.edges[list(tunnels)].tolist() for c in pair} if tunnels else set()
    existing = [CellThing("held", cell(t), thing.id) for thing in level.things for t in thing.tiles()]
    entrance = cell(level.entrance) if level.entrance is not None else None
    exit_ = cell(level.exit) if level.exit is not None else None
    made = []
    for thing in place_cell_things(graph, entrance, exit_, rng, keys=keys, treasure=treasure, enemies=enemies,
                                   place=place, existing=existing, bare=bridges, unpatrolled=bridges | ends):
        x, y = tile(thing.cell)
        props: Dict[str, Any] = {}
        if thing.kind == "door":
            before, after = thing.props["cells"]
            x, y = between(before, tunnels.get(int(thing.props["edge"]), after))
            props = {"key": thing.props["key"], "lock": thing.props["lock"], "tiles": ((x, y),)}
        elif thing.kind == "key":
            props = {"door": thing.props["door"], "lock": thing.props["lock"]}
        elif thing.kind == "enemy":
            route = list(thing.props["patrol"])
            walk = [tile(route[0])]
            for c, d in zip(route, route[1:]):
                walk += [between(c, d), tile(d)]
            props = {"patrol": tuple(walk)}
        made.append(Thing.made(thing.kind, x, y, thing.id, props))
    return tuple(made)
