"""Difficulty figures in stats() and levels chosen by them with require=."""

from __future__ import annotations

import itertools
import math
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin import difficulty
from mazeplugin.analysis import stats
from mazeplugin.maze import Maze

PERFECT = [n for n in mp.algorithms() if mp.get_generator(n).perfect]
seeds = st.integers(min_value=0, max_value=2**32)


# -- the figures ------------------------------------------------------------------


def test_decision_points_count_forks_off_the_solution_only():
    # 0-1-2 along the top, 1-4-3 down and back: the walk 0,1,4,3 passes the fork at 1.
    maze = Maze(3, 2)
    maze.open_many([0, 1, 1, 3], [1, 2, 4, 4])
    s = stats(maze, start=(0, 0), goal=(0, 1))
    assert (s.solution_length, s.decision_points, s.turns) == (3, 1, 2)
    assert s.detour_ratio == pytest.approx(3.0)


def test_entrance_cell_with_a_second_passage_is_a_decision_point():
    maze = Maze(3, 1)
    maze.open_many([0, 1], [1, 2])
    assert stats(maze, start=(1, 0), goal=(2, 0)).decision_points == 1   # could go west
    assert stats(maze, start=(0, 0), goal=(2, 0)).decision_points == 0   # a straight corridor


def test_straight_corridor_has_detour_ratio_one_and_no_turns():
    maze = Maze(6, 1)
    maze.open_many(range(5), range(1, 6))
    s = stats(maze, start=(0, 0), goal=(5, 0))
    assert (s.detour_ratio, s.turns, s.decision_points) == (1.0, 0, 0)


def _room_maze(third_door):
    """4 × 2 cells; cells (1..2, 0..1) an open room with doors west to (0, 0) and east to (3, 0)."""
    maze = Maze(4, 2)
    maze.east[0:2, 1] = True
    maze.south[0, 1:3] = True
    maze.corners[0, 1] = True
    maze.rooms[0:2, 1:3] = 1
    maze.east[0, 0] = maze.east[0, 2] = True      # the two doors on the way
    maze.south[0, 3] = True                       # (3, 0)-(3, 1): a side passage after the room
    if third_door:
        maze.east[1, 0] = True                    # (0, 1)-(1, 1): a door off the way
    maze.check()
    return maze


@pytest.mark.parametrize("third_door, expected", [(False, 0), (True, 1)])
def test_a_room_on_the_solution_is_one_decision_point_at_most(third_door, expected):
    s = stats(_room_maze(third_door), start=(0, 0), goal=(3, 0))
    assert s.solution_length == 3
    assert s.decision_points == expected
    assert s.turns == 0


def test_walk_through_a_room_turns_only_outside_it():
    maze = _room_maze(False)
    s = stats(maze, start=(0, 0), goal=(3, 1))   # through the room, then south at (3, 0)
    assert (s.solution_length, s.turns) == (4, 1)
    # Enter at the top left, leave at the bottom right: the walk's steps inside the room do not turn.
    s = stats(maze, start=(1, 0), goal=(2, 1))
    assert s.turns == 0


def test_figures_are_none_without_markers_and_detour_none_on_one_cell():
    s = mp.generate("kruskal", 5, 5, seed=1, markers="none").stats()
    assert (s.solution_length, s.decision_points, s.detour_ratio, s.turns) == (None, None, None, None)
    one = mp.generate("kruskal", 1, 1, seed=1).stats()
    assert (one.solution_length, one.decision_points, one.detour_ratio, one.turns) == (0, 0, None, 0)


