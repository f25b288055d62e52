"""The one placing engine: keys and locked doors, treasure, a game's own kinds and enemies, on any graph of places.

A level's graph is read through a :class:`Places` view: the floor tiles of a
square level (:mod:`mazeplugin.content.placing`), the cells of a grid or
weave level (:mod:`mazeplugin.content.cellplacing`). The view numbers the
*places* a thing may stand on (the cells) and answers per place: its open
sides (``degree``), its steps up the entrance's breadth-first tree to the
direct route (``dist_path``), its distance from the entrance in cells
(``distance``) and whether it is free. It plans the locks along its route
(:func:`~mazeplugin.content.locks.plan_locks`), spreads picks by its own
measure, walks an enemy's patrol on its own graph and makes its own things.
The engine makes every choice the same way on every view, drawing from the
content stream in one order:

1. ``noise`` (ties among equals): one number per place, drawn once.
2. **Keys and doors**, as the view plans them: key ``i`` before door ``i``.
3. **Treasure**: dead ends farthest from the route first, then other places
   off it (with no route: dead ends first, by noise), spread wide
   (:func:`~mazeplugin.content.choosing.widest`).
4. **Place** requests, in order: the places their ``where`` and
   ``min_distance`` allow, in a random order, ``spacing`` apart.
5. **Enemies**: free corridor places at least :data:`ENEMY_DISTANCE` cells
   from the entrance, in a random order, each with a patrol the view finds
   off the route, every door and the ways to every thing placed, spread wide.

Raises ``ValueError`` saying how many fit when a count does not.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Protocol, Sequence, Set, Tuple

import numpy as np
from numpy.typing import NDArray

from ..seeds import Random
from .choosing import where_allowed, widest
from .request import ENEMY_DISTANCE
from .things import Place

__all__ = ["Places", "place"]

Accept = Optional[Callable[[int], bool]]


class Places(Protocol):
    """What :func:`place` asks of a level's graph: a view holds the arrays and answers the methods.

    Attributes (one entry per place, numpy arrays):
        degree: open sides.
        dist_path: steps up the entrance's tree to the route (0 on it).
        distance: cells walked from the entrance (``min_distance``, enemies' distance).
        free: places that may still take a thing.
        has_route: whether the level has an entrance and an exit.
        area: the spread's area (``widest`` starts from ``sqrt(area / count) / 2``).
        floor_words: what places are called in "does not fit" without a route.
    """

    degree: NDArray[np.int64]
    dist_path: NDArray[np.int64]
    distance: NDArray[np.int64]
    free: NDArray[np.bool_]
    has_route: bool
    area: int
    floor_words: str

    def locks(self, keys: int, noise: NDArray[np.float64]) -> List[Tuple[Any, int]]:
        """``(door, key place)`` per lock, in the order the player meets them."""

    def thing(self, kind: str, place: int, id: int, props: Dict[str, Any]) -> Any:
        """A thing of ``kind`` on ``place``."""

    def door(self, door: Any, id: int, key: int, lock: int) -> Any:
        """The door thing of a planned ``door`` (its key's id ``key``, its ``lock`` number)."""

    def claim(self, place: int) -> None:
        """``place`` now holds a thing (the view may note it: patrols keep off it)."""

    def spread(self, order: NDArray[np.int64], count: int, spacing: int, accept: Accept = None) -> List[int]:
        """Up to ``count`` places of ``order``, taken greedily, none closer than ``spacing`` (the view's measure)."""

    def ways(self, claimed: List[int]) -> None:
        """Before the enemies: mark the route and the ways up the tree to the ``claimed`` places."""

    def patrol(self, place: int, patrolled: Set[int]) -> Optional[List[int]]:
        """The patrol of an enemy starting at ``place`` (its nodes added to ``patrolled``), or None."""

    def patrol_props(self, route: List[int]) -> Tuple[Any, ...]:
        """An enemy's ``props["patrol"]`` for ``route``."""


def place(places: Places, rng: Random, next_id: int, *, keys: int = 0, treasure: int = 0, enemies: int = 0,
          requests: Sequence[Place] = ()) -> List[Any]:
    """The things placed on ``places`` (see the module docstring), ids from ``next_id``."""
    free, degree, dist_path, has_route = places.free, places.degree, places.dist_path, places.has_route
    made: List[Any] = []
    claimed: List[int] = []

    def new(kind: str, where: int, props: Optional[Dict[str, Any]] = None) -> None:
        nonlocal next_id
        made.append(places.thing(kind, where, next_id, props or {}))
        next_id += 1

    def claim(where: int) -> None:
        free[where] = False
        claimed.append(where)
        places.claim(where)

    noise = rng.random(len(free)) * 0.5  # ties among equals, drawn once

    for lock, (door, key) in enumerate(places.locks(keys, noise) if keys else (), start=1):
        new("key", key, {"door": next_id + 1, "lock": lock})
        made.append(places.door(door, next_id, next_id - 1, lock))
        next_id += 1
        claim(key)

    if treasure:
        if has_route:
            score = np.where(dist_path > 0, dist_path + noise + np.where(degree == 1, 1e9, 0), -1.0)
        else:
            score = noise + np.where(degree == 1, 1.0, 0.0)
        fits = np.flatnonzero((score >= 0) & free)
        order = fits[np.argsort(-score[fits], kind="stable")]
        picks = widest(lambda spacing: places.spread(order, treasure, spacing), treasure, places.area)
        if len(picks) < treasure:
            where = "cells off the route" if has_route else places.floor_words
            raise ValueError(f"treasure={treasure} does not fit: this level has {len(picks)} free {where}")
        for pick in picks:
            new("treasure", pick)
            claim(pick)

    for request in requests:
        if not request.count:
            continue
        candidates = np.flatnonzero(where_allowed(request, free, degree, places.distance if has_route else None))
        order = candidates[rng.permutation(len(candidates))]
        picks = places.spread(order, request.count, request.spacing)
        if len(picks) < request.count:
            raise ValueError(
                f"Place({request.kind!r}, {request.count}, where={request.where!r}, "
                f"min_distance={request.min_distance}, spacing={request.spacing}) does not fit: "
                f"{len(picks)} such cells are free")
        for pick in picks:
            new(request.kind, pick)
            claim(pick)

    if enemies:
        places.ways(claimed)
        patrolled: Set[int] = set()
        fitting = free & (degree <= 2)
        if has_route:
            fitting &= places.distance >= ENEMY_DISTANCE
        candidates = np.flatnonzero(fitting)
        order = candidates[rng.permutation(len(candidates))]
        routes: Dict[int, List[int]] = {}

        def accept(where: int) -> bool:
            route = places.patrol(where, patrolled)
            if route is None:
                return False
            routes[where] = route
            return True

        picks = widest(lambda spacing: places.spread(order, enemies, spacing, accept), enemies, places.area,
                       patrolled)
        if len(picks) < enemies:
            raise ValueError(
                f"enemies={enemies} does not fit: this level has room for {len(picks)} patrols "
                f"(each at least {ENEMY_DISTANCE} cells from the entrance, off every walk to the exit, "
                "a key or treasure)")
        for pick in picks:
            new("enemy", pick, {"patrol": places.patrol_props(routes[pick])})
            free[pick] = False
    return made
