"""Where things are in an endless world: chunk coordinates, their checks, and the keyed random streams.

Coordinates are any ints within ``±MAX_COORDINATE``; a chunk's random numbers
come from stream :data:`WORLD_STREAM` of the seed, keyed by purpose and
chunk coordinates, each coordinate zigzag-coded and written as two 32-bit
words (see :func:`chunk_random`), never ``hash()``.

>>> zigzag_words(-1), zigzag_words(2**40)
((1, 0), (0, 512))
"""

from __future__ import annotations

from typing import Sequence, Tuple

import numpy as np

from ..limits import MAX_COORDINATE, MAX_TILES, MAX_WINDOW_CELLS, MAX_WINDOW_CHUNKS, check_int, check_coordinate
from ..seeds import Random, Seed

__all__ = [
    "Chunk",
    "WORLD_STREAM",
    "MAX_CHUNK_CELLS",
    "MAX_CHUNK_TILES",
    "MAX_COORDINATE",
    "MAZE",
    "BRAID",
    "BORDERS",
    "PARENT",
    "CONTENT",
    "check_coordinate",
    "check_pair",
    "check_window",
    "check_window_work",
    "zigzag_words",
    "chunk_random",
]

Chunk = Tuple[int, int]
"""A chunk position ``(i, j)``: chunk ``(0, 0)`` holds tile ``(0, 0)``, ``(1, 0)`` is east of it."""

WORLD_STREAM = 6
"""The index of the seed's random stream reserved for endless worlds."""

MAX_CHUNK_CELLS = 1 << 16
"""Most cells a chunk may have (65,536, e.g. 256 × 256): a chunk is made where the camera looks, so it must be quick."""

MAX_CHUNK_TILES = 1 << 22
"""Most tiles a chunk may cover once ``corridor`` and ``wall`` widen it (4 MiB of uint8)."""


# What each keyed stream under WORLD_STREAM is for (see the World module docstring).
MAZE, BRAID, BORDERS, PARENT, CONTENT = range(5)


def check_pair(name: str, value: object, what: str) -> Tuple[object, object]:
    """The two items of a pair (a sequence or array of length 2, not a string), or a ``TypeError``."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) and not isinstance(value, np.ndarray):
        raise TypeError(f"{name} must be a pair {what}, got {value!r}")
    items = list(value)
    if len(items) != 2:
        raise TypeError(f"{name} must be a pair {what}, got {value!r}")
    return items[0], items[1]


def check_window(x0: object, y0: object, x1: object, y1: object) -> Tuple[int, int, int, int]:
    """The window ``[x0, x1) × [y0, y1)`` as ints, at most :data:`~mazeplugin.limits.MAX_TILES` tiles."""
    left, top = check_coordinate("x0", x0), check_coordinate("y0", y0)
    right, bottom = check_coordinate("x1", x1), check_coordinate("y1", y1)
    if right < left:
        raise ValueError(f"x1 must be at least x0 (the window is [x0, x1) × [y0, y1)), got x0={left}, x1={right}")
    if bottom < top:
        raise ValueError(f"y1 must be at least y0 (the window is [x0, x1) × [y0, y1)), got y0={top}, y1={bottom}")
    area = (right - left) * (bottom - top)
    if area > MAX_TILES:
        raise ValueError(
            f"the window [{left}, {right}) × [{top}, {bottom}) is {right - left:,} × {bottom - top:,} = "
            f"{area:,} tiles; at most {MAX_TILES:,} ({MAX_TILES // 2**20} MiB) can be allocated at once"
        )
    return (left, top, right, bottom)


def check_window_work(
    window: Tuple[int, int, int, int], span: Tuple[int, int], chunk: Tuple[int, int]
) -> None:
    """Refuse, before any chunk is made, a window touching more chunks or cells than one request may.

    ``span`` is a chunk's size in tiles, ``chunk`` in cells. The bounds are
    :data:`~mazeplugin.limits.MAX_WINDOW_CHUNKS` and
    :data:`~mazeplugin.limits.MAX_WINDOW_CELLS`; they count every chunk the
    window touches, cached or not, so whether a request is allowed never
    depends on what was asked before.

    >>> check_window_work((0, 0, 256, 256), (2, 2), (1, 1))
    Traceback (most recent call last):
    ...
    ValueError: the window [0, 256) × [0, 256) touches 128 × 128 = 16,384 chunks of 1 × 1 cells; one request may touch at most 4,096 (mazeplugin.limits.MAX_WINDOW_CHUNKS): ask for smaller windows, or make the world with bigger chunks
    """
    x0, y0, x1, y1 = window
    sw, sh = span
    across = -(-x1 // sw) - x0 // sw if x1 > x0 else 0
    down = -(-y1 // sh) - y0 // sh if y1 > y0 else 0
    chunks = across * down
    cells = chunks * chunk[0] * chunk[1]
    if chunks <= MAX_WINDOW_CHUNKS and cells <= MAX_WINDOW_CELLS:
        return
    where = (
        f"the window [{x0}, {x1}) × [{y0}, {y1}) touches {across:,} × {down:,} = {chunks:,} chunks "
        f"of {chunk[0]} × {chunk[1]} cells"
    )
    if chunks > MAX_WINDOW_CHUNKS:
        raise ValueError(
            f"{where}; one request may touch at most {MAX_WINDOW_CHUNKS:,} "
            "(mazeplugin.limits.MAX_WINDOW_CHUNKS): ask for smaller windows, or make the world with bigger chunks"
        )
    raise ValueError(
        f"{where}, {cells:,} cells in all; one request may touch at most "
        f"{MAX_WINDOW_CELLS:,} (mazeplugin.limits.MAX_WINDOW_CELLS): ask for smaller windows"
    )


def zigzag_words(n: int) -> Tuple[int, int]:
    """An int as two 32-bit words of its zigzag code (0, -1, 1, -2, ... → 0, 1, 2, 3, ...)."""
    z = 2 * n if n >= 0 else -2 * n - 1
    return (z & 0xFFFFFFFF, z >> 32)


def chunk_random(seed: Seed, purpose: int, i: int, j: int) -> Random:
    """The random stream for ``purpose`` (:data:`MAZE`, :data:`BRAID`, ...) of chunk ``(i, j)``."""
    return Random.keyed(seed, (WORLD_STREAM, purpose, *zigzag_words(i), *zigzag_words(j)))
