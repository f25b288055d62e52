"""mazeplugin.gym: Gymnasium environments, MiniGrid-compatible, batched, with curricula and splits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import mazeplugin as mp  # noqa: E402
import mazeplugin.gym as mg  # noqa: E402
from mazeplugin.gym.engine import LOCK_COLOURS, visible, visible_one  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


# -- MiniGrid itself, as the reference ---------------------------------------------------------


def minigrid_twin(env: mg.MazeEnv):
    """A real MiniGrid env holding the same level, agent and view as ``env`` (after its reset)."""
    minigrid = pytest.importorskip("minigrid")
    from minigrid.core.grid import Grid
    from minigrid.core.mission import MissionSpace
    from minigrid.core.world_object import Door, Goal, Key, Wall
    from minigrid.minigrid_env import MiniGridEnv

    colour_names = ["red", "green", "blue", "purple", "yellow", "grey"]
    level = env.unwrapped.level
    rows, columns = level.tiles.shape
    start, direction = env.unwrapped.agent_pos, env.unwrapped.agent_dir

    class Twin(MiniGridEnv):
        def __init__(self):
            super().__init__(
                mission_space=MissionSpace(mission_func=lambda: "twin"),
                width=columns + 2, height=rows + 2, max_steps=env.unwrapped.max_steps,
                agent_view_size=env.unwrapped.agent_view_size, see_through_walls=False,
            )

        def _gen_grid(self, width, height):
            # One more ring of wall: MiniGrid cannot look past its grid's edge, and our entrance is in the outer wall.
            self.grid = Grid(width, height)
            self.grid.wall_rect(0, 0, width, height)
            for y in range(rows):
                for x in range(columns):
                    if level.tiles[y, x] == mp.WALL:
                        self.grid.set(x + 1, y + 1, Wall())
            for thing in level.things:
                colour = colour_names[LOCK_COLOURS[thing.props["lock"] - 1]]
                if thing.kind == "key":
                    self.grid.set(thing.x + 1, thing.y + 1, Key(colour))
                elif thing.kind == "door":
                    for x, y in thing.tiles():
                        self.grid.set(x + 1, y + 1, Door(colour, is_locked=True))
            self.grid.set(level.exit[0] + 1, level.exit[1] + 1, Goal())
            self.agent_pos = (start[0] + 1, start[1] + 1)
            self.agent_dir = direction

    twin = Twin()
    twin.reset(seed=0)
    assert minigrid is not None
    return twin


def play_side_by_side(env, actions):
    twin = minigrid_twin(env)
    ours = env.unwrapped._observation()
    theirs = twin.gen_obs()
    assert np.array_equal(ours["image"], theirs["image"])
    for t, action in enumerate(actions):
        o, r, term, trunc, _ = env.step(int(action))
        to, tr, tterm, ttrunc, _ = twin.step(int(action))
        assert np.array_equal(o["image"], to["image"]), f"step {t}, action {action}"
        assert o["direction"] == to["direction"]
        assert (r, term, trunc) == pytest.approx((tr, tterm, ttrunc)), f"step {t}"
        assert env.unwrapped.agent_pos == tuple(int(v) - 1 for v in twin.agent_pos)
        if term or trunc:
            return t
    return len(actions)


@pytest.mark.parametrize("generator, size, keys, braid, view", [
    ("backtracker", 6, 2, 0.0, 7),
    ("kruskal", 7, 1, 0.4, 5),
    ("wilson", 5, 0, 1.0, 3),
])
def test_minigrid_mode_matches_minigrid_step_for_step(generator, size, keys, braid, view):
    """Random actions (biased to forward, pickup, toggle): the same views, rewards and ends as MiniGrid's own env."""
    env = mg.MazeEnv(generator, size, size, keys=keys, braid=braid, view_size=view, max_steps=300)
    rng = np.random.default_rng(1)
    for seed in range(3):
        env.reset(seed=seed)
        actions = rng.choice(7, size=300, p=[0.15, 0.15, 0.4, 0.1, 0.05, 0.1, 0.05])
        play_side_by_side(env, actions)


VECTORS = [(1, 0), (0, 1), (-1, 0), (0, -1)]  # MiniGrid's directions: east, south, west, north


def simple_moves(path):
    """A walk of 4-adjacent tiles as simple-mode moves (0 north, 1 east, 2 south, 3 west)."""
    return [[1, 2, 3, 0][VECTORS.index((b[0] - a[0], b[1] - a[1]))] for a, b in zip(path, path[1:])]


def passable(env):
    """Tiles the MiniGrid-mode agent may stand on now: floor and open doors (keys and locked doors block)."""
    batch = env.unwrapped._batch
    p = batch.pad
    cells = batch.grid[0, p:p + batch.rows, p:p + batch.columns]
    return (cells[..., 0] == 1) | ((cells[..., 0] == 4) & (cells[..., 2] == 0))


def shortest(free, start, goals):
    """A shortest 4-adjacent walk over ``free`` tiles from ``start`` to any of ``goals``, or None."""
    from collections import deque

    came = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here in goals:
            path = [here]
            while came[path[-1]] is not None:
                path.append(came[path[-1]])
            return path[::-1]
        for dx, dy in VECTORS:
            x, y = here[0] + dx, here[1] + dy
            if 0 <= y < free.shape[0] and 0 <= x < free.shape[1] and free[y, x] and (x, y) not in came:
                came[(x, y)] = here
                queue.append((x, y))
    return None


