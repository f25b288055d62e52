"""Expert action sequences: a level's solution as the moves and actions of :mod:`mazeplugin.gym`'s two modes.

No gymnasium here (the dataset computes the actions itself; the tests replay
them through ``mazeplugin.gym.MazeEnv``). The rules followed are the env's:

- **moves** (the ``"simple"`` mode, ``Moves`` ids 0 north, 1 east, 2 south,
  3 west): one move a step of the solution. Walking onto a key picks it up,
  walking into a locked door with its key opens it, so the solution's tiles
  are the moves.
- **actions** (the ``"minigrid"`` mode, MiniGrid's ``Actions`` ids 0 left,
  1 right, 2 forward, 3 pickup, 4 drop, 5 toggle): the agent starts on the
  entrance facing the first floor tile beside it (east, south, west, north),
  turns the shorter way towards each next tile, picks a key up from the tile
  ahead with empty hands (MiniGrid carries one key at a time), toggles a
  locked door ahead open while carrying its colour (every door of that colour
  opens) and walks forward; the last forward enters the goal.

One key carried: a key no door left on the route needs is dropped, when the
route still has a key to pick up, as soon as the agent stands beside a free floor tile off the rest of the route (not a
key, door or the goal), so the next key can be picked up. A route that must
pick up a key while the one carried still opens a door ahead (a key swap),
or that finds no free tile to drop a used key on before the next key, gets a
:class:`ExpertError`; ``mp.generate(..., keys=k)`` levels up to 2 keys need no
swap in the seeds the tests try (their solution opens each door before the
next key). Weave levels (bridges) are refused: their walk goes over and under
tiles, which a tile sequence of moves does not say.

>>> import mazeplugin as mp
>>> level = mp.generate("kruskal", 3, 2, seed=1)
>>> print(level)
#######
S #   #
# ### #
#     E
#######
>>> moves(level.solution())          # east, south, south, then east five times
[1, 2, 2, 1, 1, 1, 1, 1]
>>> actions(level)                   # forward, turn right, forward twice, turn left, forward five times
[2, 1, 2, 2, 0, 2, 2, 2, 2, 2]
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Set, Tuple

import numpy as np
from numpy.typing import NDArray

import mazeplugin as mp

__all__ = ["ExpertError", "moves", "actions", "plan_actions", "start_direction", "LEFT", "RIGHT", "FORWARD", "PICKUP", "DROP",
           "TOGGLE", "NORTH", "EAST", "SOUTH", "WEST"]

Tile = Tuple[int, int]

# mazeplugin.gym.Actions and Moves ids (gym is not imported: the tests check these against it).
LEFT, RIGHT, FORWARD, PICKUP, DROP, TOGGLE = 0, 1, 2, 3, 4, 5
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3

# MiniGrid's directions: 0 east, 1 south, 2 west, 3 north, as (dx, dy).
_VECTORS = ((1, 0), (0, 1), (-1, 0), (0, -1))
_MOVE_OF = {(0, -1): NORTH, (1, 0): EAST, (0, 1): SOUTH, (-1, 0): WEST}
_DIRECTION_OF = {vector: direction for direction, vector in enumerate(_VECTORS)}


class ExpertError(ValueError):
    """A level whose solution has no action sequence under the rules followed here (a key swap, a weave level)."""


def moves(path: Sequence[Tile]) -> List[int]:
    """The simple mode's moves (``Moves`` ids) walking ``path``, a list of 4-adjacent ``(x, y)`` tiles."""
    out = []
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        move = _MOVE_OF.get((x1 - x0, y1 - y0))
        if move is None:
            raise ExpertError(f"path steps from {(x0, y0)} to {(x1, y1)}, which are not 4-adjacent tiles")
        out.append(move)
    return out


def start_direction(tiles: NDArray[np.uint8], entrance: Tile) -> int:
    """The direction the env's agent faces on ``entrance``: the first floor tile beside it, east, south, west, north."""
    rows, columns = tiles.shape
    x, y = entrance
    for direction, (dx, dy) in enumerate(_VECTORS):
        if 0 <= x + dx < columns and 0 <= y + dy < rows and tiles[y + dy, x + dx] == mp.FLOOR:
            return direction
    return 0


_TURN_ACTIONS: Tuple[Tuple[int, ...], ...] = ((), (RIGHT,), (RIGHT, RIGHT), (LEFT,))
# Each step without keys or doors as actions, by its turn (0 to 3 quarter turns clockwise), padded with -1.
_STEP_TABLE = np.array([[FORWARD, -1, -1], [RIGHT, FORWARD, -1], [RIGHT, RIGHT, FORWARD], [LEFT, FORWARD, -1]],
                       dtype=np.int8)


def _turns(facing: int, want: int) -> Tuple[int, ...]:
    return _TURN_ACTIONS[(want - facing) % 4]


def _plain_actions(route: Sequence[Tile], facing: int) -> List[int]:
    """:func:`plan_actions` of a route without keys or doors: turns and forwards, in a few numpy steps."""
    steps = np.diff(np.asarray(route, dtype=np.intp).reshape(-1, 2), axis=0)
    if not len(steps):
        return []
    dx, dy = steps[:, 0], steps[:, 1]
    if not ((np.abs(dx) + np.abs(dy)) == 1).all():
        k = int(np.flatnonzero((np.abs(dx) + np.abs(dy)) != 1)[0])
        raise ExpertError(f"the route steps from {tuple(route[k])} to {tuple(route[k + 1])}, which are not "
                          "4-adjacent tiles")
    heading = np.where(dx == 1, 0, np.where(dy == 1, 1, np.where(dx == -1, 2, 3)))  # MiniGrid's directions
    before = np.concatenate(([facing], heading[:-1]))
    table = _STEP_TABLE[(heading - before) % 4].reshape(-1)
    out: List[int] = table[table >= 0].tolist()
    return out


