"""Grids beyond the square: a hex and a triangle maze next to a square maze of the same cell count.

    python benchmarks/bench_grids.py [--cells 1000000] [--algorithm backtracker]

For each grid, ``mp.generate(algorithm, w, h, grid=...)`` with about
``--cells`` cells (square: w = h = √cells; hex and triangle the same w × h;
polar: 1 inner cell and as many rings as give about that many cells), one
run each, and the time of the grid's parts: building the grid's neighbour
arrays, the generator, and (hex) the tilemap. The square maze runs the
plain Python path and, when numba is installed, the compiled one; so does
each other grid (of the grid generators only the backtracker has a compiled
twin so far; the others run their plain loops either way). Peak memory of each request is
measured with ``tracemalloc`` (numpy's and Python's allocations), per cell:
the figure behind ``limits.GRID_BYTES_PER_CELL``.

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
    args = parser.parse_args()
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
