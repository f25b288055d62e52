"""Keys that lie on the way to other keys (issue 34 item 8): the solver picks them up as it passes.

The level of item 8 held 14 keys in one room before 14 doors in series, and
``solution()`` searched every order of picking them up (114,689 states of
(key, keys held), 3.3 s). A step to a key that some shortest walk makes over
another key not held is now not taken (the walk holds that key too when it
arrives, which is never worse), so keys in a line cost one state each. The
work is counted (the solver's distance requests), never timed; the length
found is the brute-force one (a breadth-first search over (tile, keys held)).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.content import Thing, cells
from mazeplugin.formats.jsonio import from_json
from budget import examples
from test_content import brute_force_walk_length, walk_respects_doors


def corridor_level(keys: int) -> mp.Level:
    """A corridor one tile tall: the entrance, ``keys`` keys on the first tiles, a gap, then the
    ``keys`` doors in series, a tile apart; the key nearest the entrance opens the last door."""
    width = 3 * keys + 3
    columns = 2 * width + 1
    rows = [[1] * columns, [0] * columns, [1] * columns]
    things = []
    for n in range(keys):
        key_x, door_x = 1 + n, keys + 3 + 3 * n
        key_id, door_id = 2 * n + 1, 2 * (keys - 1 - n) + 2  # key n opens door keys - 1 - n
        things.append({"kind": "key", "x": key_x, "y": 1, "id": key_id, "props": {"door": door_id}})
    for n in range(keys):
        door_x = keys + 3 + 3 * n
        key_id = 2 * (keys - 1 - n) + 1
        things.append({"kind": "door", "x": door_x, "y": 1, "id": 2 * n + 2,
                       "props": {"key": key_id, "tiles": [[door_x, 1]]}})
    things.sort(key=lambda t: t["id"])
    return from_json(json.dumps({
        "format": "mazeplugin.level", "version": 2, "generator": None, "width": width, "height": 1,
        "seed": None, "options": {}, "corridor": 1, "wall": 1, "entrance": [0, 1], "exit": [columns - 1, 1],
        "tiles": ["".join(map(str, row)) for row in rows], "things": things,
    }))


def counted_solution(level, monkeypatch):
    """``level.solution()`` and how many distance requests its search made (one per state expanded,
    and one per check that a key lies on the way)."""
    asked = [0]
    walk_of = cells.best_walk

    def counting(count, distances, leg):
        def counted(point, held):
            asked[0] += 1
            return distances(point, held)
        return walk_of(count, counted, leg)

    monkeypatch.setattr("mazeplugin.content.proof.best_walk", counting)
    return level.solution(), asked[0]


def test_twelve_keys_in_a_line_cost_a_few_states_not_every_order(monkeypatch):
    # Before: 24,577 states for 12 keys (114,689 for 14, 3.3 s in the issue); now about 5 per key.
    level = corridor_level(12)
    walk, asked = counted_solution(level, monkeypatch)
    assert len(walk) - 1 == level.tiles.shape[1] - 1  # straight along: every key is on the way
    assert walk_respects_doors(level, walk)
    assert asked <= 12 * 12  # each state asks once, plus one per key passed on the way


@pytest.mark.parametrize("keys", [1, 2, 5])
def test_a_line_of_keys_solves_to_the_brute_force_length(keys):
    level = corridor_level(keys)
    walk = level.solution()
    assert walk_respects_doors(level, walk)
    assert len(walk) - 1 == brute_force_walk_length(level)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), keys=st.integers(2, 5), braid=st.sampled_from([0.0, 0.5, 1.0]),
       grid_seed=st.integers(0, 2**16))
def test_keys_and_doors_anywhere_solve_to_the_brute_force_length(seed, keys, braid, grid_seed):
    # Keys and doors on random floor tiles, so keys often lie on the way to others (the pruned steps).
    level = mp.generate("kruskal", 6, 5, seed=grid_seed, braid=braid)
    rng = random.Random(seed)
    floor = [(int(x), int(y)) for y, x in zip(*(level.tiles == mp.FLOOR).nonzero())
             if (x, y) not in (level.entrance, level.exit)]
    picked = rng.sample(floor, 2 * keys)
    things = []
    for n in range(keys):
        (kx, ky), (dx, dy) = picked[2 * n], picked[2 * n + 1]
        things.append(Thing("door", dx, dy, 2 * n + 1, {"key": 2 * n + 2, "tiles": [[dx, dy]]}))
        things.append(Thing("key", kx, ky, 2 * n + 2, {"door": 2 * n + 1}))
    level.things = things
    expected = brute_force_walk_length(level)
    if expected is None:
        with pytest.raises(ValueError):
            level.solution()
        return
    walk = level.solution()
    assert walk_respects_doors(level, walk)
    assert len(walk) - 1 == expected
