"""The compiled rooms layer (mazeplugin/_compiled/rooms.py) gives what the plain numpy layer gives.

Piece by piece (door candidates, the doors Kruskal chooses, pieces, the
room check) on mazes with rooms drawn by hypothesis, adjacent rooms and
prefabs included; and whole levels, the ``rooms`` generator and ``rooms=``
in other generators, on both paths.
"""

from __future__ import annotations


import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from budget import examples

pytest.importorskip("numba")

import mazeplugin as mp  # noqa: E402
from mazeplugin import _compiled  # noqa: E402
from mazeplugin.unionfind import component_roots, spanning_forest  # noqa: E402
from mazeplugin.rooms import layer  # noqa: E402
from mazeplugin.rooms.layer import PlacedRoom, RoomTable  # noqa: E402
from mazecheck import on_path, outcome, pillared_prefabs  # noqa: E402

fast = _compiled.load(["rooms"]) and _compiled.kernel("rooms")
ROOM_GENERATORS = sorted(
    name for name in mp.algorithms() if mp.get_generator(name).masks and mp.get_generator(name).fills
)


def both_paths(make) -> None:
    with on_path("1"):
        compiled = outcome(make)
    with on_path("0"):
        plain = outcome(make)
    assert compiled == plain


@st.composite
def carved_mazes(draw):
    """A maze with rooms placed (some at given cells, possibly touching each other) and carved."""
    width, height = draw(st.integers(3, 18)), draw(st.integers(3, 14))
    given_rooms = []
    for _ in range(draw(st.integers(0, 4))):
        w, h = draw(st.integers(1, 4)), draw(st.integers(1, 4))
        x, y = draw(st.integers(0, max(width - w, 0))), draw(st.integers(0, max(height - h, 0)))
        if w <= width and h <= height:
            given_rooms.append((x, y, w, h))
    given_rooms += draw(st.lists(pillared_prefabs(max_width=5, max_height=4, max_doors=6), max_size=2))
    count = draw(st.integers(0, 3)) if not given_rooms else 0
    spec = layer.check_rooms(given_rooms or count, 1, (1, 3) if not given_rooms else None)
    mask = np.ones((height, width), dtype=bool)
    if draw(st.booleans()):
        mask = np.array(draw(st.lists(st.booleans(), min_size=width * height, max_size=width * height)),
                        dtype=bool).reshape(height, width) | (np.arange(width * height).reshape(height, width) % 3 > 0)
    try:
        placed = layer.place_rooms(spec, mask, mp.Random.from_seed(draw(st.integers(0, 2**32))))
    except ValueError:  # overlapping given rooms, or no place left
        placed = []
    assume(placed)
    maze = mp.Maze(width, height, mask)
    with on_path("0"):
        layer.carve_rooms(maze, placed)
    return maze, placed, draw(st.integers(0, 2**32))


def test_the_rooms_kernel_is_loaded():
    assert fast is not None


@settings(max_examples=examples(150), deadline=None)
@given(case=carved_mazes())
def test_door_candidates_are_the_same_on_both_paths(case):
    maze, placed, seed = case
    within = np.random.default_rng(seed).random(maze.mask.shape) < 0.8
    for where in (None, within):
        with on_path("0"):
            plain = layer.door_candidates(maze, placed, within=where)
        with on_path("1"):
            listed = layer.door_candidates(maze, placed, within=where)
            tabled = layer.door_candidates(maze, RoomTable.of(placed), within=where)
        for got in (listed, tabled):
            assert [g.tolist() for g in got] == [p.tolist() for p in plain]


