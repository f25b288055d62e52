"""Stable-Baselines3 over the batched env: :class:`MazeVecEnv`, an SB3 ``VecEnv`` on one :class:`~mazeplugin.gym.MazeVectorEnv`.

SB3 steps its envs through a ``VecEnv``; ``DummyVecEnv`` of N single envs
steps them one by one in Python. :class:`MazeVecEnv` steps N mazes in one
:class:`~mazeplugin.gym.MazeVectorEnv` (``autoreset_mode=SAME_STEP``, as SB3
resets) and gives what ``DummyVecEnv`` gives, step for step (a test checks
it): observations, rewards (float32), dones, and per-env infos with
``is_success``, ``TimeLimit.truncated``, ``terminal_observation`` and, with
``episode_statistics`` (the default here), ``episode`` (``r``, ``l``, ``t``,
what SB3's ``Monitor`` adds, so its logger reports ``ep_rew_mean``).

The mission text is no tensor: in ``"minigrid"`` mode the observation is the
``image`` alone (``observation="image"``, as MiniGrid's ``ImgObsWrapper``, the
usual recipe with ``CnnPolicy``) or ``{"image", "direction"}``
(``observation="dict"``, for ``MultiInputPolicy``); in ``"simple"`` mode the
top-down channels.

Needs ``stable-baselines3`` (and torch)::

    from stable_baselines3 import PPO
    from mazeplugin.gym.sb3 import MazeVecEnv

    envs = MazeVecEnv(16, "kruskal", 5, 5, mode="simple", seeds=range(50_000))
    model = PPO("MlpPolicy", envs).learn(100_000)
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence, Type

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from numpy.typing import NDArray
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvObs, VecEnvStepReturn

from .vector import MazeVectorEnv

__all__ = ["MazeVecEnv", "OBSERVATIONS"]

OBSERVATIONS = ("image", "dict")
"""``observation`` values in ``"minigrid"`` mode."""


class MazeVecEnv(VecEnv):  # type: ignore[misc, unused-ignore]  # VecEnv is Any where SB3 is absent
    """``num_envs`` mazes as one Stable-Baselines3 ``VecEnv``; takes :class:`~mazeplugin.gym.MazeEnv`'s arguments.

    Args:
        num_envs: how many envs.
        observation: ``"image"`` or ``"dict"`` (``"minigrid"`` mode; see the module's doc).
        episode_statistics: put ``info["episode"]`` in the infos of ended episodes (as SB3's ``Monitor``).
        **kwargs: the generator, size and everything else :class:`~mazeplugin.gym.MazeEnv` takes.

    The :class:`~mazeplugin.gym.MazeVectorEnv` stepped is :attr:`vector`.
    """

    def __init__(self, num_envs: int, *args: Any, observation: str = "image", episode_statistics: bool = True,
                 **kwargs: Any) -> None:
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {', '.join(map(repr, OBSERVATIONS))}, got {observation!r}")
        for name in ("autoreset_mode", "episode_statistics"):
            if name in kwargs:
                raise ValueError(f"{name} is MazeVecEnv's to choose (SB3 resets in the same step), not an argument")
        self.vector: MazeVectorEnv = MazeVectorEnv(
            num_envs, *args, autoreset_mode=AutoresetMode.SAME_STEP, episode_statistics=episode_statistics, **kwargs
        )
        self._mode = self.vector.settings.mode
        self._observation_kind = observation
        single = self.vector.single_observation_space
        space: spaces.Space[Any]
        if self._mode == "simple":
            space = single
        elif observation == "image":
            space = single["image"]  # type: ignore[index]
        else:
            space = spaces.Dict({"image": single["image"], "direction": single["direction"]})  # type: ignore[index]
        self._actions: Optional[NDArray[np.int64]] = None
        self._reset_once = False
        super().__init__(num_envs, space, self.vector.single_action_space)

    def _obs(self, observation: Any) -> VecEnvObs:
        """A batched observation of :attr:`vector` as this env gives it."""
        if self._mode == "simple":
            batched: NDArray[Any] = observation
            return batched
        if self._observation_kind == "image":
            image: NDArray[np.uint8] = observation["image"]
            return image
        return {"image": observation["image"], "direction": observation["direction"]}

    def _one(self, observation: Any) -> Any:
        """A single env's observation (``final_obs``) as this env gives it."""
        if self._mode == "simple":
            return observation
        if self._observation_kind == "image":
            return observation["image"]
        return {"image": observation["image"], "direction": np.int64(observation["direction"])}

    def reset(self) -> VecEnvObs:
        seeds: List[Optional[int]] = list(self._seeds)
        groups: Dict[str, List[int]] = {}
        for i, options in enumerate(self._options):
            groups.setdefault(repr(sorted(options.items())), []).append(i)
        observation: Any = None
        if len(groups) == 1:
            observation, info = self.vector.reset(seed=seeds, options=dict(self._options[0]) or None)
            self._keep_reset_infos(info, range(self.num_envs))
        else:  # different options per env: each group reset by its mask
            if not self._reset_once:  # the first reset resets every env
                self.vector.reset(seed=seeds)
            for members in groups.values():
                mask = np.zeros(self.num_envs, dtype=bool)
                mask[members] = True
                observation, info = self.vector.reset(seed=seeds, options={**self._options[members[0]], "reset_mask": mask})
                self._keep_reset_infos(info, members)
        self._reset_seeds()
        self._reset_options()
        self._reset_once = True
        return self._obs(observation)

    def _keep_reset_infos(self, info: Dict[str, Any], which: Iterable[int]) -> None:
        for i in which:
            self.reset_infos[i] = {"level_seed": int(info["level_seed"][i])}

    def step_async(self, actions: NDArray[Any]) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise RuntimeError("step_async() before step_wait()")
        observation, reward, terminated, truncated, info = self.vector.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos: List[Dict[str, Any]] = [{"is_success": bool(s)} for s in info["is_success"]]
        for i in np.flatnonzero(dones).tolist():
            one = infos[i]
            one["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            one["terminal_observation"] = self._one(info["final_obs"][i])
            if "episode" in info:
                episode = info["episode"]
                one["episode"] = {"r": round(float(episode["r"][i]), 6), "l": int(episode["l"][i]), "t": float(episode["t"][i])}
            self.reset_infos[i] = {"level_seed": int(info["level_seed"][i])}
        for i in np.flatnonzero(~dones).tolist():
            infos[i]["TimeLimit.truncated"] = False
        return self._obs(observation), reward.astype(np.float32), dones, infos

    def close(self) -> None:
        self.vector.close()

    # -- what SB3 asks of every VecEnv about its envs: here one object answers for all ------------------

    def _indices(self, indices: VecEnvIndices) -> List[int]:
        return list(self._get_indices(indices))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> List[Any]:
        value = getattr(self.vector, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        if len(self._indices(indices)) != self.num_envs:
            raise ValueError("MazeVecEnv's envs share their attributes: set_attr applies to all of them (indices=None)")
        setattr(self.vector, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any) -> List[Any]:
        method = getattr(self.vector, method_name)
        result = method(*method_args, **method_kwargs)
        return [result for _ in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: Type[Any], indices: VecEnvIndices = None) -> List[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[Optional[NDArray[np.uint8]]]:
        frames = self.vector.render()
        return list(frames) if frames is not None else [None] * self.num_envs
