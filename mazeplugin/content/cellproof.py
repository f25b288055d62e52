"""Proving content on a graph of cells: the key-aware solver and the checks behind a grid level's ``check()``.

The counterpart of :mod:`mazeplugin.content.proof` for levels that are
graphs (hex, triangle, polar, wrapping square; see
:mod:`mazeplugin.content.cells`), with the same promises: each door's
passage is shut until its key is held, a key is picked up by walking onto
its cell.

:func:`check_cells` floods from the entrance opening the doors in lock order:
each key is reached with only the earlier doors open and the exit is not; the
exit is reached with every door open; each door is needed on its own (shut,
with every other door open, the exit is not reached); no thing but a door
stands on the entrance or exit cell; every enemy's patrol is a walk along open
passages through no door, and with every patrol cell blocked the keys, the
exit and every treasure and game thing are still reached in order.

:func:`solve_cells` is a shortest-path search over states *(where, keys
held)* — Dijkstra over the entrance and the key cells, each step a
breadth-first search with the doors whose keys are not held shut — bounded by
:data:`~mazeplugin.limits.MAX_SOLVE_STEPS` like the square solver.

Both run on any graph of nodes (:func:`solve_nodes`, :func:`check_lock_order`,
:func:`check_doors_needed`): a grid level's cells, whose doors shut one
passage each, and a weave level's tiles (:class:`TileNodes`: one node per
floor tile and one more under each bridge tile, joined as a walker steps),
where a thing stands on top, a door shuts every passage into its tiles (both
layers of a bridge tile) and a patrol walls its tiles: what
:func:`mazeplugin.content.check` and :func:`~mazeplugin.content.solve` use on a
level with ``bridges`` (:func:`check_woven`, :func:`solve_woven`).
"""

from __future__ import annotations

import heapq
from typing import Any, Callable, Collection, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple, TypeVar

import numpy as np
from numpy.typing import NDArray

from ..limits import MAX_SOLVE_STEPS
from ..unionfind import component_roots
from ..maze import UNDER_EAST_WEST, UNDER_NORTH_SOUTH
from .cells import CellGraph, CellThing
from .things import ContentError, Thing

Tile = Tuple[int, int]

__all__ = ["check_cells", "solve_cells", "solve_nodes", "best_walk", "DoorPieces", "locks_of", "Lock", "check_lock_order", "check_doors_needed",
           "TileNodes", "solve_woven", "at_tile", "check_ids", "in_lock_order"]


def locks_of(things: Sequence[Any], where: Callable[[Any], str]) -> Tuple[Dict[int, Any], Dict[int, Any]]:
    """``(doors by id, keys by id)``, each door and key linked both ways (``ContentError`` otherwise; ``where(thing)``
    places a thing in the message)."""
    doors = {t.id: t for t in things if t.kind == "door"}
    keys = {t.id: t for t in things if t.kind == "key"}
    for door in doors.values():
        found = keys.get(door.props.get("key", -1))
        if found is None or found.props.get("door") != door.id:
            raise ContentError(f"door {door.id} {where(door)} has no key whose props['door'] is {door.id}")
    for key in keys.values():
        opens = doors.get(key.props.get("door", -1))
        if opens is None or opens.props.get("key") != key.id:
            raise ContentError(f"key {key.id} {where(key)} opens no door (props['door'] = {key.props.get('door')!r})")
    return doors, keys


def in_lock_order(doors: Dict[int, Any]) -> List[Any]:
    """The doors in the order their locks are met (``props["lock"]``, then id)."""
    return sorted(doors.values(), key=lambda d: (d.props.get("lock", 0), d.id))


def check_ids(things: Sequence[Any]) -> None:
    """Every thing's id its own, in ascending order (``ContentError`` otherwise): both proofs begin here."""
    ids = [t.id for t in things]
    if len(set(ids)) != len(ids):
        raise ContentError("two things share an id")
    if ids != sorted(ids):
        raise ContentError("things are not sorted by id")


