"""The mission's solver: a breadth-first search over states (room, keys held), and the proof it gives.

A state is the room the player stands in and the set of keys picked up so
far (keys are kept and open every door of their id; a key is picked up on
entering its room). Moves follow the mission's edges: open and hidden edges
both ways, a locked edge both ways once its key is held, a one-way edge only
from ``a`` to ``b``. Reaching the goal ends the mission, so the search does
not go on from it.

:func:`prove` answers three questions a fair dungeon must pass:

- **solvable**: some state at the goal is reachable (``route``: the shortest);
- **no soft lock**: from every reachable state some goal state is still
  reachable (searched backwards from the goal states over the same moves);
  keys are never lost and every other move can be walked back, so only a
  one-way edge can strand the player, and ``soft_locks`` names each one that does;
- **every lock necessary**: for each locked edge, the goal cannot be reached
  with that edge taken away (``unnecessary_locks`` names the doors the player
  can go round).

>>> from .model import Edge, MissionGraph, Node
>>> m = MissionGraph([Node("start", "start"), Node("k", "key", key="red"), Node("goal", "goal")],
...             [Edge("start", "k"), Edge("start", "goal", "locked", key="red")])
>>> proof = prove(m)
>>> proof.route, proof.ok
(('start', 'k', 'start', 'goal'), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Set, Tuple

from .model import Edge, MissionError, MissionGraph

__all__ = ["Proof", "prove", "problems", "graph_distance", "MAX_STATES"]

MAX_STATES = 1_000_000
"""Most states (room, keys held) the solver explores before it refuses the mission as too large to prove."""

State = Tuple[int, int]


class _Moves:
    """The mission's rooms as numbers and, per room, the moves out of it: ``(room, key bit needed or 0, edge)``."""

    def __init__(self, mission: MissionGraph, *, hidden: bool = True, skip: Optional[Edge] = None,
                 closed_key: Optional[str] = None, keys_ignored: bool = False) -> None:
        self.ids = [node.id for node in mission.nodes]
        number = {name: i for i, name in enumerate(self.ids)}
        bits = {key: 1 << i for i, key in enumerate(sorted(set(mission.keys)))}
        self.pick = [bits[node.key] if node.kind == "key" and node.key is not None else 0 for node in mission.nodes]
        self.start = number[mission.start]
        self.goal = number[mission.goal]
        self.out: List[List[Tuple[int, int, int]]] = [[] for _ in self.ids]
        for index, edge in enumerate(mission.edges):
            if edge is skip or (edge.kind == "hidden" and not hidden):
                continue
            if edge.kind == "locked" and edge.key == closed_key:
                continue
            need = bits[edge.key] if edge.kind == "locked" and edge.key is not None and not keys_ignored else 0
            a, b = number[edge.a], number[edge.b]
            self.out[a].append((b, need, index))
            if edge.kind != "one-way":
                self.out[b].append((a, need, index))


@dataclass
class _Search:
    states: List[State]
    parent: List[int]
    moves: List[List[Tuple[int, int]]]  # per state: (next state, edge index)


def _search(graph: _Moves) -> _Search:
    first = (graph.start, graph.pick[graph.start])
    seen: Dict[State, int] = {first: 0}
    states, parent, moves = [first], [-1], []
    at = 0
    while at < len(states):
        room, held = states[at]
        out: List[Tuple[int, int]] = []
        if room != graph.goal:  # the mission ends at the goal
            for target, need, edge in graph.out[room]:
                if need and not held & need:
                    continue
                state = (target, held | graph.pick[target])
                number = seen.get(state)
                if number is None:
                    number = seen[state] = len(states)
                    if number >= MAX_STATES:
                        raise MissionError(f"the mission has more than {MAX_STATES:,} states (room, keys held) to "
                                           f"prove; use fewer keys or rooms")
                    states.append(state)
                    parent.append(at)
                out.append((number, edge))
        moves.append(out)
        at += 1
    return _Search(states, parent, moves)


def _route(graph: _Moves, search: _Search) -> Tuple[str, ...]:
    """The shortest route to the goal (BFS order: the first goal state found is the nearest), or ()."""
    for number, (room, _) in enumerate(search.states):
        if room == graph.goal:
            path = []
            while number >= 0:
                path.append(graph.ids[search.states[number][0]])
                number = search.parent[number]
            return tuple(reversed(path))
    return ()


def _live(graph: _Moves, search: _Search) -> List[bool]:
    """Per state: can the goal still be reached from it (backwards from every goal state)."""
    back: List[List[int]] = [[] for _ in search.states]
    for number, out in enumerate(search.moves):
        for target, _ in out:
            back[target].append(number)
    live = [room == graph.goal for room, _ in search.states]
    stack = [number for number, flag in enumerate(live) if flag]
    while stack:
        for earlier in back[stack.pop()]:
            if not live[earlier]:
                live[earlier] = True
                stack.append(earlier)
    return live


