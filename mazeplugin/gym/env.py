"""The single maze environment: :class:`MazeEnv`, a ``gymnasium.Env``.

Two modes. ``"minigrid"``: MiniGrid's agent (a position and a direction),
actions (left, right, forward, pickup, drop, toggle, done), observation dict
(``image``: the egocentric ``view_size`` × ``view_size`` × 3 view in MiniGrid's
object/colour/state encoding, walls and locked doors blocking sight;
``direction``; ``mission``) and reward (``1 - 0.9 * steps / max_steps`` at the
goal), so MiniGrid's wrappers and agents run on it unchanged. ``"simple"``:
four moves (north, east, south, west) and the whole level top-down as six 0/1
channels (wall, agent, goal, key, locked door, locked door whose key is held);
keys are picked up by walking over them, a locked door opens when walked into
with its key.

The level of a reset depends only on (seed, arguments): ``reset(seed=s)``
plays level seed ``s`` (the level code ``generator-WxH-s``), and later resets
without a seed draw level seeds from the environment's ``np_random``; with
``seeds=`` (a range or list, such as a training split) every level seed is
drawn from those.

>>> import gymnasium
>>> env = MazeEnv("kruskal", 5, 5, keys=1)
>>> obs, info = env.reset(seed=3)
>>> obs["image"].shape, obs["direction"], obs["mission"]
((7, 7, 3), 0, 'use the keys to open the doors and get to the green goal square')
>>> info["level_code"]
'kruskal-5x5-3+k1'
>>> obs, reward, terminated, truncated, info = env.step(env.actions.forward)
"""

from __future__ import annotations

import enum
import string
import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence, SupportsFloat, Tuple, Type, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from .. import Level, level_code
from .engine import Batch
from .bounds import action_index, check_envs, check_max_steps, check_picture, check_seed_list, check_seeds, check_view_size
from .frames import LOOKS, frame
from .levels import LevelArrays, LevelSpec, level_from_options
from .minigrid_names import MiniGridNames
from .missions import MissionText

__all__ = ["MazeEnv", "Actions", "Moves", "MODES", "RENDER_MODES", "MISSION_WORDS", "Settings", "MISSION", "MISSION_KEYS",
           "MISSION_KEYS_MINIGRID"]

MODES = ("minigrid", "simple")
"""The observation and action modes."""
RENDER_MODES = ("rgb_array", "human")
"""``render_mode`` values (or None)."""

MISSION = "get to the green goal square"
"""The mission of a level without keys (MiniGrid's own words for its mazes without doors)."""
MISSION_KEYS = "use the keys to open the doors and get to the green goal square"
"""The mission of a level with keys (``mission_words="mazeplugin"``, the default)."""
MISSION_KEYS_MINIGRID = "use the key to open the door and get to the green goal square"
"""The mission of a level with keys in MiniGrid's vocabulary (``mission_words="minigrid"``): every word is one
of ``DictObservationSpaceWrapper``'s, which refuses ``keys`` and ``doors``."""
MISSION_WORDS = ("mazeplugin", "minigrid")
"""``mission_words`` values: the missions' words."""


class Actions(enum.IntEnum):
    """MiniGrid's actions (``minigrid.core.actions.Actions``), the ``"minigrid"`` mode's."""

    left = 0
    right = 1
    forward = 2
    pickup = 3
    drop = 4
    toggle = 5
    done = 6


class Moves(enum.IntEnum):
    """The ``"simple"`` mode's actions."""

    north = 0
    east = 1
    south = 2
    west = 3


