# Adapted from MiniGrid's own wrapper tests: tests/test_wrappers.py of
# https://github.com/Farama-Foundation/Minigrid (commit 90928729).
# Copyright (c) 2020 Maxime Chevalier-Boisvert; Copyright (c) 2022 Farama Foundation.
# Licensed under the Apache License, Version 2.0 (the repository's LICENSE file; its
# pyproject.toml declares the MIT License): http://www.apache.org/licenses/LICENSE-2.0
#
# Changes: the tests run on mazeplugin's MiniGrid-mode ids instead of MiniGrid's envs,
# each made with mission_words="minigrid" (MiniGrid's vocabulary) and warm_up=False. Where a test relied
# on one of MiniGrid's own levels (an empty room, lava, a moving ball, DistShift's
# goal_pos), it checks the same property on a maze: the bonus wrappers against counts
# kept by the test, NoDeath as a no-op on levels without death cells, the direction
# and symbolic wrappers against the env's goal_pos. A last test checks that every
# wrapper minigrid.wrappers defines is exercised here.
"""MiniGrid's wrapper tests, pointed at mazeplugin's MiniGrid-mode ids: every wrapper in ``minigrid.wrappers`` works."""

from __future__ import annotations

import inspect
import math
import warnings

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("minigrid")

import minigrid.wrappers  # noqa: E402
from minigrid.core.actions import Actions  # noqa: E402
from minigrid.core.constants import OBJECT_TO_IDX  # noqa: E402
from minigrid.wrappers import (  # noqa: E402
    ActionBonus,
    DictObservationSpaceWrapper,
    DirectionObsWrapper,
    FlatObsWrapper,
    FullyObsWrapper,
    ImgObsWrapper,
    NoDeath,
    OneHotPartialObsWrapper,
    PositionBonus,
    ReseedWrapper,
    RGBImgObsWrapper,
    RGBImgPartialObsWrapper,
    StochasticActionWrapper,
    SymbolicObsWrapper,
    ViewSizeWrapper,
)

import mazeplugin.gym as mg  # noqa: E402
from mazeplugin.paths import shortest_path  # noqa: E402

SEEDS = [100, 243, 500]
NUM_STEPS = 100
IDS = ["mazeplugin/Maze-v0", "mazeplugin/MazeKeys-v0", "mazeplugin/MazeRooms-v0"]
"""The MiniGrid-mode ids (the simple-mode ids have other observations and actions)."""


def make(env_id: str = "mazeplugin/Maze-v0", **kwargs):
    # warm_up=False: no background load of the compiled kernels (seconds of CPU) for these short runs.
    return gym.make(env_id, mission_words="minigrid", warm_up=False, **kwargs)


def assert_equals(a, b, prefix=None):
    """MiniGrid's tests/utils.py assert_equals: equal data structures, arrays compared by value."""
    assert type(a) is type(b), f"{prefix}Differing types: {a} and {b}"
    if isinstance(a, dict):
        assert list(a.keys()) == list(b.keys()), f"{prefix}Key sets differ: {a} and {b}"
        for k in a.keys():
            assert_equals(a[k], b[k])
    elif isinstance(a, np.ndarray):
        np.testing.assert_array_equal(a, b)
    elif isinstance(a, tuple):
        for elem_from_a, elem_from_b in zip(a, b):
            assert_equals(elem_from_a, elem_from_b)
    else:
        assert a == b


@pytest.mark.parametrize("env_id", IDS)
def test_reseed_wrapper(env_id):
    """The ReseedWrapper with a list of SEEDS plays what reset(seed=s) plays."""
    unwrapped_env = make(env_id)
    env = ReseedWrapper(make(env_id), seeds=SEEDS)
    env.action_space.seed(0)

    for seed in SEEDS:
        env.reset()
        unwrapped_env.reset(seed=seed)
        for time_step in range(NUM_STEPS):
            action = env.action_space.sample()
            obs, rew, terminated, truncated, info = env.step(action)
            unwrapped_obs, unwrapped_rew, unwrapped_terminated, unwrapped_truncated, unwrapped_info = unwrapped_env.step(action)
            assert_equals(obs, unwrapped_obs, f"[{time_step}] ")
            assert unwrapped_env.observation_space.contains(obs)
            assert rew == unwrapped_rew, f"[{time_step}] reward={rew}, unwrapped reward={unwrapped_rew}"
            assert terminated == unwrapped_terminated
            assert truncated == unwrapped_truncated
            assert_equals(info, unwrapped_info, f"[{time_step}] ")
            if terminated or truncated:
                break
    env.close()
    unwrapped_env.close()


