"""What content a level asks for: ``keys=``, ``treasure=``, ``enemies=``, ``place=``, checked before any work.

>>> check_request(keys=2, treasure=1)
(2, 1, 0, ())
>>> check_request(keys=-1)
Traceback (most recent call last):
...
ValueError: keys must be at least 0, got -1
"""

from __future__ import annotations

import copy
import numbers
from typing import Any, Iterable, Optional, Tuple, TypeVar

from ..seeds import Random, Seed, resolve_seed
from .things import Place

__all__ = ["ContentRequest", "Furnishable", "check_request", "with_content", "content_stream", "CONTENT_STREAM", "ENEMY_DISTANCE", "PATROL_CELLS"]

CONTENT_STREAM = 3
"""Index of the content stream in ``Random.streams(seed, n)``."""

ENEMY_DISTANCE = 5
"""Every tile of an enemy's patrol is at least this many cells walked from the entrance."""

PATROL_CELLS = 3
"""An enemy patrols at most this many cells each way from where it starts."""


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must be at least 0, got {value}")
    return int(value)


ContentRequest = Tuple[int, int, int, Tuple[Place, ...]]
"""Checked content arguments: ``(keys, treasure, enemies, place)``, as :func:`check_request` returns them."""


def check_request(
    keys: object = 0, treasure: object = 0, enemies: object = 0, place: object = (), *, cells: Optional[int] = None,
) -> ContentRequest:
    """The content arguments checked (``TypeError``/``ValueError`` naming the argument), normalised.

    With ``cells`` (the level's size in cells), counts that could never fit
    (more things needing a cell of their own than there are cells) are
    refused here, before any work; whether the rest fit is known after placing.
    """
    k = _count("keys", keys)
    t = _count("treasure", treasure)
    e = _count("enemies", enemies)
    if place is None:
        place = ()
    if isinstance(place, (Place, str, bytes)) or not isinstance(place, Iterable):
        raise TypeError(f"place must be a list of mp.Place, not {type(place).__name__}")
    requests = []
    for item in place:
        if isinstance(item, dict):
            try:
                item = Place(**item)
            except TypeError as error:
                if "unexpected keyword" in str(error) or "missing" in str(error):
                    raise TypeError(f"place entry {item!r}: {error}") from None
                raise
        if not isinstance(item, Place):
            raise TypeError(f"place must hold mp.Place requests, got {type(item).__name__}")
        requests.append(item)
    if cells is not None:
        total = k + t + e + sum(r.count for r in requests)
        if total > cells:
            named = [f"{n}={v}" for n, v in (("keys", k), ("treasure", t), ("enemies", e)) if v]
            named += [f"Place({r.kind!r}, {r.count})" for r in requests if r.count]
            raise ValueError(
                f"{', '.join(named)} does not fit: {total:,} things (keys, treasure, enemies and Place "
                f"things each take a cell of their own) on a level of {cells:,} cells"
            )
    return k, t, e, tuple(requests)


Furnishable = TypeVar("Furnishable", bound=Any)


def with_content(level: Furnishable, things: Tuple[Any, ...], k: int, t: int, e: int,
                 requests: Tuple[Place, ...]) -> Furnishable:
    """A copy of ``level`` (square or grid) with ``things`` added after its own and the content
    options that made them recorded (``keys``, ``treasure``, ``enemies``, ``place``): what a level
    code and a level file say of it."""
    out = copy.copy(level)
    out.things = tuple(level.things) + tuple(things)
    options = dict(level.options)
    for name, value in (("keys", k), ("treasure", t), ("enemies", e)):
        if value:
            options[name] = value
    if requests:
        options["place"] = [r.as_dict() for r in requests]
    out.options = options
    return out


def content_stream(level: Any, seed: Optional[Seed]) -> Random:
    """The content stream of ``seed`` (default: ``level.seed``) that ``furnish`` draws from."""
    if seed is None:
        seed = level.seed
        if seed is None:
            raise ValueError("this level has no seed: pass seed= to furnish it")
    return Random.streams(resolve_seed(seed), CONTENT_STREAM + 1)[CONTENT_STREAM]