def solve_cells(graph: CellGraph, entrance: int, exit: int, things: Sequence[CellThing]) -> Optional[List[int]]:
    """The shortest walk of cells from ``entrance`` to ``exit`` that holds each door's key before passing it.

    None when there is none. A cell may come twice (a walk to a key and
    back). ``ValueError`` naming :data:`~mazeplugin.limits.MAX_SOLVE_STEPS`
    when the keys can be picked up in too many orders to search.

    >>> from mazeplugin.grids import GridMaze, TriangleGrid
    >>> maze = GridMaze(TriangleGrid(4, 1))
    >>> maze.link(0, 1); maze.link(1, 2); maze.link(2, 3)
    >>> g = CellGraph.of(maze)
    >>> door = CellThing("door", 1, 2, {"edge": g.edge(1, 2), "cells": [1, 2], "key": 1, "lock": 1})
    >>> solve_cells(g, 1, 3, [CellThing("key", 0, 1, {"door": 2, "lock": 1}), door])
    [1, 0, 1, 2, 3]
    """
    doors, keys = locks_of(things, _in_cell)
    key_ids = sorted(keys)
    return solve_nodes(graph, entrance, exit, [keys[k].cell for k in key_ids],
                       [(int(doors[keys[k].props["door"]].props["edge"]),) for k in key_ids])


def solve_nodes(graph: CellGraph, entrance: int, exit: int, key_nodes: Sequence[int],
                door_edges: Sequence[Collection[int]]) -> Optional[List[int]]:
    """The shortest walk of nodes from ``entrance`` to ``exit`` that reaches ``key_nodes[n]`` before passing
    any passage of ``door_edges[n]`` (the passages key ``n``'s door shuts): :func:`solve_cells` on any graph
    of nodes (a grid's cells, or a weave's tiles, :class:`TileNodes`). None when there is none."""
    points = [entrance] + list(key_nodes)
    count = len(key_nodes)
    searched: Dict[Tuple[int, int], Tuple[List[int], List[int]]] = {}

    def search(point: int, held: int) -> Tuple[List[int], List[int]]:
        found = searched.get((point, held))
        if found is None:
            if len(searched) * max(count, 1) > MAX_SOLVE_STEPS // max(graph.cells, 1) + count + 1:
                raise ValueError(
                    f"this level's {count} keys can be picked up in too many orders: solving it would take "
                    f"more than {MAX_SOLVE_STEPS:,} steps (mazeplugin.limits.MAX_SOLVE_STEPS)")
            shut = [e for n, edges in enumerate(door_edges) if not held >> n & 1 for e in edges]
            found = searched[(point, held)] = graph.search([points[point]], shut=shut)
        return found

    def distances(point: int, held: int) -> List[int]:
        dist = search(point, held)[0]
        return [dist[p] for p in points[1:]] + [dist[exit]]

    targets = points[1:] + [exit]
    return best_walk(count, distances, lambda point, held, target: graph.way(search(point, held)[1], targets[target]))


Step = TypeVar("Step")


def best_walk(count: int, distances: Callable[[int, int], Sequence[int]],
              leg: Callable[[int, int, int], List[Step]]) -> Optional[List[Step]]:
    """The shortest walk that holds each key before its door: Dijkstra over states *(point, keys held)*.

    Point 0 is the entrance, point ``n + 1`` key ``n``; ``distances(point, held)`` gives the steps from
    ``point`` (with the doors of the keys not ``held`` shut) to each key and, last, the exit (-1:
    unreached); ``leg(point, held, target)`` the walk from ``point`` to key ``target`` (``count``: the
    exit). None when the exit is never reached. The square solver (:func:`mazeplugin.content.solve`)
    and the graph one (:func:`solve_nodes`) both end here.

    A step to key ``n`` that some shortest walk makes over another key ``m`` not held is not taken:
    the walk picks ``m`` up on its way and reaches ``n`` no later, holding ``m`` too, which is never
    worse (more doors open, same point). So keys lying in a line are picked up in one order, not in
    every order (14 keys along a corridor: 106 distance requests instead of 114,689); the length is the same.
    """
    best: Dict[Tuple[int, int], int] = {(0, 0): 0}
    came: Dict[Tuple[int, int], Tuple[int, int]] = {}
    heap: List[Tuple[int, int, int]] = [(0, 0, 0)]
    finish: Optional[Tuple[int, int, int]] = None  # (length, point, held) of the best walk
    while heap:
        d, point, held = heapq.heappop(heap)
        if best.get((point, held), -1) != d:
            continue
        if finish is not None and d >= finish[0]:
            break
        dist = distances(point, held)
        if dist[count] >= 0 and (finish is None or d + dist[count] < finish[0]):
            finish = (d + dist[count], point, held)
        ahead = [n for n in range(count) if not held >> n & 1 and dist[n] >= 0]
        for n in ahead:
            step = dist[n]
            if _passed_over(n, ahead, dist, held, distances):
                continue
            state = (n + 1, held | 1 << n)
            if d + step < best.get(state, 1 << 62):
                best[state], came[state] = d + step, (point, held)
                heapq.heappush(heap, (d + step, n + 1, held | 1 << n))
    if finish is None:
        return None
    # Walk back through the states, each leg searched again (one per leg).
    legs: List[List[Step]] = []
    target, state = count, (finish[1], finish[2])
    while True:
        legs.append(leg(state[0], state[1], target))
        if state == (0, 0):
            break
        target, state = state[0] - 1, came[state]
    walk: List[Step] = []
    for part in reversed(legs):
        walk.extend(part[1:] if walk else part)
    return walk


