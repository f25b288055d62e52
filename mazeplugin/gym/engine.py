"""The rules of the maze environments, for N levels at once, in numpy arrays.

No gymnasium here: :class:`Batch` holds N levels padded into one array and
steps all of them with a handful of array operations, whatever N is. The
single environment (:class:`mazeplugin.gym.MazeEnv`) is a batch of one and the
vector environment a batch of N, so both follow the very same rules.

The grid holds MiniGrid's own encoding: every tile is ``(object, colour,
state)`` as in ``minigrid.core.constants`` (wall ``(2, 5, 0)``, empty floor
``(1, 0, 0)``, goal ``(8, 1, 0)``, a key ``(5, colour, 0)``, a door ``(4,
colour, state)`` with state 0 open, 1 closed, 2 locked), so the egocentric
view is one gather from it. Each level sits at ``(pad, pad)`` in a wall-filled
array ``pad`` tiles wider on every side than the largest level, so a view
never leaves the array; outside the level is wall, as MiniGrid's view sees it.

Directions are MiniGrid's: 0 east (+x), 1 south (+y), 2 west, 3 north.

>>> import mazeplugin as mp
>>> batch = Batch(1, rows=5, columns=7, view_size=3)
>>> level = mp.generate("kruskal", 3, 2, seed=1)
>>> batch.load(0, level)
>>> (batch.position[0] - batch.pad).tolist(), int(batch.direction[0])   # (y, x): the entrance (0, 1), facing east
([1, 0], 0)
>>> print(level)
#######
S #   #
# ### #
#     E
#######
>>> batch.view()[0, :, :, 0].T.tolist()   # object ids by view row, farthest first; the agent at the bottom middle
[[2, 2, 2], [2, 1, 1], [2, 1, 2]]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from .. import FLOOR, Level
from .kernels import step_kernel, step_levels, view_kernel
from .sight import DIRECTION_VECTORS, spread_rows, view_offsets, visible, visible_one

__all__ = [
    "Batch", "COLOURS", "LOCK_COLOURS", "MAX_LOCKS", "COMPILED_VIEWS", "DIRECTION_VECTORS", "visible", "visible_one",
    # MiniGrid's object ids and door states
    "UNSEEN", "EMPTY", "WALL", "DOOR", "KEY", "GOAL", "AGENT", "OPEN", "CLOSED", "LOCKED",
]

# MiniGrid's object ids (minigrid.core.constants.OBJECT_TO_IDX).
UNSEEN, EMPTY, WALL, DOOR, KEY, GOAL, AGENT = 0, 1, 2, 4, 5, 8, 10
# MiniGrid's colour ids (COLOR_TO_IDX) and door states (STATE_TO_IDX).
COLOURS = ("red", "green", "blue", "purple", "yellow", "grey")
RED, GREEN, BLUE, PURPLE, YELLOW, GREY = range(6)
OPEN, CLOSED, LOCKED = 0, 1, 2

COMPILED_VIEWS = 64
"""Batches at least this large take the compiled view (when numba is installed): below, numpy's is as quick."""

LOCK_COLOURS = (RED, BLUE, PURPLE, YELLOW, GREEN, GREY)
"""The colour of lock 1, 2, ...: one lock number, one colour (green and grey, the goal's and the walls', come last)."""
MAX_LOCKS = len(LOCK_COLOURS)
"""At most this many keys: MiniGrid has six colours, and a key opens every door of its colour."""


# A tile is 4 bytes (the fourth always 0) so that a grid is also a uint32 array: one gather per view.
_VECTORS = [(int(dx), int(dy)) for dx, dy in DIRECTION_VECTORS]
_WALL_CODE = (WALL, GREY, OPEN, 0)
_EMPTY_CODE = (EMPTY, 0, 0, 0)
_GOAL_CODE = (GOAL, GREEN, 0, 0)
Tile = Tuple[int, int]
Mark = Tuple[Tuple[int, int, int, int], Sequence[Tile]]  # a key or locked door: its code and the tiles it is on
_word = lru_cache(maxsize=None)(lambda code: np.array(code, dtype=np.uint8).view(np.uint32)[0])  # code -> its word


