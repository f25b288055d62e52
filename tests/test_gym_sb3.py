"""mazeplugin.gym.sb3.MazeVecEnv: Stable-Baselines3's VecEnv over the batched env, equal to DummyVecEnv step for step.

Skipped without stable-baselines3 (and torch); .ci/sb3.sh installs them and runs this file.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("stable_baselines3")

from stable_baselines3.common.monitor import Monitor  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

import mazeplugin.gym as mg  # noqa: E402
from mazeplugin.gym.sb3 import MazeVecEnv  # noqa: E402

KWARGS = dict(generator="backtracker", width=4, height=3, keys=1, max_steps=12, warm_up=False)


class Image(__import__("gymnasium").ObservationWrapper):
    """The image alone (MiniGrid's ImgObsWrapper), or image and direction."""

    def __init__(self, env, kind):
        super().__init__(env)
        self.kind = kind
        space = env.observation_space
        self.observation_space = space["image"] if kind == "image" else type(space)(
            {"image": space["image"], "direction": space["direction"]})

    def observation(self, obs):
        return obs["image"] if self.kind == "image" else {"image": obs["image"], "direction": obs["direction"]}


def dummy(n, kind, **kwargs):
    def one():
        env = mg.MazeEnv(**kwargs)
        return Monitor(env if kwargs.get("mode") == "simple" else Image(env, kind))
    return DummyVecEnv([one for _ in range(n)])


def same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    return np.array_equal(a, b) and np.asarray(a).dtype == np.asarray(b).dtype


@pytest.mark.parametrize("mode, kind", [("minigrid", "image"), ("minigrid", "dict"), ("simple", "image")])
def test_maze_vec_env_equals_dummy_vec_env_step_for_step(mode, kind):
    """Same seeds and actions: observations, rewards, dones and infos (success, truncation, terminal
    observation, episode return and length) as DummyVecEnv of single envs under SB3's Monitor."""
    n = 4
    kwargs = dict(KWARGS, mode=mode)
    ours, theirs = MazeVecEnv(n, observation=kind, **kwargs), dummy(n, kind, **kwargs)
    assert ours.observation_space == theirs.observation_space and ours.action_space == theirs.action_space
    ours.seed(7)
    theirs.seed(7)
    assert same(ours.reset(), theirs.reset())
    assert [i["level_seed"] for i in ours.reset_infos] == [i["level_seed"] for i in theirs.reset_infos]
    rng = np.random.default_rng(0)
    ends = 0
    for t in range(40):
        actions = rng.integers(0, 3, size=n)
        o1, r1, d1, i1 = ours.step(actions)
        o2, r2, d2, i2 = theirs.step(actions)
        assert same(o1, o2) and same(r1, r2) and same(d1, d2), t
        for x, y in zip(i1, i2):
            assert set(x) == set(y), (x, y)
            assert x["is_success"] == y["is_success"] and x["TimeLimit.truncated"] == y["TimeLimit.truncated"]
            if "terminal_observation" in y:
                ends += 1
                assert same(x["terminal_observation"], y["terminal_observation"])
                assert (x["episode"]["r"], x["episode"]["l"]) == (y["episode"]["r"], y["episode"]["l"])
        assert [i["level_seed"] for i in ours.reset_infos] == [i["level_seed"] for i in theirs.reset_infos]
    assert ends >= n


def test_ppo_learns_through_the_adapter_a_few_steps():
    """PPO runs on MazeVecEnv (a tiny run: it builds, collects rollouts across autoresets and updates)."""
    import torch
    from stable_baselines3 import PPO

    torch.set_num_threads(1)
    envs = MazeVecEnv(4, "kruskal", 3, 3, mode="simple", max_steps=16, seeds=range(100), warm_up=False)
    model = PPO("MlpPolicy", envs, n_steps=16, batch_size=32, n_epochs=1, seed=0, device="cpu",
                policy_kwargs=dict(net_arch=[16]))
    model.learn(total_timesteps=128)
    assert model.num_timesteps == 128 and len(model.ep_info_buffer) > 0  # episodes ended and were logged
    action, _ = model.predict(envs.reset())
    assert action.shape == (4,)


def test_bad_adapter_arguments_are_refused():
    with pytest.raises(ValueError, match="observation must be one of 'image', 'dict'"):
        MazeVecEnv(2, observation="pixels")
    with pytest.raises(ValueError, match="autoreset_mode is MazeVecEnv's to choose"):
        MazeVecEnv(2, autoreset_mode="NextStep")