def test_position_bonus_wrapper():
    """PositionBonus adds 1/sqrt(visits of the tile the step ends on); the test counts the visits itself."""
    env = make()
    wrapped_env = PositionBonus(make())
    visits: dict = {}

    def step(action):
        out = wrapped_env.step(action)
        tile = tuple(wrapped_env.unwrapped.agent_pos)
        visits[tile] = visits.get(tile, 0) + 1
        return out

    for _ in range(10):
        wrapped_env.reset(seed=0)
        for _ in range(5):
            step(Actions.forward)
    # Turn left 3 times (check that actions don't influence bonus)
    for _ in range(3):
        _, wrapped_rew, _, _, _ = step(Actions.left)

    env.reset(seed=0)
    for _ in range(5):
        env.step(Actions.forward)
    for _ in range(3):  # turn right 3 times
        _, rew, _, _, _ = env.step(Actions.right)

    here = tuple(wrapped_env.unwrapped.agent_pos)
    assert visits[here] >= 13  # ten walks end here (or pass), and three turns on the spot
    assert wrapped_rew == rew + 1 / math.sqrt(visits[here])


def test_action_bonus_wrapper():
    """ActionBonus adds 1/sqrt(times this (tile, direction, action) was seen); the test counts them itself."""
    env = make()
    wrapped_env = ActionBonus(make())
    seen: dict = {}
    action = Actions.forward
    for _ in range(10):
        wrapped_env.reset(seed=0)
        for _ in range(5):
            _, wrapped_rew, _, _, _ = wrapped_env.step(action)
            u = wrapped_env.unwrapped
            key = (tuple(u.agent_pos), u.agent_dir, action)
            seen[key] = seen.get(key, 0) + 1

    env.reset(seed=0)
    for _ in range(5):
        _, rew, _, _, _ = env.step(action)
    assert seen[key] >= 10
    assert wrapped_rew == rew + 1 / math.sqrt(seen[key])


@pytest.mark.parametrize("env_id", IDS)
def test_dict_observation_space_wrapper(env_id):
    env = make(env_id)
    env = DictObservationSpaceWrapper(env)
    env.reset(seed=1)
    mission = env.unwrapped.mission
    obs, _, _, _, _ = env.step(0)
    assert env.string_to_indices(mission) == [value for value in obs["mission"] if value != 0]
    env.close()


@pytest.mark.parametrize(
    "wrapper",
    [
        ReseedWrapper,
        ImgObsWrapper,
        FlatObsWrapper,
        ViewSizeWrapper,
        DictObservationSpaceWrapper,
        OneHotPartialObsWrapper,
        RGBImgPartialObsWrapper,
        FullyObsWrapper,
    ],
)
@pytest.mark.parametrize("env_id", IDS)
def test_main_wrappers(wrapper, env_id):
    env = make(env_id)
    env = wrapper(env)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ReseedWrapper warns that the seed passed is ignored
        obs, _ = env.reset(seed=123)
    assert env.observation_space.contains(obs) or wrapper is DictObservationSpaceWrapper
    obs, *_ = env.step(0)
    assert env.observation_space.contains(obs) or wrapper is DictObservationSpaceWrapper
    env.close()