class Batch:
    """N levels in numpy arrays, stepped together.

    Args:
        n: how many levels.
        rows, columns: the largest level's tilemap shape; smaller levels sit
            in its top-left corner with wall around them.
        view_size: the egocentric view's side (odd, >= 3).
        compiled: use the numba view (:mod:`mazeplugin.gym.kernels`) for
            :data:`COMPILED_VIEWS` levels or more, when numba is installed.

    Attributes (all indexed by level first):
        grid: uint8 ``(n, rows + 2 * pad, columns + 2 * pad, 4)``, MiniGrid's encoding per tile
            (object, colour, state) and a 0 byte.
        position: intp ``(n, 2)``, the agent's ``(y, x)`` in ``grid``.
        direction: intp ``(n,)``, 0 east, 1 south, 2 west, 3 north.
        carrying: intp ``(n,)``, the colour of the key held (MiniGrid mode), -1 for none.
        held: intp ``(n,)``, a bit per colour of the keys held (simple mode).
        steps: intp ``(n,)``, steps taken this episode.
        loads: int64 ``(n,)``, how many levels each slot has loaded (a level's own data is stale once it moves).
        ended: how many levels ended (terminated or truncated) in the last :meth:`step_minigrid_view`.
    """

    n: int
    rows: int
    columns: int
    view_size: int

    def __init__(self, n: int, *, rows: int, columns: int, view_size: int, compiled: bool = True) -> None:
        self.n, self.rows, self.columns, self.view_size = n, rows, columns, view_size
        self.compiled = compiled
        self.pad = view_size
        shape = (n, rows + 2 * self.pad, columns + 2 * self.pad, 4)
        self.grid: NDArray[np.uint8] = np.empty(shape, dtype=np.uint8)
        self.grid[...] = _WALL_CODE
        self.position: NDArray[np.intp] = np.zeros((n, 2), dtype=np.intp)
        self.direction: NDArray[np.intp] = np.zeros(n, dtype=np.intp)
        self.carrying: NDArray[np.intp] = np.full(n, -1, dtype=np.intp)
        self.held: NDArray[np.intp] = np.zeros(n, dtype=np.intp)
        self.steps: NDArray[np.intp] = np.zeros(n, dtype=np.intp)
        self.loads: NDArray[np.int64] = np.zeros(n, dtype=np.int64)  # levels loaded per slot: what was computed per level is stale when it moves
        self._dy, self._dx = view_offsets(view_size)
        # The same, as steps in the flattened grid (int32 while it fits: half the memory traffic per view).
        small = shape[0] * shape[1] * shape[2] < 2**31
        self._offsets = (self._dy * shape[2] + self._dx).astype(np.int32 if small else np.intp)
        self._all = np.arange(n)
        self._still: Optional[NDArray[np.uint8]] = None  # a single env's top-down channels, kept between steps
        # The compiled step keeps a copy of `grid` with a byte per tile (TILE_WORDS[code] is the tile) and
        # each level's sight as bit lines, re-made per level on demand: every change to `grid` outside that
        # step clears the level's `_coded` flag. `_levels` holds them (flat views) with the step's other
        # arguments about the levels, made on first use.
        self._coded: NDArray[np.bool_] = np.zeros(n, dtype=bool)
        self._levels: Optional[Tuple[Any, ...]] = None
        self.ended = 0
        self._one: Optional[Tuple[NDArray[np.intp], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_]]] = None

    # -- levels ---------------------------------------------------------------

    def load(self, index: int, level: Level) -> None:
        """Put ``level`` into slot ``index``: its tiles, keys, doors and goal, and the agent at its entrance (:meth:`place`)."""
        if level.entrance is None or level.exit is None:
            raise ValueError("a level for an environment needs an entrance and an exit (markers='none' has neither)")
        marks: List[Mark] = []
        for thing in level.things:
            lock = thing.props.get("lock")
            if thing.kind not in ("key", "door") or not isinstance(lock, int):
                continue
            if not 1 <= lock <= MAX_LOCKS:
                raise ValueError(f"at most {MAX_LOCKS} locks (MiniGrid's colours), got lock {lock}")
            key, colour = thing.kind == "key", LOCK_COLOURS[lock - 1]
            marks.append(((KEY, colour, 0, 0), (thing.tile,)) if key else ((DOOR, colour, LOCKED, 0), thing.tiles()))
        self.place(index, level.tiles, level.entrance, level.exit, marks)

    def place(self, index: int, tiles: NDArray[np.uint8], entrance: Tile, exit: Tile, marks: Sequence[Mark]) -> None:
        """:meth:`load`'s work from a level's parts (``marks``: keys and locked doors, in order); the agent faces the first floor tile beside the entrance (east, south, west, north)."""
        h, w = tiles.shape
        if h > self.rows or w > self.columns:
            raise ValueError(f"a level of {w} x {h} tiles does not fit the environment's {self.columns} x {self.rows}")
        p = self.pad
        words = self.grid[index].view(np.uint32)[..., 0]  # a tile's code as one word: one store per tile
        words[...] = _word(_WALL_CODE)
        region = words[p:p + h, p:p + w]
        region[tiles == FLOOR] = _word(_EMPTY_CODE)
        for code, where in marks:
            for x, y in where:
                region[y, x] = _word(code)
        region[exit[1], exit[0]] = _word(_GOAL_CODE)
        x, y = entrance
        self.position[index, 0], self.position[index, 1] = y + p, x + p
        self.direction[index] = 0
        for direction, (dx, dy) in enumerate(_VECTORS):
            if 0 <= x + dx < w and 0 <= y + dy < h and tiles[y + dy, x + dx] == FLOOR:
                self.direction[index] = direction
                break
        self.carrying[index] = -1
        self.held[index] = 0
        self.steps[index] = 0
        self.loads[index] += 1
        self._still = None
        self._coded[index] = False

    # -- MiniGrid mode ---------------------------------------------------------

    def view(self, which: Optional[NDArray[np.intp]] = None) -> NDArray[np.uint8]:
        """MiniGrid's ``image`` observation of each level (or of ``which`` levels): uint8 ``(k, V, V, 3)``.

        Indexed ``[k, x, y]`` like MiniGrid's (``Grid.encode`` is column-major):
        the agent is at ``[V // 2, V - 1]``, looking towards ``y = 0``; cells it
        cannot see are ``(0, 0, 0)``; its own cell shows the key it carries.
        """
        index = self._all if which is None else which
        if self.n == 1 and which is None and not (self.compiled and view_kernel(wait=False)):
            return self._view_one()
        direction = self.direction[index]
        g = self.grid
        words = g.view(np.uint32).reshape(-1)  # one uint32 per tile
        here = ((index * g.shape[1] + self.position[index, 0]) * g.shape[2] + self.position[index, 1]).astype(self._offsets.dtype)
        size = self.view_size
        fast = view_kernel(wait=len(index) >= COMPILED_VIEWS) if self.compiled else None
        if fast is not None:
            out = np.empty((len(index), size, size), dtype=np.uint32)
            fast(words, here, direction, self._offsets, self.carrying[index], out)
            compiled: NDArray[np.uint8] = out.view(np.uint8).reshape(out.shape + (4,))[..., :3].transpose(0, 2, 1, 3)
            return compiled
        flat = self._offsets[direction] + here[:, None, None]
        seen = np.take(words, flat)  # [k, vy, vx]
        cells = seen.view(np.uint8).reshape(flat.shape + (4,))
        kind = cells[..., 0]
        see = (kind != WALL) & ((kind != DOOR) | (cells[..., 2] == OPEN))
        mask = visible_one(see[0])[None] if len(index) == 1 else visible(see)
        np.multiply(seen, mask, out=seen)
        carried = self.carrying[index]
        # The agent's own cell shows what it carries (MiniGrid puts the carried object there).
        me = np.where(carried >= 0, KEY | (carried.astype(np.uint32) << 8), EMPTY).astype(np.uint32)
        seen[:, size - 1, size // 2] = me
        image: NDArray[np.uint8] = cells[..., :3].transpose(0, 2, 1, 3)
        return image

    def _view_one(self) -> NDArray[np.uint8]:
        """:meth:`view` of a batch of one, with the visibility in plain Python."""
        g = self.grid
        here = int(self.position[0, 0]) * g.shape[2] + int(self.position[0, 1])
        words = np.take(g.view(np.uint32).reshape(-1), self._offsets[int(self.direction[0])] + here).tolist()
        see = [[(w & 255) != WALL and ((w & 255) != DOOR or (w >> 16) & 255 == OPEN) for w in row] for row in words]
        mask = spread_rows(see)
        for row, lit in zip(words, mask):
            for i, on in enumerate(lit):
                if not on:
                    row[i] = 0
        size = self.view_size
        carried = int(self.carrying[0])
        words[size - 1][size // 2] = KEY | (carried << 8) if carried >= 0 else EMPTY
        cells = np.array(words, dtype=np.uint32).view(np.uint8).reshape(1, size, size, 4)
        image: NDArray[np.uint8] = cells[..., :3].transpose(0, 2, 1, 3)
        return image

    def seen(self, index: int) -> NDArray[np.bool_]:
        """The tiles level ``index``'s agent sees now: bool ``(rows, columns)`` (for highlighting in pictures)."""
        direction = int(self.direction[index])
        ys = self.position[index, 0] + self._dy[direction]
        xs = self.position[index, 1] + self._dx[direction]
        kind = self.grid[index, ys, xs, 0]
        see = (kind != WALL) & ~((kind == DOOR) & (self.grid[index, ys, xs, 2] != OPEN))
        mask = visible_one(see)
        out = np.zeros((self.rows + 2 * self.pad, self.columns + 2 * self.pad), dtype=bool)
        out[ys[mask], xs[mask]] = True
        p = self.pad
        return out[p:p + self.rows, p:p + self.columns]

    def step_minigrid(self, action: NDArray[np.intp], max_steps: int) -> Tuple[NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_]]:
        """One MiniGrid step for every level: ``(reward, terminated, truncated)``.

        Actions are MiniGrid's: 0 left, 1 right, 2 forward, 3 pickup, 4 drop,
        5 toggle, 6 done. The rules are MiniGrid's ``MiniGridEnv.step``: forward
        enters floor, an open door or the goal (reward ``1 - 0.9 * steps /
        max_steps``, terminated); pickup takes the key ahead when the hands are
        empty; drop puts the key on empty floor ahead; toggle unlocks a locked
        door with the key of its colour (opening it), or opens and closes an
        unlocked one; truncated once ``steps >= max_steps``.
        """
        n = self._all
        self._still = None
        self._coded[:] = False
        self.steps += 1
        ahead = self.position + DIRECTION_VECTORS[self.direction][:, ::-1]
        cell = self.grid[n, ahead[:, 0], ahead[:, 1]]  # (n, 3), a copy
        kind, colour, state = cell[:, 0], cell[:, 1].astype(np.intp), cell[:, 2]
        self.direction = np.where(action == 0, (self.direction - 1) % 4, self.direction)
        self.direction = np.where(action == 1, (self.direction + 1) % 4, self.direction)
        forward = action == 2
        enters = forward & ((kind == EMPTY) | (kind == GOAL) | ((kind == DOOR) & (state == OPEN)))
        self.position = np.where(enters[:, None], ahead, self.position)
        terminated = forward & (kind == GOAL)
        reward = np.where(terminated, 1.0 - 0.9 * (self.steps / max_steps), 0.0)
        picks = (action == 3) & (kind == KEY) & (self.carrying < 0)
        if picks.any():
            at = ahead[picks]
            self.carrying[picks] = colour[picks]
            self.grid[n[picks], at[:, 0], at[:, 1]] = _EMPTY_CODE
        drops = (action == 4) & (kind == EMPTY) & (self.carrying >= 0)
        if drops.any():
            at = ahead[drops]
            self.grid[n[drops], at[:, 0], at[:, 1], 0] = KEY
            self.grid[n[drops], at[:, 0], at[:, 1], 1] = self.carrying[drops]
            self.carrying[drops] = -1
        # A locked door without its key stays as it is (as in step_one and MiniGrid): no toggle.
        toggles = (action == 5) & (kind == DOOR) & ((state != LOCKED) | (self.carrying == colour))
        if toggles.any():
            new = np.where(state == LOCKED, OPEN, np.where(state == OPEN, CLOSED, OPEN))
            self._set_door(toggles, ahead, colour, new)
        truncated = self.steps >= max_steps
        return reward, terminated, truncated

    @property
    def fuses(self) -> bool:
        """Whether :meth:`step_minigrid_view` runs (compiled, with numba: 64 levels or more; builds the kernel if need be)."""
        return self.compiled and self.n >= COMPILED_VIEWS and self.view_size < 63 and step_kernel(wait=True) is not None

    def step_minigrid_view(self, action: NDArray[np.intp], max_steps: int, *, fresh: Optional[NDArray[np.intp]] = None) -> Optional[Tuple[NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], NDArray[np.uint8]]]:
        """:meth:`step_minigrid` and then :meth:`view`, in one compiled pass over the levels: ``(reward, terminated, truncated, image)``.

        ``fresh``: levels just loaded, which take no step (their action is
        ignored; reward 0, not ended) and show their first view. Sets :attr:`ended`. None when
        the compiled kernel is not there (see :attr:`fuses`: numba not installed, or
        the batch smaller than :data:`COMPILED_VIEWS`, or a view of 63 tiles or more): call the two methods
        then. The same results as theirs (a test checks it).
        """
        fast = step_kernel(wait=True) if self.fuses else None
        if fast is None:
            return None
        n = self.n
        reward = np.empty(n, dtype=np.float64)
        terminated = np.empty(n, dtype=bool)
        truncated = np.empty(n, dtype=bool)
        moves = np.array(action, dtype=np.intp) if fresh is not None else np.ascontiguousarray(action, dtype=np.intp)
        if fresh is not None:
            moves[fresh] = -1  # the kernel's "no step, only the view"
        image = self._fused(fast, moves, max_steps, reward, terminated, truncated)
        return reward, terminated, truncated, image

    def step_one_view(self, action: int, max_steps: int) -> Optional[Tuple[float, bool, bool, NDArray[np.uint8]]]:
        """:meth:`step_one` (MiniGrid mode) and then ``view()[0]`` in the compiled pass, for a batch of one.

        None until the kernel is built (:func:`~mazeplugin.gym.kernels.warm_up`
        builds it in the background; a single env never waits) or without
        numba: call the two methods then. The same results (a test checks it).
        """
        fast = step_kernel(wait=False) if self.compiled and self.view_size < 63 else None
        if fast is None:
            return None
        if self._one is None:
            self._one = (np.zeros(1, dtype=np.intp), np.zeros(1), np.zeros(1, dtype=bool), np.zeros(1, dtype=bool))
        moves, reward, terminated, truncated = self._one
        moves[0] = action
        image = self._fused(fast, moves, max_steps, reward, terminated, truncated)
        return float(reward[0]), bool(terminated[0]), bool(truncated[0]), image[0]

    def _fused(self, fast: Callable[..., int], action: NDArray[np.intp], max_steps: int, reward: NDArray[np.float64],
               terminated: NDArray[np.bool_], truncated: NDArray[np.bool_]) -> NDArray[np.uint8]:
        """Run the compiled step and view (:func:`~mazeplugin.gym.kernels.step_kernel`) into the given outputs; the image."""
        self._still = None
        if self.position.dtype != np.intp or not self.position.flags.c_contiguous:
            self.position = np.ascontiguousarray(self.position, dtype=np.intp)
        if self.direction.dtype != np.intp:
            self.direction = self.direction.astype(np.intp)
        if self._levels is None:
            self._coded[:] = False
            self._levels = step_levels(self.grid, self._coded, self.rows, self.columns, self.pad, self.view_size)
        n, size = self.n, self.view_size
        image = np.empty((n, size, size, 3), dtype=np.uint8)  # indexed [k, x, y] as MiniGrid's images
        self.ended = fast(*self._levels, self.position, self.direction, self.carrying, self.steps, action, max_steps,
                          reward, terminated, truncated, image)
        return image

    def __getstate__(self) -> Dict[str, Any]:
        # The compiled step's flat views of the grid are not copied: a copy would not share the grid's memory.
        state = self.__dict__.copy()
        state["_levels"] = None
        return state

    def step_one(self, action: int, max_steps: int, *, simple: bool = False) -> Tuple[float, bool, bool]:
        """:meth:`step_minigrid` (or :meth:`step_simple`) for a batch of one, in plain Python: the same rules.

        A single environment steps this way (numpy's per-call cost dominates
        arrays of one); tests check it against the batched rules and MiniGrid.
        """
        grid = self.grid[0]
        self._coded[0] = False
        steps = int(self.steps[0]) + 1
        self.steps[0] = steps
        y, x = int(self.position[0, 0]), int(self.position[0, 1])
        direction = (action + 3) % 4 if simple else int(self.direction[0])
        dx, dy = _VECTORS[direction]
        ay, ax = y + dy, x + dx
        kind, colour, state, _ = grid[ay, ax].tolist()
        reward, terminated = 0.0, False
        if simple:
            self.direction[0] = direction
            enters = kind in (EMPTY, GOAL) or (kind == DOOR and state == OPEN)
            if kind == KEY:
                self.held[0] |= 1 << colour
                grid[ay, ax] = _EMPTY_CODE
                enters = True
                self._still = None
            elif kind == DOOR and state != OPEN and (int(self.held[0]) >> colour) & 1:
                self._set_door_one(colour, OPEN)
                enters = True
            if enters:
                self.position[0] = (ay, ax)
            terminated = kind == GOAL
        elif action == 0:
            self.direction[0] = (direction - 1) % 4
        elif action == 1:
            self.direction[0] = (direction + 1) % 4
        elif action == 2:
            if kind in (EMPTY, GOAL) or (kind == DOOR and state == OPEN):
                self.position[0] = (ay, ax)
            terminated = kind == GOAL
        elif action == 3:
            if kind == KEY and self.carrying[0] < 0:
                self.carrying[0] = colour
                grid[ay, ax] = _EMPTY_CODE
                self._still = None
        elif action == 4:
            if kind == EMPTY and self.carrying[0] >= 0:
                grid[ay, ax] = (KEY, int(self.carrying[0]), 0, 0)
                self.carrying[0] = -1
                self._still = None
        elif action == 5 and kind == DOOR:
            if state == LOCKED:
                if self.carrying[0] == colour:
                    self._set_door_one(colour, OPEN)
            else:
                self._set_door_one(colour, CLOSED if state == OPEN else OPEN)
        if terminated:
            reward = 1.0 - 0.9 * (steps / max_steps)
        return reward, terminated, steps >= max_steps

    def _set_door_one(self, colour: int, state: int) -> None:
        self._still = None
        self._coded[0] = False
        grid = self.grid[0]
        same = (grid[..., 0] == DOOR) & (grid[..., 1] == colour)
        grid[..., 2][same] = state

    def _set_door(self, which: NDArray[np.bool_], at: NDArray[np.intp], colour: NDArray[np.intp], state: NDArray[np.intp]) -> None:
        """Give the door ahead of each ``which`` level the new ``state``: every tile of it (wide corridors)."""
        index = np.flatnonzero(which)
        self._coded[index] = False
        grids = self.grid[index]
        same = (grids[..., 0] == DOOR) & (grids[..., 1] == colour[index, None, None])
        # A door spans one passage; its tiles all share the colour of its lock.
        grids[..., 2] = np.where(same, state[index, None, None], grids[..., 2])
        self.grid[index] = grids

    # -- simple mode -----------------------------------------------------------

    def step_simple(self, action: NDArray[np.intp], max_steps: int) -> Tuple[NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_]]:
        """One simple-mode step for every level: ``(reward, terminated, truncated)``.

        Actions 0 north, 1 east, 2 south, 3 west. Walking onto a key picks
        it up; walking into a locked door opens it (and enters it) when its
        key is held, else the agent stays, as against a wall. The goal
        terminates with MiniGrid's reward.
        """
        n = self._all
        self._still = None
        self._coded[:] = False
        self.steps += 1
        direction = (action + 3) % 4  # north, east, south, west -> MiniGrid's 3, 0, 1, 2
        self.direction = direction
        ahead = self.position + DIRECTION_VECTORS[direction][:, ::-1]
        cell = self.grid[n, ahead[:, 0], ahead[:, 1]]
        kind, colour, state = cell[:, 0], cell[:, 1].astype(np.intp), cell[:, 2]
        bit = np.left_shift(1, colour)
        opens = (kind == DOOR) & (state != OPEN) & ((self.held & bit) != 0)
        enters = (kind == EMPTY) | (kind == GOAL) | (kind == KEY) | ((kind == DOOR) & (state == OPEN)) | opens
        picks = kind == KEY
        if picks.any():
            at = ahead[picks]
            self.held[picks] |= bit[picks]
            self.grid[n[picks], at[:, 0], at[:, 1]] = _EMPTY_CODE
        if opens.any():
            self._set_door(opens, ahead, colour, np.full(self.n, OPEN, dtype=np.intp))
        self.position = np.where(enters[:, None], ahead, self.position)
        terminated = kind == GOAL
        reward = np.where(terminated, 1.0 - 0.9 * (self.steps / max_steps), 0.0)
        truncated = self.steps >= max_steps
        return reward, terminated, truncated

    def top_down(self, which: Optional[NDArray[np.intp]] = None) -> NDArray[np.uint8]:
        """The simple mode's observation: uint8 ``(k, rows, columns, 6)``, 0 or 1 per channel.

        Channels: 0 wall, 1 agent, 2 goal, 3 key, 4 a locked door whose key
        is not held, 5 a locked door whose key is held; indexed ``[k, y, x, channel]``.
        """
        index = self._all if which is None else which
        p = self.pad
        if self.n == 1 and which is None:
            # A single env: the channels but the agent's change only when a key or door does; keep them.
            if self._still is None:
                self._still = self._channels(index)
            out = self._still.copy()
        else:
            out = self._channels(index)
        out[np.arange(len(index)), self.position[index, 0] - p, self.position[index, 1] - p, 1] = 1
        return out

    def _channels(self, index: NDArray[np.intp]) -> NDArray[np.uint8]:
        """:meth:`top_down` without the agent's channel."""
        p = self.pad
        grid = self.grid[index, p:p + self.rows, p:p + self.columns]
        kind, colour, state = grid[..., 0], grid[..., 1].astype(np.intp), grid[..., 2]
        out = np.zeros(grid.shape[:3] + (6,), dtype=np.uint8)
        out[..., 0] = kind == WALL
        out[..., 2] = kind == GOAL
        out[..., 3] = kind == KEY
        closed = (kind == DOOR) & (state != OPEN)
        have = (self.held[index, None, None] >> colour) & 1 == 1
        out[..., 4] = closed & ~have
        out[..., 5] = closed & have
        return out
