"""Missions from a grammar of cycles: Joris Dormans' cyclic dungeon patterns with Metazelda's key levels.

Dormans (*Unexplored*; "Cyclic Dungeon Generation", 2017) builds a dungeon
from **cycles**: two arcs between an entrance and an exit, each arc given a
meaning. Metazelda (Tom Coxon) splits a dungeon into **key levels**: the
rooms reachable with the first ``i`` keys, the key of each lock placed in the
hardest room before it. :func:`mission` does both:

- the mission is a chain of **segments** (key levels), each one cycle of the
  pattern from its entry room to its exit room; the start is the first
  segment's entry, the goal the last one's exit; segments are joined by one
  edge each, locked (a key level) or open;
- each cycle's arcs follow the pattern (``t`` rooms inside the cycle):

  ============== ===============================================================
  ``two-paths``  two open arcs of about ``t/2`` rooms: two ways to the exit
  ``lock-and-key`` arc A holds a locked door; arc B holds its key at the bottom
                 of a one-way drop from the exit, so B cannot bypass the lock
  ``shortcut``   one long arc of all ``t`` rooms, and a one-way shortcut from
                 the exit back to the entry
  ``hidden``     a long open arc, and a short arc (about ``t/3``) through a
                 hidden edge: a secret the player never needs
  ``valve``      an open arc, and an arc with a one-way drop towards the exit
  ``gauntlet``   a short arc (about ``t/3``) through a boss's room, and a long safe one
  ``mixed``      each segment's cycle one of the six that fit its rooms, drawn
  ============== ===============================================================

- ``branching`` of the other rooms hang off the cycles in side branches (dead
  ends, where keys like to be);
- each lock between segments gets its key in the hardest room before it
  (a dead end first, then the longest detour off the way to the door, then
  the deepest), in its own key level when that has a free room;
- every room's intensity is its depth from the start, 0 to 1 (a boss's 1).

Every mission made is proven by :mod:`.solver` before it is returned: solvable,
no soft lock, every lock necessary, and the goal reachable without secrets.
Randomness comes from stream :data:`DUNGEON_STREAM` of the seed only, so no level
changes, and the same seed gives the same mission forever.

>>> m = mission(rooms=12, locks=2, pattern="lock-and-key", seed=7)
>>> m.prove().ok, len(m.nodes), len(m.edges_of("locked"))
(True, 12, 2)
>>> m == mission(rooms=12, locks=2, pattern="lock-and-key", seed=7)
True
"""

from __future__ import annotations

import numbers
from typing import Dict, List, Optional, Tuple

from ..seeds import Random, resolve_seed
from .missions import Mission
from .model import Edge, Node, depths
from .solver import prove

__all__ = ["mission", "least_distance", "least_rooms", "PATTERNS", "CYCLES", "DUNGEON_STREAM", "MAX_ROOMS",
           "MAX_LOCKS"]

CYCLES = ("two-paths", "lock-and-key", "shortcut", "hidden", "valve", "gauntlet")
"""The cycle patterns."""

PATTERNS = CYCLES + ("mixed",)
"""What ``pattern=`` takes: a cycle pattern for every segment, or ``"mixed"``."""

DUNGEON_STREAM = 7
"""The seed's stream the mission grammar draws from (``Random.keyed(seed, (7,))``): no level stage uses it."""

MAX_ROOMS = 2048
"""Most rooms :func:`mission` makes."""

MAX_LOCKS = 32
"""Most locks :func:`mission` makes."""

_INSIDE = {"two-paths": 2, "lock-and-key": 2, "shortcut": 2, "hidden": 3, "valve": 2, "gauntlet": 3}
"""The fewest rooms inside each pattern's cycle."""


