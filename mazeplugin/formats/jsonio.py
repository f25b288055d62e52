"""Levels of every grid as JSON: one writer, one reader.

A level file says what it is in ``"format"``; which fields each kind holds is
data (:data:`LAYOUTS`), and everything else is shared: the version and field
checks, the generator, seed and options (:mod:`mazeplugin.formats.recorded`),
the things' fields and the proof that they make a sound level, run in one
place (:func:`proved`) for every grid.

A square level (``"format": "mazeplugin.level"``, version 3; a level without
bridges is written as version 2, and one without things or bridges as version
1, which older mazeplugin reads; files of every version still load)::

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

Rows are strings of ``0``/``1`` so the file stays about one byte per tile and
``tiles[y][x]`` still reads a tile in any language; loading rebuilds the maze
from them (:mod:`mazeplugin.formats.rebuild`), so a tilemap no maze could have
is refused.

A hex, triangle, polar or wrapping square level (``"format":
"mazeplugin-grid-level"``, version 1) is one line of compact JSON: the grid
and its size (``wrap`` for a wrapping square), the ``algorithm``, seed and
options, the entrance and exit cells with the sides opened for them
(``openings``: the grid's own two, or none at all), and ``passages``: one
character per edge of the grid (``grid.edges`` order), ``"1"`` where the
passage is open. A level with content adds ``things``: ``[kind, cell, id,
props]`` per thing (a door's ``props`` name its passage: ``edge`` and
``cells``).

Things are checked on load like everything else: their fields and types,
places on the map, and then the proof of ``level.check()`` (each key before
its door, each door needed, nothing on a wall or marker, patrols sound), so a
key moved behind its own door is refused.

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
>>> level = mp.generate("wilson", 6, 4, grid="hex", seed=3)
>>> again = from_json(to_json(level))
>>> again.grid, bool((again.maze.open == level.maze.open).all()), again.solution() == level.solution()
('hex', True, True)
>>> rich = mp.generate("backtracker", 10, 6, grid="triangle", seed=5, keys=1, treasure=2)
>>> from_json(to_json(rich)).things == rich.things
True
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable, Dict, FrozenSet, List, NamedTuple, Optional, Tuple, Union

import numpy as np

from .. import seam
from ..errors import LevelFormatError
from ..grids import GRIDS, WRAPS, GridMaze, make_grid
from ..grids.polar import ring_sizes
from ..level import Level
from ..level_protocol import AnyLevel
from ..limits import MAX_GRID_CELLS, MAX_TILES, check_size
from .files import PathLike, read_limited
from .jsontext import parse_json
from .rebuild import check_loadable, level_from_tiles, load_npy, proved, save_npy  # (the .npy two: re-exported)
from .recorded import LevelShape, check_grid_options, check_options, check_plain, plain_json, recorded_seed

__all__ = ["FORMAT", "GRID_FORMAT", "VERSION", "MAX_JSON_CHARS", "MAX_GRID_JSON_CHARS", "LAYOUTS", "FileLayout",
           "to_json", "from_json", "from_data", "save_json", "load_json", "save_npy", "load_npy"]

FORMAT = "mazeplugin.level"
VERSION = 3
GRID_FORMAT = "mazeplugin-grid-level"

MAX_JSON_CHARS = 2 * MAX_TILES + (1 << 20)
"""Longest JSON text :func:`from_json` parses (513 MiB): a square level's file holds about one character per
tile; this leaves room for row punctuation and things, and keeps a hostile file of padding from taking more
than about 1 GiB to read and decode."""

MAX_GRID_JSON_CHARS = 4 * MAX_GRID_CELLS + (1 << 20)
"""Longest JSON text of a grid level (a few characters per edge): checked once the text says it is one."""

Places = Dict[str, int]
"""The highest value each of a thing's place fields may take (``x`` and ``y``, or ``cell``)."""


