"""A mission laid out as a level: rooms placed by the mission graph, corridors carved between them.

After Edgar's incremental layout (Nepožitek, "Procedural generation of
dungeon layouts", 2019), on the maze model's cells: a dungeon is a
:class:`~mazeplugin.maze.Maze` whose rooms are open areas (prefabs) and whose
corridors are chains of cells, so the level is an ordinary square
:class:`~mazeplugin.level.Level` and the content layer's solver, proof,
drawing, files and gym read it as they read every level.

1. **Order.** The rooms breadth-first from the start over the edges the tiles
   carry (open, locked, hidden): every room after the start has a neighbour
   placed before it.
2. **Rooms.** Each room gets a prefab (an open rectangle of
   :data:`ROOM_SIZES` wide enough for its corridors, or one of ``prefabs=``
   with as many possible doors; with ``shapes=`` a polygon of :mod:`.shapes`,
   with ``interior=`` a maze room), then is placed in order: the
   spots beside its placed neighbours (1 to 6 cells away, shifted along the
   side) are sorted by their distance to all of them, and the first where
   the room keeps a cell clear of every other room is taken. Where none fits
   the search **backtracks**: the room before moves to its next spot.
3. **Corridors.** Each edge, the tree's first and then the ones closing
   cycles, is an A* search over free cells from outside one room's possible
   doors to outside the other's (a step beside a room costs more, keeping
   the doors of rooms free for the corridors after it); its cells are then taken, so corridors never
   cross and every connection of the tiles is an edge of the mission (a cycle
   of the mission is a cycle of the tiles). When an edge finds no way, the
   corridors are taken up and that edge is routed first (rip-up and
   reroute); when that fails too, the layout starts again (the next attempt,
   from the same stream).
4. **Content.** The entrance is in the start room, the exit in the goal room,
   each key on a floor tile of its key room, each locked edge a ``"door"``
   thing on the passage from its corridor into the room behind the lock (the
   mission's lock room, else the edge's ``b``); doors are numbered in the
   order a flood from the start can open them. A hidden edge is an ordinary
   corridor with a ``"secret"`` thing on its first passage. A mission's
   treasure rooms get a ``"treasure"`` thing each; ``treasure=`` and
   ``enemies=`` add those things in the rooms the mission marks for them
   (:mod:`.stocking`).

A **one-way** edge (a drop) is carved only with ``drops=True``: a corridor
like the others with a ``"drop"`` thing on its first passage, walked only
from ``a``'s room towards ``b``'s (``props["direction"]``: ``"north"``,
``"east"``, ``"south"`` or ``"west"``; the solver and proof walk it that way,
:mod:`mazeplugin.content.drops`), and doors numbered by a flood that walks
drops their way only. Without it (the default, so every dungeon made before
drops stays byte for byte the same) a one-way edge is not carved: a drop
walked both ways would let the player round a lock. Every mission
:func:`~mazeplugin.dungeon.mission` makes stays playable without them; a
designer's mission where some room or key is reached only through a drop is
then refused with a :class:`~mazeplugin.dungeon.MissionError`.

Randomness comes from stream ``(7, 1)`` of the seed (:data:`LAYOUT_STREAM`):
no level or mission changes, and one (mission, seed) gives one level forever.

>>> import mazeplugin as mp
>>> m = mp.mission(rooms=10, locks=1, pattern="lock-and-key", seed=3)
>>> level = layout(m, seed=3)
>>> level.check()
>>> sorted({t.kind for t in level.things})
['door', 'key']
>>> level.options["layout"]["rooms"][0]["id"]
'start'
"""

from __future__ import annotations

import functools
import math
import numbers
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np
from numpy.typing import NDArray

from ..content.things import Thing
from ..level import Level
from ..maze import Maze
from ..rooms.layer import carve_rooms
from ..rooms.placing import PlacedRoom
from ..rooms.prefab import Prefab
from ..seeds import Random, resolve_seed
from .files import mission_to_dict
from .canvas import Attempt, Rect, route_all
from .model import Edge, MissionError, MissionGraph, depths
from .shapes import RECT_SIZES, check_interior, check_shapes, draw_room, interior_rng
from .stocking import check_stock, stocked

