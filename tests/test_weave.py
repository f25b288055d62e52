"""Weave levels (issue 21): bridges over straight tunnels on square levels.

Each property is recomputed here from the tiles, the bridges layer and the
maze's passages (not from the weave module's own bookkeeping).
"""

from __future__ import annotations

import hashlib
import json
from collections import deque

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin import cli
from mazeplugin.maze import Maze
from mazeplugin.tiles import Opening
from mazeplugin.unionfind import component_roots

from budget import examples
from mazecheck import digest, on_path

PERFECT = [name for name in mp.algorithms() if mp.get_generator(name).perfect]
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))

weave_levels = st.builds(
    lambda algorithm, w, h, seed, share: mp.generate(algorithm, w, h, seed=seed, weave=share),
    st.sampled_from(PERFECT), st.integers(1, 14), st.integers(1, 14), st.integers(0, 2**40),
    st.one_of(st.just(True), st.floats(0.05, 1.0)),
)


def tunnels(level: mp.Level):
    """``(a, b)`` cell ids joined under each bridge, read from the bridges layer."""
    w = level.width
    out = []
    for y, x in np.argwhere(level.bridges > 0).tolist():
        cx, cy = (x - 1) // 2, (y - 1) // 2
        dx, dy = (1, 0) if level.bridges[y, x] == mp.UNDER_EAST_WEST else (0, 1)
        out.append(((cy - dy) * w + cx - dx, (cy + dy) * w + cx + dx))
    return out


# -- the maze stays a tree ------------------------------------------------------------


@settings(max_examples=examples(90), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weave_levels)
def test_a_weave_of_a_perfect_generator_is_a_spanning_tree_counting_tunnels(level):
    maze = level.maze
    a, b = maze.passages()
    under = tunnels(level)
    ta = np.array([t[0] for t in under], dtype=np.int64)
    tb = np.array([t[1] for t in under], dtype=np.int64)
    cells = maze.cell_count()
    assert len(a) + len(under) == cells - 1
    roots = component_roots(maze.size, np.concatenate([a, ta]), np.concatenate([b, tb]))
    assert len(np.unique(roots[maze.cells()])) == 1
    stats = level.stats()
    assert stats.loops == 0 and stats.passages == cells - 1
    degree = np.bincount(np.concatenate([a, b, ta, tb]), minlength=maze.size)
    ends = sorted(maze.cell_xy(c) for c in np.flatnonzero(degree == 1).tolist())
    assert sorted(level.dead_ends()) == ends and stats.dead_ends == len(ends)


@settings(max_examples=examples(90), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weave_levels)
def test_every_bridge_is_straight_over_and_under(level):
    tiles, bridges, maze = level.tiles, level.bridges, level.maze
    assert set(np.unique(bridges).tolist()) <= {0, 1, 2}
    for y, x in np.argwhere(bridges > 0).tolist():
        assert x % 2 == 1 and y % 2 == 1, "a bridge sits on a cell's tile"
        # all four sides are floor: the bridge's own passage one way, the tunnel the other
        assert [tiles[y + dy, x + dx] for dx, dy in STEPS] == [0, 0, 0, 0]
        cx, cy = (x - 1) // 2, (y - 1) // 2
        north, south = maze.south[cy - 1, cx], maze.south[cy, cx]
        west, east = maze.east[cy, cx - 1], maze.east[cy, cx]
        if bridges[y, x] == mp.UNDER_EAST_WEST:  # the bridge runs north-south
            assert (north, south, west, east) == (True, True, False, False)
        else:
            assert (north, south, west, east) == (False, False, True, True)
        # no bridge beside another, and the tunnel's ends are ordinary floor
        for dx, dy in STEPS:
            assert bridges[y + 2 * dy, x + 2 * dx] == 0 and tiles[y + 2 * dy, x + 2 * dx] == 0
    for tile in (level.entrance, level.exit):
        assert bridges[tile[1], tile[0]] == 0


def test_weave_adds_crossings_and_false_changes_nothing():
    plain = mp.generate("backtracker", 20, 15, seed=7)
    assert mp.generate("backtracker", 20, 15, seed=7, weave=False).tiles.tobytes() == plain.tiles.tobytes()
    assert not plain.weave and not plain.bridges.any() and "weave" not in plain.options
    woven = mp.generate("backtracker", 20, 15, seed=7, weave=True)
    assert woven.weave and int((woven.bridges > 0).sum()) >= 10 and woven.options == {"weave": True}
    some = mp.generate("backtracker", 20, 15, seed=7, weave=0.3)
    assert 0 < int((some.bridges > 0).sum()) < int((woven.bridges > 0).sum())