class FileLayout(NamedTuple):
    """What one kind of level file holds: the grid-specific part of :func:`to_json` and :func:`from_data`."""

    fields: Tuple[FrozenSet[str], ...]
    """The fields a file of each version holds, version 1 first (the last is the newest version read)."""
    optional: FrozenSet[str]
    """Fields a file may leave out."""
    generator: str
    """The field that names the generator."""
    thing: Tuple[str, ...]
    """A thing's fields, its place among them (``x``, ``y`` on tiles; ``cell`` on cells)."""
    compact: bool
    """Written as one line of compact JSON, a thing as the list of its fields' values (else one field a line,
    a thing as an object)."""
    chars: int
    """The longest text of such a file."""
    read: Callable[[Dict[str, Any], str, int, Optional[str], Any], Tuple[AnyLevel, Places]]
    """The level of a file's checked common fields ``(data, source, version, generator, seed)``, read from the
    file's own fields (tiles or passages), with the places a thing may take."""
    make: Callable[[str, List[int], int, Dict[str, Any]], Any]
    """A thing from its kind, place, id and props (its own type checks)."""
    write: Callable[[Any], Tuple[Dict[str, Any], Dict[str, List[Any]]]]
    """A level's fields: the head (one value each) and the long lists (tiles, things, bridges)."""


def to_json(level: AnyLevel) -> str:
    """``level`` as JSON text (see the module docstring for the layout): the same bytes mazeplugin always wrote.

    ``TypeError`` names a recorded option whose value JSON cannot hold; ``ValueError`` refuses a level that
    would not load back (see :func:`mazeplugin.formats.rebuild.check_loadable`), or a number JSON cannot hold.
    """
    layout = LAYOUTS[FORMAT if level.kind == "square" else GRID_FORMAT]
    head, lists = layout.write(level)
    try:
        if not layout.compact:  # a square level: one field a line, one tile row (thing, bridge) a line
            parts = ["{\n"] + [f" {json.dumps(key)}: {json.dumps(value, allow_nan=False)},\n"
                                for key, value in head.items()]
            for n, (key, items) in enumerate(lists.items()):
                inline = key == "things" and "bridges" in lists  # (as version 3 files always had it)
                parts += [f" {json.dumps(key)}: [" + ("" if inline else "\n  "),
                          '"' + '",\n  "'.join(items) + '"' if key == "tiles"  # (rows of digits, quoted as they are)
                          else ",\n  ".join(json.dumps(item, allow_nan=False) for item in items),
                          ("]" if inline else "\n ]") + (",\n" if n < len(lists) - 1 else "\n}\n")]
            return "".join(parts)  # (one copy of the tiles' text: big levels write fast)
        return json.dumps({**head, **lists}, separators=(",", ":"), allow_nan=False) + "\n"
    except ValueError as error:  # NaN and infinity are not JSON, and from_json refuses them: refused here
        raise ValueError(f"cannot write JSON: this level holds a number JSON cannot: {error}") from None


def _options(level: AnyLevel, leave: Tuple[str, ...] = ()) -> Dict[str, Any]:
    """The recorded options as JSON values (a mask as rows of text), each one named when JSON cannot hold it."""
    options: Dict[str, Any] = {}
    for name, value in level.options.items():
        if name in leave:
            continue
        try:
            options[name] = json.loads(json.dumps(value, default=plain_json))
        except (TypeError, ValueError):
            raise TypeError(f"option {name!r} = {value!r} cannot be written as JSON") from None
    return options


def _write_square(level: Level) -> Tuple[Dict[str, Any], Dict[str, List[Any]]]:
    check_loadable(level, "JSON")
    head = {
        "format": FORMAT, "version": 3 if level.weave else 2 if level.things else 1, "generator": level.algorithm,
        "width": level.width, "height": level.height, "seed": level.seed, "options": _options(level),
        "corridor": level.layout.corridor, "wall": level.layout.wall,
        "entrance": list(level.entrance) if level.entrance is not None else None,
        "exit": list(level.exit) if level.exit is not None else None,
    }
    columns = level.tiles.shape[1]
    digits = (level.tiles + np.uint8(ord("0"))).tobytes().decode("ascii")
    lists: Dict[str, List[Any]] = {"tiles": [digits[i:i + columns] for i in range(0, len(digits), columns)]}
    if level.things or level.weave:
        lists["things"] = [{"kind": t.kind, "x": t.x, "y": t.y, "id": t.id, "props": _plain(t.props)}
                           for t in level.things]
    if level.weave:
        ys, xs = np.nonzero(level.bridges)
        lists["bridges"] = [[x, y, int(level.bridges[y, x])] for x, y in zip(xs.tolist(), ys.tolist())]
    return head, lists