__all__ = ["layout", "LAYOUT_STREAM", "ROOM_SIZES", "CARVED", "MAX_LAYOUT_ROOMS", "MAX_ATTEMPTS"]

LAYOUT_STREAM = (7, 1)
"""The seed's stream the layout draws from: below the mission grammar's stream 7, used by no level stage."""

ROOM_SIZES = RECT_SIZES
"""The open rectangles (cells) a room is drawn from when no ``prefabs`` are given; a boss's room is 4 × 4."""

CARVED = ("open", "locked", "hidden")
"""The edge kinds laid out as corridors (a one-way drop only with ``drops=True``; see the module's doc)."""

MAX_LAYOUT_ROOMS = 200
"""Most rooms a mission may have to be laid out: the level records its mission and rooms in its options, which a
level file holds up to ``limits.MAX_OPTIONS_BYTES`` (a 200-room dungeon records about 45 KB)."""

MAX_ATTEMPTS = 64
"""Most attempts (each a fresh placement and its corridors) before a mission is refused as not laid out."""

_GAPS = (1, 2, 3, 4, 5, 6)


DROP_DIRECTIONS = {(0, -1): "north", (1, 0): "east", (0, 1): "south", (-1, 0): "west"}
"""A drop's ``props["direction"]`` for the step (in cells) its corridor takes out of ``a``'s room."""


def _carried(mission: MissionGraph, drops: bool = False) -> List[Edge]:
    return [edge for edge in mission.edges if edge.kind in CARVED or (drops and edge.kind == "one-way")]


