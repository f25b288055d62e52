"""Grids beyond the square: a hex and a triangle maze next to a square maze of the same cell count.

    python benchmarks/bench_grids.py [--cells 1000000] [--algorithm backtracker]
    python benchmarks/bench_grids.py --compiled-ratios [--cells 1000000] [--runs 3] [--only kruskal,wilson]
    python benchmarks/bench_grids.py --compiled-ratios --tree /tmp/before   # another checkout's mazeplugin

For each grid, ``mp.generate(algorithm, w, h, grid=...)`` with about
``--cells`` cells (square: w = h = √cells; hex and triangle the same w × h;
polar: 1 inner cell and as many rings as give about that many cells), one
run each, and the time of the grid's parts: building the grid's neighbour
arrays, the generator, and (hex) the tilemap. The square maze runs the
plain Python path and, when numba is installed, the compiled one; so does
each other grid. Peak memory of each request is
measured with ``tracemalloc`` (numpy's and Python's allocations), per cell:
the figure behind ``limits.GRID_BYTES_PER_CELL``.

``--compiled-ratios``: the issue's target, every grid generator on the
compiled path. In one process, kernels loaded first (never timed), for each
generator: ``mp.generate`` of a square, a hex and a triangle maze of about
``--cells`` cells, the median of ``--runs`` runs each, and the ratios hex /
square and triangle / square; then the same for the generator alone (square:
the registry's generator on a fresh ``Maze``; hex and triangle:
``run_on_grid`` on a grid built once), which is what the kernels decide.
Times are this process's CPU time (``time.process_time``; the kernels run in
it), which a busy shared machine disturbs less than the wall clock.
``--tree DIR`` times the ``mazeplugin`` of another checkout (say the branch
point, from ``git archive``) with this same script, for before / after
figures: run them in turn, before, after, after, before.

The machine may be shared: compare figures from one run. Not a test;
nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CHILD = r"""
import sys, time, tracemalloc
sys.path.insert(0, sys.argv[1])
import mazeplugin as mp
from mazeplugin.grids import make_grid
algorithm, grid, width, height, memory = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6] == "1"
if memory:
    tracemalloc.start()
start = time.perf_counter()
level = mp.generate(algorithm, width, height, seed=7, **({} if grid == "square" else {"grid": grid}))
total = time.perf_counter() - start
parts = ""
if grid != "square" and not memory:
    t = time.perf_counter(); make_grid(grid, width, height); build = time.perf_counter() - t
    t = time.perf_counter(); level.tiles if grid == "hex" else None; tiles = time.perf_counter() - t
    parts = f"grid arrays {build:5.2f} s" + (f", tilemap {tiles:5.2f} s" if grid == "hex" else "")
