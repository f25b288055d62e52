# Long module: the one placing engine and its views of every grid (issue 29): the square
# tiles', the cells' and a weave's, kept together so that each rule is written once.
"""Placing keys and locked doors, treasure, enemies and a game's own kinds: one engine, any level.

:func:`furnish` reads a level through a *view* of its graph: the cells of a
square level on the floor-tile graph of its base tilemap (:class:`_FloorPlaces`,
on :class:`~mazeplugin.content.graph.FloorGraph`: distances in tiles, two per
cell, spread in cells apart, patrols along tiles), the cells of a hex,
triangle, polar or wrapping square level on their open passages
(:class:`_CellPlaces`, on :class:`~mazeplugin.content.cells.CellGraph`:
distances and spread in passages walked, doors on passages), and a weave
level's cells joined by its passages and tunnels, drawn back onto its tiles
(:func:`place_woven`). A view numbers the *places* a thing may stand on (the
cells) and answers per place: its open sides, its steps up the entrance's
breadth-first tree to the direct route, its distance from the entrance and
whether it is free. The engine (:func:`place`) makes every choice the same way
on every view, drawing from the content stream of the seed (stream 3 of
:meth:`mazeplugin.Random.streams`, so the maze's own numbers never shift) in
one order:

1. ``noise`` (ties among equals): one number per place, drawn once.
2. **Keys and doors**: doors stand on places every entrance → exit walk
   crosses (on a square level a passage tile, a real doorway; on a graph a
   passage of the route that no part of the level off the route, and no
   passage between two route cells, bypasses; on a weave, over or under).
   Door ``i`` has its key between door ``i - 1`` and door ``i``, off the
   route, at the end of the side branch that costs the longest detour (dead
   ends first); doors are spread along the route
   (:func:`~mazeplugin.content.locks.plan_locks`), key ``i`` before door ``i``.
3. **Treasure**: dead ends farthest from the route first, then other places
   off it (with no route: dead ends first, by noise), spread wide: the spacing
   starts at ``sqrt(area / count) / 2`` and halves until all fit
   (:func:`~mazeplugin.content.choosing.widest`).
4. **Place** requests, in order: the places with the asked number of open
   sides, at least ``min_distance`` cells walked from the entrance, in a random
   order, ``spacing`` apart.
5. **Enemies**: free corridor places at least :data:`ENEMY_DISTANCE` cells
   walked from the entrance, in a random order, each patrolling a corridor
   stretch of at most ``2 * PATROL_CELLS + 1`` cells that avoids the direct
   route, every door and the way (up the breadth-first tree from the entrance)
   to every key, treasure or Place thing, spread wide: a level stays solvable,
   every thing reachable, without ever touching an enemy (where the level has
   loops an enemy may patrol another way, and the shortest walk may cross it).

No thing stands on the entrance or exit, or on another thing; on a weave, none
on a bridge tile and no patrol on a bridge or a tunnel's end. Distances a game
sets (``min_distance``, ``spacing``) are in cells walked or cells apart,
whatever the corridor and wall widths. A count that does not fit raises
``ValueError`` saying how many do.

>>> import mazeplugin as mp
>>> level = mp.generate("backtracker", 12, 9, seed=4, weave=True, keys=2, treasure=2, enemies=1)
>>> level.weave, [t.kind for t in level.things]
(True, ['key', 'door', 'key', 'door', 'treasure', 'treasure', 'enemy'])
>>> level.check()
"""

from __future__ import annotations

from functools import lru_cache
from typing import (Any, Callable, Collection, Dict, List, Optional, Protocol, Sequence, Set, Tuple,
                    cast)

import numpy as np
from numpy.typing import NDArray

from ..level import Level
from ..level_protocol import AnyLevel
from ..maze import Maze
from ..seeds import Random, Seed
from ..unionfind import component_roots, tree_roots
from .cells import CellGraph
from .choosing import corridor_stretch, where_allowed, widest
from .graph import FloorGraph
from .locks import crossed, key_candidates, plan_locks
from .request import (CONTENT_STREAM, ENEMY_DISTANCE, PATROL_CELLS, ContentRequest, Furnishable, check_request,
                      content_stream, with_content)