class Settings:
    """Everything an environment's constructor takes, checked once; shared by :class:`MazeEnv` and the vector env.

    See :class:`MazeEnv` for the arguments.
    """

    def __init__(
        self,
        generator: str = "backtracker",
        width: int = 9,
        height: int = 9,
        *,
        mode: str = "minigrid",
        view_size: int = 7,
        max_steps: Optional[int] = None,
        seeds: Optional[Sequence[int]] = None,
        render_mode: Optional[str] = None,
        tile_size: int = 32,
        look: str = "minigrid",
        braid: float = 0.0,
        rooms: Any = None,
        keys: int = 0,
        mask: Any = None,
        require: Optional[Mapping[str, Any]] = None,
        corridor: int = 1,
        wall: int = 1,
        options: Optional[Mapping[str, Any]] = None,
        warm_up: bool = True,
        mission_words: str = "mazeplugin",
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(map(repr, MODES))}, got {mode!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'rgb_array' or 'human', got {render_mode!r}")
        if mission_words not in MISSION_WORDS:
            raise ValueError(f"mission_words must be one of {', '.join(map(repr, MISSION_WORDS))}, got {mission_words!r}")
        self.mission_keys: str = MISSION_KEYS if mission_words == "mazeplugin" else MISSION_KEYS_MINIGRID
        if look not in LOOKS:
            raise ValueError(f"look must be one of {', '.join(map(repr, LOOKS))}, got {look!r}")
        check_picture(1, 1, tile_size)
        self.mode: str = mode
        self.render_mode: Optional[str] = render_mode
        self.look: str = look
        self.tile_size: int = int(tile_size)
        self.view_size: int = check_view_size(view_size)
        self.levels: LevelSpec = LevelSpec(
            generator, width, height, braid=braid, rooms=rooms, keys=keys, mask=mask, require=require,
            corridor=corridor, wall=wall, options=dict(options or {}),
        )
        self.rows: int = self.levels.shape[0]
        self.columns: int = self.levels.shape[1]
        if max_steps is None:
            max_steps = 4 * self.rows * self.columns
        self.max_steps: int = check_max_steps(max_steps)
        check_envs(1, rows=self.rows, columns=self.columns, view_size=self.view_size)
        if render_mode is not None:
            check_picture(self.rows, self.columns, tile_size)
        if isinstance(seeds, np.ndarray):  # np.arange(...), a split read from a file: its ints
            if seeds.ndim != 1 or seeds.dtype.kind not in "iu":
                raise ValueError(f"seeds as an array must be 1-D whole numbers, got shape {seeds.shape} of {seeds.dtype}")
            seeds = seeds.tolist()
        if seeds is not None:
            if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Sequence) or len(seeds) == 0:
                raise ValueError(f"seeds must be a non-empty range or list of level seeds, got {seeds!r}")
            check_seeds(seeds)
        self.seeds: Optional[Sequence[int]] = seeds
        # The first level, made now, checks the content asked for fits at all (LevelSpec checked the arguments).
        self.levels.make(0)
        self.warm_up: bool = bool(warm_up)
        _tell_if_plain()

    def action_space(self) -> spaces.Discrete:
        return spaces.Discrete(len(Actions) if self.mode == "minigrid" else len(Moves))

    def observation_space(self) -> spaces.Space[Any]:
        if self.mode == "simple":
            return spaces.Box(0, 1, (self.rows, self.columns, 6), dtype=np.uint8)
        v = self.view_size
        return spaces.Dict({
            "image": spaces.Box(0, 255, (v, v, 3), dtype=np.uint8),
            "direction": spaces.Discrete(4),
            "mission": MissionText(max_length=96, charset=string.ascii_lowercase + " ,"),
        })

    def level_seed(self, rng: np.random.Generator, seed: Optional[int]) -> int:
        """The level seed of a reset: ``seed`` itself, or one drawn from ``rng`` (from ``seeds=`` when given)."""
        if self.seeds is not None:
            return int(self.seeds[int(rng.integers(len(self.seeds)))])
        if seed is not None:
            return int(seed)
        return int(rng.integers(2**63))

    def new_level(self, rng: np.random.Generator, seed: Optional[int], options: Optional[Mapping[str, Any]]) -> Level:
        """The level a reset plays (the first one starts loading the compiled kernels, with ``warm_up``)."""
        self._start_warm_up()
        spec, level = level_from_options(self.levels, options, (self.rows, self.columns))
        if level is None:
            level = spec.make(self.level_seed(rng, seed))
        return level

    def new_levels(self, rngs: Sequence[np.random.Generator], seeds: Sequence[Optional[int]],
                   options: Optional[Mapping[str, Any]]) -> LevelArrays:
        """The levels of several resets with the same ``options`` (no ``level_code``): what :meth:`new_level`
        gives for each ``(rngs[i], seeds[i])``, the same draws from each rng, the levels made together."""
        self._start_warm_up()
        spec, _ = level_from_options(self.levels, options, (self.rows, self.columns))
        return spec.make_arrays([self.level_seed(rng, seed) for rng, seed in zip(rngs, seeds)])

    def _start_warm_up(self) -> None:
        if self.warm_up:
            # At the first reset, not in the constructor: AsyncVectorEnv builds an env in its parent
            # process and then forks, and a fork must not happen while a loading thread holds a lock.
            _warm_up(self.levels.generator)
            self.warm_up = False

    def mission(self, level: Level) -> str:
        return self.mission_keys if any(t.kind == "key" for t in level.things) else MISSION

    def mission_of(self, made: LevelArrays, index: int) -> str:
        """:meth:`mission` of level ``index`` of ``made``, without making its ``Level``."""
        return self.mission_keys if made.has_keys(index) else MISSION


