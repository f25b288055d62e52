"""One pipeline for every grid (mazeplugin.pipeline): a checked Build, reseeded, makes what generate makes."""

from __future__ import annotations

import pytest

import mazeplugin as mp
from mazeplugin.difficulty import candidate_seeds
from mazeplugin.pipeline import STAGES, Build, run

REQUESTS = [
    ("kruskal", 6, 5, {}),
    ("wilson", 7, 6, {"braid": 0.5, "keys": 1, "treasure": 2, "markers": "farthest"}),
    ("backtracker", 9, 9, {"rooms": 2, "room_size": (2, 3), "enemies": 1}),
    ("prim", 6, 6, {"weave": True, "treasure": 1}),
    ("wilson", 6, 5, {"grid": "hex", "braid": 0.5, "treasure": 1}),
    ("kruskal", 8, 6, {"grid": "hex", "keys": 1}),
    ("kruskal", 6, 6, {"grid": "triangle", "treasure": 2}),
    ("backtracker", 5, 4, {"grid": "polar", "markers": "none"}),
    ("growing-tree", 6, 5, {"wrap": "xy", "braid": 1.0, "enemies": 1}),
]


@pytest.mark.parametrize("algorithm, width, height, kwargs", REQUESTS)
def test_a_reseeded_build_makes_the_level_generate_makes_for_that_seed(algorithm, width, height, kwargs):
    build = Build.checked(algorithm, width, height, seed=0, **kwargs)
    assert build.graph == ("grid" in kwargs or "wrap" in kwargs)
    for seed in (0, 3, "castle"):
        made = run(build.reseeded(seed))
        expected = mp.generate(algorithm, width, height, seed=seed, **kwargs)
        assert type(made) is type(expected) and made.seed == expected.seed
        assert made.to_json() == expected.to_json(), seed


def test_stages_that_are_not_a_graph_grids_leave_it_alone():
    build = Build.checked("wilson", 5, 4, seed=1, grid="hex")
    for stage in STAGES[:2]:  # place_rooms, plan_markers: the square tilemap's
        stage(build)
    assert not hasattr(build, "maze") and not hasattr(build, "plan")
    level = run(build, STAGES[2:])
    assert level.grid == "hex" and build.cells is level.maze


def test_require_on_a_graph_grid_passes_over_a_candidate_that_cannot_hold_its_content():
    kwargs = {"grid": "hex", "braid": 0.5, "keys": 1}

    def holds(seed):
        try:
            return mp.generate("wilson", 6, 5, seed=seed, **kwargs)
        except ValueError:
            return None

    seed = next(s for s in range(200) if holds(next(iter(candidate_seeds(s)))) is None)
    level = mp.generate("wilson", 6, 5, seed=seed, require={"dead_ends": (0, None)}, **kwargs)
    assert level.grid == "hex" and [t.kind for t in level.things].count("key") == 1
    assert level.to_json() == holds(level.seed).to_json()  # a later candidate's level, as generate makes it