def _cell_walk_from_tiles(level):
    """The cells of level.solution() (tile path, default layout), with each cell's floor-neighbour count."""
    path = level.solution()
    on_path = {tile: i for i, tile in enumerate(path)}
    cells = [(i, t) for i, t in enumerate(path) if t[0] % 2 == 1 and t[1] % 2 == 1]
    tiles = level.tiles
    result = []
    for i, (x, y) in cells:
        floor = [(x + dx, y + dy) for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
                 if tiles[y + dy, x + dx] == mp.FLOOR]
        along = sum(1 for t in floor if t in on_path and abs(on_path[t] - i) == 1)
        result.append(((x // 2, y // 2), len(floor), along))
    return result


@given(st.sampled_from(PERFECT), st.integers(2, 25), st.integers(2, 25), seeds,
       st.sampled_from(["border", "farthest", "random"]))
def test_figures_match_the_tile_solution_of_perfect_mazes(algorithm, width, height, seed, markers):
    level = mp.generate(algorithm, width, height, seed=seed, markers=markers)
    s = level.stats()
    walk = _cell_walk_from_tiles(level)
    cells = [cell for cell, _, _ in walk]
    assert s.solution_length == len(cells) - 1
    # A fork: a floor side of the cell that is not the path's way in or out (an entrance opening in
    # the outer wall is the entrance cell's way in); the exit cell is where the walk ends.
    assert s.decision_points == sum(1 for _, floor, along in walk[:-1] if floor > along)
    steps = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(cells, cells[1:])]
    assert s.turns == sum(1 for a, b in zip(steps, steps[1:]) if a != b)
    straight = math.dist(cells[0], cells[-1])
    assert s.detour_ratio == (pytest.approx(s.solution_length / straight) if straight else None)
    if straight:
        assert s.detour_ratio >= 1.0


@given(st.sampled_from(PERFECT), st.integers(2, 20), st.integers(2, 20), seeds)
def test_decision_points_at_most_junctions_plus_entrance_in_perfect_mazes(algorithm, width, height, seed):
    s = mp.generate(algorithm, width, height, seed=seed).stats()
    assert 0 <= s.decision_points <= s.junctions + 1
    assert s.turns <= s.solution_length


def test_braided_level_has_at_least_as_short_a_solution_and_figures():
    level = mp.generate("backtracker", 20, 20, seed=3, braid=1)
    s = level.stats()
    assert s.solution_length == len([t for t in level.solution() if t[0] % 2 and t[1] % 2]) - 1
    assert s.decision_points >= 0 and s.detour_ratio >= 1


# -- require= -----------------------------------------------------------------------


def test_required_level_meets_every_bound_and_its_code_makes_it_again():
    require = {"solution_length": (120, None), "dead_end_fraction": (None, 0.12)}
    level = mp.generate("backtracker", 30, 20, seed=7, require=require, attempts=200)
    s = level.stats()
    assert s.solution_length >= 120 and s.dead_end_fraction <= 0.12
    code = mp.level_code(level)
    algorithm, width, height, seed = mp.parse_level_code(code)
    again = mp.generate(algorithm, width, height, seed=seed)
    assert again.tiles.tobytes() == level.tiles.tobytes()
    assert (again.entrance, again.exit) == (level.entrance, level.exit)


@given(st.sampled_from(["kruskal", "backtracker", "wilson", "prim"]), seeds, st.integers(1, 40))
def test_require_returns_the_first_candidate_that_passes(algorithm, seed, low):
    require = {"decision_points": (low, None)}
    try:
        level = mp.generate(algorithm, 10, 8, seed=seed, require=require, attempts=30)
    except ValueError:
        level = None
    for candidate in itertools.islice(difficulty.candidate_seeds(seed), 30):
        s = mp.generate(algorithm, 10, 8, seed=candidate).stats()
        if s.decision_points >= low:
            assert level is not None and level.seed == candidate
            return
    assert level is None


def test_more_attempts_only_look_further_along_the_same_candidates():
    first = list(itertools.islice(difficulty.candidate_seeds("castle"), 10))
    assert first == list(itertools.islice(difficulty.candidate_seeds("castle"), 300))[:10]
    assert all(isinstance(s, int) and 0 <= s < 2**32 for s in first)
    assert len(set(first)) == 10 and first != list(itertools.islice(difficulty.candidate_seeds("castles"), 10))


def test_required_level_keeps_the_other_options():
    level = mp.generate("wilson", 12, 10, seed=2, braid=0.5, markers="farthest", corridor=2,
                        require={"loops": (3, None)})
    assert level.options == {"braid": 0.5, "markers": "farthest", "corridor": 2}
    again = mp.generate("wilson", 12, 10, seed=level.seed, braid=0.5, markers="farthest", corridor=2)
    assert again.tiles.tobytes() == level.tiles.tobytes()


def test_required_level_keeps_its_rooms_and_doors():
    level = mp.generate("backtracker", 24, 18, seed=3, rooms=3, doors=2, require={"decision_points": (4, None)})
    assert level.options == {"rooms": 3, "doors": 2} and int(level.maze.rooms.max()) == 3
    again = mp.generate("backtracker", 24, 18, seed=level.seed, rooms=3, doors=2)
    assert again.tiles.tobytes() == level.tiles.tobytes()


def test_no_passing_candidate_reports_the_closest():
    require = {"solution_length": (200, None)}
    with pytest.raises(ValueError) as error:
        mp.generate("prim", 8, 8, seed=5, require=require, attempts=25)
    lengths = {s: mp.generate("prim", 8, 8, seed=s).stats().solution_length
               for s in itertools.islice(difficulty.candidate_seeds(5), 25)}
    best = max(lengths, key=lambda s: lengths[s])  # first of the longest: smallest shortfall
    text = str(error.value)
    assert "no candidate among 25" in text
    assert f"closest: seed {best} (level code prim-8x8-{best})" in text
    assert f"solution_length={lengths[best]} (wanted at least 200)" in text
    assert re.search(r"; searched 25 candidates in \d+\.\d\d s$", text), text


def test_progress_is_called_once_per_candidate_and_changes_nothing():
    require = {"solution_length": (200, None)}
    calls = []
    with pytest.raises(ValueError, match="searched 12 candidates"):
        difficulty.choose(lambda s: mp.generate("prim", 8, 8, seed=s), 5, require, 12,
                          progress=lambda done, total: calls.append((done, total)))
    assert calls == [(n, 12) for n in range(1, 13)]
    # A passing search stops at its level, and the progress stops with it.
    require = {"solution_length": (20, None)}
    calls.clear()
    found = difficulty.choose(lambda s: mp.generate("prim", 8, 8, seed=s), 5, require, 50,
                              progress=lambda done, total: calls.append((done, total)))
    plain = mp.generate("prim", 8, 8, seed=5, require=require, attempts=50)
    assert found.seed == plain.seed and found.tiles.tobytes() == plain.tiles.tobytes()
    assert calls == [(n, 50) for n in range(1, len(calls) + 1)] and calls
    tried = list(itertools.islice(difficulty.candidate_seeds(5), len(calls)))
    assert tried[-1] == found.seed


def test_shortfall_adds_relative_misses_and_counts_missing_values_as_one():
    s = mp.generate("kruskal", 1, 1, seed=0).stats()
    assert difficulty.shortfall(s, {"detour_ratio": (2, None)}) == 1.0
    assert difficulty.shortfall(s, {"cells": (4, None), "dead_ends": (None, 0)}) == pytest.approx(0.75)
    assert difficulty.shortfall(s, {"cells": (1, 1)}) == 0


@pytest.mark.parametrize("require, kind, words", [
    ({"length": (1, 2)}, ValueError, ["unknown field 'length'", "solution_length", "decision_points", "detour_ratio"]),
    ({}, ValueError, ["require is empty"]),
    ([("cells", (1, 2))], TypeError, ["require must be a dict"]),
    ({"cells": 5}, TypeError, ["require['cells'] must be a (low, high) pair"]),
    ({"cells": (1, 2, 3)}, TypeError, ["require['cells'] must be a (low, high) pair"]),
    ({"cells": "12"}, TypeError, ["require['cells'] must be a (low, high) pair"]),
    ({"cells": ("1", None)}, TypeError, ["bounds must be numbers or None"]),
    ({"cells": (True, None)}, TypeError, ["bounds must be numbers or None"]),
    ({"cells": (float("nan"), None)}, ValueError, ["finite"]),
    ({"cells": (5, 2)}, ValueError, ["low 5 is above high 2"]),
])
def test_bad_require_is_refused_naming_the_field(require, kind, words):
    with pytest.raises(kind) as error:
        mp.generate("kruskal", 5, 5, seed=1, require=require)
    for word in words:
        assert word in str(error.value)


@pytest.mark.parametrize("attempts, kind", [(0, ValueError), (10_001, ValueError), (True, TypeError), (2.5, TypeError)])
def test_attempts_must_be_a_bounded_count(attempts, kind):
    with pytest.raises(kind, match="attempts"):
        mp.generate("kruskal", 5, 5, seed=1, require={"cells": (None, None)}, attempts=attempts)


def test_require_of_solution_figures_without_markers_is_refused():
    with pytest.raises(ValueError, match="decision_points.*markers='none'"):
        mp.generate("kruskal", 5, 5, seed=1, markers="none", require={"decision_points": (1, None)})


def test_attempts_without_require_is_a_generator_option():
    with pytest.raises(TypeError, match="unknown option 'attempts' for 'kruskal'"):
        mp.generate("kruskal", 5, 5, seed=1, attempts=3)
    few = mp.generate("rooms", 20, 12, seed=0, attempts=1)
    many = mp.generate("rooms", 20, 12, seed=0, attempts=300)
    assert few.options == {"attempts": 1} and many.options == {"attempts": 300}


def test_require_with_bad_other_arguments_fails_before_any_work():
    with pytest.raises(ValueError, match="unknown algorithm|not a registered|no generator"):
        mp.generate("no-such-maze", 5, 5, require={"cells": (1, None)})
    with pytest.raises(ValueError, match="width must be at least 1"):
        mp.generate("kruskal", 0, 5, require={"cells": (1, None)})


def test_required_levels_are_the_same_in_another_process():
    code = (
        "import mazeplugin as mp\n"
        "for seed in (7, 'castle', 2**40):\n"
        "    level = mp.generate('backtracker', 16, 12, seed=seed, require={'decision_points': (14, None), "
        "'detour_ratio': (4.0, None)}, attempts=500)\n"
        "    print(level.seed, level.tiles.tobytes().hex()[:64], level.stats().decision_points)\n"
    )
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=True).stdout
            for _ in range(2)]
    here = []
    for seed in (7, "castle", 2**40):
        level = mp.generate("backtracker", 16, 12, seed=seed,
                            require={"decision_points": (14, None), "detour_ratio": (4.0, None)}, attempts=500)
        here.append(f"{level.seed} {level.tiles.tobytes().hex()[:64]} {level.stats().decision_points}")
    assert runs[0] == runs[1] == "\n".join(here) + "\n"


