"""The rooms between a level's doors: which parts of the floor a set of open doors joins.

Wall every door tile and the floor falls apart into *regions* (connected
parts, labelled in one vectorised union-find pass). Each door tile touches
the regions and door tiles beside it. So "what can be reached from the
entrance with these doors open" is a search over a graph of a few nodes per
door, not over the tiles: what the key-aware solver uses to tell which keys
held can matter, and what :func:`~mazeplugin.content.check` uses to prove
each door necessary on its own.

A door tile is open when every door covering it is open (hostile files may
overlap doors). Doors are numbered by their position in the ``doors`` list,
and a set of open doors is a bit mask over those positions.

>>> import numpy as np
>>> from mazeplugin.content import Thing
>>> tiles = np.zeros((1, 7), dtype=np.uint8)                 # a corridor with doors at x = 2 and 4
>>> doors = [Thing("door", 2, 0, 2, {"tiles": [[2, 0]]}), Thing("door", 4, 0, 4, {"tiles": [[4, 0]]})]
>>> rooms = DoorRegions(tiles, (0, 0), doors)
>>> rooms.reaches(0b01, (6, 0)), rooms.reaches(0b11, (6, 0))
(False, True)
>>> rooms.doors_reached(0b10)     # door 1 (x = 4) is open, but door 0 is in the way
0
"""

from __future__ import annotations

from typing import Dict, List, Sequence, Set, Tuple

import numpy as np
from numpy.typing import NDArray

from ..unionfind import component_roots
from .things import Thing

__all__ = ["DoorRegions"]

Tile = Tuple[int, int]

_MEMO_NODES = 1 << 21  # nodes kept in remembered searches, all masks together (a few tens of MiB at most)


class DoorRegions:
    """The graph of regions and door tiles of ``tiles`` with ``doors`` (see the module docstring).

    Args:
        tiles: the level's tiles (0 = floor).
        start: where every search starts (the entrance).
        doors: the doors, in the order their bits take in every mask.
    """

    def __init__(self, tiles: NDArray[np.uint8], start: Tile, doors: Sequence[Thing]) -> None:
        h, w = tiles.shape
        self._width = int(w)
        floor = np.asarray(tiles) == 0
        covering: Dict[int, int] = {}  # flat door tile -> mask of the doors covering it
        for n, door in enumerate(doors):
            for x, y in door.tiles():
                if 0 <= x < w and 0 <= y < h and floor[y, x]:  # a door on a wall blocks nothing more
                    covering[y * w + x] = covering.get(y * w + x, 0) | (1 << n)
        free = floor.copy()
        if covering:
            cells = np.fromiter(covering, dtype=np.int64, count=len(covering))
            free.ravel()[cells] = False
        ids = np.arange(h * w, dtype=np.int64).reshape(h, w)
        across = free[:, :-1] & free[:, 1:]
        down = free[:-1, :] & free[1:, :]
        roots = component_roots(
            h * w,
            np.concatenate([ids[:, :-1][across], ids[:-1, :][down]]),
            np.concatenate([ids[:, 1:][across], ids[1:, :][down]]),
        )
        self._roots = roots
        self._free = free.ravel()
        self._floor = floor.ravel()
        # Nodes: a region is its root (a flat tile index); a door tile is h * w + its flat index.
        self._base: int = int(h * w)
        self._covering = covering
        links: Dict[int, List[int]] = {}
        for t in covering:
            y, x = divmod(t, w)
            node = self._base + t
            for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                if not (0 <= nx < w and 0 <= ny < h):
                    continue
                j = ny * w + nx
                if j in covering:
                    links.setdefault(node, []).append(self._base + j)
                elif self._free[j]:
                    region = int(roots[j])
                    links.setdefault(node, []).append(region)
                    links.setdefault(region, []).append(node)
        self._links = links
        self._start = self.node(start)
        self._reach: Dict[int, Tuple[Set[int], int]] = {}
        self._memo_nodes = 0

    def node(self, tile: Tile) -> int:
        """The node holding floor tile ``(x, y)``: its region, or the door tile itself; -1 on a wall."""
        t = tile[1] * self._width + tile[0]
        if t in self._covering:
            return self._base + t
        return int(self._roots[t]) if self._free[t] else -1

    def _search(self, open_doors: int) -> Tuple[Set[int], int]:
        """The nodes reached from the start with the doors of ``open_doors`` open, and the open doors met."""
        found = self._reach.get(open_doors)
        if found is not None:
            return found
        covering, base = self._covering, self._base
        seen = {self._start}
        met = 0
        stack = [self._start]
        while stack:
            node = stack.pop()
            for other in self._links.get(node, ()):
                if other in seen:
                    continue
                if other >= base:
                    doors = covering[other - base]
                    if doors & ~open_doors:
                        continue
                    met |= doors
                seen.add(other)
                stack.append(other)
        found = (seen, met)
        if self._memo_nodes + len(seen) <= _MEMO_NODES:  # a bounded memo: masks beyond it are searched again
            self._memo_nodes += len(seen)
            self._reach[open_doors] = found
        return found

    def nodes_reached(self, open_doors: int) -> Set[int]:
        """The nodes (see :meth:`node`) reached from the start with the doors of ``open_doors`` open."""
        return self._search(open_doors)[0]

    def reaches(self, open_doors: int, tile: Tile) -> bool:
        """Whether floor tile ``(x, y)`` is reached from the start with the doors of ``open_doors`` open."""
        return self.node(tile) in self._search(open_doors)[0]

    def doors_reached(self, open_doors: int) -> int:
        """The doors of ``open_doors`` that a walk from the start can step onto: the only open ones that matter."""
        return self._search(open_doors)[1]
