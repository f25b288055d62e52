"""Tile layers into walls: the gids of a layer, decoded a block at a time, looked up in the tilesets.

Each encoding Tiled writes is decoded into blocks of at most
:data:`BLOCK_TILES` global tile ids (``int64``, flip flags cleared): CSV text
(``csv_blocks``), base64, plain or zlib/gzip (``base64_blocks``, inflating at
most the layer's own size), a ``.tmj`` list of ids (``list_blocks``) and the
``<tile>`` elements the XML parser kept as an array. :class:`WallTable` looks
each block up in the tilesets at once (a sorted search per block, whatever the
number of wall tiles) and ors it into the map's ``walls`` and ``doors``. So a
layer costs its two bool maps and a block's working arrays, never an array of
ids as large as the map.

>>> table = WallTable("m.tmx", columns=3, rows=1)
>>> table.add(1, 2, {1: (True, False, 0)}, "walls")
>>> table.paint("maze", (3, 1), lambda count, name: csv_blocks("1,2,\\n0", count, name, "m.tmx"))
>>> table.finish()[0].astype(int).tolist()
[[0, 1, 0]]
"""

from __future__ import annotations

import base64
import binascii
import zlib
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from .files import LevelFormatError
from .tiled_common import brief
from .tiled_parse import GID_LIMIT

__all__ = [
    "BLOCK_TILES", "MAX_CSV_CHARS_PER_TILE", "Flags", "TUNNELS", "tile_flags", "WallTable", "csv_blocks", "csv_digits",
    "base64_blocks", "list_blocks", "array_blocks", "checked_gids",
]

BLOCK_TILES = 1 << 18
"""Tile ids decoded and looked up at a time."""

MAX_CSV_CHARS_PER_TILE = 24
"""Longest CSV text a layer may have per tile of the map (Tiled writes at most 12: ten digits, a comma,
a line end); longer text is refused before it is parsed."""

_DENSE_GIDS = 1 << 16  # ids looked up in one table of codes (WallTable._dense)
_FLIP_BITS = 0xF0000000  # Tiled's flip/rotate flags in a global tile id
_CSV_BLOCK_CHARS = 8 * BLOCK_TILES
_BASE64_BLOCK_CHARS = 4 * BLOCK_TILES  # 3 MiB of bytes: 786,432 ids

Flags = Dict[int, Tuple[bool, bool, int]]
"""A tileset's ``{tile id: (wall, door, tunnel)}`` from its tiles' bool properties ``wall`` and ``door``
and string property ``tunnel`` (a weave level's bridge tile: ``"east-west"`` → 1, ``"north-south"`` → 2,
none → 0; see :data:`TUNNELS`)."""

TUNNELS = {"east-west": 1, "north-south": 2}
"""The ``tunnel`` property's values and the bridge codes they stand for (``mazeplugin.UNDER_EAST_WEST``,
``UNDER_NORTH_SOUTH``): the tunnel that runs under a bridge tile."""

Blocks = Iterator[NDArray[np.int64]]


def tile_flags(flags: Flags, tile_id: int, props: Dict[str, Any], tileset: str, source: str) -> None:
    """Record a tileset tile's ``(wall, door, tunnel)`` flags when any is set; refuse values of other kinds."""
    values = []
    for name in ("wall", "door"):
        value = props.get(name, False)
        if not isinstance(value, bool):
            raise LevelFormatError(
                f"{source}: tile {tile_id} of tileset {tileset!r} has property {name!r} = {brief(value)}; "
                "it must be a bool"
            )
        values.append(value)
    tunnel = props.get("tunnel")
    if tunnel is not None and tunnel not in TUNNELS:
        raise LevelFormatError(
            f"{source}: tile {tile_id} of tileset {tileset!r} has property 'tunnel' = {brief(tunnel)}; "
            f"it must be one of {', '.join(map(repr, TUNNELS))} (a bridge over a tunnel that way)"
        )
    code = TUNNELS[tunnel] if tunnel is not None else 0
    if any(values) or code:
        flags[tile_id] = (values[0], values[1], code)


