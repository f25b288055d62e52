"""``mazeplugin generate``: make one level and print it or write it to a file.

A level code as ``--seed`` makes that level:

>>> from mazeplugin.cli import main
>>> main(["generate", "backtracker", "--seed", "backtracker-3x2-castle"])
#######
S #   #
# # # #
#   # E
#######
0"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from typing import Any, Dict, Optional, Tuple

from ..codes import looks_like_level_code, parse_level_code
from ..difficulty import MAX_ATTEMPTS
from ..dungeon.grammar import PATTERNS
from ..level import Level
from ..registry import algorithms
from ..seeds import MAX_SEED_CHARS
from .common import (
    EXTENSIONS,
    FORMATS,
    STDOUT_FORMATS,
    Failure,
    as_text,
    bounded_type,
    dungeon_kwargs,
    check_solution,
    level_kwargs,
    level_options,
    make_level,
    picture_options,
    write_level,
)
from .world import add_world_options, check_world, world_window

__all__ = ["add_parser", "run", "seed_type", "amount_type", "requirement_type", "settle_code"]


def seed_type(text: str) -> str:
    """``--seed``: an int >= 0 or text (a level code is settled later, when the generators are known)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"must be an int >= 0, a text seed or a level code, not empty text ({text!r})")
    if re.fullmatch(r"\s*-\s*[0-9]+\s*", text):
        raise argparse.ArgumentTypeError(f"must be an int >= 0 or a text level code, got {text!r}")
    return text


amount_type = bounded_type(0, allowed="a whole number >= 0")
"""A count that may be 0 (``--keys``, ``--treasure``, ``--enemies``)."""


def requirement_type(text: str) -> Tuple[str, Tuple[Any, Any]]:
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


def add_parser(commands: Any) -> None:
    """Add ``generate`` to the subcommands."""
    gen = commands.add_parser(
        "generate", parents=[level_options(), picture_options()], help="generate one level",
        description="Generate one level and print it or write it to a file.",
    )
    seeds = gen.add_argument_group("seed and difficulty")
    seeds.add_argument("--seed", type=seed_type, default=None,
                     help="an int >= 0 or a text seed (default: a fresh one, printed on stderr); a level "
                          "code such as backtracker-16x11-2026 makes that level (its algorithm and size)")
    seeds.add_argument("--require", type=requirement_type, action="append", default=[], metavar="FIELD=LOW:HIGH",
                     help="a level whose stats() FIELD lies in LOW..HIGH (either end empty for open), e.g. "
                          "decision_points=20: ; repeatable; the level's own seed is printed on stderr")
    seeds.add_argument("--attempts", type=bounded_type(1, MAX_ATTEMPTS), default=None, metavar="N",
                     help=f"candidate levels --require may try (default 200, at most {MAX_ATTEMPTS:,})")
    output = gen.add_argument_group("output")
    output.add_argument("--format", choices=FORMATS, default=None,
                     help="output format (default: from -o's extension, else ascii)")
    output.add_argument("-o", "--output", default=None, metavar="FILE",
                     help="write here (atomically) instead of standard output; '-' is standard output")
    content = gen.add_argument_group("content", "things in a square level, placed so it stays solvable")
    for name, what in (("keys", "locked doors, each with its key, on the way to the exit"),
                       ("treasure", "treasure in dead ends"),
                       ("enemies", "patrolling enemies")):
        content.add_argument(f"--{name}", type=amount_type, default=0, metavar="N", help=f"level content: N {what}")
    grid = gen.add_argument_group("grid", "other grids than square tilemaps")
    grid.add_argument("--grid", choices=GRIDS, default="square",
                     help="the grid: square tilemaps (default), or hex, triangle and polar mazes (for polar, "
                          "--size WxH is the innermost ring's cells x the rings); hex writes text, svg, png, json "
                          "and tmx/tmj (a Tiled hexagonal map), triangle and polar svg, png and json")
    grid.add_argument("--wrap", choices=WRAPS, default=None,
                     help="a square level whose passages wrap around: x (a cylinder), y, or xy (a torus); "
                          "writes text, svg, png and json")
    add_world_options(gen.add_argument_group("world", "a window of an endless world instead of a level"))
    gen.set_defaults(run=run)


GRIDS = ("square", "hex", "triangle", "polar")
WRAPS = ("x", "y", "xy")
GRID_FORMATS: Dict[str, Tuple[str, ...]] = {"hex": ("ascii", "svg", "png", "json", "tmx", "tmj"), "triangle": ("svg", "png", "json"),
                "polar": ("svg", "png", "json"), "wrap": ("ascii", "svg", "png", "json")}
"""The formats a level on another grid (or a wrap-around level) can be written in."""


