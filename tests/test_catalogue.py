"""The generator catalogue: names, flags, options, and the structure of what each makes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mazeplugin as mp
from mazecheck import (
    assert_outer_ring_is_wall,
    assert_perfect,
    assert_pillars_are_wall,
    assert_valid_solution,
    floor_components,
)

CATALOGUE = {  # name: (perfect, takes a mask)
    "aldous-broder": (True, True),
    "wilson": (True, True),
    "binary-tree": (True, False),
    "sidewinder": (True, False),
    "hunt-and-kill": (True, True),
    "growing-tree": (True, True),
    "prim-simplified": (True, True),
    "division": (True, False),
    "rooms": (False, True),
}
MASKABLE_PERFECT = [n for n in mp.algorithms() if mp.get_generator(n).perfect and mp.get_generator(n).masks]
STRATEGIES = ["newest", "random", "oldest", "middle", "newest:0.75", "oldest:0.5", "middle:0"]
BIASES = ["northeast", "northwest", "southeast", "southwest"]

sizes = st.integers(min_value=1, max_value=40)
seeds = st.integers(min_value=0, max_value=2**64)


@st.composite
def masks(draw, max_side=24):
    """A random mask with at least one cell, often in several parts."""
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    density = draw(st.sampled_from([0.45, 0.6, 0.8, 1.0]))
    cells = np.array(draw(st.lists(st.floats(0, 1), min_size=w * h, max_size=w * h))) < density
    cells = cells.reshape(h, w)
    cells[draw(st.integers(0, h - 1)), draw(st.integers(0, w - 1))] = True
    return cells


def test_catalogue_names_and_flags():
    for name, (perfect, takes_mask) in CATALOGUE.items():
        info = mp.get_generator(name)
        assert (info.perfect, info.masks) == (perfect, takes_mask), name
        assert info.description and info.function.__module__.startswith("mazeplugin.generators.")


def test_every_generator_module_names_its_source_and_texture():
    import importlib

    for name in CATALOGUE:
        module = importlib.import_module(mp.get_generator(name).function.__module__)
        doc = module.__doc__ or ""
        assert "Source" in doc and "Texture" in doc, name


@pytest.mark.parametrize("strategy", STRATEGIES)
@given(width=sizes, height=sizes, seed=seeds)
def test_growing_tree_strategies_make_spanning_trees(strategy, width, height, seed):
    level = mp.generate("growing-tree", width, height, seed=seed, strategy=strategy)
    assert_perfect(level)
    assert_valid_solution(level)


@pytest.mark.parametrize("bias", BIASES)
@given(width=sizes, height=sizes, seed=seeds)
def test_binary_tree_biases_make_spanning_trees_with_open_edges(bias, width, height, seed):
    level = mp.generate("binary-tree", width, height, seed=seed, bias=bias)
    assert_perfect(level)
    maze = level.maze
    # The two edges at the bias corner are unbroken corridors.
    row = 0 if bias.startswith("north") else height - 1
    column = width - 1 if bias.endswith("east") else 0
    assert maze.east[row, :-1].all()
    assert maze.south[:-1, column].all()


@given(width=sizes, height=sizes, seed=seeds)
def test_sidewinder_runs_each_open_north_once(width, height, seed):
    maze = mp.generate("sidewinder", width, height, seed=seed).maze
    assert maze.east[0, :-1].all()
    for y in range(1, height):
        # Runs are maximal east-joined stretches; each has exactly one passage north.
        run_ids = np.concatenate([[0], np.cumsum(~maze.east[y, :-1])])
        north = maze.south[y - 1]
        assert (np.bincount(run_ids, weights=north) == 1).all()


@pytest.mark.parametrize("algorithm", MASKABLE_PERFECT)
@given(mask=masks(), seed=seeds)
def test_masked_maze_is_a_spanning_tree_of_every_part(algorithm, mask, seed):
    level = mp.generate(algorithm, mask.shape[1], mask.shape[0], seed=seed, markers="none", mask=mask)
    maze = level.maze
    assert (maze.mask == mask).all()
    tiles = level.tiles
    assert (tiles[1::2, 1::2][~mask] == mp.WALL).all(), "a cell outside the mask is open"
    labels, parts = mp.shaping.mask_parts(mask)
    assert maze.passage_count() == mask.sum() - parts, "not a forest with one tree per part"
    components = floor_components(tiles)[1::2, 1::2]
    for part in range(parts):
        assert len(np.unique(components[labels == part])) == 1, "a part is not connected"
    assert_outer_ring_is_wall(level)
    assert_pillars_are_wall(level)


@pytest.mark.parametrize("algorithm", sorted(n for n, (_, m) in CATALOGUE.items() if m))
@given(mask=masks(), seed=seeds)
def test_masked_farthest_markers_are_joined(algorithm, mask, seed):
    level = mp.generate(algorithm, mask.shape[1], mask.shape[0], seed=seed, markers="farthest", mask=mask)
    assert_valid_solution(level)


@pytest.mark.parametrize("algorithm", sorted(n for n, (_, m) in CATALOGUE.items() if not m))
def test_generators_without_masks_say_so(algorithm):
    with pytest.raises(ValueError, match=f"'{algorithm}' cannot generate inside a mask"):
        mp.generate(algorithm, 3, 2, seed=1, mask=["###", "#.#"])


@given(width=sizes, height=sizes, seed=seeds, prune=st.sampled_from([0.0, 0.5, 1.0]))
def test_rooms_joins_entrance_and_exit_and_every_cell(width, height, seed, prune):
    level = mp.generate("rooms", width, height, seed=seed, prune=prune)
    assert_valid_solution(level)
    assert_outer_ring_is_wall(level)
    assert_pillars_are_wall(level)
    maze = level.maze
    cells = level.tiles[1::2, 1::2] == mp.FLOOR
    assert (cells == maze.mask).all()
    assert len(np.unique(floor_components(level.tiles)[1::2, 1::2][cells])) == 1
    if prune == 0.0:
        assert maze.mask.all(), "prune=0 filled in a corridor"
    if prune == 1.0:
        start, goal = maze.start, maze.goal
        assert set(level.dead_ends()) <= {start, goal}, "a dead-end corridor was left"


def test_rooms_are_open_floor():
    # Every corner between four cells of one room is open, and no other corner is.
    maze = mp.generate("rooms", 30, 30, seed=4, room_size=(3, 3)).maze
    r = maze.rooms
    one_room = (r[:-1, :-1] > 0) & (r[:-1, :-1] == r[1:, :-1]) & (r[:-1, :-1] == r[:-1, 1:]) & (r[:-1, :-1] == r[1:, 1:])
    assert (maze.corners == one_room).all()
    assert r.max() >= 5 and maze.corners.sum() >= 5 * 4


def test_rooms_extra_doors_make_loops_and_none_make_a_tree_of_regions():
    looped = mp.generate("rooms", 30, 30, seed=4, extra_doors=0.5, prune=0.0).stats()
    plain = mp.generate("rooms", 30, 30, seed=4, extra_doors=0.0, prune=0.0).stats()
    assert looped.loops > plain.loops


@pytest.mark.parametrize(
    "algorithm,options,error,match",
    [
        ("binary-tree", {"bias": "north"}, ValueError, "bias must be one of"),
        ("growing-tree", {"strategy": "newer"}, ValueError, "strategy must be"),
        ("growing-tree", {"strategy": "newest:1.5"}, ValueError, "with p from 0 to 1"),
        ("growing-tree", {"strategy": "newest:x"}, ValueError, "strategy must be"),
        ("growing-tree", {"strategy": 0.5}, TypeError, "strategy must be"),
        ("rooms", {"room_size": 3}, TypeError, "room_size"),
        ("rooms", {"room_size": (4, 2)}, ValueError, "room_size"),
        ("rooms", {"extra_doors": 2}, ValueError, "extra_doors"),
        ("rooms", {"prune": -0.1}, ValueError, "prune"),
        ("rooms", {"attempts": -1}, ValueError, "attempts"),
        ("sidewinder", {"bias": "north"}, TypeError, "unknown option 'bias' for 'sidewinder'"),
        ("wilson", {"strategy": "newest"}, TypeError, "unknown option 'strategy'"),
    ],
)
def test_bad_options_are_rejected_clearly(algorithm, options, error, match):
    with pytest.raises(error, match=match):
        mp.generate(algorithm, 5, 5, seed=1, **options)