_WARMING: Dict[str, Any] = {}
_TOLD_PLAIN: List[bool] = []  # the plain-path notice was given in this process


def _tell_if_plain() -> None:
    """Once per process: say that the envs run on the plain path when numba is missing (not when turned off)."""
    import os

    from .. import compiled

    if _TOLD_PLAIN or compiled.available() or os.environ.get(compiled.MODE_VARIABLE, "").strip().lower() in ("0", "off"):
        return
    _TOLD_PLAIN.append(True)
    warnings.warn(
        "mazeplugin.gym runs on the plain Python path: numba is not installed, so steps, views and levels are made "
        'several times slower. pip install "mazeplugin[gym]" (or numba) for the compiled path; '
        f"{compiled.MODE_VARIABLE}=0 chooses the plain path and silences this.",
        RuntimeWarning,
        stacklevel=4,
    )


def _warm_up(generator: str) -> None:
    """Load the generator's compiled kernel and the searches' in the background, once per process (numba only).

    Until they are loaded, levels are made on the plain path: the same levels, never a wait.
    """
    if generator in _WARMING:
        return
    from .. import compiled
    from . import kernels

    kernels.warm_up()
    levels = ["bfs", "content", "streams", "locks"]  # searches, keys, and a batch of autoresets' streams and keys
    try:
        _WARMING[generator] = compiled.warm_up([generator, *levels], background=True)
    except ValueError:  # a generator without a kernel (a plugin, or numpy-vectorised)
        _WARMING[generator] = compiled.warm_up(levels, background=True)


def level_info(level: Level) -> Dict[str, Any]:
    """What ``reset`` says about its level: ``level_seed``, and ``level_code`` when it has one (else None)."""
    try:
        code: Optional[str] = level_code(level)
    except ValueError:
        code = None
    return {"level_seed": level.seed, "level_code": code}


