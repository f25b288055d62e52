"""The mission graph (mazeplugin.dungeon.model) and its solver (dungeon.solver), checked against an independent
solver written here: explicit states (room, frozenset of keys), searched depth first, and a fixed point for the
states that can still win."""

from __future__ import annotations

import random
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

import pytest

from mazeplugin.dungeon import Edge, Mission, MissionError, Node, prove
from mazeplugin.dungeon.solver import MAX_STATES

State = Tuple[str, FrozenSet[str]]


# --- the independent solver ---------------------------------------------------------------------------------

def _steps(mission: Mission, state: State, skip: Optional[Edge], hidden: bool) -> List[State]:
    room, keys = state
    if room == mission.goal:
        return []
    out = []
    for edge in mission.edges:
        if edge == skip or (edge.kind == "hidden" and not hidden) or (edge.kind == "locked" and edge.key not in keys):
            continue
        if edge.a == room:
            target = edge.b
        elif edge.b == room and edge.kind != "one-way":
            target = edge.a
        else:
            continue
        node = mission.node(target)
        out.append((target, keys | {node.key} if node.kind == "key" and node.key else keys))
    return out


def oracle_states(mission: Mission, skip: Optional[Edge] = None, hidden: bool = True) -> Dict[State, List[State]]:
    """Every state reachable from the start, with its moves."""
    first = mission.node(mission.start)
    start = (mission.start, frozenset([first.key]) if first.kind == "key" and first.key else frozenset())
    found: Dict[State, List[State]] = {}
    stack = [start]
    while stack:
        state = stack.pop()
        if state in found:
            continue
        found[state] = _steps(mission, state, skip, hidden)
        stack.extend(found[state])
    return found


def oracle_solvable(mission: Mission, skip: Optional[Edge] = None, hidden: bool = True) -> bool:
    return any(room == mission.goal for room, _ in oracle_states(mission, skip, hidden))


def oracle_stranded(mission: Mission) -> Set[State]:
    """Reachable states from which no goal state can be reached (a fixed point over the states that can win)."""
    states = oracle_states(mission)
    winning = {state for state in states if state[0] == mission.goal}
    grew = True
    while grew:
        grew = False
        for state, moves in states.items():
            if state not in winning and any(move in winning for move in moves):
                winning.add(state)
                grew = True
    return set(states) - winning


def oracle_verdict(mission: Mission) -> Tuple[bool, bool, List[str]]:
    """(solvable, soft-locked anywhere, the locked edges that are not necessary)."""
    unnecessary = [edge.name for edge in mission.edges_of("locked") if oracle_solvable(mission, skip=edge)]
    return oracle_solvable(mission), bool(oracle_stranded(mission)), unnecessary


# --- missions ------------------------------------------------------------------------------------------------

def _m(nodes: List[Tuple[str, str, Optional[str]]], edges: List[Tuple[str, str, str, Optional[str]]]) -> Mission:
    return Mission([Node(i, kind, key=key) for i, kind, key in nodes], [Edge(a, b, kind, key) for a, b, kind, key in edges])


def random_mission(rng: random.Random) -> Mission:
    """A small designer's graph of any shape: some play fairly, some cannot be won, some soft-lock."""
    count = rng.randint(2, 8)
    names = ["start", "goal"] + [f"n{i}" for i in range(count - 2)]
    keys = [f"k{i}" for i in range(rng.randint(0, 3))]
    holders = dict(zip(rng.sample(names[2:], min(len(keys), count - 2)), keys))
    edges, pairs = [], set()
    for _ in range(rng.randint(1, 2 * count)):
        a, b = rng.sample(names, 2)
        if (min(a, b), max(a, b)) in pairs:
            continue
        pairs.add((min(a, b), max(a, b)))
        kind = rng.choice(["open", "open", "locked", "one-way", "hidden"])
        if kind == "locked" and not holders:
            kind = "open"
        edges.append((a, b, kind, rng.choice(sorted(holders.values())) if kind == "locked" else None))
    doors = {key for _, _, kind, key in edges if kind == "locked"}
    nodes = [(name, "start" if name == "start" else "goal" if name == "goal" else
              "key" if holders.get(name) in doors else "room", holders.get(name) if holders.get(name) in doors else None)
             for name in names]
    return _m(nodes, edges)


