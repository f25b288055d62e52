"""Walking a weave tilemap: a bridge tile is two places, the bridge and the tunnel under it.

A weave level (see :mod:`mazeplugin.weave`) has its 0/1 ``tiles`` and a
second layer, ``bridges``, shaped like them: 0 on ordinary tiles and, on each
bridge tile, which way the under-passage beneath it runs,
``UNDER_EAST_WEST`` (1: the bridge itself runs north–south) or
``UNDER_NORTH_SOUTH`` (2: the bridge runs east–west). A walker on a bridge
tile is either on the bridge or in the tunnel; each goes straight on along its
own axis, so no path turns on a bridge tile, and stepping onto a bridge tile
along its tunnel's axis goes under.

These searches are :mod:`mazeplugin.paths`' breadth-first searches with
that one difference (each bridge tile a second node); levels without bridges
never come here, so the plain fast paths stay as they are.

>>> import numpy as np
>>> tiles = np.array([[1, 1, 0, 1, 1],
...                   [1, 1, 0, 1, 1],
...                   [0, 0, 0, 0, 0],
...                   [1, 1, 0, 1, 1],
...                   [1, 1, 0, 1, 1]], dtype=np.uint8)
>>> bridges = np.zeros_like(tiles); bridges[2, 2] = 1    # a bridge north-south over a tunnel east-west
>>> shortest_path(tiles, bridges, (0, 2), (4, 2))       # straight under the bridge
[(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)]
>>> shortest_path(tiles, bridges, (0, 2), (2, 0)) is None  # no turning from the tunnel onto the bridge
True
>>> step(tiles, bridges, (1, 2), (1, 0))                # east from (1, 2): into the tunnel
((2, 2), True)
>>> step(tiles, bridges, (2, 2), (0, 1), under=True)   # a tunnel runs east-west only: no move
((2, 2), True)
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from .maze import UNDER_EAST_WEST, UNDER_NORTH_SOUTH

__all__ = ["distance_maps", "distance_map", "shortest_path", "step", "UNDER_EAST_WEST", "UNDER_NORTH_SOUTH"]

Tile = Tuple[int, int]


class _Graph:
    """The tiles as a graph: node ``i`` is padded tile ``i`` (on top), ``i + size`` the tunnel under bridge tile ``i``."""

    def __init__(self, tiles: NDArray[np.uint8], bridges: NDArray[np.uint8]) -> None:
        h, w = (int(n) for n in tiles.shape)
        self.rows: int = h
        self.columns: int = w
        self.pitch: int = w + 2
        pw = self.pitch
        padded = np.zeros((h + 2, pw), dtype=bool)
        padded[1:-1, 1:-1] = np.asarray(tiles) == 0
        self.free: List[bool] = padded.ravel().tolist()
        kinds = np.zeros((h + 2, pw), dtype=np.uint8)
        kinds[1:-1, 1:-1] = bridges
        self.kind: List[int] = kinds.ravel().tolist()
        self.size: int = len(self.free)

    def node(self, tile: Tile) -> int:
        return (int(tile[1]) + 1) * self.pitch + int(tile[0]) + 1

    def tile(self, node: int) -> Tile:
        i = node % self.size
        return (i % self.pitch - 1, i // self.pitch - 1)

    def moves(self, node: int) -> List[int]:
        """The nodes one step from ``node``, north, east, south, west."""
        size, pw, free, kind = self.size, self.pitch, self.free, self.kind
        i = node % size
        k = kind[i]
        if node >= size:  # in a tunnel: straight on along it
            steps: Tuple[int, ...] = (1, -1) if k == UNDER_EAST_WEST else (-pw, pw)
        elif k:  # on a bridge: straight on along it
            steps = (-pw, pw) if k == UNDER_EAST_WEST else (1, -1)
        else:
            steps = (-pw, 1, pw, -1)
        out = []
        for s in steps:
            j = i + s
            if free[j]:
                kj = kind[j]
                across = s == 1 or s == -1
                under = kj == (UNDER_EAST_WEST if across else UNDER_NORTH_SOUTH)
                out.append(j + size if under else j)
        return out

    def search(self, source: int, target: int = -1) -> List[int]:
        """Breadth-first steps from node ``source`` to every node (-1 unreached); stops at ``target``.

        :meth:`moves`, inlined: ordinary tiles (most of them) take the plain four steps.
        """
        size, pw, free, kind = self.size, self.pitch, self.free, self.kind
        dist = [-1] * (2 * size)
        dist[source] = 0
        frontier = [source]
        d = 0
        moves = self.moves
        plain = (-pw, 1, pw, -1)
        while frontier:
            d += 1
            reached: List[int] = []
            push = reached.append
            for n in frontier:
                if n < size and not kind[n]:
                    for s in plain:
                        j = n + s
                        if free[j]:
                            kj = kind[j]
                            if kj:  # onto a bridge tile: under it along its tunnel, else onto it
                                if kj == (UNDER_EAST_WEST if (s == 1 or s == -1) else UNDER_NORTH_SOUTH):
                                    j += size
                            if dist[j] < 0:
                                dist[j] = d
                                push(j)
                    continue
                for m in moves(n):
                    if dist[m] < 0:
                        dist[m] = d
                        push(m)
            if target >= 0 and dist[target] >= 0:
                break
            frontier = reached
        return dist


def distance_maps(tiles: NDArray[np.uint8], bridges: NDArray[np.uint8],
                  source: Tile) -> Tuple[NDArray[np.int32], NDArray[np.int32]]:
    """``(on top, underneath)``: steps from ``source`` (on top of it, if it is a bridge) to each tile,
    int32 shaped like ``tiles``; ``underneath`` is -1 except in the tunnels under bridge tiles."""
    graph = _Graph(tiles, bridges)
    dist = np.asarray(graph.search(graph.node(source)), dtype=np.int32)
    h, w, pw = graph.rows, graph.columns, graph.pitch
    top = dist[: graph.size].reshape(h + 2, pw)[1:-1, 1:-1].copy()
    under = dist[graph.size:].reshape(h + 2, pw)[1:-1, 1:-1].copy()
    return top, under


def distance_map(tiles: NDArray[np.uint8], bridges: NDArray[np.uint8], source: Tile) -> NDArray[np.int32]:
    """Steps from ``source`` to every tile, on top or underneath, whichever is fewer; -1 on walls and
    unreachable tiles (what :func:`mazeplugin.paths.distance_map` answers on a level without bridges)."""
    top, under = distance_maps(tiles, bridges, source)
    both = (top >= 0) & (under >= 0)
    return np.where(both, np.minimum(top, under), np.maximum(top, under))


def shortest_path(tiles: NDArray[np.uint8], bridges: NDArray[np.uint8], start: Tile, goal: Tile) -> Optional[List[Tile]]:
    """The tiles of a shortest walk from ``start`` to ``goal`` (both on top), going straight over and
    under bridges; None when there is none. Ties go north, east, south, west, as in :mod:`mazeplugin.paths`."""
    graph = _Graph(tiles, bridges)
    s, g = graph.node(start), graph.node(goal)
    dist = graph.search(g, target=s)  # from the goal, so the walk reads forwards from the start
    if dist[s] < 0:
        return None
    path = [s]
    n = s
    for d in range(dist[s] - 1, -1, -1):
        n = next(m for m in graph.moves(n) if dist[m] == d)
        path.append(n)
    return [graph.tile(n) for n in path]


_STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))


def step(tiles: NDArray[np.uint8], bridges: NDArray[np.uint8], tile: Tile, direction: Tuple[int, int],
         under: bool = False) -> Tuple[Tile, bool]:
    """One step of a walker at ``tile`` (in the tunnel if ``under``) in ``direction``: ``(tile, under)`` after it.

    ``direction`` is ``(dx, dy)``: ``(0, -1)`` north, ``(1, 0)`` east, ``(0, 1)`` south, ``(-1, 0)``
    west. A wall, the map's edge, or a turn on a bridge tile (off the bridge's or the tunnel's
    axis) leaves the walker where it is. Stepping onto a bridge tile along its tunnel's axis goes
    under (``under`` True); every other tile is walked on top (``under`` False). A game draws a
    walker that is ``under`` beneath the bridge.
    """
    direction = (int(direction[0]), int(direction[1]))
    if direction not in _STEPS:
        raise ValueError(f"direction must be one of {', '.join(map(str, _STEPS))} (north, east, south, west), "
                         f"got {direction!r}")
    x, y = int(tile[0]), int(tile[1])
    rows, columns = tiles.shape
    if not (0 <= x < columns and 0 <= y < rows) or tiles[y, x] != 0:
        raise ValueError(f"tile {tile!r} is not a floor tile of the map")
    dx, dy = direction
    across = dy == 0
    kind = int(bridges[y, x])
    if kind:
        runs_across = (kind == UNDER_EAST_WEST) == bool(under)  # the tunnel runs across iff it is east-west
        if across != runs_across:
            return (x, y), bool(under)
    nx, ny = x + dx, y + dy
    if not (0 <= nx < columns and 0 <= ny < rows) or tiles[ny, nx] != 0:
        return (x, y), bool(kind) and bool(under)
    nk = int(bridges[ny, nx])
    return (nx, ny), nk == (UNDER_EAST_WEST if across else UNDER_NORTH_SOUTH)
