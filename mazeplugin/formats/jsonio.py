"""Levels as JSON (everything needed to load them back) and tilemaps as ``.npy``.

JSON layout (format version 3; a level without bridges is written as
version 2, and one without things or bridges as version 1, which older
mazeplugin reads; files of every version still load)::

    {
      "format": "mazeplugin.level",
      "version": 2,                  # 1 when there are no things
      "generator": "kruskal",        # or null for a hand-made level
      "width": 4, "height": 3,       # size in cells
      "seed": 7,                     # int, str level code, or null
      "options": {},                 # the generator options the level records
      "corridor": 1, "wall": 1,      # passage width and wall thickness in tiles
      "entrance": [0, 1],            # (x, y) tiles, or null
      "exit": [8, 5],
      "tiles": ["111111111", "000001001", ...],  # one string per row, '1' = wall
      "things": [                    # version 2: level.things (see mazeplugin.content)
        {"kind": "key", "x": 3, "y": 1, "id": 1, "props": {"door": 2, "lock": 1}}, ...
      ],
      "bridges": [[5, 3, 1], ...]    # version 3: a weave's bridge tiles [x, y, tunnel], tunnel 1 running
    }                                # east-west, 2 north-south (level.bridges; see mazeplugin.weave)

Things are checked on load like everything else: their fields and types,
tiles on the map, and then the proof of :meth:`Level.check` (each key before
its door, each door needed, nothing on a wall or marker, patrols sound).

Rows are strings of ``0``/``1`` so the file stays about one byte per tile and
``tiles[y][x]`` still reads a tile in any language.

``.npy`` holds one int8 array: :meth:`Level.marked` (0 floor, 1 wall,
2 entrance, 3 exit; a 3 with no 2 is an entrance and exit on one tile, as in
a one-cell maze). It keeps the tiles and markers but not the generator or
seed. Loading accepts int and bool arrays with those values (a plain 0/1
``level.tiles`` too) and never unpickles.

>>> import mazeplugin as mp
>>> level = mp.generate("kruskal", 4, 3, seed=7, markers="farthest")
>>> text = to_json(level)
>>> again = from_json(text)
>>> again.seed, again.options, again.entrance == level.entrance
(7, {'markers': 'farthest'}, True)
>>> from_json('{"format": "mazeplugin.level", "version": 9}')
Traceback (most recent call last):
...
mazeplugin.errors.LevelFormatError: <json text>: format version 9 is newer than this mazeplugin reads (version 3); upgrade mazeplugin
>>> rich = mp.generate("kruskal", 8, 6, seed=7, keys=1, treasure=2)
>>> from_json(to_json(rich)).things == rich.things
True
"""

from __future__ import annotations

import io
import json
import numbers
import os
from typing import TYPE_CHECKING, Any, Dict, Tuple, Union

import numpy as np

from .. import seam
from ..limits import MAX_TILES, check_size
from ..level import Level
from ..tiles import ENTRANCE, EXIT
from .jsontext import parse_json
from .files import LevelFormatError, PathLike, atomic_path, open_regular, read_limited
from .recorded import LevelShape, check_options, check_plain, plain_json, recorded_seed
from .rebuild import check_loadable, layout_for_shape, level_from_tiles

if TYPE_CHECKING:  # pragma: no cover
    from ..content import Thing

__all__ = [
    "FORMAT", "GRID_FORMAT", "VERSION", "MAX_JSON_CHARS", "to_json", "from_json", "from_data", "save_json", "load_json", "save_npy", "load_npy",
]

FORMAT = "mazeplugin.level"
VERSION = 3

GRID_FORMAT = "mazeplugin-grid-level"
"""What a grid level's JSON (:mod:`mazeplugin.formats.grid_json`) says it is: named here to point to its loader."""

MAX_JSON_CHARS = 2 * MAX_TILES + (1 << 20)
"""Longest JSON text :func:`from_json` parses (513 MiB): a level file holds about one character per
tile; this leaves room for row punctuation and things, and keeps a hostile file of padding from
taking more than about 1 GiB to read and decode."""

_KEYS = {"format", "version", "generator", "width", "height", "seed", "options",
         "corridor", "wall", "entrance", "exit", "tiles"}
_KEYS_V2 = _KEYS | {"things"}
_KEYS_V3 = _KEYS_V2 | {"bridges"}
_THING_KEYS = {"kind", "x", "y", "id", "props"}


