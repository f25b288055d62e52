"""Endless worlds under load: the chunk cache's cost per request, on one thread and on several.

    python benchmarks/bench_world_cache.py [--calls 200000] [--threads 4]

1. One thread: ``world.tiles`` of a 4 × 4-tile window inside one cached chunk,
   and ``world.chunk_tiles`` of a cached chunk: calls per second (the cache
   look-up is most of the work; the lock is one acquire per look-up).
2. ``--threads`` threads, each as many calls over windows touching two
   chunks of a world with ``cache=1`` (every call a miss or a race), with
   Python's switch interval at 1 µs: calls per second, and how many raised
   (the unguarded cache raised ``KeyError`` in ``move_to_end``).

CPU seconds per call (``time.process_time``) next to the rate. The machine
may be shared: compare figures from one run. Not a test; nothing here
asserts a time.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time

import mazeplugin as mp


def one_thread(calls: int) -> None:
    world = mp.World("backtracker", seed=1, chunk=(32, 32))
    for name, call in (
        ("tiles(4 x 4 window)", lambda: world.tiles(10, 10, 14, 14)),
        ("chunk_tiles((0, 0))", lambda: world.chunk_tiles((0, 0))),
    ):
        call()
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(calls):
            call()
        wall, used = time.perf_counter() - start, time.process_time() - cpu
        print(f"  {name:22} {calls / wall:12,.0f} calls/s  {1e6 * used / calls:6.2f} µs CPU per call")


def many_threads(calls: int, threads: int) -> None:
    world = mp.World("backtracker", seed=1, chunk=(2, 2), cache=1)
    errors = []

    def work(k: int) -> None:
        for n in range(calls):
            x = 4 * ((n + k) % 8) - 2
            try:
                world.tiles(x, 0, x + 4, 4)
            except Exception as error:  # counted: the point of the benchmark
                errors.append(repr(error))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        start = time.perf_counter()
        pool = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        wall = time.perf_counter() - start
    finally:
        sys.setswitchinterval(old)
    total = calls * threads
    print(f"  {threads} threads x {calls:,} calls, cache=1: {total / wall:,.0f} calls/s, {len(errors)} raised")
    if errors:
        print(f"    first: {errors[0]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200_000)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    print(f"mazeplugin {mp.__version__ if hasattr(mp, '__version__') else ''} from {mp.__file__}")
    print("one thread, cached chunks:")
    one_thread(args.calls)
    print("several threads, cache=1:")
    many_threads(args.calls // 5, args.threads)


if __name__ == "__main__":
    main()