def _passed_over(n: int, ahead: Sequence[int], dist: Sequence[int], held: int,
                 distances: Callable[[int, int], Sequence[int]]) -> bool:
    """Whether a shortest walk to key ``n`` (``dist`` from the state's point) goes over another key not
    held: key ``m`` nearer than ``n`` with ``dist[m]`` + steps from ``m`` (holding ``m``) = ``dist[n]``.

    Only keys nearer than ``n`` are asked, so with one key ahead (doors in series) nothing is searched.
    """
    for m in ahead:
        if m != n and 0 < dist[m] < dist[n]:
            onward = distances(m + 1, held | 1 << m)[n]
            if onward >= 0 and dist[m] + onward == dist[n]:
                return True
    return False


def check_cells(graph: CellGraph, entrance: Optional[int], exit: Optional[int], things: Sequence[CellThing]) -> None:
    """Prove a grid level's things (see the module docstring); ``ContentError`` (a ``ValueError``) says what fails.

    >>> import mazeplugin as mp
    >>> level = mp.generate("backtracker", 8, 6, grid="hex", seed=4, keys=1)
    >>> g = CellGraph.of(level.maze)
    >>> check_cells(g, level.entrance_cell, level.exit_cell, level.things)
    >>> check_cells(g, level.entrance_cell, level.exit_cell, [t for t in level.things if t.kind != "key"])
    Traceback (most recent call last):
    ...
    mazeplugin.content.things.ContentError: door 2 on passage ... has no key whose props['door'] is 2
    """
    check_ids(things)
    markers = {m for m in (entrance, exit) if m is not None}
    for thing in things:
        if not 0 <= thing.cell < graph.cells:
            raise ContentError(f"{thing.kind} {thing.id} is in cell {thing.cell}, which this level does not have")
        if thing.kind != "door" and thing.cell in markers:
            raise ContentError(f"{thing.kind} {thing.id} stands on the entrance or exit cell {thing.cell}")
    doors, keys = locks_of(things, _in_cell)
    for door in doors.values():
        edge, cells = door.props.get("edge"), tuple(door.props.get("cells", ()))
        if not isinstance(edge, int) or not 0 <= edge < len(graph.edges) or not graph.open[edge]:
            raise ContentError(f"door {door.id}: props['edge'] = {edge!r} is not an open passage of this level")
        if sorted(cells) != graph.edges[edge].tolist() or door.cell != cells[0]:
            raise ContentError(f"door {door.id}: props['cells'] {cells!r} and its cell {door.cell} are not "
                               f"the two cells of passage {edge} ({graph.edges[edge].tolist()}), in order")
    if doors and (entrance is None or exit is None):
        raise ContentError("a level with doors needs an entrance and an exit")
    door_edges = {int(d.props["edge"]) for d in doors.values()}
    locks = [Lock(door, keys[door.props["key"]], (int(door.props["edge"]),), keys[door.props["key"]].cell)
             for door in in_lock_order(doors)]
    if entrance is not None and exit is not None:
        check_lock_order(graph, entrance, exit, locks, _in_cell)
        check_doors_needed(graph, entrance, exit, locks)
    enemies = [t for t in things if t.kind == "enemy"]
    for enemy in enemies:
        patrol = [int(c) for c in enemy.props.get("patrol", ())]
        if not patrol:
            raise ContentError(f"enemy {enemy.id} has no props['patrol']")
        if enemy.cell not in patrol:
            raise ContentError(f"enemy {enemy.id} in cell {enemy.cell} is not on its patrol")
        for cell in patrol:
            if not 0 <= cell < graph.cells or cell in markers:
                raise ContentError(f"enemy {enemy.id}: patrol cell {cell} is not a free cell of this level")
        for a, b in zip(patrol, patrol[1:]):
            try:
                k = graph.edge(a, b)
            except ValueError:
                raise ContentError(f"enemy {enemy.id}: patrol steps {a} -> {b} through no open passage") from None
            if k in door_edges:
                raise ContentError(f"enemy {enemy.id}: patrol passes the door on passage {k}")
    if enemies and entrance is not None and exit is not None:
        patrols = {int(c) for enemy in enemies for c in enemy.props["patrol"]}
        others = [(t, t.cell) for t in things if t.kind not in ("door", "key", "enemy")]
        check_lock_order(graph, entrance, exit, locks, _in_cell, blocked=patrols, targets=others)


