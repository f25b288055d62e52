"""Hex, triangle, polar and wrapping square levels as JSON text, and back.

The text holds what makes the level again and what it is: the grid and its
size (``wrap`` for a wrapping square), the generator, seed and options, the
entrance and exit cells with the sides opened for them, and ``passages``:
one character per edge of the grid (``grid.edges`` order), ``"1"`` where the
passage is open. Loading rebuilds the grid from its size and checks every
field, so a file edited by hand loads or says what is wrong
(:class:`~mazeplugin.errors.LevelFormatError`): no unknown or missing field,
the entrance, exit and openings the grid's own two openings or none at all,
the options as a square level's are checked. A level with content adds
``things``: ``[kind, cell, id, props]`` per thing (a door's ``props`` name
its passage: ``edge`` and ``cells``); loading checks each and proves them
together (:meth:`GridLevel.check`), so a key moved behind its own door is
refused.

>>> import mazeplugin as mp
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
from typing import Any, Dict, Optional, Tuple, Union

import numpy as np

from ..content.cells import CellThing
from ..content.proof import ContentError
from ..errors import LevelFormatError
from ..grid_level import GridLevel
from ..level import Level
from ..grids import GRIDS, WRAPS, GridMaze, make_grid
from ..grids.polar import ring_sizes
from .. import seam
from ..limits import MAX_GRID_CELLS
from .files import PathLike, read_limited
from .jsonio import FORMAT as SQUARE_FORMAT, GRID_FORMAT
from .jsontext import parse_json
from .recorded import LevelShape, check_options, recorded_seed

__all__ = ["to_json", "from_json", "from_data", "save_json", "load_json", "check_grid_options", "FORMAT"]

FORMAT = GRID_FORMAT
VERSION = 1
MAX_JSON_CHARS = 4 * MAX_GRID_CELLS + (1 << 20)
_KEYS = {"format", "version", "grid", "width", "height", "wrap", "algorithm", "seed", "options", "entrance", "exit",
         "openings", "passages"}


def to_json(level: GridLevel) -> str:
    """``level`` as JSON text (see the module docstring)."""
    data: Dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "grid": level.grid, "width": level.width, "height": level.height,
        "wrap": level.options.get("wrap"), "algorithm": level.algorithm, "seed": level.seed,
        "options": {k: v for k, v in level.options.items() if k not in ("grid", "wrap")},
        "entrance": level.entrance_cell, "exit": level.exit_cell, "openings": [list(o) for o in level.openings],
        "passages": "".join("1" if o else "0" for o in level.maze.open.tolist()),
    }
    if level.things:  # only then: files of levels without content stay as they were
        data["things"] = [t.as_list() for t in level.things]
    try:
        return json.dumps(data, separators=(",", ":"), allow_nan=False) + "\n"
    except (TypeError, ValueError) as error:  # ValueError: NaN or infinity, which JSON has not
        raise ValueError(f"this level's options or things cannot be written as JSON: {error}") from None


def from_json(text: Union[str, bytes], *, source: str = "<json text>") -> GridLevel:
    """The :class:`GridLevel` that :func:`to_json` wrote (text, or UTF-8 bytes); ``LevelFormatError`` saying
    what is wrong otherwise."""
    def bad(what: str) -> LevelFormatError:
        return LevelFormatError(f"{source}: {what}")

    if len(text) > MAX_JSON_CHARS:
        raise bad(f"{len(text):,} characters is more than a grid level's {MAX_JSON_CHARS:,}")
    return from_data(parse_json(text, source, what="a grid level", strings=MAX_JSON_CHARS), source)


def from_data(data: Any, source: str) -> GridLevel:
    """The :class:`GridLevel` of :func:`to_json`'s text once parsed as JSON (checked as :func:`from_json` does)."""
    def bad(what: str) -> LevelFormatError:
        return LevelFormatError(f"{source}: {what}")

    if isinstance(data, dict) and data.get("format") == SQUARE_FORMAT:
        raise bad("a square level, not a grid level: load it with mp.load (or mp.from_json for text)")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad(f"not a grid level (a JSON object with \"format\": {FORMAT!r})")
    if data.get("version") != VERSION:
        raise bad(f"version {data.get('version')!r} is not one this mazeplugin reads ({VERSION})")
    unknown, missing = sorted(set(data) - _KEYS - {"things"}), sorted(_KEYS - set(data))
    if unknown or missing:
        raise bad(f"unknown field {unknown[0]!r}" if unknown else f"missing field {missing[0]!r}")
    grid_name, wrap = data.get("grid"), data.get("wrap")
    if grid_name not in GRIDS or (grid_name == "square") != (wrap is not None) or (wrap is not None and wrap not in WRAPS):
        raise bad(f"grid {grid_name!r} with wrap {wrap!r}: expected hex, triangle or polar, or square with "
                  "wrap 'x', 'y' or 'xy'")
    width, height = (_whole(data.get(k), k, bad) for k in ("width", "height"))
    cells = sum(ring_sizes(width, height)) if grid_name == "polar" and height <= 4096 else width * height
    if grid_name == "polar" and height > 4096 or cells > MAX_GRID_CELLS:
        raise bad(f"a {grid_name} grid of {width}x{height} is larger than {MAX_GRID_CELLS:,} cells")
    grid = make_grid(grid_name, width, height, wrap)
    passages = data.get("passages")
    if not isinstance(passages, str) or len(passages) != len(grid.edges) or set(passages) - {"0", "1"}:
        raise bad(f"passages must be a text of {len(grid.edges)} characters 0 or 1, one per edge")
    entrance, exit = (_cell(data.get(k), k, grid.cells, bad) for k in ("entrance", "exit"))
    openings = data.get("openings")
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
    algorithm = data.get("algorithm")
    if algorithm is not None and not isinstance(algorithm, str):
        raise bad(f"algorithm must be a generator's name or null, got {algorithm!r:.40}")
    options = check_grid_options(data.get("options"), algorithm, width, height, source)
    if wrap is not None:
        options["wrap"] = wrap
    seed = recorded_seed(data.get("seed"), source, "seed")
    open_ = np.frombuffer(passages.encode("ascii"), dtype=np.uint8) == ord("1")
    level = Level(GridMaze(grid, open_), width=width, height=height, entrance=entrance, exit=exit,
                  openings=openings_read, algorithm=algorithm, seed=seed,
                  options=dict(options, grid=grid_name), things=_things(data.get("things", []), bad))
    try:
        if level.things:
            level.check()
    except ContentError as error:
        raise bad(f"things: {error}") from None
    return level