from .things import CellThing, Place, Thing

__all__ = ["furnish", "furnish_grid", "furnished", "grid_furnished", "place", "Places", "place_things",
           "place_cell_things", "place_woven", "woven_cells", "check_request", "with_content", "ContentRequest",
           "ENEMY_DISTANCE", "PATROL_CELLS", "CONTENT_STREAM"]

Tile = Tuple[int, int]
Accept = Optional[Callable[[int], bool]]


def furnish(
    level: Furnishable,
    *,
    keys: int = 0,
    treasure: int = 0,
    enemies: int = 0,
    place: Sequence[Place] = (),
    seed: Optional[Seed] = None,
) -> Furnishable:
    """A copy of ``level`` with content placed on it (its ``things``); the tiles stay the same.

    Args:
        level: any level (:class:`~mazeplugin.AnyLevel`: a generated one, a
            loaded one, a chunk of an endless world, a weave, a dungeon; on a
            square, wrapping, hex, triangle or polar grid). Square levels hold
            things on their tiles, the others on their cells
            (:class:`~mazeplugin.content.cells.CellThing`). Things it already has
            are kept and new ones get ids after them.
        keys: locked doors on the way from entrance to exit, each with its key
            (needs an entrance and an exit).
        treasure: treasure things, in dead ends farthest from the route first.
        enemies: enemies with patrol routes (see :data:`ENEMY_DISTANCE`).
        place: :class:`~mazeplugin.content.things.Place` requests for a game's own kinds.
        seed: whose content stream to draw from; default ``level.seed``.

    Raises ``ValueError`` saying how many fit when the level cannot hold a count.

    >>> import mazeplugin as mp
    >>> level = mp.generate("backtracker", 12, 8, seed=3)
    >>> rich = furnish(level, keys=1, treasure=3, place=[mp.Place("coin", 4, where="corridors")])
    >>> sorted({t.kind for t in rich.things})
    ['coin', 'door', 'key', 'treasure']
    >>> rich.tiles is level.tiles, level.things
    (True, ())
    >>> rich.check()   # every key before its door, every door needed
    >>> triangles = mp.generate("wilson", 8, 6, grid="triangle", seed=2)
    >>> sorted(t.kind for t in furnish(triangles, keys=1, treasure=2).things), triangles.things
    (['door', 'key', 'treasure', 'treasure'], ())
    """
    if not isinstance(level, AnyLevel):
        raise TypeError(f"level must be a mazeplugin Level or GridLevel, not {type(level).__name__}")
    k, t, e, requests = check_request(keys, treasure, enemies, place, cells=level.cells)
    rng = content_stream(level, seed)
    if level.kind == "square":  # square and weave levels: on their tiles
        return cast(Furnishable, furnished(cast(Level, level), rng, k, t, e, requests))
    return cast(Furnishable, grid_furnished(cast(Level, level), rng, k, t, e, requests))


furnish_grid = furnish
"""The old name of :func:`furnish` for grid levels (hex, triangle, polar, wrapping): the same function."""


def furnished(level: Level, rng: Random, k: int, t: int, e: int, requests: Tuple[Place, ...]) -> Level:
    """:func:`furnish` on a square or weave level, with the stream given and the arguments already checked
    (``generate`` calls this). A weave level is furnished on its cells and tunnels (:func:`place_woven`)."""
    if level.weave:
        return with_content(level, place_woven(level, rng, k, t, e, requests), k, t, e, requests)
    return with_content(level, place_things(level, rng, keys=k, treasure=t, enemies=e, place=requests),
                        k, t, e, requests)


def grid_furnished(level: Level, rng: Random, k: int, t: int, e: int, requests: Tuple[Place, ...]) -> Level:
    """:func:`furnish` on a grid level, with the stream given and the arguments checked (``generate`` calls this)."""
    made = place_cell_things(CellGraph.of(level.maze), level.entrance_cell, level.exit_cell, rng, keys=k, treasure=t,
                             enemies=e, place=requests, existing=level.things)
    return with_content(level, made, k, t, e, requests)


