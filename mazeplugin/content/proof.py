"""Proving a level's content: the key-aware solver and the checks behind ``level.check()``, on any graph of nodes.

A level is read as a graph of nodes: a hex, triangle, polar or wrapping square
level's cells and open passages (:class:`~mazeplugin.content.cells.CellGraph`),
or a square or weave level's tiles
(:class:`~mazeplugin.content.cells.TileNodes`: one node per floor tile and one
more under each bridge tile, joined as a walker steps). Each door shuts its
passages (a grid level's door one passage, a tile door every passage into its
tiles, both layers of a bridge tile) until its key is held, and a key is picked
up by walking onto its node.

The solver (:func:`solve` on tiles, :func:`solve_cells` on cells, both
:func:`solve_nodes` or the same search on tile maps) is a shortest-path search
over states *(where, keys held)*: Dijkstra over the entrance and the key nodes
(:func:`~mazeplugin.content.cells.best_walk`), each step a breadth-first search
with the doors whose keys are not held shut. It finds the shortest walk that
picks up every key it needs before passing that key's door. On a square level's
tiles the searches are numpy distance maps, and only the held keys whose doors
a walk can reach change one (found on the graph of pieces between doors,
:class:`~mazeplugin.content.cells.DoorPieces`), so states share searches; the
states and searches are counted on the pieces first, and a level over
:data:`~mazeplugin.limits.MAX_SOLVE_STEPS` or
:data:`~mazeplugin.limits.MAX_SOLVE_TILE_STEPS` is refused before any search.

The proof (:func:`check` on tiles, :func:`check_cells` on cells) floods from
the entrance opening the doors in lock order (:func:`check_lock_order`): each
key is reachable with only the earlier doors open, the exit is not, and it is
with all of them open; each door is necessary on its own
(:func:`check_doors_needed`: shut, with every other door open, the exit is not
reached, so a door moved into a dead end is caught even while a later door
still blocks the route); every thing stands on the level and off the markers;
every enemy's patrol is a walk through no door (on tiles a corridor stretch of
4-adjacent floor tiles, crossing no bridge tile), and the exit, every key,
treasure and Place thing are still reached in order with every patrol walled
(a level is solvable without touching an enemy; the shortest walk the solver
returns ignores enemies and may cross a patrol where the level has loops). On
a level with one-way drops both search it as a directed graph instead
(:mod:`mazeplugin.content.drops`: each drop walked its way only, and the proof
adds that no walk from the entrance strands the player).
"""

from __future__ import annotations

from typing import Any, Callable, Collection, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

import numpy as np
from numpy.typing import NDArray

from .. import paths
from ..limits import MAX_SOLVE_STEPS, MAX_SOLVE_TILE_STEPS
from .cells import CellGraph, DoorPieces, TileNodes, best_walk, doors_needed, lock_order
from .drops import check_drops, is_drop, solve_with_drops
from .things import CellThing, ContentError, Thing, at_tile, check_ids, in_lock_order, locks_of

__all__ = ["solve", "check", "solve_cells", "check_cells", "solve_nodes", "check_lock_order", "check_doors_needed",
           "Lock", "ContentError"]

Tile = Tuple[int, int]


def _closed(tiles: NDArray[np.uint8], doors: Sequence[Thing]) -> NDArray[np.uint8]:
    out = np.array(tiles, dtype=np.uint8, copy=True)
    for door in doors:
        for x, y in door.tiles():
            out[y, x] = 1
    return out


