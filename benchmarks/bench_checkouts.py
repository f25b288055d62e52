"""Two checkouts side by side: ``mp.generate`` per generator and grid, plain and compiled, medians and ratios.

    python benchmarks/bench_checkouts.py --before /tmp/before --after .            # every neighbour-only generator
    python benchmarks/bench_checkouts.py --before /tmp/before --after . --rounds 5 --cells 40000
    python benchmarks/bench_checkouts.py ... --write benchmarks/checkouts.json

For a refactor that must not slow anything down: each checkout's
``mazeplugin`` runs in its own child process (``PYTHONPATH`` set to the
checkout), one per (checkout, path), kept alive and asked for one measurement
at a time, so the two checkouts are timed alternately in the same minutes and a
change in the machine's load hits both alike. A measurement is the median of
``--repeat`` calls of ``mp.generate(name, w, h, seed=k, grid=..., wrap=...)``
with a fresh seed each call; kernels are loaded (and compiled) before any
timing. The figure reported per case is the median over ``--rounds`` rounds,
and ``after / before`` (below 1: faster).

A before/after comparison is development evidence, not one of today's figures:
write it outside ``benchmarks/results/`` (whose files are the site's tables).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
from typing import Any, Dict, List, Tuple

GENERATORS = ["aldous-broder", "backtracker", "growing-tree", "hunt-and-kill", "kruskal", "prim",
              "prim-simplified", "union-find", "wilson"]
GRIDS = [("square", None), ("hex", None), ("triangle", None), ("square", "xy")]

CHILD = r"""
import json, os, statistics, sys, time
import mazeplugin as mp
from mazeplugin import compiled
if os.environ.get("MAZEPLUGIN_COMPILED") == "1":
    compiled.warm_up()  # every kernel loaded (compiled or read from the cache) before any timing
print("ready", flush=True)
for line in sys.stdin:
    name, w, h, grid, wrap, repeat = json.loads(line)
    times = []
    for k in range(repeat + 1):
        t = time.perf_counter()
        mp.generate(name, w, h, seed=k, grid=grid, wrap=wrap)
        times.append(time.perf_counter() - t)
    print(json.dumps(statistics.median(times[1:])), flush=True)
"""


def start(tree: str, mode: str) -> subprocess.Popen:  # type: ignore[type-arg]
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree), MAZEPLUGIN_COMPILED=mode)
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, env=env, cwd=os.path.abspath(tree))
    assert child.stdout is not None
    if child.stdout.readline().strip() != "ready":
        raise SystemExit(f"{tree}: the child did not start")
    return child


def ask(child: subprocess.Popen, case: List[Any]) -> float:  # type: ignore[type-arg]
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(json.dumps(case) + "\n")
    child.stdin.flush()
    return float(json.loads(child.stdout.readline()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True, help="the reference checkout (its mazeplugin/ is imported)")
    parser.add_argument("--after", default=".", help="the checkout measured against it")
    parser.add_argument("--cells", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--paths", default="0,1", help="MAZEPLUGIN_COMPILED values: 0 plain, 1 compiled")
    parser.add_argument("--only", default="", help="only these generators (comma-separated)")
    parser.add_argument("--write", metavar="PATH", help="write the results as JSON")
    args = parser.parse_args()
    side = int(math.sqrt(args.cells))
    names = [n for n in GENERATORS if not args.only or n in args.only.split(",")]
    results: Dict[str, Dict[str, Any]] = {}
    for mode in args.paths.split(","):
        children = {tree: start(tree, mode) for tree in (args.before, args.after)}
        samples: Dict[Tuple[str, str, str], Dict[str, List[float]]] = {}
        for _ in range(args.rounds):
            for name in names:
                for grid, wrap in GRIDS:
                    key = (name, grid + ("-wrap" if wrap else ""), mode)
                    for tree, child in children.items():
                        t = ask(child, [name, side, side, grid, wrap, args.repeat])
                        samples.setdefault(key, {}).setdefault(tree, []).append(t)
        for child in children.values():
            child.kill()
        for (name, grid, m), by_tree in samples.items():
            before = statistics.median(by_tree[args.before])
            after = statistics.median(by_tree[args.after])
            path = "compiled" if m == "1" else "plain"
            results[f"{name} {grid} {path}"] = {"before_ms": round(1000 * before, 3),
                                               "after_ms": round(1000 * after, 3),
                                               "ratio": round(after / before, 3)}
            print(f"{name:16} {grid:12} {path:8} before {1000 * before:9.2f} ms  after {1000 * after:9.2f} ms"
                  f"  ratio {after / before:5.2f}", flush=True)
    ratios = [r["ratio"] for r in results.values()]
    print(f"median ratio after/before over {len(ratios)} cases: {statistics.median(ratios):.3f}")
    if args.write:
        with open(args.write, "w", encoding="utf-8") as f:
            json.dump({"cells": args.cells, "rounds": args.rounds, "repeat": args.repeat, "results": results}, f,
                      indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
