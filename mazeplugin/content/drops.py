"""One-way drops: the one rule for a step past a drop, and the solver and proof of a level that has them.

A **drop** is a :class:`~mazeplugin.content.Thing` of kind ``"drop"`` whose
``props["direction"]`` names the one way it is walked (``"north"``,
``"east"``, ``"south"`` or ``"west"``): a ledge the player drops down and
cannot climb back (a dungeon's one-way edge, ``mp.generate("dungeon", ...,
drops=True)``). A step onto or off a drop's tile goes its way only
(:func:`can_step`, ``level.can_step``), so a drop on a corridor is walked
through one way. A ``"drop"`` thing without a direction is a game's own kind,
as it always was (``Place("drop")`` makes those): nothing here reads it.

On a level with drops a walk is no longer reversible, so the solver and the
proof search the level as a directed graph (only such levels: every other
level keeps :mod:`mazeplugin.content.proof`'s floods). The floor is cut into
**pieces** where a walker goes both ways (the level's tiles as nodes,
:class:`~mazeplugin.content.cells.TileNodes`, joined by their passages
that no door shuts and no drop turns one way), and the pieces are joined by
the door and drop passages, each with the doors that shut it and the way it is
walked. A state is *(piece, keys held)*: within a piece every tile is reached
and every key on it picked up, so the states of the tiles fold into a few.

:func:`check_drops` proves, on that graph, what ``level.check()`` promises:
each key reached with only the earlier doors open and the exit not, the
exit with all of them; each door necessary (shut, with every other door open,
the exit is out of reach); and **no soft lock**: from every state reachable
from the entrance the exit stays reachable. :func:`solve_with_drops` is the
shortest walk (:func:`~mazeplugin.content.cells.best_walk` over
breadth-first searches that walk each drop its way only).

>>> import numpy as np
>>> tiles = np.zeros((1, 5), dtype=np.uint8)                 # a corridor, a drop at x = 2 walked east
>>> drop = Thing("drop", 2, 0, 1, {"direction": "east"})
>>> can_step(tiles, drops_of([drop]), (1, 0), (2, 0)), can_step(tiles, drops_of([drop]), (3, 0), (2, 0))
(True, False)
>>> solve_with_drops(tiles, (0, 0), (4, 0), [drop])
[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]
>>> solve_with_drops(tiles, (4, 0), (0, 0), [drop]) is None
True
"""

from __future__ import annotations

from collections import deque
from typing import Any, Dict, List, Mapping, Optional, Sequence, Set, Tuple

import numpy as np
from numpy.typing import NDArray

from ..limits import MAX_SOLVE_STEPS, MAX_SOLVE_TILE_STEPS
from ..unionfind import component_roots
from .cells import TileNodes, best_walk, doors_needed, lock_order
from .things import ContentError, Thing, at_tile, in_lock_order, locks_of

__all__ = ["DIRECTIONS", "is_drop", "drops_of", "passes", "can_step", "OneWayFloor", "solve_with_drops", "check_drops"]

Tile = Tuple[int, int]
Step = Tuple[int, int]

DIRECTIONS: Dict[str, Step] = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
"""A drop's ``props["direction"]`` names and their ``(dx, dy)`` steps."""

_SAID = " (each drop walked its way only)"  # how a directed proof's messages end

_CODES = {step: n for n, step in enumerate(DIRECTIONS.values(), start=1)}  # 0: no drop on the tile


def passes(left: Any, entered: Any, step: Any) -> Any:
    """**The** rule of a step past drops: every drop on the tile left or the tile entered points the step's way.
    Each argument is a direction code (1 north, 2 east, 3 south, 4 west, in :data:`DIRECTIONS`' order; 0: no
    drop on that tile; ``step``: the step's own), an int or a numpy array alike: :func:`can_step` asks it of one
    step, :class:`OneWayFloor` of every passage of a level at once (the solver's and the proof's graph).

    >>> passes(0, 3, 3), passes(3, 0, 1), bool(passes(0, 0, 2))
    (True, False, True)
    """
    return ((left == 0) | (left == step)) & ((entered == 0) | (entered == step))


def is_drop(thing: Any) -> bool:
    """Whether ``thing`` is a one-way drop: kind ``"drop"`` with a ``props["direction"]``."""
    return bool(thing.kind == "drop" and "direction" in thing.props)


