"""Dataset benchmarks: levels per second per core, 1 -> 2 worker scaling, Ray vs the process pool, memory, repeats.

    python benchmarks/bench_dataset.py                     # throughput and scaling (about a minute)
    python benchmarks/bench_dataset.py --ray               # + Ray on this machine at equal workers
    python benchmarks/bench_dataset.py --repeats 1000000   # + repeated levels among that many seeds, 5x5 and 9x9
    python benchmarks/bench_dataset.py --repeats 1000000 --only-repeats
    python benchmarks/bench_dataset.py --compare-maze-dataset   # + maze-dataset in its own venv
    python benchmarks/bench_dataset.py --quick             # smaller counts, for a smoke run
    python benchmarks/bench_dataset.py --before /tmp/before   # + throughput of another tree (git archive main),
                                                           #   alternated with this one, before/after table

Every figure is printed; nothing is asserted (the machine may be shared, so
the load average is printed beside the figures). Throughput runs on the
compiled path (``MAZEPLUGIN_COMPILED=1``; numba must be installed), each
build in a fresh temporary folder, median of ``--runs`` runs.

- "generate" is ``mp.generate`` alone; "build" is ``mazeplugin.dataset.build``
  with one worker: generate + ``stats()`` + digest + level code + the shard
  file, i.e. what a dataset costs per level; and the same with the entry's
  ``"stats": false`` (no ``stats()`` figures kept).
- Scaling builds one 9 x 9 spec of ``--scaling-levels`` levels (400,000:
  a real build, several seconds of work) with 1 and 2 workers, and times the
  process pool's start-up on its own (a build of two one-level shards with 2
  workers, less the same with 1), so the speed-up is given with and without it.
- Memory: the peak resident size of the worker processes (``ru_maxrss`` of
  the children) after builds of N and 4N levels: flat means a worker holds
  one shard, not the dataset.
- Projection: the 9 x 9 bytes per level and build rate, scaled to a
  10,000,000-level dataset here and on a 100-node cluster (``--node-cores``
  cores a node, perfect scaling assumed: shards are independent).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List

os.environ.setdefault("MAZEPLUGIN_COMPILED", "1")
# --tree DIR: time the mazeplugin of another source tree (an unpacked older commit, for --before)
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]) if "--tree" in sys.argv[:-1] else Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TREE))

import mazeplugin as mp  # noqa: E402
import mazeplugin.dataset as ds  # noqa: E402
from mazeplugin.dataset import building  # noqa: E402


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (worker processes)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


CPU: List[float] = []  # the CPU seconds of the last median_time's runs, median


def median_time(run: Any, runs: int) -> float:
    """Median wall seconds of ``runs`` runs; their median CPU seconds go to ``CPU[-1]``."""
    times, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), cpu_seconds()
        run()
        times.append(time.perf_counter() - start)
        cpus.append(cpu_seconds() - cpu)
    CPU.append(statistics.median(cpus))
    return statistics.median(times)


def build_once(spec: Dict[str, Any], **kwargs: Any) -> Dict[str, Any]:
    folder = tempfile.mkdtemp(prefix="mazeplugin-bench-dataset-")
    try:
        return ds.build(spec, os.path.join(folder, "out"), **kwargs)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


GENERATED: Dict[int, float] = {}
LEAN: Dict[int, float] = {}
SCALING: Dict[str, Any] = {}


THROUGHPUT_SIZES = ((9, 20000), (32, 2000), (128, 100))  # (size, levels): each build a few CPU-seconds or less


def throughput(args: argparse.Namespace, *, quiet: bool = False) -> Dict[int, float]:
    if not quiet:
        print("\n## Throughput, one core (levels per CPU-second, wall-clock levels/s in brackets; median of %d runs)\n"
              % args.runs)
        print("| size | levels | generate | build (npz shards) | build, \"stats\": false | bytes/level |")
        print("|---|---:|---:|---:|---:|---:|")
    rates = {}
    for size, count in THROUGHPUT_SIZES:
        count = max(10, count // (4 if args.quick else 1))
        mp.generate("backtracker", size, size, seed=0)  # compile / load the kernels first
        gen = median_time(lambda: [mp.generate("backtracker", size, size, seed=s) for s in range(count)], args.runs)
        gen_cpu = CPU[-1]
        spec = {"generator": "backtracker", "width": size, "height": size, "count": count,
                "shard_size": max(1, count // 4)}
        manifest: Dict[str, Any] = {}
        build_once(dict(spec, count=max(1, count // 10)), workers=1)  # the shard kernels loaded before timing

        def run() -> None:
            manifest.update(build_once(spec, workers=1))

        built = median_time(run, args.runs)
        built_cpu = CPU[-1]
        lean = median_time(lambda: build_once(dict(spec, stats=False), workers=1), args.runs)
        lean_cpu = CPU[-1]
        rates[size] = count / built_cpu
        GENERATED[size] = count / gen_cpu
        LEAN[size] = count / lean_cpu
        if quiet:
            continue
        print(f"| {size} x {size} | {count:,} | {count / gen_cpu:,.0f} ({count / gen:,.0f}) | "
              f"{count / built_cpu:,.0f} ({count / built:,.0f}) | {count / lean_cpu:,.0f} ({count / lean:,.0f}) | "
              f"{manifest['bytes'] / count:,.0f} |")
    return rates


def scaling(args: argparse.Namespace) -> None:
    """1 -> 2 workers on a build big enough to be a real one, and the pool's start-up on its own.

    One worker runs in this process; two run in a process pool whose start
    (forking the workers, their first task) is a fixed cost. It is timed
    alone, as a two-worker build of two one-level shards, and the speed-up is
    given with and without it.
    """
    count = args.scaling_levels // (10 if args.quick else 1)
    shard = max(1, min(10000, count // 40))
    spec = {"generator": "backtracker", "width": 9, "height": 9, "count": count, "shard_size": shard}
    tiny = {"generator": "backtracker", "width": 9, "height": 9, "count": 2, "shard_size": 1}
    print(f"\n## Scaling, 9 x 9, {count:,} levels, shards of {shard:,} (median of {args.runs} runs)\n")
    build_once(tiny, workers=2)  # kernels loaded (from the cache) before timing
    load = " ".join(f"{v:.2f}" for v in os.getloadavg())
    tiny_one = median_time(lambda: build_once(tiny, workers=1), max(args.runs, 5))
    tiny_two = median_time(lambda: build_once(tiny, workers=2), max(args.runs, 5))
    start_up = max(tiny_two - tiny_one, 0.0)
    one = median_time(lambda: build_once(spec, workers=1), args.runs)
    one_cpu = CPU[-1]
    two = median_time(lambda: build_once(spec, workers=2), args.runs)
    two_cpu = CPU[-1]
    print(f"- pool start-up: {start_up:.3f} s wall (a build of two one-level shards: {tiny_two:.3f} s with 2 "
          f"workers, {tiny_one:.3f} s with 1)")
    print(f"- 1 worker: {one:.2f} s, {count / one:,.0f} levels/s; 2 workers: {two:.2f} s, {count / two:,.0f} levels/s; "
          f"speed-up {one / two:.2f}x, {one / max(two - start_up, 1e-9):.2f}x without the start-up "
          f"(load average before: {load}); CPU seconds {one_cpu:.2f} with 1 worker, {two_cpu:.2f} with 2 "
          "(main process and workers)")
    print(f"- the pool's own cost: {two_cpu - one_cpu:+.2f} CPU-s ({100 * (two_cpu - one_cpu) / one_cpu:+.1f}%) and "
          f"{start_up:.3f} s of start-up; on two otherwise idle cores the speed-up would be about "
          f"{one_cpu / (two_cpu / 2 + start_up):.2f}x (the 2-worker CPU seconds split over two cores, plus the "
          "start-up: an estimate, not a measurement)")
    SCALING.update(count=count, shard=shard, two=two)
    if args.ray:
        try:
            import ray
        except ImportError:
            print("- Ray: not installed (pip install \"mazeplugin[cluster]\")")
            return
        start = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        started = time.perf_counter() - start
        try:
            build_once(spec, engine="ray", workers=2)  # warm the workers
            on_ray = median_time(lambda: build_once(spec, engine="ray", workers=2), args.runs)
        finally:
            ray.shutdown()
        print(f"- Ray, local, 2 CPUs: {count / on_ray:,.0f} levels/s, {on_ray / two:.2f}x the process pool's time "
              f"(ray.init took {started:.1f} s, not counted)")


def memory(args: argparse.Namespace) -> None:
    n = 5000 if args.quick else 20000
    print("\n## Worker memory (peak resident size of the worker processes)\n")
    for count in (n, 4 * n):
        spec = {"generator": "backtracker", "width": 9, "height": 9, "count": count, "shard_size": 1000}
        build_once(spec, workers=2)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"- after {count:,} levels, 2 workers: peak worker {peak:,.0f} MiB")


def repeats(args: argparse.Namespace) -> None:
    count = args.repeats
    print(f"\n## Repeated levels among {count:,} seeds (backtracker, border markers, digest equality)\n")
    for size in args.repeat_sizes:
        spec = ds.parse_spec({"generator": "backtracker", "width": size, "height": size, "count": count,
                              "shard_size": 10000})
        entry = spec.entries[0]
        tasks = [building.ShardTask(0, entry, shard, "", "", "npz") for shard in range(entry.shards)]
        seen = set()
        repeated = 0
        start = time.perf_counter()

        def done(task: building.ShardTask, block: bytes) -> None:
            nonlocal repeated
            for k in range(0, len(block), 32):
                d = block[k:k + 32]
                if d in seen:
                    repeated += 1
                else:
                    seen.add(d)

        building.run_tasks("processes", tasks, building.scan_digests, args.workers, None, done)
        took = time.perf_counter() - start
        print(f"- {size} x {size}: {repeated:,} of {count:,} repeat an earlier seed's level "
              f"({100 * repeated / count:.3f}%); {took:,.0f} s with {args.workers} workers")


MAZE_DATASET = ["maze-dataset==1.4.2", "muutils<0.9"]  # muutils 0.9 removed a name maze-dataset 1.4.2 imports
MAZE_DATASET_RUN = r"""
import statistics, time
import numpy as np
from maze_dataset.generation import LatticeMazeGenerators

