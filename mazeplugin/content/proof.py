"""Proving a level with content: the key-aware solver and the checks behind ``level.check()``.

Both work on the level's own tiles (whatever made the things), with each
door blocking all of its ``props["tiles"]`` until its key is held, and a key
picked up by walking onto its tile.

:func:`solve` is a shortest-path search over states *(where, keys held)*:
Dijkstra over the entrance and the key tiles, each step a breadth-first walk
with the doors whose keys are not held closed. It finds the shortest walk
that picks up every key it needs before passing that key's door; on a level
whose doors are placed by :func:`~mazeplugin.content.furnish` it runs one
breadth-first search per lock plus one.

:func:`check` proves what placement promises, with one flood from the
entrance that opens the doors in order: each key is reachable with only the
earlier doors open, the exit is not (so each door is necessary), and it is
with all of them open; every thing stands on floor and off the markers; every
enemy's patrol is a corridor stretch of 4-adjacent floor tiles through no door
and the exit (and every treasure and Place thing) still reached in order with
every patrol tile walled (a level is solvable without touching an enemy; the shortest walk
:func:`solve` returns ignores enemies and may cross a patrol where the level
has loops).
"""

from __future__ import annotations

import heapq
from typing import Dict, List, Optional, Sequence, Set, Tuple

import numpy as np
from numpy.typing import NDArray

from .. import paths
from .things import Thing

__all__ = ["solve", "check", "ContentError"]

Tile = Tuple[int, int]


class ContentError(ValueError):
    """A level's things break a promise (a key behind its own door, a door nobody needs, ...)."""


def _locks(things: Sequence[Thing]) -> Tuple[Dict[int, Thing], Dict[int, Thing]]:
    """``(doors by id, keys by id)``, with every link checked."""
    doors = {t.id: t for t in things if t.kind == "door"}
    keys = {t.id: t for t in things if t.kind == "key"}
    for door in doors.values():
        found = keys.get(door.props.get("key", -1))
        if found is None or found.props.get("door") != door.id:
            raise ContentError(f"door {door.id} at {door.tile} has no key whose props['door'] is {door.id}")
    for key in keys.values():
        opens = doors.get(key.props.get("door", -1))
        if opens is None or opens.props.get("key") != key.id:
            raise ContentError(f"key {key.id} at {key.tile} opens no door (props['door'] = {key.props.get('door')!r})")
    return doors, keys


def _closed(tiles: NDArray[np.uint8], doors: Sequence[Thing]) -> NDArray[np.uint8]:
    out = np.array(tiles, dtype=np.uint8, copy=True)
    for door in doors:
        for x, y in door.tiles():
            out[y, x] = 1
    return out