def drops_of(things: Sequence[Any]) -> Dict[Tile, Step]:
    """Each drop's tile and the ``(dx, dy)`` step it is walked (empty on a level without drops);
    ``ContentError`` naming a drop whose direction is not one of :data:`DIRECTIONS`."""
    out: Dict[Tile, Step] = {}
    for thing in things:
        if thing.kind != "drop" or "direction" not in thing.props:
            continue
        step = DIRECTIONS.get(thing.props["direction"]) if isinstance(thing.props["direction"], str) else None
        if step is None:
            raise ContentError(f"drop {thing.id} at {thing.tile}: props['direction'] must be one of "
                               f"{', '.join(DIRECTIONS)}; got {thing.props['direction']!r}")
        out[(thing.x, thing.y)] = step
    return out


def can_step(tiles: NDArray[np.uint8], drops: Mapping[Tile, Step], a: Tile, b: Tile) -> bool:
    """Whether a walker on tile ``a`` may step to ``b``: ``b`` a 4-adjacent floor tile of ``tiles``, and the step
    the way of every drop on ``a`` or ``b`` (``drops``: :func:`drops_of`). Locked doors are not asked here.

    >>> tiles = np.zeros((3, 1), dtype=np.uint8)
    >>> [can_step(tiles, {(0, 1): (0, 1)}, a, b) for a, b in [((0, 0), (0, 1)), ((0, 1), (0, 2)), ((0, 1), (0, 0))]]
    [True, True, False]
    """
    (ax, ay), (bx, by) = (int(a[0]), int(a[1])), (int(b[0]), int(b[1]))
    step = (bx - ax, by - ay)
    rows, columns = tiles.shape
    if abs(step[0]) + abs(step[1]) != 1 or not (0 <= bx < columns and 0 <= by < rows) or tiles[by, bx] != 0:
        return False
    left, entered = (_CODES[drops[t]] if t in drops else 0 for t in ((ax, ay), (bx, by)))
    return bool(passes(left, entered, _CODES[step]))


