"""N maze environments stepped at once: :class:`MazeVectorEnv`, a ``gymnasium.vector.VectorEnv``.

The N levels live in one :class:`~mazeplugin.gym.engine.Batch` (numpy arrays);
``step`` moves every agent with array operations, with no Python loop over
the envs. Each env has its own ``np_random`` and draws its level seeds as a
:class:`~mazeplugin.gym.MazeEnv` does, so N vector envs and N single envs given
the same seeds and actions see the same observations, rewards and ends.
Autoreset follows gymnasium's default (``AutoresetMode.NEXT_STEP``): the step
after an episode ends resets that env (its action is ignored, reward 0).
``autoreset_mode=AutoresetMode.SAME_STEP`` resets it in the step it ends (its
last observation in ``info["final_obs"]``, what Stable-Baselines3 and most
PPO loops expect); ``AutoresetMode.DISABLED`` leaves it to
``reset(options={"reset_mask": ...})``, which resets only the envs marked (in
every mode). ``episode_statistics=True`` adds ``info["episode"]`` (return
``r``, length ``l``, seconds ``t``) and ``info["_episode"]`` as gymnasium's
``RecordEpisodeStatistics`` gives them.

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

import time
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Type, Union

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from .. import Level
from .bounds import check_envs
from .engine import Batch
from .env import Actions, Moves, Settings, seeds_of
from .frames import frame

__all__ = ["MazeVectorEnv"]


class MazeVectorEnv(VectorEnv[Any, NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` maze environments in one batch; takes :class:`~mazeplugin.gym.MazeEnv`'s arguments.

    ``render_mode="rgb_array"`` renders every env (a tuple of frames, as
    gymnasium's ``SyncVectorEnv`` does); ``"human"`` is refused (a window per env would not help).
    ``reset(options=...)`` applies the same options to every env (``options["reset_mask"]``,
    a bool array of ``num_envs``: to the envs marked, the only ones reset).

    Args (besides :class:`~mazeplugin.gym.MazeEnv`'s):
        autoreset_mode: ``AutoresetMode.NEXT_STEP`` (the default), ``SAME_STEP`` or ``DISABLED``
            (or their values, ``"NextStep"``, ...): see the module's doc.
        episode_statistics: add each ended episode's return, length and time to ``info``.
    """

    metadata: Dict[str, Any] = {"render_modes": ["rgb_array"], "autoreset_mode": AutoresetMode.NEXT_STEP, "render_fps": 10}

    def __init__(self, num_envs: int, generator: str = "backtracker", width: int = 9, height: int = 9, *,
                 autoreset_mode: Union[AutoresetMode, str] = AutoresetMode.NEXT_STEP, episode_statistics: bool = False,
                 **kwargs: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= 1_000_000:
            raise ValueError(f"num_envs must be a whole number from 1 to 1,000,000, got {num_envs!r}")
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            names = ", ".join(f"AutoresetMode.{m.name} ({m.value!r})" for m in AutoresetMode)
            raise ValueError(f"autoreset_mode must be one of {names}, got {autoreset_mode!r}") from None
        if not isinstance(episode_statistics, bool):
            raise ValueError(f"episode_statistics must be True or False, got {episode_statistics!r}")
        if kwargs.get("render_mode") == "human":
            raise ValueError("render_mode must be None or 'rgb_array' for the vector env ('human' is for MazeEnv)")
        kwargs.pop("max_episode_steps", None)  # gymnasium.make_vec passes the spec's; truncation is max_steps
        self.settings: Settings = Settings(generator, width, height, **kwargs)
        s = self.settings
        check_envs(num_envs, rows=s.rows, columns=s.columns, view_size=s.view_size)
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
        self.autoreset_mode: AutoresetMode = mode
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.episode_statistics: bool = episode_statistics
        self._returns = np.zeros(num_envs)
        self._lengths = np.zeros(num_envs, dtype=int)
        self._starts = np.zeros(num_envs)

    def reset(self, *, seed: Union[None, int, Sequence[Optional[int]]] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Any, Dict[str, Any]]:
        seeds = seeds_of(seed, self.num_envs)
        mask = self._reset_mask(options)
        if mask is not None:
            options = {k: v for k, v in options.items() if k != "reset_mask"} if options else None
        elif seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seeds[0])
        fresh = np.arange(self.num_envs) if mask is None else np.flatnonzero(mask)
        for i in fresh.tolist():
            if seeds[i] is not None:
                self._rngs[i] = seeding.np_random(seeds[i])[0]
        if isinstance(options, Mapping) and "level_code" in options:  # one given level: each env reads it
            for i in fresh.tolist():
                self._load(i, self.settings.new_level(self._rngs[i], seeds[i], options))
        else:
            self._new_levels(fresh, seeds, options)
        reset = np.zeros(self.num_envs, dtype=bool)
        reset[fresh] = True
        if self._autoreset is not None:
            self._autoreset = self._autoreset & ~reset
            self._autoreset = self._autoreset if self._autoreset.any() else None
        self._started = True
        self._returns[reset] = 0.0
        self._lengths[reset] = 0
        self._starts[reset] = time.perf_counter()
        return self._observation(), self._info(reset)

    def _reset_mask(self, options: Optional[Mapping[str, Any]]) -> Optional[NDArray[np.bool_]]:
        """``options["reset_mask"]`` checked (gymnasium's rules: bool, ``(num_envs,)``, one True at least), or None."""
        if not isinstance(options, Mapping) or "reset_mask" not in options:
            return None
        mask = options["reset_mask"]
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise ValueError(f"options['reset_mask'] must be a numpy bool array of shape ({self.num_envs},), got {mask!r}")
        if not mask.any():
            raise ValueError("options['reset_mask'] must mark at least one env (one True)")
        if not self._started and not mask.all():
            raise RuntimeError("the first reset() resets every env: call it without reset_mask")
        return mask

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
        if self.autoreset_mode == AutoresetMode.DISABLED and self._autoreset is not None:
            ended = np.flatnonzero(self._autoreset).tolist()
            raise RuntimeError(f"envs {ended[:10]} ended (autoreset_mode DISABLED): reset them first, reset(options={{'reset_mask': ...}})")
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
            ends: Optional[NDArray[np.bool_]] = terminated | truncated if self._batch.ended else None
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
            ends = ends if ends.any() else None
        self._autoreset = ends
        info = self._info(resetting)
        info["is_success"] = terminated.copy()
        if self.episode_statistics:
            self._count_episodes(reward, resetting, ends, info)
        observation = self._observation(image)
        if ends is not None and self.autoreset_mode == AutoresetMode.SAME_STEP:
            observation = self._reset_now(ends, observation, info)
        return observation, reward, terminated, truncated, info

    def _reset_now(self, ends: NDArray[np.bool_], observation: Any, info: Dict[str, Any]) -> Any:
        """``SAME_STEP``: new levels for the envs that just ended; their last observations and infos go to
        ``info["final_obs"]`` and ``info["final_info"]`` (with their ``_`` masks, as gymnasium's ``SyncVectorEnv``)."""
        which = np.flatnonzero(ends)
        final = np.full(self.num_envs, None, dtype=object)
        for i in which.tolist():
            final[i] = self._one_observation(observation, i)
        info["final_obs"], info["_final_obs"] = final, ends.copy()
        info["final_info"] = {"is_success": np.where(ends, info["is_success"], False), "_is_success": ends.copy()}
        info["_final_info"] = ends.copy()
        self._new_levels(which)
        self._autoreset = None
        started = self._info(ends)
        info["level_seed"], info["_level_seed"] = started["level_seed"], started["_level_seed"]
        if self.settings.mode == "simple":
            return self._batch.top_down()
        image = np.array(observation["image"])  # a copy: the caller's final observations stay
        image[which] = self._batch.view(which)
        return self._observation(image)

    def _one_observation(self, observation: Any, i: int) -> Any:
        """Env ``i``'s part of a batched observation, as its single env gives it."""
        if self.settings.mode == "simple":
            return observation[i].copy()
        return {"image": observation["image"][i].copy(), "direction": int(observation["direction"][i]),
                "mission": observation["mission"][i]}

    def _count_episodes(self, reward: NDArray[np.float64], resetting: Optional[NDArray[np.bool_]],
                        ends: Optional[NDArray[np.bool_]], info: Dict[str, Any]) -> None:
        """``info["episode"]`` and ``info["_episode"]`` for the envs that ended, as ``RecordEpisodeStatistics`` adds them."""
        if resetting is not None:  # NEXT_STEP: this step started their episodes and counts for none
            going = ~resetting
            self._returns[resetting] = 0.0
            self._lengths[resetting] = 0
            self._starts[resetting] = time.perf_counter()
            self._returns[going] += reward[going]
            self._lengths[going] += 1
        else:
            self._returns += reward
            self._lengths += 1
        if ends is None:
            return
        took = np.round(time.perf_counter() - self._starts, 6)
        info["episode"] = {"r": np.where(ends, self._returns, 0.0), "l": np.where(ends, self._lengths, 0),
                           "t": np.where(ends, took, 0.0)}
        info["_episode"] = ends.copy()
        if self.autoreset_mode == AutoresetMode.SAME_STEP:  # they start again now
            self._returns[ends] = 0.0
            self._lengths[ends] = 0
            self._starts[ends] = time.perf_counter()

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
