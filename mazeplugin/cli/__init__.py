"""The ``mazeplugin`` command: generate levels, list generators, measure textures, build level packs.

::

    mazeplugin generate kruskal --size 20x15 --seed 7 [--markers farthest] [--braid 0.3]
                                [--format ascii|blocks|box|digits|svg|png|tmx|tmj|json|npy] [-o FILE]
    mazeplugin list
    mazeplugin stats kruskal --size 100x100 --seeds 20
    mazeplugin batch kruskal --size 32x32 --count 10000 --out DIR --format json [--jobs 0]
    mazeplugin compile ...      (mazeplugin.compiled: build the numba kernels now)
    mazeplugin dataset ...      (mazeplugin.dataset.cli, where installed)

Also ``python -m mazeplugin``. Every command takes ``--help``. Wrong arguments
exit with status 2 and a one-line reason; a file that cannot be written exits
with 1. Files are written safely (:mod:`mazeplugin.formats.files`): a regular
file atomically (a temporary file, then a rename), so an interrupted run
leaves no half-written level; ``-o -`` and ``-o /dev/stdout`` print; a device
or FIFO is written through, never replaced. Counts are bounded
(:data:`mazeplugin.limits.MAX_COUNT`); ``batch`` and ``stats`` stream their
seeds and show progress; Ctrl-C stops ``batch`` after the levels being
written, leaving no temporary file. Ctrl-C at any other time, even while the
command is still starting, prints one line and exits with 130.

One module per subcommand: :mod:`.generate` (with :mod:`.world` for
``--world``), :mod:`.listing`, :mod:`.stats`, :mod:`.batch`,
:mod:`.dataset`; :mod:`.common` holds the parser, argument types and level
options they share.

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
import os
import sys
from typing import List, Optional, Sequence

from .. import __version__
from ..interrupt import INTERRUPTED_MESSAGE, end_start_guard, ignore_from_now
from . import batch, compile, dataset, generate, listing, stats
from .common import EXTENSIONS, FORMATS, Failure, Parser, join_number_lists
from .progress import Progress

__all__ = ["main", "build_parser", "FORMATS", "EXTENSIONS", "Progress"]


def build_parser() -> argparse.ArgumentParser:
    """The ``mazeplugin`` argument parser (one subparser per command)."""
    parser = Parser(
        prog="mazeplugin",
        description="Seeded, reproducible maze levels: generate them, look at them, pack them.",
        epilog="Run 'mazeplugin COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"mazeplugin {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True
    for command in (generate, listing, stats, batch, compile, dataset):
        command.add_parser(commands)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); the exit status."""
    end_start_guard()  # from here on, Ctrl-C is a KeyboardInterrupt handled below
    try:
        try:
            return _run(list(sys.argv[1:] if argv is None else argv))
        except KeyboardInterrupt:
            ignore_from_now()  # a second Ctrl-C must not cut this short: 130, always
            print(INTERRUPTED_MESSAGE, file=sys.stderr)
            return 130
        except BrokenPipeError:
            return _reader_left()
    finally:
        ignore_from_now()  # the command's work is over: a late Ctrl-C changes nothing


BROKEN_PIPE_STATUS = 141
"""The exit status when standard output's reader went away (``mazeplugin list | head -3``): 128 + SIGPIPE,
what a shell tool killed by SIGPIPE reports, without a message."""


def _reader_left() -> int:
    """Standard output's reader is gone: end quietly, with no traceback now or when Python flushes at exit.

    What is still buffered goes into a fresh pipe nobody reads (it holds far more than
    the buffer), so the final flush succeeds; :data:`BROKEN_PIPE_STATUS` is returned.
    """
    try:
        keep, write = os.pipe()
        os.dup2(write, sys.stdout.fileno())
        os.close(write)
        _KEPT.append(keep)  # open until the process ends: the pipe never breaks
    except (OSError, ValueError, AttributeError):
        pass  # no real standard output: nothing will be flushed to it
    return BROKEN_PIPE_STATUS


_KEPT: List[int] = []


def _run(argv: List[str]) -> int:
    # A command-line run owns its process: keep pygame's greeting out of piped output.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if argv[:1] == ["dataset"]:  # another package's command line, with its own options
        return dataset.run(argv[1:])
    if argv[:1] == ["compile"]:  # the compiled module's own command line
        return compile.run(argv[1:])
    args = build_parser().parse_args(join_number_lists(argv))
    try:
        status: int = args.run(args)
        return status
    except Failure as failure:
        if failure.status == 2:
            command = f"mazeplugin {args.command}"
            print(f"{command}: error: {failure} (see '{command} --help')", file=sys.stderr)
        else:
            print(f"mazeplugin: error: {failure}", file=sys.stderr)
        return failure.status