@settings(max_examples=examples(150), deadline=None)
@given(case=carved_mazes())
def test_carving_and_covering_are_the_same_on_both_paths(case):
    maze, placed, _ = case
    fresh = mp.Maze(maze.width, maze.height, maze.mask)
    twin = fresh.copy()
    with on_path("0"):
        layer.carve_rooms(fresh, placed)
        cells = layer.room_cells(placed, maze.mask.shape)
    with on_path("1"):
        layer.carve_rooms(twin, RoomTable.of(placed))
        assert (layer.room_cells(placed, maze.mask.shape) == cells).all()
    for name in ("mask", "east", "south", "corners", "rooms"):
        assert (getattr(fresh, name) == getattr(twin, name)).all(), name


@settings(max_examples=examples(150), deadline=None)
@given(case=carved_mazes(), run=st.sampled_from(["backtracker", "kruskal", "wilson", "none"]))
def test_kruskal_over_the_pieces_chooses_the_doors_the_spanning_forest_chooses(case, run):
    maze, placed, seed = case
    rng = mp.Random.from_seed(seed)
    if run != "none":  # corridors between the rooms, as build() makes them
        corridors = mp.Maze(maze.width, maze.height, maze.mask & (maze.rooms == 0))
        if corridors.mask.any():
            mp.get_generator(run).run(corridors, rng, {})
        maze.east |= corridors.east
        maze.south |= corridors.south
    with on_path("0"):
        a, b = layer.door_candidates(maze, placed)
    order = rng.permutation(len(a))
    a, b = a[order], b[order]
    pa, pb = maze.passages()
    forest = spanning_forest(maze.size, np.concatenate([pa, a]), np.concatenate([pb, b]))
    expected = np.zeros(len(a), dtype=bool)
    expected[forest[forest >= len(pa)] - len(pa)] = True
    chosen, pieces = fast.chosen_doors(maze, a, b)
    assert chosen.tolist() == expected.tolist()
    joined = maze.copy()
    joined.open_many(a, b)
    qa, qb = joined.passages()
    roots = component_roots(maze.size, qa, qb)
    assert pieces == len(np.unique(roots[maze.cells()]))
    label, count = fast.pieces(joined.east, joined.south, joined.mask)
    assert label.tolist() == roots.tolist() and count == pieces
    # All in one kernel: the same draws (permutation, then chance), the same doors, the same pieces.
    chance = seed % 3 / 4
    plain, compiled = maze.copy(), maze.copy()
    with on_path("0"):
        layer.open_doors(plain, placed, mp.Random.from_seed(seed), chance)
    with on_path("1"):
        layer.open_doors(compiled, placed, mp.Random.from_seed(seed), chance)
    assert (plain.east == compiled.east).all() and (plain.south == compiled.south).all()
    with on_path("0"):
        a, b = layer.door_candidates(maze, placed)
    opened = maze.copy()
    assert fast.open_doors_by_chance(opened, a, b, mp.Random.from_seed(seed), chance) == pieces
    assert (opened.east == compiled.east).all() and (opened.south == compiled.south).all()


def test_the_compiled_permutation_is_random_permutation():
    for n in (0, 1, 7, 5000):
        assert fast.permutation(mp.Random.from_seed(n), n).tolist() == mp.Random.from_seed(n).permutation(n).tolist()


@settings(max_examples=examples(300), deadline=None)
@given(case=carved_mazes(), faults=st.lists(st.tuples(st.sampled_from(["east", "south", "corners", "mask", "rooms"]),
                                                    st.integers(0, 10**6), st.sampled_from([-1, 0, 1, 2, 7])),
                                          max_size=3))
def test_the_check_finds_the_same_fault_on_both_paths(case, faults):
    maze, _, _ = case
    for name, spot, value in faults:  # flip a passage, corner or cell, or change a room number
        array = getattr(maze, name)
        if array.size:
            k = spot % array.size
            array.flat[k] = value if name == "rooms" else not array.flat[k]
    results = []
    for mode in ("0", "1"):
        with on_path(mode):
            try:
                maze.check()
                results.append(None)
            except ValueError as error:
                results.append(str(error))
    assert results[0] == results[1]


