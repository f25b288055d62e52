"""Proving a level with content: the key-aware solver and the checks behind ``level.check()``.

Both work on the level's own tiles (whatever made the things), with each
door blocking all of its ``props["tiles"]`` until its key is held, and a key
picked up by walking onto its tile.

:func:`solve` is a shortest-path search over states *(where, keys held)*:
Dijkstra over the entrance and the key tiles, each step a breadth-first walk
with the doors whose keys are not held closed. It finds the shortest walk
that picks up every key it needs before passing that key's door. Only the
held keys whose doors a walk can reach change a search (found on the graph
of pieces between doors, :class:`~mazeplugin.content.cellproof.DoorPieces`), so states share
searches, and each keeps only its distances to the keys and the exit; the
legs of the walk found are searched again to read the tiles. On a level whose
doors are placed by :func:`~mazeplugin.content.furnish` that is one
breadth-first search per lock plus one, and as many again for the legs.
Keys that can be picked up in many orders make many states (k keys before
k doors in series: k · 2^(k-1)), so the states and searches are counted on
the room graph first, and a level over :data:`~mazeplugin.limits.MAX_SOLVE_STEPS`
or :data:`~mazeplugin.limits.MAX_SOLVE_TILE_STEPS` is refused before any search.
The Dijkstra itself is the graph levels' too (:func:`~mazeplugin.content.cellproof.best_walk`).

:func:`check` proves what placement promises, on the tiles as a graph of
nodes (:class:`~mazeplugin.content.cellproof.TileNodes`, the same proof as a
grid level's cells get: :func:`~mazeplugin.content.cellproof.check_lock_order`),
with one flood from the entrance that opens the doors in order: each key is reachable with only the
earlier doors open, the exit is not, and it is with all of them open; each
door is necessary on its own (shut, with every other door open, the exit is
not reached: a door moved into a dead end is caught even while a later door
still blocks the route); every thing stands on floor and off the markers; every
enemy's patrol is a corridor stretch of 4-adjacent floor tiles through no door
and the exit (and every treasure and Place thing) still reached in order with
every patrol tile walled (a level is solvable without touching an enemy; the shortest walk
:func:`solve` returns ignores enemies and may cross a patrol where the level
has loops). With a weave's ``bridges`` the walks go straight over and under
each bridge tile (a bridge tile is two nodes) and no patrol crosses one. On a
level with one-way drops both search it as a directed graph instead
(:mod:`mazeplugin.content.drops`: each drop walked its way only, and the proof
adds that no walk from the entrance strands the player).
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np
from numpy.typing import NDArray

from .. import paths
from ..limits import MAX_SOLVE_STEPS, MAX_SOLVE_TILE_STEPS
from .cellproof import (DoorPieces, Lock, TileNodes, at_tile, best_walk, check_doors_needed, check_ids, check_lock_order,
                        in_lock_order, locks_of, solve_woven)
from .drops import check_drops, is_drop, solve_with_drops
from .things import ContentError, Thing

__all__ = ["solve", "check", "ContentError"]

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
    straight over and under them (:class:`~mazeplugin.content.cellproof.TileNodes`). Raises ``ValueError`` naming
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
        return solve_woven(tiles, bridges, entrance, exit, doors, keys)
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


def check(
    tiles: NDArray[np.uint8],
    entrance: Optional[Tile],
    exit: Optional[Tile],
    things: Sequence[Thing],
    bridges: Optional[NDArray[np.uint8]] = None,
) -> None:
    """Prove a level's things (see the module docstring); ``ContentError`` (a ``ValueError``) says what fails.

    With a weave's ``bridges`` the floods walk over and under them and no
    patrol may cross a bridge tile (:class:`~mazeplugin.content.cellproof.TileNodes`).

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
