"""The canonical level digest: one SHA-256 that says whether two levels are the same.

It covers what a player meets (the tiles, the entrance and exit, the things),
not how the level was made (generator, seed, options), so two seeds that make
the same level have the same digest. The bytes hashed, in order:

1. ``b"mazeplugin.level-digest\\n"`` and the digest version, uint32 little-endian (now 1);
2. the tile rows and columns, two uint32 little-endian;
3. the tiles, one byte each (0 floor, 1 wall), row by row (``level.tiles.tobytes()``);
4. the entrance and the exit, ``x, y`` as four int32 little-endian (``-1, -1`` for no marker);
5. the number of things, uint32 little-endian, then for each thing in
   ``level.things`` order (by id) the length (uint32 little-endian) and the
   UTF-8 bytes of the JSON array ``[kind, x, y, id, props]`` written with
   sorted keys, no spaces and ASCII escapes (tuples in props as lists).

A weave level (one with bridges: ``level.weave``, see :mod:`mazeplugin.weave`)
hashes the same five parts under its own first line,
``b"mazeplugin.weave-level-digest\\n"`` and the digest version, then:

6. the bridges layer, one byte a tile (0, 1 tunnel east–west, 2 tunnel
   north–south), row by row (``level.bridges.tobytes()``).

So a weave level never shares a digest with the same tiles without bridges,
and every other level's digest is what it was. (Until weave levels came into
datasets, :func:`digest` hashed a weave level as its bare tiles; no dataset
held one: specs refused ``weave``. A level made with ``weave=`` that got no
crossing has no bridges and hashes as a plain level: it is one.)

A hex, triangle or polar level, or a wrapping square one (a
:class:`~mazeplugin.Level`), has no tiles to hash but its
passages; its digest hashes, in order:

1. ``b"mazeplugin.grid-level-digest\n"`` and the digest version, uint32 little-endian;
2. the grid's name and its wrap (``""`` for none), each as a uint32 little-endian
   length and ASCII bytes; the width and height asked for, two uint32 little-endian;
3. the number of edges of the grid, uint32 little-endian, then one byte per edge
   in the grid's edge order (1 open, 0 closed: ``level.maze.open``);
4. the entrance and exit cells, two int32 little-endian (-1 for none), then the
   number of openings, uint32 little-endian, and each opening's cell and side as
   two int32 little-endian (-1 for an opening inside a cell).

The layout changes only with :data:`DIGEST_VERSION`, and that only when
mazeplugin's seed promise changes; the digests of the levels in
``tests/test_dataset.py`` are pinned. A new kind of level gets a layout of
its own under its own first line (as grid and weave levels did), which
changes no digest already made, so the version stays.

>>> import mazeplugin as mp
>>> level = mp.generate("backtracker", 9, 9, seed=1)
>>> len(digest(level)), digest(level) == digest(mp.generate("backtracker", 9, 9, seed=1))
(64, True)
>>> digest(level) == digest(mp.generate("backtracker", 9, 9, seed=2))
False
"""

from __future__ import annotations

import hashlib
import json
import struct
from typing import Any, Optional, Sequence, Tuple, cast

import numpy as np
from numpy.typing import NDArray

import mazeplugin as mp
from mazeplugin.level import Level

__all__ = ["digest", "digest_bytes", "tiles_digest", "DIGEST_VERSION"]

DIGEST_VERSION = 1
"""The version of the digest's byte layout (see the module docstring)."""

_HEAD = b"mazeplugin.level-digest\n" + struct.pack("<I", DIGEST_VERSION)
_GRID_HEAD = b"mazeplugin.grid-level-digest\n" + struct.pack("<I", DIGEST_VERSION)
_WEAVE_HEAD = b"mazeplugin.weave-level-digest\n" + struct.pack("<I", DIGEST_VERSION)
_NO_TILE = (-1, -1)


def _thing_json(thing: Any) -> bytes:
    try:
        text = json.dumps([thing.kind, thing.x, thing.y, thing.id, thing.props],
                          sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    except (TypeError, ValueError):
        raise TypeError(f"thing {thing.id} ({thing.kind}) has props JSON cannot hold: {thing.props!r}") from None
    return text.encode("ascii")


def _grid_digest(level: Level) -> bytes:
    h = hashlib.sha256(_GRID_HEAD)
    for text in (level.grid, level.options.get("wrap") or ""):
        data = str(text).encode("ascii")
        h.update(struct.pack("<I", len(data)) + data)
    h.update(struct.pack("<II", level.width, level.height))
    passages = np.ascontiguousarray(level.maze.open, dtype=np.uint8)
    h.update(struct.pack("<I", passages.size))
    h.update(passages.tobytes())
    h.update(struct.pack("<2i", -1 if level.entrance_cell is None else level.entrance_cell,
                         -1 if level.exit_cell is None else level.exit_cell))
    h.update(struct.pack("<I", len(level.openings)))
    for cell, side in level.openings:
        h.update(struct.pack("<2i", cell, -1 if side is None else side))
    return h.digest()


def digest_bytes(level: mp.AnyLevel) -> bytes:
    """The 32 bytes of the canonical digest of ``level`` (see the module docstring)."""
    if not isinstance(level, mp.AnyLevel):
        raise TypeError(f"level must be a mazeplugin level (mp.AnyLevel), not {type(level).__name__}")
    if level.kind != "square":  # a graph level: its passages
        return _grid_digest(cast(Level, level))
    square = cast(mp.Level, level)
    return tiles_digest(square.tiles, square.entrance, square.exit, [_thing_json(thing) for thing in square.things],
                        square.bridges if square.weave else None)


def tiles_digest(tiles: NDArray[np.uint8], entrance: Optional[Tuple[int, int]], exit: Optional[Tuple[int, int]],
                 things: Sequence[bytes] = (), bridges: Optional[NDArray[np.uint8]] = None) -> bytes:
    """:func:`digest_bytes` of a square level given as its parts: ``tiles``, the marker tiles, each
    thing's JSON (as the digest writes it) and, for a weave level, its ``bridges`` layer."""
    tiles = np.ascontiguousarray(tiles, dtype=np.uint8)
    rows, columns = tiles.shape
    entrance = entrance if entrance is not None else _NO_TILE
    exit = exit if exit is not None else _NO_TILE
    h = hashlib.sha256(_WEAVE_HEAD if bridges is not None else _HEAD)
    h.update(struct.pack("<II", rows, columns))
    h.update(tiles.tobytes())
    h.update(struct.pack("<4i", entrance[0], entrance[1], exit[0], exit[1]))
    h.update(struct.pack("<I", len(things)))
    for data in things:
        h.update(struct.pack("<I", len(data)))
        h.update(data)
    if bridges is not None:
        h.update(np.ascontiguousarray(bridges, dtype=np.uint8).tobytes())
    return h.digest()


def digest(level: mp.AnyLevel) -> str:
    """The canonical digest of ``level`` as 64 hex digits: equal exactly when tiles, markers, things
    and bridges are.

    ``TypeError`` when ``level`` is not a :class:`~mazeplugin.Level` or a
    thing's props hold a value JSON cannot (a game's own object).
    """
    return digest_bytes(level).hex()
