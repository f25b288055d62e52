"""Levels made in batches (``LevelSpec.make_many``/``make_arrays``, the vector env's autoresets) are the levels
``LevelSpec.make`` makes one by one, seed for seed, on the compiled path and without it; loaded from
arrays they put into a ``Batch`` what ``Batch.load`` puts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from budget import examples

pytest.importorskip("gymnasium")

import mazeplugin.gym as mg  # noqa: E402
from mazeplugin import compiled  # noqa: E402
from mazeplugin.content.lockbatch import place_locks_batch  # noqa: E402
from mazeplugin.gym.engine import Batch  # noqa: E402
from mazeplugin.gym.env import level_info  # noqa: E402
from mazeplugin.gym.levels import LevelSpec  # noqa: E402
from mazeplugin.tiles import Layout  # noqa: E402

# (spec, in the batched lane): generators with and without a batch kernel, keys 0-3, sizes whose seeds
# need other candidates (a 7 x 7 maze often cannot hold two or three locks), wide corridors and walls,
# and the options the lane leaves to make (braid, rooms, masks, generator options).
SPECS = [
    (dict(generator="backtracker", width=7, height=7, keys=2), True),
    (dict(generator="backtracker", width=7, height=7, keys=3), True),
    (dict(generator="kruskal", width=7, height=7, keys=1), True),
    (dict(generator="hunt-and-kill", width=15, height=15, keys=2), True),
    (dict(generator="backtracker", width=9, height=9), True),
    (dict(generator="kruskal", width=5, height=4, keys=2, corridor=2, wall=3), True),
    (dict(generator="hunt-and-kill", width=6, height=6, keys=3, corridor=3), True),
    (dict(generator="wilson", width=7, height=7, keys=2), False),
    (dict(generator="prim", width=6, height=5, keys=1), False),
    (dict(generator="backtracker", width=7, height=7, keys=2, braid=0.5), False),
    (dict(generator="kruskal", width=9, height=9, keys=1, rooms=1), False),
    (dict(generator="backtracker", width=6, height=6, keys=2, mask=["######", "######", "###...", "######",
                                                                     "######", "######"]), False),
    (dict(generator="growing-tree", width=7, height=7, keys=2, options={"strategy": "oldest"}), False),
]
SEEDS = [0, 1, 2, 3, 7, 11, 2**63 - 1, 123456789012345, *range(40, 70)]


def same(a, b):
    """Every part of two levels a player, a file or a level code sees."""
    assert a.tiles.tobytes() == b.tiles.tobytes() and a.tiles.shape == b.tiles.shape
    assert (a.entrance, a.exit, a.seed, a.algorithm) == (b.entrance, b.exit, b.seed, b.algorithm)
    assert a.things == b.things
    assert [(t.kind, t.x, t.y, t.id, t.props) for t in a.things] == [(t.kind, t.x, t.y, t.id, t.props) for t in b.things]
    assert a.options.keys() == b.options.keys()
    for name in a.options:
        assert np.array_equal(a.options[name], b.options[name]) if name == "mask" else a.options[name] == b.options[name]
    assert np.array_equal(a.maze.east, b.maze.east) and np.array_equal(a.maze.south, b.maze.south)
    assert (a.layout.corridor, a.layout.wall) == (b.layout.corridor, b.layout.wall)
    return True


@pytest.mark.parametrize("kwargs, lane", SPECS, ids=lambda v: str(v) if isinstance(v, dict) else "")
def test_make_many_is_make_seed_by_seed(monkeypatch, kwargs, lane):
    monkeypatch.setenv(compiled.MODE_VARIABLE, "1")  # the kernels load now: the batches really run
    spec = LevelSpec(**kwargs)
    made = spec.make_arrays(SEEDS)
    assert all(made.batched) if lane else not any(made.batched)
    one_by_one = [spec.make(seed) for seed in SEEDS]
    assert all(same(made.level(i), level) for i, level in enumerate(one_by_one))
    if lane and spec.keys >= 2 and spec.width == 7:
        assert sum(level.seed != seed for level, seed in zip(one_by_one, SEEDS)) > 0  # some seeds retried


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seeds=st.lists(st.integers(0, 2**63 - 1), min_size=1, max_size=12), keys=st.integers(0, 3),
       generator=st.sampled_from(["backtracker", "hunt-and-kill", "kruskal"]), size=st.integers(3, 10))
def test_any_batch_of_seeds_gives_the_levels_of_make(monkeypatch, seeds, keys, generator, size):
    monkeypatch.setenv(compiled.MODE_VARIABLE, "1")
    spec = LevelSpec(generator, size, size, keys=keys)
    try:
        expected = [spec.make(seed) for seed in seeds]
    except ValueError as error:  # a size too small for the keys: the same error
        with pytest.raises(ValueError, match="no level for seed"):
            spec.make_many(seeds)
        assert "no level for seed" in str(error)
        return
    assert all(same(a, b) for a, b in zip(spec.make_many(seeds), expected))


def test_the_plain_path_makes_the_same_levels_one_by_one(monkeypatch):
    spec = LevelSpec("backtracker", 7, 7, keys=2)
    monkeypatch.setenv(compiled.MODE_VARIABLE, "1")
    batched = spec.make_arrays(SEEDS)
    assert all(batched.batched)
    monkeypatch.setenv(compiled.MODE_VARIABLE, "0")  # no numba: no batch lane, no locks kernel
    plain = spec.make_arrays(SEEDS)
    assert not any(plain.batched)
    assert all(same(batched.level(i), plain.level(i)) for i in range(len(SEEDS)))


def test_seeds_without_a_level_raise_what_make_raises(monkeypatch):
    monkeypatch.setenv(compiled.MODE_VARIABLE, "1")
    spec = LevelSpec("backtracker", 2, 2, keys=3)  # two by two cells never hold three locks
    with pytest.raises(ValueError) as one:
        spec.make(5)
    with pytest.raises(ValueError) as many:
        spec.make_many([4, 5])
    assert str(many.value) == str(one.value).replace("seed 5", "seed 4")


@pytest.mark.parametrize("kwargs", [dict(generator="backtracker", width=7, height=7, keys=3),
                                    dict(generator="kruskal", width=5, height=4, keys=2, corridor=2, wall=3),
                                    dict(generator="wilson", width=6, height=6, keys=1)])
def test_levels_loaded_from_arrays_fill_the_batch_as_load_does(monkeypatch, kwargs):
    monkeypatch.setenv(compiled.MODE_VARIABLE, "1")
    spec = LevelSpec(**kwargs)
    made = spec.make_arrays(SEEDS[:12])
    rows, columns = spec.shape
    a, b = Batch(14, rows=rows, columns=columns, view_size=7), Batch(14, rows=rows, columns=columns, view_size=7)
    slots = [13, *range(11)]  # not in order: level j goes to slot slots[j]
    made.load_into(a, slots)
    for j, slot in enumerate(slots):
        b.load(slot, made.level(j))
    for name in ("grid", "position", "direction", "carrying", "held", "steps", "_coded"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert np.array_equal(a.view(), b.view())


def test_lock_plan_of_a_batch_has_the_things_of_generate(monkeypatch):
    monkeypatch.setenv(compiled.MODE_VARIABLE, "1")
    import mazeplugin as mp

    levels = [mp.generate("kruskal", 8, 6, seed=seed, keys=2, corridor=2) for seed in range(6)]
    base = np.stack([level.base_tiles for level in levels])
    plan = place_locks_batch(base, Layout(8, 6, corridor=2), levels[0].entrance, levels[0].exit, list(range(6)), 2)
    assert plan is not None and plan.placed.all()
    assert all(plan.things(i) == level.things for i, level in enumerate(levels))
    with pytest.raises(ValueError, match="one tilemap per seed"):
        place_locks_batch(base, Layout(8, 6, corridor=2), levels[0].entrance, levels[0].exit, [1], 2)
    with pytest.raises(ValueError, match="base tilemaps of the layout's 9 x 6 cells"):
        place_locks_batch(base, Layout(9, 6, corridor=2), levels[0].entrance, levels[0].exit, list(range(6)), 2)
    with pytest.raises(ValueError, match="keys must be a whole number >= 1"):
        place_locks_batch(base, Layout(8, 6, corridor=2), levels[0].entrance, levels[0].exit, list(range(6)), 0)


def test_vector_reset_and_autoresets_make_their_levels_in_one_batch(monkeypatch):
    """A reset of 64 envs is one batch; so is the step after all 64 end together: the levels of 64 single envs."""
    monkeypatch.setenv(compiled.MODE_VARIABLE, "1")
    calls = []
    make_arrays = LevelSpec.make_arrays

    def spy(self, seeds):
        made = make_arrays(self, seeds)
        calls.append((len(seeds), sum(made.batched)))
        return made

    monkeypatch.setattr(LevelSpec, "make_arrays", spy)
    kwargs = dict(generator="backtracker", width=7, height=7, keys=2, max_steps=5, warm_up=False)
    n = 64
    vec = mg.MazeVectorEnv(n, **kwargs)
    singles = [mg.MazeEnv(**kwargs) for _ in range(n)]
    obs, _ = vec.reset(seed=100)
    for i, env in enumerate(singles):
        env.reset(seed=100 + i)
    rng = np.random.default_rng(1)
    for t in range(13):
        actions = rng.integers(3, size=n)  # turns and forward: no episode ends at the goal this soon
        obs, reward, terminated, truncated, info = vec.step(actions)
        for i, env in enumerate(singles):
            if t % 6 == 5:  # every env ended at step 5 (max_steps): this step resets all of them
                o, inf = env.reset()
                assert info["level_seed"][i] == inf["level_seed"] and info["_level_seed"][i]
            else:
                o = env.step(int(actions[i]))[0]
            assert np.array_equal(obs["image"][i], o["image"]) and obs["mission"][i] == o["mission"], (t, i)
    # The vector env's three batches of 64; each single env's reset is a batch of one (3 resets each).
    assert [call for call in calls if call[0] != 1] == [(n, n)] * 3 and calls.count((1, 1)) == 3 * n


@pytest.mark.parametrize("options", [None, {"width": 5, "height": 6, "keys": 1}, {"generator": "wilson", "keys": 3},
                                     {"level_code": "kruskal-6x5-7+k1"}])
def test_vector_reset_with_options_gives_the_levels_of_single_envs(monkeypatch, options):
    monkeypatch.setenv(compiled.MODE_VARIABLE, "1")
    kwargs = dict(generator="backtracker", width=7, height=7, keys=2, warm_up=False)
    vec = mg.MazeVectorEnv(5, **kwargs)
    singles = [mg.MazeEnv(**kwargs) for _ in range(5)]
    seeds = [3, 1, 2**63 + 5, 0, 9]  # (2**63 + 5: beyond the batched lane's seeds, made one by one)
    vec.reset(seed=seeds)
    for i, env in enumerate(singles):
        env.reset(seed=seeds[i])  # the same np_random as the vector env's i-th
    for given in (seeds, None):  # the seeds given, then seeds drawn from each env's np_random
        obs, info = vec.reset(seed=given, options=options)
        for i, env in enumerate(singles):
            o, inf = env.reset(seed=None if given is None else seeds[i], options=options)
            assert np.array_equal(obs["image"][i], o["image"]) and obs["mission"][i] == o["mission"], i
            seed = inf["level_seed"]
            assert info["level_seed"][i] == (seed if isinstance(seed, int) and seed < 2**63 else -1), i
    with pytest.raises(ValueError, match="unknown reset option 'colour'"):
        vec.reset(options={"colour": 1})
    with pytest.raises(TypeError, match="reset options must be a dict"):
        vec.reset(options=[("keys", 1)])


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (2**128, ValueError), (1.5, TypeError), (True, TypeError)])
def test_a_seed_generate_refuses_is_refused_not_replaced_by_a_candidate(bad, error):
    # With keys, make() moves on to derived candidates when a level cannot hold its locks; a seed
    # generate refuses must not be taken for such a level (it made some other seed's level).
    spec = LevelSpec("backtracker", 7, 7, keys=2)
    with pytest.raises(error, match="seed"):
        spec.make(bad)
    with pytest.raises(error, match="seed"):
        spec.make_many([3, bad])


@pytest.mark.parametrize("changes, name", [({"braid": 2}, "braid"), ({"require": {"bogus": (1, 2)}}, "require"),
                                           ({"options": {"bias": "north"}}, "bias")])
def test_a_bad_argument_is_named_at_once_not_after_every_candidate(changes, name):
    # With keys, make() tries other candidates when content does not fit; a bad argument used to fail all
    # 64 and surface as "no level for seed 0 among 64 candidates: ...".
    with pytest.raises((ValueError, TypeError), match=name) as caught:
        LevelSpec("kruskal", 7, 7, keys=1, **changes)
    assert "candidates" not in str(caught.value)
    env = mg.MazeEnv("kruskal", 7, 7, keys=1)
    with pytest.raises((ValueError, TypeError), match=name) as caught:
        env.reset(seed=1, options=changes)
    assert "candidates" not in str(caught.value)


def reference(env, level):
    """What ``env`` showed after a reset to ``level`` before single envs made levels in batches of one:
    ``Batch.load`` of the ``Level`` of ``LevelSpec.make`` (its observation, mission and info)."""
    s = env.settings
    batch = Batch(1, rows=s.rows, columns=s.columns, view_size=s.view_size)
    batch.load(0, level)
    mission = s.mission(level)
    observation = batch.top_down()[0] if s.mode == "simple" else (batch.view()[0], int(batch.direction[0]), mission)
    return observation, mission, level_info(level)


@pytest.mark.parametrize("kwargs, lane", SPECS, ids=lambda v: str(v) if isinstance(v, dict) else "")
def test_a_single_env_reset_shows_the_level_of_make(monkeypatch, kwargs, lane):
    """reset's observation, mission, info (level seed and code) and ``env.level`` are those of ``LevelSpec.make``,
    whether the level was made in a batch of one (its Level made only when read) or one by one."""
    monkeypatch.setenv(compiled.MODE_VARIABLE, "1")
    spec = LevelSpec(**kwargs)
    for mode in ("minigrid", "simple"):
        env = mg.MazeEnv(**kwargs, mode=mode, warm_up=False)
        retried = 0
        for seed in SEEDS[:20]:
            obs, info = env.reset(seed=seed)
            expected = spec.make(seed)
            assert (env._level is None) == lane, seed  # a batched level's Level is not made by reset
            observation, mission, expected_info = reference(env, expected)
            assert info == expected_info and type(info["level_seed"]) is int, seed
            assert env.mission == mission
            if mode == "simple":
                assert np.array_equal(obs, observation), seed
            else:
                assert np.array_equal(obs["image"], observation[0]), seed
                assert (obs["direction"], obs["mission"]) == observation[1:], seed
            assert same(env.level, expected)
            retried += info["level_seed"] != seed
        if lane and spec.keys >= 2 and spec.width == 7:
            assert retried > 0  # seeds whose first candidate could not hold the keys were among them


def test_a_batched_level_code_replays_the_level(monkeypatch):
    """The code a reset gives without making its Level makes that level again (``level_code`` replay)."""
    monkeypatch.setenv(compiled.MODE_VARIABLE, "1")
    import mazeplugin as mp

    env = mg.MazeEnv("hunt-and-kill", 7, 7, keys=3, warm_up=False)
    replay = mg.MazeEnv("hunt-and-kill", 7, 7, keys=3, warm_up=False)
    for seed in range(12):
        obs, info = env.reset(seed=seed)
        assert env._level is None and info["level_code"].startswith("hunt-and-kill-7x7-")
        assert info["level_code"] == f"hunt-and-kill-7x7-{info['level_seed']}+k3"
        again, again_info = replay.reset(options={"level_code": info["level_code"]})
        assert np.array_equal(obs["image"], again["image"]) and again_info == info
        assert same(mp.level_from_code(info["level_code"]), env.level)


def test_reset_and_steps_do_not_make_the_level_until_it_is_read(monkeypatch):
    monkeypatch.setenv(compiled.MODE_VARIABLE, "1")
    from mazeplugin.gym.levels import LevelArrays

    made = []
    level = LevelArrays.level

    def spy(self, index):
        made.append(index)
        return level(self, index)

    monkeypatch.setattr(LevelArrays, "level", spy)
    env = mg.MazeEnv("backtracker", 9, 9, keys=2, render_mode="rgb_array", warm_up=False)
    assert env.level is None
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    env.reset(seed=4)
    actions = np.random.default_rng(0).integers(7, size=60).tolist()
    for action in actions:
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()
    picture = env.render()
    assert made == [] and picture is not None and picture.shape == (19 * 32, 19 * 32, 3)
    first = env.level
    assert made == [0] and env.level is first  # made once, when read, then kept
    env.reset(seed=5)
    assert made == [0] and env.level is not first and env.level.seed == LevelSpec("backtracker", 9, 9, keys=2).make(5).seed
    env.reset(options={"level_code": "kruskal-4x4-2"})  # a given level: its Level, kept as it is
    assert made == [0, 0] and env.level.algorithm == "kruskal" and env._made is None


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seeds=st.lists(st.integers(0, 2**63 - 1), min_size=1, max_size=6), keys=st.integers(0, 3),
       generator=st.sampled_from(["backtracker", "hunt-and-kill", "kruskal"]), size=st.integers(4, 10),
       corridor=st.sampled_from([1, 1, 2]))
@example(seeds=[1], keys=3, generator="hunt-and-kill", size=4, corridor=1)  # seed 1 has a level, seed 0 none
def test_any_single_env_reset_gives_the_info_and_view_of_make(monkeypatch, seeds, keys, generator, size, corridor):
    monkeypatch.setenv(compiled.MODE_VARIABLE, "1")
    spec = LevelSpec(generator, size, size, keys=keys, corridor=corridor)
    try:
        spec.make(0)  # the env's constructor makes seed 0's level to check its content fits at all
        expected = [spec.make(seed) for seed in seeds]
    except ValueError:  # a maze too small for the keys: the env raises what make raises
        with pytest.raises(ValueError, match="no level for seed"):
            env = mg.MazeEnv(generator, size, size, keys=keys, corridor=corridor, warm_up=False)
            for seed in seeds:
                env.reset(seed=seed)
        return
    env = mg.MazeEnv(generator, size, size, keys=keys, corridor=corridor, warm_up=False)
    for seed, level in zip(seeds, expected):
        obs, info = env.reset(seed=seed)
        observation, mission, expected_info = reference(env, level)
        assert info == expected_info and obs["mission"] == mission
        assert np.array_equal(obs["image"], observation[0])
    assert same(env.level, expected[-1])
