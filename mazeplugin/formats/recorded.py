"""The options a level file records, checked on load (types and size), before they reach a Level.

A level file's ``options`` (JSON ``"options"``, a Tiled map's ``options``
property) are data from outside: they must be plain JSON values, at most
:data:`~mazeplugin.limits.MAX_OPTIONS_BYTES` as JSON (a ``mask`` aside) and
nested at most :data:`~mazeplugin.limits.MAX_OPTIONS_DEPTH` deep. The
options :func:`mazeplugin.generate` itself records have a rule each in
:data:`LEVEL_OPTIONS`; a built-in generator's own options go through its
``check`` (:mod:`mazeplugin.registry`), and unknown names are refused for it.
Options of other generators (plugins) are checked for size and nesting only.

Other layers extend the table: ``LEVEL_OPTIONS["name"] = rule``, where a rule
takes ``(value, shape)`` (a :class:`LevelShape`) and raises ``ValueError`` or
``TypeError`` saying what is allowed.

>>> shape = LevelShape(width=3, height=2, corridor=1, wall=1)
>>> check_options({"braid": 0.5, "mask": ["##.", "###"]}, generator="kruskal", shape=shape)
{'braid': 0.5, 'mask': ['##.', '###']}
>>> check_options({"braid": 2}, generator="kruskal", shape=shape, source="level.json")
Traceback (most recent call last):
...
mazeplugin.formats.files.LevelFormatError: level.json: option 'braid': braid must be a number from 0 to 1, got 2
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, Mapping, NamedTuple, Optional

from ..limits import MAX_OPTIONS_BYTES, MAX_OPTIONS_DEPTH, check_int, check_number
from ..markers import MARKER_MODES
from .files import LevelFormatError

__all__ = ["LevelShape", "Rule", "LEVEL_OPTIONS", "check_options", "check_plain"]


class LevelShape(NamedTuple):
    """The size of the level whose options are checked (cells, and passage and wall widths in tiles)."""

    width: int
    height: int
    corridor: int
    wall: int


Rule = Callable[[Any, LevelShape], None]


def _braid(value: Any, shape: LevelShape) -> None:
    check_number("braid", value, low=0, high=1)


def _mask(value: Any, shape: LevelShape) -> None:
    if not isinstance(value, list) or len(value) != shape.height:
        raise ValueError(f"mask must be a list of {shape.height} row strings (one per row of cells)")
    for y, row in enumerate(value):
        if not isinstance(row, str) or len(row) != shape.width or row.strip("#."):
            raise ValueError(f"mask row {y} must be a string of {shape.width} '#' (cell) or '.' (outside) characters")


def _markers(value: Any, shape: LevelShape) -> None:
    if isinstance(value, str):
        if value not in MARKER_MODES:
            raise ValueError(f"markers must be one of {', '.join(map(repr, MARKER_MODES))} or two [x, y] tiles")
        return
    if (
        not isinstance(value, list) or len(value) != 2
        or not all(isinstance(t, list) and len(t) == 2 for t in value)
    ):
        raise ValueError("markers must be a mode or two [x, y] tiles")
    for tile in value:
        for v in tile:
            check_int("markers tile coordinate", v, low=0)


def _same(name: str) -> Rule:
    def rule(value: Any, shape: LevelShape) -> None:
        expected = getattr(shape, name)
        if check_int(name, value, low=1) != expected:
            raise ValueError(f"{name} is {value}, but the level's {name} is {expected}")

    return rule


def _rooms(value: Any, shape: LevelShape) -> None:
    from ..rooms.layer import check_rooms

    check_rooms([_tuple_pairs(room) for room in value] if isinstance(value, list) else value)


def _doors(value: Any, shape: LevelShape) -> None:
    from ..rooms.layer import check_rooms

    check_rooms(0, value)


def _room_size(value: Any, shape: LevelShape) -> None:
    from ..rooms.layer import check_rooms

    check_rooms(0, 1, _tuple_pairs(value))


def _content_count(name: str) -> Rule:
    def rule(value: Any, shape: LevelShape) -> None:
        check_int(name, value, low=0, high=shape.width * shape.height * 4)

    return rule


def _place(value: Any, shape: LevelShape) -> None:
    from ..content.placing import check_request

    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise ValueError("place must be a list of objects (kind, count, where, min_distance, spacing)")
    check_request(place=value)


LEVEL_OPTIONS: Dict[str, Rule] = {
    "braid": _braid,
    "mask": _mask,
    "markers": _markers,
    "corridor": _same("corridor"),
    "wall": _same("wall"),
    "rooms": _rooms,  # issue 11: rooms in any generator
    "doors": _doors,
    "room_size": _room_size,
    "keys": _content_count("keys"),
    "treasure": _content_count("treasure"),
    "enemies": _content_count("enemies"),
    "place": _place,
}
"""Rules for the options :func:`mazeplugin.generate` records besides the generator's own."""


