"""The graph of nodes content is placed and proved on, and what a :class:`CellThing` (a thing on a cell) holds.

The levels of :mod:`mazeplugin.grid_level` (hex, triangle, polar, wrapping
square) are graphs: cells ``0 … n-1`` and the open passages between
neighbours, each passage an edge of the grid (``grid.edges[k]``):
:class:`CellGraph`. A square or weave level's tiles are such a graph too
(:class:`TileNodes`, a bridge tile two nodes), so one proof serves every grid
(:mod:`mazeplugin.content.proof`): :class:`DoorPieces` labels a graph's pieces
between doors once, :func:`best_walk` is the key-aware solver's Dijkstra over
*(point, keys held)*. A :class:`CellThing` (:mod:`mazeplugin.content.things`) is ``(kind, cell, id, props)``:

- ``"door"``: stands on a passage. ``props["edge"]`` is the edge's number,
  ``props["cells"]`` its two cells, the one nearer the entrance first (also
  the thing's ``cell``), ``props["key"]`` its key's id, ``props["lock"]`` its
  number in the order the player meets the doors (1, 2, ...).
- ``"key"``: ``props["door"]`` the id of the door it opens, ``props["lock"]`` that door's number.
- ``"treasure"`` and a game's own kinds: no props.
- ``"enemy"``: ``props["patrol"]``, the cells of the corridor stretch it
  walks back and forth, each joined to the next by an open passage.

>>> from mazeplugin.grids import GridMaze, TriangleGrid
>>> maze = GridMaze(TriangleGrid(4, 1))
>>> maze.link(0, 1); maze.link(1, 2); maze.link(2, 3)
>>> graph = CellGraph.of(maze)
>>> graph.distances(0).tolist(), graph.distances(0, shut={graph.edge(1, 2)}).tolist()
([0, 1, 2, 3], [0, 1, -1, -1])
>>> CellThing("door", 1, 2, {"edge": 1, "cells": [1, 2], "key": 1, "lock": 1}).props["cells"]
(1, 2)
"""

from __future__ import annotations

from functools import cached_property
import heapq
from typing import TYPE_CHECKING, Any, Callable, Collection, Dict, List, Mapping, Optional, Sequence, Set, Tuple, TypeVar

import numpy as np
from numpy.typing import NDArray

from ..maze import UNDER_EAST_WEST, UNDER_NORTH_SOUTH
from ..unionfind import component_roots
from .things import CELL_PROP_TYPES, CellThing, ContentError, Thing

if TYPE_CHECKING:  # pragma: no cover - a proof on tiles (a weave) never loads the grids
    from ..grids import GridMaze

__all__ = ["CellThing", "CellGraph", "CELL_PROP_TYPES", "TileNodes", "DoorPieces", "lock_order", "doors_needed",
           "best_walk"]

Tile = Tuple[int, int]