def test_stats_fields_are_all_requirable_and_numeric():
    s = mp.generate("wilson", 9, 9, seed=1).stats()
    assert set(difficulty.FIELDS) == set(vars(s))
    assert all(isinstance(getattr(s, f), (int, float, np.integer)) for f in difficulty.FIELDS)


def test_required_level_keeps_its_content_requests():
    level = mp.generate("backtracker", 12, 9, seed=1, keys=1, treasure=2, require={"decision_points": (6, None)})
    again = mp.generate("backtracker", 12, 9, seed=level.seed, keys=1, treasure=2)
    assert level.stats().decision_points >= 6
    assert again.tiles.tobytes() == level.tiles.tobytes() and again.things == level.things and level.things


# -- the command line -------------------------------------------------------------


def _cli(capsys, *argv):
    from mazeplugin import cli

    try:
        status = cli.main(list(argv))
    except SystemExit as exit:
        status = exit.code
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_require_prints_the_level_and_its_own_seed(capsys):
    status, out, err = _cli(capsys, "generate", "backtracker", "--size", "12x8", "--seed", "3",
                            "--require", "decision_points=8:", "--require", "detour_ratio=3:", "--attempts", "300")
    level = mp.generate("backtracker", 12, 8, seed=3, require={"decision_points": (8, None), "detour_ratio": (3, None)},
                        attempts=300)
    assert status == 0 and out == str(level) + "\n"
    assert err.strip() == f"mazeplugin: seed {level.seed}"