def solve(tiles: NDArray[np.uint8], entrance: Tile, exit: Tile, things: Sequence[Thing]) -> Optional[List[Tile]]:
    """The shortest walk from ``entrance`` to ``exit`` that opens each door it passes with its key.

    None when no such walk exists. Without doors it is
    :func:`mazeplugin.paths.shortest_path`.

    >>> import numpy as np
    >>> from mazeplugin.content import Thing
    >>> tiles = np.zeros((1, 5), dtype=np.uint8)            # a corridor
    >>> tiles = np.vstack([tiles, [[1, 1, 0, 1, 1]]])       # with a nook below x = 2
    >>> door = Thing("door", 3, 0, 2, {"key": 1, "tiles": [[3, 0]]})
    >>> key = Thing("key", 2, 1, 1, {"door": 2})
    >>> solve(tiles, (0, 0), (4, 0), [door, key])
    [(0, 0), (1, 0), (2, 0), (2, 1), (2, 0), (3, 0), (4, 0)]
    """
    doors, keys = _locks(things)
    if not doors:
        return paths.shortest_path(tiles, entrance, exit)
    key_ids = sorted(keys)
    bit = {k: 1 << n for n, k in enumerate(key_ids)}
    door_of = {k: doors[keys[k].props["door"]] for k in key_ids}
    points: List[Tile] = [(int(entrance[0]), int(entrance[1]))] + [keys[k].tile for k in key_ids]
    maps: Dict[Tuple[int, int], NDArray[np.int32]] = {}
    # Dijkstra over (point, keys held); point 0 is the entrance, n >= 1 key n - 1.
    start = (0, 0)
    best: Dict[Tuple[int, int], int] = {start: 0}
    came: Dict[Tuple[int, int], Tuple[int, int]] = {}
    heap: List[Tuple[int, int, int]] = [(0, 0, 0)]
    finish: Optional[Tuple[int, int, int]] = None  # (length, point, held) of the best walk
    while heap:
        d, point, held = heapq.heappop(heap)
        if best.get((point, held), -1) != d:
            continue
        if finish is not None and d >= finish[0]:
            break
        shut = [door_of[k] for k in key_ids if not held & bit[k]]
        dist = paths.distance_map(_closed(tiles, shut), points[point])
        maps[(point, held)] = dist
        to_exit = int(dist[exit[1], exit[0]])
        if to_exit >= 0 and (finish is None or d + to_exit < finish[0]):
            finish = (d + to_exit, point, held)
        for n, k in enumerate(key_ids, start=1):
            if held & bit[k]:
                continue
            x, y = keys[k].tile
            step = int(dist[y, x])
            if step < 0:
                continue
            state = (n, held | bit[k])
            if d + step < best.get(state, 1 << 62):
                best[state] = d + step
                came[state] = (point, held)
                heapq.heappush(heap, (d + step, n, held | bit[k]))
    if finish is None:
        return None
    # Walk back through the states, each leg downhill on the map from its start.
    legs: List[List[Tile]] = []
    target = tuple(exit)
    state = (finish[1], finish[2])
    while True:
        legs.append(_downhill(maps[state], target))  # type: ignore[arg-type]
        if state == start:
            break
        target = points[state[0]]
        state = came[state]
    walk: List[Tile] = []
    for leg in reversed(legs):
        walk.extend(leg[1:] if walk else leg)
    return walk


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
) -> None:
    """Prove a level's things (see the module docstring); ``ContentError`` (a ``ValueError``) says what fails.

    >>> import mazeplugin as mp
    >>> level = mp.generate("kruskal", 15, 10, seed=2, keys=2, enemies=1)
    >>> check(level.tiles, level.entrance, level.exit, level.things)
    >>> check(level.tiles, level.entrance, level.exit, [t for t in level.things if t.kind != "key"])
    Traceback (most recent call last):
    ...
    mazeplugin.content.proof.ContentError: door 2 at (3, 14) has no key whose props['door'] is 2
    """
    h, w = tiles.shape
    markers = {tuple(m) for m in (entrance, exit) if m is not None}
    ids = [t.id for t in things]
    if len(set(ids)) != len(ids):
        raise ContentError("two things share an id")
    if ids != sorted(ids):
        raise ContentError("things are not sorted by id")
    for thing in things:
        for x, y in thing.tiles() + ((thing.x, thing.y),):
            if not (0 <= x < w and 0 <= y < h) or tiles[y, x] != 0:
                raise ContentError(f"{thing.kind} {thing.id} is on {(x, y)}, which is not a floor tile")
            if (x, y) in markers:
                raise ContentError(f"{thing.kind} {thing.id} stands on a marker tile {(x, y)}")
    doors, keys = _locks(things)
    door_tiles = {tile for door in doors.values() for tile in door.tiles()}
    for door in doors.values():
        if door.tile not in door.tiles():
            raise ContentError(f"door {door.id}: its tile {door.tile} is not one of its props['tiles']")
    if doors and (entrance is None or exit is None):
        raise ContentError("a level with doors needs an entrance and an exit")
    if doors:
        _check_locks(tiles, entrance, exit, doors, keys)  # type: ignore[arg-type]
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
    if enemies and entrance is not None and exit is not None:
        # Solvable without touching an enemy: the same flood, patrols walled.
        patrols = {tuple(p) for enemy in enemies for p in enemy.props["patrol"]}
        others = [t for t in things if t.kind not in ("door", "key", "enemy")]
        _check_locks(tiles, entrance, exit, doors, keys, blocked=patrols, targets=others)


def _check_locks(
    tiles: NDArray[np.uint8],
    entrance: Tile,
    exit: Tile,
    doors: Dict[int, Thing],
    keys: Dict[int, Thing],
    *,
    blocked: Optional[Set[Tile]] = None,
    targets: Sequence[Thing] = (),
) -> None:
    """One flood from the entrance, opening doors in lock order (``props["lock"]``, then id).

    With ``blocked`` tiles walled (enemy patrols) it proves only that every key
    and the exit are still reached in that order, and every thing in
    ``targets`` too, not that each door is needed.
    """
    order = sorted(doors.values(), key=lambda d: (d.props.get("lock", 0), d.id))
    h, w = tiles.shape
    stride = int(w) + 2
    padded = np.zeros((h + 2, w + 2), dtype=bool)
    padded[1:-1, 1:-1] = tiles == 0
    for door in order:
        for x, y in door.tiles():
            padded[y + 1, x + 1] = False
    for x, y in blocked or ():
        padded[y + 1, x + 1] = False
    around = " avoiding every enemy patrol" if blocked else ""
    free = padded.ravel().tolist()
    reached = [False] * len(free)

    def at(tile: Tile) -> int:
        return (tile[1] + 1) * stride + tile[0] + 1

    def flood(frontier: List[int]) -> None:
        for i in frontier:
            reached[i] = True
            free[i] = False
        while frontier:
            nxt: List[int] = []
            push = nxt.append
            for i in frontier:
                for j in (i - stride, i + 1, i + stride, i - 1):
                    if free[j]:
                        free[j] = False
                        reached[j] = True
                        push(j)
            frontier = nxt

    flood([at(entrance)])
    for n, door in enumerate(order, start=1):
        key = keys[door.props["key"]]
        if not reached[at(key.tile)]:
            raise ContentError(
                f"key {key.id} at {key.tile} cannot be reached with only the doors before door "
                f"{door.id} (lock {n}) open{around}"
            )
        if not blocked and reached[at(exit)]:
            raise ContentError(f"door {door.id} (lock {n}) is not needed: the exit is reached without opening it")
        cells = [at(t) for t in door.tiles()]
        touching = [
            i for i in cells
            if any(reached[j] for j in (i - stride, i + 1, i + stride, i - 1))
        ]
        for i in cells:
            free[i] = True
        if touching:
            flood(touching)
    if not reached[at(exit)]:
        raise ContentError(f"the exit cannot be reached with every door open{around}")
    for thing in targets:
        if not reached[at(thing.tile)]:
            raise ContentError(f"{thing.kind} {thing.id} at {thing.tile} cannot be reached{around}")

