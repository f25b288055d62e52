"""The ``mazeplugin`` command: generate levels, list generators, measure textures, build level packs.

::

    mazeplugin generate kruskal --size 20x15 --seed 7 [--markers farthest] [--braid 0.3]
                                [--format ascii|blocks|box|digits|svg|png|tmx|tmj|json|npy] [-o FILE]
    mazeplugin list
    mazeplugin stats kruskal --size 100x100 --seeds 20
    mazeplugin batch kruskal --size 32x32 --count 10000 --out DIR --format json [--jobs 0]

Also ``python -m mazeplugin``. Every command takes ``--help``. Wrong arguments
exit with status 2 and a one-line reason; a file that cannot be written exits
with 1. Files are written safely (:mod:`mazeplugin.formats.files`): a regular
file atomically (a temporary file, then a rename), so an interrupted run
leaves no half-written level; ``-o -`` and ``-o /dev/stdout`` print; a device
or FIFO is written through, never replaced. Counts are bounded
(:data:`mazeplugin.limits.MAX_COUNT`); ``batch`` and ``stats`` stream their
seeds and show progress; Ctrl-C stops ``batch`` after the levels being
written, leaving no temporary file.

>>> main(["generate", "backtracker", "--size", "3x2", "--seed", "castle"])
#######
S #   #
# # # #
#   # E
#######
0
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import signal
import sys
import tempfile
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import IO, Any, Dict, Iterator, List, NoReturn, Optional, Sequence, Set, Tuple

from . import __version__
from .api import generate
from .codes import parse_level_code, parse_size
from .difficulty import MAX_ATTEMPTS
from .formats.files import atomic_path, read_limited, write_text
from .level import Level
from .limits import MAX_COUNT, MAX_MASK_FILE_BYTES, MAX_TILE_PIXELS
from .registry import _REGISTRY, algorithms, get_generator
from .rooms import MAX_ROOMS
from .seeds import MAX_SEED
from .shaping import parse_mask
from .text import STYLES

MAX_PREFAB_FILE_BYTES = 1 << 20
"""Largest prefab text file ``--room`` reads (1 MiB)."""

__all__ = ["main", "FORMATS", "EXTENSIONS"]

FORMATS = STYLES + ("svg", "png", "tmx", "tmj", "json", "npy")
"""Every ``--format``: the text styles, then the file formats."""

EXTENSIONS = {".txt": "ascii", ".svg": "svg", ".png": "png", ".tmx": "tmx", ".tmj": "tmj", ".json": "json", ".npy": "npy"}
"""The format a file extension implies when ``--format`` is not given."""

_FILE_EXTENSION = {"ascii": ".txt", "blocks": ".txt", "box": ".txt", "digits": ".txt"}
_STDOUT_FORMATS = STYLES + ("svg", "json")  # text that can go to standard output
_DEFAULT_TILE = {"svg": 10, "png": 8, "tmx": 16, "tmj": 16}
_MANIFEST = "manifest.json"


class _Parser(argparse.ArgumentParser):
    """argparse, but a wrong argument is one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


