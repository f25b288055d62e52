"""Compiled routes of a batch of levels: each level's shortest path, its moves and MiniGrid actions, and its
distance map, for the dataset's ``"columns"`` (:mod:`mazeplugin.dataset.columns`), all levels in one call.

The answers are the plain code's, level by level:

- the path is :func:`mazeplugin.paths.shortest_path`'s: breadth-first from
  the exit (stopping when the entrance is reached), then downhill from the
  entrance taking the first of north, east, south, west one step nearer
  (breadth-first distances are unique, so the order of the search does not
  matter);
- the moves are :func:`mazeplugin.dataset.expert.moves`' (0 north, 1 east,
  2 south, 3 west, one a step);
- the actions are :func:`mazeplugin.dataset.expert.plan_actions`' on a level
  without keys or doors: the agent starts facing the first floor tile beside
  the entrance (east, south, west, north), turns the shorter way (right for a
  half turn) and steps forward;
- the distance map is :func:`mazeplugin.paths.distance_map`'s: steps from the
  entrance over floor tiles, -1 on walls and unreached tiles.

Every level is framed by a ring of wall tiles (pitch ``columns + 2``), so the
searches need no bounds checks. Paths go end to end into one array cut at
offsets, as a shard holds them.
"""

from __future__ import annotations

from typing import Any, Dict, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from .grid import i32, i64
from .jit import njit, types

U8_2D = types.uint8[:, ::1]
I32_2D = types.int32[:, ::1]
I32_3D = types.int32[:, :, ::1]

# A step's actions by its turn (0 to 3 quarter turns clockwise), -1 padded: forward; right, forward;
# right, right, forward; left, forward (MiniGrid ids: 0 left, 1 right, 2 forward).
_STEP_ACTIONS = np.array([[2, -1, -1], [1, 2, -1], [1, 1, 2], [0, 2, -1]], dtype=np.int64)


@njit(types.Tuple((I32_2D, i64, types.int64))(U8_2D, types.int64, i64, i64),  # type: ignore[no-untyped-call, unused-ignore]
      cache=True, nogil=True)
def solutions(free: Any, pitch: int, starts: Any, goals: Any) -> Any:
    """``(tiles, offsets, missing)``: every level's shortest path from ``starts[i]`` to ``goals[i]`` (framed,
    flat tile numbers of row ``i`` of ``free``), as ``(x, y)`` rows end to end cut at ``offsets``; ``missing``
    is the first level whose goal is not reached (its path left empty), or -1."""
    count, n = free.shape
    step = np.array([-pitch, 1, pitch, -1], dtype=np.int64)
    dist = np.empty(n, dtype=np.int32)
    queue = np.empty(n, dtype=np.int64)
    offsets = np.zeros(count + 1, dtype=np.int64)
    out = np.empty((max(count * 16, 16), 2), dtype=np.int32)
    missing = -1
    total = 0
    for level in range(count):
        cells = free[level]
        dist[:] = -1
        source, target = goals[level], starts[level]  # from the goal: the path reads forwards from the start
        dist[source] = 0
        if source != target:
            queue[0] = source
            head, tail = 0, 1
            found = False
            while head < tail and not found:
                i = queue[head]
                head += 1
                d = dist[i] + 1
                for k in range(4):
                    j = i + step[k]
                    if cells[j] and dist[j] < 0:
                        dist[j] = d
                        if j == target:
                            found = True
                            break
                        queue[tail] = j
                        tail += 1
        if dist[target] < 0:
            if missing < 0:
                missing = level
            offsets[level + 1] = total
            continue
        length = dist[target] + 1
        if total + length > out.shape[0]:
            grown = np.empty((max(2 * out.shape[0], total + length), 2), dtype=np.int32)
            grown[:total] = out[:total]
            out = grown
        i = target
        out[total, 0] = i % pitch - 1
        out[total, 1] = i // pitch - 1
        for d in range(length - 2, -1, -1):
            for k in range(4):
                j = i + step[k]
                if dist[j] == d:
                    i = j
                    break
            at = total + length - 1 - d
            out[at, 0] = i % pitch - 1
            out[at, 1] = i // pitch - 1
        total += length
        offsets[level + 1] = total
    return out[:total].copy(), offsets, missing


@njit(i64(U8_2D, types.int64, i64), cache=True, nogil=True)
def start_directions(free: Any, pitch: int, starts: Any) -> Any:
    """Each level's :func:`mazeplugin.dataset.expert.start_direction` (MiniGrid's 0 east, 1 south, 2 west,
    3 north): the first floor tile beside its start, east, south, west, north; 0 with none."""
    count = free.shape[0]
    step = np.array([1, pitch, -1, -pitch], dtype=np.int64)
    out = np.zeros(count, dtype=np.int64)
    for level in range(count):
        for k in range(4):
            if free[level, starts[level] + step[k]]:
                out[level] = k
                break
    return out


@njit(types.Tuple((types.uint8[::1], i64, types.uint8[::1], i64, types.int64))(I32_2D, i64, i64),  # type: ignore[no-untyped-call, unused-ignore]
      cache=True, nogil=True)