def check_grid_options(options: Any, algorithm: Optional[str], width: int, height: int, source: str) -> Dict[str, Any]:
    """A grid level file's recorded ``options`` checked as a square level's are
    (:func:`mazeplugin.formats.recorded.check_options`: each option ``generate`` records by its rule, a built-in
    generator's own by its check); ``grid`` and ``wrap`` are the file's own fields, not options."""
    if isinstance(options, dict) and ({"grid", "wrap"} & set(options)):
        raise LevelFormatError(f"{source}: options hold {sorted({'grid', 'wrap'} & set(options))[0]!r}, which a grid "
                               "level records in its own field")
    return check_options(options, generator=algorithm, shape=LevelShape(width, height, 1, 1), source=source)


def _things(items: Any, bad: Any) -> Tuple[CellThing, ...]:
    """Each ``[kind, cell, id, props]`` read and type-checked (the proof comes after)."""
    if not isinstance(items, list):
        raise bad("things must be a list of [kind, cell, id, props]")
    out = []
    for n, item in enumerate(items):
        if not isinstance(item, list) or len(item) != 4 or not isinstance(item[3], dict):
            raise bad(f"things[{n}] must be [kind, cell, id, props], got {item!r:.80}")
        try:
            out.append(CellThing(*item))
        except TypeError as error:
            raise bad(f"things[{n}]: {error}") from None
    return tuple(out)


def save_json(level: GridLevel, path: PathLike) -> None:
    """Deprecated: ``level.save(path)`` (``.json``), which writes the same bytes."""
    seam.deprecated("mazeplugin.formats.grid_json.save_json(level, path)", "level.save(path)")
    level.save(path, format="json")


def load_json(path: PathLike) -> GridLevel:
    """The grid level in the JSON file at ``path``."""
    return from_json(read_limited(path, MAX_JSON_CHARS, what="a grid level"), source=str(path))


def _whole(value: Any, name: str, bad: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise bad(f"{name} must be a whole number of at least 1, got {value!r}")
    return int(value)


def _cell(value: Any, name: str, cells: int, bad: Any) -> Optional[int]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < cells:
        raise bad(f"{name} must be a cell number from 0 to {cells - 1} or null, got {value!r}")
    return int(value)