# -- walking: over and under --------------------------------------------------------


def walk_by_steps(level: mp.Level, source):
    """Breadth-first over (tile, under) states using only Level.step: the reference the searches must match."""
    start = (tuple(source), False)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        tile, under = state = queue.popleft()
        for direction in STEPS:
            nxt = level.step(tile, direction, under)
            if nxt[0] != tile and nxt not in dist:
                dist[nxt] = dist[state] + 1
                queue.append(nxt)
    best = np.full(level.tiles.shape, -1, dtype=np.int64)
    for ((x, y), _), d in sorted(dist.items(), key=lambda item: -item[1]):
        best[y, x] = d  # the smaller of on top and underneath wins (written last)
    return best


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weave_levels)
def test_distances_and_solution_agree_with_stepping(level):
    reference = walk_by_steps(level, level.entrance)
    assert np.array_equal(level.distances(level.entrance), reference)
    path = level.solution()
    assert path[0] == level.entrance and path[-1] == level.exit
    assert len(path) - 1 == reference[level.exit[1], level.exit[0]]
    tile, under = path[0], False
    for nxt in path[1:]:
        direction = (nxt[0] - tile[0], nxt[1] - tile[1])
        tile, under = level.step(tile, direction, under)
        assert tile == nxt, "each step of the solution is a move Level.step allows"
    # cells walked: two tiles per cell, plus the openings in the outer wall
    assert level.stats().solution_length == (len(path) - 3) // 2


def crossing_level(exit_opening: Opening, exit_tile) -> mp.Level:
    """3 × 3 cells; a bridge at the middle runs north-south over a tunnel from (0, 1) to (2, 1)."""
    maze = Maze(3, 3)
    pairs = [((1, 0), (1, 1)), ((1, 1), (1, 2)), ((0, 0), (0, 1)), ((0, 1), (0, 2)), ((2, 0), (2, 1)),
             ((2, 1), (2, 2)), ((0, 2), (1, 2))]
    for p, q in pairs:
        maze.open(maze.cell_id(*p), maze.cell_id(*q))
    maze.under = np.zeros((3, 3), dtype=np.int8)
    maze.under[1, 1] = mp.UNDER_EAST_WEST
    maze.check()
    return mp.Level(maze, entrance=(0, 3), exit=exit_tile,
                    openings=[Opening((0, 1), "west"), exit_opening])


def test_a_route_only_under_a_bridge_is_found():
    level = crossing_level(Opening((2, 1), "east"), (6, 3))
    assert level.solution() == [(0, 3), (1, 3), (2, 3), (3, 3), (4, 3), (5, 3), (6, 3)]
    assert level.stats().solution_length == 2 and level.stats().loops == 0
    assert level.step((2, 3), (1, 0)) == ((3, 3), True)
    assert level.step((3, 3), (0, -1), True) == ((3, 3), True)  # no turning in the tunnel


def test_no_turn_on_a_bridge_even_where_the_tiles_would_allow_one():
    level = crossing_level(Opening((1, 0), "north"), (3, 0))
    naive = mp.paths.shortest_path(level.tiles, level.entrance, level.exit)
    assert naive == [(0, 3), (1, 3), (2, 3), (3, 3), (3, 2), (3, 1), (3, 0)]  # turns at the bridge
    assert level.solution() == [(0, 3), (1, 3), (1, 4), (1, 5), (2, 5), (3, 5), (3, 4), (3, 3), (3, 2), (3, 1),
                                (3, 0)]
    assert level.distances(level.entrance)[0, 3] == 10
    on_bridge, under = mp.bridges.distance_maps(level.tiles, level.bridges, level.entrance)
    assert on_bridge[3, 3] == 7 and under[3, 3] == 3  # reached on top only the long way round
    assert level.distances(level.entrance)[3, 3] == 3


# -- golden digests: these levels must never change ---------------------------------------

