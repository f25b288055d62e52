"""Content on weave levels: keys, doors, treasure, enemies and Place things over bridges and tunnels.

Every property is proved by a solver written here, which walks the two
layers itself (a bridge tile is two places; a walker goes straight on over
or under it) with states (tile, under, keys held), independent of
mazeplugin.bridges and of the content engines.
"""

from __future__ import annotations

import copy
from collections import deque
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.content import ContentError

from budget import examples

PERFECT = [name for name in mp.algorithms() if mp.get_generator(name).perfect]
NORTH_SOUTH, EAST_WEST = ((0, -1), (0, 1)), ((1, 0), (-1, 0))
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))

Place = Tuple[int, int, bool]  # (x, y, under)


def moves(level: mp.Level, x: int, y: int, under: bool) -> List[Place]:
    """Where a walker at (x, y) (in the tunnel if ``under``) can step: 1 = tunnel east-west, 2 = north-south."""
    tiles, layer = level.tiles, level.bridges
    kind = int(layer[y, x])
    if kind == 0:
        ways = STEPS
    elif under:
        ways = EAST_WEST if kind == 1 else NORTH_SOUTH
    else:
        ways = NORTH_SOUTH if kind == 1 else EAST_WEST
    out = []
    h, w = tiles.shape
    for dx, dy in ways:
        nx, ny = x + dx, y + dy
        if 0 <= nx < w and 0 <= ny < h and tiles[ny, nx] == 0:
            nk = int(layer[ny, nx])
            out.append((nx, ny, nk != 0 and (nk == 1) == (dy == 0)))
    return out


def shortest(level: mp.Level, shut: Set[Tuple[int, int]] = frozenset(), walled: Set[Tuple[int, int]] = frozenset(),
             use_keys: bool = True) -> Optional[int]:
    """Fewest steps entrance -> exit over states (place, keys held); a door's tiles are passable once its key
    is held (``use_keys``) and ``shut`` tiles never; ``walled`` tiles never."""
    doors = {t.props["key"]: {tuple(p) for p in t.props["tiles"]} for t in level.things if t.kind == "door"}
    keys = {t.tile: t.id for t in level.things if t.kind == "key"} if use_keys else {}
    ex, ey = level.entrance
    start: Tuple[Place, FrozenSet[int]] = ((ex, ey, False), frozenset())
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        ((x, y, under), held), d = queue.popleft()
        if (x, y) == level.exit:
            return d
        for nx, ny, nu in moves(level, x, y, under):
            tile = (nx, ny)
            if tile in shut or tile in walled:
                continue
            if any(tile in covered and key not in held for key, covered in doors.items()):
                continue
            now = held | {keys[tile]} if tile in keys else held
            state = ((nx, ny, nu), now)
            if state not in seen:
                seen.add(state)
                queue.append((state, d + 1))
    return None


def replay(level: mp.Level, walk: List[Tuple[int, int]]) -> None:
    """The walk is a legal one: each step a move of some layer it can be in, each door passed with its key."""
    doors = {t.props["key"]: {tuple(p) for p in t.props["tiles"]} for t in level.things if t.kind == "door"}
    keys = {t.tile: t.id for t in level.things if t.kind == "key"}
    places = {(walk[0][0], walk[0][1], False)}
    held: Set[int] = set()
    for tile in walk[1:]:
        places = {(nx, ny, nu) for x, y, u in places for nx, ny, nu in moves(level, x, y, u) if (nx, ny) == tile}
        assert places, f"illegal step onto {tile}"
        assert not any(tile in covered and key not in held for key, covered in doors.items()), "door without key"
        if tile in keys:
            held.add(keys[tile])


content_levels = st.builds(
    lambda algorithm, w, h, seed, keys, treasure, enemies, coins, braid: (algorithm, w, h, seed, dict(
        keys=keys, treasure=treasure, enemies=enemies, braid=braid,
        place=[mp.Place("coin", coins, where="corridors")] if coins else [])),
    st.sampled_from(PERFECT), st.integers(3, 13), st.integers(3, 13), st.integers(0, 2**40),
    st.integers(0, 3), st.integers(0, 3), st.integers(0, 2), st.integers(0, 2), st.sampled_from([0.0, 0.0, 0.5]),
)