def _in_cell(thing: CellThing) -> str:
    return f"on passage {thing.props.get('edge')}" if thing.kind == "door" else f"in cell {thing.cell}"


class Lock(NamedTuple):
    """A door and its key on a graph of nodes: the passages the door shuts and the node the key stands on."""

    door: Any
    key: Any
    edges: Tuple[int, ...]
    key_node: int


class DoorPieces:
    """A graph with every door shut (and ``blocked`` nodes walled), labelled into pieces once, and the door
    passages between the pieces, each with the doors (a bit mask over ``doors``, the passages each shuts)
    that shut it: which pieces a set of open doors joins is a search over a few nodes per door, not over
    the graph. What the proofs and the square solver (which keys held can matter) ask.

    >>> from mazeplugin.grids import GridMaze, TriangleGrid
    >>> maze = GridMaze(TriangleGrid(5, 1))
    >>> maze.link(0, 1); maze.link(1, 2); maze.link(2, 3); maze.link(3, 4)
    >>> g = CellGraph.of(maze)
    >>> pieces = DoorPieces(g, [[g.edge(1, 2)], [g.edge(3, 4)]])
    >>> pieces.piece(4) in pieces.search(0, 0b01)[0], pieces.piece(4) in pieces.search(0, 0b11)[0]
    (False, True)
    >>> pieces.search(0, 0b10)[1]      # door 1 is open, but door 0 is in the way: it is not met
    0
    """

    def __init__(self, graph: CellGraph, doors: Sequence[Collection[int]], blocked: Optional[Set[int]] = None) -> None:
        shut_by: Dict[int, int] = {}
        for n, edges in enumerate(doors):
            for edge in edges:
                shut_by[edge] = shut_by.get(edge, 0) | 1 << n
        keep = graph.open.copy()
        keep[np.fromiter(shut_by, dtype=np.int64, count=len(shut_by))] = False
        pairs = graph.edges[keep]
        self.wall = np.zeros(graph.cells, dtype=bool)
        if blocked:
            self.wall[np.fromiter(blocked, dtype=np.int64, count=len(blocked))] = True
            pairs = pairs[~self.wall[pairs[:, 0]] & ~self.wall[pairs[:, 1]]]
        self.roots = component_roots(graph.cells, pairs[:, 0], pairs[:, 1])
        self.links: Dict[int, List[Tuple[int, int]]] = {}
        for edge, mask in shut_by.items():
            a, b = graph.edges[edge].tolist()
            if graph.open[edge] and not self.wall[a] and not self.wall[b]:
                ra, rb = int(self.roots[a]), int(self.roots[b])
                self.links.setdefault(ra, []).append((rb, mask))
                self.links.setdefault(rb, []).append((ra, mask))
        self._memo: Dict[Tuple[int, int], Tuple[Set[int], int]] = {}
        self._memo_nodes = 0

    def piece(self, node: int) -> int:
        """The piece of ``node``; -1 when it is walled."""
        return -1 if self.wall[node] else int(self.roots[node])

    def reached(self, start: int, passable: Callable[[int], bool]) -> Tuple[Set[int], int]:
        """The pieces reached from ``start`` through the door passages whose mask is ``passable``, and
        the doors of the passages passed (the doors met)."""
        first = self.piece(start)
        seen = {first} if first >= 0 else set()
        stack = list(seen)
        met = 0
        while stack:
            for other, mask in self.links.get(stack.pop(), ()):
                if passable(mask):
                    met |= mask
                    if other not in seen:
                        seen.add(other)
                        stack.append(other)
        return seen, met

    def search(self, start: int, open_doors: int) -> Tuple[Set[int], int]:
        """:meth:`reached` with the doors of ``open_doors`` open (a passage opens when every door shutting
        it is open), remembered while the pieces remembered stay under a bound."""
        found = self._memo.get((start, open_doors))
        if found is None:
            found = self.reached(start, lambda mask: not mask & ~open_doors)
            if self._memo_nodes + len(found[0]) <= _MEMO_NODES:
                self._memo_nodes += len(found[0])
                self._memo[(start, open_doors)] = found
        return found


