"""Content on grid levels: placing and proving keys, doors, treasure and enemies, next to a square level.

    python benchmarks/bench_grid_content.py [--cells 250000] [--algorithm kruskal]

For a square, hex, triangle and polar level of about ``--cells`` cells (and
a wrapping square of the same size): the time of ``generate`` without
content, the time added by ``keys=3, treasure=20, enemies=10`` (placement,
from the content stream), and the time of ``level.check()`` (the proof) and
``level.solution()`` (the key-aware solver). One run each; the machine may be
shared, so compare figures from one run. Not a test; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import mazeplugin as mp  # noqa: E402

CONTENT = dict(keys=3, treasure=20, enemies=10)


def timed(make):
    start = time.perf_counter()
    out = make()
    return out, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cells", type=int, default=250_000)
    parser.add_argument("--algorithm", default="kruskal")
    args = parser.parse_args()
    side = max(3, int(math.isqrt(args.cells)))
    rings = 1
    while sum(mp.grids.polar.ring_sizes(1, rings + 1)) <= args.cells:
        rings += 1
    requests = [("square", dict(width=side, height=side)), ("square wrap xy", dict(width=side, height=side, wrap="xy")),
                ("hex", dict(width=side, height=side, grid="hex")),
                ("triangle", dict(width=side, height=side, grid="triangle")),
                ("polar", dict(width=1, height=rings, grid="polar"))]
    print(f"{args.algorithm}, about {args.cells:,} cells, content {CONTENT}")
    print(f"{'grid':<16}{'cells':>10}{'plain s':>10}{'+content s':>12}{'check s':>10}{'solution s':>12}")
    for name, request in requests:
        width, height = request.pop("width"), request.pop("height")
        mp.generate(args.algorithm, width, height, seed=7, **request)  # once untimed: kernels and caches warm
        plain, t_plain = timed(lambda: mp.generate(args.algorithm, width, height, seed=7, **request))
        rich, t_rich = timed(lambda: mp.generate(args.algorithm, width, height, seed=7, **request, **CONTENT))
        _, t_check = timed(rich.check)
        _, t_solve = timed(rich.solution)
        cells = plain.cells
        print(f"{name:<16}{cells:>10,}{t_plain:>10.3f}{t_rich - t_plain:>12.3f}{t_check:>10.3f}{t_solve:>12.3f}")


if __name__ == "__main__":
    main()