def to_json(level: Level) -> str:
    """The level as JSON text (see the module docstring for the layout).

    ``TypeError`` names a recorded option whose value JSON cannot hold; ``ValueError`` refuses a
    level that would not load back (see :func:`mazeplugin.formats.rebuild.check_loadable`).
    """
    check_loadable(level, "JSON")
    options: Dict[str, Any] = {}
    for name, value in level.options.items():
        try:
            options[name] = json.loads(json.dumps(value, default=plain_json))
        except (TypeError, ValueError):
            raise TypeError(
                f"option {name!r} = {value!r} cannot be written as JSON"
            ) from None
    head = {
        "format": FORMAT,
        "version": 3 if level.weave else 2 if level.things else 1,
        "generator": level.algorithm,
        "width": level.width,
        "height": level.height,
        "seed": level.seed,
        "options": options,
        "corridor": level.layout.corridor,
        "wall": level.layout.wall,
        "entrance": list(level.entrance) if level.entrance is not None else None,
        "exit": list(level.exit) if level.exit is not None else None,
    }
    # One tile row per line: readable, diffable, and no giant nested list.
    columns = level.tiles.shape[1]
    digits = (level.tiles + np.uint8(ord("0"))).tobytes().decode("ascii")
    rows = ",\n  ".join(f'"{digits[i:i + columns]}"' for i in range(0, len(digits), columns))
    fields = "".join(f" {json.dumps(key)}: {json.dumps(value)},\n" for key, value in head.items())
    if not level.things and not level.weave:
        return f'{{\n{fields} "tiles": [\n  {rows}\n ]\n}}\n'
    try:  # NaN and infinity are not JSON, and from_json refuses them: refused here, before writing
        things = ",\n  ".join(
            json.dumps({"kind": t.kind, "x": t.x, "y": t.y, "id": t.id, "props": _thing_props(t.props)},
                       allow_nan=False)
            for t in level.things
        )
    except ValueError as error:
        raise ValueError(f"cannot write JSON: a thing's props hold a number JSON cannot: {error}") from None
    if not level.weave:
        return f'{{\n{fields} "tiles": [\n  {rows}\n ],\n "things": [\n  {things}\n ]\n}}\n'
    ys, xs = np.nonzero(level.bridges)
    bridges = ",\n  ".join(f"[{x}, {y}, {int(level.bridges[y, x])}]" for x, y in zip(xs.tolist(), ys.tolist()))
    return (f'{{\n{fields} "tiles": [\n  {rows}\n ],\n "things": [{things}],\n'
            f' "bridges": [\n  {bridges}\n ]\n}}\n')


def from_json(text: Union[str, bytes], *, source: str = "<json text>") -> Level:
    """Load a level from :func:`to_json` text (a str, or UTF-8 bytes), checking everything.

    Raises :class:`LevelFormatError` (a ``ValueError``), naming ``source``,
    for text that is not JSON (or nested too deep to read), is truncated, has
    unknown or missing fields, a newer format version, a size over the
    limits, options of the wrong type or too large (see
    :mod:`mazeplugin.formats.recorded`), tiles of the wrong shape or with
    values other than 0 and 1, a marker off the map or on a wall, or an
    opening in the outer wall without a marker.
    """
    if not isinstance(text, (str, bytes)):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    if len(text) > MAX_JSON_CHARS:
        raise LevelFormatError(
            f"{source}: {len(text):,} characters is too large for a level (at most {MAX_JSON_CHARS:,})"
        )
    return from_data(parse_json(text, source, what="a level", strings=MAX_JSON_CHARS), source)


def save_json(level: Level, path: PathLike) -> None:
    """Deprecated: ``level.save(path)`` (``.json``), which writes the same bytes."""
    seam.deprecated("mazeplugin.formats.jsonio.save_json(level, path)", "level.save(path)")
    level.save(path, format="json")


def load_json(path: PathLike) -> Level:
    """Load a square level from a JSON file written by ``level.save``/``to_json``; errors name the file.

    Reads at most :data:`MAX_JSON_CHARS` bytes and only from a regular file
    (see :func:`mazeplugin.formats.files.read_limited`).
    """
    source = os.fspath(path)
    return from_json(read_limited(source, MAX_JSON_CHARS, what="a level"), source=source)