@pytest.mark.parametrize("argv, words", [
    (["--require", "decisions=8:"], ["unknown field 'decisions'", "decision_points"]),
    (["--require", "decision_points=8"], ["FIELD=LOW:HIGH"]),
    (["--require", "decision_points=x:"], ["'x' is not a number"]),
    (["--attempts", "5"], ["--attempts counts --require's candidates"]),
    (["--require", "dead_ends=0:0", "--attempts", "3"], ["no candidate among 3", "closest: seed"]),
    (["--require", "dead_ends=0:", "--attempts", "10001"], ["--attempts"]),
])
def test_cli_bad_require_exits_2_with_one_line(capsys, argv, words):
    status, out, err = _cli(capsys, "generate", "kruskal", "--size", "8x6", "--seed", "1", *argv)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1
    for word in words:
        assert word in err


def test_detour_ratio_is_the_same_bits_on_every_python():
    """``detour_ratio`` is a float that ``require=`` filters and datasets store: it must not depend on
    the Python it runs on. ``math.hypot`` is correctly rounded only from Python 3.10 (on 3.9 it is
    off by a bit for most integer pairs), so the figure is the correctly rounded square root of the
    exact integer sum, which IEEE-754 makes the same everywhere."""
    checked = 0
    for seed in range(40):
        level = mp.generate("wilson", 8, 8, seed=seed, markers="farthest")
        stats = level.stats()
        # Markers on the border: the entrance's and exit's cells are their tiles' nearest cells (x // 2).
        (x0, y0), (x1, y1) = ((min(max((t[0] - 1) // 2, 0), 7), min(max((t[1] - 1) // 2, 0), 7))
                              for t in (level.entrance, level.exit))
        exact = stats.solution_length / math.sqrt((x1 - x0) ** 2 + (y1 - y0) ** 2)
        assert stats.detour_ratio == exact  # exactly: the same float bits
        checked += 1
    assert checked == 40