def place_things(level: Level, rng: Random, *, keys: int = 0, treasure: int = 0, enemies: int = 0,
                 place: Sequence[Place] = ()) -> Tuple[Thing, ...]:
    """The things :func:`furnish` adds to square ``level``, drawn from ``rng`` (arguments already checked)."""
    _need_markers(keys, level.entrance, level.exit, " other than 'none'")
    return tuple(_place(_FloorPlaces(level), rng, level.things, keys, treasure, enemies, place))


def place_cell_things(graph: CellGraph, entrance: Optional[int], exit: Optional[int], rng: Random, *,
                      keys: int = 0, treasure: int = 0, enemies: int = 0, place: Sequence[Place] = (),
                      existing: Sequence[CellThing] = (), bare: Collection[int] = (),
                      unpatrolled: Collection[int] = ()) -> Tuple[CellThing, ...]:
    """The things :func:`furnish` adds on the cells of ``graph``, drawn from ``rng`` (arguments already checked).

    ``bare`` cells hold no thing and ``unpatrolled`` ones no enemy's patrol (a weave's bridges and the
    ends of its tunnels, :func:`place_woven`); the numbers drawn do not depend on them.
    """
    _need_markers(keys, entrance, exit, "='border'")
    made = _place(_CellPlaces(graph, entrance, exit, existing, bare, unpatrolled), rng, existing, keys, treasure,
                  enemies, place)
    return tuple(sorted(made, key=lambda t: t.id))


def _need_markers(keys: int, entrance: Any, exit: Any, markers: str) -> None:
    if keys and (entrance is None or exit is None):
        raise ValueError(f"keys need a level with an entrance and an exit (markers{markers})")


def _place(places: "Places", rng: Random, existing: Sequence[Any], keys: int, treasure: int, enemies: int,
           requests: Sequence[Place]) -> List[Any]:
    return place(places, rng, max((t.id for t in existing), default=0) + 1, keys=keys, treasure=treasure,
                 enemies=enemies, requests=requests)


# -- the engine ------------------------------------------------------------------------------


class Places(Protocol):
    """What :func:`place` asks of a level's graph: a view holds the arrays and answers the methods.

    Attributes (one entry per place, numpy arrays):
        degree: open sides.
        dist_path: steps up the entrance's tree to the route (0 on it).
        distance: cells walked from the entrance (``min_distance``, enemies' distance).
        free: places that may still take a thing.
        has_route: whether the level has an entrance and an exit.
        area: the spread's area (``widest`` starts from ``sqrt(area / count) / 2``).
        floor_words: what places are called in "does not fit" without a route.
    """

    degree: NDArray[np.int64]
    dist_path: NDArray[np.int64]
    distance: NDArray[np.int64]
    free: NDArray[np.bool_]
    has_route: bool
    area: int
    floor_words: str

    def locks(self, keys: int, noise: NDArray[np.float64]) -> List[Tuple[Any, int]]:
        """``(door, key place)`` per lock, in the order the player meets them."""

    def thing(self, kind: str, place: int, id: int, props: Dict[str, Any]) -> Any:
        """A thing of ``kind`` on ``place``."""

    def door(self, door: Any, id: int, key: int, lock: int) -> Any:
        """The door thing of a planned ``door`` (its key's id ``key``, its ``lock`` number)."""

    def claim(self, place: int) -> None:
        """``place`` now holds a thing (patrols keep off it)."""

    def spread(self, order: NDArray[np.int64], count: int, spacing: int, accept: Accept = None) -> List[int]:
        """Up to ``count`` places of ``order``, taken greedily, none closer than ``spacing`` (the view's measure)."""

    def ways(self, claimed: List[int]) -> None:
        """Before the enemies: mark the route and the ways up the tree to the ``claimed`` places."""

    def patrol(self, place: int, patrolled: Set[int]) -> Optional[List[int]]:
        """The patrol of an enemy starting at ``place`` (its nodes added to ``patrolled``), or None."""

    def patrol_props(self, route: List[int]) -> Tuple[Any, ...]:
        """An enemy's ``props["patrol"]`` for ``route``."""


