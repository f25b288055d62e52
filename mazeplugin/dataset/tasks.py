"""Running shards: the task a worker gets, writing one shard, running many on a process pool or Ray, progress.

A shard's bytes depend only on its task (the spec's entry, the shard number
and any replacement seeds), never on which worker runs it or when.
"""

from __future__ import annotations

import hashlib
import os
import signal
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import IO, Any, Callable, Dict, List, Optional, Sequence, Tuple, cast

import mazeplugin as mp

from ..interrupt import die_with_parent
from .digest import digest_bytes
from .shards import LevelMaker, batch_arrays, batch_digests, fit_level, make_level, npz_bytes, shard_arrays
from .spec import Entry, is_grid, is_weave
from .storage import Folder


__all__ = ["ShardTask", "shard_file", "sha256_hex", "file_sha256", "run_shard", "scan_digests", "run_tasks", "Progress"]



@dataclass(frozen=True)
class ShardTask:
    """Everything a worker needs to write one shard (picklable, no open files)."""

    entry_index: int
    entry: Entry
    shard: int
    file: str
    out: str
    file_format: str
    replacements: Tuple[Tuple[int, int], ...] = ()


def shard_file(entry_index: int, entry: Entry, shard: int, file_format: str) -> str:
    """The file name of a shard: entry, generator, size and shard number, zero-padded to sort in order."""
    digits = max(5, len(str(entry.shards - 1)))
    return f"{entry_index:03d}-{entry.generator}-{entry.width}x{entry.height}-{shard:0{digits}d}.{file_format}"


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def run_shard(task: ShardTask) -> Dict[str, Any]:
    """Make and write one shard (to a partial name, then renamed); its record for the manifest."""
    entry = task.entry
    maker = LevelMaker(entry)
    replacements = dict(task.replacements)
    slots = list(entry.shard_slots(task.shard))
    seeds = [replacements.get(slot, entry.first_seed + slot) for slot in slots]
    batch = maker.batch(seeds)  # the batched lane: every level of the shard at once, where the entry allows
    refitted = 0
    if batch is not None:  # (its entries have no content: every seed's level fits, none is refitted)
        arrays = batch_arrays(slots, batch, stats=entry.stats)
        if entry.columns:
            from .columns import batch_columns

            arrays.update(batch_columns(batch, entry.columns, entry.tokenizer, entry.image_scale or 1))
    else:
        levels, extra, refitted = _fit_levels(entry, maker, slots, seeds)
        arrays = shard_arrays(levels, stats=entry.stats, bridges=is_weave(entry))
        if entry.columns:
            from .columns import column_arrays

            first = levels[0][2]
            shape = (first.maze.grid.cells,) if is_grid(entry) else first.tiles.shape
            arrays.update(column_arrays(extra, entry.columns, shape, entry.image_scale or 1))
    if task.file_format == "parquet":
        from .parquet import parquet_bytes

        data = parquet_bytes(arrays, entry, task.entry_index)
    else:
        data = npz_bytes(arrays)
    Folder(task.out).write_atomic(task.file, data)  # under a partial name, then renamed or moved
    return {"file": task.file, "sha256": sha256_hex(data), "bytes": len(data), "levels": len(slots),
            "refitted": refitted}


def _fit_levels(entry: Entry, maker: LevelMaker, slots: Sequence[int],
                seeds: Sequence[int]) -> Tuple[List[Tuple[int, int, Any]], List[Dict[str, Any]], int]:
    """``((slot, seed used, level) triples, each level's columns, levels refitted)`` of a shard made level by level.

    With square ``"columns"`` (no tokens) the levels are made first and their columns computed together
    (:func:`mazeplugin.dataset.columns.levels_columns`: compiled calls over all of them); a level they cannot
    have columns for is made again as :func:`~mazeplugin.dataset.shards.fit_level` makes it, columns and all
    (the same level and columns as making each with its columns at once)."""
    together = bool(entry.columns) and "tokens" not in entry.columns and not is_grid(entry)
    levels = []
    extra: List[Dict[str, Any]] = []
    for slot, seed in zip(slots, seeds):
        used, level, made = fit_level(entry, maker, seed, columns=not together)
        levels.append((slot, used, level))
        extra.append(made)
    if together:
        from .columns import level_columns, levels_columns

        square = [cast(mp.Level, level) for _, _, level in levels]  # (no grid entry comes here)
        found = levels_columns(square, entry.columns) or [None] * len(levels)
        for k, (known, seed) in enumerate(zip(found, seeds)):
            if known is None:
                try:
                    known = level_columns(square[k], entry.columns, entry.tokenizer)
                except ValueError:  # (a key swap, say): the level fit_level makes with its columns
                    used, level, known = fit_level(entry, maker, seed)
                    levels[k] = (levels[k][0], used, level)
            extra[k] = known
    refitted = sum(used != seed for (_, used, _), seed in zip(levels, seeds))
    return levels, extra, refitted