class WallTable:
    """Which global tile ids are walls (and door marks, bridges), from the tilesets; and the map's tile
    layers merged through it: a tile is a wall (a door) where any layer puts a wall (door) tile there,
    and a bridge over a tunnel (``tunnels``: 1 east–west, 2 north–south, 0 none) where a layer puts a
    tile with the ``tunnel`` property (two layers putting different tunnels on one tile are refused)."""

    columns: int
    rows: int
    marked: bool
    layers: int
    walls: NDArray[Any]
    doors: NDArray[Any]
    tunnels: NDArray[Any]

    def __init__(self, source: str, columns: int, rows: int,
                 before_decoding: Optional[Callable[[], None]] = None) -> None:
        """``before_decoding`` is called once, before the first layer is decoded (after its size is
        checked): a loader refuses there a map size its level cannot have, before any work."""
        self.source = source
        self.before_decoding = before_decoding
        self.columns, self.rows = columns, rows
        self.firsts: List[int] = []
        self.ranges: List[Tuple[int, Optional[int], Flags, str]] = []
        self.marked = False
        self.layers = 0
        self.walls = np.zeros((rows, columns), dtype=bool)
        self.doors = np.zeros((rows, columns), dtype=bool)
        self.tunnels = np.zeros((rows, columns), dtype=np.uint8)
        self._lookup: Optional[Tuple[NDArray[np.int64], ...]] = None
        self._codes: Optional[NDArray[np.uint8]] = None

    def add(self, first: int, tilecount: Optional[int], flags: Flags, name: str) -> None:
        """A tileset: its ``firstgid``, tile count (None: unknown) and the ``(wall, door)`` flags of its tiles."""
        if self.firsts and first <= self.firsts[-1]:
            raise LevelFormatError(f"{self.source}: tileset {name!r} has firstgid {first}; firstgids must increase")
        self.firsts.append(first)
        self.ranges.append((first, tilecount, flags, name))
        self.marked = self.marked or any(wall for wall, _, _ in flags.values())
        self._lookup = self._codes = None

    def paint(self, name: str, size: Tuple[Any, Any], read: Callable[[int, str], Blocks]) -> None:
        """One tile layer named ``name``, of ``size`` (width, height, as the file gives them), whose gids
        ``read(count, name)`` decodes, block by block, once its size is known to cover the map."""
        if size not in ((self.columns, self.rows), (str(self.columns), str(self.rows))):
            raise LevelFormatError(
                f"{self.source}: tile layer {name!r} is {size[0]!s:.20} × {size[1]!s:.20} tiles, "
                f"the map {self.columns} × {self.rows}; layers must cover the map"
            )
        if self.before_decoding is not None:
            self.before_decoding()
            self.before_decoding = None
        count = self.rows * self.columns
        walls, doors, tunnels = self.walls.reshape(-1), self.doors.reshape(-1), self.tunnels.reshape(-1)
        done = 0
        for gids in read(count, name):
            end = done + gids.size
            if end > count:
                raise LevelFormatError(f"{self.source}: tile layer {name!r} holds more tile ids than the map's "
                                       f"{count:,} tiles")
            wall, door, tunnel = self._flags(gids, name, done)
            walls[done:end] |= wall
            if door.any():  # (untouched, the zeroed map costs no memory)
                doors[done:end] |= door
            if tunnel.any():
                before = tunnels[done:end]
                clash = (before != 0) & (tunnel != 0) & (before != tunnel)
                if clash.any():
                    y, x = divmod(done + int(np.flatnonzero(clash)[0]), self.columns)
                    raise LevelFormatError(f"{self.source}: tile layer {name!r} puts a bridge over a tunnel at "
                                           f"({x}, {y}) running the other way from another layer's")
                np.maximum(before, tunnel, out=before)
            done = end
        if done != count:
            raise LevelFormatError(f"{self.source}: tile layer {name!r} holds {done:,} tile ids, the map {count:,} "
                                   "tiles (truncated?)")
        self.layers += 1

    def finish(self) -> Tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        """The merged ``(walls, doors)``; refuses a map with no tile layer, or no tile marked as a wall."""
        if not self.layers:
            raise LevelFormatError(
                f"{self.source}: the map has no tile layer; its walls are tiles with the 'wall' property"
            )
        if not self.marked:
            raise LevelFormatError(
                f"{self.source}: no tile in the map's tilesets has the bool property 'wall' set to true; "
                "give the wall tiles that property so walls can be told from floor"
            )
        return self.walls, self.doors

    def _table(self) -> Tuple[NDArray[np.int64], ...]:
        """Sorted arrays: tileset firstgids, their last held local id + 1, and the wall, door, listed,
        east–west tunnel and north–south tunnel gids.

        A gid belongs to the tileset with the largest firstgid not above it,
        and is held if it is below that tileset's tile count (or the count is
        unknown) or the tileset lists it with a property (Tiled counts an
        image-less tileset's tiles loosely).
        """
        if self._lookup is None:
            firsts = np.asarray(self.firsts, dtype=np.int64)
            ends = np.asarray([GID_LIMIT if n is None else n for _, n, _, _ in self.ranges], dtype=np.int64)
            wall: List[int] = []
            door: List[int] = []
            listed: List[int] = []
            east_west: List[int] = []
            north_south: List[int] = []
            for index, (first, _, flags, _) in enumerate(self.ranges):
                for local, (is_wall, is_door, tunnel) in flags.items():
                    gid = first + local
                    if int(np.searchsorted(firsts, gid, side="right")) - 1 != index:
                        continue  # past the next tileset's firstgid: that tileset's tile
                    listed.append(gid)
                    if is_wall:
                        wall.append(gid)
                    if is_door:
                        door.append(gid)
                    if tunnel:
                        (east_west if tunnel == TUNNELS["east-west"] else north_south).append(gid)
            self._lookup = (firsts, ends, *(np.unique(np.asarray(g, dtype=np.int64))
                                            for g in (wall, door, listed, east_west, north_south)))
        return self._lookup

    def _flags(self, gids: NDArray[np.int64], layer: str,
               offset: int) -> Tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[np.uint8]]:
        """Where ``gids`` (flip flags cleared) name a wall tile, a door tile, and the tunnel code of a
        bridge tile (0 elsewhere); unknown ids are refused.

        Ids below :data:`_DENSE_GIDS` (what Tiled maps use) are looked up in one table of their codes
        (a block costs one indexing, not a sorted search per kind); others are searched.
        """
        if gids.size and int(gids.max()) < _DENSE_GIDS:
            code = self._dense()[gids]
            held, wall, door = (code & 1).astype(bool), (code & 2).astype(bool), (code & 4).astype(bool)
            tunnel = (code >> 3).astype(np.uint8)
        else:
            held, wall, door, tunnel = self._classify(gids)
        if not held.all():
            at = int(np.flatnonzero(~held)[0])
            y, x = divmod(offset + at, self.columns)
            raise LevelFormatError(
                f"{self.source}: tile layer {layer!r} has tile id {int(gids[at])} at ({x}, {y}), which no tileset holds"
            )
        return wall, door, tunnel

    def _dense(self) -> NDArray[np.uint8]:
        """Each id below :data:`_DENSE_GIDS`: 1 if held, + 2 if a wall, + 4 if a door, + 8 × its tunnel code."""
        codes = self._codes
        if codes is None:
            held, wall, door, tunnel = self._classify(np.arange(_DENSE_GIDS, dtype=np.int64))
            packed = held.astype(np.uint8) | wall.astype(np.uint8) << 1 | door.astype(np.uint8) << 2 | tunnel << 3
            codes = self._codes = packed.astype(np.uint8)
        return codes

    def _classify(self, gids: NDArray[np.int64]) -> Tuple[NDArray[np.bool_], NDArray[np.bool_],
                                                          NDArray[np.bool_], NDArray[np.uint8]]:
        """Where ``gids`` are held by a tileset (or empty), walls, doors, and their tunnel codes."""
        firsts, ends, wall, door, listed, east_west, north_south = self._table()
        if firsts.size:
            owner = np.searchsorted(firsts, gids, side="right") - 1
            held = (owner >= 0) & (gids - firsts[np.maximum(owner, 0)] < ends[np.maximum(owner, 0)])
            del owner
        else:  # no tileset: only empty tiles are held
            held = np.zeros(gids.shape, dtype=bool)
        held |= _among(listed, gids)
        held |= gids == 0
        tunnel = np.zeros(gids.shape, dtype=np.uint8)
        if east_west.size or north_south.size:
            tunnel[_among(east_west, gids)] = TUNNELS["east-west"]
            tunnel[_among(north_south, gids)] = TUNNELS["north-south"]
        return held, _among(wall, gids), _among(door, gids), tunnel