def _grid_level(args: argparse.Namespace, fmt: str, output: Optional[str], seed: Any, kwargs: Dict[str, Any]) -> int:
    """``--grid hex|triangle|polar`` or ``--wrap``: make the level and write it; the exit status."""
    kind = "wrap" if args.grid == "square" else args.grid
    allowed = GRID_FORMATS[kind]
    what = f"--grid {args.grid}" if kind != "wrap" else f"--wrap {args.wrap}"
    if fmt not in allowed:
        raise Failure(2, f"--format {fmt}: a {what} level is written as {', '.join(allowed)}")
    if args.world:
        raise Failure(2, f"--world makes square levels; it does not take {what}")
    if kwargs.pop("markers", "border") not in ("border", "none"):
        raise Failure(2, f"--markers: a {what} level takes border or none")
    if args.markers == "none":
        kwargs["markers"] = "none"
    from ..api import generate

    width, height = args.size
    try:
        level = generate(args.algorithm, width, height, seed=seed, grid=args.grid, wrap=args.wrap, **kwargs)
    except (TypeError, ValueError) as error:
        raise Failure(2, str(error)) from None
    tile = args.tile
    text: Optional[str] = None
    try:
        if fmt == "ascii":
            text = str(level) + "\n"
        elif fmt == "svg":
            text = level.to_svg(cell=tile or 20, show_solution=args.solution)
        elif fmt == "json":
            text = level.to_json()
        if text is not None and output is None:
            sys.stdout.write(text)
            sys.stdout.flush()
        elif text is not None and output is not None:
            from ..formats.files import write_text

            write_text(output, text)
        elif output is None:
            raise Failure(2, f"--format {fmt} writes a file: give -o FILE")
        elif fmt == "png":
            level.save(output, format="png", cell=tile or 20, show_solution=args.solution)
        elif fmt == "tmj":  # tmx and tmj: hex only
            level.save(output, format="tmj", tile=tile or 32)
        else:
            level.save(output, format="tmx", tile=tile or 32)
    except OSError as error:
        raise Failure(1, f"cannot write {output}: {error.strerror or error}") from None
    except ImportError as error:
        raise Failure(1, str(error)) from None
    except ValueError as error:
        raise Failure(2, str(error)) from None
    if args.seed is None or args.require:
        print(f"mazeplugin: seed {level.seed}", file=sys.stderr)
    return 0


def run(args: argparse.Namespace) -> int:
    """Make the level and print or write it; the exit status."""
    fmt = args.format
    to_stdout = args.output in (None, "-")
    output = None if to_stdout else args.output
    if fmt is None:
        if output is None:
            fmt = "ascii"
        else:
            fmt = EXTENSIONS.get(os.path.splitext(output)[1].lower())
            if fmt is None:
                raise Failure(2, f"cannot tell the format from {output!r}; give --format ({', '.join(FORMATS)})")
    if args.output is None and fmt not in STDOUT_FORMATS:
        raise Failure(2, f"--format {fmt} writes a file: give -o FILE (or -o - for standard output)")
    if to_stdout and fmt in ("tmx", "tmj") and (args.grid == "square" and args.wrap is None):
        raise Failure(2, f"--format {fmt} writes a map and its tileset image beside it: give -o FILE")
    check_solution(args, fmt)
    seed = settle_code(args)
    check_world(args)
    kwargs = level_kwargs(args)
    for name in ("keys", "treasure", "enemies"):
        if getattr(args, name):
            kwargs[name] = getattr(args, name)
    dungeon_kwargs(args, kwargs)
    if args.weave is not None and args.world:
        raise Failure(2, "--weave makes square levels; a --world window takes none")
    if args.attempts is not None and not args.require:
        raise Failure(2, "--attempts counts --require's candidates: give --require too "
                         "(a generator's own attempts option is -O attempts=N)")
    if args.require:
        kwargs["require"] = dict(args.require)
        if args.attempts is not None:
            kwargs["attempts"] = args.attempts
    if args.grid != "square" or args.wrap is not None:
        return _grid_level(args, fmt, output, seed, kwargs)
    level = world_window(args, seed, kwargs) if args.world else make_level(args, seed, kwargs)
    if to_stdout and fmt in STDOUT_FORMATS:
        try:
            text = as_text(level, fmt, args.tile, args.solution)
        except ValueError as error:  # e.g. --solution on a level without markers
            raise Failure(2, str(error)) from None
        sys.stdout.write(text)
        sys.stdout.flush()
    elif output is None:
        _print_binary(level, fmt, args.tile, args.solution)
    else:
        write_level(level, fmt, output, args.tile, args.solution)
    if args.seed is None or args.require:  # a fresh or derived seed: say which, so the level can be made again
        print(f"mazeplugin: seed {level.seed}", file=sys.stderr)
    return 0