def check_plain(value: Any, *, budget: int = MAX_OPTIONS_BYTES, depth: int = MAX_OPTIONS_DEPTH) -> int:
    """What ``value`` costs as JSON, roughly in bytes; ``ValueError`` if it exceeds ``budget`` or nests too deep.

    Only JSON values are allowed (None, bool, int, finite float, str, list,
    dict with str keys). A list or object is charged for its items before
    they are looked at, so the walk stops as soon as the budget is spent: a
    huge value costs no more than the budget to refuse.

    >>> check_plain({"a": [1, 2.5, None]})
    43
    >>> check_plain([0] * 10**6)
    Traceback (most recent call last):
    ...
    ValueError: larger than 65,536 bytes
    """
    spent = 0
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if level > depth:
            raise ValueError(f"nested more than {depth} deep")
        if item is None or isinstance(item, bool):
            spent += 5
        elif isinstance(item, int):
            spent += 2 + item.bit_length() // 3
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise ValueError(f"{item!r} is not a finite number")
            spent += 24
        elif isinstance(item, str):
            spent += 2 + len(item)
        elif isinstance(item, list):
            spent += 2 + len(item)
            if spent <= budget:
                stack.extend((v, level + 1) for v in item)
        elif isinstance(item, dict):
            spent += 2 + 4 * len(item)  # braces; a colon, a comma and the quotes of each key
            if spent <= budget:
                for key, v in item.items():
                    if not isinstance(key, str):
                        raise ValueError(f"object keys must be strings, got {type(key).__name__}")
                    spent += len(key)
                    stack.append((v, level + 1))
                    if spent > budget:
                        break
        else:
            raise ValueError(f"{type(item).__name__} is not a JSON value")
        if spent > budget:
            raise ValueError(f"larger than {budget:,} bytes")
    return spent


def check_options(
    options: Any,
    *,
    generator: Optional[str],
    shape: LevelShape,
    source: str = "<options>",
) -> Dict[str, Any]:
    """Check a level file's recorded ``options``; the options as a dict, or a :class:`LevelFormatError` naming ``source``."""
    if not isinstance(options, dict):
        raise LevelFormatError(f"{source}: \"options\" must be an object, got {type(options).__name__}")
    spent = 0
    for name, value in options.items():
        if not isinstance(name, str) or not name or len(name) > 64:
            raise LevelFormatError(f"{source}: option names must be strings of 1 to 64 characters, got {name!r}")
        try:
            if name == "mask":
                _mask(value, shape)
                continue
            spent += check_plain(value, budget=MAX_OPTIONS_BYTES - spent)
            rule = LEVEL_OPTIONS.get(name)
            if rule is not None:
                rule(value, shape)
        except (TypeError, ValueError) as error:
            raise LevelFormatError(f"{source}: option {name!r}: {error}") from None
    _check_generator_options(options, generator, shape, source)
    return dict(options)


def _check_generator_options(options: Mapping[str, Any], generator: Optional[str], shape: LevelShape,
                             source: str) -> None:
    """A built-in generator's own options: known names and its ``check`` (plugins: size only)."""
    from ..registry import _REGISTRY

    info = _REGISTRY.get(generator) if generator is not None else None
    if info is None or not info.builtin:
        return
    own = {k: _tuple_pairs(v) for k, v in options.items() if k not in LEVEL_OPTIONS}
    try:
        info.check_options(own, shape.width, shape.height)
    except (TypeError, ValueError) as error:
        raise LevelFormatError(f"{source}: {error}") from None


def _tuple_pairs(value: Any) -> Any:
    """JSON has no tuples: a pair option (``room_size``) comes back as a list, which is fine for checking."""
    return tuple(value) if isinstance(value, list) else value
