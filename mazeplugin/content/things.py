"""What stands on a level: :class:`Thing` (on tiles), :class:`CellThing` (on cells), :class:`Place` requests.

A thing is ``(kind, x, y, id, props)``: a kind name, the tile it stands on
(``level.tiles`` coordinates), a unique id (things are sorted by it) and a
small dict of properties. The built-in kinds and what their props hold:

- ``"door"``: a locked door. ``props["key"]`` is its key's id, ``props["lock"]``
  its number in the order the player meets the doors (1, 2, ...),
  ``props["tiles"]`` every tile it blocks (a whole passage width when
  ``corridor > 1``; the thing's own tile is one of them).
- ``"key"``: ``props["door"]`` is the id of the door it opens, ``props["lock"]``
  that door's number.
- ``"treasure"``: no props.
- ``"enemy"``: ``props["patrol"]`` is the corridor stretch it walks back and
  forth: 4-adjacent floor tiles, starting at one end.

>>> door = Thing("door", 4, 1, 2, {"key": 1, "lock": 1, "tiles": [[4, 1]]})
>>> door.props["tiles"]
((4, 1),)
>>> door.tiles()
((4, 1),)
>>> Thing("key", 3, 1, 1, {"door": 2, "lock": 1}).tile
(3, 1)
>>> Place("coin", 10, where="dead-ends")
Place(kind='coin', count=10, where='dead-ends', min_distance=0, spacing=1)
>>> Place("door", 1)
Traceback (most recent call last):
...
ValueError: Place kind 'door' is a built-in kind (door, enemy, key, treasure); give your own kind another name
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

__all__ = [
    "ContentError",
    "Thing",
    "Place",
    "DOOR",
    "KEY",
    "TREASURE",
    "ENEMY",
    "KINDS",
    "MARKS",
    "WHERE",
    "PROP_TYPES",
    "CELL_PROP_TYPES",
    "CellThing",
    "check_props",
    "locks_of",
    "in_lock_order",
    "check_ids",
    "at_tile",
]

DOOR = 4
"""Value of a door tile in :meth:`Level.marked` (every tile the door blocks)."""
KEY = 5
"""Value of a key's tile in :meth:`Level.marked`."""
TREASURE = 6
"""Value of a treasure's tile in :meth:`Level.marked`."""
ENEMY = 7
"""Value of an enemy's (starting) tile in :meth:`Level.marked`."""

KINDS = ("door", "key", "treasure", "enemy")
"""The built-in kinds; a :class:`Place` kind must be another name."""

MARKS = {"door": DOOR, "key": KEY, "treasure": TREASURE, "enemy": ENEMY}
"""The :meth:`Level.marked` value of each built-in kind (a game's own kinds are not marked)."""

WHERE = ("dead-ends", "corridors", "junctions", "anywhere")
"""Where a :class:`Place` request may put its things: cells with 1, 2, 3+ or any number of open sides."""


PROP_TYPES: Dict[str, Dict[str, str]] = {
    "door": {"key": "int", "lock": "int", "tiles": "tiles"},
    "key": {"door": "int", "lock": "int"},
    "enemy": {"patrol": "tiles"},
}
"""What the built-in kinds' props must be where given: ``"int"``, or ``"tiles"`` (a list of ``[x, y]`` int pairs)."""

CELL_PROP_TYPES: Dict[str, Dict[str, str]] = {
    "door": {"edge": "int", "cells": "cells", "key": "int", "lock": "int"},
    "key": {"door": "int", "lock": "int"},
    "enemy": {"patrol": "cells"},
}
"""What the built-in kinds' props must be on a cell graph: ``"int"``, or ``"cells"`` (a list of ints)."""


def check_props(kind: str, props: Mapping[str, Any]) -> None:
    """Check a built-in kind's props for their types (a thing read from a file); ``TypeError`` names the prop.

    Other kinds' props, and props a kind does not use, are not looked at.

    >>> check_props("door", {"key": 1, "tiles": [[4, 1], [4, 2]]})
    >>> check_props("enemy", {"patrol": [1, 2]})
    Traceback (most recent call last):
    ...
    TypeError: enemy props['patrol'] must be a list of [x, y] int pairs; item 0 is int
    """
    for name, rule in PROP_TYPES.get(kind, {}).items():
        if name in props:
            _check_prop(kind, name, props[name], rule)


def _whole(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, numbers.Integral)