GOLDEN = {
    ("backtracker", 20, 15, 7, True): "33790f04b057da42",
    ("kruskal", 16, 12, "bridges", 0.5): "b03278feb8f26add",
    ("wilson", 12, 9, 3, True): "10c8743792e00ab5",
}


def weave_digest(level: mp.Level) -> str:
    h = hashlib.sha256(digest(level).encode())
    h.update(level.bridges.tobytes())
    return h.hexdigest()[:16]


@pytest.mark.parametrize("mode", ["1", "0"])  # compiled generators and plain ones make the same weave
@pytest.mark.parametrize("key", sorted(GOLDEN, key=repr))
def test_golden_weave_levels(key, mode):
    algorithm, width, height, seed, share = key
    with on_path(mode):
        level = mp.generate(algorithm, width, height, seed=seed, weave=share)
        assert weave_digest(level) == GOLDEN[key]
        stats = level.stats()
    assert stats.loops == 0 and stats.solution_length == (len(level.solution()) - 3) // 2


# -- files and codes ----------------------------------------------------------------------


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weave_levels)
def test_json_round_trip_keeps_the_bridges(level):
    again = mp.from_json(level.to_json())
    assert again.tiles.tobytes() == level.tiles.tobytes()
    assert again.bridges.tobytes() == level.bridges.tobytes() and again.weave == level.weave
    assert again.options == level.options and again.seed == level.seed
    assert again.solution() == level.solution() and again.stats() == level.stats()


def test_json_without_bridges_is_written_as_before():
    text = mp.generate("kruskal", 4, 3, seed=7).to_json()
    assert '"version": 1' in text and "bridges" not in text


@pytest.mark.parametrize("change, message", [
    (lambda b: b[0].__setitem__(0, b[0][0] + 1), "not on a cell's tile"),
    (lambda b: b[0].__setitem__(2, 3), "tunnel must be 1"),
    (lambda b: b[0].__setitem__(0, b[0][0] + 2) or b[0].__setitem__(1, 1), "not a straight crossing|edge"),
    (lambda b: b.append([b[0][0] + 2, b[0][1], b[0][2]]), "not a straight crossing"),
    (lambda b: b[0].__setitem__(0, 10**6), "outside the map"),
    (lambda b: b.append("x"), "must be [x, y, tunnel]"),
])
def test_json_with_bad_bridges_says_what_is_wrong(change, message):
    data = json.loads(mp.generate("backtracker", 10, 8, seed=2, weave=True).to_json())
    change(data["bridges"])
    with pytest.raises(mp.LevelFormatError, match=message.replace("[", r"\[")):
        mp.from_json(json.dumps(data))


def test_a_bridge_turned_round_on_a_crossroads_tile_is_another_valid_level():
    """The tiles round a bridge are floor on all four sides, so only the bridges layer says which way it runs."""
    level = mp.generate("backtracker", 10, 8, seed=2, weave=True)
    data = json.loads(level.to_json())
    x, y, tunnel = data["bridges"][0]
    data["bridges"][0][2] = 3 - tunnel
    turned = mp.from_json(json.dumps(data))
    assert turned.tiles.tobytes() == level.tiles.tobytes() and turned.bridges[y, x] == 3 - tunnel
    turned.maze.check()  # still straight crossings


def test_json_of_a_weave_without_its_bridges_reads_as_plain_tiles_with_loops():
    data = json.loads(mp.generate("backtracker", 10, 8, seed=2, weave=True).to_json())
    data["bridges"] = []
    level = mp.from_json(json.dumps(data))  # the same tiles as a maze with loops: still a level
    assert not level.weave and level.stats().loops > 0


@pytest.mark.parametrize("share, suffix", [(True, "+w"), (0.25, "+w25")])
def test_level_codes_carry_weave(share, suffix):
    level = mp.generate("prim", 14, 10, seed=11, weave=share)
    code = mp.level_code(level)
    assert code == "prim-14x10-11" + suffix
    again = mp.level_from_code(code)
    assert again.tiles.tobytes() == level.tiles.tobytes() and again.bridges.tobytes() == level.bridges.tobytes()


def test_a_weave_percentage_outside_1_to_100_is_no_code():
    with pytest.raises(ValueError, match="percentage from 1 to 100"):
        mp.parse_level_code("prim-14x10-11+w0")


