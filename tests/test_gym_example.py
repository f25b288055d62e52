"""examples/train_ppo.py, without torch: it compiles, and its helpers (envs, held-out seeds, scoring, shaping) work.

The training itself (stable-baselines3 and torch) is not in the test suite.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import example_scripts  # noqa: E402
import mazeplugin.gym as mg  # noqa: E402


@pytest.fixture(scope="module")
def example():
    return example_scripts.load("train_ppo")


def test_the_example_compiles_and_imports_without_torch(example, tmp_path):
    example_scripts.compiles("train_ppo", tmp_path)
    assert callable(example.main)


def test_the_examples_docstrings_run(example):
    import doctest

    assert doctest.testmod(example).failed == 0


def test_held_out_seeds_share_no_level_with_training(example):
    held = example.test_seeds(2, train=range(0, 40), test=range(1000, 1030), generator="kruskal")
    spec = mg.LevelSpec("kruskal", 2, 2)
    training = {mg.level_digest(spec.make(s)) for s in range(40)}
    assert len(held) < 30  # a 2 x 2 maze has 4 layouts: most test seeds repeat a training level
    assert all(mg.level_digest(spec.make(s)) not in training for s in held)


def test_sight_is_one_kind_per_view_cell_and_three_actions(example):
    env = example.make_env(4, seeds=range(10))
    obs, _ = env.reset(seed=0)
    assert env.action_space.n == 3 and obs.shape == env.observation_space.shape
    for action in np.random.default_rng(0).integers(3, size=40):
        cells = obs.reshape(-1, len(mg.wrappers.KINDS))
        assert np.array_equal(cells.sum(axis=1), np.ones(len(cells)))  # no keys: unseen, floor, wall or goal
        obs, *_ = env.step(int(action))


def test_success_rate_counts_levels_reached(example):
    assert example.success_rate(lambda obs: 0, [1, 2, 3], size=3) == 0.0  # turning on the spot never arrives

    # A policy that walks each level's solution (by reading the env it is given) reaches every exit.
    env = example.make_env(3, None)
    solved = 0
    for seed in range(5):
        env.reset(seed=seed)
        base = env.unwrapped
        path = base.level.solution()
        for (x, y), (nx, ny) in zip(path, path[1:]):
            want = [(1, 0), (0, 1), (-1, 0), (0, -1)].index((nx - x, ny - y))
            while base.agent_dir != want:
                env.step(1)
            _, reward, terminated, truncated, _ = env.step(2)
        solved += terminated
    assert solved == 5


def test_closer_pays_for_steps_towards_the_exit_and_takes_them_back(example):
    env = mg.DistanceShaping(example.make_env(4, seeds=range(5)), bonus=0.5)
    env.reset(seed=0)
    start = env.distance
    total = 0.0
    moved = False
    for _ in range(4):  # turn until a step forward moves, then step back
        _, reward, *_ = env.step(2)
        if env.distance != start:
            moved = True
            total += float(reward)
            break
        env.step(1)
    assert moved and total == pytest.approx(0.5 * (start - env.distance))
    env.step(1), env.step(1)
    _, reward, *_ = env.step(2)
    assert env.distance == start and float(reward) + total == pytest.approx(0.0)