def face(env, direction):
    turns = (direction - env.unwrapped.agent_dir) % 4
    result = None
    for _ in range({0: 0, 1: 1, 2: 2, 3: 1}[turns]):
        result = env.step(0 if turns == 3 else 1)
    return result


def go_beside(env, target):
    """Walk to a tile beside ``target`` and face it."""
    free = passable(env)
    beside = {(target[0] - dx, target[1] - dy) for dx, dy in VECTORS}
    path = shortest(free, env.unwrapped.agent_pos, beside)
    assert path is not None, f"no way to {target}"
    for a, b in zip(path, path[1:]):
        face(env, VECTORS.index((b[0] - a[0], b[1] - a[1])))
        env.step(2)
    here = env.unwrapped.agent_pos
    return face(env, VECTORS.index((target[0] - here[0], target[1] - here[1])))


def drop_out_of_the_way(env, still_to_reach):
    """Drop the key held on a floor tile beside the agent where it blocks no way to ``still_to_reach``."""
    here = env.unwrapped.agent_pos
    for direction, (dx, dy) in enumerate(VECTORS):
        spot = (here[0] + dx, here[1] + dy)
        free = passable(env)
        if not free[spot[1], spot[0]]:
            continue
        batch = env.unwrapped._batch
        cells = batch.grid[0, batch.pad:batch.pad + batch.rows, batch.pad:batch.pad + batch.columns]
        free |= cells[..., 0] == 4  # doors will open
        free[spot[1], spot[0]] = False
        reach = all(
            shortest(free, here, {(t[0] - vx, t[1] - vy) for vx, vy in VECTORS}) is not None for t in still_to_reach
        )
        if reach:
            face(env, direction)
            env.step(4)
            assert env.unwrapped._batch.carrying[0] < 0
            return
    raise AssertionError("no place to drop the key")


def walk_solution(env):
    """Solve the level: simple mode walks ``level.solution()``; MiniGrid mode fetches each key and toggles its door."""
    level = env.unwrapped.level
    if env.unwrapped.settings.mode == "simple":
        result = None
        for move in simple_moves(level.solution()):
            result = env.step(move)
        return result
    keys = {t.props["lock"]: t for t in level.things if t.kind == "key"}
    doors = sorted((t for t in level.things if t.kind == "door"), key=lambda t: t.props["lock"])
    where = {lock: key.tile for lock, key in keys.items()}
    carrying = None
    for n, door in enumerate(doors):
        lock = door.props["lock"]
        if carrying != lock:
            if carrying is not None:
                drop_out_of_the_way(env, [where[d.props["lock"]] for d in doors[n:]] + [door.tile, level.exit])
                here, vector = env.unwrapped.agent_pos, VECTORS[env.unwrapped.agent_dir]
                where[carrying] = (here[0] + vector[0], here[1] + vector[1])
            go_beside(env, where[lock])
            env.step(3)
            carrying = lock
            assert env.unwrapped._batch.carrying[0] == LOCK_COLOURS[lock - 1], "the key was not picked up"
        go_beside(env, door.tile)
        env.step(5)
    go_beside(env, level.exit)
    return env.step(2)


class Lockstep(gymnasium.Wrapper):
    """Steps MiniGrid's twin with every action and checks both see and score the same."""

    def __init__(self, env):
        super().__init__(env)
        self.twin = minigrid_twin(env)
        self.events = set()

    def step(self, action):
        carried = self.env.unwrapped._batch.carrying[0]
        states = self.env.unwrapped._batch.grid[0, ..., 2].copy()
        o, r, te, tr, info = self.env.step(action)
        to, t_r, t_te, t_tr, _ = self.twin.step(int(action))
        assert np.array_equal(o["image"], to["image"]) and o["direction"] == to["direction"]
        assert (r, te, tr) == pytest.approx((t_r, t_te, t_tr))
        now = self.env.unwrapped._batch
        self.events |= {name for name, happened in [
            ("pickup", carried < 0 <= now.carrying[0]), ("drop", now.carrying[0] < 0 <= carried),
            ("door", (states != now.grid[0, ..., 2]).any()), ("goal", te),
        ] if happened}
        return o, r, te, tr, info


def test_minigrid_mode_matches_minigrid_through_keys_doors_and_the_goal():
    """Solving key levels in lockstep with MiniGrid: picking up, dropping, unlocking and the goal's reward agree."""
    events = set()
    for seed in range(3):
        env = mg.MazeEnv("backtracker", 7, 7, keys=2, max_steps=2000)
        env.reset(seed=seed)
        both = Lockstep(env)
        *_, terminated, truncated, _ = walk_solution(both)
        assert terminated
        events |= both.events
    assert events == {"pickup", "drop", "door", "goal"}


@pytest.mark.parametrize("env_id", list(mg.IDS))
def test_every_level_is_solved_by_its_solution_in_actions(env_id):
    """The solution of ``level.solution()``, turned into actions, reaches the goal: reward > 0, terminated."""
    env = gymnasium.make(env_id, max_steps=5000)
    for seed in range(4):
        env.reset(seed=seed)
        obs, reward, terminated, truncated, info = walk_solution(env)
        assert terminated and not truncated and reward > 0.5 and info["is_success"]


def test_check_env_passes_for_every_id_and_both_modes():
    for env_id in mg.IDS:
        for mode in mg.MODES:
            env = gymnasium.make(env_id, mode=mode, render_mode="rgb_array").unwrapped
            check_env(env, skip_render_check=False)
            env.close()


