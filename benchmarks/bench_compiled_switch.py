"""When a fresh process's single gym env starts stepping on the compiled path.

    python benchmarks/bench_compiled_switch.py [--runs 3] [--seconds 40] [--load]

Each run is a fresh Python process that makes ``mazeplugin/Maze-v0`` (MiniGrid
mode), resets it and steps random actions (resetting when an episode ends) for
``--seconds``, printing its steps/s second by second and the time from the
first reset to the first step taken by the compiled step kernel
(:func:`mazeplugin.gym.kernels.step_kernel` ready). ``--load`` loads the
compiled path before the first reset instead (``mazeplugin.compiled.load()``),
and reports how long that took. numba's disk cache should be warm (run
``python -m mazeplugin.compiled`` once): this measures loading, not compiling.
Figures vary with the machine's load: compare runs of one sitting.
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
    compiled.load(["gym"])
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--load", action="store_true", help="load the compiled path before the first reset")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "MAZEPLUGIN_COMPILED"}  # auto, as a user has it
    switches = []
    for run in range(args.runs):
        done = subprocess.run([sys.executable, "-c", CHILD, "1" if args.load else "0", str(args.seconds)],
                              env=env, capture_output=True, text=True, check=True)
        result = json.loads(done.stdout.strip().splitlines()[-1])
        switch = result["switch"]
        switches.append(float("inf") if switch is None else switch)
        loading = "" if result["load"] is None else f", load() {result['load']:.2f} s before the first reset"
        print(f"run {run + 1}: compiled from {'never' if switch is None else f'{switch:.2f} s'} after the first "
              f"reset{loading}; steps/s by second: {result['per_second']}", flush=True)
    print(f"median switch: {statistics.median(switches):.2f} s after the first reset ({args.runs} fresh processes)")


if __name__ == "__main__":
    main()
