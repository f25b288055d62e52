"""mazeplugin.gym's learning wrappers: SimpleActions, FlatView, DistanceShaping and VectorDistanceShaping."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

import mazeplugin.gym as mg  # noqa: E402
from mazeplugin.paths import distance_map  # noqa: E402

KWARGS = dict(generator="kruskal", width=4, height=4, max_steps=20, warm_up=False)


def test_simple_actions_are_left_right_forward():
    env = mg.SimpleActions(mg.MazeEnv(**KWARGS))
    assert env.action_space.n == 3 and env.chosen == (0, 1, 2)
    env.reset(seed=1)
    base = env.unwrapped
    direction = base.agent_dir
    env.step(0)
    assert base.agent_dir == (direction - 1) % 4
    env.step(1)
    assert base.agent_dir == direction
    keys = mg.SimpleActions(mg.MazeEnv(**KWARGS), actions=("forward", "pickup", "toggle"))
    assert keys.chosen == (2, 3, 5) and keys.action(2) == 5
    with pytest.raises(ValueError, match="actions must be distinct names"):
        mg.SimpleActions(mg.MazeEnv(**KWARGS), actions=("jump",))
    with pytest.raises(ValueError, match="'minigrid' mode"):
        mg.SimpleActions(mg.MazeEnv(mode="simple", **KWARGS))


def test_flat_view_is_one_kind_per_view_cell():
    env = mg.FlatView(mg.MazeEnv(**KWARGS))
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs) and env.kinds == mg.wrappers.KINDS
    for action in np.random.default_rng(0).integers(3, size=30):
        cells = obs.reshape(49, 4)
        assert np.array_equal(cells.sum(axis=1), np.ones(49))
        obs, *_ = env.step(int(action))
    keyed = mg.FlatView(mg.MazeEnv(**dict(KWARGS, keys=1)))
    assert keyed.kinds == mg.wrappers.KINDS_KEYS and keyed.reset(seed=0)[0].shape == (49 * 6,)


def test_distance_shaping_pays_steps_towards_the_exit_and_takes_them_back():
    env = mg.DistanceShaping(mg.MazeEnv(**KWARGS), bonus=0.5)
    env.reset(seed=0)
    level = env.unwrapped.level
    start = env.distance
    assert start == distance_map(level.tiles, level.exit)[level.entrance[1], level.entrance[0]] > 0
    total = 0.0
    for _ in range(4):  # turn until a step forward moves
        _, reward, *_ = env.step(2)
        if env.distance != start:
            total += float(reward)
            break
        env.step(1)
    assert total == pytest.approx(0.5 * (start - env.distance)) and total != 0
    env.step(1), env.step(1)
    _, reward, *_ = env.step(2)  # back where it was: the bonus taken back
    assert env.distance == start and float(reward) + total == pytest.approx(0.0)


@pytest.mark.parametrize("mode", ["minigrid", "simple"])
def test_vector_shaping_equals_single_env_shaping(mode):
    """NEXT_STEP: VectorDistanceShaping(MazeVectorEnv) rewards what SyncVectorEnv of DistanceShaping(MazeEnv) rewards."""
    kwargs = dict(KWARGS, mode=mode)
    n = 6
    vec = mg.VectorDistanceShaping(mg.MazeVectorEnv(n, **kwargs), bonus=0.1)
    ref = SyncVectorEnv([lambda: mg.DistanceShaping(mg.MazeEnv(**kwargs), bonus=0.1) for _ in range(n)])
    vec.reset(seed=3)
    ref.reset(seed=3)
    rng = np.random.default_rng(2)
    shaped = ends = 0
    for t in range(50):
        actions = rng.integers(0, 3, size=n)
        _, r1, te1, tr1, _ = vec.step(actions)
        _, r2, te2, tr2, _ = ref.step(actions)
        assert np.allclose(r1, r2) and np.array_equal(te1 | tr1, te2 | tr2), t
        shaped += int((r1 != 0).sum())
        ends += int((te1 | tr1).sum())
    assert shaped and ends


def test_vector_shaping_same_step_counts_the_exit_and_drops_truncation():
    kwargs = dict(KWARGS, max_steps=15)
    vec = mg.VectorDistanceShaping(mg.MazeVectorEnv(4, autoreset_mode=AutoresetMode.SAME_STEP, **kwargs), bonus=1.0)
    plain = mg.MazeVectorEnv(4, autoreset_mode=AutoresetMode.SAME_STEP, **kwargs)
    vec.reset(seed=0)
    plain.reset(seed=0)
    before = mg.exit_distances(vec)
    rng = np.random.default_rng(0)
    for _ in range(40):
        actions = rng.integers(0, 3, size=4)
        _, shaped, terminated, truncated, _ = vec.step(actions)
        _, reward, *_ = plain.step(actions)
        after = mg.exit_distances(vec)
        expected = np.where(terminated, before, np.where(truncated, 0, before - after))
        assert np.allclose(shaped - reward, expected)
        before = after


def test_exit_distances_refuses_other_envs():
    with pytest.raises(ValueError, match="needs a MazeEnv or MazeVectorEnv"):
        mg.exit_distances(gymnasium.make("CartPole-v1"))
    with pytest.raises(ValueError, match="bonus must be a finite number"):
        mg.DistanceShaping(mg.MazeEnv(**KWARGS), bonus=float("nan"))