def place(places: Places, rng: Random, next_id: int, *, keys: int = 0, treasure: int = 0, enemies: int = 0,
          requests: Sequence[Place] = ()) -> List[Any]:
    """The things placed on ``places`` (see the module docstring), ids from ``next_id``."""
    free, degree, dist_path, has_route = places.free, places.degree, places.dist_path, places.has_route
    made: List[Any] = []
    claimed: List[int] = []

    def new(kind: str, where: int, props: Optional[Dict[str, Any]] = None) -> None:
        nonlocal next_id
        made.append(places.thing(kind, where, next_id, props or {}))
        next_id += 1

    def claim(where: int) -> None:
        free[where] = False
        claimed.append(where)
        places.claim(where)

    noise = rng.random(len(free)) * 0.5  # ties among equals, drawn once

    for lock, (door, key) in enumerate(places.locks(keys, noise) if keys else (), start=1):
        new("key", key, {"door": next_id + 1, "lock": lock})
        made.append(places.door(door, next_id, next_id - 1, lock))
        next_id += 1
        claim(key)

    if treasure:
        if has_route:
            score = np.where(dist_path > 0, dist_path + noise + np.where(degree == 1, 1e9, 0), -1.0)
        else:
            score = noise + np.where(degree == 1, 1.0, 0.0)
        fits = np.flatnonzero((score >= 0) & free)
        order = fits[np.argsort(-score[fits], kind="stable")]
        picks = widest(lambda spacing: places.spread(order, treasure, spacing), treasure, places.area)
        if len(picks) < treasure:
            where = "cells off the route" if has_route else places.floor_words
            raise ValueError(f"treasure={treasure} does not fit: this level has {len(picks)} free {where}")
        for pick in picks:
            new("treasure", pick)
            claim(pick)

    for request in requests:
        if not request.count:
            continue
        candidates = np.flatnonzero(where_allowed(request, free, degree, places.distance if has_route else None))
        order = candidates[rng.permutation(len(candidates))]
        picks = places.spread(order, request.count, request.spacing)
        if len(picks) < request.count:
            raise ValueError(
                f"Place({request.kind!r}, {request.count}, where={request.where!r}, "
                f"min_distance={request.min_distance}, spacing={request.spacing}) does not fit: "
                f"{len(picks)} such cells are free")
        for pick in picks:
            new(request.kind, pick)
            claim(pick)

    if enemies:
        places.ways(claimed)
        patrolled: Set[int] = set()
        fitting = free & (degree <= 2)
        if has_route:
            fitting &= places.distance >= ENEMY_DISTANCE
        candidates = np.flatnonzero(fitting)
        order = candidates[rng.permutation(len(candidates))]
        routes: Dict[int, List[int]] = {}

        def accept(where: int) -> bool:
            route = places.patrol(where, patrolled)
            if route is None:
                return False
            routes[where] = route
            return True

        picks = widest(lambda spacing: places.spread(order, enemies, spacing, accept), enemies, places.area,
                       patrolled)
        if len(picks) < enemies:
            raise ValueError(
                f"enemies={enemies} does not fit: this level has room for {len(picks)} patrols "
                f"(each at least {ENEMY_DISTANCE} cells from the entrance, off every walk to the exit, "
                "a key or treasure)")
        for pick in picks:
            new("enemy", pick, {"patrol": places.patrol_props(routes[pick])})
            free[pick] = False
    return made


# -- what every view shares: claims, the ways to keep open and an enemy's patrol ------------------


