"""Walking a tilemap: distances from a tile, and the shortest path between two tiles.

Every level, whatever made it, is walked here, over its floor tiles with
4-neighbour steps. Breadth-first search over flat Python lists (one tight
loop, no per-tile numpy calls), so it is exact for mazes with loops too.

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

from typing import List, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

__all__ = ["distance_map", "shortest_path", "farthest_tile"]

Tile = Tuple[int, int]


def _padded_free(tiles: NDArray[np.uint8]) -> Tuple[list, int]:
    """Floor flags of ``tiles`` with a ring of wall around them, flat, and the padded width."""
    h, w = tiles.shape
    padded = np.zeros((h + 2, w + 2), dtype=bool)
    padded[1:-1, 1:-1] = tiles == 0
    return padded.ravel().tolist(), w + 2


def _bfs(free: list, width: int, source: int, target: int = -1) -> list:
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
        reached = []
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


def distance_map(tiles: NDArray[np.uint8], source: Tile) -> NDArray[np.int32]:
    """Steps from ``source`` to every tile: int32 shaped like ``tiles``, -1 on walls and unreachable tiles."""
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
