"""The mission graph: what a dungeon asks of the player, before any room is laid out.

A mission (:class:`MissionGraph`) is a graph of :class:`Node` (start, goal, plain rooms,
rooms holding a key, rooms behind a locked door, a boss's room, a room holding
treasure (a designer's: the grammar makes none); each with an
id and a 0–1 intensity, after Metazelda) joined by :class:`Edge` (open,
locked by a key id, one-way: a drop that cannot be climbed back, hidden: a
secret passage). Keys are kept once picked up and open every door of their id.

A mission is immutable (frozen dataclasses over tuples) and structurally
sound once made: ``MissionGraph(...)`` refuses unknown kinds, repeated ids, edges to
nowhere and a locked door whose key no room holds, each fault named.
Whether it can be played is the solver's question (:mod:`.solver`); users
hold :class:`~mazeplugin.dungeon.Mission` (:mod:`.mission`), which asks it:
``problems()`` lists what is wrong (goal unreachable, a key behind its own
lock, a one-way edge that soft-locks), ``check()`` raises.

>>> m = MissionGraph([Node("start", "start"), Node("k", "key", key="red"), Node("goal", "goal")],
...             [Edge("start", "k"), Edge("start", "goal", "locked", key="red")])
>>> m.start, m.keys
('start', ('red',))
>>> MissionGraph([Node("start", "start"), Node("goal", "goal")], [Edge("start", "goal", "locked", key="red")])
Traceback (most recent call last):
...
mazeplugin.dungeon.model.MissionError: edge start-goal is locked by key 'red', which no key room holds
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

__all__ = ["Node", "Edge", "MissionGraph", "MissionError", "NODE_KINDS", "EDGE_KINDS", "MAX_NODES", "MAX_EDGES",
           "MAX_KEYS", "MAX_ID_CHARS", "depths"]

NODE_KINDS = ("start", "goal", "room", "key", "lock", "boss", "treasure")
"""What a node is: the start, the goal, a plain room, a room holding a key, the room a locked door opens
into, a boss's room, a room holding treasure (laid out, it gets one ``"treasure"`` thing: see
:mod:`.stocking`; :func:`~mazeplugin.dungeon.mission`'s grammar makes none, only a designer's mission has
them)."""

EDGE_KINDS = ("open", "locked", "one-way", "hidden")
"""What an edge is: an open passage, a door locked by a key, a drop walked only from ``a`` to ``b``, a secret
passage (walkable both ways once found)."""

MAX_NODES = 4096
"""Most nodes a mission may hold."""

MAX_EDGES = 16384
"""Most edges a mission may hold."""

MAX_KEYS = 64
"""Most distinct key ids a mission may use (the solver's state is a room and the keys held)."""

MAX_ID_CHARS = 64
"""Longest node or key id."""


class MissionError(ValueError):
    """A mission that is malformed or cannot be played; the message names what is wrong."""


def _check_id(value: object, what: str) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_ID_CHARS:
        raise MissionError(f"{what} must be a non-empty str of at most {MAX_ID_CHARS} characters, got {value!r}")
    return value


@dataclass(frozen=True)
class Node:
    """A room of the mission: ``id``, ``kind`` (one of :data:`NODE_KINDS`), ``intensity`` in [0, 1] and, for a
    ``"key"`` room the key it holds, for a ``"lock"`` room the key of the door into it."""

    id: str
    kind: str = "room"
    intensity: float = 0.0
    key: Optional[str] = None

    def __post_init__(self) -> None:
        _check_id(self.id, "a node's id")
        if self.kind not in NODE_KINDS:
            raise MissionError(f"node {self.id!r}: kind must be one of {', '.join(NODE_KINDS)}; got {self.kind!r}")
        if (isinstance(self.intensity, bool) or not isinstance(self.intensity, (int, float))
                or not math.isfinite(self.intensity) or not 0.0 <= self.intensity <= 1.0):
            raise MissionError(f"node {self.id!r}: intensity must be a number from 0 to 1, got {self.intensity!r}")
        object.__setattr__(self, "intensity", float(self.intensity))
        if self.kind in ("key", "lock"):
            _check_id(self.key, f"node {self.id!r} ({self.kind}): its key")
        elif self.key is not None:
            raise MissionError(f"node {self.id!r}: only key and lock rooms name a key; a {self.kind} has none")


@dataclass(frozen=True)
class Edge:
    """A connection from ``a`` to ``b`` of ``kind`` (one of :data:`EDGE_KINDS`); ``key`` for a locked door.
    Only a one-way edge has a direction: it is walked from ``a`` to ``b``."""

    a: str
    b: str
    kind: str = "open"
    key: Optional[str] = None

    def __post_init__(self) -> None:
        _check_id(self.a, "an edge's end")
        _check_id(self.b, "an edge's end")
        if self.kind not in EDGE_KINDS:
            raise MissionError(f"edge {self.name}: kind must be one of {', '.join(EDGE_KINDS)}; got {self.kind!r}")
        if self.kind == "locked":
            _check_id(self.key, f"edge {self.name} (locked): its key")
        elif self.key is not None:
            raise MissionError(f"edge {self.name}: only a locked edge names a key; a {self.kind} edge has none")

    @property
    def name(self) -> str:
        """``a-b``, or ``a->b`` for a one-way edge: how messages name it."""
        return f"{self.a}->{self.b}" if self.kind == "one-way" else f"{self.a}-{self.b}"


@dataclass(frozen=True)
class MissionGraph:
    """Nodes and edges, checked for structure when made (see the module's doc); ``seed`` and ``pattern`` record
    how :func:`~mazeplugin.dungeon.mission` made it (None for a designer's graph).

    The solver, files and drawing read this; users hold its subclass
    :class:`mazeplugin.dungeon.Mission`, which adds them as methods."""

    nodes: Tuple[Node, ...]
    edges: Tuple[Edge, ...]
    seed: Optional[object] = None
    pattern: Optional[str] = None
    _index: Dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __init__(self, nodes: Iterable[Node], edges: Iterable[Edge], *, seed: Optional[object] = None,
                 pattern: Optional[str] = None) -> None:
        node_list = list(nodes)
        edge_list = list(edges)
        if len(node_list) > MAX_NODES or len(edge_list) > MAX_EDGES:
            raise MissionError(f"a mission holds at most {MAX_NODES:,} nodes and {MAX_EDGES:,} edges; got "
                               f"{len(node_list):,} and {len(edge_list):,}")
        for item in node_list:
            if not isinstance(item, Node):
                raise MissionError(f"nodes must be Node objects, got {type(item).__name__}")
        for other in edge_list:
            if not isinstance(other, Edge):
                raise MissionError(f"edges must be Edge objects, got {type(other).__name__}")
        object.__setattr__(self, "nodes", tuple(node_list))
        object.__setattr__(self, "edges", tuple(edge_list))
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "pattern", pattern)
        object.__setattr__(self, "_index", {})
        self._check_structure()

    def _check_structure(self) -> None:
        index = self._index
        for i, node in enumerate(self.nodes):
            if node.id in index:
                raise MissionError(f"node id {node.id!r} is used twice")
            index[node.id] = i
        for kind in ("start", "goal"):
            count = sum(node.kind == kind for node in self.nodes)
            if count != 1:
                raise MissionError(f"a mission has exactly one {kind} node; this one has {count}")
        held: Dict[str, str] = {}
        for node in self.nodes:
            if node.kind == "key":
                assert node.key is not None
                if node.key in held:
                    raise MissionError(f"key {node.key!r} is held by two rooms: {held[node.key]!r} and {node.id!r}")
                held[node.key] = node.id
        if len(held) > MAX_KEYS:
            raise MissionError(f"a mission uses at most {MAX_KEYS} keys; this one has {len(held)}")
        doors = set()
        pairs = set()
        for edge in self.edges:
            for end in (edge.a, edge.b):
                if end not in index:
                    raise MissionError(f"edge {edge.name} names node {end!r}, which the mission does not hold")
            if edge.a == edge.b:
                raise MissionError(f"edge {edge.name} joins a node to itself")
            pair = (min(edge.a, edge.b), max(edge.a, edge.b))
            if pair in pairs:
                raise MissionError(f"edge {edge.name}: {edge.a!r} and {edge.b!r} are joined twice (one edge a pair)")
            pairs.add(pair)
            if edge.kind == "locked":
                assert edge.key is not None
                if edge.key not in held:
                    raise MissionError(f"edge {edge.name} is locked by key {edge.key!r}, which no key room holds")
                doors.add(edge.key)
        for key, room in held.items():
            if key not in doors:
                raise MissionError(f"key {key!r} (in room {room!r}) opens no door")
        guarded = {(end, edge.key) for edge in self.edges if edge.kind == "locked" for end in (edge.a, edge.b)}
        for node in self.nodes:
            if node.kind == "lock" and (node.id, node.key) not in guarded:
                raise MissionError(f"lock room {node.id!r} names key {node.key!r}, but no door of that key opens "
                                   f"into it")

    # --- reading ---------------------------------------------------------------------------------------------

    def node(self, node_id: str) -> Node:
        """The node called ``node_id`` (a KeyError naming it if there is none)."""
        try:
            return self.nodes[self._index[node_id]]
        except KeyError:
            raise KeyError(f"the mission has no node {node_id!r}") from None

    @property
    def start(self) -> str:
        """The start node's id."""
        return next(node.id for node in self.nodes if node.kind == "start")

    @property
    def goal(self) -> str:
        """The goal node's id."""
        return next(node.id for node in self.nodes if node.kind == "goal")

    @property
    def keys(self) -> Tuple[str, ...]:
        """The key ids, in node order."""
        return tuple(node.key for node in self.nodes if node.kind == "key" and node.key is not None)

    def edges_of(self, kind: str) -> Tuple[Edge, ...]:
        """The edges of one kind (see :data:`EDGE_KINDS`)."""
        if kind not in EDGE_KINDS:
            raise ValueError(f"kind must be one of {', '.join(EDGE_KINDS)}; got {kind!r}")
        return tuple(edge for edge in self.edges if edge.kind == kind)

    def __repr__(self) -> str:
        locks = len(self.edges_of("locked"))
        return f"{type(self).__name__}({len(self.nodes)} nodes, {len(self.edges)} edges, {locks} locks, pattern={self.pattern!r})"


def depths(names: Iterable[str], pairs: Iterable[Tuple[str, str]], origin: str) -> Dict[str, int]:
    """Each room's distance in edges from ``origin``, breadth-first over ``pairs`` walked both ways; rooms not
    reached are left out. (The mission's layers in its drawing, the grammar's intensities and key rooms, the
    layout's floods.)

    >>> depths("abcd", [("a", "b"), ("b", "c")], "a")
    {'a': 0, 'b': 1, 'c': 2}
    """
    near: Dict[str, List[str]] = {name: [] for name in names}
    for a, b in pairs:
        near[a].append(b)
        near[b].append(a)
    depth = {origin: 0}
    frontier = [origin]
    while frontier:
        following = []
        for name in frontier:
            for other in near[name]:
                if other not in depth:
                    depth[other] = depth[name] + 1
                    following.append(other)
        frontier = following
    return depth


def sequence_of(value: object, what: str) -> Sequence[object]:
    """``value`` if it is a list or tuple, else a MissionError naming ``what``."""
    if not isinstance(value, (list, tuple)):
        raise MissionError(f"{what} must be a list, got {type(value).__name__}")
    return value

