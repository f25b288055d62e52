"""Figures for level content (issue 9): placing things, and the key-aware solution.

    python benchmarks/bench_content.py
    python benchmarks/bench_content.py --small [--levels 2000] [--rounds 3]

``--small`` gives the per-level figures of issue 18 instead (a Gymnasium
autoreset makes one small level with keys): CPU time per level of
``generate`` with content, and of the content stage alone (``furnish`` on the
same maze), for 7x7 keys=2, 15x15 keys=2 and 20x15 keys=2 treasure=3
enemies=2, seeds 0..levels-1 (seeds whose maze cannot hold the content count
too: they raise, as an environment's fallback seeds do). Run it with
``MAZEPLUGIN_COMPILED=0`` for the plain path; otherwise the kernels are
loaded first.

Targets from the issue: placing keys=3, treasure=20, enemies=10 on a
100 x 100-cell level under 20 ms; the key-aware ``solution()`` on 500 x 500
with 4 locks under 1 s. The machine may be shared, so each figure is printed
beside the plain breadth-first search it builds on (``paths.distance_map``
over the same tiles), measured in the same run: the ratio is the steadier
number. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import mazeplugin as mp  # noqa: E402
from mazeplugin import paths  # noqa: E402
from mazeplugin.content import furnish  # noqa: E402


def median_ms(function, repeat: int, clock=time.perf_counter) -> float:
    times = []
    for _ in range(repeat):
        start = clock()
        function()
        times.append(clock() - start)
    return statistics.median(times) * 1000


def cpu_ms(function, repeat: int) -> float:
    """Median CPU time of this process: steadier than wall time on a shared machine."""
    return median_ms(function, repeat, time.process_time)


SMALL_CASES = (
    ("7x7 keys=2", 7, 7, {"keys": 2}),
    ("15x15 keys=2", 15, 15, {"keys": 2}),
    ("20x15 keys=2 treasure=3 enemies=2", 20, 15, {"keys": 2, "treasure": 3, "enemies": 2}),
)


def small(levels: int, rounds: int) -> None:
    """Per-level CPU time (µs) of small content levels: the whole ``generate``, and ``furnish`` alone."""
    import mazeplugin.compiled as compiled

    if compiled.available():
        compiled.compile_kernels()
    path = "compiled" if compiled.available() else "plain"
    print(f"mazeplugin {mp.__version__}, Python {sys.version.split()[0]}, {path} path, "
          f"load {os.getloadavg()[0]:.2f}; {levels} levels per case, median of {rounds} rounds, CPU µs per level")
    for label, width, height, content in SMALL_CASES:
        mazes = [mp.generate("backtracker", width, height, seed=s) for s in range(levels)]

        def whole() -> None:
            for s in range(levels):
                try:
                    mp.generate("backtracker", width, height, seed=s, **content)
                except ValueError:
                    pass

        def placing() -> None:
            for maze in mazes:
                try:
                    furnish(maze, **content)
                except ValueError:
                    pass

        whole_us = cpu_ms(whole, rounds) * 1000 / levels
        place_us = cpu_ms(placing, rounds) * 1000 / levels
        print(f"  {label:36s} generate {whole_us:7.1f} µs   furnish alone {place_us:7.1f} µs")


def main() -> None:
    if "--small" in sys.argv:
        args = sys.argv[1:]
        levels = int(args[args.index("--levels") + 1]) if "--levels" in args else 2000
        rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else 3
        small(levels, rounds)
        return
    print(f"mazeplugin {mp.__version__}, Python {sys.version.split()[0]}")
    print("\nfurnish(keys=3, treasure=20, enemies=10) on 100x100 cells (201x201 tiles); target < 20 ms")
    for algorithm, extra in (("backtracker", {}), ("kruskal", {}), ("wilson", {}), ("prim", {}),
                             ("kruskal", {"braid": 0.05}), ("kruskal", {"corridor": 2})):
        level = mp.generate(algorithm, 100, 100, seed=1, **extra)
        place = median_ms(lambda: furnish(level, keys=3, treasure=20, enemies=10), 15)
        cpu = cpu_ms(lambda: furnish(level, keys=3, treasure=20, enemies=10), 15)
        bfs = median_ms(lambda: paths.distance_map(level.tiles, level.entrance), 15)
        label = algorithm + "".join(f" {k}={v}" for k, v in extra.items())
        print(f"  {label:24s} median {place:7.2f} ms wall, {cpu:6.2f} ms CPU"
              f"   (one BFS of the tiles {bfs:6.2f} ms, ratio {place / bfs:4.1f})")

    print("\nkey-aware solution() on 500x500 cells with 4 locks; target < 1 s")
    for algorithm in ("backtracker", "kruskal"):
        level = mp.generate(algorithm, 500, 500, seed=1, keys=4)
        solve = median_ms(level.solution, 3)
        cpu = cpu_ms(level.solution, 3)
        plain = mp.generate(algorithm, 500, 500, seed=1)
        direct = median_ms(plain.solution, 3)
        print(f"  {algorithm:12s} median {solve:7.1f} ms wall, {cpu:7.1f} ms CPU"
              f"   (plain solution() {direct:6.1f} ms, ratio {solve / direct:4.1f})")
        place = median_ms(lambda: furnish(plain, keys=4, treasure=50, enemies=20), 3)
        print(f"  {'':12s} furnish(keys=4, treasure=50, enemies=20) median {place:7.1f} ms")


if __name__ == "__main__":
    main()
