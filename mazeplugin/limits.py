"""Upper bounds on every request, and the checks that enforce them before any work.

Every count, size and option mazeplugin accepts has a bound here, checked at
the boundary (``generate``, the loaders, the command line) before memory is
allocated or a loop starts, so no request can run away. The bounds on maze
size come from measured peak working memory (``docs/benchmarks.md``,
"Working memory and limits"): no allowed request needs more than about 2 GiB.

The argument checks (:func:`check_int`, :func:`check_number`) accept Python
and numpy numbers alike (``np.int64(3)``, ``np.float32(0.5)``), refuse bools,
and raise a ``TypeError``/``ValueError`` that names the argument and says
what is allowed.

>>> check_int("corridor", 3, low=1, high=MAX_CORRIDOR)
3
>>> import numpy as np
>>> check_number("prune", np.float32(0.5), low=0, high=1)
0.5
>>> check_int("corridor", 10**9, low=1, high=MAX_CORRIDOR)
Traceback (most recent call last):
...
ValueError: corridor must be an int from 1 to 64, got 1000000000
"""

from __future__ import annotations

import math
import numbers
from typing import Optional

__all__ = [
    "MAX_CELLS",
    "MAX_TILES",
    "MAX_CORRIDOR",
    "MAX_WALL",
    "MAX_TILE_PIXELS",
    "MAX_PICTURE_PIXELS",
    "MAX_COUNT",
    "MAX_LEVEL_FILE_BYTES",
    "MAX_MASK_FILE_BYTES",
    "MAX_IMAGE_FILE_BYTES",
    "MAX_OPTIONS_BYTES",
    "MAX_OPTIONS_DEPTH",
    "WORKING_MEMORY",
    "check_int",
    "check_number",
]

WORKING_MEMORY = 2 << 30
"""The working memory (bytes) the bounds keep every allowed request under: about 2 GiB."""

MAX_CELLS = 1 << 24
"""Most cells a maze may have (16,777,216, e.g. 4096 × 4096); some generators allow fewer
(``GeneratorInfo.max_cells``), set from their measured working memory."""

MAX_TILES = 1 << 28
"""Most tiles a tilemap may have (268,435,456: 256 MiB of uint8)."""

MAX_CORRIDOR = 64
"""Widest passage, in tiles (``corridor=``)."""

MAX_WALL = 64
"""Thickest wall, in tiles (``wall=``)."""

MAX_TILE_PIXELS = 4096
"""Most pixels per tile in a picture or a Tiled map (``tile=``, ``--tile``)."""

MAX_PICTURE_PIXELS = 1 << 26
"""Most pixels a PNG picture may have (67,108,864, e.g. 8192 × 8192: 256 MiB as RGBA)."""

MAX_COUNT = 1_000_000
"""Most levels one ``batch`` writes and most seeds one ``stats`` run measures."""

MAX_LEVEL_FILE_BYTES = 4 * MAX_TILES + (1 << 20)
"""Largest level file (JSON, TMX, TMJ) a loader reads: about a byte per tile plus punctuation."""

MAX_MASK_FILE_BYTES = 8 * MAX_CELLS
"""Largest ``.txt`` mask file read (a few bytes per cell: UTF-8 characters and line ends)."""

MAX_IMAGE_FILE_BYTES = 64 << 20
"""Largest picture file read as a mask (64 MiB)."""

MAX_OPTIONS_BYTES = 1 << 16
"""Largest recorded options a level file may hold (as JSON, not counting a ``mask``): 64 KiB."""

MAX_OPTIONS_DEPTH = 8
"""Deepest nesting of lists and objects inside a level file's options."""


def check_int(name: str, value: object, *, low: int, high: Optional[int] = None) -> int:
    """``value`` as an int in ``low..high`` (any Python or numpy integer; not a bool), or a clear error.

    >>> check_int("count", "3", low=1)
    Traceback (most recent call last):
    ...
    TypeError: count must be an int, not str
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    number = int(value)
    if number < low or (high is not None and number > high):
        allowed = f"an int from {low:,} to {high:,}" if high is not None else f"at least {low:,}"
        raise ValueError(f"{name} must be {allowed}, got {number}")
    return number


def check_number(name: str, value: object, *, low: float, high: float) -> float:
    """``value`` as a float in ``low..high`` (any Python or numpy real; not a bool, not NaN)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number from {low:g} to {high:g}, not {type(value).__name__}")
    number = float(value)
    if math.isnan(number) or not low <= number <= high:
        raise ValueError(f"{name} must be a number from {low:g} to {high:g}, got {value!r}")
    return number
