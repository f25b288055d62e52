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
mazeplugin.errors.LevelFormatError: level.json: option 'braid': braid must be a number from 0 to 1, got 2
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, Mapping, NamedTuple, Optional

import numpy as np

from ..content.request import check_request
from ..limits import MAX_OPTIONS_BYTES, MAX_OPTIONS_DEPTH, check_coordinate, check_int, check_number
from ..markers import MARKER_MODES
from ..seeds import Seed, resolve_seed
from ..weave import check_weave
from .files import LevelFormatError

__all__ = ["LevelShape", "Rule", "LEVEL_OPTIONS", "check_options", "check_grid_options", "check_plain", "plain_json",
           "recorded_seed"]


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


def _weave(value: Any, shape: LevelShape) -> None:
    check_weave(value)


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

    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise ValueError("place must be a list of objects (kind, count, where, min_distance, spacing)")
    check_request(place=value)


def _world(value: Any, shape: LevelShape) -> None:
    """The ``world`` option a World window's level records (see :meth:`mazeplugin.World.level`)."""
    if not isinstance(value, dict):
        raise TypeError("world must be an object with 'chunk' and 'window'")
    known = {"chunk", "window", "openings", "perfect", "open_edges", "treasure", "place"}
    if set(value) - known or "chunk" not in value or "window" not in value:
        raise ValueError(
            "world must hold 'chunk' [width, height], 'window' [x0, y0, x1, y1] and optionally "
            f"'openings', 'perfect', 'open_edges', 'treasure', 'place'; got keys {sorted(value)}"
        )
    if "treasure" in value:
        check_int("world treasure", value["treasure"], low=0)
    if "place" in value:
        if not isinstance(value["place"], list):
            raise TypeError("world place must be a list of Place requests")
        check_request(0, 0, 0, value["place"])
    chunk, window = value["chunk"], value["window"]
    if not isinstance(chunk, list) or len(chunk) != 2:
        raise ValueError(f"world chunk must be [width, height], got {chunk!r}")
    for v in chunk:
        check_int("world chunk size", v, low=1)
    if not isinstance(window, list) or len(window) != 4:
        raise ValueError(f"world window must be [x0, y0, x1, y1], got {window!r}")
    x0, y0, x1, y1 = (check_coordinate("world window coordinate", v) for v in window)
    pitch = shape.corridor + shape.wall
    if (x1 - x0, y1 - y0) != (shape.width * pitch + shape.wall, shape.height * pitch + shape.wall):
        raise ValueError(f"world window {window} does not have the level's size in tiles")
    for name in ("perfect", "open_edges"):
        if name in value and not isinstance(value[name], bool):
            raise TypeError(f"world {name} must be true or false, got {value[name]!r}")
    if "openings" in value:
        openings = value["openings"]
        if not isinstance(openings, list) or len(openings) != 2:
            raise ValueError(f"world openings must be [west, north] counts, got {openings!r}")
        for v in openings:
            check_int("world openings", v, low=1)


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
    "world": _world,  # a window of an endless World
    "weave": _weave,  # issue 21: crossings (the bridges themselves are in the file's own layer)
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


def check_grid_options(options: Any, algorithm: Optional[str], width: int, height: int, source: str) -> Dict[str, Any]:
    """A grid level file's recorded ``options`` checked as a square level's are (:func:`check_options`: each
    option ``generate`` records by its rule, a built-in generator's own by its check); ``grid`` and ``wrap`` are
    the file's own fields, not options."""
    if isinstance(options, dict) and ({"grid", "wrap"} & set(options)):
        raise LevelFormatError(f"{source}: options hold {sorted({'grid', 'wrap'} & set(options))[0]!r}, which a grid "
                               "level records in its own field")
    return check_options(options, generator=algorithm, shape=LevelShape(width, height, 1, 1), source=source)


def _check_generator_options(options: Mapping[str, Any], generator: Optional[str], shape: LevelShape,
                             source: str) -> None:
    """A built-in generator's own options: known names and its ``check`` (plugins: size only)."""
    from ..registry import builtin_generator

    info = builtin_generator(generator)
    if info is None:
        return
    own = {k: _tuple_pairs(v) for k, v in options.items() if k not in LEVEL_OPTIONS}
    try:
        info.check_options(own, shape.width, shape.height)
    except (TypeError, ValueError) as error:
        raise LevelFormatError(f"{source}: {error}") from None


def _tuple_pairs(value: Any) -> Any:
    """JSON has no tuples: a pair option (``room_size``) comes back as a list, which is fine for checking."""
    return tuple(value) if isinstance(value, list) else value


def recorded_seed(value: Any, source: str, field: str) -> Optional[Seed]:
    """A level file's recorded seed resolved (None stays None); ``LevelFormatError`` naming ``source`` and
    the ``field`` it was read from otherwise. Every level file reads its seed here."""
    try:
        return None if value is None else resolve_seed(value)
    except (TypeError, ValueError) as error:
        raise LevelFormatError(f"{source}: {field}: {error}") from None


def plain_json(value: Any) -> Any:
    """JSON for numpy values inside options.

    A 2-D bool array (a cell mask) becomes rows of ``#`` (cell) and ``.``
    (outside), the text form ``generate(mask=...)`` reads back, a byte a cell.
    """
    if isinstance(value, np.ndarray) and value.dtype == np.bool_ and value.ndim == 2:
        return ["".join(row) for row in np.where(value, "#", ".").tolist()]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(type(value).__name__)