def _settle_dungeon_code(args: argparse.Namespace, code: Any) -> Any:
    """``--seed dungeon-PATTERN-WxH-SEED+rROOMSkLOCKS``: ALGORITHM dungeon, that size and pattern (a note names
    what it overrides), its rooms and locks unless given as options; the seed."""
    algorithm, width, height, seed = code
    pattern = algorithm[len("dungeon-"):] if algorithm != "dungeon" else None
    text = args.seed.strip()
    if pattern is not None and pattern not in PATTERNS:
        raise Failure(2, f"--seed {text!r}: {pattern!r} is not a dungeon pattern; dungeon codes are "
                         f"dungeon-PATTERN-WxH-SEED+rROOMSkLOCKS with PATTERN one of {', '.join(PATTERNS)}")
    others = sorted(set(code.content) - {"rooms", "keys", "treasure", "enemies", "drops"})
    if others or code.grid != "square":
        raise Failure(2, f"--seed {text!r}: a dungeon's code holds only r (rooms), k (locks), t (treasure), e "
                         f"(enemies) and d (drops) after '+', not {others[0] if others else 'grid ' + code.grid}")
    ignored = [what for what, differs in (
        (f"ALGORITHM {args.algorithm}", args.algorithm != "dungeon"),
        (f"--size {args.size[0]}x{args.size[1]}" if args.size else "", args.size is not None
         and tuple(args.size) != (width, height)),
        (f"--pattern {args.pattern}", pattern is not None and args.pattern not in (None, pattern))) if differs]
    if ignored:
        print(f"mazeplugin: note: --seed {text} is a level code: making dungeon {width}x{height} with seed {seed} "
              f"({' and '.join(ignored)} ignored)", file=sys.stderr)
    args.algorithm, args.size = "dungeon", (width, height)
    if pattern is not None:
        args.pattern = pattern
    if args.rooms is None and "rooms" in code.content:
        args.rooms = code.content["rooms"]
    if args.locks is None and "keys" in code.content:
        args.locks = code.content["keys"]
    for name in ("treasure", "enemies"):
        if not getattr(args, name) and name in code.content:
            setattr(args, name, code.content[name])
    if code.content.get("drops"):
        args.drops = True
    return seed


def settle_code(args: argparse.Namespace) -> Any:
    """``--seed``: a level code makes that level (its algorithm and size, with a note); other text is the seed.

    Text that :func:`~mazeplugin.codes.looks_like_level_code` must be a code
    of a known generator: a malformed one, or one naming no generator, is a
    wrong argument (status 2) whose message says how to give such text as a
    seed (inside a code).
    """
    if args.seed is None:
        return None
    text = args.seed
    if not looks_like_level_code(text):
        return text
    try:
        code = parse_level_code(text)
    except ValueError as error:
        raise Failure(2, f"--seed: {error}{_as_seed_hint(args)}") from None
    algorithm, width, height, seed = code
    if algorithm == "dungeon" or algorithm.startswith("dungeon-"):  # dungeon-PATTERN-WxH-SEED+rNkM
        return _settle_dungeon_code(args, code)
    if algorithm not in algorithms():  # plugins loaded: a plugin's codes are codes too
        raise Failure(2, f"--seed {text.strip()!r} looks like a level code, but {algorithm!r} is no generator "
                         f"(see 'mazeplugin list'){_as_seed_hint(args)}")
    ignored = []
    if args.algorithm != algorithm:
        ignored.append(f"ALGORITHM {args.algorithm}")
    if args.size is not None and tuple(args.size) != (width, height):
        ignored.append(f"--size {args.size[0]}x{args.size[1]}")
    if ignored:
        print(
            f"mazeplugin: note: --seed {text.strip()} is a level code: making {algorithm} "
            f"{width}x{height} with seed {seed} ({' and '.join(ignored)} ignored)",
            file=sys.stderr,
        )
    args.algorithm, args.size = algorithm, (width, height)
    if code.grid != "square":  # e.g. wilson-hex12x8-7: the code's grid
        args.grid = code.grid
    for name, value in code.content.items():  # +k2t5e3: the code's content, unless given as options
        if hasattr(args, name) and not getattr(args, name):
            setattr(args, name, value)
    return seed


def _as_seed_hint(args: argparse.Namespace) -> str:
    """How to give text that looks like a code as a text seed: inside a code (whose seed part takes any text but '+')."""
    text = args.seed.strip()
    if len(text) > MAX_SEED_CHARS:  # too long for a seed anyway: no need to echo it
        return ""
    if "+" in text:
        return " (a text seed of this shape cannot hold '+')"
    width, height = args.size or (20, 15)
    return f"; to use the text itself as the seed, give it inside a level code: --seed {args.algorithm}-{width}x{height}-{text}"


def _print_binary(level: Level, fmt: str, tile: Optional[int], solution: bool) -> None:
    """``-o -`` for a binary format: write the file in a temporary folder, then copy its bytes to standard output."""
    with tempfile.TemporaryDirectory(prefix="mazeplugin-") as folder:
        path = os.path.join(folder, "level." + fmt)
        write_level(level, fmt, path, tile, solution)
        with open(path, "rb") as f:
            data = f.read()
    sys.stdout.flush()
    out = getattr(sys.stdout, "buffer", None)
    if out is None:  # pragma: no cover - a text-only stdout replacement
        raise Failure(2, f"--format {fmt} is binary and standard output takes only text here: give -o FILE")
    out.write(data)
    out.flush()