class _Failure(Exception):
    """A run that cannot go on: ``(exit status, one-line message)``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(" ".join(message.split("\n")))  # the reason is one line
        self.status = status

    def __reduce__(self) -> Tuple[Any, ...]:  # batch workers send failures back to the main process
        return (_Failure, (self.status, str(self)))


# -- argument types ---------------------------------------------------------------


def _size(text: str) -> Tuple[int, int]:
    """``"20x15"`` (or ``"20"`` for a square) → ``(20, 15)``."""
    size = parse_size(text)
    if size is None or min(size) < 1:
        raise argparse.ArgumentTypeError(f"size must be WIDTHxHEIGHT in cells, like 20x15; got {text!r}")
    return size


def _window(text: str) -> Tuple[int, int, int, int]:
    """``"X0,Y0,X1,Y1"`` (ints, negative too) → a window of world tiles."""
    try:
        numbers = [int(p) for p in text.split(",")]
    except ValueError:
        numbers = []
    if len(numbers) != 4:
        raise argparse.ArgumentTypeError(f"window must be X0,Y0,X1,Y1 in tiles, like 0,0,65,65; got {text!r}")
    return numbers[0], numbers[1], numbers[2], numbers[3]


def _amount(text: str) -> int:
    """A count that may be 0 (``--keys``, ``--treasure``, ``--enemies``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 0, got {text!r}")
    return value


def _bounded(low: int, high: int) -> Any:
    """An argparse type: an int from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be an int from {low:,} to {high:,}, got {text!r}")
        return value

    return parse


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive int, got {text!r}")
    return value


def _natural(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be an int >= 0, got {text!r}")
    return value


def _seed(text: str) -> str:
    """``--seed``: an int >= 0 or text (a level code is settled later, when the generators are known)."""
    if re.fullmatch(r"\s*-\s*[0-9]+\s*", text):
        raise argparse.ArgumentTypeError(f"must be an int >= 0 or a text level code, got {text!r}")
    return text


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be a number from 0 to 1, got {text!r}")
    return value


def _option(text: str) -> Tuple[str, Any]:
    """``NAME=VALUE``; the value is read as JSON (numbers, true/false, lists) or else kept as text."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"generator options are NAME=VALUE, got {text!r}")
    try:
        parsed = json.loads(value)
    except ValueError:
        parsed = value
    return name.replace("-", "_"), parsed


def _room(text: str) -> Any:
    """``--room``: ``X,Y,W,H`` (a rectangle in cells) or ``FILE[@X,Y]`` (a prefab text file, read later)."""
    if re.fullmatch(r"\s*-?[0-9]+\s*(,\s*-?[0-9]+\s*){3}", text):
        return [int(v) for v in text.split(",")]
    path, at, where = text.rpartition("@") if re.search(r"@\s*-?[0-9]+\s*,\s*-?[0-9]+\s*$", text) else (text, "", "")
    if not path:
        raise argparse.ArgumentTypeError(f"a room is X,Y,W,H or FILE[@X,Y], got {text!r}")
    return ("prefab", path, [int(v) for v in where.split(",")] if at else None)


def _doors(text: str) -> Any:
    """``--doors``: a count (int) or a chance (a number with a point)."""
    try:
        return int(text) if re.fullmatch(r"\s*[0-9]+\s*", text) else float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a count or a chance from 0.0 to 1.0, got {text!r}") from None


def _read_rooms(specs: List[Any]) -> List[Any]:
    """``--room`` values as ``generate(rooms=...)`` takes them (plain data, so a manifest can record them)."""
    rooms: List[Any] = []
    for spec in specs:
        if isinstance(spec, tuple):
            _, path, at = spec
            try:
                data = read_limited(path, MAX_PREFAB_FILE_BYTES, what="a prefab")
            except OSError as error:
                raise _Failure(2, f"--room {path}: cannot read it: {error.strerror or error}") from None
            except ValueError as error:
                raise _Failure(2, f"--room {path}: {error}") from None
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise _Failure(2, f"--room {path}: not UTF-8 text") from None
            rooms.append({"prefab": text, "at": at})
        else:
            rooms.append(spec)
    return rooms


def _requirement(text: str) -> Tuple[str, Tuple[Any, Any]]:
    """``--require FIELD=LOW:HIGH``, either end empty for open: ``solution_length=120:``, ``dead_end_fraction=:0.12``."""
    name, sep, bounds = text.partition("=")
    low, colon, high = bounds.partition(":")
    if not sep or not name or not colon:
        raise argparse.ArgumentTypeError(
            f"requirements are FIELD=LOW:HIGH with either end empty, e.g. solution_length=120: ; got {text!r}"
        )
    ends = []
    for end in (low.strip(), high.strip()):
        try:
            ends.append(None if not end else int(end) if re.fullmatch(r"-?[0-9]+", end) else float(end))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r}: {end!r} is not a number") from None
    return name.strip(), (ends[0], ends[1])


def _markers(text: str) -> Any:
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


