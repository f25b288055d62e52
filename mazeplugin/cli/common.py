"""What every ``mazeplugin`` subcommand shares: the parser class, failures, argument types, level options.

The subcommand modules (:mod:`.generate`, :mod:`.listing`, :mod:`.stats`,
:mod:`.batch`, :mod:`.world`) build on these. Heavy modules (the file
formats, ``generate`` itself) are imported inside the functions that need
them, so building the parser (and ``mazeplugin list``) stays quick.
"""

from __future__ import annotations

import argparse
import json
import re
from typing import Any, Dict, List, NoReturn, Optional, Tuple

from ..codes import parse_size
from ..dungeon.grammar import MAX_LOCKS, PATTERNS
from ..dungeon.shapes import SHAPES
from ..level import Level
from ..limits import MAX_MASK_FILE_BYTES, MAX_TILE_PIXELS
from ..rooms import MAX_ROOMS
from ..seeds import MAX_SEED
from ..shaping import parse_mask
from ..text import STYLES

__all__ = [
    "FORMATS", "EXTENSIONS", "FILE_EXTENSION", "STDOUT_FORMATS", "DEFAULT_TILE", "MAX_PREFAB_FILE_BYTES",
    "Parser", "Failure", "size_type", "bounded_type", "count_type", "natural_type", "fraction_type",
    "option_type", "room_type", "doors_type", "markers_type", "level_options", "picture_options",
    "level_kwargs", "dungeon_kwargs", "dungeon_flags", "read_mask", "read_rooms", "make_level", "check_solution",
    "as_text", "write_level",
    "is_terminal", "NUMBER_LIST_OPTIONS", "join_number_lists",
]

MAX_PREFAB_FILE_BYTES = 1 << 20
"""Largest prefab text file ``--room`` reads (1 MiB)."""

FORMATS = STYLES + ("svg", "png", "tmx", "tmj", "json", "npy")
"""Every ``--format``: the text styles, then the file formats."""

EXTENSIONS = {".txt": "ascii", ".svg": "svg", ".png": "png", ".tmx": "tmx", ".tmj": "tmj", ".json": "json", ".npy": "npy"}
"""The format a file extension implies when ``--format`` is not given."""

FILE_EXTENSION = {"ascii": ".txt", "blocks": ".txt", "box": ".txt", "digits": ".txt"}
"""A text style's file extension (every other format's is its own name)."""

STDOUT_FORMATS = STYLES + ("svg", "json")
"""The formats that are text and can go to standard output."""

DEFAULT_TILE = {"svg": 10, "png": 8, "tmx": 16, "tmj": 16}
"""Pixels per tile when ``--tile`` is not given."""


class Parser(argparse.ArgumentParser):
    """argparse, but a wrong argument is one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


class Failure(Exception):
    """A run that cannot go on: ``(exit status, one-line message)``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(" ".join(message.split("\n")))  # the reason is one line
        self.status = status

    def __reduce__(self) -> Tuple[Any, ...]:  # batch workers send failures back to the main process
        return (Failure, (self.status, str(self)))


# -- argument types ---------------------------------------------------------------


def size_type(text: str) -> Tuple[int, int]:
    """``"20x15"`` (or ``"20"`` for a square) → ``(20, 15)``."""
    size = parse_size(text)
    if size is None or min(size) < 1:
        raise argparse.ArgumentTypeError(f"size must be WIDTHxHEIGHT in cells, like 20x15; got {text!r}")
    return size


def bounded_type(low: int, high: Optional[int] = None, allowed: str = "") -> Any:
    """An argparse type: an int from ``low`` to ``high`` (None: no bound above); ``allowed`` is
    what the error says may be given (by default, the range)."""
    allowed = allowed or f"an int from {low:,} to {high:,}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}")
        return value

    return parse


count_type = bounded_type(1, allowed="a positive int")
"""A positive int (``--corridor``, ``--wall``)."""
natural_type = bounded_type(0, MAX_SEED, "an int >= 0")
"""An int from 0 to the largest seed (``--first-seed``)."""


def fraction_type(text: str) -> float:
    """A number from 0 to 1 (``--braid``)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be a number from 0 to 1, got {text!r}")
    return value


def option_type(text: str) -> Tuple[str, Any]:
    """``NAME=VALUE``; the value is read as JSON (numbers, true/false, lists) or else kept as text."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"generator options are NAME=VALUE, got {text!r}")
    try:
        parsed = json.loads(value)
    except ValueError:
        parsed = value
    return name.replace("-", "_"), parsed