def _check_prop(kind: str, name: str, value: Any, rule: Optional[str]) -> None:
    """One prop against its rule (:data:`PROP_TYPES`, :data:`CELL_PROP_TYPES`): ``"int"``, ``"tiles"`` or ``"cells"``."""
    if rule == "int" and not _whole(value):
        raise TypeError(f"{kind} props[{name!r}] must be an int, not {type(value).__name__}")
    if rule == "cells" and (not isinstance(value, (list, tuple)) or not all(_whole(v) for v in value)):
        raise TypeError(f"{kind} props[{name!r}] must be a list of cell numbers (ints)")
    if rule != "tiles":
        return
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{kind} props[{name!r}] must be a list of [x, y] int pairs, not {type(value).__name__}")
    for n, pair in enumerate(value):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2 or not all(_whole(v) for v in pair):
            raise TypeError(f"{kind} props[{name!r}] must be a list of [x, y] int pairs; "
                            f"item {n} is {type(pair).__name__}")


def _plain(value: Any) -> Any:
    """Props values made immutable and comparable: lists (from JSON) become tuples."""
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    return value


def check_fields(thing: Any, owner: str, numbers_: Tuple[str, ...],
                 check_prop: Optional[Callable[[str, Any], None]] = None) -> None:
    """A new frozen thing's fields checked and set as it keeps them (:class:`Thing`, and
    :class:`CellThing` with its ``check_prop(key, value)``): ``kind`` a non-empty
    str, each of ``numbers_`` an int, ``props`` a mapping with str keys whose lists become tuples."""
    if not isinstance(thing.kind, str) or not thing.kind:
        raise TypeError(f"{owner} kind must be a non-empty str, got {thing.kind!r}")
    for name in numbers_:
        value = getattr(thing, name)
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{owner} {name} must be an int, got {value!r}")
        object.__setattr__(thing, name, int(value))
    if not isinstance(thing.props, Mapping):
        raise TypeError(f"{owner} props must be a mapping (dict), got {type(thing.props).__name__}")
    props: Dict[str, Any] = {}
    for key, value in thing.props.items():
        if not isinstance(key, str):
            raise TypeError(f"{owner} props keys must be str, got {key!r}")
        if check_prop is not None:
            check_prop(key, value)
        props[key] = _plain(value)
    object.__setattr__(thing, "props", props)


class ContentError(ValueError):
    """A level's things break a promise (a key behind its own door, a door nobody needs, ...)."""


@dataclass(frozen=True)
class Thing:
    """One thing standing on a floor tile of a level.

    Attributes:
        kind: ``"door"``, ``"key"``, ``"treasure"``, ``"enemy"`` or a game's own kind.
        x, y: the tile (``level.tiles[y, x]``) it stands on.
        id: unique within a level, >= 1; ``level.things`` is sorted by it.
        props: kind-specific properties (see the module docstring); lists
            are stored as tuples, so a thing loaded from JSON equals the original.
    """

    kind: str
    x: int
    y: int
    id: int
    props: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        check_fields(self, "Thing", ("x", "y", "id"))

    @classmethod
    def made(cls, kind: str, x: int, y: int, id: int, props: Dict[str, Any]) -> "Thing":
        """A thing the library itself makes, with its fields already as a checked one holds them.

        Content placement makes thousands of things a second on small levels;
        re-checking what is correct by construction took about a seventh of
        its time. The caller promises: ``kind`` a non-empty str, ``x``, ``y``,
        ``id`` Python ints, ``props`` a fresh dict with str keys whose lists
        are already tuples (``Thing(...)`` checks and converts all of that).

        >>> Thing.made("key", 3, 1, 1, {"door": 2, "lock": 1}) == Thing("key", 3, 1, 1, {"door": 2, "lock": 1})
        True
        """
        thing = object.__new__(cls)
        object.__setattr__(thing, "kind", kind)
        object.__setattr__(thing, "x", x)
        object.__setattr__(thing, "y", y)
        object.__setattr__(thing, "id", id)
        object.__setattr__(thing, "props", props)
        return thing

    @property
    def tile(self) -> Tuple[int, int]:
        """``(x, y)``."""
        return (self.x, self.y)

    def tiles(self) -> Tuple[Tuple[int, int], ...]:
        """Every tile the thing covers: a door's ``props["tiles"]``, else just its own tile."""
        covered = self.props.get("tiles") if self.kind == "door" else None
        if covered:
            return tuple((int(x), int(y)) for x, y in covered)
        return ((self.x, self.y),)


