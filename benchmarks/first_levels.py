"""First levels of a fresh process in the default mode: does the compiled path arrive by itself?

In the default ``auto`` mode a small level never waits for numba: the first
one is made on the plain path and starts loading its kernel in a background
thread, so the following levels should soon run compiled. This starts a
fresh Python process (``MAZEPLUGIN_COMPILED`` unset, numba's cache as it is)
that makes 500 levels of 64 × 64 cells one after another, the way a game
making only small levels would, and prints:

- the first level's time (import excluded) and the median of the first 250;
- the median of the last 250 (target: at most 2 ms) and the level from which
  the kernels were loaded;
- the same median with ``MAZEPLUGIN_COMPILED=0`` (the plain path throughout),
  for comparison.

Run it from the checkout: ``python benchmarks/first_levels.py`` (options:
``--algorithm``, ``--count``, ``--size``). It prints figures; it never fails
on a time, since the machine may be shared and loaded.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TARGET_MS = 2.0

PROGRAM = r"""
import json, sys, time
started = time.perf_counter()
import mazeplugin as mp
from mazeplugin import compiled
imported = time.perf_counter() - started
algorithm, count, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
times, first_compiled = [], None
for seed in range(count):
    t0 = time.perf_counter()
    mp.generate(algorithm, size, size, seed=seed)
    times.append(time.perf_counter() - t0)
    if first_compiled is None and algorithm in compiled.loaded():
        first_compiled = seed + 1
print(json.dumps({"import": imported, "times": times, "first_compiled": first_compiled,
                  "loaded": compiled.loaded()}))
"""


def run(algorithm: str, count: int, size: int, mode: str) -> dict:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), MAZEPLUGIN_NO_PLUGINS="1")
    env.pop("MAZEPLUGIN_COMPILED", None)
    if mode != "auto":
        env["MAZEPLUGIN_COMPILED"] = mode
    done = subprocess.run([sys.executable, "-c", PROGRAM, algorithm, str(count), str(size)],
                          env=env, capture_output=True, text=True, timeout=1800, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--algorithm", default="backtracker")
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--size", type=int, default=64)
    args = parser.parse_args()
    half = args.count // 2
    auto = run(args.algorithm, args.count, args.size, "auto")
    plain = run(args.algorithm, args.count, args.size, "0")
    ms = [t * 1000 for t in auto["times"]]
    plain_ms = [t * 1000 for t in plain["times"]]
    last = statistics.median(ms[half:])
    print(f"{args.algorithm}, {args.count} levels of {args.size} x {args.size} in one fresh process, default mode")
    print(f"  import mazeplugin       {auto['import'] * 1000:8.1f} ms")
    print(f"  first level             {ms[0]:8.2f} ms")
    print(f"  median, first {half:<4}     {statistics.median(ms[:half]):8.2f} ms")
    print(f"  median, last {args.count - half:<4}      {last:8.2f} ms   (target <= {TARGET_MS} ms: "
          f"{'met' if last <= TARGET_MS else 'NOT met'})")
    print(f"  compiled from level     {auto['first_compiled']}   (kernels loaded: {', '.join(auto['loaded']) or 'none'})")
    print(f"  plain path throughout:  median, last {args.count - half}: {statistics.median(plain_ms[half:]):.2f} ms")


if __name__ == "__main__":
    main()