def room_type(text: str) -> Any:
    """``--room``: ``X,Y,W,H`` (a rectangle in cells) or ``FILE[@X,Y]`` (a prefab text file, read later)."""
    if re.fullmatch(r"\s*-?[0-9]+\s*(,\s*-?[0-9]+\s*){3}", text):
        return [int(v) for v in text.split(",")]
    path, at, where = text.rpartition("@") if re.search(r"@\s*-?[0-9]+\s*,\s*-?[0-9]+\s*$", text) else (text, "", "")
    if not path:
        raise argparse.ArgumentTypeError(f"a room is X,Y,W,H or FILE[@X,Y], got {text!r}")
    return ("prefab", path, [int(v) for v in where.split(",")] if at else None)


def doors_type(text: str) -> Any:
    """``--doors``: a count (int) or a chance (a number with a point)."""
    try:
        return int(text) if re.fullmatch(r"\s*[0-9]+\s*", text) else float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a count or a chance from 0.0 to 1.0, got {text!r}") from None


def markers_type(text: str) -> Any:
    """A marker mode, or ``X1,Y1,X2,Y2`` tiles."""
    if text in ("border", "farthest", "random", "none"):
        return text
    try:
        x1, y1, x2, y2 = (int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"markers must be border, farthest, random, none or X1,Y1,X2,Y2 tiles; got {text!r}"
        ) from None
    return [(x1, y1), (x2, y2)]


# -- shared option groups -----------------------------------------------------------


def level_options() -> argparse.ArgumentParser:
    """The parent parser of every command that makes levels: ALGORITHM, --size, --markers, shape, rooms, -O."""
    parser = Parser(add_help=False)
    parser.add_argument("algorithm", metavar="ALGORITHM", help="a generator name (see 'mazeplugin list')")
    level = parser.add_argument_group("shape", "the maze's size, markers, passages and form")
    level.add_argument("--size", type=size_type, default=None, metavar="WxH",
                       help="size in cells, e.g. 20x15 (default: the --mask's size, else 20x15)")
    level.add_argument("--markers", type=markers_type, default="border", metavar="MODE",
                       help="border (default), farthest, random, none, or X1,Y1,X2,Y2 tiles")
    level.add_argument("--braid", type=fraction_type, default=None, metavar="P",
                       help="remove this fraction (0..1) of dead ends, making loops")
    level.add_argument("--corridor", type=count_type, default=None, metavar="N", help="passage width in tiles")
    level.add_argument("--wall", type=count_type, default=None, metavar="N", help="wall thickness in tiles")
    level.add_argument("--mask", default=None, metavar="FILE",
                       help="generate inside a shape: a picture (one pixel per cell, light = maze; "
                            "needs pygame) or a .txt of equal-length lines (' ' or '.' = outside)")
    rooms = parser.add_argument_group("rooms", "open rooms inside the maze")
    rooms.add_argument("--rooms", type=bounded_type(0, MAX_ROOMS), default=None, metavar="N",
                       help="N open rooms at random (sides 3..6 cells; -O room_size=[2,4] to change)")
    rooms.add_argument("--room", type=room_type, action="append", default=[], metavar="X,Y,W,H|FILE[@X,Y]",
                       help="a room (repeatable): a rectangle in cells, or a prefab text file "
                            "('#' wall, '.' floor, '+' possible door) at cell X,Y (default: at random)")
    rooms.add_argument("--doors", type=doors_type, default=None, metavar="D",
                       help="doors per room (an int, default 1) or the chance (0.0..1.0) each other place opens")
    level.add_argument("--weave", type=fraction_type, nargs="?", const=True, default=None, metavar="P",
                       help="passages crossing under others (square levels): every crossing that fits, or the "
                            "share P (0..1) of them; the bridges are a second layer in json, tmx and tmj")
    level.add_argument("-O", "--option", type=option_type, action="append", default=[], metavar="NAME=VALUE",
                       help="a generator option (repeatable), e.g. -O bias=northwest")
    dungeon = parser.add_argument_group("dungeon", "ALGORITHM dungeon: rooms laid out from a mission graph, --rooms N "
                                                   "of them (default 12), keys and locked doors where the mission says")
    dungeon.add_argument("--locks", type=bounded_type(0, MAX_LOCKS), default=None, metavar="N",
                         help="locked doors, each with its key (default 1)")
    dungeon.add_argument("--pattern", choices=PATTERNS, default=None, metavar="PATTERN",
                         help=f"the mission's cycles: {', '.join(PATTERNS)} (default mixed); a level code "
                              "dungeon-PATTERN-WxH-SEED+rROOMSkLOCKS as generate's --seed makes that dungeon")
    dungeon.add_argument("--shapes", type=shapes_type, default=None, metavar="SHAPES",
                         help=f"room shapes drawn from: mixed, or a comma-separated list of {', '.join(SHAPES)} "
                              "(default: rectangles)")
    dungeon.add_argument("--interior", default=None, metavar="ALGORITHM",
                         help="maze rooms: every room but the start, the goal and a boss's is a maze of ALGORITHM "
                              "(e.g. backtracker); --treasure N and --enemies N go in the rooms the mission marks")
    dungeon.add_argument("--drops", action="store_true", default=None,
                         help="carve the mission's one-way edges too, as drops walked one way only (a code's d: "
                              "dungeon-PATTERN-WxH-SEED+rROOMSkLOCKSd)")
    return parser


