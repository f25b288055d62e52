"""The canvas a dungeon is laid out on (:mod:`.layout`): free cells, placed rooms, and corridors carved by A*.

:class:`Attempt` is one try at a layout: a square of cells, each free, a
room's or a corridor's, with the placed rooms' rectangles (and, with
``bounds``, the size the whole dungeon must fit in). :func:`route_all` routes
every edge of the mission between its rooms (see :mod:`.layout`'s step 3):
A* over the free cells, a step beside a room costing more, ripped up and
rerouted when an edge finds no way.
"""

from __future__ import annotations

import heapq
from typing import Dict, List, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from ..rooms.prefab import Prefab
from .model import Edge

__all__ = ["Attempt", "Rect", "door_cells", "corridor", "route_all", "REROUTES", "CROWDED"]

Rect = Tuple[int, int, int, int]  # x, y, width, height in cells


class Attempt:
    """One try at placing the rooms and carving the corridors on a square canvas of free cells."""

    def __init__(self, side: int, bounds: Optional[Tuple[int, int]] = None) -> None:
        self.side = side
        self.bounds = bounds  # (width, height) in cells the rooms and corridors must fit in, or None
        self.owner = np.zeros((side, side), dtype=np.int32)  # 0 free, k > 0 room k, -1 corridor
        self.rects: Dict[str, Rect] = {}
        self.window = (0, 0, side - 1, side - 1)
        self.crowded: NDArray[np.bool_] = np.zeros(side * side, dtype=bool)

    def fits(self, rect: Rect) -> bool:
        x, y, w, h = rect
        if x < 2 or y < 2 or x + w > self.side - 2 or y + h > self.side - 2:
            return False
        if self.bounds is not None and self.rects:
            x0 = min(x, min(r[0] for r in self.rects.values()))
            y0 = min(y, min(r[1] for r in self.rects.values()))
            x1 = max(x + w, max(r[0] + r[2] for r in self.rects.values()))
            y1 = max(y + h, max(r[1] + r[3] for r in self.rects.values()))
            if x1 - x0 > self.bounds[0] or y1 - y0 > self.bounds[1]:
                return False
        return not self.owner[y - 1 : y + h + 1, x - 1 : x + w + 1].any()

    def put(self, number: int, name: str, rect: Rect) -> None:
        x, y, w, h = rect
        self.owner[y : y + h, x : x + w] = number
        self.rects[name] = rect

    def settle(self) -> None:
        """After the rooms are placed: the corridors' search window and the cells beside a room."""
        rooms = self.owner > 0
        ys, xs = np.nonzero(rooms)
        margin = 3
        left = top = right = bottom = margin
        if self.bounds is not None:  # the corridors' window shares out the room the bounds leave
            spare_x = self.bounds[0] - (int(xs.max()) - int(xs.min()) + 1)
            spare_y = self.bounds[1] - (int(ys.max()) - int(ys.min()) + 1)
            left, top = min(margin, spare_x // 2), min(margin, spare_y // 2)
            right, bottom = min(margin, spare_x - left), min(margin, spare_y - top)
        self.window = (max(int(xs.min()) - left, 0), max(int(ys.min()) - top, 0),
                       min(int(xs.max()) + right, self.side - 1), min(int(ys.max()) + bottom, self.side - 1))
        beside = np.zeros_like(rooms)
        beside[1:, :] |= rooms[:-1, :]
        beside[:-1, :] |= rooms[1:, :]
        beside[:, 1:] |= rooms[:, :-1]
        beside[:, :-1] |= rooms[:, 1:]
        self.crowded = (beside & ~rooms).reshape(-1)

    def take(self, name: str) -> None:
        x, y, w, h = self.rects.pop(name)
        self.owner[y : y + h, x : x + w] = 0


def door_cells(attempt: Attempt, name: str, prefab: Prefab) -> Dict[int, int]:
    """Free cells just outside ``name``'s possible doors (flat index) and the room cell each opens into."""
    x, y, _, _ = attempt.rects[name]
    side = attempt.side
    out: Dict[int, int] = {}
    for cx, cy, dx, dy in zip(*(part.tolist() for part in prefab.door_offsets())):
        if not prefab.floor[cy, cx]:
            continue
        ox, oy = x + cx + dx, y + cy + dy
        if attempt.owner[oy, ox] == 0 and oy * side + ox not in out:
            out[oy * side + ox] = (y + cy) * side + x + cx
    return out


REROUTES = 6
"""How often one attempt takes its corridors up and routes the one that found no way first."""

CROWDED = 3
"""What a corridor step beside a room costs beyond its own: corridors keep off rooms' walls, where later
corridors need their doors."""


def corridor(attempt: Attempt, a: Tuple[str, Prefab], b: Tuple[str, Prefab]) -> Optional[List[int]]:
    """The cells (flat) of a corridor from room ``a`` to room ``b``, room cells at both ends, or None: A* over
    the free cells of the rooms' bounding box (and a margin), a step beside a room costing more."""
    sources, targets = door_cells(attempt, *a), door_cells(attempt, *b)
    if not sources or not targets:
        return None
    side = attempt.side
    free = attempt.owner.reshape(-1) == 0
    crowded = attempt.crowded
    x_lo, y_lo, x_hi, y_hi = attempt.window
    bx, by, bw, bh = attempt.rects[b[0]]

    def guess(cell: int) -> int:  # steps to b's rectangle: never more than the corridor still costs
        y, x = divmod(cell, side)
        return max(bx - x, 0, x - (bx + bw - 1)) + max(by - y, 0, y - (by + bh - 1)) - 1

    came: Dict[int, int] = {}
    cost: Dict[int, int] = {}
    heap: List[Tuple[int, int, int]] = []
    for cell in sorted(sources):
        came[cell], cost[cell] = -1, 1
        heapq.heappush(heap, (1 + guess(cell), len(heap), cell))
    pushed = len(heap)
    while heap:
        _, _, cell = heapq.heappop(heap)
        if cell in targets:
            path = [cell]
            while came[path[-1]] != -1:
                path.append(came[path[-1]])
            path.reverse()
            return [sources[path[0]]] + path + [targets[cell]]
        y, x = divmod(cell, side)
        for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            step = ny * side + nx
            if not (x_lo <= nx <= x_hi and y_lo <= ny <= y_hi and free[step]):
                continue
            spent = cost[cell] + 1 + (CROWDED if crowded[step] and step not in targets else 0)
            if spent < cost.get(step, 1 << 30):
                cost[step], came[step] = spent, cell
                pushed += 1
                heapq.heappush(heap, (spent + guess(step), pushed, step))
    return None


def route_all(attempt: Attempt, rooms: Dict[str, Prefab], edges: List[Edge]) -> Optional[Dict[int, List[int]]]:
    """Every edge's corridor (by ``id(edge)``), carved in ``edges``' order, or None. Rip up and reroute: when an
    edge finds no way, every corridor is taken up and that edge goes first (at most :data:`REROUTES` times)."""
    flat = attempt.owner.reshape(-1)
    order = list(edges)
    for _ in range(REROUTES + 1):
        corridors: Dict[int, List[int]] = {}
        for edge in order:
            cells = corridor(attempt, (edge.a, rooms[edge.a]), (edge.b, rooms[edge.b]))
            if cells is None:
                for made in corridors.values():
                    flat[made[1:-1]] = 0
                order.remove(edge)
                order.insert(0, edge)
                break
            flat[cells[1:-1]] = -1
            corridors[id(edge)] = cells
        else:
            return corridors
    return None
