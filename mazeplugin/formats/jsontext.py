"""JSON text read safely, for every JSON file mazeplugin loads: levels, grid levels, Tiled maps, dataset specs and manifests.

``json.loads`` alone lets a file through that builds far more Python objects
than its size suggests, or that nests deeper than Python can recurse (a
``RecursionError``, not a ``ValueError``: a bare traceback to the user).
:func:`parse_json` counts lists, objects and strings in the bytes first and
turns every fault into one error naming the file.

>>> parse_json(b'{"a": [1, 2]}', "f.json")
{'a': [1, 2]}
>>> parse_json(b"[" * 100_000, "deep.json", what="a level")
Traceback (most recent call last):
...
mazeplugin.errors.LevelFormatError: deep.json: not a level: lists or objects nested too deep to read
>>> parse_json(b'[[[]]]', "m.tmj", containers=2)
Traceback (most recent call last):
...
mazeplugin.errors.LevelFormatError: m.tmj: 3 JSON lists and objects is more than a Tiled file holds (at most 2)
"""

from __future__ import annotations

import json
from typing import Any, Callable, Union

from ..errors import LevelFormatError

__all__ = ["MAX_JSON_CONTAINERS", "MAX_JSON_STRINGS", "count_containers", "parse_json"]

MAX_JSON_CONTAINERS = 1 << 21
"""Most JSON lists and objects a Tiled file or a level file may hold (2,097,152): each becomes a
Python list or dict of about 60 bytes or more, so this bounds what parsing builds before any check
(a level's door tiles, at most 1,048,576 ``[x, y]`` pairs, fit)."""

MAX_JSON_STRINGS = 1 << 22
"""Most JSON strings (keys included) a ``.tmj`` or ``.tsj`` may hold (4,194,304, about 60 bytes each
once parsed): a Tiled map has a few per layer, object and property; its tile ids are numbers."""


def count_containers(data: Union[bytes, str]) -> int:
    """How many ``[`` and ``{`` ``data`` holds: an upper bound on the lists and objects it parses into."""
    if isinstance(data, str):
        return data.count("[") + data.count("{")
    return data.count(b"[") + data.count(b"{")


def parse_json(data: Union[bytes, str], source: str, *, what: str = "a Tiled file",
               containers: int = MAX_JSON_CONTAINERS, strings: int = MAX_JSON_STRINGS,
               error: Callable[[str], Exception] = LevelFormatError) -> Any:
    """JSON bytes (or text) as Python values; ``error("<source>: <reason>")`` for anything else.

    Refused: more than ``containers`` lists and objects or ``strings`` strings
    (both counted before parsing), bytes that are not UTF-8, text that is not
    JSON or is cut short, nesting too deep to read, integers too long to
    convert. ``what`` names what the file should have been ("a level", "a
    dataset spec"); ``error`` is the exception type raised (a
    :class:`LevelFormatError` unless a caller has its own, such as the
    dataset's ``SpecError``).
    """
    found = count_containers(data)
    if found > containers:
        raise error(f"{source}: {found:,} JSON lists and objects is more than {what} holds (at most {containers:,})")
    found = (data.count('"') if isinstance(data, str) else data.count(b'"')) // 2  # escaped quotes too: a bound
    if found > strings:
        raise error(f"{source}: {found:,} JSON strings is more than {what} holds (at most {strings:,})")
    if isinstance(data, str):
        text = data
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as fault:
            raise error(f"{source}: not UTF-8 text ({fault.reason} at byte {fault.start})") from None
    try:
        return json.loads(text)
    except RecursionError:
        raise error(f"{source}: not {what}: lists or objects nested too deep to read") from None
    except json.JSONDecodeError as fault:
        # The parser ran out of text: the file was cut short (an unterminated string ends at the end).
        ended = fault.pos >= len(text.rstrip()) or fault.msg.startswith("Unterminated string")
        kind = "truncated" if ended else "not valid JSON"
        raise error(f"{source}: {kind}: {fault.msg} at line {fault.lineno}, column {fault.colno}") from None
    except ValueError as fault:  # an integer with more digits than Python converts
        raise error(f"{source}: not valid JSON: {fault}") from None
