# Long module: the routes of a batch with and without keys share their framing, searches and output layout.
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
  entrance over floor tiles, -1 on walls and unreached tiles;
- on levels with keys and doors, the walk is :func:`mazeplugin.content.solve`'s
  (:func:`keyed_solutions`: Dijkstra over the entrance and the keys, each leg
  read downhill on a map with the doors of the keys not held shut) and the
  actions :func:`~mazeplugin.dataset.expert.plan_actions`' with pickups,
  toggles and drops (:func:`keyed_actions`).

Every level is framed by a ring of wall tiles (pitch ``columns + 2``), so the
searches need no bounds checks. Paths go end to end into one array cut at
offsets, as a shard holds them.
"""

from __future__ import annotations

from typing import Any, Dict, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from .bfs import spread
from .grid import i32, i64, u8
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
        spread(cells, pitch, source, target, dist, queue)
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
    dist = np.empty(n, dtype=np.int32)
    queue = np.empty(n, dtype=np.int64)
    out = np.empty((count, rows, columns), dtype=np.int32)
    for level in range(count):
        cells = free[level]
        dist[:] = -1
        spread(cells, pitch, sources[level], -1, dist, queue)
        for y in range(rows):
            for x in range(columns):
                out[level, y, x] = dist[(y + 1) * pitch + x + 1]
    return out


@njit(i32(u8, i64, types.int64, types.int64, types.int64, i64), cache=True, nogil=True)
def _door_distances(cells: Any, door_bit: Any, pitch: int, held: int, source: int, queue: Any) -> Any:
    """Steps from ``source`` over floor tiles, a door tile (``door_bit`` >= 0: key ``n``'s door) passable only
    while key ``n`` is ``held``; -1 unreached (``content.proof._distance_map``)."""
    n = cells.size
    dist = np.full(n, -1, dtype=np.int32)
    dist[source] = 0
    queue[0] = source
    head, tail = 0, 1
    while head < tail:
        i = queue[head]
        head += 1
        d = dist[i] + 1
        for k in (-pitch, 1, pitch, -1):
            j = i + k
            if cells[j] and dist[j] < 0 and (door_bit[j] < 0 or held >> door_bit[j] & 1):
                dist[j] = d
                queue[tail] = j
                tail += 1
    return dist


@njit(types.Tuple((I32_2D, i64, i64))(U8_2D, types.int64, i64, i64, i64, i64, i64, i64),  # type: ignore[no-untyped-call, unused-ignore]
      cache=True, nogil=True)
def keyed_solutions(free: Any, pitch: int, starts: Any, goals: Any, key_offsets: Any, key_tiles: Any,
                    door_offsets: Any, door_tiles: Any) -> Any:
    """``(tiles, offsets, missing)`` as :func:`solutions` (``missing[i]`` 1 where level ``i``'s exit is not
    reached), of levels with locked doors: each level's
    :func:`mazeplugin.content.solve` walk, the shortest that picks up each key before passing its door.

    Level ``i``'s keys are ``key_tiles[key_offsets[i]:key_offsets[i + 1]]`` (in key id order: key ``n`` is
    bit ``n``), key ``k``'s door tiles ``door_tiles[door_offsets[k]:door_offsets[k + 1]]``. Dijkstra over
    states (point, keys held), point 0 the entrance and ``n + 1`` key ``n``, popped in the order of
    ``(steps, point, held)`` as the plain heap does; each leg read downhill from its target (north, east,
    south, west first) on the map from its point, as the plain code does.
    """
    count, n = free.shape
    queue = np.empty(n, dtype=np.int64)
    offsets = np.zeros(count + 1, dtype=np.int64)
    missing = np.zeros(count, dtype=np.int64)
    out = np.empty((max(count * 32, 32), 2), dtype=np.int32)
    total = 0
    far = np.int64(1) << 62
    for level in range(count):
        cells = free[level]
        first = key_offsets[level]
        keys = key_offsets[level + 1] - first
        door_bit = np.full(n, -1, dtype=np.int64)
        for key in range(keys):
            for r in range(door_offsets[first + key], door_offsets[first + key + 1]):
                door_bit[door_tiles[r]] = key
        points = np.empty(keys + 1, dtype=np.int64)
        targets = np.empty(keys + 1, dtype=np.int64)
        points[0] = starts[level]
        for key in range(keys):
            points[key + 1] = key_tiles[first + key]
            targets[key] = key_tiles[first + key]
        targets[keys] = goals[level]
        masks = 1 << keys
        best = np.full((keys + 1) * masks, far, dtype=np.int64)
        came = np.full((keys + 1) * masks, -1, dtype=np.int64)
        capacity = (keys + 1) * masks * (keys + 1) + 1
        entry_d = np.empty(capacity, dtype=np.int64)
        entry_s = np.empty(capacity, dtype=np.int64)  # point * masks + held: (point, held) order is this order
        live = np.zeros(capacity, dtype=np.uint8)
        best[0] = 0
        entry_d[0] = 0
        entry_s[0] = 0
        live[0] = 1
        pushed = 1
        finish_d, finish_s = far, -1
        while True:
            pick = -1
            for e in range(pushed):  # the smallest (steps, point, held) still queued, as heapq pops
                if live[e] and (pick < 0 or entry_d[e] < entry_d[pick]
                                or (entry_d[e] == entry_d[pick] and entry_s[e] < entry_s[pick])):
                    pick = e
            if pick < 0:
                break
            live[pick] = 0
            d, state = entry_d[pick], entry_s[pick]
            if best[state] != d:
                continue
            if finish_s >= 0 and d >= finish_d:
                break
            point, held = state // masks, state % masks
            dist = _door_distances(cells, door_bit, pitch, held, points[point], queue)
            to_exit = dist[targets[keys]]
            if to_exit >= 0 and (finish_s < 0 or d + to_exit < finish_d):
                finish_d, finish_s = d + to_exit, state
            onward = np.empty((keys, 0), dtype=np.int32)  # key m's map holding m too, made when first asked
            asked = np.zeros(keys, dtype=np.uint8)
            for key in range(keys):
                step = dist[targets[key]]
                if held >> key & 1 or step < 0:
                    continue
                passed = False  # a shortest walk to this key goes over key m not held (content's _passed_over)
                for m in range(keys):
                    if m == key or held >> m & 1 or not 0 < dist[targets[m]] < step:
                        continue
                    if not asked[m]:
                        if onward.shape[1] == 0:
                            onward = np.empty((keys, n), dtype=np.int32)
                        onward[m] = _door_distances(cells, door_bit, pitch, held | 1 << m, points[m + 1], queue)
                        asked[m] = 1
                    further = onward[m, targets[key]]
                    if further >= 0 and dist[targets[m]] + further == step:
                        passed = True
                        break
                if passed:
                    continue
                nxt = (key + 1) * masks + (held | 1 << key)
                if d + step < best[nxt]:
                    best[nxt] = d + step
                    came[nxt] = state
                    entry_d[pushed] = d + step
                    entry_s[pushed] = nxt
                    live[pushed] = 1
                    pushed += 1
        if finish_s < 0:
            missing[level] = 1
            offsets[level + 1] = total
            continue
        # The states walked, back from the finish: each leg goes from a state's point to the next target.
        chain = np.empty(keys + 1, dtype=np.int64)
        aims = np.empty(keys + 1, dtype=np.int64)
        legs = 0
        state, aim = finish_s, keys
        while True:
            chain[legs], aims[legs] = state, aim
            legs += 1
            if state == 0:
                break
            aim, state = state // masks - 1, came[state]
        length = finish_d + 1
        if total + length > out.shape[0]:
            grown = np.empty((max(2 * out.shape[0], total + length), 2), dtype=np.int32)
            grown[:total] = out[:total]
            out = grown
        at = total
        for leg in range(legs - 1, -1, -1):
            state = chain[leg]
            dist = _door_distances(cells, door_bit, pitch, state % masks, points[state // masks], queue)
            i = targets[aims[leg]]
            d = dist[i]
            skip = 0 if leg == legs - 1 else 1  # each leg after the first starts where the last one ended
            for s in range(d, skip - 1, -1):  # the leg's tiles back from its target: positions at + s - skip
                out[at + s - skip, 0] = i % pitch - 1
                out[at + s - skip, 1] = i // pitch - 1
                if s > 0:
                    for k in (-pitch, 1, pitch, -1):
                        j = i + k
                        if dist[j] == s - 1:
                            i = j
                            break
            at += d + 1 - skip
        total = at
        offsets[level + 1] = total
    return out[:total].copy(), offsets, missing


@njit(types.int64(types.uint8[::1], types.int64, types.int64, types.int64), cache=True, nogil=True)
def _turn(out: Any, a: int, facing: int, want: int) -> int:
    """Write the turns from ``facing`` to ``want`` at ``out[a]`` (left for a quarter turn back, else rights); the
    next free index."""
    turn = (want - facing) % 4
    if turn == 3:
        out[a] = 0
        return a + 1
    for _ in range(turn):
        out[a] = 1
        a += 1
    return a


@njit(types.Tuple((types.uint8[::1], i64, i64))(U8_2D, types.int64, I32_2D, i64, i64, i64, i64, i64, i64, i64, i64),  # type: ignore[no-untyped-call, unused-ignore]
      cache=True, nogil=True)
def keyed_actions(free: Any, pitch: int, path: Any, offsets: Any, goals: Any, key_offsets: Any, key_tiles: Any,
                  key_locks: Any, door_offsets: Any, door_tiles: Any, door_locks: Any) -> Any:
    """``(actions, offsets, failed)``: :func:`mazeplugin.dataset.expert.plan_actions` of each level's path
    (``(x, y)`` rows cut at ``offsets``) with its keys (``key_tiles``, ``key_locks`` cut at ``key_offsets``)
    and door tiles (``door_tiles``, ``door_locks`` cut at ``door_offsets``), framed flat tile numbers.
    ``failed[i]`` is 1 where the plain planner raises (a key swap, no free tile to drop a used key on, a
    door entered without its key, a step that is not 4-adjacent): that level's actions are left empty."""
    count, n = free.shape
    vector = np.array([1, pitch, -1, -pitch], dtype=np.int64)  # MiniGrid's 0 east, 1 south, 2 west, 3 north
    out_offsets = np.zeros(count + 1, dtype=np.int64)
    failed = np.zeros(count, dtype=np.int64)
    out = np.empty(max(7 * path.shape[0], 16), dtype=np.uint8)
    a = 0
    key_at = np.full(n, -1, dtype=np.int64)  # the lock of the key lying on a tile
    door_at = np.full(n, -1, dtype=np.int64)  # the lock of the door on a tile
    last_visit = np.full(n, -1, dtype=np.int64)  # the last route step on a tile
    for level in range(count):
        cells = free[level]
        lo, hi = offsets[level], offsets[level + 1]
        length = hi - lo
        route = np.empty(length, dtype=np.int64)
        for r in range(length):
            route[r] = (path[lo + r, 1] + 1) * pitch + path[lo + r, 0] + 1
            last_visit[route[r]] = r
        locks = 1
        for r in range(key_offsets[level], key_offsets[level + 1]):
            key_at[key_tiles[r]] = key_locks[r]
            locks = max(locks, key_locks[r] + 1)
        for r in range(door_offsets[level], door_offsets[level + 1]):
            door_at[door_tiles[r]] = door_locks[r]
            locks = max(locks, door_locks[r] + 1)
        last_door = np.full(locks, -1, dtype=np.int64)  # the last route step onto each lock's doors
        key_ahead = np.zeros(length + 1, dtype=np.uint8)  # whether the route steps onto a key from step r on
        for r in range(length - 1, -1, -1):
            if door_at[route[r]] >= 0 and last_door[door_at[route[r]]] < 0:
                last_door[door_at[route[r]]] = r
            key_ahead[r] = key_ahead[r + 1] | (key_at[route[r]] >= 0)
        opened = np.zeros(locks, dtype=np.uint8)
        facing = 0
        for k in range(4):
            if cells[route[0] + vector[k]]:
                facing = k
                break
        holding, held = False, -1
        ok = True
        here = route[0]
        for r in range(1, length):
            nxt = route[r]
            if holding and key_ahead[r] and (opened[held] or last_door[held] < r):
                spot = -1
                for turn in (0, 1, 3, 2):  # fewest turns first
                    k = (facing + turn) % 4
                    tile = here + vector[k]
                    if (not cells[tile] or last_visit[tile] >= r - 1 or key_at[tile] >= 0 or door_at[tile] >= 0
                            or tile == goals[level]):
                        continue
                    spot = k
                    break
                if spot >= 0:
                    a = _turn(out, a, facing, spot)
                    facing = spot
                    out[a] = 4  # drop
                    a += 1
                    key_at[here + vector[spot]] = held
                    holding, held = False, -1
            want = -1
            for k in range(4):
                if here + vector[k] == nxt:
                    want = k
            if want < 0:
                ok = False
                break
            a = _turn(out, a, facing, want)
            facing = want
            if key_at[nxt] >= 0:
                if holding:
                    ok = False
                    break
                out[a] = 3  # pickup
                a += 1
                holding, held = True, key_at[nxt]
                key_at[nxt] = -1
            elif door_at[nxt] >= 0 and not opened[door_at[nxt]]:
                if not holding or held != door_at[nxt]:
                    ok = False
                    break
                out[a] = 5  # toggle
                a += 1
                opened[held] = 1
            out[a] = 2  # forward
            a += 1
            here = nxt
        for r in range(length):  # the maps back to empty for the next level
            last_visit[route[r]] = -1
        key_at[:] = -1  # (dropped keys too)
        for r in range(door_offsets[level], door_offsets[level + 1]):
            door_at[door_tiles[r]] = -1
        if not ok:
            failed[level] = 1
            a = out_offsets[level]
        out_offsets[level + 1] = a
    return out[:a].copy(), out_offsets, failed


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