cells = level.maze.grid.cells if grid != "square" else width * height
peak = tracemalloc.get_traced_memory()[1] if memory else 0
print(f"{total:.3f}|{cells}|{peak}|{parts}")
"""


def run(algorithm: str, grid: str, width: int, height: int, compiled: bool, memory: bool) -> str:
    env = dict(os.environ, MAZEPLUGIN_COMPILED="1" if compiled else "0")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-c", CHILD, root, algorithm, grid, str(width), str(height),
                          "1" if memory else "0"], capture_output=True, text=True, timeout=1800, env=env)
    if out.returncode:
        raise SystemExit(out.stderr)
    return out.stdout.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=1_000_000)
    parser.add_argument("--algorithm", default="backtracker")
    parser.add_argument("--memory-cells", type=int, default=200_000, help="cells for the tracemalloc runs")
    parser.add_argument("--compiled-ratios", action="store_true",
                        help="every grid generator, compiled: square vs hex vs triangle times and ratios")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure for --compiled-ratios (the median)")
    parser.add_argument("--only", default="", help="--compiled-ratios: only these generators (comma-separated)")
    parser.add_argument("--tree", default="", help="--compiled-ratios: import mazeplugin from this checkout")
    args = parser.parse_args()
    if args.tree:
        sys.path.insert(0, os.path.abspath(args.tree))
    if args.compiled_ratios:
        compiled_ratios(args.cells, args.runs, [name for name in args.only.split(",") if name] or None)
        return
    side = int(round(math.sqrt(args.cells)))
    rings = int(round(math.sqrt(args.cells / math.pi)))
    cases = [(grid, width, height, compiled) for grid, width, height in
             (("square", side, side), ("hex", side, side), ("triangle", side, side), ("polar", 1, rings))
             for compiled in (False, True)]
    print(f"{args.algorithm}, about {args.cells:,} cells, one run each (seconds):")
    base = base_compiled = None
    for grid, width, height, compiled in cases:
        if compiled and not _has_numba():
            continue
        seconds, cells, _, parts = run(args.algorithm, grid, width, height, compiled, False).split("|")
        label = f"{grid}{' (compiled)' if compiled else ''}"
        if grid == "square" and not compiled:
            base = float(seconds)
        if grid == "square" and compiled:
            base_compiled = float(seconds)
        versus = base_compiled if compiled else base
        ratio = f"{float(seconds) / versus:5.2f}× square ({'compiled' if compiled else 'plain'})" if versus else ""
        print(f"  {label:20} {int(cells):>10,} cells {float(seconds):7.2f} s  {ratio}  {parts}")
    msize = int(round(math.sqrt(args.memory_cells)))
    print(f"peak memory per cell (tracemalloc, about {args.memory_cells:,} cells):")
    for grid in ("square", "hex", "triangle"):
        _, cells, peak, _ = run(args.algorithm, grid, msize, msize, False, True).split("|")
        print(f"  {grid:20} {int(peak) / int(cells):7.0f} bytes")


def compiled_ratios(cells: int, runs: int, only: "list[str] | None") -> None:
    """Per grid generator, compiled: square vs hex vs triangle, end to end and generator alone (medians)."""
    os.environ["MAZEPLUGIN_COMPILED"] = "1"
    import statistics

    import mazeplugin as mp
    import mazeplugin.compiled as compiled
    try:
        from mazeplugin.pipeline import run_on_grid
    except ImportError:  # a checkout (--tree) from before the one pipeline
        from mazeplugin.grid_pipeline import run_on_grid  # type: ignore[no-redef]
    from mazeplugin.grids import make_grid
    from mazeplugin.maze import Maze
    from mazeplugin.registry import get_generator
    from mazeplugin.seeds import Random

    if not compiled.available():
        raise SystemExit("--compiled-ratios needs numba (pip install \"mazeplugin[fast]\")")
    compiled.compile_kernels()  # every kernel loaded before anything is timed
    side = int(round(math.sqrt(cells)))
    grids = {name: make_grid(name, side, side) for name in ("hex", "triangle")}

    def median(job: "object") -> float:
        times = []
        for run_index in range(runs):
            started = time.process_time()
            job(run_index)  # type: ignore[operator]
            times.append(time.process_time() - started)
        return statistics.median(times)

    print(f"mazeplugin from {os.path.dirname(os.path.dirname(os.path.abspath(mp.__file__)))}; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"compiled path, {side} x {side} = {side * side:,} cells, median of {runs} runs "
          "(CPU seconds of this process: steadier than the wall clock on a shared machine):")
    print(f"  {'generator':24} {'square':>7} {'hex':>7} {'triangle':>8} {'hex/sq':>7} {'tri/sq':>7}"
          f"   | alone: {'square':>7} {'hex':>7} {'triangle':>8} {'hex/sq':>7} {'tri/sq':>7}")
    cases = [(name, {}) for name in mp.algorithms(grid="hex") if name != "growing-tree"]
    cases += [("growing-tree", {"strategy": s}) for s in ("newest", "random", "oldest", "middle", "newest:0.5")]
    for algorithm, options in cases:
        if only and algorithm not in only:
            continue
        whole = {}
        alone = {}
        for grid in ("square", "hex", "triangle"):
            extra = {} if grid == "square" else {"grid": grid}
            whole[grid] = median(lambda i, g=grid, e=extra: mp.generate(algorithm, side, side, seed=7 + i, **e,
                                                                         **options))
            if grid == "square":
                info = get_generator(algorithm)
                alone[grid] = median(lambda i: info.run(Maze(side, side), Random.from_seed(7 + i), options))
            else:
                built = grids[grid]
                start, goal = built.openings()[0][0], built.openings()[1][0]
                alone[grid] = median(lambda i, b=built, s=start, t=goal: run_on_grid(
                    algorithm, b, Random.from_seed(7 + i), s, t, options))
        label = algorithm + (f" {options['strategy']}" if options else "")
        print(f"  {label:24} {whole['square']:7.3f} {whole['hex']:7.3f} {whole['triangle']:8.3f} "
              f"{whole['hex'] / whole['square']:6.2f}x {whole['triangle'] / whole['square']:6.2f}x"
              f"   |        {alone['square']:7.3f} {alone['hex']:7.3f} {alone['triangle']:8.3f} "
              f"{alone['hex'] / alone['square']:6.2f}x {alone['triangle'] / alone['square']:6.2f}x", flush=True)


def _has_numba() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"({time.perf_counter() - started:.0f} s in all)")
