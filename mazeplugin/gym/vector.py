"""N maze environments stepped at once: :class:`MazeVectorEnv`, a ``gymnasium.vector.VectorEnv``.

The N levels live in one :class:`~mazeplugin.gym.engine.Batch` (numpy arrays);
``step`` moves every agent with array operations, with no Python loop over
the envs. Each env has its own ``np_random`` and draws its level seeds as a
:class:`~mazeplugin.gym.MazeEnv` does, so N vector envs and N single envs given
the same seeds and actions see the same observations, rewards and ends.
Autoreset follows gymnasium's default (``AutoresetMode.NEXT_STEP``): the step
after an episode ends resets that env (its action is ignored, reward 0).

>>> import numpy as np
>>> envs = MazeVectorEnv(4, "kruskal", 5, 5)
>>> obs, info = envs.reset(seed=0)
>>> obs["image"].shape, info["level_seed"].tolist()
((4, 7, 7, 3), [0, 1, 2, 3])
>>> obs, reward, terminated, truncated, info = envs.step(np.array([2, 2, 1, 0]))
>>> reward.shape, terminated.dtype
((4,), dtype('bool'))
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Type, Union

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from .. import Level
from .engine import Batch
from .env import Actions, Moves, Settings, seeds_of
from .frames import frame

__all__ = ["MazeVectorEnv"]


class MazeVectorEnv(VectorEnv[Any, NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` maze environments in one batch; takes :class:`~mazeplugin.gym.MazeEnv`'s arguments.

    ``render_mode="rgb_array"`` renders every env (a tuple of frames, as
    gymnasium's ``SyncVectorEnv`` does); ``"human"`` is refused (a window per env would not help).
    ``reset(options=...)`` applies the same options to every env.
    """

    metadata: Dict[str, Any] = {"render_modes": ["rgb_array"], "autoreset_mode": AutoresetMode.NEXT_STEP, "render_fps": 10}

    def __init__(self, num_envs: int, generator: str = "backtracker", width: int = 9, height: int = 9, **kwargs: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= 1_000_000:
            raise ValueError(f"num_envs must be a whole number from 1 to 1,000,000, got {num_envs!r}")
        if kwargs.get("render_mode") == "human":
            raise ValueError("render_mode must be None or 'rgb_array' for the vector env ('human' is for MazeEnv)")
        kwargs.pop("max_episode_steps", None)  # gymnasium.make_vec passes the spec's; truncation is max_steps
        self.settings: Settings = Settings(generator, width, height, **kwargs)
        s = self.settings
        self.num_envs = num_envs
        self.render_mode: Optional[str] = s.render_mode
        self.single_action_space: spaces.Discrete = s.action_space()
        self.single_observation_space: spaces.Space[Any] = s.observation_space()
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.actions: Union[Type[Actions], Type[Moves]] = Actions if s.mode == "minigrid" else Moves
        self._batch = Batch(num_envs, rows=s.rows, columns=s.columns, view_size=s.view_size)
        self._rngs: List[np.random.Generator] = [seeding.np_random(None)[0] for _ in range(num_envs)]
        self._missions: List[str] = [""] * num_envs
        self._mission_tuple: Optional[Tuple[str, ...]] = None  # the observation's, made again after a level loads
        self._seeds = np.zeros(num_envs, dtype=np.int64)
        self._autoreset: Optional[NDArray[np.bool_]] = None  # the envs that ended last step; None when none did
        self._started = False

    def reset(self, *, seed: Union[None, int, Sequence[Optional[int]]] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Any, Dict[str, Any]]:
        seeds = seeds_of(seed, self.num_envs)
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seeds[0])
        for i, env_seed in enumerate(seeds):
            if env_seed is not None:
                self._rngs[i] = seeding.np_random(env_seed)[0]
        if isinstance(options, Mapping) and "level_code" in options:  # one given level: each env reads it
            for i, env_seed in enumerate(seeds):
                self._load(i, self.settings.new_level(self._rngs[i], env_seed, options))
        else:
            self._new_levels(np.arange(self.num_envs), seeds, options)
        self._autoreset = None
        self._started = True
        return self._observation(), self._info(np.ones(self.num_envs, dtype=bool))

    def _load(self, i: int, level: Level) -> None:
        self._batch.load(i, level)
        self._missions[i] = self.settings.mission(level)
        self._mission_tuple = None
        self._seeds[i] = _seed_number(level.seed)

    def _new_levels(self, fresh: NDArray[np.intp], seeds: Optional[Sequence[Optional[int]]] = None,
                    options: Optional[Mapping[str, Any]] = None) -> None:
        """New levels for envs ``fresh`` (a reset, or the autoreset of those that ended): each draws its
        level seed from its own ``np_random`` as one by one (``seeds[i]`` given: that one), then their
        levels are made together (:meth:`Settings.new_levels`) and loaded."""
        s = self.settings
        slots = fresh.tolist()
        given = [None if seeds is None else seeds[i] for i in slots]
        made = s.new_levels([self._rngs[i] for i in slots], given, options)
        made.load_into(self._batch, slots)
        for j, i in enumerate(slots):
            self._missions[i] = s.mission_of(made, j)
            self._seeds[i] = _seed_number(made.seeds[j])
        self._mission_tuple = None

    def step(self, actions: Any) -> Tuple[Any, NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], Dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        action = np.asarray(actions)
        if action.shape != (self.num_envs,) or action.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_envs} whole numbers (one per env), got shape {action.shape} of {action.dtype}")
        moves = action.astype(np.intp, copy=False)
        n = int(self.single_action_space.n)
        if int(moves.view(np.uintp).max()) >= n:  # negatives are huge unsigned: one pass checks both ends
            raise ValueError(f"actions must be in 0..{n - 1} ({', '.join(a.name for a in self.actions)})")
        s = self.settings
        resetting = self._autoreset
        fresh = None if resetting is None else np.flatnonzero(resetting)
        image: Optional[NDArray[np.uint8]] = None
        if s.mode == "minigrid" and self._batch.fuses:
            # The compiled step (numba, 64 envs or more) makes the views as it goes: the envs that reset
            # load their new levels first and take no step in it, only their first view.
            if fresh is not None:
                self._new_levels(fresh)
            fused = self._batch.step_minigrid_view(moves, s.max_steps, fresh=fresh)
            assert fused is not None
            reward, terminated, truncated, image = fused
            # The compiled step counts the envs that ended: none (most steps), no pass over the ends.
            self._autoreset = terminated | truncated if self._batch.ended else None
        else:
            # The numpy rules for every env, then the new levels of those that reset, then their views.
            if s.mode == "minigrid":
                reward, terminated, truncated = self._batch.step_minigrid(moves, s.max_steps)
            else:
                reward, terminated, truncated = self._batch.step_simple(moves, s.max_steps)
            if fresh is not None:
                self._new_levels(fresh)
                reward[fresh] = 0.0
                terminated[fresh] = False
                truncated[fresh] = False
            ends = terminated | truncated
            self._autoreset = ends if ends.any() else None
        info = self._info(resetting)
        info["is_success"] = terminated.copy()
        return self._observation(image), reward, terminated, truncated, info

    def _info(self, fresh: Optional[NDArray[np.bool_]]) -> Dict[str, Any]:
        """gymnasium's vector info: ``level_seed`` of the envs that started a level (-1 for a text seed), with its ``_level_seed`` mask.

        ``fresh`` None: no env started a level (zeros, without a pass over the seeds).
        """
        if fresh is None:
            return {"level_seed": np.zeros(self.num_envs, dtype=np.int64), "_level_seed": np.zeros(self.num_envs, dtype=bool)}
        return {"level_seed": np.where(fresh, self._seeds, 0), "_level_seed": fresh.copy()}

    def _observation(self, image: Optional[NDArray[np.uint8]] = None) -> Any:
        if self.settings.mode == "simple":
            return self._batch.top_down()
        return {
            "image": self._batch.view() if image is None else image,
            "direction": self._batch.direction.astype(np.int64),
            "mission": self._missions_now(),
        }

    def _missions_now(self) -> Tuple[str, ...]:
        if self._mission_tuple is None:
            self._mission_tuple = tuple(self._missions)
        return self._mission_tuple

    def render(self) -> Optional[Tuple[NDArray[np.uint8], ...]]:
        if self.render_mode != "rgb_array":
            return None
        s = self.settings
        return tuple(
            frame(self._batch, i, tile=s.tile_size, look=s.look, seen=self._batch.seen(i) if s.mode == "minigrid" else None)
            for i in range(self.num_envs)
        )


def _seed_number(seed: object) -> int:
    """A level's seed as ``info["level_seed"]`` holds it: a text seed (a level code such as
    'kruskal-9x9-castle') or one beyond int64 has no number there: -1."""
    return seed if isinstance(seed, int) and seed < 2**63 else -1
