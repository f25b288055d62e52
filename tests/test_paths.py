"""Walking tilemaps: the room-to-room search gives exactly the tile-by-tile answers."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin import paths


def _pillared(rooms_h: int, rooms_w: int, seed: int, density: float) -> np.ndarray:
    """A random tilemap with a wall at every even-even tile (any floor pattern otherwise)."""
    rng = np.random.default_rng(seed)
    tiles = (rng.random((2 * rooms_h + 1, 2 * rooms_w + 1)) >= density).astype(np.uint8)
    tiles[::2, ::2] = mp.WALL
    return tiles


def _floor_tiles(tiles: np.ndarray) -> list:
    return [(int(x), int(y)) for y, x in np.argwhere(tiles == mp.FLOOR)]


pillared_maps = st.builds(
    _pillared,
    st.integers(1, 9),
    st.integers(1, 9),
    st.integers(0, 2**32 - 1),
    st.floats(0.2, 0.95),
)


@given(pillared_maps, st.data())
def test_room_search_distances_equal_tile_search(tiles, data):
    floor = _floor_tiles(tiles)
    if not floor:
        return
    source = data.draw(st.sampled_from(floor))
    assert paths._has_pillars(tiles, source)
    fast = paths.distance_map(tiles, source)
    assert fast.dtype == np.int32
    assert np.array_equal(fast, paths._tile_distance_map(tiles, source))


@given(pillared_maps, st.data())
def test_room_search_path_equals_tile_search(tiles, data):
    floor = _floor_tiles(tiles)
    if not floor:
        return
    start = data.draw(st.sampled_from(floor))
    goal = data.draw(st.sampled_from(floor))
    assert paths.shortest_path(tiles, start, goal) == paths._tile_shortest_path(tiles, start, goal)


@given(st.sampled_from(mp.algorithms()), st.integers(1, 12), st.integers(1, 12), st.integers(0, 10**6))
def test_level_solution_and_distances_equal_tile_search(algorithm, width, height, seed):
    try:
        level = mp.generate(algorithm, width, height, seed=seed, markers="random")
    except ValueError:  # a generator that needs a bigger grid
        return
    tiles = level.tiles
    assert level.solution() == paths._tile_shortest_path(tiles, level.entrance, level.exit)
    for source in (level.entrance, level.exit, (1, 1)):
        if level.is_floor(source):
            assert np.array_equal(level.distances(source), paths._tile_distance_map(tiles, source))


@given(pillared_maps, st.data())
def test_distances_step_by_at_most_one_between_floor_neighbours(tiles, data):
    floor = _floor_tiles(tiles)
    if not floor:
        return
    source = data.draw(st.sampled_from(floor))
    dist = paths.distance_map(tiles, source)
    assert dist[source[1], source[0]] == 0
    assert (dist[tiles != mp.FLOOR] == -1).all()
    reached = dist >= 0
    for a, b in ((dist[:, :-1], dist[:, 1:]), (dist[:-1, :], dist[1:, :])):
        both = (a >= 0) & (b >= 0)
        assert (np.abs(a - b)[both] <= 1).all()
    # Reached floor tiles never border unreached floor tiles.
    floor_mask = tiles == mp.FLOOR
    assert not (reached[:, :-1] & floor_mask[:, 1:] & ~reached[:, 1:]).any()
    assert not (reached[:, 1:] & floor_mask[:, :-1] & ~reached[:, :-1]).any()


@given(pillared_maps, st.data())
def test_path_is_a_shortest_chain_of_adjacent_floor_tiles(tiles, data):
    floor = _floor_tiles(tiles)
    if not floor:
        return
    start = data.draw(st.sampled_from(floor))
    goal = data.draw(st.sampled_from(floor))
    path = paths.shortest_path(tiles, start, goal)
    dist = paths.distance_map(tiles, goal)
    if dist[start[1], start[0]] < 0:
        assert path is None
        return
    assert path[0] == start and path[-1] == goal
    assert len(path) - 1 == dist[start[1], start[0]]
    for (x1, y1), (x2, y2) in zip(path, path[1:]):
        assert abs(x1 - x2) + abs(y1 - y2) == 1 and tiles[y2, x2] == mp.FLOOR


def test_wide_corridors_are_walked_tile_by_tile():
    level = mp.generate("kruskal", 6, 5, seed=3, corridor=2)
    assert not paths._has_pillars(level.tiles, level.entrance)
    path = level.solution()
    assert path == paths._tile_shortest_path(level.tiles, level.entrance, level.exit)


def test_default_levels_are_pillared():
    level = mp.generate("prim", 7, 4, seed=1)
    assert paths._has_pillars(level.tiles, level.entrance, level.exit)