def from_data(data: Any, source: str) -> Level:
    """The level of :func:`to_json`'s text once parsed as JSON, checked as :func:`from_json` checks it."""
    if isinstance(data, dict) and data.get("format") == GRID_FORMAT:
        what = "wrapping square" if data.get("wrap") is not None else f"{data.get('grid', 'grid')!s:.20}"
        raise LevelFormatError(f"{source}: a {what} level (a GridLevel), not a square Level: load it with "
                               "mp.load (or mp.from_json for text)")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LevelFormatError(f"{source}: not a mazeplugin level (no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise LevelFormatError(f"{source}: \"version\" must be a positive int, got {version!r}")
    if version > VERSION:
        raise LevelFormatError(
            f"{source}: format version {version} is newer than this mazeplugin reads "
            f"(version {VERSION}); upgrade mazeplugin"
        )
    keys = _KEYS_V3 if version >= 3 else _KEYS_V2 if version >= 2 else _KEYS
    unknown = sorted(set(data) - keys)
    if unknown:
        raise LevelFormatError(
            f"{source}: unknown field {unknown[0]!r}; a level (version {version}) has {', '.join(sorted(keys))}"
        )
    missing = sorted(keys - set(data))
    if missing:
        raise LevelFormatError(f"{source}: missing field {missing[0]!r}")

    sizes = {}
    for key in ("width", "height", "corridor", "wall"):
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise LevelFormatError(f"{source}: {key!r} must be an int, got {value!r}")
        sizes[key] = value
    try:
        layout = check_size(sizes["width"], sizes["height"], sizes["corridor"], sizes["wall"])
    except ValueError as error:
        raise LevelFormatError(f"{source}: {error}") from None
    generator = data["generator"]
    if generator is not None and not isinstance(generator, str):
        raise LevelFormatError(f"{source}: \"generator\" must be a str or null, got {generator!r}")
    seed = recorded_seed(data["seed"], source, '"seed"')
    options = check_options(
        data["options"],
        generator=generator,
        shape=LevelShape(layout.width, layout.height, layout.corridor, layout.wall),
        source=source,
    )

    rows, columns = layout.shape
    lines = data["tiles"]
    if not isinstance(lines, list) or len(lines) != rows:
        got = f"{len(lines)} rows" if isinstance(lines, list) else repr(type(lines).__name__)
        raise LevelFormatError(
            f"{source}: \"tiles\" must be a list of {rows} row strings for {layout.width} × "
            f"{layout.height} cells (corridor={layout.corridor}, wall={layout.wall}); got {got}"
        )
    for y, line in enumerate(lines):
        if not isinstance(line, str) or len(line) != columns:
            got = f"{len(line)} characters" if isinstance(line, str) else type(line).__name__
            raise LevelFormatError(f"{source}: tiles row {y} must be a string of {columns} characters; got {got}")
    try:
        raw = "".join(lines).encode("ascii")
    except UnicodeEncodeError as error:
        y, x = divmod(error.start, columns)
        raise LevelFormatError(f"{source}: tile ({x}, {y}) is {lines[y][x]!r}; tiles must be '0' or '1'") from None
    tiles = (np.frombuffer(raw, dtype=np.uint8) - np.uint8(ord("0"))).reshape(rows, columns)
    bad = tiles > 1
    if bad.any():
        y, x = (int(v) for v in np.argwhere(bad)[0])
        raise LevelFormatError(f"{source}: tile ({x}, {y}) is {lines[y][x]!r}; tiles must be '0' or '1'")
    things = _things(data["things"], tiles.shape, source) if version >= 2 else ()
    bridges = _bridges(data["bridges"], tiles.shape, source) if version >= 3 else None
    level = level_from_tiles(
        tiles,
        corridor=layout.corridor,
        wall=layout.wall,
        entrance=_marker(data["entrance"], "entrance", source),
        exit=_marker(data["exit"], "exit", source),
        algorithm=generator,
        seed=seed,
        options=options,
        source=source,
        bridges=bridges,
    )
    if things:
        level.things = things
        try:
            level.check()
        except ValueError as error:
            raise LevelFormatError(f"{source}: things: {error}") from None
    return level


