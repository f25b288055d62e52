"""Treasure and enemies in a dungeon's rooms, where the mission puts them (``treasure=``, ``enemies=``).

A mission says which rooms matter: the boss's room is where an enemy waits,
a dead end off the way is where treasure rewards a detour (Metazelda puts its
rewards in the hardest rooms). :func:`stocked` adds to a laid-out dungeon:

- **the mission's treasure rooms** (nodes of kind ``"treasure"``, a
  designer's): one ``"treasure"`` thing in each, in the mission's order,
  always (with or without ``treasure=``);
- **treasure** (``treasure=N``: N ``"treasure"`` things more): plain rooms
  that are dead ends of the mission first, then the other plain rooms, then
  the boss's, key, lock and treasure rooms, each list hardest (highest
  intensity) first; one a room, round again when there are more treasures
  than rooms;
- **enemies** (``"enemy"`` things): the boss's rooms first, then every room
  but the start and the goal, hardest first, each with a ``patrol`` of up to
  :data:`PATROL` tiles in a straight line inside its room.

No thing stands on a marker, a key or another thing, and a patrol never
takes a tile beside the room's doorways nor one whose loss would split the
room's floor: every tile of the room stays reachable from every doorway with
the patrol walled, so the dungeon is solvable without touching an enemy,
which :meth:`~mazeplugin.level.Level.check` proves (the content proof walls
every patrol). Randomness comes from stream :data:`STOCK_STREAM` of the seed,
so the dungeon's rooms, corridors, keys and doors are the same with and
without them.

>>> import mazeplugin as mp
>>> level = mp.generate("dungeon", 34, 34, seed=7, rooms=16, locks=2, pattern="gauntlet", treasure=2, enemies=2)
>>> level.check()
>>> sorted(t.kind for t in level.things if t.kind in ("treasure", "enemy"))
['enemy', 'enemy', 'treasure', 'treasure']
>>> boss = next(room for room in level.mission.nodes if room.kind == "boss")
>>> any(t.kind == "enemy" and t.tile in boss.tiles for t in level.things)
True
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from ..content.things import Thing
from ..level import Level
from ..seeds import Random, Seed
from .model import MissionError, MissionGraph

__all__ = ["stocked", "check_stock", "STOCK_STREAM", "PATROL", "MAX_STOCK"]

STOCK_STREAM = (7, 3)
"""The seed's stream treasure and enemies draw from: beside the layout's ``(7, 1)``, used by nothing else."""

PATROL = 3
"""Longest enemy patrol, in tiles."""

MAX_STOCK = 4096
"""Most treasure, and most enemies, one dungeon may be asked for."""

Tile = Tuple[int, int]


@dataclass(frozen=True)
class _Room:
    """A laid-out room as stocking reads it: its node's id, kind and intensity, its rectangle in tiles (outline
    included) and its floor tiles inside the outline."""

    id: str
    kind: str
    intensity: float
    x: int
    y: int
    width: int
    height: int
    tiles: Tuple[Tile, ...]


def _rooms(level: Level, mission: MissionGraph) -> List[_Room]:
    floor = np.asarray(level.tiles) == 0
    out = []
    for room in level.options["layout"]["rooms"]:
        x, y, w, h = (int(room[k]) for k in ("x", "y", "width", "height"))
        ys, xs = np.nonzero(floor[y + 1 : y + h - 1, x + 1 : x + w - 1])
        node = mission.node(room["id"])
        out.append(_Room(node.id, node.kind, node.intensity, x, y, w, h,
                         tuple(zip((xs + x + 1).tolist(), (ys + y + 1).tolist()))))
    index = {node.id: n for n, node in enumerate(mission.nodes)}
    return sorted(out, key=lambda room: index[room.id])  # the mission's order


def check_stock(treasure: object, enemies: object) -> Tuple[int, int]:
    """``(treasure, enemies)`` checked: ints from 0 to :data:`MAX_STOCK`."""
    out = []
    for name, value in (("treasure", treasure), ("enemies", enemies)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 0 <= int(value) <= MAX_STOCK:
            raise ValueError(f"{name} must be an int from 0 to {MAX_STOCK}, got {value!r}")
        out.append(int(value))
    return out[0], out[1]


def _rooms_for(ends: Set[str], rooms: Sequence[_Room], what: str) -> List[_Room]:
    """The rooms ``what`` ("treasure" or "enemy") goes in, in the order they are filled."""
    def rank(room: _Room) -> Tuple[int, float]:
        if what == "treasure":
            tier = 0 if room.kind == "room" and room.id in ends else 1 if room.kind == "room" else 2
        else:
            tier = 0 if room.kind == "boss" else 1
        return tier, -room.intensity

    usable = [room for room in rooms if room.kind not in ("start", "goal")]
    return sorted(usable, key=rank)  # a stable sort: equals stay in the mission's order


def _doorways(floor: Any, room: _Room) -> Set[Tile]:
    """The room's tiles beside an open tile of its outline (where corridors come in)."""
    out = set()
    for x, y in room.tiles:
        for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            on_outline = nx in (room.x, room.x + room.width - 1) or ny in (room.y, room.y + room.height - 1)
            if on_outline and floor[ny][nx]:
                out.add((x, y))
    return out


