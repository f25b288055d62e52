"""Two choices every view of the placing engine makes on its graph: an enemy's corridor stretch, and picks spread wide.

The square levels' view places on the floor-tile graph, the grid levels' on
cells and passages (both in :mod:`mazeplugin.content.placing`); both walk a
patrol and spread things the same way, given only "the neighbours of a node" and "pick with
this spacing".

>>> line = {0: [1], 1: [0, 2], 2: [1, 3], 3: [2, 4], 4: [3]}   # a corridor 0 - 1 - 2 - 3 - 4
>>> corridor_stretch(line.__getitem__, 2, lambda n: n != 0, 5)
[1, 2, 3, 4]
>>> widest(lambda spacing: list(range(0, 10, spacing))[:3], 3, 100)   # spacing 5 gives only 2: halve to 2
[0, 2, 4]
"""

from __future__ import annotations

import math
from typing import Any, Callable, List, Optional, Sequence, Set

import numpy as np
from numpy.typing import NDArray

from .things import Place

__all__ = ["corridor_stretch", "widest", "where_allowed"]


def corridor_stretch(neighbours: Callable[[int], Sequence[int]], start: int, walkable: Callable[[int], bool],
                     limit: int) -> List[int]:
    """A corridor stretch through ``start``: at most ``limit`` walkable nodes each way, stopping at a junction.

    One end first (from the first neighbour), ``start``, then the other end.
    """
    ends = []
    for first in neighbours(start):
        side: List[int] = []
        previous, current = start, first
        while len(side) < limit and walkable(current):
            side.append(current)
            onward = [j for j in neighbours(current) if j != previous]
            if len(onward) != 1:
                break
            previous, current = current, onward[0]
        ends.append(side)
    if not ends:
        return [start]
    back = ends[0][::-1]
    forth = ends[1] if len(ends) > 1 else []
    return back + [start] + forth


def widest(pick: Callable[[int], List[int]], count: int, area: int, undo: Optional[Set[int]] = None) -> List[int]:
    """``pick(spacing)`` as spread out as fits: spacing from ``sqrt(area / count) / 2``, halving to 1.

    ``undo`` (what a refused attempt's picks claimed, e.g. patrol tiles) is
    cleared before each attempt.
    """
    spacing = max(1, int(math.sqrt(area / max(count, 1)) / 2))
    while True:
        if undo is not None:
            undo.clear()
        picks = pick(spacing)
        if len(picks) == count or spacing == 1:
            return picks
        spacing //= 2


def where_allowed(request: Place, free: NDArray[np.bool_], degree: NDArray[Any],
                  distance: Optional[NDArray[Any]]) -> NDArray[np.bool_]:
    """Where a game's own kind may stand: ``free`` places (one per cell or floor place) narrowed to
    the request's ``where`` (by ``degree``, open passages per place) and, given the ``distance``
    from the entrance, its ``min_distance``. Square and grid levels share it."""
    allowed = free.copy()
    if request.where == "dead-ends":
        allowed &= degree == 1
    elif request.where == "corridors":
        allowed &= degree == 2
    elif request.where == "junctions":
        allowed &= degree >= 3
    if distance is not None and request.min_distance:
        allowed &= distance >= request.min_distance
    return allowed