def test_tiled_maps_have_a_bridges_layer(tmp_path):
    pytmx = pytest.importorskip("pytmx")
    level = mp.generate("backtracker", 10, 8, seed=2, weave=True)
    level.save(tmp_path / "w.tmx")
    level.save(tmp_path / "w.tmj")
    assert (tmp_path / "mazeplugin-bridges-16.png").exists()
    tiled = pytmx.TiledMap(str(tmp_path / "w.tmx"))
    layer = tiled.get_layer_by_name("bridges")
    found = {}
    for x, y, gid in layer.iter_data():
        if gid:
            found[(x, y)] = tiled.get_tile_properties_by_gid(gid)["tunnel"]
    want = {(int(x), int(y)): ("east-west" if v == 1 else "north-south")
            for (y, x), v in np.ndenumerate(level.bridges) if v}
    assert found == want and found
    data = json.loads((tmp_path / "w.tmj").read_text())
    layers = {layer["name"]: layer for layer in data["layers"]}
    gids = np.array(layers["bridges"]["data"]).reshape(level.tiles.shape)
    assert np.array_equal(gids > 0, level.bridges > 0) and set(gids[gids > 0].tolist()) <= {3, 4}
    assert data["nextlayerid"] == max(layer["id"] for layer in data["layers"]) + 1
    # Read back, a weave map is the same level: its tiles, and its bridges from the tiles' 'tunnel' property.
    for name in ("w.tmx", "w.tmj"):
        again = mp.formats.load_tiled(tmp_path / name)
        assert again.tiles.tobytes() == level.tiles.tobytes() and again.weave
        assert again.bridges.tobytes() == level.bridges.tobytes()
        assert again.solution() == level.solution() and again.stats() == level.stats()