def steps(path: Any, offsets: Any, facing: Any) -> Any:
    """``(moves, moves_offsets, actions, actions_offsets, bad)`` of the paths ``path`` cut at ``offsets``,
    the agent of level ``i`` facing ``facing[i]`` at the start; ``bad`` is the first path row whose next
    tile is not 4-adjacent (its level's sequences are cut there), or -1."""
    count = offsets.size - 1
    moves = np.empty(max(path.shape[0] - count, 0), dtype=np.uint8)
    move_offsets = np.zeros(count + 1, dtype=np.int64)
    actions = np.empty(max(3 * (path.shape[0] - count), 0), dtype=np.uint8)
    action_offsets = np.zeros(count + 1, dtype=np.int64)
    bad = -1
    m = 0
    a = 0
    for level in range(count):
        heading = facing[level]
        for r in range(offsets[level], offsets[level + 1] - 1):
            dx = path[r + 1, 0] - path[r, 0]
            dy = path[r + 1, 1] - path[r, 1]
            if abs(dx) + abs(dy) != 1:
                if bad < 0:
                    bad = r
                break
            # Moves ids: 0 north, 1 east, 2 south, 3 west; MiniGrid's directions: 0 east, 1 south, 2 west, 3 north.
            if dy == -1:
                moves[m] = 0
                want = 3
            elif dx == 1:
                moves[m] = 1
                want = 0
            elif dy == 1:
                moves[m] = 2
                want = 1
            else:
                moves[m] = 3
                want = 2
            m += 1
            turn = (want - heading) % 4
            for k in range(3):
                act = _STEP_ACTIONS[turn, k]
                if act >= 0:
                    actions[a] = act
                    a += 1
            heading = want
        move_offsets[level + 1] = m
        action_offsets[level + 1] = a
    return moves[:m].copy(), move_offsets, actions[:a].copy(), action_offsets, bad


@njit(I32_3D(U8_2D, types.int64, types.int64, types.int64, i64), cache=True, nogil=True)
def distance_maps(free: Any, pitch: int, rows: int, columns: int, sources: Any) -> Any:
    """Every level's steps from ``sources[i]`` over its floor tiles, ``(levels, rows, columns)``, -1 unreached."""
    count, n = free.shape
    step = np.array([-pitch, 1, pitch, -1], dtype=np.int64)
    dist = np.empty(n, dtype=np.int32)
    queue = np.empty(n, dtype=np.int64)
    out = np.empty((count, rows, columns), dtype=np.int32)
    for level in range(count):
        cells = free[level]
        dist[:] = -1
        dist[sources[level]] = 0
        queue[0] = sources[level]
        head, tail = 0, 1
        while head < tail:
            i = queue[head]
            head += 1
            d = dist[i] + 1
            for k in range(4):
                j = i + step[k]
                if cells[j] and dist[j] < 0:
                    dist[j] = d
                    queue[tail] = j
                    tail += 1
        for y in range(rows):
            for x in range(columns):
                out[level, y, x] = dist[(y + 1) * pitch + x + 1]
    return out


def framed(tiles: NDArray[np.uint8]) -> Tuple[NDArray[np.uint8], int]:
    """``(free, pitch)``: levels ``(count, rows, columns)`` as rows of framed flat floor flags (1 floor)."""
    count, rows, columns = tiles.shape
    free = np.zeros((count, rows + 2, columns + 2), dtype=np.uint8)
    free[:, 1:-1, 1:-1] = tiles == 0
    return free.reshape(count, -1), columns + 2


def batch_routes(tiles: NDArray[np.uint8], entrance: NDArray[np.integer[Any]], exit: NDArray[np.integer[Any]],
                 names: Sequence[str]) -> Dict[str, NDArray[Any]]:
    """The routes' arrays of levels ``tiles`` ``(count, rows, columns)`` with ``entrance``/``exit`` ``(count, 2)``
    ``(x, y)``: ``"solution"`` int32 ``(total, 2)`` with ``"solution_offsets"``, ``"moves"`` and ``"actions"``
    uint8 with their offsets, ``"distances"`` int32 ``(count, rows, columns)``, those of ``names``.
    ``ValueError`` naming the level when an exit cannot be reached or a path is broken."""
    count, rows, columns = tiles.shape
    free, pitch = framed(np.ascontiguousarray(tiles, dtype=np.uint8))
    starts = ((np.asarray(entrance[:, 1], dtype=np.int64) + 1) * pitch + np.asarray(entrance[:, 0], dtype=np.int64) + 1)
    out: Dict[str, NDArray[Any]] = {}
    if {"solution", "moves", "actions"} & set(names):
        goals = (np.asarray(exit[:, 1], dtype=np.int64) + 1) * pitch + np.asarray(exit[:, 0], dtype=np.int64) + 1
        path, offsets, missing = solutions(free, pitch, np.ascontiguousarray(starts), np.ascontiguousarray(goals))
        if missing >= 0:
            raise ValueError(f"level {missing} of the batch: the exit cannot be reached from the entrance")
        out["solution"], out["solution_offsets"] = path, offsets
        if {"moves", "actions"} & set(names):
            facing = start_directions(free, pitch, np.ascontiguousarray(starts))
            moves, move_offsets, actions, action_offsets, bad = steps(path, offsets, facing)
            if bad >= 0:  # pragma: no cover - a breadth-first path is always 4-adjacent
                raise ValueError(f"the path steps from {tuple(path[bad])} to {tuple(path[bad + 1])}, which are not "
                                 "4-adjacent tiles")
            out["moves"], out["moves_offsets"] = moves, move_offsets
            out["actions"], out["actions_offsets"] = actions, action_offsets
    if "distances" in names:
        out["distances"] = distance_maps(free, pitch, rows, columns, np.ascontiguousarray(starts))
    return out