def scan_digests(task: ShardTask) -> bytes:
    """The 32-byte digests of one shard's levels (no replacements), end to end in slot order."""
    entry = task.entry
    maker = LevelMaker(entry)
    seeds = [entry.first_seed + slot for slot in entry.shard_slots(task.shard)]
    batch = maker.batch(seeds)
    if batch is not None:
        return batch_digests(batch)
    return b"".join(digest_bytes(make_level(entry, maker, seed)[1]) for seed in seeds)


# -- engines ----------------------------------------------------------------------


def _worker_start(parent: int) -> None:
    """Worker initializer: ignore Ctrl-C (the main process's to handle: it lets running shards finish) and die
    with the build (:func:`mazeplugin.interrupt.die_with_parent`: a build's main process killed from outside
    leaves no worker writing into its folder)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)


def _run_local(tasks: Sequence[ShardTask], function: Callable[[ShardTask], Any], workers: int,
               done: Callable[[ShardTask, Any], None]) -> None:
    """Run ``function`` over ``tasks`` in ``workers`` processes (in this one for 1), calling ``done`` as each ends.

    On Ctrl-C no new task starts, the running ones finish (a shard is written
    whole) and are reported to ``done``, then ``KeyboardInterrupt`` is raised;
    a second Ctrl-C stops at once. A worker killed from outside raises
    ``BrokenProcessPool`` after the finished tasks were reported.
    """
    if workers == 1 or len(tasks) == 1:
        for task in tasks:
            done(task, function(task))
        return
    with ProcessPoolExecutor(max_workers=workers, initializer=_worker_start, initargs=(os.getpid(),)) as pool:
        pending: Dict["Future[Any]", ShardTask] = {}
        try:
            for task in tasks:
                pending[pool.submit(function, task)] = task
                if len(pending) >= 2 * workers:
                    finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in finished:
                        done(pending.pop(future), future.result())
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    done(pending.pop(future), future.result())
        except KeyboardInterrupt:
            running = [future for future in pending if not future.cancel()]
            for future in running:  # a second Ctrl-C ends this wait
                try:
                    done(pending[future], future.result())
                except Exception:  # noqa: BLE001 - the interruption is what gets reported
                    pass
            raise
        except BaseException:
            for future in pending:
                future.cancel()
            raise


def run_tasks(engine: str, tasks: Sequence[ShardTask], function: Callable[[ShardTask], Any], workers: int,
              address: Optional[str], done: Callable[[ShardTask, Any], None]) -> None:
    """Run ``function`` (:func:`run_shard` or :func:`scan_digests`) over ``tasks`` on ``engine``; ``done`` as each ends."""
    if not tasks:
        return
    if engine == "ray":
        from .ray_engine import run_ray

        run_ray(tasks, function, workers, address, done)
    else:
        _run_local(tasks, function, workers, done)


# -- progress -----------------------------------------------------------------------


class Progress:
    """Levels done, levels per second and the time left, on a stream (standard error by default).

    >>> import io
    >>> out = io.StringIO()
    >>> bar = Progress(10, label="build", stream=out)
    >>> bar.advance(10); bar.close()
    >>> out.getvalue().splitlines()[-1].startswith("build 10/10 levels 100%")
    True
    """

    total: int
    label: str
    enabled: bool
    stream: IO[str]
    done: int
    started: float
    interactive: bool

    def __init__(self, total: int, *, label: str = "build", stream: Optional[IO[str]] = None,
                 enabled: bool = True) -> None:
        self.total, self.label, self.enabled = total, label, enabled
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        self.started = time.monotonic()
        self._drawn = 0.0
        isatty = getattr(self.stream, "isatty", None)
        self.interactive = bool(isatty and isatty())

    def advance(self, count: int) -> None:
        """Count ``count`` more levels done; redraw at most a few times a second (every 10 s in a log)."""
        self.done += count
        now = time.monotonic()
        if self.enabled and (self.done >= self.total or now - self._drawn >= (0.2 if self.interactive else 10)):
            self._drawn = now
            self.stream.write(("\r" if self.interactive else "") + self.line() + ("" if self.interactive else "\n"))
            self.stream.flush()

    def line(self) -> str:
        """The progress line: done, per cent, levels/s and the estimated time left."""
        elapsed = max(time.monotonic() - self.started, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        eta = f"{left:,.0f} s left" if left != float("inf") else "--"
        percent = 100 * self.done // max(self.total, 1)
        return f"{self.label} {self.done:,}/{self.total:,} levels {percent}%  {rate:,.0f} levels/s  {eta}"

    def close(self) -> None:
        """End the line on a terminal."""
        if self.enabled and self.interactive:
            self.stream.write("\n")
            self.stream.flush()


# -- manifest -----------------------------------------------------------------------