# -- the parser -------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The ``mazeplugin`` argument parser (one subparser per command)."""
    parser = _Parser(
        prog="mazeplugin",
        description="Seeded, reproducible maze levels: generate them, look at them, pack them.",
        epilog="Run 'mazeplugin COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"mazeplugin {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    level = _Parser(add_help=False)
    level.add_argument("algorithm", metavar="ALGORITHM", help="a generator name (see 'mazeplugin list')")
    level.add_argument("--size", type=_size, default=None, metavar="WxH",
                       help="size in cells, e.g. 20x15 (default: the --mask's size, else 20x15)")
    level.add_argument("--markers", type=_markers, default="border", metavar="MODE",
                       help="border (default), farthest, random, none, or X1,Y1,X2,Y2 tiles")
    level.add_argument("--braid", type=_fraction, default=None, metavar="P",
                       help="remove this fraction (0..1) of dead ends, making loops")
    level.add_argument("--corridor", type=_count, default=None, metavar="N", help="passage width in tiles")
    level.add_argument("--wall", type=_count, default=None, metavar="N", help="wall thickness in tiles")
    level.add_argument("--mask", default=None, metavar="FILE",
                       help="generate inside a shape: a picture (one pixel per cell, light = maze; "
                            "needs pygame) or a .txt of equal-length lines (' ' or '.' = outside)")
    level.add_argument("--rooms", type=_bounded(0, MAX_ROOMS), default=None, metavar="N",
                       help="N open rooms at random (sides 3..6 cells; -O room_size=[2,4] to change)")
    level.add_argument("--room", type=_room, action="append", default=[], metavar="X,Y,W,H|FILE[@X,Y]",
                       help="a room (repeatable): a rectangle in cells, or a prefab text file "
                            "('#' wall, '.' floor, '+' possible door) at cell X,Y (default: at random)")
    level.add_argument("--doors", type=_doors, default=None, metavar="D",
                       help="doors per room (an int, default 1) or the chance (0.0..1.0) each other place opens")
    level.add_argument("-O", "--option", type=_option, action="append", default=[], metavar="NAME=VALUE",
                       help="a generator option (repeatable), e.g. -O bias=northwest")

    picture = _Parser(add_help=False)
    picture.add_argument("--tile", type=_bounded(1, MAX_TILE_PIXELS), default=None, metavar="PIXELS",
                         help=f"pixels per tile for svg/png/tmx/tmj (defaults 10/8/16/16; at most {MAX_TILE_PIXELS})")
    picture.add_argument("--solution", action="store_true", help="draw the solution (svg, png)")

    gen = commands.add_parser(
        "generate", parents=[level, picture], help="generate one level",
        description="Generate one level and print it or write it to a file.",
    )
    gen.add_argument("--seed", type=_seed, default=None,
                     help="an int >= 0 or a text seed (default: a fresh one, printed on stderr); a level "
                          "code such as backtracker-16x11-2026 makes that level (its algorithm and size)")
    gen.add_argument("--require", type=_requirement, action="append", default=[], metavar="FIELD=LOW:HIGH",
                     help="a level whose stats() FIELD lies in LOW..HIGH (either end empty for open), e.g. "
                          "decision_points=20: ; repeatable; the level's own seed is printed on stderr")
    gen.add_argument("--attempts", type=_bounded(1, MAX_ATTEMPTS), default=None, metavar="N",
                     help=f"candidate levels --require may try (default 200, at most {MAX_ATTEMPTS:,})")
    gen.add_argument("--format", choices=FORMATS, default=None,
                     help="output format (default: from -o's extension, else ascii)")
    gen.add_argument("-o", "--output", default=None, metavar="FILE",
                     help="write here (atomically) instead of standard output; '-' is standard output")
    for name, what in (("keys", "locked doors, each with its key, on the way to the exit"),
                       ("treasure", "treasure in dead ends"),
                       ("enemies", "patrolling enemies")):
        gen.add_argument(f"--{name}", type=_amount, default=0, metavar="N", help=f"level content: N {what}")
    gen.add_argument("--world", action="store_true",
                     help="write a window of an endless world (mazeplugin.World) instead of a level")
    gen.add_argument("--window", type=_window, default=None, metavar="X0,Y0,X1,Y1",
                     help="with --world: the tiles [X0, X1) x [Y0, Y1), widened to whole cells "
                          "(default: chunk (0, 0)); write --window=-8,-8,40,40 when X0 is negative")
    gen.add_argument("--chunk", type=_size, default=None, metavar="WxH",
                     help="with --world: chunk size in cells (default 32x32)")
    gen.set_defaults(run=_generate)

    lst = commands.add_parser("list", help="the generators, one line each",
                              description="List the generators with a one-line description each.")
    lst.set_defaults(run=_list)

    stats = commands.add_parser(
        "stats", parents=[level], help="texture figures averaged over seeds",
        description="Dead-end fraction, longest path and solution length (and more), averaged over seeds.",
    )
    stats.add_argument("--seeds", type=_bounded(1, MAX_COUNT), default=20, metavar="N",
                       help=f"how many seeds (default 20, at most {MAX_COUNT:,})")
    stats.add_argument("--first-seed", type=_natural, default=0, metavar="S",
                       help="seeds are S, S+1, ... (default 0)")
    stats.add_argument("--json", action="store_true", help="print the figures as JSON")
    stats.add_argument("-q", "--quiet", action="store_true",
                       help="no progress bar (shown on a terminal, or for 1000 seeds or more)")
    stats.set_defaults(run=_stats)

    batch = commands.add_parser(
        "batch", parents=[level, picture], help="write a level pack with a manifest",
        description="Write COUNT levels (seeds S, S+1, ...) into DIR, with manifest.json listing them.",
    )
    batch.add_argument("--count", type=_bounded(1, MAX_COUNT), required=True, metavar="N",
                       help=f"how many levels (at most {MAX_COUNT:,})")
    batch.add_argument("--out", required=True, metavar="DIR", help="the folder to write (created if missing)")
    batch.add_argument("--format", choices=FORMATS, default="json", help="file format (default json)")
    batch.add_argument("--first-seed", type=_natural, default=0, metavar="S", help="the first seed (default 0)")
    batch.add_argument("-j", "--jobs", type=_bounded(0, 256), default=1, metavar="N",
                       help="worker processes; 0 = one per core (default 1)")
    batch.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    batch.set_defaults(run=_batch)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); the exit status."""
    # A command-line run owns its process: keep pygame's greeting out of piped output.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
        return status
    except _Failure as failure:
        if failure.status == 2:
            command = f"mazeplugin {args.command}"
            print(f"{command}: error: {failure} (see '{command} --help')", file=sys.stderr)
        else:
            print(f"mazeplugin: error: {failure}", file=sys.stderr)
        return failure.status
    except KeyboardInterrupt:
        print("mazeplugin: interrupted", file=sys.stderr)
        return 130


# -- commands ---------------------------------------------------------------------


def _level_kwargs(args: argparse.Namespace) -> Dict[str, Any]:
    """generate()'s keyword arguments from the shared level options (only those given).

    Reads the ``--mask`` file (once, for every level) and settles ``args.size``.
    """
    kwargs: Dict[str, Any] = dict(args.option)
    kwargs["markers"] = args.markers
    for name in ("braid", "corridor", "wall"):
        value = getattr(args, name)
        if value is not None:
            kwargs[name] = value
    if args.rooms is not None and args.room:
        raise _Failure(2, "give --rooms N (random rooms) or --room (rooms you place), not both")
    if args.rooms is not None:
        kwargs["rooms"] = args.rooms
    elif args.room:
        kwargs["rooms"] = _read_rooms(args.room)
    if args.doors is not None:
        kwargs["doors"] = args.doors
    if args.mask is not None:
        kwargs["mask"] = _read_mask(args.mask)
        if args.size is None:
            rows, columns = parse_mask(kwargs["mask"]).shape
            args.size = (columns, rows)
    if args.size is None:
        args.size = (20, 15)
    return kwargs


def _read_mask(path: str) -> Any:
    """A ``--mask`` file: the lines of a ``.txt`` (short lines padded with outside cells), else a picture.

    Every problem with the file (missing, unreadable, empty, no cells, not a
    picture) is a wrong argument: exit status 2 and one line.
    """
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
            # Editors trim trailing spaces: a short line ends in outside cells.
            width = max(len(line) for line in lines)
            lines = [line.ljust(width) for line in lines]
            parse_mask(lines)  # no cells, too many cells: refused here, once
            return lines
        return parse_mask(path)
    except OSError as error:
        raise _Failure(2, f"--mask {path}: cannot read it: {error.strerror or error}") from None
    except ImportError as error:
        raise _Failure(1, f"--mask {path}: {error}") from None
    except (TypeError, ValueError) as error:
        message = str(error)
        if message.startswith(path + ": "):
            message = message[len(path) + 2:]
        raise _Failure(2, f"--mask {path}: {message}") from None


def _make(args: argparse.Namespace, seed: Any, kwargs: Dict[str, Any]) -> Level:
    """Generate, turning a wrong argument into exit status 2."""
    width, height = args.size
    try:
        return generate(args.algorithm, width, height, seed=seed, **kwargs)
    except (TypeError, ValueError) as error:
        raise _Failure(2, str(error)) from None


def _generate(args: argparse.Namespace) -> int:
    fmt = args.format
    to_stdout = args.output in (None, "-")
    output = None if to_stdout else args.output
    if fmt is None:
        if output is None:
            fmt = "ascii"
        else:
            fmt = EXTENSIONS.get(os.path.splitext(output)[1].lower())
            if fmt is None:
                raise _Failure(2, f"cannot tell the format from {output!r}; give --format ({', '.join(FORMATS)})")
    if args.output is None and fmt not in _STDOUT_FORMATS:
        raise _Failure(2, f"--format {fmt} writes a file: give -o FILE (or -o - for standard output)")
    if to_stdout and fmt in ("tmx", "tmj"):
        raise _Failure(2, f"--format {fmt} writes a map and its tileset image beside it: give -o FILE")
    _check_solution(args, fmt)
    seed = _settle_code(args)
    _check_world(args)
    kwargs = _level_kwargs(args)
    for name in ("keys", "treasure", "enemies"):
        if getattr(args, name):
            kwargs[name] = getattr(args, name)
    if args.attempts is not None and not args.require:
        raise _Failure(2, "--attempts counts --require's candidates: give --require too "
                          "(a generator's own attempts option is -O attempts=N)")
    if args.require:
        kwargs["require"] = dict(args.require)
        if args.attempts is not None:
            kwargs["attempts"] = args.attempts
    level = _world_window(args, seed, kwargs) if args.world else _make(args, seed, kwargs)
    if to_stdout and fmt in _STDOUT_FORMATS:
        try:
            text = _as_text(level, fmt, args.tile, args.solution)
        except ValueError as error:  # e.g. --solution on a level without markers
            raise _Failure(2, str(error)) from None
        sys.stdout.write(text)
        sys.stdout.flush()
    elif output is None:
        _print_binary(level, fmt, args.tile, args.solution)
    else:
        _write(level, fmt, output, args.tile, args.solution)
    if args.seed is None or args.require:  # a fresh or derived seed: say which, so the level can be made again
        print(f"mazeplugin: seed {level.seed}", file=sys.stderr)
    return 0


def _check_world(args: argparse.Namespace) -> None:
    """``--world`` takes ``--window`` and ``--chunk`` instead of ``--size``, markers and ``--require``."""
    if not args.world:
        for name in ("window", "chunk"):
            if getattr(args, name) is not None:
                raise _Failure(2, f"--{name} is for --world: give --world too")
        return
    if args.size is not None:
        raise _Failure(2, "--size is a level's size; a world goes on forever: give --chunk WxH and --window X0,Y0,X1,Y1")
    if args.require:
        raise _Failure(2, "--require picks among levels; a world window is what its seed makes")
    if args.markers == "border":  # the default: a world has no entrance or exit
        args.markers = "none"


def _world_window(args: argparse.Namespace, seed: Any, kwargs: Dict[str, Any]) -> Level:
    """``--world``: the ``--window`` of an endless world as a level (the World checks every argument)."""
    from .world import World

    chunk = args.chunk or (32, 32)
    try:
        world = World(args.algorithm, seed=seed, chunk=chunk, **kwargs)
        window = args.window or world.cell_window(*world.chunk_rect((0, 0))[:2], *world.chunk_span)
        return world.level(*window)
    except (TypeError, ValueError) as error:
        raise _Failure(2, str(error)) from None


def _settle_code(args: argparse.Namespace) -> Any:
    """``--seed``: a level code of a known generator makes that level (its algorithm and size), with a note."""
    if args.seed is None:
        return None
    try:
        code = parse_level_code(args.seed)
    except ValueError:
        return args.seed
    algorithm, width, height, seed = code
    algorithms()  # load plugins, so a plugin's codes are codes too
    if algorithm not in _REGISTRY:
        return args.seed  # just text that looks like a code
    ignored = []
    if args.algorithm != algorithm:
        ignored.append(f"ALGORITHM {args.algorithm}")
    if args.size is not None and tuple(args.size) != (width, height):
        ignored.append(f"--size {args.size[0]}x{args.size[1]}")
    if ignored:
        print(
            f"mazeplugin: note: --seed {args.seed.strip()} is a level code: making {algorithm} "
            f"{width}x{height} with seed {seed} ({' and '.join(ignored)} ignored)",
            file=sys.stderr,
        )
    args.algorithm, args.size = algorithm, (width, height)
    for name, value in code.content.items():  # +k2t5e3: the code's content, unless given as options
        if hasattr(args, name) and not getattr(args, name):
            setattr(args, name, value)
    return seed


def _print_binary(level: Level, fmt: str, tile: Optional[int], solution: bool) -> None:
    """``-o -`` for a binary format: write the file in a temporary folder, then copy its bytes to standard output."""
    with tempfile.TemporaryDirectory(prefix="mazeplugin-") as folder:
        path = os.path.join(folder, "level." + fmt)
        _write(level, fmt, path, tile, solution)
        with open(path, "rb") as f:
            data = f.read()
    sys.stdout.flush()
    out = getattr(sys.stdout, "buffer", None)
    if out is None:  # pragma: no cover - a text-only stdout replacement
        raise _Failure(2, f"--format {fmt} is binary and standard output takes only text here: give -o FILE")
    out.write(data)
    out.flush()


def _check_solution(args: argparse.Namespace, fmt: str) -> None:
    if args.solution and fmt not in ("svg", "png"):
        raise _Failure(2, f"--solution applies to svg and png, not {fmt}")


def _as_text(level: Level, fmt: str, tile: Optional[int], solution: bool) -> str:
    if fmt in STYLES:
        return level.to_text(fmt) + "\n"
    if fmt == "svg":
        return level.to_svg(cell=tile or _DEFAULT_TILE["svg"], show_solution=solution)
    if fmt == "json":
        return level.to_json()
    raise AssertionError(fmt)  # pragma: no cover


def _write(level: Level, fmt: str, path: str, tile: Optional[int], solution: bool) -> None:
    """Write ``level`` to ``path`` atomically in ``fmt``; exit status 1 when the file cannot be written."""
    try:
        if fmt in _STDOUT_FORMATS:
            write_text(path, _as_text(level, fmt, tile, solution))
        elif fmt == "png":
            level.save_png(path, tile=tile or _DEFAULT_TILE["png"], show_solution=solution)
        elif fmt == "tmx":
            level.save_tmx(path, tile=tile or _DEFAULT_TILE["tmx"])
        elif fmt == "tmj":
            level.save_tmj(path, tile=tile or _DEFAULT_TILE["tmj"])
        else:
            level.save_npy(path)
    except OSError as error:
        raise _Failure(1, f"cannot write {path}: {error.strerror or error}") from None
    except ImportError as error:
        raise _Failure(1, str(error)) from None
    except ValueError as error:  # e.g. --solution on a level without markers
        raise _Failure(2, str(error)) from None


def _list(args: argparse.Namespace) -> int:
    names = algorithms()
    width = max(map(len, names), default=0)
    for name in names:
        print(f"{name:<{width}}  {get_generator(name).description}")
    return 0


_FIGURES = (
    ("dead_end_fraction", "dead-end fraction"),
    ("longest_path", "longest path (cells)"),
    ("solution_length", "solution length (cells)"),
    ("dead_ends", "dead ends"),
    ("junctions", "junctions"),
    ("loops", "loops"),
    ("decision_points", "decision points"),
    ("detour_ratio", "detour ratio"),
    ("turns", "turns on the solution"),
)


def _stats(args: argparse.Namespace) -> int:
    kwargs = _level_kwargs(args)
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    # Running totals: memory stays the same however many seeds are measured.
    totals: Dict[str, List[float]] = {key: [0.0, 0, float("inf"), float("-inf")] for key, _ in _FIGURES}
    show = not args.quiet and (_is_terminal(sys.stderr) or len(seeds) >= 1000)
    progress = Progress(len(seeds), label="stats", enabled=show)
    try:
        for seed in seeds:
            stats = _make(args, seed, kwargs).stats()
            for key, _ in _FIGURES:
                value = getattr(stats, key)
                if value is not None:
                    total = totals[key]
                    total[0] += float(value)
                    total[1] += 1
                    total[2] = min(total[2], float(value))
                    total[3] = max(total[3], float(value))
            progress.advance()
    finally:
        progress.close()
    summary = {
        key: {"mean": t[0] / t[1], "min": t[2], "max": t[3]} if t[1] else None
        for key, t in totals.items()
    }
    width, height = args.size
    if args.json:
        print(json.dumps({"generator": args.algorithm, "width": width, "height": height,
                          "seeds": [seeds.start, seeds.stop - 1], "figures": summary}, indent=1))
        return 0
    print(f"{args.algorithm} {width}x{height}, {len(seeds)} seeds ({seeds.start}..{seeds.stop - 1})")
    print(f"{'':26}{'mean':>10}{'min':>10}{'max':>10}")
    for key, label in _FIGURES:
        s = summary[key]
        if s is None:
            print(f"{label:26}{'-':>10}")
        else:
            cells = [f"{s[k]:10.3f}" if key in ("dead_end_fraction", "detour_ratio") else f"{s[k]:10.1f}"
                     for k in ("mean", "min", "max")]
            print(f"{label:26}{''.join(cells)}")
    return 0


def _is_terminal(stream: Any) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


# -- batch ------------------------------------------------------------------------


def _level_file(algorithm: str, size: Tuple[int, int], seed: int, digits: int, fmt: str) -> str:
    extension = _FILE_EXTENSION.get(fmt, "." + fmt)
    return f"{algorithm}-{size[0]}x{size[1]}-{seed:0{digits}d}{extension}"


# Set when the batch should stop after the levels being written (Ctrl-C). In a worker
# process it is the shared event its initializer received; in the main process, a local one.
_stop: Any = threading.Event()


def _worker_start(stop: Any) -> None:
    """Batch worker initializer: Ctrl-C is the main process's to handle; stop when it says so."""
    global _stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _stop = stop


def _batch_chunk(task: Tuple[argparse.Namespace, Dict[str, Any], int, int, int]) -> int:
    """Generate and write the levels of seeds ``start..stop-1``; how many were written.

    Checks for a stop request between levels, so a level is always either
    written whole or not started.
    """
    args, kwargs, start, stop, digits = task
    written = 0
    for seed in range(start, stop):
        if _stop.is_set():
            break
        level = _make(args, seed, kwargs)
        name = _level_file(args.algorithm, args.size, seed, digits, args.format)
        _write(level, args.format, os.path.join(args.out, name), args.tile, args.solution)
        written += 1
    return written


@contextmanager
def _ctrl_c_stops(stop: Any) -> Iterator[None]:
    """While running: the first Ctrl-C (SIGINT) sets ``stop`` instead of raising; a second one raises.

    Only in the main thread (where Python delivers signals); elsewhere nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _batch(args: argparse.Namespace) -> int:
    global _stop
    kwargs = _level_kwargs(args)
    first, count = args.first_seed, args.count
    if first + count - 1 > MAX_SEED:
        raise _Failure(2, f"--first-seed {first} + --count {count} goes past the largest seed, 2**128 - 1")
    digits = len(str(first + count - 1))
    jobs = args.jobs or os.cpu_count() or 1
    _check_solution(args, args.format)
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as error:
        raise _Failure(1, f"cannot create {args.out}: {error.strerror or error}") from None
    context = multiprocessing.get_context()
    _stop = stop = context.Event() if jobs > 1 and count > 2 else threading.Event()
    progress = Progress(count, label="batch", enabled=not args.quiet)
    try:
        with _ctrl_c_stops(stop):
            # The first level is made here, so a wrong argument stops the run before any work is shared out.
            progress.advance(_batch_chunk((args, kwargs, first, first + 1, digits)))
            # Chunks of seeds: few enough to keep process overhead small, many enough to balance the cores.
            rest = count - 1
            chunk = max(1, min(256, rest // (jobs * 8) or 1))
            tasks = ((args, kwargs, s, min(s + chunk, first + count), digits)
                     for s in range(first + 1, first + count, chunk))
            if jobs == 1 or rest <= chunk:
                for task in tasks:
                    if stop.is_set():
                        break
                    progress.advance(_batch_chunk(task))
            else:
                _run_parallel(tasks, jobs, stop, context, progress)
    finally:
        progress.close()
        _stop = threading.Event()
    if stop.is_set():
        print(f"mazeplugin: interrupted: wrote {progress.done} of {count} levels whole, no manifest",
              file=sys.stderr)
        return 130
    try:
        _write_manifest(args, kwargs, first, count, digits)
    except OSError as error:
        raise _Failure(1, f"cannot write the manifest: {error.strerror or error}") from None
    if not args.quiet:
        print(f"wrote {count} levels and {_MANIFEST} to {args.out}", file=sys.stderr)
    return 0


def _run_parallel(tasks: Iterator[Any], jobs: int, stop: Any, context: Any, progress: "Progress") -> None:
    """Share ``tasks`` out to ``jobs`` worker processes, a few at a time (never all at once)."""
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                             initializer=_worker_start, initargs=(stop,)) as pool:
        pending: Set[Future[int]] = set()
        try:
            for task in tasks:
                if stop.is_set():
                    break
                pending.add(pool.submit(_batch_chunk, task))
                if len(pending) >= 2 * jobs:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        progress.advance(future.result())
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    progress.advance(future.result())
        except BaseException:
            stop.set()  # the workers finish the level they are on, then return
            for future in pending:
                future.cancel()
            raise


def _write_manifest(args: argparse.Namespace, kwargs: Dict[str, Any], first: int, count: int, digits: int) -> None:
    """Write ``manifest.json`` entry by entry (a million levels never sit in memory at once)."""
    head = {
        "format": "mazeplugin.manifest",
        "version": 1,
        "generator": args.algorithm,
        "width": args.size[0],
        "height": args.size[1],
        "options": dict(kwargs, mask=args.mask) if args.mask is not None else kwargs,
        "file_format": args.format,
        "count": count,
    }
    text = json.dumps(head, indent=1)
    with atomic_path(os.path.join(args.out, _MANIFEST)) as temporary:
        with open(temporary, "w", encoding="utf-8", newline="\n") as f:
            f.write(text[:-2] + ',\n "levels": [')
            for seed in range(first, first + count):
                name = _level_file(args.algorithm, args.size, seed, digits, args.format)
                f.write(("\n" if seed == first else ",\n") + "  " + json.dumps({"seed": seed, "file": name}))
            f.write("\n ]\n}\n")


class Progress:
    """A plain-text progress bar on a stream (stderr by default).

    On a terminal it redraws one line (at most ten times a second); anywhere
    else it prints a line at every tenth of the way, so logs stay short.

    >>> import io
    >>> out = io.StringIO()
    >>> bar = Progress(4, label="demo", stream=out, width=8)
    >>> bar.advance(2); bar.advance(2); bar.close()
    >>> print(out.getvalue().strip().splitlines()[-1])
    demo [########] 4/4 100%
    """

    def __init__(self, total: int, *, label: str = "", stream: Optional[IO[str]] = None,
                 enabled: bool = True, width: int = 30) -> None:
        self.total, self.label, self.width = total, label, width
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.done = 0
        self.started = time.monotonic()
        self._drawn_at = 0.0
        self._tenths = 0
        isatty = getattr(self.stream, "isatty", None)
        self.interactive = bool(isatty and isatty())

    def advance(self, count: int = 1) -> None:
        """Count ``count`` more items done and redraw when due."""
        self.done += count
        if not self.enabled:
            return
        if self.interactive:
            now = time.monotonic()
            if now - self._drawn_at >= 0.1 or self.done >= self.total:
                self._drawn_at = now
                self.stream.write("\r" + self._line())
                self.stream.flush()
        else:
            tenths = self.done * 10 // max(self.total, 1)
            if tenths > self._tenths:
                self._tenths = tenths
                self.stream.write(self._line() + "\n")
                self.stream.flush()

    def _line(self) -> str:
        filled = self.width * self.done // max(self.total, 1)
        bar = "#" * filled + "-" * (self.width - filled)
        percent = 100 * self.done // max(self.total, 1)
        elapsed = time.monotonic() - self.started
        rate = f"  {self.done / elapsed:,.0f}/s" if self.interactive and elapsed > 0 else ""
        return f"{self.label} [{bar}] {self.done}/{self.total} {percent}%{rate}".lstrip()

    def close(self) -> None:
        """End the bar's line (on a terminal)."""
        if self.enabled and self.interactive:
            self.stream.write("\n")
            self.stream.flush()
