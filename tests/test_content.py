"""Level content (issue 9): keys and locked doors, treasure, enemies, Place kinds.

Every property is recomputed here from the tiles and the things alone: a
brute-force solver over (tile, keys held) states, floods with doors shut,
degrees of cells read off the tilemap.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import deque

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from budget import examples

import mazeplugin as mp
from mazeplugin.content import ENEMY_DISTANCE, ContentError, Thing, furnish, solve

ALL = mp.algorithms()
MASKABLE = [n for n in ALL if mp.get_generator(n).masks]
seeds = st.integers(min_value=0, max_value=2**32)

_FITS = re.compile(r"does not fit")


def _generate(algorithm, width, height, **kw):
    """A level, or None when the level is too small for the content (the error must say so)."""
    try:
        return mp.generate(algorithm, width, height, **kw)
    except ValueError as error:
        assert _FITS.search(str(error)), str(error)
        return None


@st.composite
def content_levels(draw):
    algorithm = draw(st.sampled_from(ALL))
    width, height = draw(st.integers(2, 24)), draw(st.integers(2, 24))
    kw = dict(
        seed=draw(seeds),
        keys=draw(st.integers(0, 4)),
        treasure=draw(st.integers(0, 6)),
        enemies=draw(st.integers(0, 3)),
    )
    if draw(st.booleans()):
        kw["braid"] = draw(st.sampled_from([0.25, 0.5, 1.0]))
    if draw(st.booleans()):
        kw["corridor"] = draw(st.integers(1, 3))
        kw["wall"] = draw(st.integers(1, 2))
    if draw(st.integers(0, 3)) == 0:
        kw["markers"] = draw(st.sampled_from(["farthest", "random"]))
    if draw(st.integers(0, 3)) == 0:
        kw["rooms"] = draw(st.integers(1, 4))  # open rooms (issue 11): loops and open corners
    if algorithm in MASKABLE and draw(st.integers(0, 3)) == 0:
        mask = np.ones((height, width), dtype=bool)
        hole = draw(st.integers(0, max(0, width * height // 4)))
        cells = draw(st.lists(st.integers(0, width * height - 1), max_size=hole))
        mask.flat[cells] = False
        mask.flat[0] = mask.flat[-1] = True
        kw["mask"] = mask
        kw["markers"] = "farthest"
    return algorithm, width, height, kw


def _plain(kw):
    return {k: v for k, v in kw.items() if k not in ("keys", "treasure", "enemies", "place")}


def _plain_level(algorithm, width, height, kw):
    """The level without content, or None when its own options do not fit (e.g. rooms on a tiny maze)."""
    try:
        return mp.generate(algorithm, width, height, **_plain(kw))
    except ValueError:
        return None


def brute_force_walk_length(level):
    """Shortest walk length over (tile, keys held) states, tile by tile; None if impossible."""
    doors = {t.id: t for t in level.things if t.kind == "door"}
    keys = [t for t in level.things if t.kind == "key"]
    bit = {k.id: 1 << n for n, k in enumerate(keys)}
    key_at = {k.tile: bit[k.id] for k in keys}
    needs = {}
    for door in doors.values():
        for tile in door.tiles():
            needs[tile] = bit[door.props["key"]]
    tiles = level.tiles
    h, w = tiles.shape

    def take(tile, held):
        return held | key_at.get(tile, 0)

    start = (level.entrance, take(level.entrance, 0))
    seen = {start: 0}
    queue = deque([start])
    while queue:
        (x, y), held = state = queue.popleft()
        if (x, y) == level.exit:
            return seen[state]
        for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if not (0 <= nx < w and 0 <= ny < h) or tiles[ny, nx] != mp.FLOOR:
                continue
            need = needs.get((nx, ny), 0)
            if need and not held & need:
                continue
            nxt = ((nx, ny), take((nx, ny), held))
            if nxt not in seen:
                seen[nxt] = seen[state] + 1
                queue.append(nxt)
    return None


def walk_respects_doors(level, walk):
    held = set()
    key_of_tile = {t.tile: t.id for t in level.things if t.kind == "key"}
    door_key = {tile: t.props["key"] for t in level.things if t.kind == "door" for tile in t.tiles()}
    for a, b in zip(walk, walk[1:]):
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
    for tile in walk:
        assert level.tiles[tile[1], tile[0]] == mp.FLOOR
        if tile in key_of_tile:
            held.add(key_of_tile[tile])
        if tile in door_key:
            assert door_key[tile] in held, f"walk passes door tile {tile} without its key"
    return True


# -- the whole promise, over every generator ----------------------------------


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(content_levels())
def test_every_level_with_content_proves_and_keeps_its_tiles(case):
    algorithm, width, height, kw = case
    plain = _plain_level(algorithm, width, height, kw)
    assume(plain is not None)
    level = _generate(algorithm, width, height, **kw)
    assume(level is not None)
    level.check()
    assert level.tiles.tobytes() == plain.tiles.tobytes()
    assert (level.entrance, level.exit) == (plain.entrance, plain.exit)
    counts = {kind: sum(t.kind == kind for t in level.things) for kind in mp.content.KINDS}
    assert counts == {"door": kw["keys"], "key": kw["keys"], "treasure": kw["treasure"], "enemy": kw["enemies"]}
    assert [t.id for t in level.things] == sorted(t.id for t in level.things)
    walk = level.solution()
    assert walk[0] == level.entrance and walk[-1] == level.exit
    assert walk_respects_doors(level, walk)


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(ALL), st.integers(3, 14), st.integers(3, 14), seeds, st.integers(1, 4),
       st.sampled_from([0.0, 0.5, 1.0]))
def test_key_aware_solution_is_a_shortest_walk(algorithm, width, height, seed, keys, braid):
    level = _generate(algorithm, width, height, seed=seed, keys=keys, braid=braid)
    assume(level is not None)
    assert len(level.solution()) - 1 == brute_force_walk_length(level)


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(ALL), st.integers(2, 16), st.integers(2, 16), seeds, st.sampled_from([0.0, 1.0]))
def test_the_lock_count_an_error_names_is_one_the_level_holds(algorithm, width, height, seed, braid):
    try:
        mp.generate(algorithm, width, height, seed=seed, braid=braid, keys=4)
        return
    except ValueError as error:
        held = int(re.search(r"can hold (\d+) lock", str(error)).group(1))
    assert held < 4
    if held:
        mp.generate(algorithm, width, height, seed=seed, braid=braid, keys=held).check()
    with pytest.raises(ValueError, match=f"can hold {held} lock"):
        mp.generate(algorithm, width, height, seed=seed, braid=braid, keys=held + 1)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ALL), st.integers(8, 20), st.integers(8, 20), seeds)
def test_each_door_blocks_every_route_once_the_earlier_ones_are_open(algorithm, width, height, seed):
    level = _generate(algorithm, width, height, seed=seed, keys=2, braid=0.5)
    assume(level is not None)
    doors = sorted((t for t in level.things if t.kind == "door"), key=lambda t: t.props["lock"])
    for n, door in enumerate(doors):
        shut = level.tiles.copy()
        for later in doors[n:]:
            for x, y in later.tiles():
                shut[y, x] = mp.WALL
        assert mp.paths.shortest_path(shut, level.entrance, level.exit) is None
        key = next(t for t in level.things if t.id == door.props["key"])
        assert mp.paths.shortest_path(shut, level.entrance, key.tile) is not None


def test_the_issue_example():
    level = mp.generate("backtracker", 30, 20, seed=7, keys=2, treasure=5, enemies=3)
    kinds = [t.kind for t in level.things]
    assert kinds == ["key", "door", "key", "door"] + ["treasure"] * 5 + ["enemy"] * 3
    level.check()
    marked = level.marked()
    for thing in level.things:
        assert marked[thing.y, thing.x] == mp.content.MARKS[thing.kind]
    assert set(np.unique(marked)) == {0, 1, 2, 3, 4, 5, 6, 7}
    text = str(level)
    assert text.count("D") == 2 and text.count("k") == 2 and text.count("$") == 5 and text.count("m") == 3


def test_without_doors_the_solution_is_the_plain_one():
    plain = mp.generate("kruskal", 25, 25, seed=4)
    rich = mp.generate("kruskal", 25, 25, seed=4, treasure=8, enemies=2, place=[mp.Place("coin", 5)])
    assert rich.solution() == plain.solution()
    assert plain.things == ()


@pytest.mark.parametrize("corridor,wall", [(2, 1), (3, 2), (1, 3)])
def test_a_door_spans_the_whole_passage(corridor, wall):
    level = mp.generate("backtracker", 12, 12, seed=9, keys=2, corridor=corridor, wall=wall)
    for door in (t for t in level.things if t.kind == "door"):
        tiles = door.tiles()
        assert len(tiles) == corridor * wall
        assert door.tile in tiles
        assert all(level.tiles[y, x] == mp.FLOOR for x, y in tiles)
    level.check()


def test_furnish_on_a_generated_level_equals_generating_with_content():
    plain = mp.generate("wilson", 20, 20, seed=11)
    rich = mp.generate("wilson", 20, 20, seed=11, keys=2, treasure=4, enemies=2, place=[mp.Place("torch", 3)])
    again = furnish(plain, keys=2, treasure=4, enemies=2, place=[mp.Place("torch", 3)])
    assert again.things == rich.things
    assert again.options == rich.options


def test_the_same_arguments_give_the_same_things_in_another_process():
    code = (
        "import mazeplugin as mp; "
        "print(repr(mp.generate('prim', 18, 14, seed='castle', keys=2, treasure=5, enemies=2).things))"
    )
    here = repr(mp.generate("prim", 18, 14, seed="castle", keys=2, treasure=5, enemies=2).things)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=True)
    assert out.stdout.strip() == here


def _cell_degree(level, thing):
    bx, by = level.layout.base_of(thing.tile)
    base = level.base_tiles
    return sum(base[by + dy, bx + dx] == mp.FLOOR for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ALL), st.integers(10, 25), st.integers(10, 25), seeds,
       st.sampled_from(mp.content.WHERE), st.integers(1, 3), st.integers(0, 6))
def test_place_kinds_sit_where_asked(algorithm, width, height, seed, where, spacing, min_distance):
    request = mp.Place("coin", 4, where=where, spacing=spacing, min_distance=min_distance)
    level = _generate(algorithm, width, height, seed=seed, place=[request], treasure=2)
    assume(level is not None)
    coins = [t for t in level.things if t.kind == "coin"]
    assert len(coins) == 4
    dist = level.distances(level.entrance)
    cells = []
    for coin in coins:
        degree = _cell_degree(level, coin)
        assert {"dead-ends": degree == 1, "corridors": degree == 2,
                "junctions": degree >= 3, "anywhere": degree >= 1}[where]
        assert dist[coin.y, coin.x] // 2 >= min_distance
        cells.append(((coin.x - 1) // 2, (coin.y - 1) // 2))
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) >= spacing
    tiles = [t.tile for t in level.things]
    assert len(set(tiles)) == len(tiles)
    level.check()


def test_treasure_goes_to_dead_ends_far_from_the_route():
    level = mp.generate("backtracker", 30, 30, seed=3, treasure=10)
    route = set(level.solution())
    dead = {level.layout.cell_tile(c) for c in level.dead_ends()}
    treasure = [t for t in level.things if t.kind == "treasure"]
    assert all(t.tile in dead and t.tile not in route for t in treasure)
    # Farther from the route than the typical dead end.
    d = _route_distance(level, route)
    typical = np.median([d[y, x] for x, y in dead if (x, y) not in route])
    assert np.mean([d[t.y, t.x] for t in treasure]) > typical


def _route_distance(level, route):
    h, w = level.tiles.shape
    dist = np.full((h, w), -1)
    queue = deque(route)
    for x, y in route:
        dist[y, x] = 0
    while queue:
        x, y = queue.popleft()
        for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if 0 <= nx < w and 0 <= ny < h and level.tiles[ny, nx] == mp.FLOOR and dist[ny, nx] < 0:
                dist[ny, nx] = dist[y, x] + 1
                queue.append((nx, ny))
    return dist


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ALL), st.integers(12, 24), st.integers(12, 24), seeds, st.sampled_from([0.0, 1.0]))
def test_enemies_start_far_from_the_entrance_and_patrol_a_corridor(algorithm, width, height, seed, braid):
    level = _generate(algorithm, width, height, seed=seed, enemies=3, keys=1, braid=braid)
    assume(level is not None)
    dist = level.distances(level.entrance)
    doors = {tile for t in level.things if t.kind == "door" for tile in t.tiles()}
    for enemy in (t for t in level.things if t.kind == "enemy"):
        patrol = enemy.props["patrol"]
        assert len(patrol) >= 3 and enemy.tile in patrol
        assert len(set(patrol)) == len(patrol)
        for x, y in patrol:
            assert dist[y, x] >= 2 * ENEMY_DISTANCE
            assert (x, y) not in doors
    level.check()


def test_levels_without_markers_take_treasure_and_place_kinds():
    chunk = mp.generate("kruskal", 16, 16, seed=5, markers="none")
    rich = furnish(chunk, treasure=5, enemies=2, place=[mp.Place("torch", 4, where="junctions")], seed=77)
    assert sorted(t.kind for t in rich.things) == ["enemy"] * 2 + ["torch"] * 4 + ["treasure"] * 5
    rich.check()
    assert furnish(chunk, treasure=5, seed=77).things == furnish(chunk, treasure=5, seed=77).things
    assert furnish(chunk, treasure=5, seed=77).things != furnish(chunk, treasure=5, seed=78).things
    with pytest.raises(ValueError, match="keys need a level with an entrance and an exit"):
        furnish(chunk, keys=1, seed=1)


def test_furnishing_twice_keeps_the_first_things_and_numbers_after_them():
    level = mp.generate("kruskal", 20, 20, seed=1, keys=1)
    more = furnish(level, place=[mp.Place("coin", 3)], seed=2)
    assert more.things[:2] == level.things
    assert [t.id for t in more.things] == [1, 2, 3, 4, 5]
    assert not {t.tile for t in more.things[2:]} & {t.tile for t in level.things}
    more.check()


# -- the proof catches broken content ------------------------------------------


def _with(level, things):
    out = furnish(level, seed=0)
    out.things = tuple(things)
    return out


def test_check_catches_a_key_behind_its_own_door():
    level = mp.generate("backtracker", 20, 20, seed=2, keys=1)
    key, door = level.things
    beyond = level.exit
    route = level.solution()
    after = route[route.index(door.tile) + 2]
    moved = Thing("key", after[0], after[1], key.id, key.props)
    with pytest.raises(ContentError, match="cannot be reached"):
        _with(level, [moved, door]).check()
    assert beyond is not None


def test_check_catches_a_door_nobody_needs_and_things_on_walls_or_markers():
    level = mp.generate("wilson", 20, 20, seed=2, keys=1, braid=1.0)
    plain = mp.generate("wilson", 20, 20, seed=2, braid=1.0)
    key, door = level.things[:2]
    # A door in a dead-end-free braid can be walked around when moved off its cut.
    x, y = next((x, y) for x, y in plain.solution()[3:] if (x + y) % 2 == 1)
    loose = Thing("door", x, y, door.id, dict(door.props, tiles=[(x, y)]))
    with pytest.raises(ContentError, match="not needed|cannot be reached"):
        _with(level, [key, loose]).check()
    on_wall = Thing("treasure", 0, 0, 9)
    with pytest.raises(ContentError, match="not a floor tile"):
        _with(level, [key, door, on_wall]).check()
    on_marker = Thing("coin", *level.entrance, 9)
    with pytest.raises(ContentError, match="marker"):
        _with(level, [key, door, on_marker]).check()


def test_check_catches_a_patrol_through_a_door_or_across_every_way():
    level = mp.generate("backtracker", 20, 20, seed=2, keys=1)
    key, door = level.things
    route = level.solution()
    at = route.index(door.tile)
    patrol = route[at - 1:at + 2]
    enemy = Thing("enemy", *patrol[0], 9, {"patrol": patrol})
    with pytest.raises(ContentError, match="door tile"):
        _with(level, [key, door, enemy]).check()
    blocking = route[3:6]
    enemy = Thing("enemy", *blocking[0], 9, {"patrol": blocking})
    with pytest.raises(ContentError, match="avoiding every enemy patrol"):
        _with(level, [key, door, enemy]).check()


# -- wrong input, named before any work ------------------------------------------


@pytest.mark.parametrize(
    "kw,error,match",
    [
        (dict(keys=-1), ValueError, "keys must be at least 0"),
        (dict(keys=1.5), TypeError, "keys must be an int"),
        (dict(treasure=True), TypeError, "treasure must be an int"),
        (dict(enemies="3"), TypeError, "enemies must be an int"),
        (dict(place=mp.Place("coin", 1)), TypeError, "place must be a list"),
        (dict(place=["coin"]), TypeError, "place must hold mp.Place"),
        (dict(keys=50), ValueError, r"keys=50 does not fit: this level can hold \d+ locks"),
        (dict(treasure=500), ValueError, "treasure=500 does not fit"),
        (dict(enemies=200), ValueError, "enemies=200 does not fit"),
        (dict(place=[mp.Place("coin", 300, where="junctions")]), ValueError, "does not fit"),
    ],
)
def test_bad_content_arguments_are_named(kw, error, match):
    with pytest.raises(error, match=match):
        mp.generate("kruskal", 10, 10, seed=1, **kw)


@pytest.mark.parametrize(
    "args,kw,error,match",
    [
        (("door", 1), {}, ValueError, "built-in kind"),
        (("", 1), {}, TypeError, "non-empty str"),
        (("coin", -1), {}, ValueError, "count must be at least 0"),
        (("coin", 1), dict(where="walls"), ValueError, "where must be one of"),
        (("coin", 1), dict(spacing=0), ValueError, "spacing must be at least 1"),
        (("coin", 1), dict(min_distance=-2), ValueError, "min_distance must be at least 0"),
    ],
)
def test_bad_place_requests_are_named(args, kw, error, match):
    with pytest.raises(error, match=match):
        mp.Place(*args, **kw)


def test_bad_arguments_fail_before_the_maze_is_made(monkeypatch):
    calls = []
    monkeypatch.setattr(mp.content.placing, "place_things", lambda *a, **k: calls.append(a))
    with pytest.raises(TypeError):
        mp.generate("kruskal", 4000, 4000, seed=1, keys="2")
    assert not calls


def test_solve_without_a_way_returns_none():
    tiles = np.zeros((1, 4), dtype=np.uint8)
    door = Thing("door", 2, 0, 2, {"key": 1, "tiles": [(2, 0)]})
    key = Thing("key", 3, 0, 1, {"door": 2})
    assert solve(tiles, (0, 0), (3, 0), [door, key]) is None


@st.composite
def levels_with_a_room(draw):
    """A perfect maze with a rectangle opened into one room (open corners), as a Level with border markers."""
    from mazeplugin.tiles import Layout, Opening

    algorithm = draw(st.sampled_from([n for n in ALL if mp.get_generator(n).perfect]))
    width, height = draw(st.integers(4, 18)), draw(st.integers(4, 18))
    maze = mp.generate(algorithm, width, height, seed=draw(seeds)).maze.copy()
    w, h = draw(st.integers(2, width // 2)), draw(st.integers(2, height // 2))
    x, y = draw(st.integers(0, width - w)), draw(st.integers(0, height - h))
    maze.east[y:y + h, x:x + w - 1] = True
    maze.south[y:y + h - 1, x:x + w] = True
    maze.corners[y:y + h - 1, x:x + w - 1] = True
    maze.rooms[y:y + h, x:x + w] = 1
    openings = [Opening((0, 0), "west"), Opening((width - 1, height - 1), "east")]
    layout = Layout(width, height)
    return mp.Level(maze, layout=layout, entrance=layout.opening_tile(openings[0]),
                    exit=layout.opening_tile(openings[1]), openings=openings)


@settings(max_examples=examples(60), deadline=None)
@given(levels_with_a_room(), st.integers(0, 3), st.integers(0, 4), st.integers(0, 2), seeds)
def test_levels_with_rooms_take_content_and_prove(level, keys, treasure, enemies, seed):
    try:
        rich = furnish(level, keys=keys, treasure=treasure, enemies=enemies, seed=seed)
    except ValueError as error:
        assert _FITS.search(str(error)), str(error)
        return
    rich.check()
    corners = {(2 * x + 2, 2 * y + 2) for y, x in zip(*np.nonzero(level.maze.corners))}
    assert not corners & {t.tile for t in rich.things if t.kind == "door"}
    if keys:
        assert len(rich.solution()) - 1 == brute_force_walk_length(rich)


@pytest.mark.parametrize(
    "kw,match",
    [
        (dict(keys=10**12), "keys=1000000000000 does not fit"),
        (dict(treasure=10**9), "does not fit"),
        (dict(place=[mp.Place("coin", 10**9)]), "does not fit"),
    ],
)
def test_counts_that_can_never_fit_are_refused_before_the_maze_is_made(monkeypatch, kw, match):
    import mazeplugin.pipeline as pipeline

    made = []
    monkeypatch.setattr(pipeline, "Maze", lambda *a, **k: made.append(a))
    with pytest.raises(ValueError, match=match):
        mp.generate("kruskal", 100, 100, seed=1, **kw)
    assert not made