class OneWayFloor:
    """A level's floor as a directed graph (see the module's doc): its nodes
    (:class:`~mazeplugin.content.cells.TileNodes`), each node's steps with the doors that shut them, and the
    pieces a walker crosses both ways with the steps between them.

    ``doors``: the doors in bit order (bit ``n`` of a mask is ``doors[n]``); ``keys``: the tile of each door's
    key, in the same order; ``blocked``: tiles taken as wall (enemy patrols).
    """

    def __init__(self, tiles: NDArray[np.uint8], drops: Mapping[Tile, Step], doors: Sequence[Thing],
                 keys: Sequence[Tile], bridges: Optional[NDArray[np.uint8]] = None,
                 blocked: Sequence[Tile] = ()) -> None:
        self.nodes = nodes = TileNodes(tiles, bridges)
        count = nodes.graph.cells
        edges = nodes.graph.edges
        u, v = edges[:, 0], edges[:, 1]
        flat = np.arange(count, dtype=np.int64)
        flat[nodes.size:] = nodes.bridge_tiles
        code = np.zeros(nodes.size, dtype=np.int8)
        for (x, y), step in drops.items():
            code[y * nodes.width + x] = _CODES[step]
        cu, cv = code[flat[u]], code[flat[v]]
        east = flat[v] - flat[u] != nodes.width  # every passage runs east (+1) or south (+width) from u to v
        ahead = np.where(east, _CODES[(1, 0)], _CODES[(0, 1)])
        back = np.where(east, _CODES[(-1, 0)], _CODES[(0, -1)])
        forward, backward = passes(cu, cv, ahead), passes(cv, cu, back)  # u to v; v back to u
        gate = np.zeros(len(edges), dtype=np.int64)
        for n, shut in enumerate(nodes.door_edges(doors)):
            gate[list(shut)] |= 1 << n
        wall = np.zeros(count, dtype=bool)
        if blocked:
            wall[sorted(nodes.walls(blocked))] = True
        alive = ~wall[u] & ~wall[v]
        forward &= alive
        backward &= alive
        # The node steps (both ways where allowed), for the tile searches of the solver.
        src = np.concatenate([u[forward], v[backward]])
        order = np.argsort(src, kind="stable")
        offsets = np.zeros(count + 1, dtype=np.int64)
        np.cumsum(np.bincount(src, minlength=count), out=offsets[1:])
        self._offsets: List[int] = offsets.tolist()
        self._targets: List[int] = np.concatenate([v[forward], u[backward]])[order].tolist()
        self._gates: List[int] = np.concatenate([gate[forward], gate[backward]])[order].tolist()
        # The pieces, and the steps between them.
        plain = forward & backward & (gate == 0)
        self.wall = wall
        self.roots = component_roots(count, u[plain], v[plain])
        self.links: Dict[int, List[Tuple[int, int]]] = {}
        ru, rv = self.roots[u].tolist(), self.roots[v].tolist()
        for k in np.flatnonzero((forward | backward) & ~plain).tolist():
            if forward[k]:
                self.links.setdefault(ru[k], []).append((rv[k], int(gate[k])))
            if backward[k]:
                self.links.setdefault(rv[k], []).append((ru[k], int(gate[k])))
        self.keys_in: Dict[int, int] = {}
        for n, tile in enumerate(keys):
            piece = self.piece(tile)
            if piece >= 0:
                self.keys_in[piece] = self.keys_in.get(piece, 0) | 1 << n

    def node(self, tile: Tile) -> int:
        """The node on top of ``tile``."""
        return self.nodes.node(tile)

    def piece(self, tile: Tile) -> int:
        """The piece of ``tile`` (its node on top); -1 when it is walled."""
        node = self.node(tile)
        return -1 if self.wall[node] else int(self.roots[node])

    def flood(self, start: int, opened: int) -> Set[int]:
        """The pieces reached from piece ``start`` with the doors of the mask ``opened`` open (keys aside)."""
        seen = {start}
        stack = [start]
        while stack:
            for other, gate in self.links.get(stack.pop(), ()):
                if not gate & ~opened and other not in seen:
                    seen.add(other)
                    stack.append(other)
        return seen

    def states(self, start: int) -> Tuple[List[Tuple[int, int]], Dict[Tuple[int, int], List[Tuple[int, int]]]]:
        """The states *(piece, keys held)* reached from piece ``start`` (its keys picked up), in the order
        found, and the states each is stepped into from (a state's keys: every key of the pieces walked)."""
        first = (start, self.keys_in.get(start, 0))
        found = [first]
        came: Dict[Tuple[int, int], List[Tuple[int, int]]] = {first: []}
        at = 0
        while at < len(found):
            piece, held = state = found[at]
            at += 1
            if len(found) * max(len(self.keys_in), 1) > MAX_SOLVE_STEPS:
                raise ValueError(f"this level's keys can be picked up in too many orders: proving it would take "
                                 f"more than {MAX_SOLVE_STEPS:,} steps over states (place, keys held) "
                                 "(mazeplugin.limits.MAX_SOLVE_STEPS)")
            for other, gate in self.links.get(piece, ()):
                if gate & ~held:
                    continue
                following = (other, held | self.keys_in.get(other, 0))
                if following not in came:
                    came[following] = []
                    found.append(following)
                came[following].append(state)
        return found, came

    def search(self, source: int, opened: int) -> Tuple[List[int], List[int]]:
        """Breadth-first from node ``source`` with the doors of ``opened`` open, each drop walked its way:
        ``(distance, parent)`` per node, -1 where unreached."""
        count = len(self._offsets) - 1
        dist, parent = [-1] * count, [-1] * count
        offsets, targets, gates = self._offsets, self._targets, self._gates
        dist[source] = 0
        todo = deque([source])
        while todo:
            at = todo.popleft()
            d = dist[at] + 1
            for k in range(offsets[at], offsets[at + 1]):
                other = targets[k]
                if dist[other] < 0 and not gates[k] & ~opened:
                    dist[other], parent[other] = d, at
                    todo.append(other)
        return dist, parent


def _way(parent: Sequence[int], target: int) -> List[int]:
    out = [target]
    while parent[out[-1]] >= 0:
        out.append(parent[out[-1]])
    out.reverse()
    return out