def test_a_split_room_is_named_on_both_paths():
    maze = mp.Maze(6, 3)
    layer.carve_rooms(maze, [PlacedRoom(1, 0, 0, mp.Prefab.rectangle(2, 1)), PlacedRoom(2, 3, 0, mp.Prefab.rectangle(3, 2))])
    maze.east[0, 3] = maze.east[1, 3] = maze.corners[0, 3] = False  # column x = 3 of room 2 cut off
    for mode in ("0", "1"):
        with on_path(mode), pytest.raises(ValueError, match="^room 2's cells are not all joined to each other$"):
            maze.check()


def test_a_room_table_is_the_rooms_it_holds():
    rooms = [PlacedRoom(1, 0, 0, mp.Prefab.rectangle(2, 1)), PlacedRoom(2, 4, 3, mp.Prefab.rectangle(1, 3)),
             PlacedRoom(3, 6, 0, mp.Prefab.rectangle(2, 1))]
    table = RoomTable.of(rooms)
    assert list(table) == rooms and table[1:] == rooms[1:] and len(table) == 3
    assert [r.number for r in table.renumbered(5)] == [6, 7, 8]
    assert RoomTable.of(table) is table


@settings(max_examples=examples(120), deadline=None)
@given(
    width=st.integers(1, 40),
    height=st.integers(1, 40),
    seed=st.integers(0, 2**64 - 1),
    smallest=st.integers(1, 4),
    spread=st.integers(0, 4),
    attempts=st.none() | st.integers(0, 300),
    extra_doors=st.sampled_from([0.0, 0.02, 0.3, 1.0]),
    prune=st.sampled_from([0.0, 0.5, 1.0]),
    density=st.sampled_from([None, 0.6, 0.9]),
    rooms=st.sampled_from([None, None, 1, 3]),
    markers=st.sampled_from(["border", "farthest", "random", "none"]),
)
@example(width=60, height=45, seed=3, smallest=2, spread=3, attempts=None, extra_doors=0.02, prune=1.0,
         density=0.75, rooms=2, markers="farthest")
def test_the_rooms_generator_makes_the_same_level_on_both_paths(
    width, height, seed, smallest, spread, attempts, extra_doors, prune, density, rooms, markers
):
    kwargs = dict(seed=seed, room_size=(smallest, smallest + spread), attempts=attempts,
                  extra_doors=extra_doors, prune=prune, markers=markers)
    if density is not None:
        kwargs["mask"] = np.random.default_rng(seed % 2**32).random((height, width)) < density
    if rooms is not None:
        kwargs["rooms"] = rooms
    both_paths(lambda: mp.generate("rooms", width, height, **kwargs))


@settings(max_examples=examples(80), deadline=None)
@given(
    algorithm=st.sampled_from(ROOM_GENERATORS),
    width=st.integers(6, 30),
    height=st.integers(6, 24),
    seed=st.integers(0, 2**32),
    shapes=st.lists(pillared_prefabs(max_width=5, max_height=4, max_doors=6), max_size=3),
    rectangles=st.lists(st.tuples(st.integers(0, 20), st.integers(0, 16), st.integers(1, 4), st.integers(1, 3)),
                        max_size=3),
    count=st.integers(0, 5),
    doors=st.sampled_from([1, 2, 3, 0.0, 0.3, 1.0]),
    density=st.sampled_from([None, 0.85]),
)
def test_rooms_in_any_generator_make_the_same_level_on_both_paths(
    algorithm, width, height, seed, shapes, rectangles, count, doors, density
):
    rooms = [*rectangles, *shapes] if rectangles or shapes else max(count, 1)
    kwargs = dict(seed=seed, rooms=rooms, doors=doors, markers="farthest")
    if density is not None:
        kwargs["mask"] = np.random.default_rng(seed).random((height, width)) < density
    both_paths(lambda: mp.generate(algorithm, width, height, **kwargs))
