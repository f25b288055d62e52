"""When a fresh process's single gym env starts stepping on the compiled path.

    python benchmarks/bench_compiled_switch.py [--runs 3] [--seconds 40] [--load]
    python benchmarks/bench_compiled_switch.py --runs 5 --seconds 20 --json benchmarks/results/compiled-switch.json

Each run is a fresh Python process that makes ``mazeplugin/Maze-v0`` (MiniGrid
mode), resets it and steps random actions (resetting when an episode ends) for
``--seconds``, printing its steps/s second by second and the time from the
first reset to the first step taken by the compiled step kernel
(:func:`mazeplugin.gym.kernels.step_kernel` ready). ``--load`` loads the
compiled path before the first reset instead (``mazeplugin.compiled.warm_up(["gym", "backtracker"])``),
and reports how long that took. numba's disk cache should be warm (run
``python -m mazeplugin.compiled`` once): this measures loading, not compiling.
Figures vary with the machine's load: compare runs of one sitting. ``--json``
runs both ways, alternated, and writes the table for ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json, sys, time
load = sys.argv[1] == "1"
seconds = float(sys.argv[2])
started = time.perf_counter()
import gymnasium, numpy as np
import mazeplugin.gym
from mazeplugin import compiled
from mazeplugin.gym import kernels
loaded = None
if load:
    t = time.perf_counter()
    compiled.warm_up(["gym", "backtracker"])
    loaded = time.perf_counter() - t
env = gymnasium.make("mazeplugin/Maze-v0")
rng = np.random.default_rng(0)
env.reset(seed=0)
first = time.perf_counter()
switch = None
per_second = []
count, mark = 0, first
while True:
    _, _, terminated, truncated, _ = env.step(int(rng.integers(3)))
    count += 1
    if terminated or truncated:
        env.reset()
    if count % 256 == 0:
        now = time.perf_counter()
        if switch is None and kernels.step_kernel(wait=False) is not None:
            switch = now - first
        if now - mark >= 1.0:
            per_second.append(round(count / (now - mark)))
            count, mark = 0, now
            if now - first >= seconds:
                break
print(json.dumps({"switch": switch, "load": loaded, "per_second": per_second,
                  "import": first - started}))
"""


def measure(load: bool, seconds: float) -> dict:
    """One fresh process: its switch time (None: never), load() time, steps/s by second, import time."""
    env = {k: v for k, v in os.environ.items() if k != "MAZEPLUGIN_COMPILED"}  # auto, as a user has it
    done = subprocess.run([sys.executable, "-c", CHILD, "1" if load else "0", str(seconds)],
                          env=env, capture_output=True, text=True, check=True)
    result: dict = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def row(how: str, results: list) -> list:
    """A table row: the runs' median switch (and range), steps/s in the first second and from second 5 on."""
    switches = [float("inf") if r["switch"] is None else r["switch"] for r in results]
    shown = ", ".join("never" if s == float("inf") else f"{s:.2f}" for s in switches)
    first = statistics.median(r["per_second"][0] for r in results)
    later = statistics.median(statistics.median(r["per_second"][5:] or r["per_second"][-1:]) for r in results)
    loads = [r["load"] for r in results if r["load"] is not None]
    median = statistics.median(switches)
    return [how, str(len(results)), f"{'never' if median == float('inf') else f'{median:.2f} s'} ({shown})",
            f"{statistics.median(loads):.2f} s" if loads else "-", f"{first:,.0f}", f"{later:,.0f}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--load", action="store_true", help="load the compiled path before the first reset")
    parser.add_argument("--json", default=None,
                        help="run both ways (default, then --load; alternated) and write the results table here")
    args = parser.parse_args()
    if args.runs < 1 or args.seconds < 6:
        parser.error(f"--runs must be at least 1 and --seconds at least 6, got {args.runs} and {args.seconds}")
    ways = [False, True] if args.json else [args.load]
    results: dict = {way: [] for way in ways}
    load_before = os.getloadavg()[0]
    for run in range(args.runs):
        for way in ways:  # alternated, so both meet the same machine load
            result = measure(way, args.seconds)
            results[way].append(result)
            switch = result["switch"]
            loading = "" if result["load"] is None else f", load() {result['load']:.2f} s before the first reset"
            print(f"run {run + 1}{' (--load)' if way else ''}: compiled from "
                  f"{'never' if switch is None else f'{switch:.2f} s'} after the first "
                  f"reset{loading}; steps/s by second: {result['per_second']}", flush=True)
    load_after = os.getloadavg()[0]
    for way in ways:
        switches = [float("inf") if r["switch"] is None else r["switch"] for r in results[way]]
        print(f"median switch{' (--load)' if way else ''}: {statistics.median(switches):.2f} s after the first "
              f"reset ({args.runs} fresh processes)")
    if args.json:
        import numba
        from tables import machine, write_table

        write_table(
            args.json, machine=machine([load_before, load_after], f"numba {numba.__version__}"),
            title="Compiled speed from the first steps: a fresh process's single gym env",
            command=f"python benchmarks/bench_compiled_switch.py --runs {args.runs} --seconds {args.seconds:g} "
                    f"--json benchmarks/results/compiled-switch.json",
            note="`gymnasium.make(\"mazeplugin/Maze-v0\")` (MiniGrid mode), reset, random actions for "
                 f"{args.seconds:g} s in a fresh process, numba's disk cache warm, MAZEPLUGIN_COMPILED unset "
                 "(auto). Default: the env loads its compiled step in the background and steps plain until "
                 "it is ready; with `compiled.warm_up([\"gym\", \"backtracker\"])` before the first reset "
                 "it steps compiled from the first step. Switch = time from the first reset to the first "
                 "step on the compiled kernel (each run's in brackets). The two ways alternated. Steps/s follow "
                 "the machine's load (the quiet-machine figure is the gym table's); the switch is the figure here. "
                 "The default's first second is slow by design: until the kernel is ready, each step cedes the "
                 "GIL to the loader (for the first 5 s at most).",
            columns=["how", "runs", "compiled from (median)", "warm_up before the reset", "steps/s in the first second",
                     "steps/s from second 5 (median)"],
            rows=[row("default (background load)", results[False]),
                  row("`compiled.warm_up([\"gym\", \"backtracker\"])` first", results[True])])


if __name__ == "__main__":
    main()