@pytest.mark.parametrize("wrapper", [OneHotPartialObsWrapper, RGBImgPartialObsWrapper, FullyObsWrapper])
@pytest.mark.parametrize("env_id", IDS)
def test_observation_space_wrappers(wrapper, env_id):
    env = wrapper(make(env_id, disable_env_checker=True))
    obs_space, wrapper_name = env.observation_space, wrapper.__name__
    assert isinstance(obs_space, gym.spaces.Dict), f"Observation space for {wrapper_name} is not a Dict: {obs_space}."
    # This should not fail either
    ImgObsWrapper(env)
    obs, _ = env.reset(seed=0)
    assert obs["image"].shape == obs_space["image"].shape
    env.step(0)
    env.close()


class MazeEnvWithExtraObs(mg.MazeEnv):
    """A maze env with an extra observation (MiniGrid's EmptyEnvWithExtraObs)."""

    def __init__(self) -> None:
        super().__init__("backtracker", 2, 2, mission_words="minigrid", warm_up=False)
        self.observation_space["size"] = gym.spaces.Box(low=0, high=np.iinfo(np.uint).max, shape=(2,), dtype=np.uint)

    def reset(self, **kwargs):
        obs, info = super().reset(**kwargs)
        obs["size"] = np.array([self.width, self.height])
        return obs, info

    def step(self, action):
        obs, reward, terminated, truncated, info = super().step(action)
        obs["size"] = np.array([self.width, self.height])
        return obs, reward, terminated, truncated, info


@pytest.mark.parametrize("wrapper", [OneHotPartialObsWrapper, RGBImgObsWrapper, RGBImgPartialObsWrapper, FullyObsWrapper])
def test_agent_sees_method(wrapper):
    env1 = wrapper(MazeEnvWithExtraObs())
    env2 = wrapper(make(width=2, height=2))

    obs1, _ = env1.reset(seed=0)
    obs2, _ = env2.reset(seed=0)
    assert "size" in obs1
    assert obs1["size"].shape == (2,)
    assert (obs1["size"] == [5, 5]).all()
    for key in obs2:
        assert np.array_equal(obs1[key], obs2[key])

    obs1, reward1, terminated1, truncated1, _ = env1.step(0)
    obs2, reward2, terminated2, truncated2, _ = env2.step(0)
    assert (obs1["size"] == [5, 5]).all()
    for key in obs2:
        assert np.array_equal(obs1[key], obs2[key])


@pytest.mark.parametrize("view_size", [5, 7, 9])
def test_viewsize_wrapper(view_size):
    env = make(width=2, height=2)
    env = ViewSizeWrapper(env, agent_view_size=view_size)
    env.reset(seed=0)
    obs, _, _, _, _ = env.step(0)
    assert obs["image"].shape == (view_size, view_size, 3)
    if view_size == 7:  # the env's own size: the wrapper's view is the env's
        assert np.array_equal(obs["image"], env.unwrapped.gen_obs()["image"])
    env.close()


@pytest.mark.parametrize("type", ["slope", "angle", "angle_atan2"])
def test_direction_obs_wrapper(type):
    env = make(width=3, height=4)
    env = DirectionObsWrapper(env, type=type)
    for action in (None, 0, 2):
        obs = env.reset(seed=3)[0] if action is None else env.step(action)[0]
        assert env.goal_position == env.unwrapped.goal_pos
        dx = env.unwrapped.goal_pos[0] - env.unwrapped.agent_pos[0]
        dy = env.unwrapped.goal_pos[1] - env.unwrapped.agent_pos[1]
        with np.errstate(divide="ignore"):
            slope = np.divide(dy, dx)
        expected = {"slope": slope, "angle": np.arctan(slope), "angle_atan2": np.arctan2(dy, dx)}[type]
        assert obs["goal_direction"] == expected
    env.close()


def test_symbolic_obs_wrapper():
    env = make(width=4, height=3)
    env = SymbolicObsWrapper(env)
    for action in (None, 2, 1, 2):
        obs = env.reset(seed=123)[0] if action is None else env.step(action)[0]
        agent_pos = env.unwrapped.agent_pos
        goal_pos = env.unwrapped.goal_pos
        assert obs["image"].shape == (env.unwrapped.width, env.unwrapped.height, 3)
        assert np.all(obs["image"][agent_pos[0], agent_pos[1], :] == np.array([agent_pos[0], agent_pos[1], OBJECT_TO_IDX["agent"]]))
        assert np.all(obs["image"][goal_pos[0], goal_pos[1], :] == np.array([goal_pos[0], goal_pos[1], OBJECT_TO_IDX["goal"]]))
        walls = env.unwrapped.level.tiles == 1
        assert np.array_equal(obs["image"][..., 2].T == OBJECT_TO_IDX["wall"], walls)
    env.close()


