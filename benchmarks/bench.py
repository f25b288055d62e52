"""Median generation times per algorithm and size.

    python benchmarks/bench.py                 # 64x64, 200x200, 500x500, 1000x1000
    python benchmarks/bench.py --sizes 64 500 --repeat 5
"""

from __future__ import annotations

import argparse
import statistics
import time

import mazeplugin as mp


def median_seconds(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 200, 500, 1000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--algorithms", nargs="+", default=mp.algorithms())
    args = parser.parse_args()
    print(f"{'algorithm':<14} {'size':>11} {'median':>10} {'cells/s':>12}")
    for name in args.algorithms:
        for n in args.sizes:
            repeat = args.repeat if n <= 200 else max(1, args.repeat // 2)
            seconds = median_seconds(lambda: mp.generate(name, n, n, seed=1), repeat)
            print(f"{name:<14} {f'{n}x{n}':>11} {seconds * 1000:>8.1f}ms {n * n / seconds:>12,.0f}")


if __name__ == "__main__":
    main()