class CellGraph:
    """The open passages of a grid maze as a graph: each cell's ``(neighbour, edge)`` steps.

    Edge numbers are the grid's (``grid.edges[k]``), so a door names its
    passage the way the maze does. Searches take passages to keep ``shut``
    (locked doors) and cells to keep out (``blocked``: enemy patrols).
    """

    def __init__(self, cells: int, edges: NDArray[np.int64], open_: NDArray[np.bool_]) -> None:
        self.cells: int = int(cells)
        self.edges: NDArray[np.int64] = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        self.open: NDArray[np.bool_] = np.asarray(open_, dtype=bool)

    @cached_property
    def degree(self) -> NDArray[np.int64]:
        """Open passages of each cell."""
        return np.bincount(self.edges[self.open].ravel(), minlength=self.cells).astype(np.int64)

    @cached_property
    def _steps(self) -> Tuple[List[int], List[int], List[int]]:
        """Each cell's steps as lists (offsets, neighbours, edges), made on the first walk: a proof that only
        labels pieces (:meth:`reached`) never needs them."""
        keep = np.flatnonzero(self.open)
        a, b = self.edges[keep, 0], self.edges[keep, 1]
        order = np.argsort(np.concatenate([a, b]), kind="stable")
        offsets = np.zeros(self.cells + 1, dtype=np.int64)
        np.cumsum(self.degree, out=offsets[1:])
        return (offsets.tolist(), np.concatenate([b, a])[order].tolist(),
                np.concatenate([keep, keep])[order].tolist())

    @classmethod
    def of(cls, maze: GridMaze) -> "CellGraph":
        """The graph of ``maze``'s open passages."""
        return cls(maze.grid.cells, maze.grid.edges, maze.open)

    def steps(self, cell: int) -> List[Tuple[int, int]]:
        """``(neighbour, edge)`` for each open passage of ``cell``."""
        offsets, following, edges = self._steps
        lo, hi = offsets[cell], offsets[cell + 1]
        return list(zip(following[lo:hi], edges[lo:hi]))

    def edge(self, a: int, b: int) -> int:
        """The open passage between ``a`` and ``b``; ``ValueError`` when there is none."""
        for other, k in self.steps(a):
            if other == b:
                return k
        raise ValueError(f"no open passage between cells {a} and {b}")

    def search(self, sources: Collection[int], *, shut: Collection[int] = (),
               blocked: Optional[Collection[int]] = None) -> Tuple[List[int], List[int]]:
        """Breadth-first from ``sources``: ``(distance, parent)`` per cell, -1 where unreached (or a source's parent)."""
        dist, parent = [-1] * self.cells, [-1] * self.cells
        off, nxt, eid = self._steps
        closed = set(shut)
        wall = set(blocked or ())
        frontier = [s for s in sources if s not in wall]
        for s in frontier:
            dist[s] = 0
        if not closed and not wall:  # the common case, without the two look-ups per step
            while frontier:
                following: List[int] = []
                push = following.append
                for cell in frontier:
                    d = dist[cell] + 1
                    for other in nxt[off[cell]:off[cell + 1]]:
                        if dist[other] < 0:
                            dist[other] = d
                            parent[other] = cell
                            push(other)
                frontier = following
            return dist, parent
        while frontier:
            following = []
            for cell in frontier:
                d = dist[cell] + 1
                for k in range(off[cell], off[cell + 1]):
                    other = nxt[k]
                    if dist[other] < 0 and other not in wall and eid[k] not in closed:
                        dist[other], parent[other] = d, cell
                        following.append(other)
            frontier = following
        return dist, parent

    def reached(self, source: int, *, shut: Collection[int] = (),
                blocked: Optional[Collection[int]] = None) -> NDArray[np.bool_]:
        """Which cells a walk from ``source`` reaches, ``shut`` passages closed and ``blocked`` cells walled.

        Labels the pieces of the graph with numpy passes
        (:func:`mazeplugin.unionfind.component_roots`): about ten times quicker
        than a breadth-first search in Python, for proofs that need only "reached or not".
        """
        keep = self.open.copy()
        keep[np.asarray(list(shut), dtype=np.int64)] = False
        pairs = self.edges[keep]
        if blocked:
            wall = np.zeros(self.cells, dtype=bool)
            wall[np.asarray(list(blocked), dtype=np.int64)] = True
            if wall[source]:
                return np.zeros(self.cells, dtype=bool)
            pairs = pairs[~wall[pairs[:, 0]] & ~wall[pairs[:, 1]]]
        roots = component_roots(self.cells, pairs[:, 0], pairs[:, 1])
        return np.asarray(roots == roots[source])

    def distances(self, source: int, *, shut: Collection[int] = (),
                  blocked: Optional[Collection[int]] = None) -> NDArray[np.int32]:
        """Passages walked from ``source`` to every cell (-1: unreached), ``shut`` passages closed."""
        return np.asarray(self.search([source], shut=shut, blocked=blocked)[0], dtype=np.int32)

    def way(self, parent: List[int], cell: int) -> List[int]:
        """The cells from a search's source to ``cell``, read up ``parent``."""
        out = [cell]
        while parent[out[-1]] >= 0:
            out.append(parent[out[-1]])
        return out[::-1]


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
        self.width: int = w
        self.size: int = h * w
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
        self.graph: CellGraph = CellGraph(self.size + len(self.bridge_tiles), edges, np.ones(len(edges), dtype=bool))

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
        self.wall: NDArray[np.bool_] = np.zeros(graph.cells, dtype=bool)
        if blocked:
            self.wall[np.fromiter(blocked, dtype=np.int64, count=len(blocked))] = True
            pairs = pairs[~self.wall[pairs[:, 0]] & ~self.wall[pairs[:, 1]]]
        self.roots: NDArray[np.int64] = component_roots(graph.cells, pairs[:, 0], pairs[:, 1])
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


