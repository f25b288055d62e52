"""What a spec entry's "columns" cost: a dataset build with them against the same build without, side by side.

    python benchmarks/bench_dataset_columns.py              # 9 x 9 and 32 x 32, without and with keys=2
    python benchmarks/bench_dataset_columns.py --rounds 7   # more rounds (default 5)
    python benchmarks/bench_dataset_columns.py --quick      # a tenth of the levels, 3 rounds: a smoke run
    python benchmarks/bench_dataset_columns.py --write      # + benchmarks/results/dataset-columns.json

Each case (a size, keys or not) builds the same entry with no columns, with
``["solution", "actions"]`` and with each column alone, one worker, in this
process, into a fresh temporary folder. The builds of a case are timed in
rounds, every variant once a round in turn, so a load that comes and goes
on a shared machine falls on all of them; the figure is the median CPU time
over the rounds (wall-clock medians and the load average are printed too).
The ratio is a variant's median over the median of the build without
columns: what asking for the columns multiplies a build's time by.
Nothing is asserted. Runs on the compiled path (``MAZEPLUGIN_COMPILED=1``);
every kernel is loaded by a small build of each variant before timing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

os.environ.setdefault("MAZEPLUGIN_COMPILED", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import mazeplugin as mp  # noqa: E402
import mazeplugin.dataset as ds  # noqa: E402
from tables import machine, write_table  # noqa: E402  (benchmarks/tables.py)

RESULT = Path(__file__).resolve().parent / "results" / "dataset-columns.json"

VARIANTS: List[Tuple[str, List[str]]] = [
    ("none", []), ("solution + actions", ["solution", "actions"]), ("solution", ["solution"]),
    ("distances", ["distances"]), ("moves", ["moves"]), ("actions", ["actions"]), ("tokens", ["tokens"]),
    ("images", ["images"]),
]
# (size, keys, levels): each build without columns a fraction of a CPU-second here.
CASES = [(9, 0, 20000), (9, 2, 1000), (32, 0, 2000), (32, 2, 200)]


def build_seconds(spec: Dict[str, Any]) -> Tuple[float, float]:
    """``(CPU seconds, wall seconds)`` of one build of ``spec`` with one worker, in a fresh folder."""
    folder = tempfile.mkdtemp(prefix="mazeplugin-bench-columns-")
    try:
        start, cpu = time.perf_counter(), time.process_time()
        ds.build(spec, os.path.join(folder, "out"), workers=1)
        return time.process_time() - cpu, time.perf_counter() - start
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_case(size: int, keys: int, count: int, rounds: int) -> List[Dict[str, Any]]:
    base: Dict[str, Any] = {"generator": "backtracker", "width": size, "height": size, "count": count,
                            "shard_size": count}
    if keys:
        base["keys"] = keys
    specs = [(name, dict(base, columns=columns) if columns else base) for name, columns in VARIANTS]
    for _, spec in specs:
        build_seconds(dict(spec, count=min(count, 20), shard_size=min(count, 20)))  # kernels loaded first
    cpu: Dict[str, List[float]] = {name: [] for name, _ in specs}
    wall: Dict[str, List[float]] = {name: [] for name, _ in specs}
    loads = []
    for _ in range(rounds):
        loads.append(os.getloadavg()[0])
        for name, spec in specs:
            c, w = build_seconds(spec)
            cpu[name].append(c)
            wall[name].append(w)
    plain = statistics.median(cpu["none"])
    plain_wall = statistics.median(wall["none"])
    rows = []
    for name, _ in specs:
        c, w = statistics.median(cpu[name]), statistics.median(wall[name])
        rows.append({"size": size, "keys": keys, "levels": count, "columns": name, "cpu_s": c, "wall_s": w,
                     "levels_per_cpu_s": count / c, "ratio": c / plain, "wall_ratio": w / plain_wall,
                     "load": statistics.median(loads)})
    return rows


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--write", action="store_true", help=f"write {RESULT.relative_to(RESULT.parents[2])}")
    args = parser.parse_args(argv)
    rounds = 3 if args.quick else args.rounds
    print(f"| size | keys | levels | columns | levels per CPU-second | x no columns (CPU) | x (wall) | load |")
    print("|---|---:|---:|---|---:|---:|---:|---:|")
    rows = []
    for size, keys, count in CASES:
        count = max(20, count // (10 if args.quick else 1))
        for row in run_case(size, keys, count, rounds):
            rows.append(row)
            print(f"| {size} x {size} | {keys} | {count:,} | {row['columns']} | {row['levels_per_cpu_s']:,.0f} | "
                  f"{row['ratio']:.2f} | {row['wall_ratio']:.2f} | {row['load']:.1f} |", flush=True)
    if args.write:
        loads = sorted({round(r["load"], 1) for r in rows})
        write_table(
            RESULT, machine=machine(f"load average {loads[0]}-{loads[-1]} during the run"),
            title="Dataset columns: a build with them against the same build without",
            command="MAZEPLUGIN_COMPILED=1 python benchmarks/bench_dataset_columns.py --write",
            note=("backtracker, one worker, one shard; each variant built once a round in turn, median CPU time "
                  f"over {rounds} rounds; \"x no columns\" is that median over the median of the same build "
                  "without columns. Solutions, distances, moves and actions come from compiled calls over the "
                  "whole shard (`_compiled.routes`), the images from one numpy step a shard; tokens are still "
                  "made level by level."),
            columns=["size", "keys", "levels", "columns", "levels per CPU-second", "× no columns"],
            rows=[[f"{r['size']} x {r['size']}", str(r["keys"]), f"{r['levels']:,}", r["columns"],
                   f"{r['levels_per_cpu_s']:,.0f}", f"{r['ratio']:.2f}×"] for r in rows],
            measurements=rows,
            mazeplugin=mp.__version__)
        print(f"wrote {RESULT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