# --- structure -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("nodes, edges, message", [
    ([("start", "start", None)], [], "exactly one goal node"),
    ([("start", "start", None), ("goal", "goal", None), ("goal", "room", None)], [], "'goal' is used twice"),
    ([("start", "start", None), ("goal", "goal", None)], [("start", "nowhere", "open", None)], "'nowhere'"),
    ([("start", "start", None), ("goal", "goal", None)], [("start", "goal", "locked", "red")], "no key room holds"),
    ([("start", "start", None), ("goal", "goal", None), ("k", "key", "red")], [("start", "goal", "open", None)],
     "opens no door"),
    ([("start", "start", None), ("goal", "goal", None)], [("start", "goal", "open", None),
                                                          ("goal", "start", "one-way", None)], "joined twice"),
    ([("start", "start", None), ("goal", "goal", None)], [("start", "start", "open", None)], "to itself"),
    ([("start", "start", None), ("goal", "goal", None), ("k", "key", "red"), ("hall", "lock", "red")],
     [("start", "k", "open", None), ("start", "hall", "open", None), ("start", "goal", "locked", "red")],
     "lock room 'hall' names key 'red', but no door of that key opens into it"),
])
def test_a_malformed_mission_is_refused_with_what_is_wrong(nodes, edges, message):
    with pytest.raises(MissionError, match=message):
        _m(nodes, edges)


@pytest.mark.parametrize("make, message", [
    (lambda: Node("a", "cave"), "kind must be one of"),
    (lambda: Node("a", intensity=1.5), "intensity must be a number from 0 to 1"),
    (lambda: Node("a", intensity=float("nan")), "intensity"),
    (lambda: Node("a", "key"), "its key"),
    (lambda: Node("a", "room", key="red"), "only key and lock rooms"),
    (lambda: Node("", "room"), "non-empty str"),
    (lambda: Edge("a", "b", "locked"), "its key"),
    (lambda: Edge("a", "b", "open", key="red"), "only a locked edge"),
    (lambda: Edge("a", "b", "portal"), "kind must be one of"),
])
def test_a_bad_node_or_edge_names_its_fault(make, message):
    with pytest.raises(MissionError, match=message):
        make()


def test_a_mission_cannot_be_changed_after_it_is_made():
    m = _m([("start", "start", None), ("goal", "goal", None)], [("start", "goal", "open", None)])
    with pytest.raises(AttributeError):
        m.nodes = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        m.nodes[0].kind = "goal"  # type: ignore[misc]
    assert isinstance(m.nodes, tuple) and isinstance(m.edges, tuple)


# --- what the solver finds -----------------------------------------------------------------------------------

def test_the_goal_out_of_reach_is_named():
    m = _m([("start", "start", None), ("goal", "goal", None), ("a", "room", None)], [("start", "a", "open", None)])
    assert m.problems() == ["the goal 'goal' cannot be reached from the start even with every door open"]
    with pytest.raises(MissionError, match="cannot be played: the goal 'goal' cannot be reached"):
        m.check()


def test_a_key_behind_its_own_lock_is_named():
    m = _m([("start", "start", None), ("goal", "goal", None), ("k", "key", "red")],
           [("start", "k", "locked", "red"), ("k", "goal", "open", None)])
    assert m.problems() == ["the goal 'goal' cannot be reached from the start",
                            "key 'red' (room 'k') is behind its own lock: every way to it passes a door it opens"]


def test_keys_behind_each_other_s_locks_are_named_as_such():
    m = _m([("start", "start", None), ("goal", "goal", None), ("a", "key", "red"), ("b", "key", "blue")],
           [("start", "a", "locked", "blue"), ("start", "b", "locked", "red"), ("start", "goal", "locked", "red")])
    found = m.problems()
    assert "key 'red' (room 'a') cannot be reached: the doors on the way need keys that cannot be had first" in found
    assert "key 'blue' (room 'b') cannot be reached: the doors on the way need keys that cannot be had first" in found


