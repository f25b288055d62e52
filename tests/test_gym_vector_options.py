"""MazeVectorEnv's public autoreset modes, per-env reset and episode statistics, against gymnasium's own."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402
from gymnasium.wrappers.vector import RecordEpisodeStatistics  # noqa: E402

import mazeplugin.gym as mg  # noqa: E402

KWARGS = dict(generator="backtracker", width=4, height=3, keys=1, max_steps=12, warm_up=False)


def same_obs(a, b, simple):
    if simple:
        return np.array_equal(a, b)
    return (np.array_equal(a["image"], b["image"]) and np.array_equal(np.asarray(a["direction"]), np.asarray(b["direction"]))
            and tuple(a["mission"]) == tuple(b["mission"]) if isinstance(a["mission"], tuple) else a["mission"] == b["mission"])


@pytest.mark.parametrize("n", [5, 64])  # 64 envs step in the compiled pass (with numba)
@pytest.mark.parametrize("mode", ["minigrid", "simple"])
@pytest.mark.parametrize("autoreset", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_autoreset_modes_and_statistics_equal_gymnasiums_own(n, mode, autoreset):
    """Same seeds and actions: MazeVectorEnv(autoreset_mode=..., episode_statistics=True) gives what
    RecordEpisodeStatistics(SyncVectorEnv(single envs, autoreset_mode=...)) gives: observations, rewards, ends,
    final_obs/final_info (SAME_STEP) and episode returns and lengths."""
    if n == 64 and mode == "simple":
        pytest.skip("the compiled pass is the MiniGrid mode's")
    kwargs = dict(KWARGS, mode=mode)
    simple = mode == "simple"
    vec = mg.MazeVectorEnv(n, autoreset_mode=autoreset, episode_statistics=True, **kwargs)
    assert vec.metadata["autoreset_mode"] == autoreset
    ref = RecordEpisodeStatistics(SyncVectorEnv([lambda: mg.MazeEnv(**kwargs) for _ in range(n)], autoreset_mode=autoreset))
    vec.reset(seed=4)
    ref.reset(seed=4)
    rng = np.random.default_rng(1)
    episodes = finals = 0
    for t in range(40):
        actions = rng.integers(0, 3, size=n)
        o1, r1, te1, tr1, i1 = vec.step(actions)
        o2, r2, te2, tr2, i2 = ref.step(actions)
        assert same_obs(o1, o2, simple), t
        assert np.array_equal(r1, r2) and np.array_equal(te1, te2) and np.array_equal(tr1, tr2), t
        assert ("episode" in i1) == ("episode" in i2), t
        if "episode" in i2:
            episodes += int(i2["_episode"].sum())
            assert np.array_equal(i1["_episode"], i2["_episode"])
            for key in ("r", "l"):
                assert np.array_equal(i1["episode"][key], i2["episode"][key]), (t, key)
        assert ("final_obs" in i1) == ("final_obs" in i2), t
        if "final_obs" in i2:
            assert np.array_equal(i1["_final_obs"], i2["_final_obs"]) and np.array_equal(i1["_final_info"], i2["_final_info"])
            for j in np.flatnonzero(i2["_final_obs"]):
                finals += 1
                assert same_obs(i1["final_obs"][j], i2["final_obs"][j], simple)
            for key, value in i2["final_info"].items():
                assert np.array_equal(i1["final_info"][key], value), key
            assert np.array_equal(i1["_level_seed"], i2["_level_seed"])
            assert np.array_equal(i1["level_seed"][i1["_level_seed"]], i2["level_seed"][i2["_level_seed"]])
    assert episodes >= n  # max_steps=12 within 40 steps: every env ended at least once
    assert finals == (episodes if autoreset == AutoresetMode.SAME_STEP else 0)


def test_reset_mask_resets_only_the_envs_marked():
    vec = mg.MazeVectorEnv(4, autoreset_mode="SameStep", **KWARGS)
    assert vec.autoreset_mode == AutoresetMode.SAME_STEP
    obs, _ = vec.reset(seed=0)
    for _ in range(3):
        obs, *_ = vec.step(np.array([2, 1, 2, 0]))
    moved = obs["image"].copy()
    mask = np.array([False, True, False, True])
    obs, info = vec.reset(seed=[None, 20, None, 30], options={"reset_mask": mask})
    fresh = mg.MazeVectorEnv(4, **KWARGS)
    first, first_info = fresh.reset(seed=[20, 20, 30, 30])
    assert info["_level_seed"].tolist() == mask.tolist()
    assert info["level_seed"][mask].tolist() == first_info["level_seed"][mask].tolist()
    assert np.array_equal(obs["image"][~mask], moved[~mask])  # the others kept their episode
    assert np.array_equal(obs["image"][1], first["image"][1]) and np.array_equal(obs["image"][3], first["image"][3])
    assert vec._batch.steps.tolist() == [3, 0, 3, 0]


def test_disabled_autoreset_waits_for_a_masked_reset():
    vec = mg.MazeVectorEnv(2, autoreset_mode=AutoresetMode.DISABLED, **dict(KWARGS, max_steps=2))
    vec.reset(seed=0)
    vec.step(np.array([0, 0]))
    _, _, _, truncated, _ = vec.step(np.array([0, 0]))
    assert truncated.all()
    with pytest.raises(RuntimeError, match=r"envs \[0, 1\] ended .*reset_mask"):
        vec.step(np.array([0, 0]))
    vec.reset(options={"reset_mask": np.array([True, False])})
    with pytest.raises(RuntimeError, match=r"envs \[1\] ended"):
        vec.step(np.array([0, 0]))
    vec.reset(options={"reset_mask": np.array([False, True])})
    vec.step(np.array([0, 0]))


@pytest.mark.parametrize("options, message", [
    ({"reset_mask": [True, False]}, "reset_mask.*numpy bool array of shape"),
    ({"reset_mask": np.array([1, 0])}, "reset_mask.*numpy bool array of shape"),
    ({"reset_mask": np.array([True])}, "reset_mask.*numpy bool array of shape"),
    ({"reset_mask": np.array([False, False])}, "at least one"),
])
def test_bad_reset_masks_are_refused(options, message):
    vec = mg.MazeVectorEnv(2, **KWARGS)
    vec.reset(seed=0)
    with pytest.raises(ValueError, match=message):
        vec.reset(options=options)


def test_bad_autoreset_options_are_refused():
    with pytest.raises(ValueError, match="autoreset_mode must be one of AutoresetMode.NEXT_STEP"):
        mg.MazeVectorEnv(2, autoreset_mode="sometimes", **KWARGS)
    with pytest.raises(ValueError, match="episode_statistics must be True or False"):
        mg.MazeVectorEnv(2, episode_statistics=1, **KWARGS)
    with pytest.raises(RuntimeError, match="first reset"):
        mg.MazeVectorEnv(2, **KWARGS).reset(options={"reset_mask": np.array([True, False])})