def solve(tiles: NDArray[np.uint8], entrance: Tile, exit: Tile, things: Sequence[Thing],
          bridges: Optional[NDArray[np.uint8]] = None) -> Optional[List[Tile]]:
    """The shortest walk from ``entrance`` to ``exit`` that opens each door it passes with its key.

    None when no such walk exists. Without doors it is
    :func:`mazeplugin.paths.shortest_path`. With a weave's ``bridges`` it goes
    straight over and under them (:class:`~mazeplugin.content.cells.TileNodes`). Raises ``ValueError`` naming
    :data:`~mazeplugin.limits.MAX_SOLVE_STEPS` or
    :data:`~mazeplugin.limits.MAX_SOLVE_TILE_STEPS`, before any search, for
    a level whose keys can be picked up in too many orders (see the module
    docstring).

    >>> import numpy as np
    >>> from mazeplugin.content import Thing
    >>> tiles = np.zeros((1, 5), dtype=np.uint8)            # a corridor
    >>> tiles = np.vstack([tiles, [[1, 1, 0, 1, 1]]])       # with a nook below x = 2
    >>> door = Thing("door", 3, 0, 2, {"key": 1, "tiles": [[3, 0]]})
    >>> key = Thing("key", 2, 1, 1, {"door": 2})
    >>> solve(tiles, (0, 0), (4, 0), [door, key])
    [(0, 0), (1, 0), (2, 0), (2, 1), (2, 0), (3, 0), (4, 0)]
    """
    if any(is_drop(t) for t in things):  # one-way drops: a directed search (content.drops)
        return solve_with_drops(tiles, entrance, exit, things, bridges)
    doors, keys = locks_of(things, at_tile)
    if bridges is not None and bridges.any():
        if not doors:
            from .. import bridges as layers

            return layers.shortest_path(tiles, bridges, entrance, exit)
        nodes = TileNodes(tiles, bridges)
        key_ids = sorted(keys)
        walk = solve_nodes(nodes.graph, nodes.node(entrance), nodes.node(exit), [nodes.node(keys[k].tile) for k in key_ids],
                           nodes.door_edges([doors[keys[k].props["door"]] for k in key_ids]))
        return None if walk is None else [nodes.tile(n) for n in walk]
    if not doors:
        return paths.shortest_path(tiles, entrance, exit)
    key_ids = sorted(keys)
    # Bit n stands for key_ids[n] and for the door it opens, in every mask below.
    door_list = [doors[keys[k].props["door"]] for k in key_ids]
    nodes = TileNodes(tiles)
    pieces = DoorPieces(nodes.graph, nodes.door_edges(door_list))
    start = nodes.node(entrance)

    def doors_reached(held: int) -> int:  # the held keys whose doors a walk can step onto: all that matter
        return pieces.search(start, held)[1]

    points: List[Tile] = [(int(entrance[0]), int(entrance[1]))] + [keys[k].tile for k in key_ids]
    _check_search(lambda held: pieces.search(start, held), [pieces.piece(nodes.node(p)) for p in points[1:]],
                  tiles.size)
    # Dijkstra over (point, keys held); point 0 is the entrance, n >= 1 key n - 1. Only the held
    # keys whose doors a walk can reach change a breadth-first search, so searches are shared by
    # (point, those doors) and keep only the distances to the keys and the exit.
    targets = points[1:] + [(int(exit[0]), int(exit[1]))]
    searched: Dict[Tuple[int, int], List[int]] = {}

    def distances(point: int, held: int) -> List[int]:
        opened = doors_reached(held)
        found = searched.get((point, opened))
        if found is None:
            dist = _distance_map(tiles, door_list, opened, points[point])
            found = searched[(point, opened)] = [int(dist[y, x]) for x, y in targets]
        return found

    def leg(point: int, held: int, target: int) -> List[Tile]:  # downhill on the point's map, searched again
        return _downhill(_distance_map(tiles, door_list, doors_reached(held), points[point]), targets[target])

    return best_walk(len(key_ids), distances, leg)


def _distance_map(
    tiles: NDArray[np.uint8], doors: Sequence[Thing], opened: int, source: Tile
) -> NDArray[np.int32]:
    """Steps from ``source`` with every door shut but those of the mask ``opened``."""
    shut = [door for n, door in enumerate(doors) if not opened >> n & 1]
    return paths.distance_map(_closed(tiles, shut), source)