def _write_grid(level: Level) -> Tuple[Dict[str, Any], Dict[str, List[Any]]]:
    head = {
        "format": GRID_FORMAT, "version": 1, "grid": level.grid, "width": level.width, "height": level.height,
        "wrap": level.options.get("wrap"), "algorithm": level.algorithm, "seed": level.seed,
        "options": _options(level, leave=("grid", "wrap")), "entrance": level.entrance_cell,
        "exit": level.exit_cell, "openings": [list(o) for o in level.openings],
        "passages": "".join("1" if o else "0" for o in level.maze.open.tolist()),
    }
    # things only where there are some: files of levels without content stay as they were
    return head, {"things": [t.as_list() for t in level.things]} if level.things else {}


def _plain(props: Any) -> Dict[str, Any]:
    """Props as JSON values (tuples become lists)."""
    return {name: json.loads(json.dumps(value)) for name, value in props.items()}


def from_json(text: Union[str, bytes], *, source: str = "<json text>") -> AnyLevel:
    """The level of any grid in :func:`to_json` text (a str, or UTF-8 bytes), checking everything.

    Raises :class:`LevelFormatError` (a ``ValueError``), naming ``source``,
    for text that is not JSON (or nested too deep to read), is truncated, has
    unknown or missing fields, a newer format version, a size over the
    limits, options of the wrong type or too large (see
    :mod:`mazeplugin.formats.recorded`), tiles or passages of the wrong shape
    or with values other than 0 and 1, a marker off the map or on a wall, an
    opening in the outer wall without a marker, or things that break a promise.

    >>> import mazeplugin as mp
    >>> level = mp.generate("kruskal", 5, 4, seed=3, wrap="xy")
    >>> from_json(level.to_json()).to_json() == level.to_json()
    True
    """
    if not isinstance(text, (str, bytes)):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    if len(text) > MAX_JSON_CHARS:
        raise LevelFormatError(
            f"{source}: {len(text):,} characters is too large for a level (at most {MAX_JSON_CHARS:,})"
        )
    return from_data(parse_json(text, source, what="a level", strings=MAX_JSON_CHARS), source, len(text))


def load_json(path: PathLike) -> AnyLevel:
    """The level in the JSON file at ``path`` (any grid), written by ``level.save``; errors name the file.

    Reads at most :data:`MAX_JSON_CHARS` bytes and only from a regular file
    (see :func:`mazeplugin.formats.files.read_limited`).
    """
    source = os.fspath(path)
    return from_json(read_limited(source, MAX_JSON_CHARS, what="a level"), source=source)


def save_json(level: AnyLevel, path: PathLike) -> None:
    """Deprecated: ``level.save(path)`` (``.json``), which writes the same bytes."""
    seam.deprecated("mazeplugin.formats.jsonio.save_json(level, path)", "level.save(path)")
    level.save(path, format="json")


def from_data(data: Any, source: str, size: int = 0) -> AnyLevel:
    """The level of :func:`to_json`'s text (``size`` characters) once parsed as JSON, checked as
    :func:`from_json` checks it."""
    layout = LAYOUTS.get(str(data.get("format"))) if isinstance(data, dict) else None
    if layout is None:
        raise LevelFormatError(f"{source}: not a mazeplugin level (\"format\" must be {FORMAT!r} for a square "
                               f"level or {GRID_FORMAT!r} for a grid level)")
    if size > layout.chars:
        raise LevelFormatError(f"{source}: {size:,} characters is too large for a {data['format']} file "
                               f"(at most {layout.chars:,})")
    version, newest = data.get("version"), len(layout.fields)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise LevelFormatError(f"{source}: \"version\" must be a positive int, got {version!r}")
    if version > newest:
        raise LevelFormatError(f"{source}: format version {version} is newer than this mazeplugin reads "
                               f"(version {newest}); upgrade mazeplugin")
    keys = layout.fields[version - 1]
    unknown, missing = sorted(set(data) - keys - layout.optional), sorted(keys - set(data))
    if unknown:
        raise LevelFormatError(f"{source}: unknown field {unknown[0]!r}; a level (version {version}) has "
                               f"{', '.join(sorted(keys | layout.optional))}")
    if missing:
        raise LevelFormatError(f"{source}: missing field {missing[0]!r}")
    generator = data[layout.generator]
    if generator is not None and not isinstance(generator, str):
        raise LevelFormatError(f"{source}: {layout.generator} must be a generator's name or null, got "
                               f"{generator!r:.40}")
    level, places = layout.read(data, source, version, generator, recorded_seed(data["seed"], source, "seed"))
    return proved(level, _things(data.get("things", []), layout, places, source), source)