def test_a_one_way_edge_that_strands_the_player_is_named():
    # start -> pit is a drop; the pit leads nowhere, so falling in loses the game
    m = _m([("start", "start", None), ("goal", "goal", None), ("pit", "room", None)],
           [("start", "goal", "open", None), ("start", "pit", "one-way", None)])
    assert m.problems() == ["one-way edge start->pit soft-locks: from 'pit' (holding no key) the goal can no "
                            "longer be reached"]
    assert prove(m).solvable and not prove(m).ok


def test_a_drop_before_the_key_soft_locks_only_without_the_key():
    # the drop is safe once the key is held: the player who drops first is stranded
    m = _m([("start", "start", None), ("goal", "goal", None), ("k", "key", "red"), ("low", "room", None)],
           [("start", "k", "open", None), ("start", "low", "one-way", None), ("low", "goal", "locked", "red")])
    assert prove(m).soft_locks == ("one-way edge start->low soft-locks: from 'low' (holding no key) the goal can "
                                   "no longer be reached",)


def test_a_lock_the_player_can_walk_round_is_not_necessary():
    m = _m([("start", "start", None), ("goal", "goal", None), ("k", "key", "red"), ("a", "room", None)],
           [("start", "k", "open", None), ("start", "goal", "locked", "red"), ("start", "a", "open", None),
            ("a", "goal", "open", None)])
    proof = prove(m)
    assert proof.solvable and proof.unnecessary_locks == ("start-goal",) and not proof.ok
    assert m.problems() == []  # a designer may want an optional door: not a fault, but not proven necessary


def test_the_route_fetches_the_key_and_secrets_are_optional_or_needed():
    m = _m([("start", "start", None), ("goal", "goal", None), ("k", "key", "red"), ("a", "room", None)],
           [("start", "k", "open", None), ("k", "a", "open", None), ("a", "goal", "locked", "red"),
            ("start", "a", "hidden", None)])
    proof = prove(m)
    assert proof.route == ("start", "k", "a", "goal") and proof.plain_route == proof.route
    secret = _m([("start", "start", None), ("goal", "goal", None)], [("start", "goal", "hidden", None)])
    assert prove(secret).route == ("start", "goal") and prove(secret).plain_route == ()
    assert m.distance() == 3 and m.distance(hidden=True) == 2


def test_reaching_the_goal_ends_the_mission():
    # the drop beyond the goal strands nobody: the mission is won on arrival
    m = _m([("start", "start", None), ("goal", "goal", None), ("beyond", "room", None)],
           [("start", "goal", "open", None), ("goal", "beyond", "one-way", None)])
    assert prove(m).ok and m.problems() == []


def test_the_solver_agrees_with_the_independent_one_on_any_small_graph():
    rng = random.Random(33)
    kinds = set()
    for _ in range(1000):
        try:
            m = random_mission(rng)
        except MissionError:
            continue
        proof = prove(m)
        solvable, stranded, unnecessary = oracle_verdict(m)
        assert proof.solvable == solvable, m.to_json()
        # (an unwinnable mission strands the player from the start; soft_locks names the edges into stranding)
        assert bool(proof.soft_locks) == (stranded and solvable), m.to_json()
        assert list(proof.unnecessary_locks) == unnecessary, m.to_json()
        assert proof.route == () or (proof.route[0], proof.route[-1]) == (m.start, m.goal)
        assert bool(proof.plain_route) == oracle_solvable(m, hidden=False)
        assert (not m.problems()) == (solvable and not stranded and all(
            any(key in keys for _, keys in oracle_states(m)) for key in m.keys)), m.to_json()
        kinds.add((solvable, stranded, bool(unnecessary)))
    assert len(kinds) >= 5  # the graphs reached every verdict worth checking


def test_a_mission_too_large_to_prove_is_refused(monkeypatch):
    import mazeplugin.dungeon.solver as solver

    monkeypatch.setattr(solver, "MAX_STATES", 3)
    m = _m([("start", "start", None), ("goal", "goal", None), ("a", "room", None), ("b", "room", None)],
           [("start", "a", "open", None), ("a", "b", "open", None), ("b", "goal", "open", None)])
    with pytest.raises(MissionError, match="more than 3 states"):
        prove(m)
    assert MAX_STATES >= 1_000_000