def _check_search(reach: Callable[[int], Tuple[Set[int], int]], where: Sequence[int], tile_count: int) -> None:
    """Refuse, before searching, a level whose key-aware search would run away.

    Counts the states *(key just picked up, keys held)* the search can meet
    (every order in which keys can be picked up, following reachability on
    the region graph, not the tiles) and the breadth-first searches they
    need, and stops counting at the bound.
    """
    count = len(where)
    states = 1
    searches = {(0, reach(0)[1])}
    allowed = max(count + 1, MAX_SOLVE_TILE_STEPS // max(tile_count, 1))
    seen = {0}
    frontier = [0]
    while frontier:
        nxt: List[int] = []
        for held in frontier:
            reached = reach(held)[0]
            for n in range(count):
                if held >> n & 1 or where[n] not in reached:
                    continue
                more = held | 1 << n
                states += 1
                if states * count > MAX_SOLVE_STEPS:
                    raise ValueError(
                        f"this level's {count} keys can be picked up in too many orders: solving it would "
                        f"take more than {MAX_SOLVE_STEPS:,} steps over states (key, keys held) "
                        "(mazeplugin.limits.MAX_SOLVE_STEPS)"
                    )
                searches.add((n + 1, reach(more)[1]))
                if len(searches) > allowed:
                    raise ValueError(
                        f"this level's {count} keys open too many different ways: solving it would need "
                        f"more than {allowed:,} breadth-first searches over its {tile_count:,} tiles "
                        f"(mazeplugin.limits.MAX_SOLVE_TILE_STEPS = {MAX_SOLVE_TILE_STEPS:,} tile steps, "
                        "and always one search per key and one more)"
                    )
                if more not in seen:
                    seen.add(more)
                    nxt.append(more)
        frontier = nxt


def _downhill(dist: NDArray[np.int32], target: Tile) -> List[Tile]:
    """The tiles from the map's source to ``target``, read backwards from ``target``."""
    h, w = dist.shape
    x, y = target
    d = int(dist[y, x])
    out = [(x, y)]
    while d > 0:
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < w and 0 <= ny < h and dist[ny, nx] == d - 1:
                x, y = nx, ny
                break
        out.append((x, y))
        d -= 1
    out.reverse()
    return out


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
    of nodes (a grid's cells, or a weave's tiles, :class:`~mazeplugin.content.cells.TileNodes`). None when there is none."""
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


def check(
    tiles: NDArray[np.uint8],
    entrance: Optional[Tile],
    exit: Optional[Tile],
    things: Sequence[Thing],
    bridges: Optional[NDArray[np.uint8]] = None,
) -> None:
    """Prove a level's things (see the module docstring); ``ContentError`` (a ``ValueError``) says what fails.

    With a weave's ``bridges`` the floods walk over and under them and no
    patrol may cross a bridge tile (:class:`~mazeplugin.content.cells.TileNodes`).

    >>> import mazeplugin as mp
    >>> level = mp.generate("kruskal", 15, 10, seed=2, keys=2, enemies=1)
    >>> check(level.tiles, level.entrance, level.exit, level.things)
    >>> check(level.tiles, level.entrance, level.exit, [t for t in level.things if t.kind != "key"])
    Traceback (most recent call last):
    ...
    mazeplugin.content.things.ContentError: door 2 at (3, 14) has no key whose props['door'] is 2
    """
    h, w = tiles.shape
    markers = {tuple(m) for m in (entrance, exit) if m is not None}
    check_ids(things)
    for thing in things:
        for x, y in thing.tiles() + ((thing.x, thing.y),):
            if not (0 <= x < w and 0 <= y < h) or tiles[y, x] != 0:
                raise ContentError(f"{thing.kind} {thing.id} is on {(x, y)}, which is not a floor tile")
            if (x, y) in markers:
                raise ContentError(f"{thing.kind} {thing.id} stands on a marker tile {(x, y)}")
    doors, keys = locks_of(things, at_tile)
    door_tiles = {tile for door in doors.values() for tile in door.tiles()}
    for door in doors.values():
        if door.tile not in door.tiles():
            raise ContentError(f"door {door.id}: its tile {door.tile} is not one of its props['tiles']")
    if doors and (entrance is None or exit is None):
        raise ContentError("a level with doors needs an entrance and an exit")
    woven = bridges is not None and bool(bridges.any())
    nodes = locks = None
    one_way = any(is_drop(t) for t in things)  # drops: the directed proof of content.drops below, not these floods
    if entrance is not None and exit is not None and not one_way and (doors or any(t.kind == "enemy" for t in things)):
        nodes = TileNodes(tiles, bridges if woven else None)
        start, goal = nodes.node(entrance), nodes.node(exit)
        order = in_lock_order(doors)
        locks = [Lock(door, keys[door.props["key"]], edges, nodes.node(keys[door.props["key"]].tile))
                 for door, edges in zip(order, nodes.door_edges(order))]
        if locks:
            check_lock_order(nodes.graph, start, goal, locks, at_tile)
            check_doors_needed(nodes.graph, start, goal, locks)
    enemies = [t for t in things if t.kind == "enemy"]
    for enemy in enemies:
        patrol = enemy.props.get("patrol")
        if not patrol:
            raise ContentError(f"enemy {enemy.id} has no props['patrol']")
        route = [tuple(p) for p in patrol]
        if enemy.tile not in route:
            raise ContentError(f"enemy {enemy.id} at {enemy.tile} is not on its patrol")
        for a, b in zip(route, route[1:]):
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                raise ContentError(f"enemy {enemy.id}: patrol steps {a} -> {b} are not 4-adjacent")
        for x, y in route:
            if not (0 <= x < w and 0 <= y < h) or tiles[y, x] != 0:
                raise ContentError(f"enemy {enemy.id}: patrol tile {(x, y)} is not floor")
            if (x, y) in door_tiles:
                raise ContentError(f"enemy {enemy.id}: patrol passes the door tile {(x, y)}")
            if (x, y) in markers:
                raise ContentError(f"enemy {enemy.id}: patrol passes the marker tile {(x, y)}")
            if woven and bridges[y, x]:  # type: ignore[index]
                raise ContentError(f"enemy {enemy.id}: patrol crosses the bridge tile {(x, y)}")
    if one_way:
        check_drops(tiles, entrance, exit, things, bridges)
    elif enemies and nodes is not None and locks is not None:
        # Solvable without touching an enemy: the same flood, patrols walled.
        patrols = nodes.walls([tuple(p) for enemy in enemies for p in enemy.props["patrol"]])
        others = [(t, nodes.node(t.tile)) for t in things if t.kind not in ("door", "key", "enemy")]
        check_lock_order(nodes.graph, start, goal, locks, at_tile, blocked=patrols, targets=others)


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


def check_lock_order(graph: CellGraph, entrance: int, exit: int, locks: Sequence[Lock], where: Callable[[Any], str],
                     *, blocked: Optional[Set[int]] = None, targets: Sequence[Tuple[Any, int]] = ()) -> None:
    """:func:`~mazeplugin.content.cells.lock_order` on ``graph``: each key reached with only the earlier doors
    open, the exit not before the last; with ``blocked`` nodes walled (enemy patrols), only that the keys,
    the exit and every ``(thing, node)`` of ``targets`` are reached. ``where(thing)`` places a thing in a
    message (``"in cell 5"``, ``"at (3, 4)"``). A passage shut by two doors opens with either."""
    pieces = DoorPieces(graph, [lock.edges for lock in locks], blocked)
    lock_order(lambda opened: pieces.reached(entrance, lambda doors: bool(doors & opened))[0], pieces.piece(exit),
               [(lock.door, lock.key, pieces.piece(lock.key_node)) for lock in locks], where,
               around=" avoiding every enemy patrol" if blocked else "",
               targets=[(thing, pieces.piece(node)) for thing, node in targets])


def check_doors_needed(graph: CellGraph, entrance: int, exit: int, locks: Sequence[Lock]) -> None:
    """:func:`~mazeplugin.content.cells.doors_needed` on ``graph``: each door on its own blocks the exit."""
    pieces = DoorPieces(graph, [lock.edges for lock in locks])
    doors_needed(lambda n: pieces.reached(entrance, lambda doors: not doors >> n & 1)[0], pieces.piece(exit),
                 [lock.door for lock in locks])