def _bridges(value: Any, shape: Tuple[int, int], source: str) -> "np.ndarray[Any, np.dtype[np.uint8]]":
    """The ``bridges`` list of a version 3 file as a layer shaped like the tiles, checked entry by entry."""
    rows, columns = shape
    if not isinstance(value, list):
        raise LevelFormatError(f"{source}: \"bridges\" must be a list, got {type(value).__name__}")
    layer = np.zeros(shape, dtype=np.uint8)
    for n, item in enumerate(value):
        if (not isinstance(item, list) or len(item) != 3
                or any(isinstance(v, bool) or not isinstance(v, int) for v in item)):
            raise LevelFormatError(f"{source}: bridges[{n}] must be [x, y, tunnel], three ints")
        x, y, tunnel = item
        if not (0 <= x < columns and 0 <= y < rows):
            raise LevelFormatError(f"{source}: bridges[{n}] at {(x, y)} is outside the map "
                                   f"(x in 0..{columns - 1}, y in 0..{rows - 1})")
        if tunnel not in (1, 2):
            raise LevelFormatError(f"{source}: bridges[{n}]: tunnel must be 1 (east-west) or 2 (north-south), "
                                   f"got {tunnel!r}")
        layer[y, x] = tunnel
    return layer


def _thing_props(props: Any) -> Dict[str, Any]:
    """Props as JSON values (tuples become lists)."""
    return {name: json.loads(json.dumps(value)) for name, value in props.items()}


def _things(value: Any, shape: Any, source: str) -> Tuple["Thing", ...]:
    """The ``things`` list of a version 2 file, checked field by field."""
    from ..content.things import Thing, check_props

    rows, columns = shape
    if not isinstance(value, list):
        raise LevelFormatError(f"{source}: \"things\" must be a list, got {type(value).__name__}")
    if len(value) > rows * columns:
        raise LevelFormatError(f"{source}: {len(value):,} things is more than the map's {rows * columns:,} tiles")
    out = []
    for n, item in enumerate(value):
        where = f"{source}: things[{n}]"
        if not isinstance(item, dict) or set(item) != _THING_KEYS:
            raise LevelFormatError(f"{where} must be an object with exactly {', '.join(sorted(_THING_KEYS))}")
        kind, props = item["kind"], item["props"]
        if not isinstance(kind, str) or not 1 <= len(kind) <= 64:
            raise LevelFormatError(f"{where}: \"kind\" must be a string of 1 to 64 characters, got {kind!r}")
        for key, high in (("x", columns - 1), ("y", rows - 1), ("id", None)):
            v = item[key]
            if isinstance(v, bool) or not isinstance(v, int) or v < (1 if key == "id" else 0) or (
                high is not None and v > high
            ):
                allowed = "an int >= 1" if key == "id" else f"an int from 0 to {high}"
                raise LevelFormatError(f"{where}: {key!r} must be {allowed}, got {v!r}")
        if not isinstance(props, dict):
            raise LevelFormatError(f"{where}: \"props\" must be an object")
        try:
            check_plain(props)
        except ValueError as error:
            raise LevelFormatError(f"{where}: props: {error}") from None
        try:
            check_props(kind, props)
            out.append(Thing(kind, item["x"], item["y"], item["id"], props))
        except (TypeError, ValueError) as error:
            raise LevelFormatError(f"{where}: {error}") from None
    ids = [t.id for t in out]
    if len(set(ids)) != len(ids):
        raise LevelFormatError(f"{source}: two things share an id")
    return tuple(sorted(out, key=lambda t: t.id))


def _marker(value: Any, name: str, source: str) -> Any:
    if value is None:
        return None
    if (
        not isinstance(value, list) or len(value) != 2
        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
    ):
        raise LevelFormatError(f"{source}: {name!r} must be [x, y] ints or null, got {value!r}")
    return (value[0], value[1])


# -- npy -----------------------------------------------------------------------


def save_npy(level: Level, path: PathLike) -> None:
    """Write ``level.marked()`` (int8: 0 floor, 1 wall, 2 entrance, 3 exit) to ``path`` atomically.

    An ``.npy`` is the tilemap and its markers only, so a level with things (keys, doors, treasure,
    enemies) or bridges (a weave) is refused before anything is written: the file would drop them
    (save JSON or a Tiled map to keep them). What made the level (algorithm, seed, options) is not in
    the array either; the JSON and Tiled files keep that too.
    """
    check_loadable(level, "an .npy tilemap")
    if level.things:
        kinds = sorted({t.kind for t in level.things})
        raise ValueError(f"cannot write an .npy tilemap of a level with things ({', '.join(kinds)}): the array "
                         "holds tiles and markers only, so they would be lost; save JSON (.json) or a Tiled "
                         "map (.tmx, .tmj) to keep them")
    if level.weave:
        raise ValueError("cannot write an .npy tilemap of a weave level: the array holds tiles and markers only, "
                         "so its bridges would be lost; save JSON (.json) or a Tiled map (.tmx, .tmj) to keep them")
    marked = level.marked()
    with atomic_path(path) as temporary:
        with open(temporary, "wb") as f:
            np.save(f, marked, allow_pickle=False)