class _Walks:
    """A view's graph of *nodes* an enemy walks (floor tiles, or cells): what a view sets, the rules it shares.

    ``node[place]`` is a place's node; ``route`` and ``parent`` the direct route and the entrance's
    breadth-first tree over the nodes (:meth:`parents`); ``walk_ok``, ``walk_degree`` and ``walk_distance`` each node's
    fitness, open sides and steps from the entrance; ``scale`` the steps a cell takes (2 on tiles);
    ``taken`` the nodes a patrol keeps off (markers, things); ``steps(node)`` a node's neighbours in order.
    """

    node: NDArray[np.int64]
    route: Sequence[int]
    nodes: int
    walk_ok: Any
    walk_degree: Any
    walk_distance: Any
    scale: int
    has_route: bool
    taken: Set[int]
    steps: Callable[[int], Sequence[int]]
    needed = bytearray()

    def parents(self) -> Sequence[int]:
        """Each node's parent in the entrance's breadth-first tree (-1: none)."""
        raise NotImplementedError

    def claim(self, place: int) -> None:
        self.taken.add(int(self.node[place]))

    def ways(self, claimed: List[int]) -> None:
        """The route, the claimed places' nodes and every node on their ways up the tree to it."""
        self.needed = marks = bytearray(self.nodes)
        for i in self.route:
            marks[i] = 1
        parent = self.parents()
        for i in (int(self.node[n]) for n in claimed):
            while i >= 0 and not marks[i]:
                marks[i] = 1
                i = parent[i]

    def patrol(self, place: int, patrolled: Set[int]) -> Optional[List[int]]:
        """A corridor stretch of walkable nodes through ``place``'s node, ``PATROL_CELLS`` cells each way at most."""
        ok, needed, taken, degree, dist = self.walk_ok, self.needed, self.taken, self.walk_degree, self.walk_distance
        far = self.scale * ENEMY_DISTANCE if self.has_route else 0

        def walkable(i: int) -> bool:
            return bool(ok[i] and not needed[i] and i not in taken and i not in patrolled and degree[i] <= 2
                        and (not far or dist[i] >= far))

        i = int(self.node[place])
        if not walkable(i):
            return None
        route = corridor_stretch(self.steps, i, walkable, self.scale * PATROL_CELLS)
        if len(route) < self.scale + 1:  # a patrol moves, a cell at least
            return None
        patrolled.update(route)
        return route


# -- a square level: its cells on the floor-tile graph of its base tilemap ---------------------------


@lru_cache(maxsize=64)
def _cell_tiles(width: int, height: int, stride: int) -> NDArray[np.int64]:
    """The floor graph's index of each cell's base tile, cells in row order (read-only: shared)."""
    flat = ((2 * np.arange(height)[:, None] + 1 + 1) * stride + 2 * np.arange(width) + 1 + 1).ravel()
    flat.setflags(write=False)
    return flat