def _reached(names: Sequence[str], edges: Sequence[Edge], origin: str) -> Set[str]:
    """The rooms reached from ``origin`` over ``edges``, a one-way edge from ``a`` to ``b`` only."""
    near: Dict[str, List[str]] = {name: [] for name in names}
    for edge in edges:
        near[edge.a].append(edge.b)
        if edge.kind != "one-way":
            near[edge.b].append(edge.a)
    seen, todo = {origin}, [origin]
    while todo:
        for other in near[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def _order(mission: MissionGraph, edges: Sequence[Edge]) -> Tuple[List[str], List[Edge], List[Edge]]:
    """The rooms breadth-first from the start over ``edges``, the edges of that tree and the others."""
    near: Dict[str, List[Tuple[str, Edge]]] = {node.id: [] for node in mission.nodes}
    for edge in edges:
        near[edge.a].append((edge.b, edge))
        near[edge.b].append((edge.a, edge))
    order, tree = [mission.start], []
    seen = {mission.start}
    at = 0
    while at < len(order):
        for other, edge in near[order[at]]:
            if other not in seen:
                seen.add(other)
                order.append(other)
                tree.append(edge)
        at += 1
    missing = [node.id for node in mission.nodes if node.id not in seen]
    if missing:
        raise MissionError(f"the mission cannot be laid out: room {missing[0]!r} is reached only through one-way "
                           f"edges, which the tiles do not carry yet (every room needs an open, locked or hidden "
                           f"way from the start)")
    tree_ids = {id(edge) for edge in tree}
    return order, tree, [edge for edge in edges if id(edge) not in tree_ids]


def _lock_order(mission: MissionGraph, edges: Sequence[Edge]) -> List[Edge]:
    """The locked edges in an order a flood from the start opens them (each key reached with only the doors
    before its own open), or a MissionError naming a lock that cannot be opened on the tiles."""
    holder = {node.key: node.id for node in mission.nodes if node.kind == "key"}
    locked = [edge for edge in edges if edge.kind == "locked"]
    count: Dict[Optional[str], int] = {}
    for edge in locked:
        count[edge.key] = count.get(edge.key, 0) + 1
        if count[edge.key] > 1:
            raise MissionError(f"the mission cannot be laid out: key {edge.key!r} opens more than one door, and "
                               f"a level's key opens one door")
    opened: List[Edge] = []
    while True:
        open_edges = [edge for edge in edges if edge.kind != "locked"] + opened
        reached = _reached([node.id for node in mission.nodes], open_edges, mission.start)
        ready = [edge for edge in locked if edge not in opened and holder[edge.key] in reached
                 and (edge.a in reached or edge.b in reached)]
        if not ready:
            break
        opened.append(ready[0])
    if len(opened) < len(locked):
        late = next(edge for edge in locked if edge not in opened)
        raise MissionError(f"the mission cannot be laid out: the door of edge {late.name} cannot be opened on the "
                           f"tiles (its key is reached only through one-way edges)")
    return opened


def _spots(rng: Random, rect_size: Tuple[int, int], placed: List[Rect]) -> List[Rect]:
    """Where a room of ``rect_size`` may go beside each placed neighbour, nearest to all of them first."""
    w, h = rect_size
    spots: Set[Rect] = set()
    for ux, uy, uw, uh in placed:
        for gap in _GAPS:
            for shift in range(-h + 1, uh):
                spots.add((ux + uw + gap, uy + shift, w, h))
                spots.add((ux - gap - w, uy + shift, w, h))
            for shift in range(-w + 1, uw):
                spots.add((ux + shift, uy + uh + gap, w, h))
                spots.add((ux + shift, uy - gap - h, w, h))
    ordered = sorted(spots)
    corner = np.array([spot[:2] for spot in ordered], dtype=np.float64)
    middles = np.array([(ux + uw / 2, uy + uh / 2) for ux, uy, uw, uh in placed], dtype=np.float64)
    centre = corner + (w / 2, h / 2)
    cost = np.abs(centre[:, None, :] - middles[None, :, :]).sum(axis=(1, 2)) + 3.0 * rng.random(len(ordered))
    return [ordered[i] for i in np.argsort(cost, kind="stable").tolist()]


def _place(attempt: Attempt, rng: Random, order: List[str], near: Dict[str, List[str]],
           prefabs: Dict[str, Prefab], budget: int) -> bool:
    """Place every room in ``order`` (backtracking on overlap, at most ``budget`` spots tried)."""
    first = prefabs[order[0]]
    middle = attempt.side // 2
    attempt.put(1, order[0], (middle - first.width // 2, middle - first.height // 2, first.width, first.height))
    choices: List[List[Rect]] = [[]]
    i = 1
    while i < len(order):
        name = order[i]
        if len(choices) <= i:
            placed = [attempt.rects[other] for other in near[name] if other in attempt.rects]
            choices.append(_spots(rng, (prefabs[name].width, prefabs[name].height), placed))
        spots = choices[i]
        while spots:
            budget -= 1
            spot = spots.pop(0)
            if attempt.fits(spot):
                attempt.put(i + 1, name, spot)
                i += 1
                break
        else:
            if budget <= 0 or i == 1:
                return False
            choices.pop()  # backtrack: the room before tries its next spot
            i -= 1
            attempt.take(order[i])
        if budget <= 0:
            return False
    return True


def _check_prefabs(prefabs: object) -> Optional[Tuple[Prefab, ...]]:
    if prefabs is None:
        return None
    if not isinstance(prefabs, (list, tuple)) or not prefabs:
        raise TypeError(f"prefabs must be a non-empty list of mazeplugin.Prefab, not {prefabs!r}")
    for prefab in prefabs:
        if not isinstance(prefab, Prefab):
            raise TypeError(f"prefabs must hold only mazeplugin.Prefab objects, not {type(prefab).__name__}")
    return tuple(prefabs)


@functools.lru_cache(maxsize=None)
def _rectangle(width: int, height: int) -> Prefab:
    """``Prefab.rectangle(width, height)``, made once (a prefab is read-only; checking one costs a millisecond)."""
    return Prefab.rectangle(width, height)


def _check_room_for(bounds: Tuple[int, int], rooms: Dict[str, Prefab]) -> None:
    """A quick refusal, before any attempt, of bounds that cannot hold the rooms: too narrow for the widest
    room, too low for the tallest, or with fewer cells than the rooms' own."""
    width, height = bounds
    wide = max(rooms.values(), key=lambda p: p.width)
    tall = max(rooms.values(), key=lambda p: p.height)
    area = sum(p.width * p.height for p in rooms.values())
    if wide.width > width or tall.height > height or area > width * height:
        raise MissionError(f"the mission ({len(rooms)} rooms, {area} cells of room) cannot fit in width={width}, "
                           f"height={height} cells (its widest room is {wide.width} cells wide, its tallest "
                           f"{tall.height} high); give more space (a larger width and height) or fewer rooms")


def _middle(prefab: Prefab) -> Tuple[int, int]:
    """The room's floor cell nearest its middle (first in row order among equals)."""
    ys, xs = np.nonzero(prefab.floor)
    far = np.abs(2 * xs - (prefab.width - 1)) + np.abs(2 * ys - (prefab.height - 1))
    k = int(np.argmin(far))
    return int(xs[k]), int(ys[k])


def layout(mission: MissionGraph, seed: object = None, *, prefabs: Optional[Sequence[Prefab]] = None,
           attempts: int = 32, bounds: Optional[Tuple[int, int]] = None, shapes: object = None,
           interior: object = None, treasure: int = 0, enemies: int = 0, drops: bool = False) -> Level:
    """``mission`` laid out as a square :class:`~mazeplugin.level.Level` (see the module's doc), from stream
    :data:`LAYOUT_STREAM` of ``seed`` (None: the mission's own seed, else a fresh one). ``prefabs``: the rooms to
    draw from (default: open rectangles of :data:`ROOM_SIZES`); ``attempts``: placements tried (1 to
    :data:`MAX_ATTEMPTS`) before a :class:`~mazeplugin.dungeon.MissionError` says the mission was not laid out.

    The level's ``algorithm`` is ``"dungeon"``; ``options["mission"]`` holds the mission (``Mission.to_dict``)
    and ``options["layout"]`` each room's rectangle in tiles, outline included (``{"id", "kind", "x", "y",
    "width", "height"}``), and each carved edge's corridor tiles (``{"edge", "tiles"}``). A Tiled map of the level
    has the rooms as an object layer ``rooms`` and the mission as its property ``mission``.

    ``bounds``: ``(width, height)`` in cells: the level is exactly that size, the dungeon centred in it, and
    only placements whose rooms and corridors fit are kept (``mp.generate("dungeon", width, height)``); a
    :class:`~mazeplugin.dungeon.MissionError` names the size when none fits in ``attempts``. Without it the level
    is as large as the dungeon.

    Opt-ins (each off by default, so a dungeon without them is the same level): ``shapes``, the room shapes drawn
    from (``"mixed"``, or names of :data:`~mazeplugin.dungeon.shapes.SHAPES`: rectangles and L, T, plus and U
    polygons); ``interior``, maze rooms (a generator's name: every room but the start, goal and boss's; or a dict
    of room id to generator name); ``treasure`` and ``enemies``, counts of things placed in the rooms the mission
    makes for them, besides the one treasure in each of the mission's treasure rooms
    (:mod:`~mazeplugin.dungeon.stocking`). A room's record in ``options["layout"]`` then also holds
    its ``"shape"`` (and ``"interior"``, its generator).
    ``drops``: carve the one-way edges too, each a corridor with a ``"drop"`` thing walked only its way (see the
    module's doc); False (the default) leaves them out, as every dungeon made before drops.
    """
    if not isinstance(drops, bool):
        raise TypeError(f"drops must be True or False, not {drops!r}")
    if not isinstance(mission, MissionGraph):
        raise TypeError(f"mission must be a mazeplugin.Mission, not {type(mission).__name__}")
    if len(mission.nodes) > MAX_LAYOUT_ROOMS:
        raise MissionError(f"a mission of at most {MAX_LAYOUT_ROOMS} rooms can be laid out; this one has "
                           f"{len(mission.nodes)}")
    if isinstance(attempts, bool) or not isinstance(attempts, numbers.Integral) or not 1 <= attempts <= MAX_ATTEMPTS:
        raise ValueError(f"attempts must be an int from 1 to {MAX_ATTEMPTS}, got {attempts!r}")
    designed = _check_prefabs(prefabs)
    drawn = check_shapes(shapes)
    mazes = check_interior(interior, mission)
    stock = check_stock(treasure, enemies)
    if designed is not None and (drawn is not None or mazes):
        raise ValueError("prefabs= gives every room its shape and inside; leave shapes= and interior= out with it")
    seed = resolve_seed(mission.seed if seed is None and mission.seed is not None else seed)
    rng = Random.keyed(seed, LAYOUT_STREAM)
    edges = _carried(mission, drops)
    order, tree, closing = _order(mission, edges)
    locks = _lock_order(mission, edges)
    near: Dict[str, List[str]] = {node.id: [] for node in mission.nodes}
    for edge in edges:
        near[edge.a].append(edge.b)
        near[edge.b].append(edge.a)
    kind = {node.id: node.kind for node in mission.nodes}
    rooms: Dict[str, Prefab] = {}
    shape_of: Dict[str, str] = {}
    for name in order:  # one shape per room, drawn once: every attempt moves the same rooms
        if designed is not None:
            fitting = [shape for shape in designed if len(shape.door_sides()) >= len(near[name])]
            if not fitting:
                raise MissionError(f"the mission cannot be laid out with these prefabs: room {name!r} has "
                                   f"{len(near[name])} corridors, and no prefab has that many possible doors (at "
                                   f"most {max(len(shape.door_sides()) for shape in designed)})")
            rooms[name] = rng.choice(fitting)
        elif drawn is not None or name in mazes:
            maze_rng = interior_rng(seed, mission, name) if name in mazes else None
            rooms[name], shape_of[name] = draw_room(rng, maze_rng, drawn or ("rect",), len(near[name]),
                                                    kind[name] == "boss", mazes.get(name))
        else:
            roomy = [size for size in ROOM_SIZES if sum(size) >= len(near[name]) + 2] or [(4, 4)]
            w, h = (4, 4) if kind[name] == "boss" else rng.choice(roomy)  # a room with many doors is wide
            rooms[name] = _rectangle(w, h)
    reach = max(max(p.width, p.height) for p in rooms.values()) + max(_GAPS) + 1
    side = int(math.ceil(math.sqrt(len(order)))) * 2 * reach + 2 * reach + 4
    if bounds is not None:
        _check_room_for(bounds, rooms)
    for _ in range(int(attempts)):
        attempt = Attempt(side, bounds)
        if not _place(attempt, rng, order, near, rooms, budget=40 * len(order)):
            continue
        attempt.settle()
        corridors = route_all(attempt, rooms, tree + closing)
        if corridors is not None:
            level = _level(mission, seed, attempt, order, rooms, edges, locks, corridors, rng, bounds)
            if shape_of:
                for room in level.options["layout"]["rooms"]:
                    if room["id"] in shape_of:
                        room["shape"] = shape_of[room["id"]]
                    if room["id"] in mazes:
                        room["interior"] = mazes[room["id"]]
            treasured = any(node.kind == "treasure" for node in mission.nodes)
            return stocked(level, stock, seed, mission) if any(stock) or treasured else level
    if bounds is not None:
        raise MissionError(f"the mission ({len(mission.nodes)} rooms, {len(edges)} corridors) did not fit in "
                           f"width={bounds[0]}, height={bounds[1]} cells in {attempts} attempts; give more space "
                           f"(a larger width and height) or fewer rooms")
    raise MissionError(f"the mission ({len(mission.nodes)} rooms, {len(edges)} corridors) could not be laid out in "
                       f"{attempts} attempts; try more attempts=, smaller prefabs or fewer edges between far rooms")


def _level(mission: MissionGraph, seed: Any, attempt: Attempt, order: List[str], rooms: Dict[str, Prefab],
           edges: List[Edge], locks: List[Edge], corridors: Dict[int, List[int]], rng: Random,
           bounds: Optional[Tuple[int, int]] = None) -> Level:
    side = attempt.side
    used = np.argwhere(attempt.owner != 0)
    (y0, x0), (y1, x1) = used.min(axis=0), used.max(axis=0)
    mask = attempt.owner[y0 : y1 + 1, x0 : x1 + 1] != 0
    if bounds is not None:  # the dungeon centred in a level of exactly the bounds' size
        width, height = bounds
        pad_x, pad_y = (width - mask.shape[1]) // 2, (height - mask.shape[0]) // 2
        framed = np.zeros((height, width), dtype=bool)
        framed[pad_y : pad_y + mask.shape[0], pad_x : pad_x + mask.shape[1]] = mask
        mask, x0, y0 = framed, x0 - pad_x, y0 - pad_y
    maze = Maze(int(mask.shape[1]), int(mask.shape[0]), mask)
    placed = [PlacedRoom(n, attempt.rects[name][0] - int(x0), attempt.rects[name][1] - int(y0), rooms[name])
              for n, name in enumerate(order, start=1)]
    carve_rooms(maze, placed)
    spot = {name: room for name, room in zip(order, placed)}

    def cell(flat: int) -> Tuple[int, int]:
        y, x = divmod(flat, side)
        return x - int(x0), y - int(y0)

    def tile(c: Tuple[int, int]) -> Tuple[int, int]:
        return 2 * c[0] + 1, 2 * c[1] + 1

    def passage(p: Tuple[int, int], q: Tuple[int, int]) -> Tuple[int, int]:
        return p[0] + q[0] + 1, p[1] + q[1] + 1

    walks: Dict[int, List[Tuple[int, int]]] = {}
    for edge in edges:
        walk = [cell(flat) for flat in corridors[id(edge)]]
        for p, q in zip(walk, walk[1:]):
            maze.open(maze.cell_id(*p), maze.cell_id(*q))
        walks[id(edge)] = walk

    def middle(name: str) -> Tuple[int, int]:
        mx, my = _middle(spot[name].prefab)
        return tile((spot[name].x + mx, spot[name].y + my))

    entrance, exit = middle(mission.start), middle(mission.goal)
    holder = {node.key: node.id for node in mission.nodes if node.kind == "key"}
    things: List[Thing] = []
    for lock, edge in enumerate(locks, start=1):
        room = spot[holder[edge.key]]
        ys, xs = np.nonzero(room.prefab.floor)
        k = rng.below(len(xs))
        kx, ky = tile((room.x + int(xs[k]), room.y + int(ys[k])))
        walk = walks[id(edge)]
        behind = edge.a if mission.node(edge.a).kind == "lock" and mission.node(edge.a).key == edge.key else edge.b
        door = passage(walk[-2], walk[-1]) if behind == edge.b else passage(walk[0], walk[1])
        things.append(Thing("key", kx, ky, 2 * lock - 1, {"door": 2 * lock, "lock": lock, "room": holder[edge.key]}))
        things.append(Thing("door", door[0], door[1], 2 * lock,
                            {"key": 2 * lock - 1, "lock": lock, "tiles": [list(door)], "edge": edge.name}))
    next_id = 2 * len(locks) + 1
    for edge in edges:
        if edge.kind == "hidden":
            walk = walks[id(edge)]
            x, y = passage(walk[0], walk[1])
            things.append(Thing("secret", x, y, next_id, {"edge": edge.name}))
            next_id += 1
    for edge in edges:
        if edge.kind == "one-way":  # the ledge out of a's room: walked from a towards b only
            walk = walks[id(edge)]
            x, y = passage(walk[0], walk[1])
            step = (walk[1][0] - walk[0][0], walk[1][1] - walk[0][1])
            things.append(Thing("drop", x, y, next_id, {"direction": DROP_DIRECTIONS[step], "edge": edge.name}))
            next_id += 1
    record = {
        "rooms": [{"id": name, "kind": mission.node(name).kind, "x": 2 * room.x, "y": 2 * room.y,
                   "width": 2 * room.prefab.width + 1, "height": 2 * room.prefab.height + 1}
                  for name, room in zip(order, placed)],
        "corridors": [{"edge": edge.name, "tiles": [list(tile(c)) for c in walks[id(edge)][1:-1]]}
                      for edge in edges],
    }
    options = {"mission": mission_to_dict(mission), "layout": record}
    return Level(maze, entrance=entrance, exit=exit, algorithm="dungeon", seed=seed, options=options, things=things)
