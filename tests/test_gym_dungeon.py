"""mazeplugin.gym plays dungeons (issue 33: "everything else a level has ... the gym envs"): generator="dungeon"
resets to mp.generate("dungeon", ...)'s level for each seed, in the single and the vector env."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import mazeplugin as mp  # noqa: E402
import mazeplugin.gym as mg  # noqa: E402
from mazeplugin.gym.levels import LevelSpec, candidate_seeds  # noqa: E402

DUNGEON = dict(generator="dungeon", width=24, height=24, rooms=8, options={"locks": 2, "pattern": "lock-and-key"},
               warm_up=False)


def made(seed):
    return mp.generate("dungeon", 24, 24, seed=seed, rooms=8, locks=2, pattern="lock-and-key")


@pytest.mark.parametrize("seed", [0, 5])
def test_a_reset_plays_the_level_generate_makes_for_its_seed(seed):
    env = mg.MazeEnv(mode="simple", **DUNGEON)
    obs, info = env.reset(seed=seed)
    level = made(seed)
    assert info == {"level_seed": seed, "level_code": mp.level_code(level)}
    assert env.level.tiles.tobytes() == level.tiles.tobytes()
    doors = {(t.x, t.y) for t in level.things if t.kind == "door"}
    keys = {(t.x, t.y) for t in level.things if t.kind == "key"}
    walls = {(x, y) for y, x in zip(*np.nonzero(level.tiles == 1))}
    assert {(x, y) for y, x in zip(*np.nonzero(obs[..., 0]))} == walls - doors  # wall channel: the tiles' walls
    assert {(x, y) for y, x in zip(*np.nonzero(obs[..., 3]))} == keys and len(keys) == 2
    assert {(x, y) for y, x in zip(*np.nonzero(obs[..., 4]))} == doors and len(doors) == 2
    assert [(x, y) for y, x in zip(*np.nonzero(obs[..., 1]))] == [level.entrance]
    assert [(x, y) for y, x in zip(*np.nonzero(obs[..., 2]))] == [level.exit]
    env.close()


def test_walking_the_levels_own_solution_picks_up_the_keys_opens_the_doors_and_ends_at_the_goal():
    env = mg.MazeEnv(mode="simple", **DUNGEON)
    env.reset(seed=2)
    path = made(2).solution()
    moves = {(0, -1): 0, (1, 0): 1, (0, 1): 2, (-1, 0): 3}
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        assert env.agent_pos == (x0, y0)
        _, reward, terminated, truncated, _ = env.step(moves[(x1 - x0, y1 - y0)])
        assert not truncated and terminated == ((x1, y1) == path[-1])
    assert terminated and reward > 0
    env.close()


def test_the_vector_env_plays_what_single_envs_play_and_seeds_repeat():
    vec = mg.MazeVectorEnv(3, **DUNGEON)
    obs, info = vec.reset(seed=[1, 4, 1])
    again, _ = mg.MazeVectorEnv(3, **DUNGEON).reset(seed=[1, 4, 1])
    assert np.array_equal(obs["image"], again["image"])
    assert info["level_seed"].tolist() == [1, 4, 1]
    for i, seed in enumerate((1, 4, 1)):
        single = mg.MazeEnv(**DUNGEON)
        one, one_info = single.reset(seed=seed)
        assert np.array_equal(obs["image"][i], one["image"]) and obs["mission"][i] == one["mission"]
        assert one_info == {"level_seed": seed, "level_code": mp.level_code(made(seed))}
        assert one["mission"] == mg.env.MISSION_KEYS
    vec.close()


def test_a_reset_may_switch_a_maze_env_to_dungeons_and_back():
    env = mg.MazeEnv("kruskal", 24, 24, warm_up=False)
    _, info = env.reset(seed=3, options={"generator": "dungeon", "rooms": 8,
                                         "options": {"locks": 2, "pattern": "lock-and-key"}})
    assert info["level_code"] == mp.level_code(made(3))
    _, info = env.reset(seed=3, options={"level_code": "dungeon-lock-and-key-24x24-5+r8k2"})
    assert env.level.tiles.tobytes() == made(5).tiles.tobytes()
    _, info = env.reset(seed=3)
    assert info["level_code"] == "kruskal-24x24-3"


def test_a_seed_whose_dungeon_does_not_fit_moves_on_to_its_next_candidate():
    spec = LevelSpec("dungeon", 10, 10, rooms=6, options={"pattern": "two-paths", "locks": 0})
    levels = [spec.make(seed) for seed in range(4)]
    moved = [seed for seed, level in zip(range(4), levels) if level.seed != seed]
    assert moved, "10x10 is tight for 6 rooms: some seed's mission does not fit"
    for level in levels:  # every level is generate's level for the seed it records
        again = mp.generate("dungeon", 10, 10, seed=level.seed, rooms=6, locks=0, pattern="two-paths")
        assert again.tiles.tobytes() == level.tiles.tobytes()
    assert candidate_seeds(moved[0]).index(levels[moved[0]].seed) > 0


@pytest.mark.parametrize("kwargs, message", [
    (dict(keys=2), r"takes no keys=2.*options=\{'locks': 2\}"),
    (dict(braid=0.5), r"takes no braid=0.5"),
    (dict(corridor=2), r"takes no corridor=2"),
    (dict(rooms=40, options={"locks": 7}), r"locks=7: the environments play at most 6 locks"),
    (dict(options={"bias": "north"}), r"'bias'.* not a dungeon's option"),
    (dict(options={"pattern": "maze"}), r"pattern must be one of"),
    (dict(rooms=2, options={"pattern": "hidden"}), r"rooms=2 is too few for pattern 'hidden'"),
    (dict(rooms=300), r"rooms must be from|rooms=300"),
    (dict(width=6, height=6, rooms=12), r"no level for seed 0 among 64 candidates: the mission .* cannot fit in "
                                        r"width=6, height=6"),
])
def test_what_a_dungeon_cannot_take_is_refused_naming_the_argument(kwargs, message):
    with pytest.raises(ValueError, match=message):
        mg.MazeEnv(**{**DUNGEON, "options": {}, "rooms": None, **kwargs})
