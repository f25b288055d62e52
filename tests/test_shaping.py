"""Shaping options: masks, braid, corridor and wall widths, and the analysis figures."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.shaping import mask_parts, parse_mask
from mazecheck import assert_perfect, assert_valid_solution, digest, floor_components, room_counts

ALL = mp.algorithms()
PERFECT = [n for n in ALL if mp.get_generator(n).perfect]
seeds = st.integers(min_value=0, max_value=2**64)
sides = st.integers(min_value=2, max_value=30)

HEART = [
    ".##...##.",
    "####.####",
    "#########",
    ".#######.",
    "..#####..",
    "...###...",
    "....#....",
]


# -- masks --------------------------------------------------------------------


def test_mask_from_strings_marks_spaces_and_dots_outside():
    cells = parse_mask(["#x .", "abcd"])
    assert cells.tolist() == [[True, True, False, False], [True, True, True, True]]


def test_mask_from_bool_array_is_copied():
    array = np.ones((2, 3), dtype=bool)
    cells = parse_mask(array)
    array[0, 0] = False
    assert cells.all()


@pytest.mark.parametrize(
    "mask,error,match",
    [
        (["##", "#"], ValueError, "same length"),
        (np.ones((2, 2), dtype=int), TypeError, "2-D bool array"),
        (np.ones(4, dtype=bool), ValueError, "2-D"),
        (np.zeros((2, 2), dtype=bool), ValueError, "no cells"),
        (["  ", ".."], ValueError, "no cells"),
        (42, TypeError, "mask must be"),
        (["###"], ValueError, "must match"),
    ],
)
def test_bad_masks_are_rejected_clearly(mask, error, match):
    with pytest.raises(error, match=match):
        mp.generate("backtracker", 2, 2, seed=1, mask=mask)


def test_mask_from_image(tmp_path):
    pytest.importorskip("pygame")
    from mazeplugin import pg

    picture = np.zeros((7, 9, 3), dtype=np.uint8)
    picture[parse_mask(HEART)] = 255
    path = tmp_path / "heart.png"
    pg.save_rgb_png(picture, str(path))
    for given_path in (path, str(path)):
        level = mp.generate("wilson", 9, 7, seed=3, mask=given_path)
        assert (level.maze.mask == parse_mask(HEART)).all()


def test_mask_parts_are_numbered_in_reading_order():
    labels, count = mask_parts(parse_mask(["#.#.", "#.##", "..#."]))
    assert count == 2
    assert labels.tolist() == [[0, -1, 1, -1], [0, -1, 1, 1], [-1, -1, 1, -1]]


@pytest.mark.parametrize("algorithm", [n for n in ALL if mp.get_generator(n).masks])
def test_heart_mask_level_has_wall_outside_and_border_markers_inside(algorithm):
    level = mp.generate(algorithm, 9, 7, seed=11, mask=HEART)
    cells = parse_mask(HEART)
    assert (level.tiles[1::2, 1::2][~cells] == mp.WALL).all()
    assert level.entrance == (3, 1) and level.exit == (9, 13)  # first and last mask cells
    assert_valid_solution(level)


def test_markers_in_separate_parts_raise_a_clear_error():
    with pytest.raises(ValueError, match="separate parts of the mask"):
        mp.generate("kruskal", 5, 2, seed=1, mask=["##.##", "##.##"])
    with pytest.raises(ValueError, match="separate parts of the mask"):
        mp.generate("kruskal", 5, 2, seed=1, mask=["##.##", "##.##"], markers=((1, 1), (9, 3)))
    level = mp.generate("kruskal", 5, 2, seed=1, mask=["##.##", "##.##"], markers=((1, 1), (3, 3)))
    assert_valid_solution(level)


def test_union_find_inside_a_mask_joins_the_markers():
    level = mp.generate("union-find", 9, 7, seed=2, mask=HEART)
    assert_valid_solution(level)


def test_full_mask_gives_the_same_level_as_no_mask():
    for algorithm in ("backtracker", "kruskal", "wilson", "rooms"):
        plain = mp.generate(algorithm, 12, 9, seed=5)
        masked = mp.generate(algorithm, 12, 9, seed=5, mask=np.ones((9, 12), dtype=bool))
        assert digest(plain) == digest(masked)


# -- braid --------------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ALL)
@given(width=sides, height=sides, seed=seeds)
def test_braid_1_leaves_no_dead_end(algorithm, width, height, seed):
    level = mp.generate(algorithm, width, height, seed=seed, braid=1)
    maze = level.maze
    if maze.mask.all():
        assert level.dead_ends() == []
    else:  # rooms fills corridors in: a dead end may be left with no wall it can open
        neighbours = maze.neighbour_table()
        for x, y in level.dead_ends():
            cell = maze.cell_id(x, y)
            assert all(maze.is_open(cell, n) for n in neighbours[cell] if n >= 0)
    assert_valid_solution(level)


@pytest.mark.parametrize("algorithm", ALL)
@given(width=sides, height=sides, seed=seeds)
def test_braid_0_changes_nothing(algorithm, width, height, seed):
    plain = mp.generate(algorithm, width, height, seed=seed)
    assert digest(mp.generate(algorithm, width, height, seed=seed, braid=0)) == digest(plain)
    assert "braid" not in plain.options


@given(
    algorithm=st.sampled_from(PERFECT),
    width=sides,
    height=sides,
    seed=seeds,
    fraction=st.floats(0, 1),
)
def test_braid_removes_the_requested_fraction_by_adding_passages(algorithm, width, height, seed, fraction):
    plain = mp.generate(algorithm, width, height, seed=seed).maze
    braided = mp.generate(algorithm, width, height, seed=seed, braid=fraction).maze
    # Braiding only opens walls: the generator's own maze is untouched underneath.
    assert (braided.east >= plain.east).all() and (braided.south >= plain.south).all()
    before = len(mp.analysis.dead_ends(plain))
    removed = before - len(mp.analysis.dead_ends(braided))
    target = round(fraction * before)
    assert target <= removed <= target + 1  # one opening can join two dead ends


def test_braid_prefers_joining_two_dead_ends():
    # In a grid-sized maze most dead ends have a dead-end neighbour somewhere, so
    # fewer openings than dead ends removed are needed.
    plain = mp.generate("kruskal", 40, 40, seed=9)
    braided = mp.generate("kruskal", 40, 40, seed=9, braid=1)
    openings = braided.maze.passage_count() - plain.maze.passage_count()
    assert openings < len(plain.dead_ends())


@given(width=sides, height=sides, seed=seeds, fraction=st.floats(0.05, 1))
def test_braided_solution_is_a_shortest_path(width, height, seed, fraction):
    level = mp.generate("backtracker", width, height, seed=seed, braid=fraction)
    path = level.solution()
    assert_valid_solution(level)
    assert len(path) - 1 == level.distances(level.entrance)[level.exit[1], level.exit[0]]
    assert level.stats().solution_length <= mp.generate("backtracker", width, height, seed=seed).stats().solution_length


def test_adding_the_braid_stream_keeps_the_maze_and_marker_streams():
    for seed in (0, 7, "castle"):
        for index in (0, 1):
            two = mp.Random.streams(seed, 2)[index].raw(8)
            three = mp.Random.streams(seed, 3)[index].raw(8)
            assert (two == three).all()


def test_braid_is_recorded_and_deterministic():
    a = mp.generate("prim-simplified", 20, 20, seed="loops", braid=0.5)
    b = mp.generate("prim-simplified", 20, 20, seed="loops", braid=0.5)
    assert digest(a) == digest(b) and a.options["braid"] == 0.5


@pytest.mark.parametrize(
    "braid,error", [(-0.1, ValueError), (1.5, ValueError), ("half", TypeError), (True, TypeError), (None, TypeError)]
)
def test_bad_braid_is_rejected_clearly(braid, error):
    with pytest.raises(error, match="braid must be"):
        mp.generate("kruskal", 4, 4, seed=1, braid=braid)


# -- corridor and wall widths ---------------------------------------------------


@given(
    algorithm=st.sampled_from(ALL),
    width=st.integers(1, 12),
    height=st.integers(1, 12),
    corridor=st.integers(1, 4),
    wall=st.integers(1, 3),
    seed=seeds,
    markers=st.sampled_from(["border", "random", "farthest"]),
)
def test_wide_corridors_keep_markers_and_solution_correct(algorithm, width, height, corridor, wall, seed, markers):
    if markers == "random" and width * height < 2:
        markers = "border"
    level = mp.generate(algorithm, width, height, seed=seed, corridor=corridor, wall=wall, markers=markers)
    pitch = corridor + wall
    assert level.tiles.shape == (height * pitch + wall, width * pitch + wall)
    assert_valid_solution(level)
    unit = mp.generate(algorithm, width, height, seed=seed, markers=markers)
    assert (unit.maze.east == level.maze.east).all() and (unit.maze.south == level.maze.south).all()
    # Every cell's block is all floor and every pillar block all wall.
    for cy in range(height):
        for cx in range(width):
            x, y, w, h = level.layout.cell_rect((cx, cy))
            block = level.tiles[y : y + h, x : x + w]
            assert (block == (mp.FLOOR if level.maze.mask[cy, cx] else mp.WALL)).all()
    assert (level.tiles[:wall, :wall] == mp.WALL).all()
    if corridor > 1 or wall > 1:
        assert level.options.get("corridor", 1) == corridor and level.options.get("wall", 1) == wall


def test_wide_corridors_with_mask_and_braid():
    level = mp.generate("wilson", 9, 7, seed=1, mask=HEART, braid=1, corridor=3, wall=2)
    assert_valid_solution(level)
    assert level.tiles.shape == (7 * 5 + 2, 9 * 5 + 2)


# -- analysis -----------------------------------------------------------------


@given(algorithm=st.sampled_from(ALL), width=sides, height=sides, seed=seeds)
def test_stats_agree_with_the_tilemap(algorithm, width, height, seed):
    level = mp.generate(algorithm, width, height, seed=seed, braid=0.3)
    s = level.stats()
    maze = level.maze
    # A room is one place: its cells are no dead ends or junctions, its inner passages no loops.
    ordinary = maze.mask & (maze.rooms == 0)
    degree = maze.degree()[ordinary]
    rooms, inner, busy_rooms = room_counts(maze)
    assert s.cells == maze.mask.sum() and s.passages == maze.passage_count()
    assert s.dead_ends == len(level.dead_ends()) == (degree == 1).sum()
    assert s.dead_end_fraction == pytest.approx(s.dead_ends / s.cells)
    assert s.junctions == (degree >= 3).sum() + busy_rooms
    components = floor_components(level.tiles)[1::2, 1::2][maze.mask]
    places = ordinary.sum() + rooms
    assert s.loops == s.passages - inner - places + len(np.unique(components))
    # The solution in tiles walks 2 tiles per cell step, plus the two border openings.
    assert len(level.solution()) - 1 == 2 * s.solution_length + 2
    assert s.longest_path >= s.solution_length


def test_stats_of_perfect_mazes_have_no_loops_and_an_exact_longest_path():
    level = mp.generate("kruskal", 25, 25, seed=8, markers="farthest")
    s = level.stats()
    assert s.loops == 0
    # markers="farthest" puts entrance and exit at the ends of the longest path.
    assert s.solution_length == s.longest_path


def test_stats_without_markers_have_no_solution_length():
    assert mp.generate("kruskal", 5, 5, seed=1, markers="none").stats().solution_length is None
