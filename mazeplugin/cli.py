"""The ``mazeplugin`` command: generate levels, list generators, measure textures, build level packs.

::

    mazeplugin generate kruskal --size 20x15 --seed 7 [--markers farthest] [--braid 0.3]
                                [--format ascii|blocks|box|digits|svg|png|tmx|tmj|json|npy] [-o FILE]
    mazeplugin list
    mazeplugin stats kruskal --size 100x100 --seeds 20
    mazeplugin batch kruskal --size 32x32 --count 10000 --out DIR --format json [--jobs 0]

Also ``python -m mazeplugin``. Every command takes ``--help``. Wrong arguments
exit with status 2 and a one-line reason; a file that cannot be written exits
with 1. Files are written atomically (a temporary file, then a rename), so an
interrupted run leaves no half-written level.

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
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import IO, Any, Dict, List, NoReturn, Optional, Sequence, Tuple

from . import __version__
from .api import MAX_CELLS, generate
from .formats.files import write_text
from .level import Level
from .registry import algorithms, get_generator
from .shaping import parse_mask
from .text import STYLES

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

    def __reduce__(self) -> tuple:  # batch workers send failures back to the main process
        return (_Failure, (self.status, str(self)))


# -- argument types ---------------------------------------------------------------


def _size(text: str) -> Tuple[int, int]:
    """``"20x15"`` (or ``"20"`` for a square) → ``(20, 15)``."""
    parts = text.lower().split("x")
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        numbers = []
    if len(numbers) == 1:
        numbers *= 2
    if len(numbers) != 2 or min(numbers) < 1:
        raise argparse.ArgumentTypeError(f"size must be WIDTHxHEIGHT in cells, like 20x15; got {text!r}")
    return numbers[0], numbers[1]


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
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be an int >= 0, got {text!r}")
    return value


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
    level.add_argument("-O", "--option", type=_option, action="append", default=[], metavar="NAME=VALUE",
                       help="a generator option (repeatable), e.g. -O bias=northwest")

    picture = _Parser(add_help=False)
    picture.add_argument("--tile", type=_count, default=None, metavar="PIXELS",
                         help="pixels per tile for svg/png/tmx/tmj (defaults 10/8/16/16)")
    picture.add_argument("--solution", action="store_true", help="draw the solution (svg, png)")

    gen = commands.add_parser(
        "generate", parents=[level, picture], help="generate one level",
        description="Generate one level and print it or write it to a file.",
    )
    gen.add_argument("--seed", default=None,
                     help="an int >= 0 or a text level code (default: a fresh one, printed on stderr)")
    gen.add_argument("--format", choices=FORMATS, default=None,
                     help="output format (default: from -o's extension, else ascii)")
    gen.add_argument("-o", "--output", default=None, metavar="FILE",
                     help="write here (atomically) instead of standard output")
    gen.set_defaults(run=_generate)

    lst = commands.add_parser("list", help="the generators, one line each",
                              description="List the generators with a one-line description each.")
    lst.set_defaults(run=_list)

    stats = commands.add_parser(
        "stats", parents=[level], help="texture figures averaged over seeds",
        description="Dead-end fraction, longest path and solution length (and more), averaged over seeds.",
    )
    stats.add_argument("--seeds", type=_count, default=20, metavar="N", help="how many seeds (default 20)")
    stats.add_argument("--first-seed", type=_natural, default=0, metavar="S",
                       help="seeds are S, S+1, ... (default 0)")
    stats.add_argument("--json", action="store_true", help="print the figures as JSON")
    stats.set_defaults(run=_stats)

    batch = commands.add_parser(
        "batch", parents=[level, picture], help="write a level pack with a manifest",
        description="Write COUNT levels (seeds S, S+1, ...) into DIR, with manifest.json listing them.",
    )
    batch.add_argument("--count", type=_count, required=True, metavar="N", help="how many levels")
    batch.add_argument("--out", required=True, metavar="DIR", help="the folder to write (created if missing)")
    batch.add_argument("--format", choices=FORMATS, default="json", help="file format (default json)")
    batch.add_argument("--first-seed", type=_natural, default=0, metavar="S", help="the first seed (default 0)")
    batch.add_argument("-j", "--jobs", type=_natural, default=1, metavar="N",
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
        return args.run(args)
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
    if args.mask is not None:
        kwargs["mask"] = _read_mask(args.mask)
        if args.size is None:
            rows, columns = parse_mask(kwargs["mask"]).shape
            args.size = (columns, rows)
    if args.size is None:
        args.size = (20, 15)
    return kwargs


def _read_mask(path: str) -> Any:
    """A ``--mask`` file: the lines of a ``.txt``, else the cells of a picture."""
    try:
        if path.lower().endswith(".txt"):
            if os.path.getsize(path) > 8 * MAX_CELLS:
                raise _Failure(2, f"{path} is too large for a mask of at most {MAX_CELLS:,} cells")
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
            while lines and not lines[-1]:
                lines.pop()
            return lines
        return parse_mask(path)
    except OSError as error:
        raise _Failure(1, f"cannot read {path}: {error.strerror or error}") from None
    except ImportError as error:
        raise _Failure(1, f"{path}: {error}") from None
    except (TypeError, ValueError) as error:
        raise _Failure(2, f"--mask {path}: {error}") from None


def _make(args: argparse.Namespace, seed: Any, kwargs: Dict[str, Any]) -> Level:
    """Generate, turning a wrong argument into exit status 2."""
    width, height = args.size
    try:
        return generate(args.algorithm, width, height, seed=seed, **kwargs)
    except (TypeError, ValueError) as error:
        raise _Failure(2, str(error)) from None


def _generate(args: argparse.Namespace) -> int:
    fmt = args.format
    output = None if args.output in (None, "-") else args.output
    if fmt is None:
        if output is None:
            fmt = "ascii"
        else:
            fmt = EXTENSIONS.get(os.path.splitext(output)[1].lower())
            if fmt is None:
                raise _Failure(2, f"cannot tell the format from {output!r}; give --format ({', '.join(FORMATS)})")
    if output is None and fmt not in _STDOUT_FORMATS:
        raise _Failure(2, f"--format {fmt} writes a file: give -o FILE")
    _check_solution(args, fmt)
    level = _make(args, args.seed, _level_kwargs(args))
    if output is None:
        try:
            text = _as_text(level, fmt, args.tile, args.solution)
        except ValueError as error:  # e.g. --solution on a level without markers
            raise _Failure(2, str(error)) from None
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        _write(level, fmt, output, args.tile, args.solution)
    if args.seed is None:  # a fresh seed: say which, so the level can be made again
        print(f"mazeplugin: seed {level.seed}", file=sys.stderr)
    return 0


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
    values: Dict[str, List[float]] = {key: [] for key, _ in _FIGURES}
    for seed in seeds:
        stats = _make(args, seed, kwargs).stats()
        for key, _ in _FIGURES:
            value = getattr(stats, key)
            if value is not None:
                values[key].append(float(value))
    summary = {
        key: {"mean": sum(v) / len(v), "min": min(v), "max": max(v)} if v else None
        for key, v in values.items()
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


# -- batch ------------------------------------------------------------------------


def _level_file(algorithm: str, size: Tuple[int, int], seed: int, digits: int, fmt: str) -> str:
    extension = _FILE_EXTENSION.get(fmt, "." + fmt)
    return f"{algorithm}-{size[0]}x{size[1]}-{seed:0{digits}d}{extension}"


def _batch_chunk(task: Tuple[argparse.Namespace, Dict[str, Any], List[int], int]) -> int:
    """Worker: generate and write the levels of ``seeds``; how many were written."""
    args, kwargs, seeds, digits = task
    for seed in seeds:
        level = _make(args, seed, kwargs)
        name = _level_file(args.algorithm, args.size, seed, digits, args.format)
        _write(level, args.format, os.path.join(args.out, name), args.tile, args.solution)
    return len(seeds)


def _batch(args: argparse.Namespace) -> int:
    kwargs = _level_kwargs(args)
    seeds = list(range(args.first_seed, args.first_seed + args.count))
    digits = len(str(seeds[-1]))
    jobs = args.jobs or os.cpu_count() or 1
    _check_solution(args, args.format)
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as error:
        raise _Failure(1, f"cannot create {args.out}: {error.strerror or error}") from None
    progress = Progress(len(seeds), label="batch", enabled=not args.quiet)
    try:
        # The first level is made here, so a wrong argument stops the run before any work is shared out.
        progress.advance(_batch_chunk((args, kwargs, seeds[:1], digits)))
        rest = seeds[1:]
        # Chunks of seeds: few enough to keep process overhead small, many enough to balance the cores.
        chunk = max(1, min(256, len(rest) // (jobs * 8) or 1))
        tasks = [(args, kwargs, rest[i:i + chunk], digits) for i in range(0, len(rest), chunk)]
        if jobs == 1 or len(tasks) <= 1:
            for task in tasks:
                progress.advance(_batch_chunk(task))
        else:
            with ProcessPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
                pending = {pool.submit(_batch_chunk, task) for task in tasks}
                try:
                    while pending:
                        done, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for future in done:
                            progress.advance(future.result())
                except BaseException:
                    for future in pending:
                        future.cancel()
                    raise
    finally:
        progress.close()
    manifest = {
        "format": "mazeplugin.manifest",
        "version": 1,
        "generator": args.algorithm,
        "width": args.size[0],
        "height": args.size[1],
        "options": dict(kwargs, mask=args.mask) if args.mask is not None else kwargs,
        "file_format": args.format,
        "count": len(seeds),
        "levels": [
            {"seed": seed, "file": _level_file(args.algorithm, args.size, seed, digits, args.format)}
            for seed in seeds
        ],
    }
    try:
        write_text(os.path.join(args.out, _MANIFEST), json.dumps(manifest, indent=1) + "\n")
    except OSError as error:
        raise _Failure(1, f"cannot write the manifest: {error.strerror or error}") from None
    if not args.quiet:
        print(f"wrote {len(seeds)} levels and {_MANIFEST} to {args.out}", file=sys.stderr)
    return 0


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