def _joined(tiles: Set[Tile]) -> bool:
    """Whether ``tiles`` are one 4-connected piece."""
    if not tiles:
        return True
    first = next(iter(tiles))
    seen, todo = {first}, [first]
    while todo:
        x, y = todo.pop()
        for step in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if step in tiles and step not in seen:
                seen.add(step)
                todo.append(step)
    return len(seen) == len(tiles)


def _patrol(rng: Random, room: _Room, floor_set: Set[Tile], taken: Set[Tile], doorways: Set[Tile]) -> \
        Optional[List[Tile]]:
    """A straight patrol of up to :data:`PATROL` tiles in ``room`` off ``taken`` and ``doorways`` whose loss
    leaves the room's floor (``floor_set``) in one piece, or None."""
    tiles = list(room.tiles)
    order = rng.permutation(len(tiles)).tolist()
    steps = [(0, -1), (1, 0), (0, 1), (-1, 0)]
    turn = rng.below(4)
    for k in order:
        start = tiles[k]
        if start in taken or start in doorways:
            continue
        for d in range(4):
            dx, dy = steps[(turn + d) % 4]
            route = [start]
            while len(route) < PATROL:
                x, y = route[-1]
                step = (x + dx, y + dy)
                if step not in floor_set or step in taken or step in doorways:
                    break
                route.append(step)
            while route:
                if _joined(floor_set - set(route)):
                    return route
                route.pop()
    return None


def stocked(level: Level, counts: Tuple[int, int], seed: Seed, mission: MissionGraph) -> Level:
    """``level`` (``mission`` laid out by :func:`~mazeplugin.dungeon.layout.layout`) with a treasure in each of
    the mission's treasure rooms and ``counts`` = ``(treasure, enemies)`` things more added (see the module's
    doc), from stream :data:`STOCK_STREAM` of ``seed``; a
    :class:`~mazeplugin.dungeon.MissionError` when its rooms cannot hold them."""
    rng = Random.keyed(seed, STOCK_STREAM)
    floor = (level.tiles == 0).tolist()
    rooms_laid = _rooms(level, mission)
    degree: Dict[str, int] = {room.id: 0 for room in rooms_laid}
    named = {edge.name: edge for edge in mission.edges}
    for item in level.options["layout"]["corridors"]:  # the carved edges
        edge = named[item["edge"]]
        degree[edge.a] += 1
        degree[edge.b] += 1
    ends = {name for name, count in degree.items() if count == 1}
    taken: Set[Tile] = {tuple(m) for m in (level.entrance, level.exit) if m is not None}
    for thing in level.things:
        taken.update(thing.tiles())
    walled: Set[Tile] = set()  # every patrol's tiles: the rooms stay in one piece without all of them
    things = list(level.things)
    next_id = max((t.id for t in things), default=0) + 1
    treasure, enemies = counts
    for room in rooms_laid:  # the mission's own treasure rooms first, one treasure each
        if room.kind == "treasure":
            free = [tile for tile in room.tiles if tile not in taken]
            if not free:
                raise MissionError(f"treasure room {room.id!r} has no free floor tile for its treasure")
            tile = free[rng.below(len(free))]
            things.append(Thing("treasure", tile[0], tile[1], next_id, {"room": room.id}))
            taken.add(tile)
            next_id += 1
    for what, count in (("treasure", treasure), ("enemy", enemies)):
        rooms = _rooms_for(ends, rooms_laid, what)
        placed = 0
        while placed < count:
            before = placed
            for room in rooms:
                if placed == count:
                    break
                free = [tile for tile in room.tiles if tile not in taken]
                if what == "treasure":
                    if not free:
                        continue
                    tile = free[rng.below(len(free))]
                    things.append(Thing("treasure", tile[0], tile[1], next_id, {"room": room.id}))
                    taken.add(tile)
                else:
                    route = _patrol(rng, room, set(room.tiles) - walled, taken, _doorways(floor, room))
                    if route is None:
                        continue
                    walled.update(route)
                    things.append(Thing("enemy", route[0][0], route[0][1], next_id,
                                        {"patrol": [list(t) for t in route], "room": room.id}))
                    taken.update(route)
                next_id += 1
                placed += 1
            if placed == before:
                raise MissionError(f"{'treasure' if what == 'treasure' else 'enemies'}={count}: the dungeon's rooms "
                                   f"hold only {placed}; ask for fewer, or more rooms")
    level.things = things
    return level