def make(case) -> mp.Level:
    algorithm, w, h, seed, kwargs = case
    try:
        return mp.generate(algorithm, w, h, seed=seed, weave=True, **kwargs)
    except ValueError as error:
        assert "does not fit" in str(error)
        assume(False)
        raise


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                            HealthCheck.filter_too_much])
@given(content_levels)
def test_every_weave_level_with_content_is_proved_by_a_solver_that_walks_both_layers(case):
    level = make(case)
    level.check()
    things = level.things
    for thing in things:
        for x, y in thing.tiles() + tuple(tuple(p) for p in thing.props.get("patrol", ())):
            assert level.bridges[y, x] == 0, f"{thing.kind} {thing.id} on the bridge tile {(x, y)}"
    walk = level.solution()
    replay(level, walk)
    assert walk[0] == level.entrance and walk[-1] == level.exit
    assert len(walk) - 1 == shortest(level)
    doors = [t for t in things if t.kind == "door"]
    if doors:
        assert shortest(level, use_keys=False) is None  # no way round the doors
    bare = copy.copy(level)
    bare.things = [t for t in things if t.kind not in ("door", "key")]
    for door in doors:  # each door needed on its own: shut, every other one open, no way to the exit
        assert shortest(bare, shut={tuple(p) for p in door.props["tiles"]}) is None, door
    enemies = [t for t in things if t.kind == "enemy"]
    if enemies:  # solvable without touching an enemy
        patrols = {tuple(p) for e in enemies for p in e.props["patrol"]}
        assert shortest(level, walled=patrols) is not None


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PERFECT), st.integers(4, 12), st.integers(4, 12), st.integers(0, 2**40))
def test_a_door_on_a_weave_can_not_be_bypassed_over_or_under_a_bridge(algorithm, w, h, seed):
    try:
        level = mp.generate(algorithm, w, h, seed=seed, weave=True, keys=1)
    except ValueError as error:
        assert "does not fit" in str(error)
        return
    (door,) = [t for t in level.things if t.kind == "door"]
    assert shortest(level, shut={door.tile}, use_keys=False) is None
    assert shortest(level) is not None


def test_weave_content_draws_the_content_stream_as_furnish_does():
    plain = mp.generate("backtracker", 14, 10, seed=11, weave=True)
    rich = mp.generate("backtracker", 14, 10, seed=11, weave=True, keys=2, treasure=3, enemies=1)
    assert np.array_equal(plain.tiles, rich.tiles) and np.array_equal(plain.bridges, rich.bridges)
    again = mp.content.furnish(plain, keys=2, treasure=3, enemies=1)
    assert again.things == rich.things and again.options == rich.options


def test_weave_content_survives_a_json_round_trip_and_is_proved_again():
    level = mp.generate("kruskal", 12, 9, seed=3, weave=True, keys=2, treasure=2)
    back = mp.from_json(level.to_json())
    assert back.things == level.things and np.array_equal(back.bridges, level.bridges)
    back.check()
    assert back.solution() == level.solution()


def test_a_patrol_across_a_bridge_tile_is_refused():
    level = mp.generate("backtracker", 12, 9, seed=4, weave=True)
    ys, xs = np.nonzero(level.bridges)
    x, y = int(xs[0]), int(ys[0])
    dx, dy = (0, 1) if level.bridges[y, x] == 1 else (1, 0)
    enemy = mp.Thing("enemy", x, y, 1, {"patrol": [[x - dx, y - dy], [x, y], [x + dx, y + dy]]})
    with pytest.raises(ContentError, match="bridge tile"):
        mp.content.check(level.tiles, level.entrance, level.exit, [enemy], level.bridges)
