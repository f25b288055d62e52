"""``mazeplugin batch``: write a level pack (seeds S, S+1, ...) into a folder, with ``manifest.json``.

Files are named ``ALGORITHM-WxH-SEED.EXT`` (:func:`level_file`); every name
is checked to stay inside ``--out``. Seeds are streamed (never listed up
front), worker processes share them out in chunks, and Ctrl-C stops the run
after the levels being written, leaving only whole files and no manifest.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Dict, Iterator, Set, Tuple

from ..interrupt import die_with_parent
from ..limits import MAX_COUNT
from ..seeds import MAX_SEED
from .common import (
    FILE_EXTENSION,
    FORMATS,
    Failure,
    bounded_type,
    check_solution,
    dungeon_kwargs,
    level_kwargs,
    level_options,
    make_level,
    natural_type,
    picture_options,
    write_level,
)
from .progress import Progress

if TYPE_CHECKING:  # pragma: no cover - multiprocessing is imported when a batch runs, not to build the parser
    from concurrent.futures import Future

__all__ = ["add_parser", "run", "level_file", "check_inside", "MANIFEST"]

SMALL_BATCH = 256
"""Without ``--jobs``, a batch of fewer levels runs in one process (starting workers would cost more)."""

MANIFEST = "manifest.json"
"""The name of the pack's manifest, beside its levels."""


def add_parser(commands: Any) -> None:
    """Add ``batch`` to the subcommands."""
    batch = commands.add_parser(
        "batch", parents=[level_options(), picture_options()], help="write a level pack with a manifest",
        description="Write COUNT levels (seeds S, S+1, ...) into DIR, with manifest.json listing them.",
    )
    batch.add_argument("--count", type=bounded_type(1, MAX_COUNT), required=True, metavar="N",
                       help=f"how many levels (at most {MAX_COUNT:,})")
    batch.add_argument("--out", required=True, metavar="DIR", help="the folder to write (created if missing)")
    batch.add_argument("--format", choices=FORMATS, default="json", help="file format (default json)")
    batch.add_argument("--first-seed", type=natural_type, default=0, metavar="S", help="the first seed (default 0)")
    batch.add_argument("-j", "--jobs", type=bounded_type(0, 256), default=None, metavar="N",
                       help="worker processes; 0 = one per core (default: one per core, as dataset build's "
                            f"--workers; one process for fewer than {SMALL_BATCH} levels)")
    batch.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    batch.set_defaults(run=run)


def level_file(algorithm: str, size: Tuple[int, int], seed: int, digits: int, fmt: str) -> str:
    """A level's file name in a pack: ``ALGORITHM-WxH-SEED.EXT``, the seed padded with zeros to ``digits``.

    The extension is the format's name (``.txt`` for the text styles).

    >>> level_file("kruskal", (32, 32), 7, 4, "json"), level_file("eller", (8, 6), 12, 2, "box")
    ('kruskal-32x32-0007.json', 'eller-8x6-12.txt')
    """
    extension = FILE_EXTENSION.get(fmt, "." + fmt)
    return f"{algorithm}-{size[0]}x{size[1]}-{seed:0{digits}d}{extension}"


def check_inside(folder: str, name: str) -> None:
    """Refuse (status 2) a file ``name`` that is not a plain name of a file directly inside ``folder``.

    Generator names are plain (:func:`mazeplugin.register` checks them), but
    a name reaching here another way must not write elsewhere.

    >>> check_inside("pack", "kruskal-4x4-1.json")
    >>> check_inside("pack", "../escaped-4x4-1.json")
    Traceback (most recent call last):
    ...
    mazeplugin.cli.common.Failure: the file name '../escaped-4x4-1.json' would be written outside --out pack: generator names used in file names must be plain (letters, digits, '-', '_')
    """
    separators = {os.sep, os.altsep or os.sep, "\0"}
    path = os.path.join(folder, name)
    inside = (
        not any(s in name for s in separators)
        and name not in (".", "..")
        and os.path.dirname(os.path.normpath(os.path.abspath(path))) == os.path.normpath(os.path.abspath(folder))
    )
    if not inside:
        raise Failure(2, f"the file name {name!r} would be written outside --out {folder}: generator names "
                         "used in file names must be plain (letters, digits, '-', '_')")


# Set when the batch should stop after the levels being written (Ctrl-C). In a worker
# process it is the shared event its initializer received; in the main process, a local one.
_stop: Any = threading.Event()


def _worker_start(stop: Any, parent: int) -> None:
    """Batch worker initializer: Ctrl-C is the main process's to handle; stop when it says so; end with the
    command's main process (killed from outside, it leaves no worker writing levels)."""
    global _stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _stop = stop
    die_with_parent(parent)


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
        level = make_level(args, seed, kwargs)
        name = level_file(args.algorithm, args.size, seed, digits, args.format)
        write_level(level, args.format, os.path.join(args.out, name), args.tile, args.solution)
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


def run(args: argparse.Namespace) -> int:
    """Write the pack and its manifest; the exit status (130 when stopped by Ctrl-C)."""
    global _stop
    import multiprocessing

    kwargs = level_kwargs(args)
    dungeon_kwargs(args, kwargs)
    first, count = args.first_seed, args.count
    if first + count - 1 > MAX_SEED:
        raise Failure(2, f"--first-seed {first} + --count {count} goes past the largest seed, 2**128 - 1")
    digits = len(str(first + count - 1))
    # Every name differs from the first only in the seed's digits: checking one checks them all.
    check_inside(args.out, level_file(args.algorithm, args.size, first, digits, args.format))
    jobs = args.jobs or os.cpu_count() or 1
    if args.jobs is None and count < SMALL_BATCH:
        jobs = 1  # by default a small batch is not worth starting processes for
    check_solution(args, args.format)
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as error:
        raise Failure(1, f"cannot create {args.out}: {error.strerror or error}") from None
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
        raise Failure(1, f"cannot write the manifest: {error.strerror or error}") from None
    if not args.quiet:
        print(f"wrote {count} levels and {MANIFEST} to {args.out}", file=sys.stderr)
    return 0


def _run_parallel(tasks: Iterator[Any], jobs: int, stop: Any, context: Any, progress: Progress) -> None:
    """Share ``tasks`` out to ``jobs`` worker processes, a few at a time (never all at once)."""
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    with ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                             initializer=_worker_start, initargs=(stop, os.getpid())) as pool:
        pending: Set["Future[int]"] = set()
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
    from ..formats.files import atomic_path

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
    with atomic_path(os.path.join(args.out, MANIFEST)) as temporary:
        with open(temporary, "w", encoding="utf-8", newline="\n") as f:
            f.write(text[:-2] + ',\n "levels": [')
            for seed in range(first, first + count):
                name = level_file(args.algorithm, args.size, seed, digits, args.format)
                f.write(("\n" if seed == first else ",\n") + "  " + json.dumps({"seed": seed, "file": name}))
            f.write("\n ]\n}\n")
