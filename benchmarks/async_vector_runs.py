"""``gymnasium.make_vec(..., vectorization_mode="async")`` in many fresh processes: how many run.

    python benchmarks/async_vector_runs.py [--runs 100] [--context fork] [--jobs 2]

Each run is a fresh Python process that makes ``mazeplugin/Maze-v0`` as an
async vector env of two workers (``--context``: fork, spawn or forkserver;
default gymnasium's, fork on Linux), resets it, takes 20 steps and closes it;
a run counts as ok when the process exits 0 within ``--timeout`` seconds and
prints the observation's shape. Before the fork-safe loader this crashed 9
runs in 10 (a half-imported kernel module in the forked worker). Prints
``N/RUNS ok`` and the first failure's last lines.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

CODE = r"""
import gymnasium, numpy as np, mazeplugin.gym
kwargs = {} if CONTEXT is None else {"vector_kwargs": {"context": CONTEXT}}
envs = gymnasium.make_vec("mazeplugin/Maze-v0", num_envs=2, vectorization_mode="async", **kwargs)
obs, info = envs.reset(seed=1)
for _ in range(20):
    obs, *_ = envs.step(np.array([2, 1]))
envs.close()
print(obs["image"].shape)
"""


def run(code: str, timeout: float) -> str:
    """'' when the run is ok, else what went wrong."""
    env = {k: v for k, v in os.environ.items() if k != "MAZEPLUGIN_COMPILED"}  # auto, as a user has it
    try:
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"hung (no answer in {timeout:.0f} s)"
    if done.returncode == 0 and done.stdout.strip() == "(2, 7, 7, 3)":
        return ""
    return f"exit {done.returncode}: " + "\n".join(done.stderr.strip().splitlines()[-5:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--context", choices=["fork", "spawn", "forkserver"], default=None)
    parser.add_argument("--jobs", type=int, default=2, help="runs at a time")
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args()
    code = CODE.replace("CONTEXT", repr(args.context))
    with ThreadPoolExecutor(args.jobs) as pool:
        failures = [f for f in pool.map(lambda _: run(code, args.timeout), range(args.runs)) if f]
    print(f"{args.runs - len(failures)}/{args.runs} ok" + (f" ({args.context})" if args.context else ""))
    if failures:
        print("first failure:", failures[0])


if __name__ == "__main__":
    main()