class MazeEnv(MiniGridNames, gymnasium.Env[Union[Dict[str, Any], NDArray[np.uint8]], int]):
    """A maze level per episode, made by :func:`mazeplugin.generate`.

    Args:
        generator, width, height: the generator (or ``"dungeon"``: :mod:`mazeplugin.gym.dungeons`) and the size
            in cells (the largest a per-reset ``options`` may ask for).
        mode: ``"minigrid"`` (MiniGrid's actions and egocentric observation)
            or ``"simple"`` (four moves, top-down observation).
        view_size: the egocentric view's side in tiles, odd and >= 3 (``"minigrid"``).
        max_steps: steps before truncation; default 4 × the tiles of the largest level.
        seeds: the level seeds to draw from (a range, list or 1-D numpy array: a training or test split).
        render_mode: None, ``"rgb_array"`` or ``"human"``.
        tile_size: pixels per tile in pictures; look: ``"minigrid"`` or ``"mazeplugin"``.
        braid, rooms, keys, mask, require, corridor, wall, options: as for
            :func:`mazeplugin.generate` (``options``: the generator's own).
        warm_up: at the first reset, load the compiled kernels in a background
            thread (with numba installed), so that resets soon make levels on the
            compiled path and views use the compiled kernel. Pass False in a
            process that forks while the env lives (its own multiprocessing).
        mission_words: ``"mazeplugin"`` (the default: a level with keys says
            :data:`MISSION_KEYS`) or ``"minigrid"`` (:data:`MISSION_KEYS_MINIGRID`,
            every word in MiniGrid's vocabulary, for ``DictObservationSpaceWrapper``).

    MiniGrid's wrappers run on the ``"minigrid"`` mode: besides its observations
    the env has MiniGrid's ``grid`` (a ``minigrid.core.grid.Grid`` built on demand,
    needing the ``minigrid`` package), ``gen_obs_grid``, ``gen_obs``, ``carrying``,
    ``front_pos``, ``dir_vec``, ``goal_pos``, ``see_through_walls``, ``agent_pov``
    and ``get_frame(agent_pov=True)`` (:class:`~mazeplugin.gym.minigrid_names.MiniGridNames`).

    ``reset(options=...)`` changes any of ``generator``, ``width``,
    ``height``, ``braid``, ``rooms``, ``keys``, ``mask``, ``require``,
    ``corridor``, ``wall``, ``options`` for that episode (levels no larger
    than the constructor's), or plays ``{"level_code": "kruskal-9x9-7"}``.
    """

    metadata: Dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 10}

    def __init__(self, generator: str = "backtracker", width: int = 9, height: int = 9, **kwargs: Any) -> None:
        self.settings: Settings = Settings(generator, width, height, **kwargs)
        s = self.settings
        self.render_mode: Optional[str] = s.render_mode
        self.action_space: spaces.Discrete = s.action_space()  # type: ignore[assignment]
        self.observation_space: spaces.Space[Any] = s.observation_space()
        self.actions: Union[Type[Actions], Type[Moves]] = Actions if s.mode == "minigrid" else Moves
        # MiniGrid's attribute names, for its wrappers (RGBImgObsWrapper, ActionBonus, ...).
        self.width: int = s.columns
        self.height: int = s.rows
        self.agent_view_size: int = s.view_size
        self.max_steps: int = s.max_steps
        self.tile_size: int = s.tile_size
        self.highlight = True
        self.mission: str = MISSION
        self._started = False  # a reset has loaded a level: step may run
        self._level: Optional[Level] = None  # the level played, once made (see level)
        self._made: Optional[LevelArrays] = None  # the level played, as arrays, until level makes the Level
        self._batch = Batch(1, rows=s.rows, columns=s.columns, view_size=s.view_size)
        self._window: Any = None

    @property
    def level(self) -> Optional[Level]:
        """The level this episode plays (None before the first reset): the ``Level`` ``LevelSpec.make`` makes.

        A reset loads a level made in a batch from its arrays; its ``Level`` is
        made here, the first time it is read (a reset and steps never need it).
        """
        if self._level is None and self._made is not None:
            self._level, self._made = self._made.level(0), None
        return self._level

    # -- MiniGrid's names -----------------------------------------------------

    @property
    def agent_pos(self) -> Tuple[int, int]:
        """The agent's tile ``(x, y)`` in the level."""
        p = self._batch.pad
        return (int(self._batch.position[0, 1]) - p, int(self._batch.position[0, 0]) - p)

    @property
    def agent_dir(self) -> int:
        """0 east, 1 south, 2 west, 3 north."""
        return int(self._batch.direction[0])

    @property
    def step_count(self) -> int:
        return int(self._batch.steps[0])

    # -- the Gymnasium API ----------------------------------------------------

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Any, Dict[str, Any]]:
        check_seed_list(seed, 1, single=True)  # None or a whole number >= 0, refused before any work otherwise
        super().reset(seed=seed)
        s = self.settings
        if isinstance(options, Mapping) and "level_code" in options:
            level = s.new_level(self.np_random, seed, options)
            self._batch.load(0, level)
            self._level, self._made = level, None
            self.mission = s.mission(level)
            info = level_info(level)
        else:  # a batch of one, as the vector env's: loaded from arrays, its Level made only if read
            made = s.new_levels([self.np_random], [seed], options)
            made.load_into(self._batch, [0])
            one = made.levels[0]  # made one by one (a spec or seed the batched lane does not take): a Level
            self._level, self._made = one, made if one is None else None
            self.mission = s.mission_of(made, 0)
            info = {"level_seed": made.seeds[0], "level_code": made.code(0)}
        self._started = True
        if self.render_mode == "human":
            self.render()
        return self._observation(), info

    def step(self, action: int) -> Tuple[Any, SupportsFloat, bool, bool, Dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        move = action_index(action)
        if not 0 <= move < self.action_space.n:
            raise ValueError(f"action must be one of 0..{self.action_space.n - 1} ({', '.join(a.name for a in self.actions)}), got {action!r}")
        s = self.settings
        fused = self._batch.step_one_view(move, s.max_steps) if s.mode == "minigrid" else None
        if fused is not None:  # the compiled step and view, once built (numba)
            reward, done, truncated, image = fused
            observation: Any = {"image": image, "direction": int(self._batch.direction[0]), "mission": self.mission}
        else:
            reward, done, truncated = self._batch.step_one(move, s.max_steps, simple=s.mode == "simple")
            observation = self._observation()
        if self.render_mode == "human":
            self.render()
        return observation, reward, done, truncated, {"is_success": done}

    def _observation(self) -> Any:
        if self.settings.mode == "simple":
            return self._batch.top_down()[0]
        return {"image": self._batch.view()[0], "direction": int(self._batch.direction[0]), "mission": self.mission}

    def get_frame(self, highlight: bool = True, tile_size: int = 32, agent_pov: bool = False) -> NDArray[np.uint8]:
        """MiniGrid's ``get_frame``: the whole level, uint8 ``(rows * tile_size, columns * tile_size, 3)``.

        ``highlight`` lightens the tiles the agent sees (``"minigrid"`` mode).
        ``agent_pov=True`` draws the agent's view instead, as MiniGrid draws it
        (``(view_size * tile_size, view_size * tile_size, 3)``; needs the ``minigrid`` package).
        """
        if not self._started:
            raise RuntimeError("call reset() before drawing")
        if agent_pov:
            check_picture(self.agent_view_size, self.agent_view_size, tile_size)
            return self.get_pov_render(tile_size)
        check_picture(self.settings.rows, self.settings.columns, tile_size)
        seen = self._batch.seen(0) if highlight and self.settings.mode == "minigrid" else None
        return frame(self._batch, 0, tile=tile_size, look=self.settings.look, seen=seen)

    def render(self) -> Optional[NDArray[np.uint8]]:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='rgb_array' or 'human'")
            return None
        picture = self.get_frame(self.highlight, self.settings.tile_size, self.agent_pov)
        if self.render_mode == "rgb_array":
            return picture
        if self._window is None:
            from ..pg.window import FrameWindow

            self._window = FrameWindow("mazeplugin")
        self._window.show(picture)
        return None

    def close(self) -> None:
        if self._window is not None:
            self._window.close()
            self._window = None
        super().close()


def seeds_of(seed: Union[None, int, Sequence[Optional[int]]], n: int) -> List[Optional[int]]:
    """Per-env seeds as gymnasium's vector envs take them: None, an int ``s`` (``s, s+1, ...``) or one per env (checked)."""
    return check_seed_list(seed, n)