def load_npy(path: PathLike, *, corridor: int = 1, wall: int = 1) -> Level:
    """Load a level from an ``.npy`` tilemap (never unpickling), checking everything.

    The array is 2-D with 0 floor and 1 wall, and optionally one 2 (entrance)
    and one 3 (exit), as :func:`save_npy` writes. ``corridor`` and ``wall``
    say how wide the level's passages and walls are (the array alone cannot).
    The header is read first: a wrong dtype, a pickle, or an oversized
    shape is refused before the tiles are read, and a file shorter than its
    header promises is reported as truncated.
    """
    for name, value in (("corridor", corridor), ("wall", wall)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        if value < 1:
            raise ValueError(f"{name} must be at least 1, got {value}")
    source = os.fspath(path)
    with open_regular(source, what="a level") as f:
        shape, dtype = _npy_header(f, source)
        layout_for_shape(shape, int(corridor), int(wall), source=source)
        expected = int(np.prod(shape)) * dtype.itemsize
        if expected > MAX_TILES:
            raise LevelFormatError(
                f"{source}: {expected:,} bytes of {dtype} tiles is too large; at most {MAX_TILES:,} bytes "
                "(save big maps as int8, as save_npy does)"
            )
        start = f.tell()
        f.seek(0, io.SEEK_END)
        available = f.tell() - start
        if available < expected:
            raise LevelFormatError(
                f"{source}: truncated: the header promises {expected:,} bytes of tiles, the file has {available:,}"
            )
        f.seek(0)
        try:
            marked = np.load(f, allow_pickle=False)
        except (ValueError, EOFError, OSError) as error:
            raise LevelFormatError(f"{source}: corrupted .npy file ({error})") from None
    return _level_from_marked(marked, int(corridor), int(wall), source)


def _npy_header(f: Any, source: str) -> Tuple[Tuple[int, ...], np.dtype[Any]]:
    try:
        version = np.lib.format.read_magic(f)
    except ValueError as error:
        raise LevelFormatError(f"{source}: not an .npy file ({error})") from None
    try:
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            raise LevelFormatError(f"{source}: .npy format version {version} is not supported")
    except LevelFormatError:
        raise
    except Exception as error:  # numpy's header parser fails in many ways on junk (ValueError, TokenError, ...)
        raise LevelFormatError(f"{source}: corrupted .npy header ({type(error).__name__}: {error})") from None
    if dtype.hasobject:
        raise LevelFormatError(
            f"{source}: the array holds Python objects (a pickle); refusing to load it"
        )
    if dtype.kind not in "biu":
        raise LevelFormatError(f"{source}: tiles must be an int or bool array, got dtype {dtype}")
    if len(shape) != 2:
        raise LevelFormatError(f"{source}: tiles must be 2-dimensional (rows, columns), got shape {shape}")
    return shape, dtype


def _level_from_marked(marked: np.ndarray, corridor: int, wall: int, source: str) -> Level:
    markers = {}
    for name, code in (("entrance", ENTRANCE), ("exit", EXIT)):
        where = np.argwhere(marked == code)
        if len(where) > 1:
            raise LevelFormatError(f"{source}: {len(where)} tiles hold {code} ({name}); a level has at most one")
        if len(where):
            markers[name] = (int(where[0][1]), int(where[0][0]))
    if "exit" in markers and "entrance" not in markers:
        markers["entrance"] = markers["exit"]  # both on one tile (a one-cell maze): 3 wins in marked()
    tiles = marked
    if markers:
        tiles = marked.copy()
        for x, y in markers.values():
            tiles[y, x] = 0
    # A plain 0/1 array (level.tiles, no 2 or 3 anywhere) records no markers, so its
    # openings cannot be checked against them; an array with markers must mark every opening.
    return level_from_tiles(tiles, corridor=corridor, wall=wall, source=source, unmarked_openings=not markers,
                            entrance=markers.get("entrance"), exit=markers.get("exit"))