def shapes_type(text: str) -> Any:
    """``--shapes``: ``mixed`` or a comma-separated list of room shapes."""
    if text == "mixed":
        return text
    names = tuple(part.strip() for part in text.split(","))
    bad = [name for name in names if name not in SHAPES]
    if bad:
        raise argparse.ArgumentTypeError(f"{bad[0]!r} is not a room shape; give mixed or some of {', '.join(SHAPES)}")
    return names


def picture_options() -> argparse.ArgumentParser:
    """The parent parser of commands that write pictures: --tile, --solution."""
    parser = Parser(add_help=False)
    picture = parser.add_argument_group("pictures and maps")
    picture.add_argument("--tile", type=bounded_type(1, MAX_TILE_PIXELS), default=None, metavar="PIXELS",
                         help=f"pixels per tile for svg/png/tmx/tmj (defaults 10/8/16/16; at most {MAX_TILE_PIXELS})")
    picture.add_argument("--solution", action="store_true", help="draw the solution (svg, png)")
    return parser


# -- making levels ----------------------------------------------------------------


def level_kwargs(args: argparse.Namespace) -> Dict[str, Any]:
    """generate()'s keyword arguments from the shared level options (only those given).

    Reads the ``--mask`` file (once, for every level) and settles ``args.size``.
    """
    kwargs: Dict[str, Any] = dict(args.option)
    kwargs["markers"] = args.markers
    for name in ("braid", "corridor", "wall", "weave"):
        value = getattr(args, name, None)
        if value is not None:
            kwargs[name] = value
    if args.rooms is not None and args.room:
        raise Failure(2, "give --rooms N (random rooms) or --room (rooms you place), not both")
    if args.rooms is not None:
        kwargs["rooms"] = args.rooms
    elif args.room:
        kwargs["rooms"] = read_rooms(args.room)
    if args.doors is not None:
        kwargs["doors"] = args.doors
    if args.mask is not None:
        kwargs["mask"] = read_mask(args.mask)
        if args.size is None:
            rows, columns = parse_mask(kwargs["mask"]).shape
            args.size = (columns, rows)
    if args.size is None:
        args.size = (20, 15)
    return kwargs


DUNGEON_FLAGS = ("locks", "pattern", "shapes", "interior", "drops")
"""The options only a dungeon takes (``--treasure`` and ``--enemies`` go in the rooms its mission marks)."""


def dungeon_kwargs(args: argparse.Namespace, kwargs: Dict[str, Any]) -> None:
    """``--locks``, ``--pattern``, ``--shapes``, ``--interior`` and ``--drops`` into ``kwargs`` for ALGORITHM
    dungeon; a wrong combination is one line (status 2) naming the option (the options a command has not are not
    given)."""
    given = [f"--{name}" for name in DUNGEON_FLAGS if getattr(args, name, None) is not None]
    if args.algorithm != "dungeon":
        if given:
            raise Failure(2, f"{given[0]} is for dungeons (ALGORITHM dungeon), not {args.algorithm}")
        return
    shaped = [option for option, given in (
        ("--grid", getattr(args, "grid", "square") != "square"), ("--wrap", getattr(args, "wrap", None) is not None),
        ("--weave", args.weave is not None), ("--markers", args.markers != "border"),
        ("--braid", args.braid is not None), ("--corridor", args.corridor is not None),
        ("--wall", args.wall is not None), ("--mask", args.mask is not None), ("--room", bool(args.room)),
        ("--doors", args.doors is not None)) if given]
    if shaped:
        raise Failure(2, f"{shaped[0]}: a dungeon's shape, markers and rooms come from its mission; it takes --size, "
                         "--seed, --rooms, --locks and --pattern (and -O branching=, attempts=)")
    if kwargs.pop("keys", None):
        raise Failure(2, "--keys: a dungeon's keys and locked doors come from its mission; give --locks N")
    for name in DUNGEON_FLAGS:
        if getattr(args, name, None) is not None:
            kwargs[name] = getattr(args, name)


