"""Where a batched step's time goes: the whole ``MazeVectorEnv.step`` against its compiled kernel, per env-step.

    python benchmarks/bench_gym_step.py                       # 1,024 and 4,096 envs, this checkout
    python benchmarks/bench_gym_step.py --envs 256 1024 4096 --steps 300

MiniGrid mode (egocentric 7 × 7 view), ``backtracker`` levels of 7 × 7 cells
with ``keys=2`` (the setting of ``bench_gym.py``'s batched rows), random
actions. Each step is timed alone (CPU time, ``time.process_time``) and so is
the compiled kernel inside it; steps in which an env started a new level
(autoresets) are left out, so the figures are the steady state of stepping.
Printed: medians in ns per env-step for the whole step and the kernel, and
the rest (Python, numpy's small arrays, numba's dispatch) in µs per step.
Needs numba (the compiled step); without it there is no kernel to time.
For before/after, run the script of each checkout alternately
(``PYTHONPATH=/tmp/before python /tmp/before/benchmarks/bench_gym_step.py``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any, Callable, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import numpy as np  # noqa: E402


def main(argv: "List[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, nargs="+", default=[1024, 4096], help="batch sizes (default 1024 4096)")
    parser.add_argument("--steps", type=int, default=300, help="random steps a round (default 300)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per batch size (default 3)")
    args = parser.parse_args(argv)
    import mazeplugin.gym as mg
    from mazeplugin.gym import engine
    from mazeplugin.gym.kernels import step_kernel

    kernel = step_kernel()
    if kernel is None:
        print("numba is not installed (or MAZEPLUGIN_COMPILED=0): no compiled step to time")
        return 1
    spent = [0.0]

    def timed(*arguments: Any) -> int:
        start = time.process_time()
        ended: int = kernel(*arguments)
        spent[0] += time.process_time() - start
        return ended

    def timed_kernel(wait: bool = True) -> Callable[..., int]:
        return timed

    engine.step_kernel = timed_kernel  # the engine asks for its kernel at every step: it gets the timed one
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"CPU time, medians of {args.rounds} × {args.steps} steps less those with autoresets; load average {load:.1f}")
    print()
    print("| envs | whole step, ns per env-step | kernel, ns per env-step | the rest, µs per step |")
    print("|---|---|---|---|")
    for n in args.envs:
        envs = mg.MazeVectorEnv(n, "backtracker", 7, 7, keys=2)
        envs.reset(seed=0)
        actions = np.random.default_rng(0).integers(7, size=(args.steps, n))
        whole: List[float] = []
        inside: List[float] = []
        for _ in range(args.rounds):
            for action in actions:
                spent[0] = 0.0
                start = time.process_time()
                *_, info = envs.step(action)
                took = time.process_time() - start
                if not info["_level_seed"].any():
                    whole.append(took)
                    inside.append(spent[0])
        rest = statistics.median(w - k for w, k in zip(whole, inside))
        print(f"| {n:,} | {statistics.median(whole) / n * 1e9:.1f} | {statistics.median(inside) / n * 1e9:.1f} | "
              f"{rest * 1e6:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
