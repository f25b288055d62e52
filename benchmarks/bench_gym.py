"""Steps and resets per second of mazeplugin.gym, side by side with MiniGrid.

    python benchmarks/bench_gym.py                      # ours only
    python benchmarks/bench_gym.py --compare minigrid   # and MiniGrid, in its own virtual environment

MiniGrid is never a dependency of mazeplugin: ``--compare minigrid`` runs it
in a separate virtual environment (``--minigrid-venv``, default
``/work/bench-venv-minigrid``; created with ``minigrid==3.2.0`` from PyPI the
first time), in a child process that answers one measurement per request, so
the two are timed alternately in the same run and compared by medians.

What is measured (random actions, MiniGrid mode with its egocentric 7 × 7
view, one process, the same cores):

- single env: ``mazeplugin/MazeKeys-v0`` at 7 × 7 cells (15 × 15 tiles, the
  size of MiniGrid's ``DoorKey-16x16`` grid inside its wall) against
  ``MiniGrid-DoorKey-16x16-v0``; steps/s, resetting when an episode ends;
  (ours resets more often: its max_steps at this size is 900, DoorKey's 2,560);
- batched: ``MazeVectorEnv`` of 1,024 and 4,096 envs against MiniGrid's
  ``SyncVectorEnv`` of 64; steps/s summed over envs, two ways: 50 steps a
  round (25 for MiniGrid), which no episode of either side lasts long enough
  to end in (max_steps 900 and 2,560), so no autoreset is timed; and
  ``--episode-steps`` + 1 steps from a reset with both sides' ``max_steps``
  set to it (default 2,560, DoorKey-16x16's), so that every env ends an
  episode (at the goal or truncated) and autoresets at least once in the
  timed steps: the steady state of training, level making included;
- reset: median ``reset()`` of a 15 × 15-cell level with 2 keys after the
  kernels load (the compiled path when numba is installed), against
  ``DoorKey-16x16``'s.

Figures vary with the machine's load: compare within one run only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Dict, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402

MINIGRID_VERSION = "3.2.0"
CLOCK = time.perf_counter
DEFAULT_VENV = "/work/bench-venv-minigrid"
DOORKEY_MAX_STEPS = 10 * 16 * 16
"""MiniGrid's ``max_steps`` for ``DoorKey-16x16``: the episode length of the autoreset rows, on both sides."""

WORKER = r'''
import json, sys, time
import numpy as np
clock = time.process_time if sys.argv[1] == "cpu" else time.perf_counter
import gymnasium
import minigrid  # noqa: F401  registers MiniGrid-*

def single(steps):
    env = gymnasium.make("MiniGrid-DoorKey-16x16-v0")
    env.reset(seed=0)
    actions = np.random.default_rng(0).integers(7, size=steps).tolist()
    start = clock()
    for a in actions:
        _, _, term, trunc, _ = env.step(a)
        if term or trunc:
            env.reset()
    return steps / (clock() - start)

def vector(n, steps):
    envs = gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("MiniGrid-DoorKey-16x16-v0") for _ in range(n)])
    envs.reset(seed=0)
    actions = np.random.default_rng(0).integers(7, size=(steps, n))
    start = clock()
    for a in actions:
        envs.step(a)
    return steps * n / (clock() - start)

def episodes(n, max_steps):
    make = lambda: gymnasium.make("MiniGrid-DoorKey-16x16-v0", max_steps=max_steps)
    envs = gymnasium.vector.SyncVectorEnv([make for _ in range(n)])
    envs.reset(seed=0)
    steps = max_steps + 1
    actions = np.random.default_rng(0).integers(7, size=(steps, n), dtype=np.int8)
    ends = 0
    start = clock()
    for a in actions:
        _, _, term, trunc, _ = envs.step(a)
        ends += int(np.count_nonzero(term | trunc))
    return steps * n / (clock() - start), ends

def reset(count):
    env = gymnasium.make("MiniGrid-DoorKey-16x16-v0")
    times = []
    for seed in range(count):
        start = clock()
        env.reset(seed=seed)
        times.append(clock() - start)
    return float(np.median(times))

print(json.dumps({"versions": {"minigrid": __import__("minigrid").__version__, "gymnasium": gymnasium.__version__}}), flush=True)
for line in sys.stdin:
    what, *args = line.split()
    value = {"single": single, "vector": vector, "episodes": episodes, "reset": reset}[what](*map(int, args))
    ends = None
    if isinstance(value, tuple):
        value, ends = value
    print(json.dumps({"value": value, "ends": ends}), flush=True)
'''


