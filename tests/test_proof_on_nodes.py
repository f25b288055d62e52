"""level.check() on square and weave levels (the proof on the tiles as a graph of nodes, content.proof)
agrees with an oracle written here: floods of the tiles with the shut doors walled, and on a weave a walk
over and under each bridge tile, for doors moved anywhere on the floor."""

from __future__ import annotations

from collections import deque
from typing import Iterable, List, Set, Tuple

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.content import ContentError

from budget import examples

STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
Tile = Tuple[int, int]


def reached(level: mp.Level, walled: Set[Tile]) -> Set[Tile]:
    """Tiles a walker reaches from the entrance, ``walled`` tiles shut; over and under a weave's bridges."""
    tiles, layer = level.tiles, level.bridges
    h, w = tiles.shape
    start = (*level.entrance, False)
    seen = {start}
    queue = deque([start])
    while queue:
        x, y, under = queue.popleft()
        kind = int(layer[y, x])
        ways: Iterable[Tuple[int, int]] = STEPS
        if kind:  # 1: the tunnel runs east-west (the bridge north-south); 2 the other way
            east_west = (kind == 1) == under
            ways = ((1, 0), (-1, 0)) if east_west else ((0, -1), (0, 1))
        for dx, dy in ways:
            nx, ny = x + dx, y + dy
            if 0 <= nx < w and 0 <= ny < h and tiles[ny, nx] == 0 and (nx, ny) not in walled:
                nk = int(layer[ny, nx])
                state = (nx, ny, nk != 0 and (nk == 1) == (dy == 0))
                if state not in seen:
                    seen.add(state)
                    queue.append(state)
    return {(x, y) for x, y, _ in seen}


def sound(level: mp.Level) -> bool:
    """What check() promises of the locks: keys in order, every door needed, the exit behind the last."""
    doors = sorted((t for t in level.things if t.kind == "door"), key=lambda d: (d.props["lock"], d.id))
    keys = {t.id: t for t in level.things if t.kind == "key"}

    def walls(shut: List[mp.Thing]) -> Set[Tile]:
        return {tuple(p) for d in shut for p in d.props["tiles"]}

    for n, door in enumerate(doors):
        now = reached(level, walls(doors[n:]))
        if keys[door.props["key"]].tile not in now or level.exit in now:
            return False
    return level.exit in reached(level, set()) and all(
        level.exit not in reached(level, walls([door])) for door in doors)


@settings(max_examples=examples(120), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.sampled_from(["backtracker", "kruskal", "wilson", "prim"]), st.integers(4, 11), st.integers(4, 11),
       st.integers(0, 2**32), st.integers(1, 3), st.booleans(), st.booleans(), st.data())
def test_check_agrees_with_the_oracle_for_a_door_moved_anywhere(algorithm, w, h, seed, keys, weave, braid, data):
    try:
        level = mp.generate(algorithm, w, h, seed=seed, keys=keys, weave=weave, braid=0.4 if braid else 0)
    except ValueError:
        assume(False)
        return
    assert sound(level)
    level.check()
    doors = [t for t in level.things if t.kind == "door"]
    door = data.draw(st.sampled_from(doors))
    used = {p for t in level.things for p in t.tiles()} | {level.entrance, level.exit}
    free = [(int(x), int(y)) for y, x in np.argwhere(level.tiles == 0) if (int(x), int(y)) not in used]
    x, y = data.draw(st.sampled_from(free))
    moved = mp.Thing("door", x, y, door.id, {**door.props, "tiles": [[x, y]]})
    hostile = [moved if t.id == door.id else t for t in level.things]
    level.things = hostile
    if sound(level):
        level.check()
    else:
        try:
            level.check()
        except ContentError:
            return
        raise AssertionError(f"check() passed a door moved to {(x, y)} that the oracle refuses")
