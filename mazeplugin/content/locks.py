"""Choosing where locked doors go along a route, and which candidate holds each key: one plan for any graph.

Both views of :mod:`mazeplugin.content.placing`, the square levels' (on the
floor-tile graph) and the grid levels' (on cells and passages), reduce lock placement to positions along the direct
route, entrance first:

- ``door_at``: the route positions where a door may stand (ascending) —
  places every walk from the entrance to the exit crosses;
- key candidates: places off the route, each with ``high``, the last route
  position its part of the level touches (so a door after ``high`` is
  behind it and a door at or before an earlier door is not between).

A key for a door at position ``d`` after a door at ``p`` must have
``p < high < d``: reachable with the earlier doors open, and before its own.
The most locks a route can hold is found greedily (earliest door after the
earliest key, again and again); doors are then spread along the route, each
the one nearest its even share that still leaves room for the rest, and each
key is the best-scoring candidate between its door and the one before.

>>> import numpy as np
>>> door_at = np.array([3, 7])                       # two places every walk crosses
>>> highs = np.array([1, 5]); order = np.array([10, 11]); score = np.array([1.0, 2.0])
>>> plan_locks(2, 9, door_at, highs, order, score)   # key 10 before door 3, key 11 before door 7
[(3, 10), (7, 11)]
>>> plan_locks(3, 9, door_at, highs, order, score)
Traceback (most recent call last):
...
ValueError: keys=3 does not fit: this level can hold 2 locks (a door needs a passage every route to the exit crosses, with a side branch before it for its key)
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

__all__ = ["plan_locks", "key_candidates", "crossed"]


def crossed(length: int, spans: Sequence[Tuple[int, int]]) -> NDArray[np.int64]:
    """The route positions ``1 … length-2`` (ascending) that every walk crosses: those no loop bypasses,
    a span ``(a, b)`` being a part of the level (or a passage) joining route positions ``a`` and ``b``
    that bypasses the positions strictly between. Square and grid levels find their doors' places here.

    >>> crossed(7, [(1, 4)]).tolist()
    [1, 4, 5]
    """
    if length < 3:
        return np.zeros(0, dtype=np.int64)
    cover = np.zeros(length + 1, dtype=np.int64)
    for a, b in spans:
        if b - a >= 2:
            cover[a + 1] += 1
            cover[b] -= 1
    return np.flatnonzero(np.cumsum(cover)[1:length - 1] == 0) + 1


def key_candidates(touch: NDArray[np.int64], dist_path: NDArray[np.int64], degree: NDArray[np.int64],
                   noise: NDArray[np.float64], usable: Optional[NDArray[np.bool_]] = None
                   ) -> Tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """``(order, highs, score)`` for :func:`plan_locks`, scored the same on every grid: the places off the
    route (``dist_path > 0``, and ``usable``) whose part touches it (``touch``: the last route place touched,
    -1 for none), by ``touch`` (stable); a longer side branch scores higher, a dead end above every other,
    ``noise`` breaking ties."""
    wanted = (dist_path > 0) & (touch >= 0)
    off = np.flatnonzero(wanted if usable is None else usable & wanted)
    order = off[np.argsort(touch[off], kind="stable")]
    return order, touch[order], dist_path[order] + noise[order] + np.where(degree[order] == 1, 1e9, 0)


def plan_locks(
    keys: int,
    length: int,
    door_at: NDArray[np.int64],
    highs: NDArray[np.int64],
    order: NDArray[np.int64],
    score: NDArray[np.float64],
) -> List[Tuple[int, int]]:
    """``(door position, key candidate)`` per lock, in the order the player meets them.

    Args:
        keys: how many locks.
        length: positions along the route (doors are spread over ``0 … length-1``).
        door_at: route positions where a door may stand, ascending.
        highs: each key candidate's last route position touched, ascending.
        order: the candidates' own numbers, in the order of ``highs``.
        score: the candidates' preference (highest wins), in the same order.

    Raises ``ValueError`` saying how many locks fit when ``keys`` do not.
    """

    # Python lists and bisect: a route holds a few dozen doors and candidates, where
    # each numpy call would cost more than the search it makes.
    doors, tops, numbers, scores = door_at.tolist(), highs.tolist(), order.tolist(), score.tolist()

    def earliest(previous: int) -> int:
        """The first door possible after a door at route index ``previous`` (-1: none)."""
        n = bisect_right(tops, previous)
        if n == len(tops):
            return -1
        m = bisect_right(doors, tops[n])
        return int(doors[m]) if m < len(doors) else -1

    def capacity(previous: int, limit: int) -> int:
        count = 0
        while count < limit:
            previous = earliest(previous)
            if previous < 0:
                break
            count += 1
        return count

    most = capacity(-1, keys)
    if most < keys:
        held = capacity(-1, length)
        raise ValueError(
            f"keys={keys} does not fit: this level can hold {held} lock{'s' if held != 1 else ''} "
            "(a door needs a passage every route to the exit crosses, with a side branch before it for its key)"
        )
    plan = []
    previous = -1
    for i in range(1, keys + 1):
        low = earliest(previous)
        # The latest door that still leaves room for the rest, by bisection over doors.
        first = bisect_left(doors, low)
        lo_n, hi_n = first, len(doors) - 1
        while lo_n < hi_n:
            mid = (lo_n + hi_n + 1) // 2
            if capacity(doors[mid], keys - i) == keys - i:
                lo_n = mid
            else:
                hi_n = mid - 1
        target = i * (length - 1) / (keys + 1)
        # The door of doors[first..lo_n] nearest the target, the earlier of two as near (numpy's
        # argmin): doors ascend, so it is one of the two around the target.
        j = bisect_left(doors, target, first, lo_n + 1)
        near = doors[max(j - 1, first):min(j + 1, lo_n + 1)]
        gaps = [abs(d - target) for d in near]
        door = int(near[gaps.index(min(gaps))])
        a = bisect_right(tops, previous)
        b = bisect_left(tops, door)
        best = scores[a:b]
        key = int(numbers[a + best.index(max(best))])  # the first best, as numpy's argmax
        plan.append((door, key))
        previous = door
    return plan
