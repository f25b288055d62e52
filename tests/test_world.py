"""Endless worlds (issue 10): order-free, seamless, connected, bounded, and strict about input."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.formats.rebuild import level_from_tiles
from mazeplugin.paths import distance_map

FAST = ["backtracker", "eller", "kruskal", "prim"]


def all_floor_joined(tiles: np.ndarray) -> bool:
    """Every floor tile of ``tiles`` reaches every other without leaving the array."""
    floor = np.argwhere(tiles == mp.FLOOR)
    if floor.size == 0:
        return True
    y, x = (int(v) for v in floor[0])
    return bool(((distance_map(tiles, (x, y)) >= 0) == (tiles == mp.FLOOR)).all())


def chunk_block_window(world: mp.World, i0: int, j0: int, i1: int, j1: int) -> tuple:
    """The tile window of chunks i0..i1-1 × j0..j1-1 with the walls that close them east and south."""
    sw, sh = world.chunk_span
    return (i0 * sw, j0 * sh, i1 * sw + world.wall, j1 * sh + world.wall)


def digest(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes() + repr(array.shape).encode()).hexdigest()


# -- determinism ---------------------------------------------------------------

windows = st.lists(
    st.tuples(
        st.integers(-45, 30), st.integers(-45, 30), st.integers(0, 18), st.integers(0, 18)
    ).map(lambda w: (w[0], w[1], w[0] + w[2], w[1] + w[3])),
    min_size=1,
    max_size=6,
)


@given(
    seed=st.integers(0, 2**40),
    chunk=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    corridor=st.integers(1, 2),
    wall=st.integers(1, 2),
    requests=windows,
    order=st.randoms(use_true_random=False),
)
@settings(max_examples=30)
def test_windows_agree_whatever_was_asked_before_and_in_what_order(seed, chunk, corridor, wall, requests, order):
    settings_ = dict(seed=seed, chunk=chunk, corridor=corridor, wall=wall)
    left, top = min(w[0] for w in requests), min(w[1] for w in requests)
    right, bottom = max(w[2] for w in requests), max(w[3] for w in requests)
    whole = mp.World("backtracker", **settings_).tiles(left, top, right, bottom)
    shuffled = list(requests)
    order.shuffle(shuffled)
    tiny_cache = mp.World("backtracker", **settings_, cache=1)
    for x0, y0, x1, y1 in shuffled + shuffled[::-1]:
        window = tiny_cache.tiles(x0, y0, x1, y1)
        assert window.shape == (y1 - y0, x1 - x0)
        assert (window == whole[y0 - top : y1 - top, x0 - left : x1 - left]).all()


def test_a_tile_depends_only_on_its_settings_and_coordinates_not_the_process():
    program = (
        "import hashlib, sys, mazeplugin as mp\n"
        "order = [int(v) for v in sys.argv[1].split(',')]\n"
        "world = mp.World('kruskal', seed='castle', chunk=(5, 3), braid=0.3, cache=2)\n"
        "windows = [(-40, -13, 7, 9), (3, -2, 61, 20), (-7, 5, -1, 33), (-100, -100, -60, -90)]\n"
        "got = {k: world.tiles(*windows[k]) for k in order}\n"
        "print(hashlib.sha256(b''.join(got[k].tobytes() for k in range(4))).hexdigest())\n"
    )
    outputs = []
    for hash_seed, order in (("1", "0,1,2,3"), ("2", "3,1,0,2"), ("random", "2,3,1,0")):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run(
            [sys.executable, "-c", program, order], env=env, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout.strip())
    world = mp.World("kruskal", seed="castle", chunk=(5, 3), braid=0.3)
    windows = [(-40, -13, 7, 9), (3, -2, 61, 20), (-7, 5, -1, 33), (-100, -100, -60, -90)]
    here = hashlib.sha256(b"".join(world.tiles(*w).tobytes() for w in windows)).hexdigest()
    assert outputs == [here] * 3


# Pinned so that a change to how worlds draw their numbers is a deliberate, announced one.
GOLDEN = {
    ("backtracker", 7, (32, 32)): "31c3d7b4a87fe8902535d0eb6f9734832ade971c207c587610054aa7383926c5",
    ("kruskal", "castle", (8, 5)): "04fe3666c296e7e9d083c3ed15413cb8e44f3272b3b29df5a493fcba080a3625",
}


@pytest.mark.parametrize("algorithm, seed, chunk", list(GOLDEN))
def test_world_tiles_match_their_golden_digest(algorithm, seed, chunk):
    world = mp.World(algorithm, seed=seed, chunk=chunk)
    assert digest(world.tiles(-100, -70, 100, 70)) == GOLDEN[(algorithm, seed, chunk)]


def test_different_seeds_make_different_worlds():
    a = mp.World("backtracker", seed=1, chunk=(8, 8)).tiles(-20, -20, 20, 20)
    b = mp.World("backtracker", seed=2, chunk=(8, 8)).tiles(-20, -20, 20, 20)
    assert (a != b).any()


def test_chunks_with_the_same_shape_differ_from_each_other():
    world = mp.World("backtracker", seed=3, chunk=(8, 8))
    blocks = {world.chunk_tiles((i, j)).tobytes() for i in range(-2, 2) for j in range(-2, 2)}
    assert len(blocks) == 16


# -- seamless and connected ------------------------------------------------------


@pytest.mark.parametrize("algorithm", FAST + ["wilson", "hunt-and-kill", "growing-tree"])
def test_every_floor_tile_of_a_block_of_chunks_reaches_every_other_inside_it(algorithm):
    world = mp.World(algorithm, seed=11, chunk=(6, 5))
    window = chunk_block_window(world, -2, -2, 2, 2)
    assert all_floor_joined(world.tiles(*window))


@given(
    seed=st.integers(0, 2**32),
    chunk=st.tuples(st.integers(1, 7), st.integers(1, 7)),
    corridor=st.integers(1, 3),
    wall=st.integers(1, 2),
    braid=st.sampled_from([0.0, 0.5]),
    i=st.integers(-50, 50),
    j=st.integers(-50, 50),
    east=st.booleans(),
    algorithm=st.sampled_from(FAST),
)
@settings(max_examples=50)
def test_the_route_between_neighbouring_chunks_stays_inside_them(seed, chunk, corridor, wall, braid, i, j, east, algorithm):
    world = mp.World(algorithm, seed=seed, chunk=chunk, corridor=corridor, wall=wall, braid=braid)
    window = chunk_block_window(world, i, j, i + 1 + east, j + 1 + (not east))
    tiles = world.tiles(*window)
    assert all_floor_joined(tiles)
    # ... and the shared border really is open (not merely both sides joined on their own).
    sw, sh = world.chunk_span
    if east:
        assert world.west_openings((i + 1, j))
        assert (tiles[:, sw : sw + wall] == mp.FLOOR).any()
    else:
        assert world.north_openings((i, j + 1))
        assert (tiles[sh : sh + wall, :] == mp.FLOOR).any()


@pytest.mark.parametrize("algorithm", FAST)
def test_each_chunk_is_a_perfect_maze_of_its_generator(algorithm):
    world = mp.World(algorithm, seed=5, chunk=(7, 4))
    for chunk in [(0, 0), (-3, 2), (4, -9)]:
        x, y, w, h = world.chunk_rect(chunk)
        level = world.level(x, y, x + w + 1, y + h + 1)
        assert (level.width, level.height) == world.chunk
        assert level.stats().loops == 0
        assert level.maze.passage_count() == level.maze.cell_count() - 1


def test_openings_are_the_floor_tiles_of_the_shared_walls():
    world = mp.World("prim", seed=9, chunk=(9, 6), openings=3)
    for chunk in [(0, 0), (-1, 4), (7, -2)]:
        block = world.chunk_tiles(chunk)
        rows = [2 * r + 1 for r in world.west_openings(chunk)]
        columns = [2 * c + 1 for c in world.north_openings(chunk)]
        assert len(rows) == 3 and len(columns) == 3
        assert np.flatnonzero(block[:, 0] == mp.FLOOR).tolist() == rows
        assert np.flatnonzero(block[0, :] == mp.FLOOR).tolist() == columns


def test_default_openings_are_one_per_sixteen_cells_of_border():
    world = mp.World("backtracker", seed=1, chunk=(64, 8))
    assert world.openings == (1, 4)
    assert len(world.north_openings((3, 3))) == 4 and len(world.west_openings((3, 3))) == 1


def test_spawn_is_a_floor_tile_in_chunk_zero():
    for corridor, wall in [(1, 1), (3, 2)]:
        world = mp.World("kruskal", seed=4, chunk=(5, 5), corridor=corridor, wall=wall)
        assert world.is_floor(world.spawn)
        assert world.chunk_of(world.spawn) == (0, 0)


@given(x=st.integers(-10**12, 10**12), y=st.integers(-10**12, 10**12))
def test_chunk_of_and_chunk_rect_agree(x, y):
    world = mp.World("kruskal", seed=1, chunk=(3, 7), corridor=2)
    cx, cy, w, h = world.chunk_rect(world.chunk_of((x, y)))
    assert cx <= x < cx + w and cy <= y < cy + h
    assert world.chunks(x, y, x + 1, y + 1) == [world.chunk_of((x, y))]


def test_far_away_chunks_are_made_like_near_ones():
    world = mp.World("backtracker", seed=1, chunk=(4, 4))
    far = 10**15
    assert world.tiles(far, -far, far + 40, -far + 40).shape == (40, 40)
    i, j = world.chunk_of((far, -far))
    assert all_floor_joined(world.tiles(*chunk_block_window(world, i + 1, j + 1, i + 3, j + 3)))


# -- the perfect world ------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ["backtracker", "kruskal"])
def test_a_perfect_world_is_one_tree_around_the_spawn(algorithm):
    world = mp.World(algorithm, seed=21, chunk=(5, 4), perfect=True)
    window = chunk_block_window(world, -3, -3, 4, 3)  # any block of chunks holding (0, 0)
    level = level_from_tiles(world.tiles(*window), unmarked_openings=True)
    cells, passages = level.maze.cell_count(), level.maze.passage_count()
    assert passages == cells - 1
    assert level.stats().loops == 0
    inner = world.tiles(window[0] + 1, window[1] + 1, window[2] - 1, window[3] - 1)
    assert all_floor_joined(inner)


def test_a_perfect_world_opens_only_the_border_to_each_chunks_parent():
    world = mp.World("kruskal", seed=2, chunk=(4, 4), perfect=True)
    for i in range(-4, 5):
        for j in range(-4, 5):
            parent = world.parent((i, j))
            if (i, j) == (0, 0):
                assert parent is None
                continue
            assert abs(parent[0]) + abs(parent[1]) == abs(i) + abs(j) - 1
            west = bool(world.west_openings((i, j)))
            north = bool(world.north_openings((i, j)))
            assert west == (parent == (i - 1, j) or world.parent((i - 1, j)) == (i, j))
            assert north == (parent == (i, j - 1) or world.parent((i, j - 1)) == (i, j))
            assert len(world.west_openings((i, j))) <= 1


def test_a_perfect_world_pays_with_detours_between_some_neighbours():
    """The honest cost: some neighbouring chunks are not joined inside the two of them."""
    world = mp.World("kruskal", seed=2, chunk=(4, 4), perfect=True)
    apart = 0
    for i in range(1, 6):
        for j in range(1, 6):
            tiles = world.tiles(*chunk_block_window(world, i, j, i + 2, j + 1))
            inner = tiles[1:-1, 1:-1]
            apart += not all_floor_joined(inner)
    assert apart > 0


# -- options ----------------------------------------------------------------------


@pytest.mark.parametrize("corridor, wall", [(2, 1), (1, 2), (3, 2)])
def test_corridor_and_wall_widths_make_a_wide_world_that_rebuilds_as_a_maze(corridor, wall):
    world = mp.World("backtracker", seed=8, chunk=(4, 3), corridor=corridor, wall=wall)
    pitch = corridor + wall
    assert world.chunk_span == (4 * pitch, 3 * pitch)
    window = chunk_block_window(world, -1, -1, 2, 2)
    tiles = world.tiles(*window)
    assert all_floor_joined(tiles)
    level = level_from_tiles(tiles, corridor=corridor, wall=wall, unmarked_openings=True)
    assert level.maze.width == 12 and level.maze.height == 9


def test_braid_one_leaves_no_dead_end_anywhere():
    world = mp.World("backtracker", seed=8, chunk=(6, 6), braid=1)
    tiles = world.tiles(-24, -24, 25, 25)  # starts on a wall line: cells at odd indices
    centres = tiles[1:-1:2, 1:-1:2][1:-1, 1:-1]  # cells away from the window's edge
    floor = tiles == mp.FLOOR
    open_sides = (
        floor[0:-2:2, 1:-1:2].astype(int)
        + floor[2::2, 1:-1:2]
        + floor[1:-1:2, 0:-2:2]
        + floor[1:-1:2, 2::2]
    )[1:-1, 1:-1]
    assert (centres == mp.FLOOR).all()
    assert open_sides.min() >= 2


def test_braid_adds_passages_to_the_unbraided_world():
    plain = mp.World("kruskal", seed=3, chunk=(8, 8)).tiles(-20, -20, 20, 20)
    braided = mp.World("kruskal", seed=3, chunk=(8, 8), braid=0.5).tiles(-20, -20, 20, 20)
    assert ((braided == mp.FLOOR) >= (plain == mp.FLOOR)).all()
    assert (braided != plain).any()


def test_generator_options_reach_each_chunk():
    oldest = mp.World("growing-tree", seed=3, chunk=(8, 8), strategy="oldest").tiles(0, 0, 40, 40)
    newest = mp.World("growing-tree", seed=3, chunk=(8, 8), strategy="newest").tiles(0, 0, 40, 40)
    assert (oldest != newest).any()


def test_rooms_without_pruning_makes_a_joined_world():
    world = mp.World("rooms", seed=3, chunk=(12, 12), prune=0)
    assert all_floor_joined(world.tiles(*chunk_block_window(world, -1, -1, 1, 1)))


# -- a window as a Level ------------------------------------------------------------


def test_a_window_level_is_the_window_widened_to_whole_cells(tmp_path):
    world = mp.World("backtracker", seed=7, chunk=(6, 6), braid=0.2)
    level = world.level(-13, 4, 18, 17)
    x0, y0, x1, y1 = world.cell_window(-13, 4, 18, 17)
    assert (x0, y0) <= (-13, 4) and x1 >= 18 and y1 >= 17
    assert level.options["world"]["window"] == [x0, y0, x1, y1]
    window = world.tiles(x0, y0, x1, y1)
    assert (level.tiles[1:-1, 1:-1] == window[1:-1, 1:-1]).all()
    assert (level.tiles[[0, -1], :] == mp.WALL).all() and (level.tiles[:, [0, -1]] == mp.WALL).all()
    assert (window[[0, -1], :] == mp.FLOOR).any() or (window[:, [0, -1]] == mp.FLOOR).any()
    opened = world.level(-13, 4, 18, 17, open_edges=True)
    assert (opened.tiles == window).all() and opened.options["world"]["open_edges"]
    assert level.entrance is None and level.exit is None
    assert level.stats().cells == level.width * level.height
    again = mp.from_json(level.to_json())
    assert (again.tiles == level.tiles).all()
    assert "<svg" in level.to_svg()
    level.save(tmp_path / "region.tmx")
    level.save(tmp_path / "region.npy")
    assert (mp.load(tmp_path / "region.npy").tiles == level.tiles).all()
    level.save(tmp_path / "region.json")
    assert (mp.load(tmp_path / "region.json").tiles == level.tiles).all()
    with pytest.raises(ValueError, match="no options|options"):
        mp.level_code(level)


def test_a_window_level_draws_with_pygame():
    pytest.importorskip("pygame")  # mazeplugin.pg itself raises ImportError, not ModuleNotFoundError, without it
    import mazeplugin.pg as mpg
    level = mp.World("prim", seed=1, chunk=(4, 4)).level(0, 0, 20, 20)
    assert mpg.render(level, tile=2).get_size() == (level.tiles.shape[1] * 2, level.tiles.shape[0] * 2)


@given(
    x0=st.integers(-50, 50), y0=st.integers(-50, 50), w=st.integers(0, 20), h=st.integers(0, 20),
    corridor=st.integers(1, 3), wall=st.integers(1, 3),
)
def test_cell_window_is_the_smallest_whole_cell_window_around_the_request(x0, y0, w, h, corridor, wall):
    world = mp.World("kruskal", seed=1, chunk=(2, 2), corridor=corridor, wall=wall)
    X0, Y0, X1, Y1 = world.cell_window(x0, y0, x0 + w, y0 + h)
    pitch = corridor + wall
    assert X0 <= x0 < X0 + pitch and Y0 <= y0 < Y0 + pitch
    assert X1 >= x0 + w and Y1 >= y0 + h
    assert X0 % pitch == 0 and (X1 - X0 - wall) % pitch == 0 and X1 - X0 >= pitch + wall
    assert (X1 - X0 == pitch + wall) or X1 - pitch < x0 + w


# -- memory and the cache -------------------------------------------------------------


def test_memory_stays_flat_over_ten_thousand_chunk_requests_walking_east():
    # Tracing slows every allocation down, so trace the last 2,000 of the 10,000
    # chunks: whatever a chunk leaves behind shows up as growth from the first
    # traced thousand to the second (the cache holds only the newest 16).
    world = mp.World("backtracker", seed=1, chunk=(1, 1), cache=16)
    sw, sh = world.chunk_span
    for i in range(8_000):
        world.tiles(i * sw, 0, (i + 1) * sw, sh)
    tracemalloc.start()
    try:
        for i in range(8_000, 9_000):
            world.tiles(i * sw, 0, (i + 1) * sw, sh)
        first, _ = tracemalloc.get_traced_memory()
        for i in range(9_000, 10_000):
            world.tiles(i * sw, 0, (i + 1) * sw, sh)
        second, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert world.cache_info().misses == 10_000
    assert world.cache_info().size == 16
    assert second - first < 8 * 1024, f"memory grew by {second - first} bytes over 1,000 more chunks"


def test_the_cache_keeps_the_most_recently_used_chunks():
    world = mp.World("kruskal", seed=1, chunk=(3, 3), cache=3)
    for chunk in [(0, 0), (1, 0), (2, 0), (0, 0), (3, 0)]:
        world.chunk_tiles(chunk)
    info = world.cache_info()
    assert (info.size, info.maxsize) == (3, 3)
    first = world.chunk_tiles((0, 0))  # still held: used after (1, 0)
    assert world.cache_info().hits == info.hits + 1
    world.chunk_tiles((1, 0))  # dropped: made again, identical
    assert world.cache_info().misses == info.misses + 1
    assert not first.flags.writeable


# -- refusals ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        (dict(markers="border"), ValueError, "markers"),
        (dict(markers=[(0, 1), (2, 1)]), ValueError, "markers"),
        (dict(mask=["##", "##"]), ValueError, "mask"),
        (dict(chunk=(0, 4)), ValueError, "chunk width"),
        (dict(chunk=(4, -1)), ValueError, "chunk height"),
        (dict(chunk=(4.0, 4)), TypeError, "chunk width"),
        (dict(chunk=4), TypeError, "chunk"),
        (dict(chunk=(300, 300)), ValueError, "chunk"),
        (dict(chunk=(256, 256), corridor=5, wall=4), ValueError, "tiles"),
        (dict(corridor=0), ValueError, "corridor"),
        (dict(wall=1.5), TypeError, "wall"),
        (dict(braid=2), ValueError, "braid"),
        (dict(openings=0), ValueError, "openings"),
        (dict(openings=40), ValueError, "openings"),
        (dict(perfect=True, braid=0.5), ValueError, "braid"),
        (dict(perfect=True, openings=2), ValueError, "openings"),
        (dict(perfect="yes"), TypeError, "perfect"),
        (dict(cache=0), ValueError, "cache"),
        (dict(bias="north"), TypeError, "bias"),
        (dict(seed=-1), ValueError, "seed"),
    ],
)
def test_bad_world_settings_are_refused_naming_the_argument(kwargs, error, words):
    with pytest.raises(error, match=words):
        mp.World("backtracker", **kwargs)


@pytest.mark.parametrize(
    "algorithm, kwargs, words",
    [
        ("union-find", {}, "sealed pockets"),
        ("rooms", {}, "prune=0"),
        ("rooms", {"perfect": True, "prune": 0}, "perfect generator"),
        ("no-such-maze", {}, "unknown algorithm"),
    ],
)
def test_generators_that_cannot_make_a_joined_world_are_refused(algorithm, kwargs, words):
    with pytest.raises(ValueError, match=words):
        mp.World(algorithm, seed=1, **kwargs)


def test_a_generator_that_lies_about_being_perfect_is_caught():
    @mp.register("test-islands")
    def islands(maze, rng):
        """Every cell alone: no passages at all."""

    try:
        with pytest.raises(ValueError, match="sealed pockets"):
            mp.World("test-islands", seed=1, chunk=(3, 3))
        assert mp.World("test-islands", seed=1, chunk=(1, 1)).tiles(0, 0, 4, 4).shape == (4, 4)
    finally:
        mp.unregister("test-islands")


@pytest.mark.parametrize(
    "window, error, words",
    [
        ((0.0, 0, 4, 4), TypeError, "x0"),
        ((0, "1", 4, 4), TypeError, "y0"),
        ((0, 0, True, 4), TypeError, "x1"),
        ((0, 0, 4, np.float64(4)), TypeError, "y1"),
        ((5, 0, 4, 4), ValueError, "x1 must be at least x0"),
        ((0, 5, 4, 4), ValueError, "y1 must be at least y0"),
        ((0, 0, 2**15, 2**15), ValueError, "too large|at most"),
        ((-(2**62), 0, 4, 4), ValueError, "x0"),
    ],
)
def test_bad_windows_are_refused_before_any_work(window, error, words):
    world = mp.World("kruskal", seed=1, chunk=(4, 4))
    before = world.cache_info()
    for method in (world.tiles, world.level, world.chunks):
        with pytest.raises(error, match=words):
            method(*window)
    assert world.cache_info() == before


def test_numpy_ints_are_coordinates_and_empty_windows_are_empty():
    world = mp.World("kruskal", seed=1, chunk=(4, 4))
    assert world.tiles(np.int64(-3), np.int32(2), 5, 9).shape == (7, 8)
    assert world.tiles(3, 3, 3, 10).shape == (7, 0)
    with pytest.raises(TypeError, match="tile"):
        world.chunk_of((1.5, 2))
    with pytest.raises(TypeError, match="tile"):
        world.chunk_of(3)
    with pytest.raises(TypeError, match="chunk"):
        world.chunk_tiles((0, None))


def test_seed_none_draws_a_seed_kept_on_the_world():
    world = mp.World("kruskal", chunk=(4, 4))
    again = mp.World("kruskal", seed=world.seed, chunk=(4, 4))
    assert (world.tiles(-9, -9, 9, 9) == again.tiles(-9, -9, 9, 9)).all()
    assert "World('kruskal'" in repr(world)


def test_a_level_file_with_a_tampered_world_option_is_refused():
    level = mp.World("kruskal", seed=1, chunk=(4, 4)).level(0, 0, 17, 17)
    data = json.loads(level.to_json())
    assert data["options"]["world"]["window"] == [0, 0, 17, 17]
    data["options"]["world"]["window"] = [0, 0, 19, 17]
    with pytest.raises(mp.LevelFormatError, match="world"):
        mp.from_json(json.dumps(data))
    data["options"]["world"] = {"chunk": [4, 4], "window": [0, 0, 17, 17], "colour": "red"}
    with pytest.raises(mp.LevelFormatError, match="world"):
        mp.from_json(json.dumps(data))


# -- content per chunk ------------------------------------------------------------------


def content_world(**extra):
    return mp.World(
        "backtracker", seed=13, chunk=(8, 6), treasure=2, place=[mp.Place("torch", 1, where="junctions")], **extra
    )


def test_each_chunk_gets_its_treasure_and_place_kinds_on_its_own_floor():
    world = content_world(corridor=2)
    for chunk in [(0, 0), (-3, 1), (5, -7)]:
        things = world.chunk_things(chunk)
        assert sorted(t.kind for t in things) == ["torch", "treasure", "treasure"]
        x, y, w, h = world.chunk_rect(chunk)
        for thing in things:
            assert x <= thing.x < x + w and y <= thing.y < y + h
            assert world.is_floor(thing.tile)
            assert thing.props["chunk"] == chunk


def test_things_do_not_depend_on_what_was_asked_before():
    one, two = content_world(), content_world(cache=1)
    windows = [(-30, -20, 10, 10), (0, 0, 50, 30), (-60, 5, -20, 40)]
    first = [one.things(*w) for w in windows]
    second = [two.things(*w) for w in reversed(windows)][::-1]
    assert first == second
    assert len({t.tile for t in one.things(-60, -20, 50, 40)}) > 10


def test_a_window_level_carries_the_things_inside_it(tmp_path):
    world = content_world()
    level = world.level(-20, -10, 30, 25)
    x0, y0, x1, y1 = world.cell_window(-20, -10, 30, 25)
    inside = world.things(x0, y0, x1, y1)
    assert [(t.kind, t.x + x0, t.y + y0) for t in level.things] == [(t.kind, t.x, t.y) for t in inside]
    assert [t.id for t in level.things] == list(range(1, len(inside) + 1))
    level.save(tmp_path / "region.json")
    assert mp.load(tmp_path / "region.json").things == level.things


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        (dict(keys=1), ValueError, "keys"),
        (dict(enemies=2), ValueError, "enemies"),
        (dict(treasure=-1), ValueError, "treasure"),
        (dict(treasure=1.5), TypeError, "treasure"),
        (dict(place="torch"), TypeError, "place"),
        (dict(treasure=100, chunk=(3, 3)), ValueError, "chunk \\(0, 0\\) cannot hold"),
    ],
)
def test_content_a_world_cannot_place_is_refused(kwargs, error, words):
    with pytest.raises(error, match=words):
        mp.World("kruskal", seed=1, **kwargs)
