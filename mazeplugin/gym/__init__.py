"""Gymnasium environments on mazeplugin's levels (the optional ``gym`` extra: ``pip install "mazeplugin[gym]"``).

The extra brings gymnasium and numba (the compiled step, view and level
making); without numba the first env of a process says once that it runs on
the plain path. MiniGrid's wrappers (``minigrid.wrappers``) run on the
MiniGrid-mode ids; :mod:`mazeplugin.gym.sb3` adapts the batched env to
Stable-Baselines3; :mod:`mazeplugin.gym.wrappers` helps agents learn.

Importing this package registers the environment ids, so ``gymnasium.make``
and ``gymnasium.make_vec`` know them:

==============================  =============================================================
``mazeplugin/Maze-v0``          backtracker, 9 × 9 cells, MiniGrid mode
``mazeplugin/MazeKeys-v0``      backtracker, 9 × 9 cells, 2 keys and locked doors, MiniGrid mode
``mazeplugin/MazeRooms-v0``     wilson, 12 × 12 cells, 3 open rooms and 1 key, MiniGrid mode
``mazeplugin/MazeSimple-v0``    backtracker, 9 × 9 cells, simple mode (four moves, top-down)
``mazeplugin/MazeSimpleKeys-v0``  backtracker, 9 × 9 cells, 2 keys, simple mode
==============================  =============================================================

Any argument of :class:`MazeEnv` overrides them (``gymnasium.make("mazeplugin/Maze-v0",
generator="wilson", width=15, height=15, braid=0.3)``; ``generator="dungeon"`` plays
dungeons, see :mod:`mazeplugin.gym.dungeons`);
``gymnasium.make_vec(id, num_envs=1024, vectorization_mode="vector_entry_point")``
gives the batched :class:`MazeVectorEnv` (its own arguments, such as
``autoreset_mode=AutoresetMode.SAME_STEP`` or ``episode_statistics=True``, go
in as keywords); ``"sync"`` and ``"async"`` (fork, spawn, forkserver, with or
without shared memory) give the same observations. MiniGrid's
``DictObservationSpaceWrapper`` needs ``mission_words="minigrid"`` on the ids
with keys (their default mission says "keys" and "doors").

>>> import gymnasium
>>> import mazeplugin.gym
>>> env = gymnasium.make("mazeplugin/MazeKeys-v0")
>>> obs, info = env.reset(seed=1)
>>> info["level_code"]
'backtracker-9x9-1+k2'
"""

from __future__ import annotations

try:
    import gymnasium
except ImportError as _missing:  # pragma: no cover - exercised without the extra
    raise ImportError('mazeplugin.gym needs gymnasium: pip install "mazeplugin[gym]"') from _missing

from .curriculum import Curriculum, CurriculumWrapper, SeedSplit, duplicate_rate
from .engine import MAX_LOCKS
from .env import MISSION, MISSION_KEYS, MISSION_KEYS_MINIGRID, MISSION_WORDS, MODES, RENDER_MODES, Actions, MazeEnv, Moves
from .levels import LevelSpec, level_digest
from .vector import MazeVectorEnv
from .wrappers import DistanceShaping, FlatView, SimpleActions, VectorDistanceShaping, exit_distances, flat_view

__all__ = [
    "Actions",
    "Moves",
    "MazeEnv",
    "MazeVectorEnv",
    "SimpleActions",
    "FlatView",
    "DistanceShaping",
    "VectorDistanceShaping",
    "exit_distances",
    "flat_view",
    "LevelSpec",
    "Curriculum",
    "CurriculumWrapper",
    "SeedSplit",
    "duplicate_rate",
    "level_digest",
    "MAX_LOCKS",
    "MISSION",
    "MISSION_KEYS",
    "MISSION_KEYS_MINIGRID",
    "MISSION_WORDS",
    "MODES",
    "RENDER_MODES",
    "IDS",
]

IDS: "dict[str, dict[str, object]]" = {
    "mazeplugin/Maze-v0": {},
    "mazeplugin/MazeKeys-v0": {"keys": 2},
    "mazeplugin/MazeRooms-v0": {"generator": "wilson", "width": 12, "height": 12, "rooms": 3, "keys": 1},
    "mazeplugin/MazeSimple-v0": {"mode": "simple"},
    "mazeplugin/MazeSimpleKeys-v0": {"mode": "simple", "keys": 2},
}
"""The registered ids and their arguments (over :class:`MazeEnv`'s defaults)."""

for _id, _kwargs in IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id,
            entry_point="mazeplugin.gym.env:MazeEnv",
            vector_entry_point="mazeplugin.gym.vector:MazeVectorEnv",
            kwargs=dict(_kwargs),
        )