def _things(value: Any, layout: FileLayout, places: Places, source: str) -> Tuple[Any, ...]:
    """A file's ``things``, checked field by field and made (the proof comes after: :func:`proved`)."""
    room = int(np.prod([last + 1 for last in places.values()]))  # (tiles or cells)
    if not isinstance(value, list):
        raise LevelFormatError(f"{source}: \"things\" must be a list, got {type(value).__name__}")
    if len(value) > room:
        raise LevelFormatError(f"{source}: {len(value):,} things is more than the map's {room:,} places")
    names, out = layout.thing, []
    for n, item in enumerate(value):
        where = f"{source}: things[{n}]"
        if layout.compact:
            if not isinstance(item, list) or len(item) != len(names) or not isinstance(item[-1], dict):
                raise LevelFormatError(f"{where} must be [{', '.join(names)}], got {item!r:.80}")
            item = dict(zip(names, item))
        elif not isinstance(item, dict) or set(item) != set(names):
            raise LevelFormatError(f"{where} must be an object with exactly {', '.join(sorted(names))}")
        kind, props = item["kind"], item["props"]
        if not isinstance(kind, str) or not kind:  # (any name a Place takes: what is written loads back)
            raise LevelFormatError(f"{where}: \"kind\" must be a non-empty string, got {kind!r:.80}")
        checks: List[Tuple[str, int, Optional[int]]] = [(key, 0, high) for key, high in places.items()]
        for key, low, high in checks + [("id", 1, None)]:
            v = item[key]
            if isinstance(v, bool) or not isinstance(v, int) or v < low or (high is not None and v > high):
                allowed = "an int >= 1" if high is None else f"an int from 0 to {high}"
                raise LevelFormatError(f"{where}: {key!r} must be {allowed}, got {v!r}")
        if not isinstance(props, dict):
            raise LevelFormatError(f"{where}: \"props\" must be an object")
        try:
            check_plain(props)
        except ValueError as error:
            raise LevelFormatError(f"{where}: props: {error}") from None
        try:
            out.append(layout.make(kind, [item[key] for key in places], item["id"], props))
        except (TypeError, ValueError) as error:
            raise LevelFormatError(f"{where}: {error}") from None
    if len({t.id for t in out}) != len(out):
        raise LevelFormatError(f"{source}: two things share an id")
    return tuple(sorted(out, key=lambda t: t.id))


def _read_square(data: Dict[str, Any], source: str, version: int, generator: Optional[str],
                 seed: Any) -> Tuple[Level, Places]:
    """A square level's own fields: sizes, tiles, markers and (version 3) bridges."""
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
    options = check_options(data["options"], generator=generator, source=source,
                            shape=LevelShape(layout.width, layout.height, layout.corridor, layout.wall))
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
    raw = "".join(lines).encode("ascii", errors="replace")  # (a non-ASCII character: '?', refused below)
    tiles = (np.frombuffer(raw, dtype=np.uint8) - np.uint8(ord("0"))).reshape(rows, columns)
    bad = tiles > 1
    if bad.any():
        y, x = (int(v) for v in np.argwhere(bad)[0])
        raise LevelFormatError(f"{source}: tile ({x}, {y}) is {lines[y][x]!r}; tiles must be '0' or '1'")
    level = level_from_tiles(
        tiles, corridor=layout.corridor, wall=layout.wall, entrance=_marker(data["entrance"], "entrance", source),
        exit=_marker(data["exit"], "exit", source), algorithm=generator, seed=seed, options=options,
        source=source, bridges=_bridges(data["bridges"], tiles.shape, source) if version >= 3 else None,
    )
    return level, {"x": columns - 1, "y": rows - 1}


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


def _marker(value: Any, name: str, source: str) -> Any:
    if value is not None and (not isinstance(value, list) or len(value) != 2
                              or any(isinstance(v, bool) or not isinstance(v, int) for v in value)):
        raise LevelFormatError(f"{source}: {name!r} must be [x, y] ints or null, got {value!r}")
    return None if value is None else (value[0], value[1])