_MEMO_NODES = 1 << 21  # pieces kept in remembered searches, all masks together (a few tens of MiB at most)


def check_lock_order(graph: CellGraph, entrance: int, exit: int, locks: Sequence[Lock], where: Callable[[Any], str],
                     *, blocked: Optional[Set[int]] = None, targets: Sequence[Tuple[Any, int]] = ()) -> None:
    """The flood from ``entrance`` opening ``locks`` in order: each key reached with only the earlier doors
    open, the exit not before the last; with ``blocked`` nodes walled (enemy patrols), only that the keys,
    the exit and every ``(thing, node)`` of ``targets`` are reached. ``where(thing)`` places a thing in a
    message (``"in cell 5"``, ``"at (3, 4)"``). A passage shut by two doors opens with either."""
    around = " avoiding every enemy patrol" if blocked else ""
    pieces = DoorPieces(graph, [lock.edges for lock in locks], blocked)
    opened = 0
    reached = pieces.reached(entrance, lambda doors: bool(doors & opened))[0]
    for n, (door, key, _edges, key_node) in enumerate(locks, start=1):
        if pieces.piece(key_node) not in reached:
            raise ContentError(f"key {key.id} {where(key)} cannot be reached with only the doors before "
                               f"door {door.id} (lock {n}) open{around}")
        if not blocked and pieces.piece(exit) in reached:
            raise ContentError(f"door {door.id} (lock {n}) is not needed: the exit is reached without opening it")
        opened |= 1 << (n - 1)
        reached = pieces.reached(entrance, lambda doors: bool(doors & opened))[0]
    if pieces.piece(exit) not in reached:
        raise ContentError(f"the exit cannot be reached with every door open{around}")
    for thing, node in targets:
        if pieces.piece(node) not in reached:
            raise ContentError(f"{thing.kind} {thing.id} {where(thing)} cannot be reached{around}")


def check_doors_needed(graph: CellGraph, entrance: int, exit: int, locks: Sequence[Lock]) -> None:
    """Each door on its own blocks the exit: shut, with every other door open, the exit is not reached."""
    pieces = DoorPieces(graph, [lock.edges for lock in locks])
    for n, lock in enumerate(locks):
        if pieces.piece(exit) in pieces.reached(entrance, lambda doors: not doors >> n & 1)[0]:
            raise ContentError(f"door {lock.door.id} (lock {n + 1}) is not needed: with it shut and every "
                               "other door open the exit is still reached")


# -- a weave level: its tiles as nodes, a bridge tile two of them ----------------------------


