"""MiniGrid's names on :class:`~mazeplugin.gym.MazeEnv`: ``grid``, ``gen_obs_grid``, ``carrying``, ``front_pos``, ...

MiniGrid's wrappers (``minigrid.wrappers``) read more of an env than its
observations: ``FullyObsWrapper`` and ``SymbolicObsWrapper`` encode
``env.grid``, ``ViewSizeWrapper`` calls ``env.gen_obs_grid(size)``,
``DirectionObsWrapper`` looks for a ``Goal`` in ``env.grid.grid``, ``NoDeath``
asks ``env.grid.get(*env.front_pos)``, ``RGBImgPartialObsWrapper`` draws
``env.get_frame(agent_pov=True)``. :class:`MiniGridNames` gives
:class:`~mazeplugin.gym.MazeEnv` those names, written as MiniGrid's
``MiniGridEnv`` writes them, over a ``minigrid.core.grid.Grid`` of MiniGrid's
own world objects (``Wall``, ``Goal``, ``Key``, ``Door``) built on demand from
the level as it is now (keys taken, doors opened). They need the ``minigrid``
package (the wrappers' own); nothing else in the env does.

The env's own observations do not come from this grid: they are made by the
batched rules (:mod:`mazeplugin.gym.engine`), the same bytes as MiniGrid's
``gen_obs`` (a test compares them step by step).

>>> from mazeplugin.gym import MazeEnv
>>> env = MazeEnv("kruskal", 3, 3, keys=1)
>>> _ = env.reset(seed=2)
>>> env.grid.width, env.grid.height, env.grid.get(0, 0).type
(7, 7, 'wall')
>>> env.grid.encode().shape
(7, 7, 3)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from .engine import COLOURS, DOOR, GOAL, KEY, LOCKED, OPEN, WALL, Batch

if TYPE_CHECKING:  # pragma: no cover
    from .env import Settings

__all__ = ["MiniGridNames", "minigrid_grid"]


def _minigrid() -> Any:
    try:
        import minigrid.core.grid
        import minigrid.core.world_object
    except ImportError as missing:  # pragma: no cover - exercised without minigrid
        raise ImportError("MiniGrid's grid objects need the minigrid package: pip install minigrid") from missing
    return minigrid.core


_LEVEL_GRID: list[Any] = []


def _level_grid_class() -> Any:
    """``minigrid.core.grid.Grid`` whose ``get`` answers a ``Wall`` outside the level instead of failing an assert.

    A maze's entrance is in its outer wall, so an agent there may face out of
    the level: ``NoDeath`` then asks ``grid.get(*front_pos)`` one tile outside
    (MiniGrid's own agents never stand on the edge). Outside is wall, as the
    view sees it (and as MiniGrid's ``Grid.slice`` fills it).
    """
    if not _LEVEL_GRID:
        core = _minigrid()

        class LevelGrid(core.grid.Grid):  # type: ignore[misc, name-defined]
            """A level as MiniGrid's ``Grid``; a ``Wall`` outside it."""

            def get(self, i: int, j: int) -> Any:
                if 0 <= i < self.width and 0 <= j < self.height:
                    return self.grid[j * self.width + i]
                return core.world_object.Wall()

        _LEVEL_GRID.append(LevelGrid)
    return _LEVEL_GRID[0]


def minigrid_grid(batch: Batch, index: int) -> Any:
    """Level ``index`` of ``batch`` as a ``minigrid.core.grid.Grid``: MiniGrid's ``Wall``, ``Goal``, ``Key`` and ``Door``
    objects (a door's ``is_open``/``is_locked`` from its state), ``None`` on empty floor; ``columns`` × ``rows`` cells,
    and a ``Wall`` for ``get`` outside them."""
    core = _minigrid()
    objects = core.world_object
    p = batch.pad
    cells = batch.grid[index, p:p + batch.rows, p:p + batch.columns]
    kind, colour, state = cells[..., 0], cells[..., 1], cells[..., 2]
    grid = _level_grid_class()(batch.columns, batch.rows)
    tiles: list[Any] = [None] * (batch.rows * batch.columns)
    for y, x in zip(*np.nonzero(kind != 1)):  # everything but empty floor (MiniGrid's None)
        k, c = int(kind[y, x]), COLOURS[int(colour[y, x])]
        if k == WALL:
            thing: Any = objects.Wall()
        elif k == GOAL:
            thing = objects.Goal()
        elif k == KEY:
            thing = objects.Key(c)
        elif k == DOOR:
            s = int(state[y, x])
            thing = objects.Door(c, is_open=s == OPEN, is_locked=s == LOCKED)
        else:  # pragma: no cover - the engine writes no other object
            raise AssertionError(f"unexpected object id {k}")
        thing.init_pos = thing.cur_pos = (int(x), int(y))
        tiles[int(y) * batch.columns + int(x)] = thing
    grid.grid = tiles
    return grid


class MiniGridNames:
    """MiniGrid's ``MiniGridEnv`` attributes and methods, for its wrappers (see the module's doc).

    A mixin over :class:`~mazeplugin.gym.MazeEnv`: reads its ``_batch``,
    ``agent_pos``, ``agent_dir``, ``agent_view_size`` and ``mission``.
    """

    _batch: Batch
    _started: bool
    settings: "Settings"
    agent_view_size: int
    mission: str
    width: int
    height: int
    see_through_walls: bool = False
    """MiniGrid's flag: always False here (walls and closed doors block sight, as in MiniGrid's mazes)."""
    agent_pov: bool = False
    """MiniGrid's flag for ``render()``: True draws the agent's view (``get_frame(agent_pov=True)``) instead of the level."""
    _grid_cache: Optional[Tuple[bytes, Any]] = None

    @property
    def agent_pos(self) -> Tuple[int, int]:  # pragma: no cover - MazeEnv defines it
        raise NotImplementedError

    @property
    def agent_dir(self) -> int:  # pragma: no cover - MazeEnv defines it
        raise NotImplementedError

    def _ready(self) -> None:
        if not self._started:
            raise RuntimeError("call reset() before reading the grid")

    @property
    def grid(self) -> Any:
        """The level now, as MiniGrid's ``Grid`` (``encode()``, ``get(x, y)``, ``width``, ``height``, ``grid``).

        Built from the level when first read after a change (a step that
        moves a key or a door, a reset), then kept. A picture: changing it
        does not change the level. Needs the ``minigrid`` package.
        """
        self._ready()
        p = self._batch.pad
        now = self._batch.grid[0, p:p + self._batch.rows, p:p + self._batch.columns].tobytes()
        if self._grid_cache is None or self._grid_cache[0] != now:
            self._grid_cache = (now, minigrid_grid(self._batch, 0))
        return self._grid_cache[1]

    @property
    def carrying(self) -> Any:
        """The key the agent holds, as MiniGrid's ``Key`` (None when its hands are empty; always None in simple mode)."""
        self._ready()
        colour = int(self._batch.carrying[0])
        if colour < 0:
            return None
        return _minigrid().world_object.Key(COLOURS[colour])

    @property
    def dir_vec(self) -> NDArray[np.int_]:
        """The step of a move forward, ``(dx, dy)`` (MiniGrid's ``DIR_TO_VEC[agent_dir]``)."""
        vectors = ((1, 0), (0, 1), (-1, 0), (0, -1))
        return np.array(vectors[self.agent_dir])

    @property
    def right_vec(self) -> NDArray[np.int_]:
        """The agent's right, ``(dx, dy)``."""
        dx, dy = self.dir_vec
        return np.array((-dy, dx))

    @property
    def front_pos(self) -> NDArray[np.int_]:
        """The tile ahead of the agent, ``(x, y)``."""
        return np.array(self.agent_pos) + self.dir_vec

    @property
    def goal_pos(self) -> Tuple[int, int]:
        """The exit's tile ``(x, y)`` (the ``Goal``; MiniGrid's name in its envs with one goal)."""
        self._ready()
        p = self._batch.pad
        ys, xs = np.nonzero(self._batch.grid[0, p:p + self._batch.rows, p:p + self._batch.columns, 0] == GOAL)
        return (int(xs[0]), int(ys[0]))

    @property
    def steps_remaining(self) -> int:
        """Steps before the episode is truncated."""
        return int(self.settings.max_steps - self._batch.steps[0])

    def get_view_exts(self, agent_view_size: Optional[int] = None) -> Tuple[int, int, int, int]:
        """MiniGrid's ``get_view_exts``: the view's square of tiles ``(top x, top y, bottom x, bottom y)``, bottoms excluded."""
        size = agent_view_size or self.agent_view_size
        x, y = self.agent_pos
        top = {0: (x, y - size // 2), 1: (x - size // 2, y), 2: (x - size + 1, y - size // 2),
               3: (x - size // 2, y - size + 1)}[self.agent_dir]
        return top[0], top[1], top[0] + size, top[1] + size

    def gen_obs_grid(self, agent_view_size: Optional[int] = None) -> Tuple[Any, NDArray[np.bool_]]:
        """MiniGrid's ``gen_obs_grid``: the view as a ``Grid`` turned so the agent looks up, and the visibility mask.

        ``agent_view_size`` (odd, >= 3) may differ from the env's (``ViewSizeWrapper``).
        """
        size = agent_view_size or self.agent_view_size
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 3 or size % 2 == 0:
            raise ValueError(f"agent_view_size must be an odd whole number >= 3, got {agent_view_size!r}")
        top_x, top_y, _, _ = self.get_view_exts(size)
        grid = self.grid.slice(top_x, top_y, size, size)
        for _ in range(self.agent_dir + 1):
            grid = grid.rotate_left()
        if self.see_through_walls:
            vis_mask = np.ones((grid.width, grid.height), dtype=bool)
        else:
            vis_mask = grid.process_vis(agent_pos=(size // 2, size - 1))
        grid.set(grid.width // 2, grid.height - 1, self.carrying)
        return grid, vis_mask

    def gen_obs(self) -> Any:
        """MiniGrid's ``gen_obs``: the observation now (what the last ``reset`` or ``step`` returned)."""
        self._ready()
        return self._observation()

    def _observation(self) -> Any:  # pragma: no cover - MazeEnv defines it
        raise NotImplementedError

    def get_pov_render(self, tile_size: int) -> NDArray[np.uint8]:
        """MiniGrid's ``get_pov_render``: the agent's view drawn by MiniGrid, ``(V * tile_size, V * tile_size, 3)``."""
        grid, vis_mask = self.gen_obs_grid()
        size = self.agent_view_size
        picture: NDArray[np.uint8] = grid.render(tile_size, agent_pos=(size // 2, size - 1), agent_dir=3, highlight_mask=vis_mask)
        return picture

    def hash(self, size: int = 16) -> str:
        """MiniGrid's ``hash``: a digest of the grid, the agent's tile and its direction."""
        import hashlib

        sample = hashlib.sha256()
        for item in (self.grid.encode().tolist(), list(self.agent_pos), self.agent_dir):
            sample.update(str(item).encode("utf8"))
        return sample.hexdigest()[:size]