def _edit_tmj(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_a_tiled_bridge_that_is_no_straight_crossing_is_refused(tmp_path):
    level = mp.generate("backtracker", 10, 8, seed=2, weave=True)
    level.save(tmp_path / "w.tmj")
    t = level.tiles
    # A cell tile with a wall on some side (a dead end, a turn, a straight corridor): no crossing there.
    y, x = next((y, x) for y in range(1, t.shape[0], 2) for x in range(1, t.shape[1], 2)
                if t[y, x] == 0 and not level.bridges[y, x]
                and 0 < int(t[y - 1, x] == 0) + int(t[y + 1, x] == 0) + int(t[y, x - 1] == 0) + int(t[y, x + 1] == 0) < 4)

    def paint(data):  # a bridge painted in Tiled where no tunnel can run
        layer = next(layer for layer in data["layers"] if layer["name"] == "bridges")
        layer["data"][y * t.shape[1] + x] = 3
    _edit_tmj(tmp_path / "w.tmj", paint)
    with pytest.raises(mp.LevelFormatError, match="w.tmj"):
        mp.load(tmp_path / "w.tmj")


def test_a_tunnel_property_of_another_value_is_refused(tmp_path):
    level = mp.generate("backtracker", 10, 8, seed=2, weave=True)
    level.save(tmp_path / "w.tmj")

    def diagonal(data):
        data["tilesets"][1]["tiles"][0]["properties"][0]["value"] = "diagonal"
    _edit_tmj(tmp_path / "w.tmj", diagonal)
    with pytest.raises(mp.LevelFormatError, match="'tunnel' = 'diagonal'.*'east-west', 'north-south'"):
        mp.load(tmp_path / "w.tmj")


def test_a_hexagonal_map_with_bridges_is_refused(tmp_path):
    hexes = mp.generate("wilson", 5, 4, grid="hex", seed=1)
    hexes.save(tmp_path / "h.tmj")

    def bridge(data):
        data["tilesets"][0]["tiles"][0]["properties"].append({"name": "tunnel", "type": "string",
                                                              "value": "east-west"})
    _edit_tmj(tmp_path / "h.tmj", bridge)
    with pytest.raises(mp.LevelFormatError, match="bridge tiles"):
        mp.load(tmp_path / "h.tmj")


def test_svg_draws_railings_on_bridges():
    level = mp.generate("backtracker", 10, 8, seed=2, weave=True)
    assert 'class="bridges"' in level.to_svg()
    assert 'class="bridges"' not in mp.generate("backtracker", 10, 8, seed=2).to_svg()


def test_text_shows_each_bridge_and_which_way_it_runs():
    level = mp.generate("backtracker", 16, 12, seed=5, weave=True)
    rows = str(level).splitlines()
    for (y, x), value in np.ndenumerate(level.bridges):
        if level.tiles[y, x] == 0:
            assert rows[y][x] == {0: " ", 1: "|", 2: "-"}[int(value)] or (x, y) in (level.entrance, level.exit)
    assert "|" not in str(mp.generate("backtracker", 16, 12, seed=5))


def test_cli_weave_writes_the_bridges(capsys):
    status = cli.main(["generate", "backtracker", "--size", "10x8", "--seed", "2", "--weave", "--format", "json"])
    out, _ = capsys.readouterr()
    assert status == 0
    data = json.loads(out)
    assert data["options"] == {"weave": True}
    assert data["bridges"] == json.loads(mp.generate("backtracker", 10, 8, seed=2, weave=True).to_json())["bridges"]


# -- what weave does not take -------------------------------------------------------------


@pytest.mark.parametrize("kwargs, message", [
    (dict(corridor=2), "corridor=1, wall=1 only"),
    (dict(wall=2), "corridor=1, wall=1 only"),
    (dict(grid="hex"), "grid='hex' takes no weave"),
    (dict(wrap="x"), "wrap='x' takes no weave"),
    (dict(rooms=2), "rooms"),
])
def test_weave_with_what_it_cannot_take_names_the_argument(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        mp.generate("backtracker", 10, 8, seed=1, weave=True, **kwargs)


braided_weave_levels = st.builds(
    lambda algorithm, w, h, seed, braid: mp.generate(algorithm, w, h, seed=seed, weave=True, braid=braid),
    st.sampled_from(PERFECT), st.integers(3, 14), st.integers(3, 14), st.integers(0, 2**40), st.floats(0.1, 1.0),
)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(braided_weave_levels)
def test_braid_after_weave_keeps_every_bridge_straight(level):
    level.maze.check()  # straight crossings, no bridge beside another
    tiles, bridges = level.tiles, level.bridges
    for y, x in np.argwhere(bridges > 0).tolist():
        cx, cy = (x - 1) // 2, (y - 1) // 2
        assert int(level.maze.degree()[cy, cx]) == 2  # its own two passages only: braid opened no wall of it
    assert np.array_equal(level.distances(level.entrance), walk_by_steps(level, level.entrance))
    if level.options["braid"] == 1.0:
        assert level.stats().dead_ends == 0
    plain = mp.generate(level.algorithm, level.width, level.height, seed=level.seed, weave=True)
    assert level.bridges.tobytes() == plain.bridges.tobytes()  # braid draws from its own stream, after the weave


@pytest.mark.parametrize("seed", range(6))
def test_farthest_markers_on_a_weave_are_the_farthest_cells_over_and_under(seed):
    level = mp.generate("kruskal", 14, 10, seed=seed, weave=True, markers="farthest")
    assert level.bridges[level.entrance[1], level.entrance[0]] == 0
    assert level.bridges[level.exit[1], level.exit[0]] == 0
    dist = walk_by_steps(level, level.entrance)
    cells = np.zeros(level.tiles.shape, dtype=bool)
    cells[1::2, 1::2] = True
    cells &= level.bridges == 0
    assert dist[level.exit[1], level.exit[0]] == dist[cells].max()  # nothing farther from the entrance
    assert len(level.solution()) - 1 == dist[level.exit[1], level.exit[0]]


def test_weave_needs_a_perfect_generator():
    with pytest.raises(ValueError, match="weave= needs a perfect generator.*'union-find' is not"):
        mp.generate("union-find", 10, 8, seed=1, weave=True)


@pytest.mark.parametrize("value, error", [("yes", TypeError), (1.5, ValueError), (-0.1, ValueError)])
def test_bad_weave_values_say_what_is_allowed(value, error):
    with pytest.raises(error, match="weave must be True, False or a number from 0 to 1"):
        mp.generate("backtracker", 10, 8, seed=1, weave=value)


def test_weave_takes_a_mask_and_stays_a_forest_per_part():
    mask = ["##########", "####..####", "##########", "##########", "####..####", "##########"]
    level = mp.generate("backtracker", 10, 6, seed=4, weave=True, mask=mask)
    assert level.weave and level.stats().loops == 0
    level.maze.check()