class TileNodes:
    """A weave's tiles as a graph (:class:`~mazeplugin.content.cells.CellGraph`): node ``y * width + x`` is
    tile ``(x, y)`` (on top), node ``tiles.size + k`` the tunnel under the ``k``-th bridge tile (row order);
    passages join the nodes a walker steps between (:func:`mazeplugin.bridges.step`).

    >>> import numpy as np
    >>> tiles = np.ones((3, 3), dtype=np.uint8); tiles[1, :] = 0; tiles[:, 1] = 0
    >>> bridges = np.zeros_like(tiles); bridges[1, 1] = UNDER_EAST_WEST   # north-south over east-west
    >>> nodes = TileNodes(tiles, bridges)
    >>> nodes.graph.distances(nodes.node((0, 1))).tolist()                 # (0, 1) walks under to (2, 1) only
    [-1, -1, -1, 0, -1, 2, -1, -1, -1, 1]
    """

    def __init__(self, tiles: NDArray[np.uint8], bridges: Optional[NDArray[np.uint8]] = None) -> None:
        h, w = (int(n) for n in tiles.shape)
        self.width, self.size = w, h * w
        floor = np.asarray(tiles) == 0
        kind = np.zeros(0) if bridges is None else np.asarray(bridges).reshape(-1)
        self.bridge_tiles: NDArray[np.int64] = np.flatnonzero(kind).astype(np.int64)
        across = along = np.arange(h * w, dtype=np.int64).reshape(h, w)
        if len(self.bridge_tiles):  # which node of a tile a step along each axis meets: its tunnel, where it runs so
            tunnel = across.reshape(-1).copy()
            tunnel[self.bridge_tiles] = self.size + np.arange(len(self.bridge_tiles))
            across = np.where(kind == UNDER_EAST_WEST, tunnel, across.reshape(-1)).reshape(h, w)
            along = np.where(kind == UNDER_NORTH_SOUTH, tunnel, along.reshape(-1)).reshape(h, w)
        east = floor[:, :-1] & floor[:, 1:]
        south = floor[:-1, :] & floor[1:, :]
        edges = np.empty((int(east.sum()) + int(south.sum()), 2), dtype=np.int64)
        k = int(east.sum())
        edges[:k, 0], edges[:k, 1] = across[:, :-1][east], across[:, 1:][east]
        edges[k:, 0], edges[k:, 1] = along[:-1, :][south], along[1:, :][south]
        self.graph = CellGraph(self.size + len(self.bridge_tiles), edges, np.ones(len(edges), dtype=bool))

    def node(self, tile: Tile) -> int:
        """The node on top of ``tile``."""
        return int(tile[1]) * self.width + int(tile[0])

    def nodes(self, tile: Tile) -> List[int]:
        """Every node of ``tile``: on top, and under it if it is a bridge tile."""
        top = self.node(tile)
        k = int(np.searchsorted(self.bridge_tiles, top))
        under = k < len(self.bridge_tiles) and int(self.bridge_tiles[k]) == top
        return [top, self.size + k] if under else [top]

    def tile(self, node: int) -> Tile:
        """The tile of ``node`` (on top or under)."""
        flat = node if node < self.size else int(self.bridge_tiles[node - self.size])
        return (flat % self.width, flat // self.width)

    def door_edges(self, doors: Sequence[Thing]) -> List[Tuple[int, ...]]:
        """The passages each door shuts: every one into any node of its tiles (one pass over the passages)."""
        node_sets = [{n for t in door.tiles() for n in self.nodes(t)} for door in doors]
        near = np.zeros(self.graph.cells, dtype=bool)
        near[[n for nodes in node_sets for n in nodes]] = True
        edges = self.graph.edges
        touched = np.flatnonzero(near[edges[:, 0]] | near[edges[:, 1]]).tolist()
        pairs = edges[touched].tolist()
        return [tuple(k for k, (a, b) in zip(touched, pairs) if a in nodes or b in nodes) for nodes in node_sets]

    def walls(self, tiles: Sequence[Tile]) -> Set[int]:
        """Every node of ``tiles``."""
        return {n for t in tiles for n in self.nodes(t)}


def at_tile(thing: Thing) -> str:
    """Where a thing stands, for a message: ``"at (x, y)"``."""
    return f"at {thing.tile}"


def solve_woven(tiles: NDArray[np.uint8], bridges: NDArray[np.uint8], entrance: Tile, exit: Tile,
                doors: Dict[int, Thing], keys: Dict[int, Thing]) -> Optional[List[Tile]]:
    """The shortest walk of tiles from ``entrance`` to ``exit``, over and under bridges, that holds each
    door's key before passing it (:func:`~mazeplugin.content.cellproof.solve_nodes` on :class:`TileNodes`)."""
    nodes = TileNodes(tiles, bridges)
    key_ids = sorted(keys)
    key_doors = [doors[keys[k].props["door"]] for k in key_ids]
    walk = solve_nodes(nodes.graph, nodes.node(entrance), nodes.node(exit),
                       [nodes.node(keys[k].tile) for k in key_ids], nodes.door_edges(key_doors))
    return None if walk is None else [nodes.tile(n) for n in walk]