def _crossing(pattern: str, inside: int) -> int:
    """Edges on the shortest way through a segment of ``pattern`` with ``inside`` rooms in its cycle, every door
    open, one-way edges their way only, no secret: what the pattern promises."""
    if pattern == "shortcut":
        return inside + 1
    if pattern == "hidden":
        return inside - max(1, inside // 3) + 1
    if pattern == "gauntlet":
        return max(1, inside // 3) + 1
    if pattern == "lock-and-key":
        return max(1, inside // 2) + 1
    return inside // 2 + 1  # two-paths, valve: the shorter of two halves


def _segments(pattern: str, locks: int) -> int:
    return max(1, locks) if pattern == "lock-and-key" else locks + 1


def _sizes(pattern: str, rooms: int, locks: int, branching: float) -> Tuple[List[int], int]:
    """The rooms inside each segment's cycle and the rooms in side branches: fixed by the arguments alone."""
    count = _segments(pattern, locks)
    fewest = 2 if pattern == "mixed" else _INSIDE[pattern]
    spare = rooms - 2 * count
    side = min(int(branching * spare), spare - count * fewest)
    inside = spare - side
    return [inside // count + (1 if i < inside % count else 0) for i in range(count)], side


def least_rooms(pattern: str, locks: int) -> int:
    """The fewest rooms :func:`mission` can make with ``pattern`` and ``locks``.

    >>> least_rooms("two-paths", 0), least_rooms("hidden", 2), least_rooms("lock-and-key", 1)
    (4, 15, 4)
    """
    count = _segments(pattern, locks)
    return count * (2 + (2 if pattern == "mixed" else _INSIDE[pattern]))


def least_distance(pattern: str, rooms: int, locks: int = 0, branching: float = 0.25) -> int:
    """The fewest edges from start to goal (every door open, no secret) any mission of these arguments has:
    the pattern's intent (a ``"shortcut"`` mission's long way round holds every room of its cycles).

    >>> least_distance("shortcut", 12, 0, branching=0.0), least_distance("two-paths", 12, 0, branching=0.0)
    (11, 6)
    """
    inside, _ = _sizes(pattern, rooms, locks, branching)
    if pattern == "mixed":
        steps = [min(_crossing(cycle, t) for cycle in CYCLES if t >= _INSIDE[cycle]) for t in inside]
    else:
        steps = [_crossing(pattern, t) for t in inside]
    return sum(steps) + len(inside) - 1


class _Draft:
    """A mission being built: rooms with their kind and key, edges with their kind and key, in creation order."""

    def __init__(self) -> None:
        self.kind: Dict[str, str] = {}
        self.key: Dict[str, Optional[str]] = {}
        self.segment: Dict[str, int] = {}
        self.edges: List[List[Optional[str]]] = []  # [a, b, kind, key]
        self.rooms = 0

    def room(self, segment: int, name: Optional[str] = None, kind: str = "room") -> str:
        if name is None:
            self.rooms += 1
            name = f"r{self.rooms}"
        self.kind[name], self.key[name], self.segment[name] = kind, None, segment
        return name

    def join(self, a: str, b: str, kind: str = "open", key: Optional[str] = None) -> List[Optional[str]]:
        edge: List[Optional[str]] = [a, b, kind, key]
        self.edges.append(edge)
        return edge

    def arc(self, a: str, b: str, inside: int, segment: int) -> Tuple[List[str], List[List[Optional[str]]]]:
        """A path from ``a`` to ``b`` through ``inside`` new rooms: its rooms (ends included) and its edges."""
        path = [a] + [self.room(segment) for _ in range(inside)] + [b]
        return path, [self.join(x, y) for x, y in zip(path, path[1:])]


def _cycle(draft: _Draft, rng: Random, pattern: str, entry: str, exit: str, inside: int, segment: int,
           key: Optional[str]) -> None:
    """One segment's cycle of ``pattern`` from ``entry`` to ``exit`` with ``inside`` rooms (``key``: the id of a
    lock-and-key cycle's lock)."""
    if pattern == "two-paths":
        draft.arc(entry, exit, (inside + 1) // 2, segment)
        draft.arc(entry, exit, inside // 2, segment)
    elif pattern == "lock-and-key":
        assert key is not None
        near = max(1, inside // 2)
        path, edges = draft.arc(entry, exit, near, segment)
        door = rng.below(len(edges))
        edges[door][2:] = ["locked", key]
        behind = path[door + 1]
        if draft.kind[behind] == "room":
            draft.kind[behind], draft.key[behind] = "lock", key
        path, edges = draft.arc(exit, entry, inside - near, segment)
        edges[0][2] = "one-way"  # the drop from the exit: arc B never climbs back to it
        draft.kind[path[1]], draft.key[path[1]] = "key", key
    elif pattern == "shortcut":
        draft.arc(entry, exit, inside, segment)
        draft.join(exit, entry, "one-way")
    elif pattern == "hidden":
        secret = max(1, inside // 3)
        draft.arc(entry, exit, inside - secret, segment)
        _, edges = draft.arc(entry, exit, secret, segment)
        edges[rng.below(len(edges))][2] = "hidden"
    elif pattern == "valve":
        draft.arc(entry, exit, (inside + 1) // 2, segment)
        _, edges = draft.arc(entry, exit, inside // 2, segment)
        edges[rng.below(len(edges))][2] = "one-way"  # walked from entry towards exit only
    else:  # gauntlet
        short = max(1, inside // 3)
        path, _ = draft.arc(entry, exit, short, segment)
        draft.kind[path[-2]] = "boss"
        draft.arc(entry, exit, inside - short, segment)


def _check(rooms: object, locks: object, pattern: object, branching: object) -> Tuple[int, int, str, float]:
    if pattern not in PATTERNS:
        raise ValueError(f"pattern must be one of {', '.join(repr(p) for p in PATTERNS)}; got {pattern!r}")
    assert isinstance(pattern, str)
    for name, value, high in (("locks", locks, MAX_LOCKS), ("rooms", rooms, MAX_ROOMS)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        if not 0 <= int(value) <= high:
            raise ValueError(f"{name} must be from 0 to {high:,}, got {value}")
    assert isinstance(rooms, numbers.Integral) and isinstance(locks, numbers.Integral)
    if pattern == "lock-and-key" and int(locks) < 1:
        raise ValueError("pattern 'lock-and-key' needs locks=1 or more (its cycle holds a lock)")
    fewest = least_rooms(pattern, int(locks))
    if int(rooms) < fewest:
        raise ValueError(f"rooms={rooms} is too few for pattern {pattern!r} with locks={locks}: at least {fewest}")
    if isinstance(branching, bool) or not isinstance(branching, numbers.Real) or not 0 <= float(branching) <= 1:
        raise ValueError(f"branching must be a number from 0 to 1 (the share of rooms in side branches), "
                         f"got {branching!r}")
    return int(rooms), int(locks), pattern, float(branching)


def mission(rooms: int = 12, locks: int = 1, pattern: str = "mixed", seed: object = None, *,
            branching: float = 0.25) -> Mission:
    """A seeded mission graph of ``rooms`` rooms (start and goal included) and ``locks`` locked doors, each
    with its key, from the cycle ``pattern`` (:data:`PATTERNS`); ``branching`` (0–1) is the share of the rooms
    outside the cycles, in side branches. ``seed`` as in ``mp.generate`` (None: a fresh one, kept in
    ``mission.seed``). The mission is proven fair before it is returned (see the module's doc).

    >>> import mazeplugin as mp
    >>> m = mp.mission(rooms=9, locks=0, pattern="shortcut", seed=1, branching=0.0)
    >>> [edge.name for edge in m.edges_of("one-way")], m.distance()
    (['goal->start'], 8)
    """
    rooms, locks, pattern, branching = _check(rooms, locks, pattern, branching)
    seed = resolve_seed(seed)
    rng = Random.keyed(seed, (DUNGEON_STREAM,))
    inside, side = _sizes(pattern, rooms, locks, branching)
    count = len(inside)
    patterns = [pattern] * count
    if pattern == "mixed":
        patterns = []
        for t in inside:  # the cycles that fit; a lock-and-key cycle takes one of the locks, while any are left
            inner = sum(p == "lock-and-key" for p in patterns)
            patterns.append(rng.choice([cycle for cycle in CYCLES if _INSIDE[cycle] <= t
                                        and (cycle != "lock-and-key" or inner < locks)]))
    inner = sum(p == "lock-and-key" for p in patterns)
    boundaries = count - 1
    locked = set(rng.permutation(boundaries)[: locks - inner].tolist()) if boundaries else set()

    draft = _Draft()
    entries = [draft.room(0, "start", "start")]
    exits: List[str] = []
    keys = iter(f"k{i}" for i in range(1, locks + 1))
    later: List[Tuple[int, str]] = []  # (segment before the door, key id)
    for i, (cycle, t) in enumerate(zip(patterns, inside)):
        exits.append(draft.room(i, "goal", "goal") if i == count - 1 else draft.room(i))
        _cycle(draft, rng, cycle, entries[i], exits[i], t, i, next(keys) if cycle == "lock-and-key" else None)
        if i < count - 1:
            entries.append(draft.room(i + 1))
            if i in locked:
                key = next(keys)
                draft.join(exits[i], entries[i + 1], "locked", key)
                draft.kind[entries[i + 1]], draft.key[entries[i + 1]] = "lock", key
                later.append((i, key))
            else:
                draft.join(exits[i], entries[i + 1])
    _branches(draft, rng, side, count)
    depth = _depths(draft)
    for segment, key in later:
        room = _deepest(draft, rng, depth, segment, exits[segment])
        draft.kind[room], draft.key[room] = "key", key
    deepest = max(depth.values()) or 1
    nodes = [Node(name, kind, 1.0 if kind == "boss" else round(depth[name] / deepest, 3), draft.key[name])
             for name, kind in draft.kind.items()]
    made = Mission(nodes, [Edge(str(a), str(b), str(kind), key) for a, b, kind, key in draft.edges],
                   seed=seed, pattern=pattern)
    proof, found = prove(made), made.problems()
    if not proof.ok or not proof.plain_route or found:  # the grammar's promise, kept by proof
        raise RuntimeError(f"mazeplugin made an unfair mission (pattern={pattern!r}, rooms={rooms}, locks={locks}, "
                           f"seed={seed!r}): {found or proof}; please report it")
    return made


def _branches(draft: _Draft, rng: Random, side: int, count: int) -> None:
    """``side`` rooms in dead-end branches: each joins a random segment, deepening its last branch or starting
    a new one from a room of that segment's cycle."""
    cycle_rooms: List[List[str]] = [[] for _ in range(count)]
    for name, segment in draft.segment.items():
        if draft.kind[name] != "goal":
            cycle_rooms[segment].append(name)
    last: List[Optional[str]] = [None] * count
    for _ in range(side):
        segment = rng.below(count)
        tip = last[segment]
        parent = tip if tip is not None and rng.below(2) else rng.choice(cycle_rooms[segment])
        room = draft.room(segment)
        draft.join(parent, room)
        last[segment] = room


def _depths(draft: _Draft, origin: str = "start") -> Dict[str, int]:
    """Each room's distance from ``origin``, every edge walked both ways."""
    return depths(draft.kind, ((str(a), str(b)) for a, b, _, _ in draft.edges), origin)


def _deepest(draft: _Draft, rng: Random, depth: Dict[str, int], segment: int, door: str) -> str:
    """The room for the key of the door after ``segment`` (``door``: the room before it): a free room of that key
    level (else of an earlier one), chosen as Metazelda chooses the hardest room: a dead end first, then the
    longest detour off the way from the start to the door, then not the door's own room, then the deepest;
    ties drawn."""
    degree: Dict[str, int] = {name: 0 for name in draft.kind}
    for a, b, _, _ in draft.edges:
        degree[str(a)] += 1
        degree[str(b)] += 1
    there = _depths(draft, door)

    def hardness(name: str) -> Tuple[bool, int, bool, int]:
        return degree[name] == 1, depth[name] + there[name] - depth[door], name != door, depth[name]

    for levels in ((segment,), tuple(range(segment))):
        free = [name for name, kind in draft.kind.items() if kind == "room" and draft.segment[name] in levels]
        if free:
            best = max(hardness(name) for name in free)
            return rng.choice([name for name in free if hardness(name) == best])
    raise AssertionError("every segment's cycle leaves a free room before its door")
