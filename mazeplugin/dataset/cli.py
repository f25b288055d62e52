"""The ``mazeplugin dataset`` command line: ``build``, ``verify`` and ``info``.

::

    mazeplugin dataset build SPEC OUT [--engine processes|ray] [--workers N] [--address ADDR]
                                      [--unique] [--format npz|parquet] [--quiet]
    mazeplugin dataset verify OUT     # exit 0 when every shard matches the manifest, 1 otherwise
    mazeplugin dataset info OUT [--json]

``main(argv)`` takes the arguments after ``dataset`` and returns the exit
status: 0 done, 1 a dataset problem (named on standard error), 2 a bad
command line or spec, 130 interrupted (run ``build`` again to resume).

>>> main(["verify", "/nonexistent/mazeplugin-dataset"])
1
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures.process import BrokenProcessPool
from typing import Any, List, NoReturn, Optional, Sequence

from ..interrupt import end_start_guard, ignore_from_now
from .building import ENGINES, FILE_FORMATS, MAX_WORKERS, DatasetError, build, info, verify
from .spec import SpecError

__all__ = ["main", "build_parser"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def _workers(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an int from 1 to {MAX_WORKERS}, got {text!r}") from None
    if not 1 <= number <= MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"must be an int from 1 to {MAX_WORKERS}, got {number}")
    return number


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``mazeplugin dataset``."""
    parser = _Parser(prog="mazeplugin dataset", description="Build, verify and describe level datasets.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    b = commands.add_parser("build", help="build (or resume) the dataset of a spec file")
    b.add_argument("spec", help="the spec: a .json or .toml file")
    b.add_argument("out", help="the dataset folder (new, empty, or this spec's to resume), or an fsspec URL "
                               "(s3://bucket/levels, file:///data/levels; the remote extra)")
    b.add_argument("--engine", choices=ENGINES, default="processes", help="processes (default) or ray")
    b.add_argument("--workers", type=_workers, default=None, metavar="N", help="worker processes (default: every core)")
    b.add_argument("--address", default=None, metavar="ADDR", help="the Ray cluster (e.g. auto); engine ray only")
    b.add_argument("--unique", action="store_true", help="replace repeated levels by seeds of a reserved range")
    b.add_argument("--format", choices=FILE_FORMATS, default="npz", help="shard format (default npz)")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress on standard error")
    v = commands.add_parser("verify", help="check every shard against the manifest")
    v.add_argument("out", help="the dataset folder or fsspec URL")
    i = commands.add_parser("info", help="describe a dataset")
    i.add_argument("out", help="the dataset folder or fsspec URL")
    i.add_argument("--json", action="store_true", help="print the summary as JSON")
    return parser


def plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, made plural unless it is one.

    >>> plural(1, "shard"), plural(2, "shard"), plural(1_000, "level")
    ('1 shard', '2 shards', '1,000 levels')
    """
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def _print_info(summary: Any) -> None:
    state = ("complete" if summary["complete"] else
             f"unfinished ({summary['shards_built']:,} of {plural(summary['shards'], 'shard')} built)")
    print(f"{summary['folder']}: {plural(summary['levels'], 'level')} in {summary['shards']:,} {summary['file_format']} "
          f"shard{'' if summary['shards'] == 1 else 's'}, {plural(summary['bytes'], 'byte')}, {state}")
    print(f"made by mazeplugin {summary['mazeplugin']}, numpy {summary['numpy']}, seed promise "
          f"{summary['seed_promise']}; unique: {'yes' if summary['unique'] else 'no'}")
    for n, entry in enumerate(summary["entries"]):
        extra = ""
        if entry["duplicates"] is not None:
            extra += f", {plural(entry['duplicates'], 'repeat')} replaced"
        if entry["refitted"]:
            extra += f", {plural(entry['refitted'], 'seed')} refitted for content"
        print(f"  levels[{n}]: {entry['generator']} {entry['width']}x{entry['height']}, {plural(entry['count'], 'level')}, "
              f"seeds {entry['first_seed']}..{entry['last_seed']}, {plural(entry['shards'], 'shard')}{extra}")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``mazeplugin dataset`` with ``argv`` (the arguments after ``dataset``); the exit status.

    As ``python -m mazeplugin.dataset``, Ctrl-C while it starts and after its work ended is handled as
    the ``mazeplugin`` command handles it (:mod:`mazeplugin.interrupt`): one line and 130, never a traceback
    or death by the signal."""
    end_start_guard()
    try:
        return _main(argv)
    finally:
        ignore_from_now()  # the work is over: a late Ctrl-C changes nothing


def _main(argv: Optional[Sequence[str]]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exit:
        return int(exit.code or 0)
    try:
        if args.command == "build":
            manifest = build(args.spec, args.out, engine=args.engine, workers=args.workers, address=args.address,
                             unique=args.unique, file_format=args.format, progress=not args.quiet)
            if not args.quiet:
                print(f"wrote {plural(manifest['levels'], 'level')} in {plural(len(manifest['shards']), 'shard')} "
                      f"to {args.out}", file=sys.stderr)
            return 0
        if args.command == "verify":
            problems: List[str] = verify(args.out)
            for problem in problems:
                print(f"mazeplugin dataset verify: {problem}", file=sys.stderr)
            if not problems:
                print(f"{args.out}: every shard matches the manifest")
            return 1 if problems else 0
        summary = info(args.out)
        if args.json:
            print(json.dumps(summary, indent=1))
        else:
            _print_info(summary)
        return 0
    except SpecError as error:
        print(f"mazeplugin dataset: {error}", file=sys.stderr)
        return 2
    except DatasetError as error:
        print(f"mazeplugin dataset: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        ignore_from_now()  # a second Ctrl-C must not cut this short: 130, always
        print("mazeplugin dataset: interrupted; finished shards are kept, run build again to resume",
              file=sys.stderr)
        return 130
    except BrokenProcessPool:
        print("mazeplugin dataset: a worker process died (killed, or out of memory); finished shards are "
              "kept, run build again to resume", file=sys.stderr)
        return 1