class _Blocks:
    """Where a base tile's block lies in the level's tiles."""

    def __init__(self, level: Level) -> None:
        layout = level.layout
        # Python ints: the things made from these are not re-checked (Thing.made).
        self.corridor, self.wall, self.pitch = int(layout.corridor), int(layout.wall), int(layout.pitch)

    def span(self, b: int) -> Tuple[int, int]:
        k, odd = divmod(b, 2)
        start = k * self.pitch + (self.wall if odd else 0)
        return start, start + (self.corridor if odd else self.wall)

    def middle(self, base: Tile) -> Tile:
        (x0, x1), (y0, y1) = self.span(base[0]), self.span(base[1])
        return (x0 + (x1 - x0 - 1) // 2, y0 + (y1 - y0 - 1) // 2)

    def tiles(self, base: Tile) -> List[Tile]:
        (x0, x1), (y0, y1) = self.span(base[0]), self.span(base[1])
        return [(x, y) for y in range(y0, y1) for x in range(x0, x1)]

    def walk(self, route: List[Tile]) -> List[Tile]:
        """The 4-adjacent tiles through the middles of a route's blocks."""
        out = [self.middle(route[0])]
        for b in route[1:]:
            tx, ty = self.middle(b)
            x, y = out[-1]
            while (x, y) != (tx, ty):
                x += (tx > x) - (tx < x)
                if x == tx:
                    y += (ty > y) - (ty < y)
                out.append((x, y))
        return out


class _FloorPlaces(_Walks):
    """A square level's cells as the engine's places, on the floor graph of its base tilemap: distances
    in tiles (two per cell), spread in cells (Chebyshev), patrols along floor tiles."""

    floor_words = "floor cells"
    scale = 2

    def __init__(self, level: Level) -> None:
        layout = level.layout
        entrance = layout.base_of(level.entrance) if level.entrance is not None else None
        exit_ = layout.base_of(level.exit) if level.exit is not None else None
        if entrance is None or exit_ is None:
            entrance = exit_ = None
        self.g = g = FloorGraph(level.base_tiles, entrance, exit_)
        self.blocks = _Blocks(level)
        self.has_route = has_route = bool(g.path)
        # Places: floor cells reached from the entrance (or any floor cell without markers), not a marker's cell.
        flat = _cell_tiles(level.width, level.height, g.stride)
        floor = g.floor[flat]
        dist_e = g.dist_entrance[flat].astype(np.int64)
        usable = floor & (dist_e >= 0) if has_route else floor.copy()
        self.taken = set()
        for marker in (level.entrance, level.exit):
            if marker is not None:
                mx, my = layout.cell_of(marker)
                usable[my * level.width + mx] = False
                self.taken.add(g.index(layout.base_of(marker)))
        for thing in level.things:  # things already there
            for tile in thing.tiles():
                bx, by = layout.base_of(tile)
                self.taken.add(g.index((bx, by)))
                if bx % 2 == 1 and by % 2 == 1:
                    usable[(by // 2) * level.width + bx // 2] = False
        self.node = flat[usable]
        cell_ids = np.flatnonzero(usable)
        self.cell_x, self.cell_y = cell_ids % level.width, cell_ids // level.width
        self.degree = g.degree[self.node].astype(np.int64)
        self.dist_path = g.dist_path[self.node].astype(np.int64)
        self.distance = dist_e[usable] // 2
        self.free = np.ones(len(cell_ids), dtype=bool)
        self.area = len(cell_ids)
        self._blocked = np.zeros((level.height, level.width), dtype=bool)
        self._order: Optional[NDArray[np.int64]] = None
        self._xy: Tuple[NDArray[np.int64], NDArray[np.int64]] = (self.cell_x, self.cell_y)
        self.route, self.nodes, self.steps = g.path, len(g.floor), g.neighbours
        self.walk_ok, self.walk_degree, self.walk_distance = g.floor, g.degree, g.dist_entrance

    def parents(self) -> Sequence[int]:
        return self.g.parents()

    def locks(self, keys: int, noise: NDArray[np.float64]) -> List[Tuple[Any, int]]:
        """``(door tile index, key cell number)`` per lock, in the order the player meets them."""
        g = self.g
        cuts = g.separators()
        if g.fast is not None:  # the same arrays in one pass (mazeplugin/_compiled/content.py)
            doors, highs, order, score = g.fast.lock_candidates(g.route, cuts, g.degree, g.stride, g.touch_high,
                                                                self.node, self.dist_path, noise, self.degree)
        else:
            at = g.route[cuts]
            # A doorway: two floor neighbours, between two cells (exactly one odd base coordinate).
            row, column = at // g.stride - 1, at % g.stride - 1
            doors = cuts[(g.degree[at] == 2) & ((row % 2) != (column % 2))]
            order, highs, score = key_candidates(g.touch_high[self.node], self.dist_path, self.degree, noise)
        return [(g.path[door], key) for door, key in plan_locks(keys, len(g.path), doors, highs, order, score)]

    def thing(self, kind: str, place: int, id: int, props: Dict[str, Any]) -> Thing:
        x, y = self.blocks.middle((2 * int(self.cell_x[place]) + 1, 2 * int(self.cell_y[place]) + 1))
        return Thing.made(kind, x, y, id, props)  # fields right by construction: not re-checked

    def door(self, door: Any, id: int, key: int, lock: int) -> Thing:
        self.taken.add(door)
        base = self.g.xy(door)
        x, y = self.blocks.middle(base)
        return Thing.made("door", x, y, id, {"key": key, "lock": lock, "tiles": tuple(self.blocks.tiles(base))})

    def spread(self, order: NDArray[np.int64], count: int, spacing: int, accept: Accept = None) -> List[int]:
        """Greedy picks of ``order``, no two closer than ``spacing`` cells (Chebyshev)."""
        if order is not self._order:  # (widest asks again with a smaller spacing: the same order)
            self._order, self._xy = order, (self.cell_x[order], self.cell_y[order])
        xs, ys = self._xy
        blocked = self._blocked
        blocked[:] = False
        chosen: List[int] = []
        r = spacing - 1
        # Candidates are read in chunks: usually only the first few are needed.
        for start in range(0, len(xs), 256):
            chunk = zip(order[start:start + 256].tolist(), xs[start:start + 256].tolist(), ys[start:start + 256].tolist())
            for n, cx, cy in chunk:
                if blocked[cy, cx] or (accept is not None and not accept(n)):
                    continue
                chosen.append(n)
                if len(chosen) == count:
                    return chosen
                blocked[max(cy - r, 0):cy + r + 1, max(cx - r, 0):cx + r + 1] = True
        return chosen

    def patrol_props(self, route: List[int]) -> Tuple[Tile, ...]:
        return tuple(self.blocks.walk([self.g.xy(i) for i in route]))


# -- a graph level: its cells on their open passages ------------------------------------------------


class _CellPlaces(_Walks):
    """A graph level's cells as the engine's places: distances and spread in passages walked."""

    floor_words = "cells"
    scale = 1

    def __init__(self, graph: CellGraph, entrance: Optional[int], exit: Optional[int],
                 existing: Sequence[CellThing], bare: Collection[int], unpatrolled: Collection[int]) -> None:
        n = self.area = self.nodes = graph.cells
        self.graph = graph
        self.has_route = entrance is not None and exit is not None
        self.degree = self.walk_degree = graph.degree
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
        self.parent, self.distance, self.walk_distance = parent, dist_e, dist_e
        self.free = self.walk_ok = dist_e >= 0
        self.taken = {m for m in (entrance, exit) if m is not None}
        self.taken.update(thing.cell for thing in existing if thing.kind != "door")
        self.free[list(self.taken)] = False
        self.free[list(bare)] = False
        self.taken.update(unpatrolled)
        self.node = np.arange(n)
        self.steps = lambda cell: [other for other, _edge in graph.steps(cell)]

    def parents(self) -> Sequence[int]:
        return self.parent

    def locks(self, keys: int, noise: NDArray[np.float64]) -> List[Tuple[Any, int]]:
        plan = _plan_doors(self.graph, self.route, keys, self.free, self.degree, self.dist_path, noise)
        return [((edge, cells), key) for edge, cells, key in plan]

    def thing(self, kind: str, place: int, id: int, props: Dict[str, Any]) -> CellThing:
        return CellThing(kind, place, id, props)

    def door(self, door: Any, id: int, key: int, lock: int) -> CellThing:
        edge, (before, after) = door
        return CellThing("door", before, id, {"edge": edge, "cells": [before, after], "key": key, "lock": lock})

    def spread(self, order: NDArray[np.int64], count: int, spacing: int, accept: Accept = None) -> List[int]:
        """Greedy picks of ``order``, no two closer than ``spacing`` passages walked."""
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

    def patrol_props(self, route: List[int]) -> Tuple[int, ...]:
        return tuple(route)


def _steps_to_route(parent: NDArray[np.int64], dist: NDArray[np.int64], route: Sequence[int]) -> NDArray[np.int64]:
    """Steps up the breadth-first tree from each reached cell to the route (0 on it), as the square
    levels measure a side branch; by pointer jumping, a few numpy passes however deep the tree."""
    n = len(parent)
    here = np.arange(n, dtype=np.int64)
    on_route = np.zeros(n, dtype=bool)
    on_route[route] = True
    anchor = tree_roots(np.where(on_route | (parent < 0), here, parent))  # a route cell is a root
    return np.where(dist >= 0, dist - dist[anchor], 0)


def _plan_doors(graph: CellGraph, route: Sequence[int], keys: int, free: NDArray[np.bool_], degree: NDArray[np.int64],
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


# -- a weave level: placed on its cells joined by passages and tunnels, drawn on its tiles ---------


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
    """The things :func:`furnish` adds to weave ``level``: placed on its cells (:func:`woven_cells`), a door
    on a passage every walk crosses, over or under (on a tunnel, on its tile beside the bridge, on the
    entrance's side), then drawn on its tiles as on any square level (a door's ``props["tiles"]`` is its one
    tile) and proved on the tiles' two layers (:class:`~mazeplugin.content.cells.TileNodes`)."""
    _need_markers(keys, level.entrance, level.exit, " other than 'none'")
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
