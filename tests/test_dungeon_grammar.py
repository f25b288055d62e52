"""Missions from the grammar (mazeplugin.dungeon.grammar, ``mp.mission``): the same seed gives the same mission
forever, arguments are checked, and over many seeds per pattern every mission is proven fair by the independent
solver of test_dungeon_model and keeps its pattern's promise (benchmarks/bench_dungeon.py runs 1,000 seeds each)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

import mazeplugin as mp
from mazeplugin.dungeon import CYCLES, DUNGEON_STREAM, PATTERNS, Mission, least_distance, least_rooms, mission
from mazeplugin.seeds import Random

from test_dungeon_model import oracle_solvable, oracle_states, oracle_stranded

GOLDEN = [
    (("two-paths", 10, 0, 1), "c2c48a5a4a2d5281963e742a136d286e66825a39273d46e56bcbed356210f0aa"),
    (("lock-and-key", 12, 2, 7), "3124dbd9c578da0b697a01039cf50c82dc2cdd6bf25114688d0fe807b2a3a4e9"),
    (("shortcut", 14, 1, 'castle'), "a2cf1089e233a2ca48c6eeb5e03fb4e2bccb8444562ab4f749e0a293d50f9f98"),
    (("hidden", 16, 1, 3), "8d909acd50732175d2a396c752b2c25fb825ab9485df87df73a33e4ffc7a162f"),
    (("valve", 12, 1, 5), "5a993f091d7052a633b5960e7286c59cc8389a1d6c7801034d3274c8f144f75b"),
    (("gauntlet", 15, 2, 9), "35b1d9c2070953c977da67c502cafbcbb45dcb2e81535217ac35329e8f18bd31"),
    (("mixed", 20, 4, 42), "c781ec613adfebc8fccfe3fb9570065c3ee8f32ca9cb456d61101d19db0620c5"),
    (("mixed", 50, 4, 2026), "a17b0e16c0cc3bf05b05c64ed739af59597c70043fbf4641cf75d5b5c2deffbc"),
]


def digest(m: Mission) -> str:
    return hashlib.sha256(json.dumps(m.to_dict(), sort_keys=True, separators=(",", ":")).encode()).hexdigest()


@pytest.mark.parametrize("arguments, expected", GOLDEN)
def test_the_same_seed_gives_the_same_mission_forever(arguments, expected):
    pattern, rooms, locks, seed = arguments
    assert digest(mission(rooms=rooms, locks=locks, pattern=pattern, seed=seed)) == expected


def test_seeds_are_recorded_and_tell_missions_apart():
    made = {digest(mission(rooms=14, locks=2, pattern="mixed", seed=seed)) for seed in range(12)}
    assert len(made) == 12
    assert mission(seed="42") == mission(seed=42)  # a seed text of digits is that number, as for levels
    fresh = mission(rooms=10, locks=1)
    assert isinstance(fresh.seed, int) and mission(rooms=10, locks=1, seed=fresh.seed) == fresh
    assert fresh.pattern == "mixed" and Mission.from_json(fresh.to_json()) == fresh


def test_missions_draw_from_their_own_stream_only():
    assert DUNGEON_STREAM == 7
    before = Random.keyed(5, (DUNGEON_STREAM,)).raw(4).tolist()
    mission(rooms=12, locks=1, seed=5)
    assert Random.keyed(5, (DUNGEON_STREAM,)).raw(4).tolist() == before  # no shared state: streams are made anew


def test_mp_mission_is_lazy_and_import_mazeplugin_stays_cheap():
    code = "import sys, mazeplugin; print(any(m.startswith('mazeplugin.dungeon') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "False", out.stderr
    assert mp.mission is mission and mp.Mission is Mission and "mission" in dir(mp)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"pattern": "maze"}, ValueError, "pattern must be one of 'two-paths'"),
    ({"rooms": 3, "locks": 0, "pattern": "two-paths"}, ValueError, "rooms=3 is too few for pattern 'two-paths' "
                                                                    "with locks=0: at least 4"),
    ({"rooms": 20, "locks": 4, "pattern": "hidden"}, ValueError, "at least 25"),
    ({"locks": 0, "pattern": "lock-and-key"}, ValueError, "needs locks=1 or more"),
    ({"rooms": 10**6}, ValueError, "rooms must be from 0 to 2,048"),
    ({"locks": -1}, ValueError, "locks must be from 0 to 32"),
    ({"rooms": 12.0}, TypeError, "rooms must be an int, not float"),
    ({"locks": True}, TypeError, "locks must be an int, not bool"),
    ({"branching": 1.5}, ValueError, "branching must be a number from 0 to 1"),
    ({"seed": 2.5}, TypeError, "seed must be an int, a str or None"),
])
def test_bad_arguments_are_refused_with_what_is_allowed(kwargs, error, message):
    with pytest.raises(error, match=message):
        mission(**kwargs)


def test_least_rooms_is_exactly_enough():
    for pattern in PATTERNS:
        for locks in (1, 3):
            fewest = least_rooms(pattern, locks)
            assert len(mission(rooms=fewest, locks=locks, pattern=pattern, seed=1).nodes) == fewest
            with pytest.raises(ValueError, match="too few"):
                mission(rooms=fewest - 1, locks=locks, pattern=pattern, seed=1)


def _check_fair(m: Mission, pattern: str, rooms: int, locks: int, branching: float) -> None:
    """Every property a grammar mission promises, checked with the independent solver."""
    assert len(m.nodes) == rooms and len(m.edges_of("locked")) == locks == len(m.keys)
    assert oracle_solvable(m) and oracle_solvable(m, hidden=False), "solvable, without any secret"
    assert not oracle_stranded(m), "no soft lock"
    for edge in m.edges_of("locked"):
        assert not oracle_solvable(m, skip=edge), f"lock {edge.name} is necessary"
        key_room = next(node.id for node in m.nodes if node.kind == "key" and node.key == edge.key)
        assert any(room == key_room for room, _ in oracle_states(m, skip=edge)), f"key {edge.key} before its lock"
    assert m.distance() >= least_distance(pattern, rooms, locks, branching)
    assert all(0.0 <= node.intensity <= 1.0 for node in m.nodes) and m.node("start").intensity == 0.0


@pytest.mark.parametrize("pattern", PATTERNS)
def test_every_mission_of_many_seeds_is_fair_and_keeps_its_pattern_s_promise(pattern):
    for seed in range(45):
        rooms, locks = [(10, 1), (16, 2), (24, 3)][seed % 3]
        locks = max(locks, 1) if pattern == "lock-and-key" else locks
        rooms = max(rooms, least_rooms(pattern, locks))
        branching = [0.0, 0.25, 0.6][seed % 3]
        m = mission(rooms=rooms, locks=locks, pattern=pattern, seed=seed, branching=branching)
        _check_fair(m, pattern, rooms, locks, branching)
        assert m.prove().ok and m.problems() == []


def test_each_pattern_has_its_own_shape():
    def count(m, kind):
        return len(m.edges_of(kind))

    for seed in range(5):
        make = lambda pattern: mission(rooms=16, locks=1, pattern=pattern, seed=seed, branching=0.0)  # noqa: E731
        shortcut = make("shortcut")
        assert count(shortcut, "one-way") == 2 and shortcut.distance() == least_distance("shortcut", 16, 1, 0.0)
        assert shortcut.distance() == 16 - 1  # with no side branch, the long way round passes every room
        hidden = make("hidden")
        assert count(hidden, "hidden") == 2 and hidden.distance(hidden=True) < hidden.distance()
        assert count(make("valve"), "one-way") == 2 and count(make("two-paths"), "one-way") == 0
        gauntlet = make("gauntlet")
        assert [node.intensity for node in gauntlet.nodes if node.kind == "boss"] == [1.0, 1.0]
        keyed = make("lock-and-key")  # locks=1: one segment, its lock on the cycle, its key below a drop
        (door,) = keyed.edges_of("locked")
        (drop,) = keyed.edges_of("one-way")
        assert drop.a == "goal" and keyed.node(drop.b).kind == "key"


def test_branching_hangs_rooms_off_the_cycles():
    def dead_ends(m):
        ends = {node.id: 0 for node in m.nodes}
        for edge in m.edges:
            ends[edge.a] += 1
            ends[edge.b] += 1
        return sum(1 for name, degree in ends.items() if degree == 1 and name != "goal")

    assert all(dead_ends(mission(rooms=30, locks=2, pattern=p, seed=s, branching=0.0)) == 0
               for p in CYCLES if p != "lock-and-key" for s in range(3))
    assert all(dead_ends(mission(rooms=30, locks=2, pattern="two-paths", seed=s, branching=0.5)) >= 2
               for s in range(3))


def test_a_mission_is_drawn_and_saved_like_a_designer_s(tmp_path):
    m = mission(rooms=20, locks=4, seed=3)
    assert m.to_svg().count("<circle") == 20
    m.save(tmp_path / "m.json")
    assert mp.dungeon.load_mission(tmp_path / "m.json") == m
