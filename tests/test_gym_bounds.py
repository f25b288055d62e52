"""Issue 34 (items 6 and 11, the gym's): every request is refused before any work, with an error naming the argument."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import mazeplugin.gym as mg  # noqa: E402
from mazeplugin.gym import bounds  # noqa: E402

from processes import child_env  # noqa: E402


@pytest.mark.parametrize("view_size", [20001, 257, 256, 1, 4, True, 7.0])
def test_view_sizes_out_of_bounds_are_refused(view_size):
    with pytest.raises(ValueError, match="view_size must be an odd whole number from 3 to 255"):
        mg.MazeEnv(view_size=view_size, warm_up=False)


def test_the_largest_view_is_taken():
    env = mg.MazeEnv("kruskal", 2, 2, view_size=255, warm_up=False)
    assert env.observation_space["image"].shape == (255, 255, 3)


def test_a_million_envs_are_refused_before_any_work():
    """MazeVectorEnv(1_000_000) took 65 s and 3.9 GB before a MemoryError: now refused by its estimate, in a
    process capped at 1 GB of address space beyond what it had (so a refusal after the work would fail)."""
    code = textwrap.dedent('''
        import resource, sys
        import mazeplugin.gym as mg
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        used = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (used + (1 << 30), hard))
        try:
            mg.MazeVectorEnv(1_000_000, warm_up=False)
        except ValueError as error:
            print(error)
            sys.exit(0)
        sys.exit("made")
    ''')
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=child_env(MAZEPLUGIN_COMPILED="0"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "num_envs=1,000,000 of 19 x 19 tiles with view_size=7 needs about" in done.stdout
    assert "working-memory budget" in done.stdout


def test_the_estimate_is_above_what_a_batch_takes():
    """The estimate is an upper bound of the arrays a batch allocates (measured: their bytes)."""
    vec = mg.MazeVectorEnv(64, "kruskal", 6, 6, view_size=9, warm_up=False)
    vec.reset(seed=0)
    batch = vec._batch
    arrays = sum(a.nbytes for a in vars(batch).values() if isinstance(a, np.ndarray))
    s = vec.settings
    padded = (s.rows + 2 * s.view_size) * (s.columns + 2 * s.view_size)
    per_env = 3 * 4 * padded + 32 * s.view_size ** 2 + 12 * s.rows * s.columns + 3000
    assert arrays < 64 * per_env
    bounds.check_envs(64, rows=s.rows, columns=s.columns, view_size=s.view_size)


def test_pictures_too_large_or_with_bad_tiles_are_refused():
    with pytest.raises(ValueError, match=r"tile_size=256 makes a picture of 51,456 x 51,456 pixels, more than"):
        mg.MazeEnv("backtracker", 100, 100, render_mode="rgb_array", tile_size=256, warm_up=False)
    env = mg.MazeEnv("backtracker", 100, 100, warm_up=False)
    env.reset(seed=0)
    for size in (0, -5, 257, 2.0, True):
        with pytest.raises(ValueError, match="tile_size must be a whole number of pixels from 1 to 256"):
            env.get_frame(tile_size=size)
    with pytest.raises(ValueError, match="tile_size=100 makes a picture of 20,100 x 20,100 pixels"):
        env.get_frame(tile_size=100)
    assert env.get_frame(tile_size=2).shape == (402, 402, 3)


@pytest.mark.parametrize("max_steps", [2**63, 2**62 + 1, 0, -1, True, 1.5])
def test_max_steps_out_of_bounds_are_refused(max_steps):
    with pytest.raises(ValueError, match=r"max_steps must be a whole number from 1 to 2\*\*62"):
        mg.MazeEnv(max_steps=max_steps, warm_up=False)


def test_the_largest_max_steps_steps_in_a_batch():
    vec = mg.MazeVectorEnv(3, max_steps=2**62, warm_up=False)
    vec.reset(seed=0)
    _, reward, terminated, truncated, _ = vec.step(np.array([0, 1, 2]))
    assert not truncated.any() and not terminated.any() and (reward == 0).all()


@pytest.mark.parametrize("options, message", [
    ({"options": {"seed": 3}}, r"'seed' is not one of them \(use reset\(seed=...\)\)"),
    ({"options": {"keys": 9}}, r"'keys' is not one of them \(use the environment's keys= argument\)"),
    ({"seed": 3}, "unknown reset option 'seed'"),
    ({"keys": 9}, "keys must be a whole number from 0 to 6"),
])
def test_bad_reset_options_name_what_is_wrong(options, message):
    env = mg.MazeEnv(warm_up=False)
    with pytest.raises(ValueError, match=message):
        env.reset(options=options)
    with pytest.raises(ValueError, match=message):
        mg.MazeVectorEnv(2, warm_up=False).reset(options=options)


def test_generator_options_with_generate_s_own_names_are_refused_by_the_constructor():
    with pytest.raises(ValueError, match="'seed' is not one of them"):
        mg.MazeEnv(options={"seed": 3})


@pytest.mark.parametrize("seed", [1.5, "a", True, -1, [1, 1.5], [0], [0, -2], np.float64(2.0)])
def test_bad_vector_seeds_are_refused(seed):
    vec = mg.MazeVectorEnv(2, warm_up=False)
    with pytest.raises(ValueError, match=r"seed(\[\d\])? must be None"):
        vec.reset(seed=seed)


def test_good_vector_seeds_are_taken():
    vec = mg.MazeVectorEnv(2, warm_up=False)
    for seed in (None, 3, np.int64(3), [3, None], (3, 4), np.array([3, 4])):
        vec.reset(seed=seed)


@pytest.mark.parametrize("seed", [1.5, True, -1, "3"])
def test_bad_single_seeds_are_refused(seed):
    with pytest.raises(ValueError, match="seed must be None or a whole number >= 0"):
        mg.MazeEnv(warm_up=False).reset(seed=seed)


def test_every_seed_of_a_split_is_checked():
    with pytest.raises(ValueError, match="got -1 at position 5000"):
        mg.MazeEnv(seeds=[1] * 5000 + [-1], warm_up=False)
    with pytest.raises(ValueError, match="got 1.5 at position 1001"):
        mg.MazeEnv(seeds=list(range(1001)) + [1.5], warm_up=False)
    with pytest.raises(ValueError, match="seeds must hold whole numbers >= 0"):
        mg.MazeEnv(seeds=range(-3, 10**12), warm_up=False)
    assert mg.MazeEnv(seeds=range(10**15), warm_up=False).settings.seeds == range(10**15)  # a range: its ends


def test_bool_actions_are_refused_alike():
    """step(True) was action 1 while step(np.True_) was refused: a bool is no action, both refused."""
    env = mg.MazeEnv(warm_up=False)
    env.reset(seed=0)
    for action in (True, np.True_, False):
        with pytest.raises(ValueError, match="action must be one of 0..6"):
            env.step(action)
    env.step(np.int64(1))
    with pytest.raises(ValueError, match="actions must be 2 whole numbers"):
        vec = mg.MazeVectorEnv(2, warm_up=False)
        vec.reset(seed=0)
        vec.step(np.array([True, False]))