def _soft_locks(mission: MissionGraph, graph: _Moves, search: _Search) -> List[str]:
    """A sentence for each edge that takes the player from a state that can win to one that cannot."""
    live = _live(graph, search)
    found: Dict[int, str] = {}
    for number, out in enumerate(search.moves):
        if not live[number]:
            continue
        for target, edge in out:
            if not live[target] and edge not in found:
                room, held = search.states[target]
                keys = sorted(key for i, key in enumerate(sorted(set(mission.keys))) if held >> i & 1)
                holding = f"holding keys {', '.join(map(repr, keys))}" if keys else "holding no key"
                found[edge] = (f"{mission.edges[edge].kind} edge {mission.edges[edge].name} soft-locks: from "
                               f"{graph.ids[room]!r} ({holding}) the goal can no longer be reached")
    return [found[edge] for edge in sorted(found)]


@dataclass(frozen=True)
class Proof:
    """What the solver proved about a mission (see the module's doc).

    ``route``: the shortest route from start to goal (room ids; empty if none), secrets used where they help;
    ``plain_route``: the shortest with no hidden edge (empty if the goal needs a secret); ``states``: the
    states explored; ``soft_locks`` and ``unnecessary_locks``: one sentence or edge name each.
    """

    route: Tuple[str, ...]
    plain_route: Tuple[str, ...]
    states: int
    soft_locks: Tuple[str, ...]
    unnecessary_locks: Tuple[str, ...]

    @property
    def solvable(self) -> bool:
        """The goal can be reached from the start."""
        return bool(self.route)

    @property
    def ok(self) -> bool:
        """Solvable, with no soft lock and every lock necessary."""
        return self.solvable and not self.soft_locks and not self.unnecessary_locks


def prove(mission: MissionGraph) -> Proof:
    """Search the mission's states and prove it solvable, free of soft locks and with every lock necessary."""
    graph = _Moves(mission)
    search = _search(graph)
    route = _route(graph, search)
    plain = _Moves(mission, hidden=False)
    plain_route = _route(plain, _search(plain))
    unnecessary = []
    for edge in mission.edges_of("locked"):
        without = _Moves(mission, skip=edge)
        if _route(without, _search(without)):
            unnecessary.append(edge.name)
    return Proof(route, plain_route, len(search.states), tuple(_soft_locks(mission, graph, search)),
                 tuple(unnecessary))


def _reachable(graph: _Moves) -> Set[int]:
    """Rooms reachable from the start, keys not asked (the graph's own rule for doors), the goal not passed."""
    seen = {graph.start}
    stack = [graph.start]
    while stack:
        room = stack.pop()
        if room == graph.goal:
            continue
        for target, _, _ in graph.out[room]:
            if target not in seen:
                seen.add(target)
                stack.append(target)
    return seen


def problems(mission: MissionGraph) -> List[str]:
    """Why the mission cannot be played fairly, one sentence each: the goal out of reach, a key that cannot be
    reached (behind its own lock, or behind doors whose keys come later), a soft-locking one-way edge."""
    graph = _Moves(mission)
    search = _search(graph)
    found = []
    if not _route(graph, search):
        opened = _reachable(_Moves(mission, keys_ignored=True))
        why = " even with every door open" if graph.goal not in opened else ""
        found.append(f"the goal {mission.goal!r} cannot be reached from the start{why}")
    collected = 0
    for _, held in search.states:
        collected |= held
    key_ids = sorted(set(mission.keys))
    for node in mission.nodes:
        if node.kind != "key" or node.key is None or collected >> key_ids.index(node.key) & 1:
            continue
        room = graph.ids.index(node.id)
        if room not in _reachable(_Moves(mission, keys_ignored=True)):
            found.append(f"key {node.key!r} (room {node.id!r}) cannot be reached even with every door open")
        elif room not in _reachable(_Moves(mission, keys_ignored=True, closed_key=node.key)):
            found.append(f"key {node.key!r} (room {node.id!r}) is behind its own lock: every way to it passes a "
                         f"door it opens")
        else:
            found.append(f"key {node.key!r} (room {node.id!r}) cannot be reached: the doors on the way need keys "
                         f"that cannot be had first")
    found.extend(_soft_locks(mission, graph, search))
    return found


def graph_distance(mission: MissionGraph, *, hidden: bool = False) -> Optional[int]:
    """Edges on the shortest way from start to goal with every door open (one-way edges walked their way only;
    hidden edges only if ``hidden``), or None if there is none."""
    graph = _Moves(mission, hidden=hidden, keys_ignored=True)
    distance = {graph.start: 0}
    frontier = [graph.start]
    while frontier:
        following = []
        for room in frontier:
            if room == graph.goal:
                return distance[room]
            for target, _, _ in graph.out[room]:
                if target not in distance:
                    distance[target] = distance[room] + 1
                    following.append(target)
        frontier = following
    return None