def _read_grid(data: Dict[str, Any], source: str, version: int, generator: Optional[str],
               seed: Any) -> Tuple[Level, Places]:
    """A grid level's own fields: the grid and its size, passages, markers and openings."""
    def bad(what: str) -> LevelFormatError:
        return LevelFormatError(f"{source}: {what}")

    grid_name, wrap = data["grid"], data["wrap"]
    if grid_name not in GRIDS or (grid_name == "square") != (wrap is not None) or (
            wrap is not None and wrap not in WRAPS):
        raise bad(f"grid {grid_name!r} with wrap {wrap!r}: expected hex, triangle or polar, or square with "
                  "wrap 'x', 'y' or 'xy'")
    width, height = (_whole(data[k], k, bad) for k in ("width", "height"))
    cells = sum(ring_sizes(width, height)) if grid_name == "polar" and height <= 4096 else width * height
    if grid_name == "polar" and height > 4096 or cells > MAX_GRID_CELLS:
        raise bad(f"a {grid_name} grid of {width}x{height} is larger than {MAX_GRID_CELLS:,} cells")
    grid = make_grid(grid_name, width, height, wrap)
    passages = data["passages"]
    if not isinstance(passages, str) or len(passages) != len(grid.edges) or set(passages) - {"0", "1"}:
        raise bad(f"passages must be a text of {len(grid.edges)} characters 0 or 1, one per edge")
    entrance, exit = (_cell(data[k], k, grid.cells, bad) for k in ("entrance", "exit"))
    openings = data["openings"]
    if not isinstance(openings, list) or not all(
            isinstance(o, list) and len(o) == 2 and _cell(o[0], "an opening's cell", grid.cells, bad) is not None
            and (o[1] is None or (type(o[1]) is int and 0 <= o[1] < len(grid.sides(o[0])))) for o in openings):
        raise bad("openings must be a list of [cell, side or null]")
    openings_read: Tuple[Tuple[int, Optional[int]], ...] = tuple((int(c), s) for c, s in openings)
    if (entrance, exit) == (None, None) and openings_read:
        raise bad("openings must be [] on a level without entrance and exit (markers='none')")
    if (entrance, exit) != (None, None) and (
            openings_read != grid.openings() or (entrance, exit) != tuple(c for c, _ in grid.openings())):
        want = [list(o) for o in grid.openings()]
        raise bad(f"entrance {entrance!r}, exit {exit!r} and openings {openings!r:.60} must be the grid's two openings "
                  f"(entrance {want[0][0]}, exit {want[1][0]}, openings {want}) or none at all (null, null, [])")
    options = check_grid_options(data["options"], generator, width, height, source)
    options = dict(options, **({} if wrap is None else {"wrap": wrap}), grid=grid_name)
    open_ = np.frombuffer(passages.encode("ascii"), dtype=np.uint8) == ord("1")
    level = Level(GridMaze(grid, open_), width=width, height=height, entrance=entrance, exit=exit,
                  openings=openings_read, algorithm=generator, seed=seed, options=options)
    return level, {"cell": grid.cells - 1}


def _whole(value: Any, name: str, bad: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise bad(f"{name} must be a whole number of at least 1, got {value!r}")
    return int(value)


def _cell(value: Any, name: str, cells: int, bad: Any) -> Optional[int]:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < cells):
        raise bad(f"{name} must be a cell number from 0 to {cells - 1} or null, got {value!r}")
    return None if value is None else int(value)


def _square_thing(kind: str, place: List[int], id: int, props: Dict[str, Any]) -> Any:
    from ..content.things import Thing, check_props

    check_props(kind, props)
    return Thing(kind, place[0], place[1], id, props)


def _cell_thing(kind: str, place: List[int], id: int, props: Dict[str, Any]) -> Any:
    from ..content.cells import CellThing

    return CellThing(kind, place[0], id, props)


_SQUARE = frozenset({"format", "version", "generator", "width", "height", "seed", "options", "corridor", "wall",
                     "entrance", "exit", "tiles"})
_GRID = frozenset({"format", "version", "grid", "width", "height", "wrap", "algorithm", "seed", "options",
                   "entrance", "exit", "openings", "passages"})

LAYOUTS: Dict[str, FileLayout] = {
    FORMAT: FileLayout(
        fields=(_SQUARE, _SQUARE | {"things"}, _SQUARE | {"things", "bridges"}), optional=frozenset(),
        generator="generator", thing=("kind", "x", "y", "id", "props"), compact=False, chars=MAX_JSON_CHARS,
        read=_read_square, make=_square_thing, write=_write_square),
    GRID_FORMAT: FileLayout(
        fields=(_GRID,), optional=frozenset({"things"}), generator="algorithm", thing=("kind", "cell", "id", "props"),
        compact=True, chars=MAX_GRID_JSON_CHARS, read=_read_grid, make=_cell_thing, write=_write_grid),
}
"""Each kind of level file by its ``"format"``: which fields it has, and how its grid's part is read and written."""