def test_stochastic_action_wrapper():
    env = make()
    env = StochasticActionWrapper(env, prob=0.2)
    _, _ = env.reset(seed=0)
    for _ in range(20):
        _, _, _, _, _ = env.step(0)
    env.close()

    env = make()
    env = StochasticActionWrapper(env, prob=0.2, random_action=1)
    _, _ = env.reset(seed=0)
    for _ in range(20):
        _, _, _, _, _ = env.step(0)
    env.close()


def test_dict_observation_space_doesnt_clash_with_one_hot():
    env = make()
    env = OneHotPartialObsWrapper(env)
    env = DictObservationSpaceWrapper(env)
    env.reset(seed=0)
    obs, _, _, _, _ = env.step(0)
    assert obs["image"].shape == (7, 7, 20)
    assert env.observation_space["image"].shape == (7, 7, 20)
    env.close()


def walk_to_the_exit(env):
    """Actions (left, right, forward) that walk the agent of a fresh level without keys along its shortest path."""
    u = env.unwrapped
    level = u.level
    path = shortest_path(level.tiles, level.entrance, level.exit)
    direction = u.agent_dir
    vectors = [(1, 0), (0, 1), (-1, 0), (0, -1)]
    actions = []
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        want = vectors.index((x1 - x0, y1 - y0))
        while direction != want:
            turn = 1 if (want - direction) % 4 in (1, 2) else 0
            actions.append(turn)
            direction = (direction + (1 if turn else -1)) % 4
        actions.append(Actions.forward)
    return actions


def test_no_death_wrapper():
    """A maze has no death cells: NoDeath (given some cell types, reading grid.get(*front_pos)) changes nothing,
    and walking into walls or reaching the goal ends as without it."""
    death_cost = -1
    env = make(width=3, height=3)
    env.reset(seed=2)
    plan = [Actions.forward] * 3 + walk_to_the_exit(env)  # bump into what is ahead first
    results = [env.step(a)[1:4] for a in plan]

    env_wrap = NoDeath(make(width=3, height=3), ("lava", "ball"), death_cost)
    env_wrap.reset(seed=2)
    wrapped = [env_wrap.step(a)[1:4] for a in plan]
    assert wrapped == results
    assert results[-1][1] and results[-1][0] > 0  # terminated at the goal, with its reward
    env.close()
    env_wrap.close()


def test_non_square_RGBIMgObsWrapper():
    """Non-square dimensions with RGBImgObsWrapper (https://github.com/Farama-Foundation/Minigrid/issues/444)."""
    env = RGBImgObsWrapper(make(width=5, height=2))
    obs, info = env.reset(seed=0)
    assert env.observation_space["image"].shape == obs["image"].shape == (5 * 8, 11 * 8, 3)


def test_every_wrapper_minigrid_defines_is_tested_here():
    defined = {
        name for name, value in vars(minigrid.wrappers).items()
        if inspect.isclass(value) and issubclass(value, gym.Wrapper) and value.__module__ == "minigrid.wrappers"
    }
    tested = {w.__name__ for w in (
        ActionBonus, DictObservationSpaceWrapper, DirectionObsWrapper, FlatObsWrapper, FullyObsWrapper, ImgObsWrapper,
        NoDeath, OneHotPartialObsWrapper, PositionBonus, ReseedWrapper, RGBImgObsWrapper, RGBImgPartialObsWrapper,
        StochasticActionWrapper, SymbolicObsWrapper, ViewSizeWrapper,
    )}
    assert defined <= tested, f"wrappers minigrid.wrappers defines that no test here runs: {sorted(defined - tested)}"