_DUNGEON_FLAGS = (
    (re.compile(r"\bwidth=(\d+), height=(\d+)"), r"--size \1x\2"),
    (re.compile(r"a larger width and height"), "a larger --size"),
    (re.compile(r"\b(rooms|locks|branching)=([^\s:;,)]+)"), r"--\1 \2"),
    (re.compile(r"\b(rooms|locks) must be\b"), r"--\1 must be"),
    (re.compile(r"\bpattern '([a-z-]+)'"), r"--pattern \1"),
    (re.compile(r"fewer rooms\b"), "fewer --rooms"),
)


def dungeon_flags(message: str) -> str:
    """A library error about a dungeon's arguments, its names (``rooms=8``, ``width=14, height=14``) as the
    command line's options (``--rooms 8``, ``--size 14x14``).

    >>> dungeon_flags("rooms=2 is too few for pattern 'hidden' with locks=1: at least 10")
    '--rooms 2 is too few for --pattern hidden with --locks 1: at least 10'
    >>> dungeon_flags("in width=9, height=9; give more space (a larger width and height) or fewer rooms")
    'in --size 9x9; give more space (a larger --size) or fewer --rooms'
    """
    for pattern, flag in _DUNGEON_FLAGS:
        message = pattern.sub(flag, message)
    return message


def read_mask(path: str) -> Any:
    """A ``--mask`` file: the equally long lines of a ``.txt``, else a picture.

    Every problem with the file (missing, unreadable, empty, ragged, no
    cells, not a picture) is a wrong argument: exit status 2 and one line.
    """
    from ..formats.files import read_limited

    try:
        if path.lower().endswith(".txt"):
            data = read_limited(path, MAX_MASK_FILE_BYTES, what="a mask")
            try:
                lines = data.decode("utf-8").splitlines()
            except UnicodeDecodeError as error:
                raise ValueError(f"not UTF-8 text ({error.reason} at byte {error.start})") from None
            while lines and not lines[-1].strip():
                lines.pop()
            if not lines:
                raise ValueError("the file has no lines: draw the shape with '#' (cells) and ' ' or '.' (outside)")
            _check_rows(lines)
            parse_mask(lines)  # no cells, too many cells: refused here, once
            return lines
        return parse_mask(path)
    except OSError as error:
        raise Failure(2, f"--mask {path}: cannot read it: {error.strerror or error}") from None
    except ImportError as error:
        raise Failure(1, f"--mask {path}: {error}") from None
    except (TypeError, ValueError) as error:
        message = str(error)
        if message.startswith(path + ": "):
            message = message[len(path) + 2:]
        raise Failure(2, f"--mask {path}: {message}") from None


def _check_rows(lines: List[str]) -> None:
    """Refuse a ragged mask (as :func:`mazeplugin.shaping.parse_mask` does), naming the first odd line.

    A short line is not padded: it may be a line where an editor trimmed the
    trailing spaces, or one missing cells by mistake, and only the author can
    tell; '.' marks outside cells that no editor trims.
    """
    first = len(lines[0])
    for number, line in enumerate(lines, 1):
        if len(line) != first:
            raise ValueError(
                f"line {number} has {len(line)} characters but line 1 has {first}: every line of a mask "
                "must be equally long (mark outside cells with '.', which editors do not trim as they do spaces)"
            )


def read_rooms(specs: List[Any]) -> List[Any]:
    """``--room`` values as ``generate(rooms=...)`` takes them (plain data, so a manifest can record them)."""
    from ..formats.files import read_limited

    rooms: List[Any] = []
    for spec in specs:
        if isinstance(spec, tuple):
            _, path, at = spec
            try:
                data = read_limited(path, MAX_PREFAB_FILE_BYTES, what="a prefab")
            except OSError as error:
                raise Failure(2, f"--room {path}: cannot read it: {error.strerror or error}") from None
            except ValueError as error:
                raise Failure(2, f"--room {path}: {error}") from None
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise Failure(2, f"--room {path}: not UTF-8 text") from None
            rooms.append({"prefab": text, "at": at})
        else:
            rooms.append(spec)
    return rooms


