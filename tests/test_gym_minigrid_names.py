"""MazeEnv's MiniGrid names (grid, gen_obs_grid, carrying, front_pos, ...) agree with its own observations."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("minigrid")

import mazeplugin.gym as mg  # noqa: E402
from minigrid.core.world_object import Door, Goal, Key  # noqa: E402


def keyed_walk(env, steps, seed):
    """Random MiniGrid actions, but a key ahead is picked up and a door ahead toggled: keys get carried, doors open."""
    rng = np.random.default_rng(seed)
    u = env.unwrapped
    for _ in range(steps):
        ahead = u.grid.get(*u.front_pos)
        if isinstance(ahead, Key) and u.carrying is None:
            action = 3
        elif isinstance(ahead, Door) and not ahead.is_open and rng.random() < 0.8:
            action = 5
        elif u.carrying is not None and rng.random() < 0.03:
            action = 4
        else:
            action = int(rng.choice(3, p=[0.25, 0.25, 0.5]))
        yield action


@pytest.mark.parametrize("kwargs", [dict(keys=2), dict(generator="wilson", width=7, height=7, rooms=1, keys=1, braid=0.8, view_size=5)])
def test_minigrids_own_view_of_the_grid_is_the_observation(kwargs):
    """MiniGrid's gen_obs_grid over env.grid, encoded, is the env's image at every step (keys carried, doors opened)."""
    env = mg.MazeEnv(**{"width": 5, "height": 5, **kwargs}, max_steps=1500, warm_up=False)
    carried = opened = steps = 0
    for seed in range(3):
        if carried and opened and steps > 300:
            break
        obs, _ = env.reset(seed=seed)
        for action in keyed_walk(env, 1500, seed):
            grid, vis = env.gen_obs_grid()
            assert np.array_equal(grid.encode(vis), obs["image"])
            assert np.array_equal(env.gen_obs()["image"], obs["image"])
            steps += 1
            carried += env.carrying is not None
            opened += any(isinstance(o, Door) and o.is_open for o in env.grid.grid)
            obs, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated or (carried and opened and steps > 300):
                break
    assert carried and opened


def test_the_grid_is_the_level_now():
    env = mg.MazeEnv("kruskal", 4, 4, keys=1, warm_up=False)
    env.reset(seed=5)
    level = env.level
    grid = env.grid
    assert (grid.width, grid.height) == (level.tiles.shape[1], level.tiles.shape[0]) == (env.width, env.height)
    walls = np.array([[o is not None and o.type == "wall" for o in grid.grid[y * grid.width:(y + 1) * grid.width]]
                      for y in range(grid.height)])
    assert np.array_equal(walls, level.tiles == 1)
    assert isinstance(grid.get(*env.goal_pos), Goal) and env.goal_pos == level.exit
    key = next(t for t in level.things if t.kind == "key")
    assert isinstance(grid.get(key.x, key.y), Key)
    assert grid is env.grid  # kept while nothing changes
    # The key picked up leaves the grid and is carried, in its colour.
    env.unwrapped._batch.carrying[0] = env.unwrapped._batch.grid[0, key.y + env._batch.pad, key.x + env._batch.pad, 1]
    env.unwrapped._batch.grid[0, key.y + env._batch.pad, key.x + env._batch.pad] = (1, 0, 0, 0)
    assert env.grid.get(key.x, key.y) is None and env.carrying.color == grid.get(key.x, key.y).color
    assert env.grid.encode().shape == (env.width, env.height, 3)


def test_front_pos_and_dir_vec_follow_the_agent():
    env = mg.MazeEnv("kruskal", 3, 3, warm_up=False)
    env.reset(seed=1)
    for action in [0, 2, 1, 1, 2, 0]:
        env.step(action)
        dx, dy = env.dir_vec
        assert tuple(env.front_pos) == (env.agent_pos[0] + dx, env.agent_pos[1] + dy)
        assert tuple(env.right_vec) == (-dy, dx)
    assert env.see_through_walls is False and env.steps_remaining == env.max_steps - 6


def test_agent_pov_frames_and_render():
    env = mg.MazeEnv("kruskal", 3, 3, render_mode="rgb_array", warm_up=False)
    env.reset(seed=0)
    assert env.get_frame(tile_size=8, agent_pov=True).shape == (7 * 8, 7 * 8, 3)
    whole = env.render()
    assert whole.shape == (7 * 32, 7 * 32, 3)
    env.agent_pov = True
    assert env.render().shape == (7 * 32, 7 * 32, 3) and not np.array_equal(env.render(), whole)


def test_minigrid_mission_words_are_an_option_and_the_default_stays():
    env = mg.MazeEnv(keys=1, warm_up=False)
    assert env.reset(seed=0)[0]["mission"] == mg.MISSION_KEYS
    env = mg.MazeEnv(keys=1, mission_words="minigrid", warm_up=False)
    assert env.reset(seed=0)[0]["mission"] == mg.MISSION_KEYS_MINIGRID
    vec = mg.MazeVectorEnv(2, keys=1, mission_words="minigrid", warm_up=False)
    assert vec.reset(seed=0)[0]["mission"] == (mg.MISSION_KEYS_MINIGRID,) * 2
    with pytest.raises(ValueError, match="mission_words must be one of 'mazeplugin', 'minigrid'"):
        mg.MazeEnv(mission_words="english")


def test_the_grid_before_a_reset_is_refused():
    with pytest.raises(RuntimeError, match="call reset"):
        mg.MazeEnv(warm_up=False).grid


def test_without_numba_the_env_says_once_that_it_runs_plain(monkeypatch):
    """The `gym` extra brings numba; without it, the first env of a process says so (once), unless the plain path was chosen."""
    from mazeplugin import compiled
    from mazeplugin.gym import env as env_module

    monkeypatch.setattr(compiled, "available", lambda: False)
    monkeypatch.setattr(env_module, "_TOLD_PLAIN", [])
    monkeypatch.delenv(compiled.MODE_VARIABLE, raising=False)
    with pytest.warns(RuntimeWarning, match=r'plain Python path: numba is not installed.*pip install "mazeplugin\[gym\]"'):
        mg.MazeEnv(warm_up=False)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mg.MazeVectorEnv(2, warm_up=False)  # said once per process
        monkeypatch.setattr(env_module, "_TOLD_PLAIN", [])
        monkeypatch.setenv(compiled.MODE_VARIABLE, "0")
        mg.MazeEnv(warm_up=False)  # the plain path chosen: nothing to say


def test_the_gym_extra_installs_numba():
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    gym = re.search(r"^gym = \[(.*?)\]", text, re.M).group(1)
    assert '"numba>=' in gym and '"gymnasium>=' in gym