@dataclass(frozen=True)
class CellThing:
    """One thing on a cell of a grid level (a door: on the passage ``props["edge"]``; see :mod:`mazeplugin.content.cells`).

    Attributes:
        kind: ``"door"``, ``"key"``, ``"treasure"``, ``"enemy"`` or a game's own kind.
        cell: the cell it stands on (a door: the cell before its passage).
        id: unique within a level, >= 1; ``level.things`` is sorted by it.
        props: kind-specific properties; lists are stored as tuples.
    """

    kind: str
    cell: int
    id: int
    props: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        check_fields(self, "CellThing", ("cell", "id"), self._check_prop)

    def _check_prop(self, key: str, value: Any) -> None:
        _check_prop(self.kind, key, value, CELL_PROP_TYPES.get(self.kind, {}).get(key))

    def as_list(self) -> List[Any]:
        """``[kind, cell, id, props]`` with lists for tuples: what a grid level's JSON holds."""
        def plain(value: Any) -> Any:
            return [plain(v) for v in value] if isinstance(value, tuple) else value
        return [self.kind, self.cell, self.id, {k: plain(v) for k, v in self.props.items()}]


def _check_int(owner: str, name: str, value: object, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{owner} {name} must be an int, not {type(value).__name__}")
    if value < low:
        raise ValueError(f"{owner} {name} must be at least {low}, got {value}")
    return int(value)


@dataclass(frozen=True)
class Place:
    """A request to place ``count`` things of a game's own ``kind`` (coins, torches, spawn points).

    Args:
        kind: any non-empty name except the built-in kinds.
        count: how many (>= 0).
        where: ``"dead-ends"`` (cells with one open side), ``"corridors"``
            (two), ``"junctions"`` (three or more) or ``"anywhere"``.
        min_distance: at least this many cells walked from the entrance
            (ignored on a level without an entrance).
        spacing: no two of this request closer than this many cells
            (Chebyshev distance between their cells; on a hex, triangle,
            polar or wrapping level, passages walked; 1 only keeps them apart).

    Every Place thing is on a floor cell of the entrance's part of the
    level, never on a marker or another thing; the level stays solvable
    (Place things never block). Too few fitting cells raise ``ValueError``.
    """

    kind: str
    count: int
    where: str = "anywhere"
    min_distance: int = 0
    spacing: int = 1

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or not self.kind.strip():
            raise TypeError(f"Place kind must be a non-empty str, got {self.kind!r}")
        if self.kind in KINDS:
            raise ValueError(
                f"Place kind {self.kind!r} is a built-in kind ({', '.join(sorted(KINDS))}); "
                "give your own kind another name"
            )
        _check_int("Place", "count", self.count, 0)
        if self.where not in WHERE:
            raise ValueError(f"Place where must be one of {', '.join(map(repr, WHERE))}; got {self.where!r}")
        _check_int("Place", "min_distance", self.min_distance, 0)
        _check_int("Place", "spacing", self.spacing, 1)

    def as_dict(self) -> Dict[str, Any]:
        """The request as a plain dict (what a level records in ``options["place"]``)."""
        return {
            "kind": self.kind,
            "count": int(self.count),
            "where": self.where,
            "min_distance": int(self.min_distance),
            "spacing": int(self.spacing),
        }


def locks_of(things: Sequence[Any], where: Callable[[Any], str]) -> Tuple[Dict[int, Any], Dict[int, Any]]:
    """``(doors by id, keys by id)``, each door and key linked both ways (``ContentError`` otherwise; ``where(thing)``
    places a thing in the message)."""
    doors = {t.id: t for t in things if t.kind == "door"}
    keys = {t.id: t for t in things if t.kind == "key"}
    for door in doors.values():
        found = keys.get(door.props.get("key", -1))
        if found is None or found.props.get("door") != door.id:
            raise ContentError(f"door {door.id} {where(door)} has no key whose props['door'] is {door.id}")
    for key in keys.values():
        opens = doors.get(key.props.get("door", -1))
        if opens is None or opens.props.get("key") != key.id:
            raise ContentError(f"key {key.id} {where(key)} opens no door (props['door'] = {key.props.get('door')!r})")
    return doors, keys


def in_lock_order(doors: Dict[int, Any]) -> List[Any]:
    """The doors in the order their locks are met (``props["lock"]``, then id)."""
    return sorted(doors.values(), key=lambda d: (d.props.get("lock", 0), d.id))


def check_ids(things: Sequence[Any]) -> None:
    """Every thing's id its own, in ascending order (``ContentError`` otherwise): both proofs begin here."""
    ids = [t.id for t in things]
    if len(set(ids)) != len(ids):
        raise ContentError("two things share an id")
    if ids != sorted(ids):
        raise ContentError("things are not sorted by id")


def at_tile(thing: Thing) -> str:
    """Where a thing stands, for a message: ``"at (x, y)"``."""
    return f"at {thing.tile}"