def make_level(args: argparse.Namespace, seed: Any, kwargs: Dict[str, Any]) -> Level:
    """Generate, turning a wrong argument into exit status 2."""
    from ..api import generate

    width, height = args.size
    try:
        level: Level = generate(args.algorithm, width, height, seed=seed, **kwargs)  # (square: a Level)
        return level
    except (TypeError, ValueError) as error:
        message = str(error)
        if args.algorithm == "dungeon":
            message = dungeon_flags(message)
        from ..dungeon.model import MissionError  # (the error of a seed whose dungeon does not fit)

        if isinstance(error, MissionError) and seed is not None:
            message = f"seed {seed}: {message}"
        raise Failure(2, message) from None


# -- writing levels ---------------------------------------------------------------


def check_solution(args: argparse.Namespace, fmt: str) -> None:
    """``--solution`` is drawn only in pictures."""
    if args.solution and fmt not in ("svg", "png"):
        raise Failure(2, f"--solution applies to svg and png, not {fmt}")


def as_text(level: Level, fmt: str, tile: Optional[int], solution: bool) -> str:
    """A level in one of the :data:`STDOUT_FORMATS`."""
    if fmt in STYLES:
        return level.to_text(fmt) + "\n"
    if fmt == "svg":
        return level.to_svg(cell=tile or DEFAULT_TILE["svg"], show_solution=solution)
    if fmt == "json":
        return level.to_json()
    raise AssertionError(fmt)  # pragma: no cover


def write_level(level: Level, fmt: str, path: str, tile: Optional[int], solution: bool) -> None:
    """Write ``level`` to ``path`` atomically in ``fmt``; exit status 1 when the file cannot be written."""
    from ..formats.files import write_text

    try:
        if fmt in STDOUT_FORMATS:
            write_text(path, as_text(level, fmt, tile, solution))
        elif fmt == "png":
            level.save(path, format="png", tile=tile or DEFAULT_TILE["png"], show_solution=solution)
        elif fmt == "tmx":
            level.save(path, format="tmx", tile=tile or DEFAULT_TILE["tmx"])
        elif fmt == "tmj":
            level.save(path, format="tmj", tile=tile or DEFAULT_TILE["tmj"])
        else:
            level.save(path, format="npy")
    except OSError as error:
        raise Failure(1, f"cannot write {path}: {error.strerror or error}") from None
    except ImportError as error:
        raise Failure(1, str(error)) from None
    except ValueError as error:  # e.g. --solution on a level without markers
        raise Failure(2, str(error)) from None


def is_terminal(stream: Any) -> bool:
    """Whether ``stream`` is a terminal (progress bars redraw one line there)."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


# Options whose value is a comma list of ints that may start with a minus sign.
NUMBER_LIST_OPTIONS = ("--window", "--markers", "--room")
"""Options that take ``--window -40,-40,40,40`` as well as ``--window=-40,-40,40,40``."""

_NEGATIVE_LIST = re.compile(r"\s*-\s*[0-9]+\s*(,\s*-?\s*[0-9]+\s*)+")


def join_number_lists(argv: List[str]) -> List[str]:
    """``[..., "--window", "-40,-40,40,40"]`` → ``[..., "--window=-40,-40,40,40"]``.

    argparse takes a value that starts with ``-`` (and is not a plain
    negative number) for an option and stops with "expected one argument";
    joined to its option with ``=`` it is read as the value. Only the
    :data:`NUMBER_LIST_OPTIONS` and only comma lists of ints are joined, and
    nothing after ``--``.

    >>> join_number_lists(["generate", "kruskal", "--window", "-4,-4,8,8", "--seed", "-x"])
    ['generate', 'kruskal', '--window=-4,-4,8,8', '--seed', '-x']
    """
    joined: List[str] = []
    index = 0
    while index < len(argv):
        token = argv[index]
        if token == "--":
            joined.extend(argv[index:])
            break
        following = argv[index + 1] if index + 1 < len(argv) else None
        if token in NUMBER_LIST_OPTIONS and following is not None and _NEGATIVE_LIST.fullmatch(following):
            joined.append(f"{token}={following}")
            index += 2
            continue
        joined.append(token)
        index += 1
    return joined
