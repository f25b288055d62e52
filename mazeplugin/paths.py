"""Walking a tilemap: distances from a tile, and the shortest path between two tiles.

Every level, whatever made it, is walked here, over its floor tiles with
4-neighbour steps. Breadth-first search over flat Python lists (one tight
loop, no per-tile numpy calls), so it is exact for mazes with loops too.

Most tilemaps have the default layout (corridor = wall = 1): every tile at an
even ``x`` and even ``y`` is a wall "pillar", so the floor is made of *rooms*
(odd, odd) joined by *connector* tiles that have at most two floor
neighbours. For those the search steps from room to room, two tiles at a
time (half the loop iterations), and fills in the connectors' distances with
numpy afterwards; the answers are exactly those of the tile-by-tile search,
which every other tilemap still gets -- among them levels with open rooms,
whose open corners (floor at even-even tiles) let a walk cut across a room
diagonally past where a pillar would stand.

>>> import numpy as np
>>> tiles = np.array([[1, 1, 1, 1],
...                   [0, 0, 1, 1],
...                   [1, 0, 0, 0],
...                   [1, 1, 1, 1]], dtype=np.uint8)
>>> distance_map(tiles, (0, 1)).tolist()
[[-1, -1, -1, -1], [0, 1, -1, -1], [-1, 2, 3, 4], [-1, -1, -1, -1]]
>>> shortest_path(tiles, (0, 1), (3, 2))
[(0, 1), (1, 1), (1, 2), (2, 2), (3, 2)]
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from ._compiled import twin

__all__ = ["distance_map", "shortest_path", "farthest_tile"]

_BFS = twin("bfs")  # the compiled bfs kernel, or the plain code beside each use

Tile = Tuple[int, int]


def _padded_free(tiles: NDArray[np.uint8]) -> Tuple[List[bool], int]:
    """Floor flags of ``tiles`` with a ring of wall around them, flat, and the padded width."""
    h, w = tiles.shape
    padded = np.zeros((h + 2, w + 2), dtype=bool)
    padded[1:-1, 1:-1] = tiles == 0
    free: List[bool] = padded.ravel().tolist()
    return free, w + 2


def _bfs(free: List[bool], width: int, source: int, target: int = -1) -> List[int]:
    """Breadth-first distances from ``source`` (-1 where unreached); stops at ``target``.

    ``free`` is consumed: visited tiles are marked not free.
    """
    dist = [-1] * len(free)
    dist[source] = 0
    free[source] = False
    frontier = [source]
    d = 0
    while frontier:
        d += 1
        reached: List[int] = []
        push = reached.append
        for i in frontier:
            for j in (i - width, i + 1, i + width, i - 1):
                if free[j]:
                    free[j] = False
                    dist[j] = d
                    push(j)
        if target >= 0 and dist[target] >= 0:
            break
        frontier = reached
    return dist


def _has_pillars(tiles: NDArray[np.uint8], *ends: Tile) -> bool:
    """Whether room-to-room search applies: odd sides, every even-even tile a wall,
    and every tile in ``ends`` a floor tile that is not a pillar."""
    h, w = tiles.shape
    if h < 3 or w < 3 or h % 2 == 0 or w % 2 == 0:
        return False
    for x, y in ends:
        if not (0 <= x < w and 0 <= y < h) or (x % 2 == 0 and y % 2 == 0) or tiles[y, x] != 0:
            return False
    return bool((tiles[::2, ::2] != 0).all())


# Room-to-room search. Rooms are numbered row-major, r = ry * w + rx, for the
# room at tile (2*rx + 1, 2*ry + 1); the moves out of a room (through a floor
# connector into a floor room) north, east, south, west are bits 1, 2, 4, 8.
_BITS = (1, 2, 4, 8)
_TILE_STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))


class _Rooms:
    """The rooms of a pillared tilemap, which connectors are floor, and where one can step."""

    def __init__(self, tiles: NDArray[np.uint8]) -> None:
        floor = np.asarray(tiles) == 0
        self.h, self.w = h, w = floor.shape[0] // 2, floor.shape[1] // 2
        rooms = floor[1::2, 1::2]
        north, south = floor[0:-1:2, 1::2], floor[2::2, 1::2]
        west, east = floor[1::2, 0:-1:2], floor[1::2, 2::2]
        # Moves: the connector is floor and so are the rooms on both sides.
        moves = np.zeros((h, w), dtype=np.uint8)
        moves[1:, :] |= (north[1:, :] & rooms[:-1, :]) * np.uint8(1)
        moves[:, :-1] |= (east[:, :-1] & rooms[:, 1:]) * np.uint8(2)
        moves[:-1, :] |= (south[:-1, :] & rooms[1:, :]) * np.uint8(4)
        moves[:, 1:] |= (west[:, 1:] & rooms[:, :-1]) * np.uint8(8)
        moves[~rooms] = 0
        self.moves = moves
        self.floor = rooms
        steps = (-w, 1, w, -1)
        # For each 4-bit move mask, the room-id offsets it allows, north first.
        self.steps = [tuple(steps[k] for k in range(4) if m & _BITS[k]) for m in range(16)]

    def of_tile(self, tile: Tile) -> List[int]:
        """The rooms a search from floor ``tile`` starts at: its own room, or the
        floor rooms beside a connector (in north, east, south, west order)."""
        x, y = tile
        h, w = self.h, self.w
        if x % 2 == 1 and y % 2 == 1:
            return [(y // 2) * w + x // 2]
        if x % 2 == 1:  # between the rooms north and south of it
            sides = [(x // 2, y // 2 - 1), (x // 2, y // 2)]
        else:  # between the rooms east and west of it
            sides = [(x // 2, y // 2), (x // 2 - 1, y // 2)]
        return [ry * w + rx for rx, ry in sides if 0 <= rx < w and 0 <= ry < h and self.floor[ry, rx]]

    def search(self, seeds: List[int], first: int, targets: Sequence[int] = ()) -> List[int]:
        """Tile distances of the rooms (-1 unreached), breadth-first from ``seeds`` at
        distance ``first``, two tiles per step; stops after the layer reaching a target."""
        open_room = self.floor.ravel().tolist()
        moves = self.moves.ravel().tolist()
        steps = self.steps
        dist = [-1] * len(open_room)
        for r in seeds:
            open_room[r] = False
            dist[r] = first
        frontier, d = seeds, first
        while frontier:
            d += 2
            reached: List[int] = []
            push = reached.append
            for r in frontier:
                for step in steps[moves[r]]:
                    n = r + step
                    if open_room[n]:
                        open_room[n] = False
                        dist[n] = d
                        push(n)
            if targets and any(dist[t] >= 0 for t in targets):
                break
            frontier = reached
        return dist


def _room_distance_map(tiles: NDArray[np.uint8], source: Tile) -> NDArray[np.int32]:
    """:func:`distance_map` for pillared tilemaps (see :func:`_has_pillars`)."""
    rooms = _Rooms(tiles)
    seeds = rooms.of_tile(source)
    is_room = source[0] % 2 == 1 and source[1] % 2 == 1
    dist = np.asarray(rooms.search(seeds, 0 if is_room else 1), dtype=np.int32)
    near = dist.reshape(rooms.h, rooms.w)
    out = np.full(tiles.shape, -1, dtype=np.int32)
    out[1::2, 1::2] = near
    # A connector is one step beyond the nearer of its reached rooms.
    floor = np.asarray(tiles) == 0
    far = np.iinfo(np.int32).max
    near = np.where(near >= 0, near, far)
    across = np.full((rooms.h, rooms.w + 1), far, dtype=np.int32)  # tiles with even x
    across[:, :-1] = near
    across[:, 1:] = np.minimum(across[:, 1:], near)
    out[1::2, 0::2] = np.where(floor[1::2, 0::2] & (across < far), across + 1, -1)
    along = np.full((rooms.h + 1, rooms.w), far, dtype=np.int32)  # tiles with even y
    along[:-1, :] = near
    along[1:, :] = np.minimum(along[1:, :], near)
    out[0::2, 1::2] = np.where(floor[0::2, 1::2] & (along < far), along + 1, -1)
    out[source[1], source[0]] = 0
    return out


def _room_shortest_path(tiles: NDArray[np.uint8], start: Tile, goal: Tile) -> Optional[List[Tile]]:
    """:func:`shortest_path` for pillared tilemaps (see :func:`_has_pillars`), start != goal."""
    rooms = _Rooms(tiles)
    seeds = rooms.of_tile(goal)
    targets = rooms.of_tile(start)
    if not seeds or not targets:
        return None
    goal_is_room = goal[0] % 2 == 1 and goal[1] % 2 == 1
    dist = rooms.search(seeds, 0 if goal_is_room else 1, targets)
    reached = [dist[t] for t in targets if dist[t] >= 0]
    if not reached:
        return None
    # Walk downhill from the start, taking the first of north, east, south,
    # west that is one step nearer, as the tile-by-tile walk does. From a
    # room at distance d, a connector is one step nearer iff the room beyond
    # it is at d - 2, or it is the goal (only the goal is at 0).
    w = rooms.w
    path: List[Tile] = [(int(start[0]), int(start[1]))]
    d = min(reached)
    r = next(t for t in targets if dist[t] == d)  # targets are in north, east, south, west order
    moves = rooms.moves.ravel().tolist()
    room_steps = (-w, 1, w, -1)
    while True:
        x, y = 2 * (r % w) + 1, 2 * (r // w) + 1
        path.append((x, y))
        if d == 0 or (d == 1 and not goal_is_room):
            break
        if d == 1:  # pragma: no cover - rooms have even distances from a room goal
            raise AssertionError("room walk lost its way")
        for k in range(4):
            dx, dy = _TILE_STEP[k]
            if moves[r] & _BITS[k] and dist[r + room_steps[k]] == d - 2:
                path.append((x + dx, y + dy))
                r += room_steps[k]
                d -= 2
                break
        else:  # pragma: no cover - a reached room always has a nearer neighbour
            raise AssertionError("room walk lost its way")
    if not goal_is_room:
        path.append((int(goal[0]), int(goal[1])))
    if tuple(start) == path[1]:  # the start is a room: it was put in twice
        del path[0]
    return path


def distance_map(tiles: NDArray[np.uint8], source: Tile) -> NDArray[np.int32]:
    """Steps from ``source`` to every tile: int32 shaped like ``tiles``, -1 on walls and unreachable tiles."""
    fast = _BFS.pick(np.size(tiles))
    if fast is not None:  # the tile-by-tile search, compiled (mazeplugin/_compiled/bfs.py)
        distances: NDArray[np.int32] = fast.distance_map(np.asarray(tiles), source)
        return distances
    if _has_pillars(tiles, source):
        return _room_distance_map(tiles, source)
    return _tile_distance_map(tiles, source)


def _tile_distance_map(tiles: NDArray[np.uint8], source: Tile) -> NDArray[np.int32]:
    """:func:`distance_map` for any tilemap: breadth-first tile by tile."""
    h, w = tiles.shape
    free, pw = _padded_free(tiles)
    dist = _bfs(free, pw, (source[1] + 1) * pw + source[0] + 1)
    return np.asarray(dist, dtype=np.int32).reshape(h + 2, pw)[1:-1, 1:-1].copy()


def shortest_path(tiles: NDArray[np.uint8], start: Tile, goal: Tile) -> Optional[List[Tile]]:
    """The tiles of a shortest 4-connected floor path from ``start`` to ``goal``, both included.

    None when ``goal`` cannot be reached. Among equally short paths the one
    preferring north, east, south, west (in that order) at each step is taken,
    so the answer is deterministic.
    """
    fast = _BFS.pick(np.size(tiles))
    if fast is not None:  # the tile-by-tile search, compiled (mazeplugin/_compiled/bfs.py)
        path: Optional[List[Tile]] = fast.shortest_path(np.asarray(tiles), start, goal)
        return path
    if tuple(start) != tuple(goal) and _has_pillars(tiles, start, goal):
        return _room_shortest_path(tiles, start, goal)
    return _tile_shortest_path(tiles, start, goal)


def _tile_shortest_path(tiles: NDArray[np.uint8], start: Tile, goal: Tile) -> Optional[List[Tile]]:
    """:func:`shortest_path` for any tilemap: breadth-first tile by tile."""
    free, pw = _padded_free(tiles)
    s = (start[1] + 1) * pw + start[0] + 1
    g = (goal[1] + 1) * pw + goal[0] + 1
    # Search from the goal so the path can be read off forwards from the start.
    dist = _bfs(free, pw, g, target=s)
    if dist[s] < 0:
        return None
    path = [s]
    i = s
    for d in range(dist[s] - 1, -1, -1):
        for j in (i - pw, i + 1, i + pw, i - 1):
            if dist[j] == d:
                i = j
                break
        path.append(i)
    return [(i % pw - 1, i // pw - 1) for i in path]


def farthest_tile(dist: NDArray[np.int32], candidates: NDArray[np.bool_]) -> Optional[Tile]:
    """The candidate tile with the largest distance (first in row-major order on ties)."""
    scores = np.where(candidates & (dist >= 0), dist, -1)
    flat = int(np.argmax(scores))
    if scores.flat[flat] < 0:
        return None
    y, x = divmod(flat, dist.shape[1])
    return (x, y)