def test_a_door_opens_only_with_its_own_key():
    env = mg.MazeEnv("backtracker", 9, 9, keys=2)
    env.reset(seed=4)
    level = env.level
    door = next(t for t in level.things if t.kind == "door" and t.props["lock"] == 1)
    batch = env._batch
    p = batch.pad
    dx, dy = door.x, door.y
    # Stand beside the door (on the floor tile the solution comes from), facing it.
    path = level.solution()
    before = path[path.index(door.tile) - 1]
    facing = [(1, 0), (0, 1), (-1, 0), (0, -1)].index((dx - before[0], dy - before[1]))
    batch.position[0] = (before[1] + p, before[0] + p)
    batch.direction[0] = facing
    blocked = env.step(mg.Actions.forward)
    assert env.agent_pos == before, "walked through a locked door"
    env.step(mg.Actions.toggle)
    assert batch.grid[0, dy + p, dx + p, 2] == 2, "opened without a key"
    batch.carrying[0] = LOCK_COLOURS[1]  # the other lock's key
    env.step(mg.Actions.toggle)
    assert batch.grid[0, dy + p, dx + p, 2] == 2, "opened with the wrong key"
    batch.carrying[0] = LOCK_COLOURS[0]
    env.step(mg.Actions.toggle)
    assert batch.grid[0, dy + p, dx + p, 2] == 0, "its key did not open it"
    env.step(mg.Actions.forward)
    assert env.agent_pos == (dx, dy)
    assert blocked[0]["image"][env.agent_view_size // 2, env.agent_view_size - 2, 0] == 4  # the door, ahead


def top_down_reference(env):
    """The simple mode's observation, written out channel by channel from the level and what happened."""
    level, batch = env.level, env._batch
    p = batch.pad
    cells = batch.grid[0, p:p + batch.rows, p:p + batch.columns]
    out = np.zeros(level.tiles.shape + (6,), dtype=np.uint8)
    out[..., 0] = level.tiles == mp.WALL
    out[env.agent_pos[1], env.agent_pos[0], 1] = 1
    out[level.exit[1], level.exit[0], 2] = 1
    for thing in level.things:
        colour = LOCK_COLOURS[thing.props["lock"] - 1]
        held = (int(batch.held[0]) >> colour) & 1
        for x, y in thing.tiles():
            if thing.kind == "key" and cells[y, x, 0] == 5:
                out[y, x, 3] = 1
            if thing.kind == "door" and cells[y, x, 2] != 0:
                out[y, x, 5 if held else 4] = 1
    return out


def test_simple_mode_keys_are_picked_up_by_walking_and_open_their_doors():
    env = mg.MazeEnv("backtracker", 9, 9, keys=2, mode="simple")
    obs, _ = env.reset(seed=2)
    level = env.level
    keys = [t for t in level.things if t.kind == "key"]
    doors = [t for t in level.things if t.kind == "door"]
    assert all(obs[k.y, k.x, 3] == 1 for k in keys) and all(obs[d.y, d.x, 4] == 1 for d in doors)
    held_door_seen = False
    for move in simple_moves(level.solution()):
        obs, reward, terminated, truncated, _ = env.step(move)
        assert np.array_equal(obs, top_down_reference(env))
        held_door_seen |= bool(obs[..., 5].any())
    assert terminated and held_door_seen
    assert all(obs[k.y, k.x, 3] == 0 for k in keys) and obs[..., 4:].sum() == 0


def test_minigrid_wrappers_run_unchanged():
    pytest.importorskip("minigrid")
    from minigrid.wrappers import FlatObsWrapper, ImgObsWrapper, RGBImgObsWrapper
    from minigrid.wrappers import ActionBonus, PositionBonus

    for wrapper, check in [
        (ImgObsWrapper, lambda o: o.shape == (7, 7, 3)),
        (FlatObsWrapper, lambda o: o.shape == (7 * 7 * 3 + 28 * 96,)),
        (RGBImgObsWrapper, lambda o: o["image"].shape == (19 * 8, 19 * 8, 3)),
        (ActionBonus, lambda o: o["image"].shape == (7, 7, 3)),
        (PositionBonus, lambda o: o["image"].shape == (7, 7, 3)),
    ]:
        env = wrapper(gymnasium.make("mazeplugin/MazeKeys-v0"))
        obs, _ = env.reset(seed=1)
        assert check(obs), wrapper.__name__
        assert env.observation_space.contains(obs), wrapper.__name__
        for action in [2, 1, 2, 2, 0, 5, 3]:
            obs, *_ = env.step(action)
        assert check(obs) and env.observation_space.contains(obs), wrapper.__name__


@pytest.mark.parametrize("n", [6, 64])  # 64 envs and more step in the compiled pass (with numba)
def test_vector_env_equals_n_single_envs_with_autoreset(n):
    """Same seeds, same actions: identical observations, rewards and ends, across autoresets (small max_steps)."""
    kwargs = dict(generator="backtracker", width=4, height=3, keys=1, max_steps=25)
    vec = mg.MazeVectorEnv(n, **kwargs)
    singles = [mg.MazeEnv(**kwargs) for _ in range(n)]
    obs, _ = vec.reset(seed=10)
    single_obs = [env.reset(seed=10 + i)[0] for i, env in enumerate(singles)]
    for i in range(n):
        assert np.array_equal(obs["image"][i], single_obs[i]["image"])
    for i in range(0, n, 3):  # some episodes 7 steps older on both sides: they end, and reset, at other steps
        vec._batch.steps[i] += 7
        singles[i]._batch.steps[0] += 7
    rng = np.random.default_rng(0)
    done = np.zeros(n, dtype=bool)
    episodes = some = 0
    for t in range(120):
        actions = rng.choice(7, size=n, p=[0.2, 0.2, 0.4, 0.1, 0.02, 0.06, 0.02])
        some += 0 < done.sum() < n  # a step where some envs reset and the others step
        obs, reward, terminated, truncated, _ = vec.step(actions)
        for i, env in enumerate(singles):
            if done[i]:
                o, _ = env.reset()
                r, te, tr = 0.0, False, False
                episodes += 1
            else:
                o, r, te, tr, _ = env.step(int(actions[i]))
            assert np.array_equal(obs["image"][i], o["image"]), (t, i)
            assert obs["direction"][i] == o["direction"] and obs["mission"][i] == o["mission"]
            assert (reward[i], terminated[i], truncated[i]) == (r, te, tr), (t, i)
            done[i] = te or tr
    assert episodes >= n and some  # every env went through at least one autoreset, not all at once


def test_vector_simple_mode_equals_single_envs():
    n = 3
    vec = mg.MazeVectorEnv(n, "kruskal", 4, 4, mode="simple", keys=1, max_steps=30)
    singles = [mg.MazeEnv("kruskal", 4, 4, mode="simple", keys=1, max_steps=30) for _ in range(n)]
    obs, _ = vec.reset(seed=[5, 9, 2])
    assert all(np.array_equal(obs[i], s.reset(seed=seed)[0]) for i, (s, seed) in enumerate(zip(singles, [5, 9, 2])))
    rng = np.random.default_rng(3)
    done = [False] * n
    for _ in range(80):
        actions = rng.integers(4, size=n)
        obs, reward, terminated, truncated, _ = vec.step(actions)
        for i, env in enumerate(singles):
            o, r, te, tr = (*env.reset()[:1], 0.0, False, False) if done[i] else env.step(int(actions[i]))[:4]
            assert np.array_equal(obs[i], o) and (reward[i], terminated[i], truncated[i]) == (r, te, tr)
            done[i] = te or tr


@pytest.mark.parametrize("n", [1, 6, 64])  # a single env; the numpy rules; the compiled step (with numba)
def test_observations_kept_by_the_caller_never_change_on_later_steps(n):
    """Each step returns new observation arrays: an agent's replay buffer may keep them without copying."""
    kwargs = dict(generator="backtracker", width=4, height=4, keys=1, max_steps=15)
    env = mg.MazeEnv(**kwargs) if n == 1 else mg.MazeVectorEnv(n, **kwargs)
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(1)
    kept = [(obs, {key: np.array(value, copy=True) for key, value in obs.items() if key != "mission"})]
    for _ in range(40):  # turns, bumps, moves, keys and autoresets (max_steps 15)
        action = int(rng.integers(7)) if n == 1 else rng.integers(7, size=n)
        obs, reward, terminated, truncated, info = env.step(action)
        if n == 1 and (terminated or truncated):
            obs, info = env.reset()
        for key in ("image", "direction"):
            assert all(not np.shares_memory(obs[key], old[key]) for old, _ in kept[-3:] if isinstance(old[key], np.ndarray))
        kept.append((obs, {key: np.array(value, copy=True) for key, value in obs.items() if key != "mission"}))
    for old, copied in kept:
        assert np.array_equal(old["image"], copied["image"]) and np.array_equal(old["direction"], copied["direction"])
    assert len({copied["image"].tobytes() for _, copied in kept}) > 5  # the views did change


def test_make_vec_vector_entry_point_gives_the_batched_env():
    envs = gymnasium.make_vec("mazeplugin/Maze-v0", num_envs=8, vectorization_mode="vector_entry_point", width=5, height=5)
    assert isinstance(envs.unwrapped, mg.MazeVectorEnv) and envs.num_envs == 8
    obs, info = envs.reset(seed=3)
    assert obs["image"].shape == (8, 7, 7, 3) and envs.observation_space.contains(obs)
    obs, *_ = envs.step(envs.action_space.sample())
    assert envs.observation_space.contains(obs)
    assert info["level_seed"].tolist() == list(range(3, 11))


def test_views_see_like_minigrid_process_vis():
    """The batched visibility equals the per-view one and MiniGrid's Grid.process_vis on random walls."""
    pytest.importorskip("minigrid")
    from minigrid.core.grid import Grid
    from minigrid.core.world_object import Wall

    rng = np.random.default_rng(5)
    for size in (3, 5, 7, 9):
        see = rng.random((40, size, size)) < 0.6
        batched = visible(see)
        for k in range(len(see)):
            assert np.array_equal(batched[k], visible_one(see[k]))
            grid = Grid(size, size)
            for y, x in zip(*np.nonzero(~see[k])):
                grid.set(int(x), int(y), Wall())
            theirs = grid.process_vis((size // 2, size - 1))
            assert np.array_equal(batched[k], theirs.T)


SAME_PROCESS = r"""
import json, sys, gymnasium, numpy as np
import mazeplugin.gym
env = gymnasium.make("mazeplugin/MazeKeys-v0", width=6, height=6, warm_up=False)  # no numba: a quick process
out = []
for seed in (0, 17):
    obs, info = env.reset(seed=seed)
    out.append([obs["image"].tolist(), info["level_code"]])
    for action in [2, 2, 1, 2, 5, 3, 0, 2, 2, 2]:
        obs, reward, *_ = env.step(action)
        out.append([obs["image"].tolist(), reward])
obs, info = env.reset()
out.append([obs["image"].tolist(), info["level_seed"]])
print(json.dumps(out))
"""


def test_same_seed_same_observations_in_another_process():
    """A fresh process (another hash seed) sees the very same observations and rewards as this one."""
    import contextlib
    import io

    here = io.StringIO()
    with contextlib.redirect_stdout(here):
        exec(SAME_PROCESS, {"__name__": "same"})
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="random")
    there = subprocess.run([sys.executable, "-c", SAME_PROCESS], env=env, capture_output=True, text=True, timeout=120, check=True).stdout
    assert here.getvalue() == there
    assert json.loads(there)[0][1].startswith("backtracker-6x6-") and len(json.loads(there)) == 23


def test_import_mazeplugin_does_not_import_gymnasium():
    code = "import sys, mazeplugin; mazeplugin.generate('kruskal', 3, 3, seed=1); print('gymnasium' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "False"


@pytest.mark.parametrize("kwargs, name", [
    ({"generator": "nope"}, "generator"),
    ({"width": 0}, "width"),
    ({"height": -3}, "height"),
    ({"view_size": 4}, "view_size"),
    ({"view_size": 1}, "view_size"),
    ({"render_mode": "ascii"}, "render_mode"),
    ({"mode": "pixels"}, "mode"),
    ({"keys": 7}, "keys"),
    ({"max_steps": 0}, "max_steps"),
    ({"seeds": []}, "seeds"),
    ({"tile_size": 0}, "tile_size"),
    ({"look": "neon"}, "look"),
])
def test_bad_arguments_give_one_clear_error_naming_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=name):
        mg.MazeEnv(**kwargs)
    with pytest.raises(ValueError, match=name):
        gymnasium.make("mazeplugin/Maze-v0", **kwargs)


def test_bad_reset_options_and_actions_are_refused_clearly():
    env = mg.MazeEnv("kruskal", 5, 5)
    with pytest.raises(ValueError, match="unknown reset option 'colour'"):
        env.reset(options={"colour": 1})
    with pytest.raises(ValueError, match="width=9"):
        env.reset(options={"width": 9})
    env.reset(seed=1)
    with pytest.raises(ValueError, match="action must be one of 0..6"):
        env.step(9)
    vec = mg.MazeVectorEnv(2, "kruskal", 5, 5)
    vec.reset(seed=0)
    with pytest.raises(ValueError, match="actions must be 2 whole numbers"):
        vec.step(np.array([1, 2, 3]))


def test_reset_options_change_the_level_and_a_level_code_replays_it():
    env = mg.MazeEnv("backtracker", 9, 9, keys=2)
    obs, info = env.reset(seed=5, options={"generator": "kruskal", "width": 5, "height": 4, "keys": 1})
    assert env.level.algorithm == "kruskal" and env.level.tiles.shape == (9, 11)
    code = info["level_code"]
    replay = mg.MazeEnv("backtracker", 9, 9, keys=2)
    obs2, info2 = replay.reset(options={"level_code": code})
    assert np.array_equal(obs["image"], obs2["image"]) and info2["level_code"] == code
    assert np.array_equal(env.level.tiles, mp.level_from_code(code).tiles)
    vec = mg.MazeVectorEnv(2, "backtracker", 9, 9)
    obs, info = vec.reset(options={"level_code": "prim-5x5-castle"})
    assert info["level_seed"].tolist() == [-1, -1] and np.array_equal(obs["image"][0], obs["image"][1])


def test_seeds_draw_every_level_from_the_split():
    env = mg.MazeEnv("kruskal", 5, 5, seeds=range(100, 110))
    got = set()
    for seed in range(30):
        got.add(env.reset(seed=seed if seed == 0 else None)[1]["level_seed"])
    assert got <= set(range(100, 110)) and len(got) > 3


def test_seeds_may_be_a_numpy_array_of_whole_numbers_and_draw_as_the_list():
    listed = mg.MazeEnv("kruskal", 5, 5, seeds=[100, 104, 108])
    arrayed = mg.MazeEnv("kruskal", 5, 5, seeds=np.array([100, 104, 108], dtype=np.int32))
    for seed in range(5):
        assert listed.reset(seed=seed)[1] == arrayed.reset(seed=seed)[1]
    for bad in (np.array([[1, 2]]), np.array([1.0, 2.0])):
        with pytest.raises(ValueError, match="seeds as an array must be 1-D whole numbers"):
            mg.MazeEnv("kruskal", 5, 5, seeds=bad)
    with pytest.raises(ValueError, match="seeds must hold whole numbers >= 0"):
        mg.MazeEnv("kruskal", 5, 5, seeds=np.array([3, -1]))


def test_seed_split_test_levels_are_never_training_levels():
    spec = mg.LevelSpec("kruskal", 2, 3)
    split = mg.SeedSplit(train=range(0, 300), test=range(1000, 1100))
    clean = split.test_seeds(spec)
    train = {mg.level_digest(spec.make(s)) for s in split.train}
    assert all(mg.level_digest(spec.make(s)) not in train for s in clean)
    assert len(clean) < len(split.test)  # 2 x 3 mazes repeat: some test seeds were dropped
    assert 0 < mg.duplicate_rate(spec, range(200)) < 1


def test_curriculum_moves_up_on_success_and_down_on_failure():
    c = mg.Curriculum.by_difficulty(sizes=(4, 6), keys=(0, 1), decision_points=(None, 3), window=3, demote_at=0.2)
    assert [s["width"] for s in c.stages] == [4, 4, 6, 6] and c.stages[2]["require"] == {"decision_points": (3, None)}
    for _ in range(3):
        c.record(True)
    assert c.stage == 1
    for _ in range(3):
        c.record(False)
    assert c.stage == 0
    env = mg.CurriculumWrapper(mg.MazeEnv("backtracker", 6, 6, max_steps=2000), mg.Curriculum.by_difficulty(sizes=(3, 6), keys=(0,), window=2))
    for seed in range(2):
        env.reset(seed=seed)
        assert env.unwrapped.level.width == 3
        walk_solution(env)
    _, info = env.reset(seed=9)
    assert info["curriculum_stage"] == 1 and env.unwrapped.level.width == 6
    hard = mg.CurriculumWrapper(mg.MazeEnv("backtracker", 9, 9), mg.Curriculum([{"require": {"decision_points": (6, None)}}]))
    for seed in range(3):
        hard.reset(seed=seed)
        assert hard.unwrapped.level.stats().decision_points >= 6  # the stage's measured difficulty holds


def test_a_curriculum_stage_the_env_cannot_play_is_refused_when_wrapped():
    """Not hours into training when the agent reaches it: the stage's number and the argument are named."""
    env = mg.MazeEnv("backtracker", 6, 6)
    stages = [{"width": 4, "height": 4}, {"width": 9, "height": 9}]
    with pytest.raises(ValueError, match=r"curriculum stage 1 .*more than the environment's"):
        mg.CurriculumWrapper(env, mg.Curriculum(stages))
    with pytest.raises(ValueError, match=r"curriculum stage 0 .*braid must be"):
        mg.CurriculumWrapper(env, mg.Curriculum([{"braid": 2}]))
    with pytest.raises(ValueError, match=r"curriculum stage 0 .*unknown reset option 'size'"):
        mg.CurriculumWrapper(env, mg.Curriculum([{"size": 4}]))
    with pytest.raises(TypeError, match="curriculum must be a Curriculum"):
        mg.CurriculumWrapper(env, [{"width": 4}])  # type: ignore[arg-type]


def test_rgb_array_frames_show_the_level_headless():
    env = gymnasium.make("mazeplugin/MazeKeys-v0", render_mode="rgb_array", tile_size=8)
    env.reset(seed=2)
    picture = env.render()
    level = env.unwrapped.level
    assert picture.shape == (19 * 8, 19 * 8, 3) and picture.dtype == np.uint8
    seen = env.unwrapped._batch.seen(0)
    for lit, colour in ((False, [100, 100, 100]), (True, [146, 146, 146])):  # walls, and walls the agent sees (lightened)
        ys, xs = np.nonzero((level.tiles == mp.WALL) & (seen == lit))
        assert len(ys) and (picture[ys * 8 + 4, xs * 8 + 4] == colour).all()
    ex, ey = level.exit
    assert picture[ey * 8 + 4, ex * 8 + 4].tolist() == [0, 255, 0]  # the goal, green
    ax, ay = env.unwrapped.agent_pos
    assert picture[ay * 8 + 4, ax * 8 + 3].tolist() == [255, 0, 0]  # the agent, red
    own = gymnasium.make("mazeplugin/Maze-v0", render_mode="rgb_array", look="mazeplugin", tile_size=4)
    own.reset(seed=1)
    import mazeplugin.pg as mpg

    unseen_floor = (own.unwrapped.level.tiles == mp.FLOOR) & ~own.unwrapped._batch.seen(0)
    ex, ey = own.unwrapped.level.exit
    assert own.render()[ey * 4, ex * 4].tolist() == list(mpg.DEFAULT_PALETTE.exit)
    unseen_floor[ey, ex] = False
    fy, fx = np.argwhere(unseen_floor)[-1]
    assert own.render()[fy * 4, fx * 4].tolist() == list(mpg.DEFAULT_PALETTE.floor)


def test_human_render_opens_a_window_under_the_dummy_driver():
    env = gymnasium.make("mazeplugin/Maze-v0", render_mode="human")
    env.reset(seed=0)
    env.step(2)
    assert env.unwrapped._window is not None
    env.close()
    assert env.unwrapped._window is None


def test_compiled_batched_view_equals_the_numpy_one():
    """With numba, batches of 64+ take the compiled view: the same views as the numpy arrays' on random states."""
    from mazeplugin.gym.kernels import view_kernel

    if view_kernel() is None:
        pytest.skip("numba is not installed (or MAZEPLUGIN_COMPILED=0)")
    vec = mg.MazeVectorEnv(96, "backtracker", 6, 6, keys=2, view_size=5)
    vec.reset(seed=0)
    batch = vec._batch
    rng = np.random.default_rng(7)
    for round_ in range(3):
        for k in range(batch.n):
            floor = np.argwhere((batch.grid[k, ..., 0] == 1) | (batch.grid[k, ..., 0] == 4))
            batch.position[k] = floor[rng.integers(len(floor))]
        batch.direction[:] = rng.integers(4, size=batch.n)
        batch.carrying[:] = np.where(rng.random(batch.n) < 0.4, rng.integers(6, size=batch.n), -1)
        doors = batch.grid[..., 0] == 4
        batch.grid[..., 2][doors] = rng.choice([0, 1, 2], size=int(doors.sum()))
        compiled = batch.view().copy()
        batch.compiled = False
        plain = batch.view()
        batch.compiled = True
        assert np.array_equal(compiled, plain), round_
    # A single env's view: the kernel (once built) and the plain-Python one.
    env = mg.MazeEnv("backtracker", 6, 6, keys=2)
    env.reset(seed=1)
    one = env._batch
    for _ in range(200):
        floor = np.argwhere(one.grid[0, ..., 0] == 1)
        one.position[0] = floor[rng.integers(len(floor))]
        one.direction[0] = rng.integers(4)
        one.carrying[0] = rng.integers(-1, 6)
        assert np.array_equal(one.view(), one._view_one())


ASYNC = r"""
import gymnasium, numpy as np, mazeplugin.gym
envs = gymnasium.make_vec("mazeplugin/MazeKeys-v0", num_envs=2, vectorization_mode="async", width=5, height=5)
obs, info = envs.reset(seed=1)
obs, *_ = envs.step(np.array([2, 1]))
envs.close()
print(obs["image"].shape)
"""


def test_async_vector_env_works_after_an_env_was_made_in_the_parent():
    """gymnasium's AsyncVectorEnv builds an env in the parent, then forks: no loading thread may be running then."""
    done = subprocess.run([sys.executable, "-c", ASYNC], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().startswith("(2, 7, 7, 3)")


FORKED_MID_BUILD = r"""
import os, numpy as np
import mazeplugin.gym as mg
from mazeplugin import _compiled
from mazeplugin.gym import kernels
_compiled.FORK_WAIT = 0.05
_compiled._watch_forks()  # as a load that has started has done (the fork handlers are registered then)
_compiled._STATE.lock.acquire()  # as if the loader were building the kernels for longer than a fork waits
pid = os.fork()
if pid == 0:
    ok = kernels.step_kernel(wait=True) is None  # waiting for a build no thread will finish would hang
    envs = mg.MazeVectorEnv(64, "kruskal", 5, 5, keys=1)
    envs.reset(seed=3)
    obs, reward, *_ = envs.step(np.full(64, 2))
    ok = ok and obs["image"].shape == (64, 7, 7, 3)
    os._exit(0 if ok else 1)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX-only")
def test_a_process_forked_while_the_step_kernel_builds_steps_on_the_numpy_path():
    """A 64-env batch waits for the compiled step; in a child forked mid-build it must not wait for the lost thread."""
    done = subprocess.run([sys.executable, "-c", FORKED_MID_BUILD], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=300)  # a hang guard, not a speed bound
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "0"


def test_compiled_step_with_view_equals_the_numpy_rules_then_view():
    """Batches of 64+ step and look in one compiled pass: the same rewards, ends, grids (keys, doors) and views as numpy's."""
    import copy

    from mazeplugin.gym.kernels import step_kernel

    if step_kernel() is None:
        pytest.skip("numba is not installed (or MAZEPLUGIN_COMPILED=0)")
    rng = np.random.default_rng(11)
    doors_changed = picked = 0
    # Levels read sight from bit lines (16-bit up to 16 tiles, 32-bit up to 32, 64-bit up to 64), larger ones
    # tile by tile; views up to 7 wide spread sight along a row by table, wider ones compute it.
    for view_size, cells, rounds in ((3, 4, 40), (7, 4, 40), (9, 4, 20), (7, 7, 10), (7, 8, 10), (7, 20, 6), (5, 33, 4)):
        vec = mg.MazeVectorEnv(128, "backtracker", cells, cells, keys=2, view_size=view_size, max_steps=30)
        vec.reset(seed=3)
        fast = vec._batch
        for round_ in range(rounds):
            # Put agents beside doors and keys often, holding a random key or none.
            for k in range(fast.n):
                kinds = fast.grid[k, ..., 0]
                targets = np.argwhere((kinds == 4) | (kinds == 5)) if rng.random() < 0.6 else np.argwhere(kinds == 1)
                ty, tx = targets[rng.integers(len(targets))] if len(targets) else np.argwhere(kinds == 1)[0]
                d = int(rng.integers(4))
                dx, dy = [(1, 0), (0, 1), (-1, 0), (0, -1)][d]
                if kinds[ty - dy, tx - dx] in (1, 8):
                    fast.position[k] = (ty - dy, tx - dx)
                    fast.direction[k] = d
            fast.carrying[:] = np.where(rng.random(fast.n) < 0.5, rng.choice(LOCK_COLOURS[:2], size=fast.n), -1)
            plain = copy.deepcopy(fast)
            plain.compiled = False
            action = rng.choice(7, size=fast.n, p=[0.1, 0.1, 0.2, 0.2, 0.1, 0.3, 0.0])
            before = fast.grid.copy()
            reward, terminated, truncated, image = fast.step_minigrid_view(action, 30)
            want = plain.step_minigrid(action, 30)
            assert np.array_equal(image, plain.view()), (view_size, round_)
            lines = fast._levels[5]  # the bit lines
            tiles = 2 * cells + 1
            assert lines.shape[1] == (0 if tiles > 64 else 4 * tiles)
            assert lines.dtype.itemsize == (2 if tiles <= 16 else 4 if tiles <= 32 else 8)
            for got, expected in zip((reward, terminated, truncated), want):
                assert np.array_equal(got, expected)
            assert np.array_equal(fast.grid, plain.grid)
            for name in ("position", "direction", "carrying", "steps"):
                assert np.array_equal(getattr(fast, name), getattr(plain, name)), name
            doors_changed += int(np.count_nonzero((before[..., 0] == 4) & (before[..., 2] != fast.grid[..., 2])))
            picked += int(np.count_nonzero((before[..., 0] == 5) & (fast.grid[..., 0] != 5)))
    assert doors_changed > 0 and picked > 0  # the rounds did unlock, open, close doors and pick up keys


def test_a_locked_door_toggled_without_its_key_stays_locked_in_a_batch():
    """Batched rules as MiniGrid's and the single env's: toggling a locked door without its key changes nothing."""
    vec = mg.MazeVectorEnv(2, "backtracker", 6, 6, keys=1)
    vec.reset(seed=0)
    batch = vec._batch
    doors = np.argwhere(batch.grid[0, ..., 0] == 4)
    y, x = doors[0]
    batch.grid[0, ..., 2][batch.grid[0, ..., 0] == 4] = 0  # every door of the level open ...
    batch.grid[0, y, x, 2] = 2  # ... but this tile locked
    kinds = batch.grid[0, ..., 0]
    for d, (dx, dy) in enumerate([(1, 0), (0, 1), (-1, 0), (0, -1)]):
        if kinds[y - dy, x - dx] == 1:
            batch.position[0], batch.direction[0] = (y - dy, x - dx), d
            break
    batch.carrying[0] = -1
    before = batch.grid.copy()
    batch.step_minigrid(np.array([5, 6]), 100)
    assert np.array_equal(batch.grid, before)



def test_compiled_views_kept_between_steps_equal_views_looked_again():
    """The compiled step copies an env's last view when nothing it sees from changed: over long random walks (turns,
    bumps, keys taken and dropped, doors toggled, agents moved from outside) every view equals the numpy one."""
    from mazeplugin.gym.kernels import step_kernel

    if step_kernel() is None:
        pytest.skip("numba is not installed (or MAZEPLUGIN_COMPILED=0)")
    rng = np.random.default_rng(5)
    vec = mg.MazeVectorEnv(96, "backtracker", 4, 4, keys=2, max_steps=10_000)
    vec.reset(seed=8)
    batch = vec._batch
    kept = changed = 0
    for step in range(300):
        if step % 50 == 49:  # moved and handed keys from outside the step: the kept views must not be used
            batch.direction[:] = (batch.direction + 1) % 4
            batch.carrying[:] = np.where(rng.random(batch.n) < 0.3, LOCK_COLOURS[0], -1)
        before = batch.view().copy()
        action = rng.choice(7, size=batch.n, p=[0.1, 0.1, 0.2, 0.2, 0.15, 0.2, 0.05])
        fused = batch.step_minigrid_view(action, 10_000)
        assert fused is not None
        batch.compiled = False
        looked = batch.view()  # numpy's view of the same state
        batch.compiled = True
        assert np.array_equal(fused[3], looked), step
        same = np.all(looked == before, axis=(1, 2, 3))
        kept += int(np.count_nonzero(same))
        changed += int(np.count_nonzero(~same))
    assert kept > 1000 and changed > 1000  # both paths ran often


class Twin(gymnasium.Wrapper):
    """Steps a twin env with every action and checks both see, score and change the level the same."""

    def __init__(self, env, twin):
        super().__init__(env)
        self.twin = twin

    def step(self, action):
        o, r, te, tr, info = self.env.step(action)
        to, t_r, t_te, t_tr, _ = self.twin.step(int(action))
        assert np.array_equal(o["image"], to["image"]) and o["direction"] == to["direction"]
        assert (r, te, tr) == (t_r, t_te, t_tr)
        assert np.array_equal(self.env.unwrapped._batch.grid, self.twin._batch.grid)
        return o, r, te, tr, info


def test_single_env_compiled_step_equals_the_plain_one():
    """A single env steps in the compiled pass once it is built: the same observations, rewards and ends as the Python step."""
    from mazeplugin.gym.kernels import step_kernel

    if step_kernel() is None:
        pytest.skip("numba is not installed (or MAZEPLUGIN_COMPILED=0)")
    kwargs = dict(generator="backtracker", width=6, height=6, keys=2, max_steps=1000)
    fast, plain = mg.MazeEnv(**kwargs), mg.MazeEnv(**kwargs)
    plain._batch.compiled = False
    both = Twin(fast, plain)
    rng = np.random.default_rng(5)
    for seed in range(4):
        fast.reset(seed=seed), plain.reset(seed=seed)
        # Random steps (turns, pickups, drops and toggles), then the solution: keys fetched, doors unlocked, the goal.
        for _ in range(100):
            both.step(int(rng.choice(7, p=[0.2, 0.2, 0.3, 0.1, 0.05, 0.15, 0.0])))
        fast.reset(seed=seed), plain.reset(seed=seed)
        *_, terminated, _, _ = walk_solution(both)
        assert terminated
    assert fast._batch._one is not None and plain._batch._one is None  # the two paths were taken