def solve_with_drops(tiles: NDArray[np.uint8], entrance: Tile, exit: Tile, things: Sequence[Thing],
                     bridges: Optional[NDArray[np.uint8]] = None) -> Optional[List[Tile]]:
    """The shortest walk of tiles from ``entrance`` to ``exit`` that walks every drop its way only and holds each
    door's key before passing it; None when there is none (:func:`~mazeplugin.content.solve` on a level with
    drops). ``ValueError`` naming :data:`~mazeplugin.limits.MAX_SOLVE_STEPS` when the keys can be picked up in
    too many orders to search."""
    doors, keys = locks_of(things, at_tile)
    key_ids = sorted(keys)
    floor = OneWayFloor(tiles, drops_of(things), [doors[keys[k].props["door"]] for k in key_ids],
                        [keys[k].tile for k in key_ids], bridges)
    points = [floor.node(entrance)] + [floor.node(keys[k].tile) for k in key_ids]
    targets = points[1:] + [floor.node(exit)]
    count = len(key_ids)
    searched: Dict[Tuple[int, int], Tuple[List[int], List[int]]] = {}
    allowed = max(2 * count + 2, MAX_SOLVE_TILE_STEPS // max(len(floor.roots), 1))  # as the square solver's bound

    def search(point: int, held: int) -> Tuple[List[int], List[int]]:
        found = searched.get((point, held))
        if found is None:
            if len(searched) >= allowed:
                raise ValueError(
                    f"this level's {count} keys open too many different ways: solving it would need more than "
                    f"{allowed:,} breadth-first searches over its {len(floor.roots):,} tiles "
                    f"(mazeplugin.limits.MAX_SOLVE_TILE_STEPS = {MAX_SOLVE_TILE_STEPS:,} tile steps)")
            found = searched[(point, held)] = floor.search(points[point], held)
        return found

    walk = best_walk(count, lambda point, held: [search(point, held)[0][t] for t in targets],
                     lambda point, held, target: _way(search(point, held)[1], targets[target]))
    return None if walk is None else [floor.nodes.tile(n) for n in walk]


def check_drops(tiles: NDArray[np.uint8], entrance: Optional[Tile], exit: Optional[Tile], things: Sequence[Thing],
                bridges: Optional[NDArray[np.uint8]] = None) -> None:
    """The proof of a level with drops (see the module's doc; what :func:`~mazeplugin.content.check` runs instead
    of its floods there): ``ContentError`` (a ``ValueError``) says what fails. The things' tiles and the enemies'
    patrols are :func:`~mazeplugin.content.check`'s to check first.

    >>> import numpy as np
    >>> tiles = np.zeros((1, 5), dtype=np.uint8)
    >>> check_drops(tiles, (0, 0), (4, 0), [Thing("drop", 2, 0, 1, {"direction": "east"})])
    >>> check_drops(tiles, (0, 0), (4, 0), [Thing("drop", 2, 0, 1, {"direction": "west"})])
    Traceback (most recent call last):
    ...
    mazeplugin.content.things.ContentError: the exit cannot be reached from the entrance (each drop walked its way only)
    """
    drops = drops_of(things)
    if entrance is None or exit is None:
        return
    doors, keys = locks_of(things, at_tile)
    order = in_lock_order(doors)
    held_keys = [keys[door.props["key"]] for door in order]
    floor = OneWayFloor(tiles, drops, order, [key.tile for key in held_keys], bridges)
    start, goal = floor.piece(entrance), floor.piece(exit)
    found, came = floor.states(start)
    finishing = [state for state in found if state[0] == goal]
    if not finishing:
        raise ContentError(f"the exit cannot be reached from the entrance{_SAID}")
    _lock_order(floor, start, goal, order, held_keys, "")
    every = (1 << len(order)) - 1
    doors_needed(lambda n: floor.flood(start, every & ~(1 << n)), goal, order, _SAID)
    finishes = set(finishing)
    todo = list(finishing)
    while todo:
        for before in came[todo.pop()]:
            if before not in finishes:
                finishes.add(before)
                todo.append(before)
    stranded = [state for state in found if state not in finishes]
    if stranded:
        piece, held = stranded[0]  # (a piece is numbered by its first node)
        ids = [key.id for n, key in enumerate(held_keys) if held >> n & 1]
        raise ContentError(f"soft lock: at {floor.nodes.tile(piece)} holding keys {ids}, reached from the entrance, "
                           "the exit can no longer be reached (a drop cannot be climbed back)")
    enemies = [t for t in things if t.kind == "enemy"]
    if enemies:  # solvable without touching an enemy: the same floods with every patrol tile walled
        walled = OneWayFloor(tiles, drops, order, [key.tile for key in held_keys], bridges,
                             [tuple(p) for enemy in enemies for p in enemy.props["patrol"]])
        _lock_order(walled, walled.piece(entrance), walled.piece(exit), order, held_keys, " avoiding every enemy patrol",
                    [t for t in things if t.kind not in ("door", "key", "enemy")])


def _lock_order(floor: OneWayFloor, start: int, goal: int, order: Sequence[Thing], keys: Sequence[Thing],
                around: str, targets: Sequence[Thing] = ()) -> None:
    """:func:`~mazeplugin.content.cells.lock_order` on ``floor``'s pieces, from ``start``, doors in ``order``."""
    lock_order(lambda opened: floor.flood(start, opened) if start >= 0 else set(), goal,
               [(door, key, floor.piece(key.tile)) for door, key in zip(order, keys)], at_tile, around=around,
               said=_SAID, targets=[(thing, floor.piece(thing.tile)) for thing in targets])