def actions(level: mp.Level, path: Optional[Sequence[Tile]] = None) -> List[int]:
    """MiniGrid's actions (``Actions`` ids) that take the env's agent along ``path`` (default the level's
    :meth:`~mazeplugin.Level.solution`) to the exit, with its keys and doors; :class:`ExpertError` when there
    are none under this module's rules (see the module docstring)."""
    if level.weave:
        raise ExpertError("a weave level's walk goes over and under bridges; it has no action sequence here")
    if level.entrance is None or level.exit is None:
        raise ExpertError("a level without entrance and exit (markers='none') has no solution to act out")
    route = list(level.solution() if path is None else path)
    keys: Dict[Tile, int] = {}
    doors: Dict[Tile, int] = {}
    for thing in level.things:
        lock = thing.props.get("lock")
        if thing.kind == "key" and isinstance(lock, int):
            keys[thing.tile] = lock
        elif thing.kind == "door" and isinstance(lock, int):
            for tile in thing.tiles():
                doors[tile] = lock
    return plan_actions(level.tiles, route, keys, doors, level.exit)


def plan_actions(tiles: NDArray[np.uint8], route: Sequence[Tile], keys: Dict[Tile, int], doors: Dict[Tile, int],
                 goal: Tile) -> List[int]:
    """:func:`actions` from a level's parts: its tiles, the route (from the entrance to the ``goal`` tile), its keys
    and doors as ``{tile: lock}`` (``keys`` is changed: picked-up keys leave it, dropped ones join it)."""
    rows, columns = tiles.shape
    facing = start_direction(tiles, route[0])
    if not keys and not doors:
        return _plain_actions(route, facing)
    held: Optional[int] = None
    opened: Set[int] = set()
    out: List[int] = []
    # How many tiles of each lock's doors the route still enters after step i: a held key is needed while > 0.
    door_steps: Dict[int, List[int]] = {}
    for i, tile in enumerate(route):
        if tile in doors:
            door_steps.setdefault(doors[tile], []).append(i)
    # Whether the route still steps onto a key from step i on: only then is a used key dropped.
    key_ahead = [False] * (len(route) + 1)
    for i in range(len(route) - 1, -1, -1):
        key_ahead[i] = key_ahead[i + 1] or route[i] in keys
    x, y = route[0]
    for i in range(1, len(route)):
        nx, ny = route[i]
        if held is not None and key_ahead[i] and _used(held, opened, door_steps, i):
            spot = _drop_spot(tiles, rows, columns, (x, y), facing, set(route[i - 1:]), keys, doors, goal)
            if spot is not None:
                out.extend(_turns(facing, spot))
                facing = spot
                out.append(DROP)
                dx, dy = _VECTORS[spot]
                keys[(x + dx, y + dy)] = held
                held = None
        want = _DIRECTION_OF.get((nx - x, ny - y))
        if want is None:
            raise ExpertError(f"the route steps from {(x, y)} to {(nx, ny)}, which are not 4-adjacent tiles")
        out.extend(_turns(facing, want))
        facing = want
        if (nx, ny) in keys:
            if held is not None:
                raise ExpertError(
                    f"the route picks up the key at {(nx, ny)} while carrying lock {held}'s key, "
                    + ("which a door ahead still needs (a key swap)" if not _used(held, opened, door_steps, i)
                       else "with no free tile beside the route to drop it on"))
            out.append(PICKUP)
            held = keys.pop((nx, ny))
        elif (nx, ny) in doors and doors[(nx, ny)] not in opened:
            lock = doors[(nx, ny)]
            if held != lock:
                raise ExpertError(f"the route enters lock {lock}'s door at {(nx, ny)} without its key")
            out.append(TOGGLE)
            opened.add(lock)
        out.append(FORWARD)
        x, y = nx, ny
    return out


def _used(lock: int, opened: Set[int], door_steps: Dict[int, List[int]], i: int) -> bool:
    """Whether lock ``lock``'s key is needed no more from step ``i`` on (its doors opened, or none ahead)."""
    return lock in opened or not any(step >= i for step in door_steps.get(lock, ()))


def _drop_spot(tiles: NDArray[np.uint8], rows: int, columns: int, here: Tile, facing: int, ahead: Set[Tile],
               keys: Dict[Tile, int], doors: Dict[Tile, int], goal: Tile) -> Optional[int]:
    """The direction (fewest turns first) of a free floor tile beside ``here`` off the rest of the route; None."""
    x, y = here
    for turn in (0, 1, 3, 2):
        direction = (facing + turn) % 4
        dx, dy = _VECTORS[direction]
        tile = (x + dx, y + dy)
        if not (0 <= tile[0] < columns and 0 <= tile[1] < rows) or tiles[tile[1], tile[0]] != mp.FLOOR:
            continue
        if tile in ahead or tile in keys or tile in doors or tile == goal:
            continue
        return direction
    return None