class MiniGrid:
    """MiniGrid in its own venv: a child process that answers one measurement per line."""

    def __init__(self, venv: str, clock: str) -> None:
        python = os.path.join(venv, "bin", "python")
        if not os.path.exists(python):
            print(f"creating {venv} with minigrid=={MINIGRID_VERSION} from PyPI ...", file=sys.stderr)
            subprocess.run([sys.executable, "-m", "venv", venv], check=True, timeout=600)
            subprocess.run([python, "-m", "pip", "install", "-q", f"minigrid=={MINIGRID_VERSION}"], check=True, timeout=900)
        self.proc = subprocess.Popen(
            [python, "-c", WORKER, clock], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env=dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=""),
        )
        self.versions = json.loads(self._line())["versions"]

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the MiniGrid worker stopped")
        return line

    def ask(self, *words: object) -> float:
        return self.ask_full(*words)[0]

    def ask_full(self, *words: object) -> Tuple[float, int]:
        """The measurement and, for ``episodes``, how many episodes ended in the timed steps."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(" ".join(map(str, words)) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self._line())
        return float(answer["value"]), int(answer["ends"] or 0)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def ours_single(steps: int, mode: str = "minigrid") -> float:
    import gymnasium
    import mazeplugin.gym  # noqa: F401

    env = gymnasium.make("mazeplugin/MazeKeys-v0", width=7, height=7, mode=mode).unwrapped
    env.reset(seed=0)
    actions = np.random.default_rng(0).integers(env.action_space.n, size=steps).tolist()
    start = CLOCK()
    for a in actions:
        _, _, term, trunc, _ = env.step(a)
        if term or trunc:
            env.reset()
    return steps / (CLOCK() - start)


_VECTORS: Dict[int, object] = {}


def ours_vector(n: int, steps: int) -> float:
    import mazeplugin.gym as mg

    envs = _VECTORS.get(n)
    if envs is None:
        envs = _VECTORS[n] = mg.MazeVectorEnv(n, "backtracker", 7, 7, keys=2)
        envs.reset(seed=0)  # type: ignore[attr-defined]
    actions = np.random.default_rng(0).integers(7, size=(steps, n))
    start = CLOCK()
    for a in actions:
        envs.step(a)  # type: ignore[attr-defined]
    return steps * n / (CLOCK() - start)


def ours_episodes(n: int, max_steps: int) -> Tuple[float, int]:
    """Steps/s of ``n`` fresh envs over ``max_steps + 1`` steps: every env ends an episode and autoresets at least once.

    Also returns how many episodes ended in the timed steps.
    """
    import mazeplugin.gym as mg

    envs = mg.MazeVectorEnv(n, "backtracker", 7, 7, keys=2, max_steps=max_steps)
    envs.reset(seed=0)
    actions = np.random.default_rng(0).integers(7, size=(max_steps + 1, n), dtype=np.int8)
    ends = 0
    start = CLOCK()
    for a in actions:
        _, _, terminated, truncated, _ = envs.step(a)
        ends += int(np.count_nonzero(terminated | truncated))
    took = CLOCK() - start
    envs.close()
    return len(actions) * n / took, ends


def ours_reset(count: int) -> float:
    import mazeplugin.gym as mg

    env = mg.MazeEnv("backtracker", 15, 15, keys=2)
    times = []
    for seed in range(count):
        start = CLOCK()
        env.reset(seed=seed)
        times.append(CLOCK() - start)
    return float(np.median(times))


def wait_for_kernels() -> str:
    """Load the kernels now (not in the background), so resets are timed on the compiled path."""
    import mazeplugin.compiled as compiled

    if not compiled.available():
        return "plain path (numba not installed)"
    from mazeplugin import _compiled

    # The kernels a reset and a batch of autoresets use (the maze, searches, keys, seeds' streams), loaded before timing.
    compiled.warm_up([k for k in ("backtracker", "bfs", "content", "streams", "locks") if k in _compiled.KERNELS])
    from mazeplugin.gym.kernels import view_kernel

    view_kernel()  # the compiled view too
    return "compiled path"


def duplicates(count: int, generators: List[str]) -> int:
    """Print the duplicate rate of ``count`` seeds at 9 x 9 cells per generator (levels compared by digest)."""
    import mazeplugin.gym as mg

    path = wait_for_kernels()
    print(f"duplicate levels among seeds 0..{count - 1:,} at 9 x 9 cells ({path}; by mazeplugin.gym.level_digest)")
    print()
    print("| generator | seeds | distinct levels | duplicate rate | time |")
    print("|---|---|---|---|---|")
    for name in generators:
        spec = mg.LevelSpec(name, 9, 9)
        start = time.perf_counter()
        seen = set()
        for seed in range(count):
            seen.add(mg.level_digest(spec.make(seed)))
        took = time.perf_counter() - start
        print(f"| `{name}` | {count:,} | {len(seen):,} | {(count - len(seen)) / count:.4%} | {took:.0f} s |", flush=True)
    return 0


def main(argv: "List[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", choices=["minigrid"], help="time MiniGrid side by side, in its own venv")
    parser.add_argument("--minigrid-venv", default=DEFAULT_VENV, help=f"its virtual environment (default {DEFAULT_VENV})")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds; medians are reported (default 5)")
    parser.add_argument("--steps", type=int, default=20_000, help="single-env steps per round (default 20,000)")
    parser.add_argument("--envs", type=int, nargs="+", default=[1024, 4096], help="batch sizes (default 1024 4096)")
    parser.add_argument("--episode-steps", type=int, default=DOORKEY_MAX_STEPS,
                        help="max_steps of both sides' envs in the autoreset rows, which time max_steps + 1 steps "
                             f"(default {DOORKEY_MAX_STEPS:,}, DoorKey-16x16's own; 0 leaves those rows out)")
    parser.add_argument("--quick", action="store_true", help="fewer steps: a look, not a figure")
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                        help="wall time (default) or the process's CPU time (fairer on a loaded machine)")
    parser.add_argument("--duplicates", type=int, metavar="N",
                        help="instead: the share of N seeds (0..N-1) at 9 x 9 cells whose level an earlier seed made")
    parser.add_argument("--generators", nargs="+", default=["backtracker", "kruskal", "wilson", "prim-simplified"],
                        help="generators for --duplicates")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.steps < 1:
        parser.error("--rounds and --steps must be at least 1")
    if args.duplicates is not None:
        return duplicates(args.duplicates, args.generators)
    steps = 2_000 if args.quick else args.steps
    vector_steps = 10 if args.quick else 50
    episode_steps = min(args.episode_steps, 100) if args.quick else args.episode_steps
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    path = wait_for_kernels()
    other = MiniGrid(args.minigrid_venv, args.clock) if args.compare else None
    ours: Dict[str, List[float]] = {}
    theirs: Dict[str, List[float]] = {}
    ends: Dict[str, List[int]] = {}
    for _ in range(args.rounds):
        if other is not None:
            theirs.setdefault("single", []).append(other.ask("single", max(steps // 4, 500)))
            theirs.setdefault("vector", []).append(other.ask("vector", 64, max(vector_steps // 2, 5)))
            theirs.setdefault("reset", []).append(other.ask("reset", 200))
            if episode_steps:
                rate, ended = other.ask_full("episodes", 64, episode_steps)
                theirs.setdefault("episodes", []).append(rate)
                ends.setdefault("theirs", []).append(ended)
        ours.setdefault("single", []).append(ours_single(steps))
        ours.setdefault("simple", []).append(ours_single(steps, "simple"))
        for n in args.envs:
            ours.setdefault(f"vector{n}", []).append(ours_vector(n, vector_steps))
        ours.setdefault("reset", []).append(ours_reset(200))
        for n in args.envs if episode_steps else []:
            rate, ended = ours_episodes(n, episode_steps)
            ours.setdefault(f"episodes{n}", []).append(rate)
            ends.setdefault(f"ours{n}", []).append(ended)
    if other is not None:
        other.close()
    med = {k: statistics.median(v) for k, v in ours.items()}
    them = {k: statistics.median(v) for k, v in theirs.items()}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"mazeplugin.gym, {args.rounds} rounds, medians of {args.clock} time; levels on the {path}; "
          f"load average {load:.1f} on {os.cpu_count()} cores")
    if other is not None:
        print(f"MiniGrid {other.versions['minigrid']} (gymnasium {other.versions['gymnasium']}) in {args.minigrid_venv}")
    print()
    print("| what | mazeplugin.gym | MiniGrid | ratio |")
    print("|---|---|---|---|")

    def row(what: str, mine: float, key: str, unit: str, better: str = "higher") -> None:
        if key in them:
            ratio = mine / them[key] if better == "higher" else them[key] / mine
            print(f"| {what} | {mine:,.0f} {unit} | {them[key]:,.0f} {unit} | {ratio:,.1f}× |")
        else:
            print(f"| {what} | {mine:,.0f} {unit} | – | – |")

    row("single env, MiniGrid mode, 15 × 15 tiles, 2 keys (vs DoorKey-16x16)", med["single"], "single", "steps/s")
    row("single env, simple mode, same levels", med["simple"], "single", "steps/s")
    for n in args.envs:
        row(f"batched, {n:,} envs, {vector_steps} steps a round, no resets in them (vs SyncVectorEnv of 64)",
            med[f"vector{n}"], "vector", "steps/s")
    for n in args.envs if episode_steps else []:
        row(f"batched, {n:,} envs, {episode_steps + 1:,} steps from a reset, every episode ended and autoreset "
            f"(both max_steps={episode_steps:,}; vs SyncVectorEnv of 64)", med[f"episodes{n}"], "episodes", "steps/s")
    mine, key = med["reset"] * 1e3, "reset"
    if key in them:
        print(f"| reset(), 15 × 15 cells, 2 keys (vs DoorKey-16x16) | {mine:.2f} ms | {them[key] * 1e3:.2f} ms | {them[key] * 1e3 / mine:.1f}× |")
    else:
        print(f"| reset(), 15 × 15 cells, 2 keys | {mine:.2f} ms | – | – |")
    if ends:
        print()
        print("episodes ended in the timed steps of the autoreset rows (per round): "
              + "; ".join(f"{k}: {', '.join(f'{e:,}' for e in v)}" for k, v in ends.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