def _among(sorted_values: NDArray[np.int64], gids: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Where ``gids`` is one of ``sorted_values``."""
    if not sorted_values.size:
        return np.zeros(gids.shape, dtype=bool)
    at = np.searchsorted(sorted_values, gids)
    np.minimum(at, sorted_values.size - 1, out=at)
    found: NDArray[np.bool_] = sorted_values[at] == gids
    return found


# -- decoding a layer's gids ------------------------------------------------------


def csv_blocks(text: str, count: int, name: str, source: str) -> Blocks:
    """The gids of CSV layer text, a block of about :data:`BLOCK_TILES` at a time.

    Text longer than :data:`MAX_CSV_CHARS_PER_TILE` per tile is refused
    before it is parsed; a block that is not clean digits and commas is
    parsed value by value, naming the first bad one.
    """
    if len(text) > MAX_CSV_CHARS_PER_TILE * count + 4096:
        raise LevelFormatError(f"{source}: tile layer {name!r} has {len(text):,} characters of CSV, far more than "
                               f"the map's {count:,} tiles need")
    text = text.strip()
    if text.endswith(","):
        text = text[:-1]
    if not text:
        raise LevelFormatError(f"{source}: tile layer {name!r} has 0 CSV values, the map {count:,} tiles (truncated?)")
    done, start = 0, 0
    while start < len(text):
        end = text.find(",", start + _CSV_BLOCK_CHARS)
        end = len(text) if end < 0 else end
        piece = text[start:end]
        values = csv_digits(piece)
        gids = checked_gids(values, name, source) if values is not None else _csv_tokens(piece, name, source)
        done += gids.size
        if done > count:
            raise LevelFormatError(f"{source}: tile layer {name!r} has more CSV values than the map's {count:,} tiles")
        yield gids
        start = end + 1
    if done != count:
        raise LevelFormatError(
            f"{source}: tile layer {name!r} has {done:,} CSV values, the map {count:,} tiles"
            + (" (truncated?)" if done < count else "")
        )


def _csv_tokens(text: str, name: str, source: str) -> NDArray[np.int64]:
    """CSV values parsed one by one (text with something besides digits in it): the first bad one is named."""
    tokens = [token.strip() for token in text.split(",")]
    for token in tokens:
        if not (token.isascii() and token.isdigit() and len(token) <= 12):
            raise LevelFormatError(f"{source}: tile layer {name!r} holds {token!r:.20}; tile ids are ints")
    return checked_gids(np.array([int(token) for token in tokens], dtype=np.int64), name, source)


def csv_digits(text: str, count: Optional[int] = None) -> Optional[NDArray[np.int64]]:
    """The CSV gids in ``text`` parsed with numpy (``count`` of them, if given), or None when the text is
    anything but clean (then the slow path names the problem).

    Clean: ASCII digits and commas (whitespace anywhere, one trailing comma
    allowed), values of 1 to 10 digits each.
    """
    try:
        raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    except UnicodeEncodeError:
        return None
    raw = raw[(raw != 32) & (raw != 10) & (raw != 13) & (raw != 9)]
    if raw.size and raw[-1] == 44:
        raw = raw[:-1]
    comma = raw == 44
    digit = raw - np.uint8(48)  # wraps around for anything below '0'
    if not raw.size or not (comma | (digit <= 9)).all():
        return None
    ends = np.append(np.flatnonzero(comma), raw.size)  # one past each value's last digit
    starts = np.concatenate(([0], ends[:-1] + 1))
    lengths = ends - starts
    if (count is not None and len(ends) != count) or (lengths < 1).any() or (lengths > 10).any():
        return None
    token = np.cumsum(comma)[~comma]  # the value each digit belongs to
    place = (ends[token] - np.flatnonzero(~comma) - 1).astype(np.int64)
    # Exact in float64: every value is below 10**10 < 2**53.
    values = np.bincount(token, weights=digit[~comma] * 10.0 ** place, minlength=len(ends))
    return values.astype(np.int64)


def base64_blocks(text: str, compression: Optional[str], count: int, name: str, source: str) -> Blocks:
    """Little-endian uint32 gids from base64 text, decoded a block at a time, inflating at most the expected bytes."""
    if compression == "zstd":
        raise LevelFormatError(
            f"{source}: tile layer {name!r} is zstd-compressed, which needs a library mazeplugin does not use; "
            "save the map with tile layer format CSV, Base64 (uncompressed), Base64 (zlib) or Base64 (gzip)"
        )
    if compression not in (None, "", "zlib", "gzip"):
        raise LevelFormatError(f"{source}: tile layer {name!r} has unknown compression {brief(compression)}")
    expected = 4 * count
    if not compression and len(text) > 2 * expected + 4096:  # 4/3 characters a byte, spacing aside
        raise LevelFormatError(f"{source}: tile layer {name!r} has {len(text):,} characters of base64, far more "
                               f"than the map's {count:,} tiles need")
    text = "".join(text.split())
    raw = _base64_pieces(text, name, source)
    if compression:
        raw = _inflated(raw, compression, expected, name, source)
    yield from _uint32_blocks(raw, expected, name, source)


def _base64_pieces(text: str, name: str, source: str) -> Iterator[bytes]:
    for start in range(0, len(text), _BASE64_BLOCK_CHARS):
        try:
            yield base64.b64decode(text[start:start + _BASE64_BLOCK_CHARS], validate=True)
        except (binascii.Error, ValueError):
            raise LevelFormatError(f"{source}: tile layer {name!r}: corrupted base64 data") from None


def _inflated(raw: Iterable[bytes], compression: str, expected: int, name: str, source: str) -> Iterator[bytes]:
    """The inflated bytes, a block at a time; refused as soon as they pass ``expected``."""
    inflater = zlib.decompressobj(zlib.MAX_WBITS | (16 if compression == "gzip" else 0))
    total = 0
    for piece in raw:
        while piece and not inflater.eof:
            try:
                out = inflater.decompress(piece, 4 * BLOCK_TILES)
            except zlib.error as error:
                raise LevelFormatError(f"{source}: tile layer {name!r}: corrupted {compression} data ({error})") from None
            piece = inflater.unconsumed_tail
            total += len(out)
            if total > expected:
                raise LevelFormatError(
                    f"{source}: tile layer {name!r}: {compression} data inflates beyond the map's {expected // 4:,} tiles"
                )
            yield out
    if not inflater.eof:
        raise LevelFormatError(f"{source}: tile layer {name!r}: truncated {compression} data")


def _uint32_blocks(raw: Iterable[bytes], expected: int, name: str, source: str) -> Blocks:
    pending = b""
    total = 0
    for piece in raw:
        total += len(piece)
        if total > expected:
            break
        data = pending + piece
        whole = len(data) - len(data) % 4
        pending = data[whole:]
        if whole:
            gids = np.frombuffer(data, dtype="<u4", count=whole // 4).astype(np.int64)
            yield gids & ~np.int64(_FLIP_BITS)
    if total != expected:
        raise LevelFormatError(
            f"{source}: tile layer {name!r} holds {total // 4:,}{'+' if total > expected else ''} tile ids, "
            f"the map {expected // 4:,} tiles" + (" (truncated?)" if total < expected else "")
        )


def list_blocks(data: Sequence[Any], count: int, name: str, source: str) -> Blocks:
    """A ``.tmj`` layer's list of ids, checked a block at a time: ints 0..2**32 - 1, nothing else."""
    if len(data) != count:
        raise LevelFormatError(f"{source}: tile layer {name!r} has {len(data):,} tile ids, the map {count:,} tiles")
    for start in range(0, len(data), BLOCK_TILES):
        piece = data[start:start + BLOCK_TILES]
        if set(map(type, piece)) != {int}:
            bad = next(v for v in piece if type(v) is not int)
            raise LevelFormatError(f"{source}: tile layer {name!r} holds {brief(bad, 20)}; tile ids are ints")
        try:
            values = np.array(piece, dtype=np.int64)
        except OverflowError:
            bad = next(v for v in piece if not -(1 << 63) <= v < 1 << 63)
            raise LevelFormatError(
                f"{source}: tile layer {name!r} holds tile id {brief(bad)}; ids are 0..{GID_LIMIT - 1}") from None
        yield checked_gids(values, name, source)


def array_blocks(gids: NDArray[np.uint32]) -> Blocks:
    """Gids already held as ``uint32`` (a ``.tmx`` layer's ``<tile>`` elements), flip flags cleared, by block."""
    for start in range(0, gids.size, BLOCK_TILES):
        yield gids[start:start + BLOCK_TILES].astype(np.int64) & ~np.int64(_FLIP_BITS)


def checked_gids(values: NDArray[Any], name: str, source: str) -> NDArray[np.int64]:
    """Gids in range (0..2**32 - 1), as int64 with the flip flags cleared."""
    out_of_range = (values < 0) | (values >= GID_LIMIT)
    if out_of_range.any():
        bad = values[np.flatnonzero(out_of_range)[0]]
        raise LevelFormatError(f"{source}: tile layer {name!r} holds tile id {bad}; ids are 0..{GID_LIMIT - 1}")
    gids = values.astype(np.int64)
    return gids & ~np.int64(_FLIP_BITS)
