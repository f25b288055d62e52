"""Every vectorization mode of ``gymnasium.make_vec`` in many fresh processes: how many run, and agree.

    python benchmarks/async_vector_runs.py [--runs 100] [--modes sync,fork,spawn,forkserver,entry]
                                           [--jobs 2] [--json benchmarks/results/vector-modes.json]

Each run is a fresh Python process that makes ``mazeplugin/MazeKeys-v0``
(4 × 4 cells, one key, ``max_steps=5``) as a vector env of two envs in one
mode, resets it with seed 11, takes 7 steps of the same random actions (past
``max_steps``: every env ends and autoresets) and closes it, printing a digest
of what it saw: each step's views, directions, missions, rewards, terminations
and truncations. The modes: ``sync``, ``async`` with the start method ``fork``,
``spawn`` or ``forkserver`` (gymnasium's shared memory on, its default), and
``entry`` (``vector_entry_point``: the batched :class:`~mazeplugin.gym.MazeVectorEnv`).
Everything runs as a user has it: ``MAZEPLUGIN_COMPILED`` unset (auto), the
workers' background load of the compiled kernels on, so a fork can catch a
kernel half loaded. A run is ok when its process exits 0 within ``--timeout``
seconds and its digest is the one the first ``sync`` run saw.

Prints ``N/RUNS ok`` per mode and the first failure's last lines; ``--json``
writes the table for ``docs/benchmarks.md``. Before the fork-safe loader,
``async`` with fork crashed 9 runs in 10 (a half-imported kernel module in
the forked worker).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List, Tuple

CODE = r"""
import hashlib, json, sys
import numpy as np
import gymnasium
import mazeplugin.gym
mode, context = sys.argv[1], (None if sys.argv[2] == "-" else sys.argv[2])
kwargs = {"vector_kwargs": {"context": context}} if mode == "async" else {}
envs = gymnasium.make_vec("mazeplugin/MazeKeys-v0", num_envs=2, vectorization_mode=mode, width=4, height=4, keys=1,
                          max_steps=5, **kwargs)
obs, info = envs.reset(seed=11)
seen = [(obs["image"].tolist(), obs["direction"].tolist(), list(obs["mission"]))]
rng = np.random.default_rng(0)
for _ in range(7):
    obs, reward, terminated, truncated, info = envs.step(rng.integers(0, 3, size=2))
    seen.append((obs["image"].tolist(), obs["direction"].tolist(), list(obs["mission"]), reward.tolist(),
                 terminated.tolist(), truncated.tolist()))
envs.close()
assert any(any(step[5]) for step in seen[1:]), "no env autoreset within the run"
print(hashlib.sha256(json.dumps(seen).encode()).hexdigest())
"""

MODES = {"sync": ("sync", "-"), "fork": ("async", "fork"), "spawn": ("async", "spawn"),
         "forkserver": ("async", "forkserver"), "entry": ("vector_entry_point", "-")}
LABELS = {"sync": "sync", "fork": "async, fork", "spawn": "async, spawn", "forkserver": "async, forkserver",
          "entry": "vector_entry_point (MazeVectorEnv)"}


def run(mode: str, timeout: float) -> Tuple[str, str, float]:
    """(digest, '' or what went wrong, wall seconds) of one fresh process running ``mode``."""
    env = {k: v for k, v in os.environ.items() if k != "MAZEPLUGIN_COMPILED"}  # auto, as a user has it
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-c", CODE, *MODES[mode]], env=env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "", f"hung (no answer in {timeout:.0f} s)", timeout
    took = time.perf_counter() - start
    lines = done.stdout.strip().splitlines()
    if done.returncode == 0 and lines and len(lines[-1]) == 64:
        return lines[-1], "", took
    return "", f"exit {done.returncode}: " + "\n".join(done.stderr.strip().splitlines()[-5:]), took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=100, help="fresh processes per mode")
    parser.add_argument("--modes", default=",".join(MODES), help=f"comma-separated, of: {', '.join(MODES)}")
    parser.add_argument("--jobs", type=int, default=2, help="runs at a time")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--json", default=None, help="write the results table here")
    args = parser.parse_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        parser.error(f"--modes: unknown {', '.join(unknown) or '(none given)'}; allowed: {', '.join(MODES)}")
    if args.runs < 1:
        parser.error(f"--runs must be at least 1, got {args.runs}")
    reference, problem, _ = run("sync", args.timeout)
    if problem:
        sys.exit(f"the reference sync run failed: {problem}")
    # Interleave the modes (sync, fork, spawn, ..., sync, fork, ...) so each meets the same machine load.
    order = [mode for _ in range(args.runs) for mode in modes]
    loads = [os.getloadavg()[0]]
    started = time.perf_counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda mode: run(mode, args.timeout), order))
    loads.append(os.getloadavg()[0])
    elapsed = time.perf_counter() - started
    rows: List[List[str]] = []
    first_failure: Dict[str, str] = {}
    for mode in modes:
        mine = [r for m, r in zip(order, results) if m == mode]
        ran = [r for r in mine if not r[1]]
        agree = [r for r in ran if r[0] == reference]
        for digest, problem, _ in mine:
            if problem or digest != reference:
                first_failure.setdefault(mode, problem or f"disagrees: digest {digest[:12]}, sync saw {reference[:12]}")
        hung = sum(r[1].startswith("hung") for r in mine)
        median = statistics.median(r[2] for r in mine)
        rows.append([LABELS[mode], f"{len(ran)}/{len(mine)}", f"{len(agree)}/{len(mine)}", str(hung), f"{median:.1f} s"])
        print(f"{mode}: {len(agree)}/{len(mine)} ok (ran {len(ran)}, hung {hung}, median {median:.1f} s a process)")
        if mode in first_failure:
            print(f"  first failure: {first_failure[mode]}")
    print(f"{len(order)} processes in {elapsed:.0f} s, load {loads[0]:.1f} before, {loads[1]:.1f} after")
    if args.json:
        import gymnasium
        from tables import machine, write_table

        write_table(
            args.json, title="Vectorization modes in fresh processes: every run agrees with sync",
            command=f"python benchmarks/async_vector_runs.py --runs {args.runs} --jobs {args.jobs} "
                    f"--json benchmarks/results/vector-modes.json",
            machine=machine(loads, f"gymnasium {gymnasium.__version__}"),
            note="Each run a fresh process: `gymnasium.make_vec(\"mazeplugin/MazeKeys-v0\", num_envs=2, "
                 "vectorization_mode=...)`, 4 × 4 cells, one key, max_steps 5, reset(seed=11), 7 steps across "
                 "an autoreset; agrees = its views, directions, missions, rewards, terminations and truncations "
                 "are those of the first sync run. As a user has it: compiled path auto, the workers' background "
                 "kernel load on, gymnasium's shared memory on for async. Modes interleaved, "
                 f"{args.jobs} runs at a time.",
            columns=["mode", "ran", "agrees with sync", "hung", "median wall time a process"], rows=rows)
    if first_failure:
        sys.exit(1)


if __name__ == "__main__":
    main()