for size, count in ((9, 400), (32, 40), (128, 4)):
    LatticeMazeGenerators.gen_dfs(np.array([size, size]))
    runs = []
    for _ in range(3):
        start = time.process_time()  # CPU seconds: the machine may be shared
        for _ in range(count):
            LatticeMazeGenerators.gen_dfs(np.array([size, size]))
        runs.append(time.process_time() - start)
    print(f"{size} {count / statistics.median(runs)}")
"""


def compare_maze_dataset(rates: Dict[int, float], generated: Dict[int, float], venv: Path) -> None:
    """maze-dataset's own DFS generation, in its own venv (``--maze-dataset-venv``, made on first use)."""
    import subprocess

    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *MAZE_DATASET], check=True, timeout=1200)
    done = subprocess.run([str(python), "-c", MAZE_DATASET_RUN], capture_output=True, text=True, timeout=1200,
                          check=True)
    theirs = {int(a): float(b) for a, b in (line.split() for line in done.stdout.split("\n") if line.strip())}
    print(f"\n## Against maze-dataset ({MAZE_DATASET[0]}, `LatticeMazeGenerators.gen_dfs`, levels per CPU-second)\n")
    print("| size | maze-dataset gen_dfs | mazeplugin generate | ratio | mazeplugin dataset build | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for size, rate in sorted(theirs.items()):
        print(f"| {size} x {size} | {rate:,.1f} | {generated[size]:,.0f} | {generated[size] / rate:,.0f}x | "
              f"{rates[size]:,.0f} | {rates[size] / rate:,.0f}x |")


def projection(rates: Dict[int, float], args: argparse.Namespace) -> None:
    spec = {"generator": "backtracker", "width": 9, "height": 9, "count": 10000, "shard_size": 10000}
    manifest = build_once(spec, workers=1)
    per_level = manifest["bytes"] / 10000
    levels = 10_000_000
    shard = 10_000
    shard_seconds = shard / rates[9]
    shards = levels // shard
    here = -(-shards // args.cores) * shard_seconds
    cores = 100 * args.node_cores
    cluster = -(-shards // cores) * shard_seconds
    print("\n## A 10,000,000-level 9 x 9 dataset (projected from the figures above)\n")
    print(f"- size on disk: {per_level * levels / 1e9:,.2f} GB ({per_level:,.0f} bytes a level, npz shards of 10,000)")
    print(f"- {shards:,} shards of {shard:,} levels, {shard_seconds:,.3f} s each on one core")
    print(f"- build here ({args.cores} cores, perfect scaling): {here / 60:,.1f} min ({here:,.0f} s)")
    print(f"- on 100 nodes of {args.node_cores} cores ({cores:,}): {cluster:,.2f} s of shard work with shards of "
          f"{shard:,} (fewer shards than cores); with shards of 1,000 levels about "
          f"{-(-(levels // 1000) // cores) * 1000 / rates[9]:,.3f} s. Ray start-up, scheduling and storage "
          "are not counted.")


def before_after(args: argparse.Namespace) -> None:
    """Throughput of the tree ``--before`` against this one, each in its own process, alternated ``--rounds`` times."""
    import json
    import subprocess

    runs: Dict[str, List[Dict[str, Dict[str, float]]]] = {"before": [], "after": []}
    trees = {"before": str(args.before), "after": str(Path(__file__).resolve().parent.parent)}
    for _ in range(args.rounds):
        for name in ("before", "after"):
            command = [sys.executable, str(Path(__file__).resolve()), "--tree", trees[name], "--throughput-json",
                       "--runs", str(args.runs)] + (["--quick"] if args.quick else [])
            done = subprocess.run(command, capture_output=True, text=True, timeout=3600, check=True)
            runs[name].append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(f"\n## Before ({args.before}) and after (this tree), levels per CPU-second, one core; median of "
          f"{args.rounds} alternated rounds of {args.runs} runs each\n")
    print("| size | generate before | generate after | build before | build after | build speed-up | "
          "build, \"stats\": false, before | after |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for size, _ in THROUGHPUT_SIZES:
        key = str(size)
        got = {(name, part): statistics.median(r[part][key] for r in runs[name])
               for name in runs for part in ("generate", "build", "lean")}
        print(f"| {size} x {size} | {got['before', 'generate']:,.0f} | {got['after', 'generate']:,.0f} | "
              f"{got['before', 'build']:,.0f} | {got['after', 'build']:,.0f} | "
              f"{got['after', 'build'] / got['before', 'build']:.1f}x | {got['before', 'lean']:,.0f} | "
              f"{got['after', 'lean']:,.0f} |")
    AFTER.update({size: statistics.median(r["build"][str(size)] for r in runs["after"]) for size, _ in THROUGHPUT_SIZES})


AFTER: Dict[int, float] = {}


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--ray", action="store_true", help="also time the Ray engine (needs ray)")
    parser.add_argument("--compare-maze-dataset", action="store_true",
                        help="also time maze-dataset's gen_dfs in its own venv (made on first use)")
    parser.add_argument("--maze-dataset-venv", type=Path, default=Path(__file__).resolve().parent / ".venv-maze-dataset",
                        metavar="DIR", help="maze-dataset's venv (default benchmarks/.venv-maze-dataset, git-ignored)")
    parser.add_argument("--repeats", type=int, default=0, metavar="N", help="count repeats among N seeds")
    parser.add_argument("--repeat-sizes", type=int, nargs="+", default=[5, 9], metavar="N",
                        help="square sizes for --repeats (default 5 9)")
    parser.add_argument("--only-repeats", action="store_true", help="only the repeat count (with --repeats)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--node-cores", type=int, default=32)
    parser.add_argument("--scaling-levels", type=int, default=400_000, metavar="N",
                        help="levels of the 1 -> 2 worker build (default 400,000; --quick: a tenth)")
    parser.add_argument("--before", type=Path, metavar="DIR",
                        help="also time the throughput of the mazeplugin in DIR (e.g. git archive main | tar -x -C DIR), "
                             "alternating with this tree, each in its own process")
    parser.add_argument("--rounds", type=int, default=3, help="alternated rounds for --before (default 3)")
    parser.add_argument("--tree", type=Path, metavar="DIR", help="import mazeplugin from DIR (used by --before)")
    parser.add_argument("--throughput-json", action="store_true", help="only the throughput rates, as one JSON line")
    args = parser.parse_args(argv)
    if args.throughput_json:
        import json

        build = throughput(args, quiet=True)
        print(json.dumps({"generate": GENERATED, "build": build, "lean": LEAN}))
        return 0
    args.load = " ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"# mazeplugin {mp.__version__} dataset benchmark, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores, load average {args.load}, MAZEPLUGIN_COMPILED={os.environ['MAZEPLUGIN_COMPILED']}")
    if args.only_repeats:
        repeats(args)
        return 0
    rates = throughput(args)
    scaling(args)
    memory(args)
    if args.before is not None:  # (after memory: its processes would count as the workers' children)
        before_after(args)
    if args.repeats:
        repeats(args)
    projection(rates, args)
    if args.compare_maze_dataset:
        compare_maze_dataset(rates, GENERATED, args.maze_dataset_venv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