def lock_order(reach: Callable[[int], Collection[int]], goal: int, locks: Sequence[Tuple[Any, Any, int]],
               where: Callable[[Any], str], *, around: str = "", said: str = "",
               targets: Sequence[Tuple[Any, int]] = ()) -> None:
    """**The** flood of the proofs, on any pieces: from the entrance, opening the doors in order, each key
    reached with only the earlier doors open, the exit not before the last door (unless ``around`` says the
    patrols are walled: then only reaching counts), and the exit and every ``(thing, piece)`` of ``targets``
    with every door open; ``ContentError`` otherwise. ``reach(opened)``: the pieces reached with the doors
    of the mask ``opened`` open; ``locks``: ``(door, key, the key's piece)`` in lock order; ``said`` ends
    the messages of a directed proof."""
    opened = 0
    reached = reach(opened)
    for n, (door, key, at) in enumerate(locks, start=1):
        if at not in reached:
            raise ContentError(f"key {key.id} {where(key)} cannot be reached with only the doors before "
                               f"door {door.id} (lock {n}) open{around}{said}")
        if not around and goal in reached:
            raise ContentError(f"door {door.id} (lock {n}) is not needed: the exit is reached without opening it")
        opened |= 1 << (n - 1)
        reached = reach(opened)
    if goal not in reached:
        raise ContentError(f"the exit cannot be reached with every door open{around}{said}")
    for thing, at in targets:
        if at not in reached:
            raise ContentError(f"{thing.kind} {thing.id} {where(thing)} cannot be reached{around}")


def doors_needed(reach_without: Callable[[int], Collection[int]], goal: int, doors: Sequence[Any],
                 said: str = "") -> None:
    """Each door on its own blocks the exit: ``goal`` is not among ``reach_without(n)``, the pieces reached
    with door ``n`` shut and every other door open; ``ContentError`` names the first door that is not needed."""
    for n, door in enumerate(doors):
        if goal in reach_without(n):
            raise ContentError(f"door {door.id} (lock {n + 1}) is not needed: with it shut and every other door "
                               f"open the exit is still reached{said}")


Step = TypeVar("Step")


def best_walk(count: int, distances: Callable[[int, int], Sequence[int]],
              leg: Callable[[int, int, int], List[Step]]) -> Optional[List[Step]]:
    """The shortest walk that holds each key before its door: Dijkstra over states *(point, keys held)*.

    Point 0 is the entrance, point ``n + 1`` key ``n``; ``distances(point, held)`` gives the steps from
    ``point`` (with the doors of the keys not ``held`` shut) to each key and, last, the exit (-1:
    unreached); ``leg(point, held, target)`` the walk from ``point`` to key ``target`` (``count``: the
    exit). None when the exit is never reached. The square solver (:func:`mazeplugin.content.solve`)
    and the graph one (:func:`~mazeplugin.content.proof.solve_nodes`) both end here.

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
