"""CPU time per level of ``LevelSpec.make_many`` (levels made in batches) against ``LevelSpec.make`` one by one.

    python benchmarks/bench_make_many.py                  # 7 x 7 and 15 x 15 cells, keys=2; batches of 1, 8, 4,096
    python benchmarks/bench_make_many.py --rounds 7

Also times ``make_arrays`` (what ``MazeVectorEnv``'s autoresets call: the
levels as arrays, no ``Level`` objects) and ``make_arrays`` + ``load_into``
a ``Batch``, against ``make`` + ``Batch.load``, which autoresets did before.
Seeds are drawn as an env draws them (``integers(2**63)``), ``--levels`` of
them a round (distinct, cut into batches), so about a quarter of the 7 x 7
seeds need another candidate. The kernels are loaded before
timing; each figure is the median over ``--rounds`` rounds, the two ways
timed alternately, in CPU time (``time.process_time``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Callable, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import numpy as np  # noqa: E402


def per_level(work: Callable[[List[int], int], object], chunks: List[List[int]]) -> float:
    """CPU µs per level of ``work(seeds, chunk number)`` over ``chunks`` (batches of distinct seeds)."""
    start = time.process_time()
    for number, seeds in enumerate(chunks):
        work(seeds, number)
    return (time.process_time() - start) / sum(len(c) for c in chunks) * 1e6


def main(argv: "List[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds; medians reported (default 5)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[7, 15], help="square sizes in cells (default 7 15)")
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 8, 4096], help="batch sizes (default 1 8 4096)")
    parser.add_argument("--keys", type=int, default=2, help="keys per level (default 2)")
    parser.add_argument("--levels", type=int, default=4096, help="levels timed per figure and round (default 4,096)")
    args = parser.parse_args(argv)
    import mazeplugin.compiled as compiled
    from mazeplugin.gym.engine import Batch
    from mazeplugin.gym.levels import LevelSpec

    compiled.warm_up(["backtracker", "bfs", "content", "streams", "locks"])
    rng = np.random.default_rng(0)
    print(f"LevelSpec('backtracker', n, n, keys={args.keys}): CPU µs per level, medians of {args.rounds} rounds; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print()
    print("| size | batch | `make` one by one | `make_many` | `make_arrays` | `make` + `Batch.load` "
          "| `make_arrays` + `load_into` | speed-up (reset path) |")
    print("|---|---|---|---|---|---|---|---|")
    for size in args.sizes:
        spec = LevelSpec("backtracker", size, size, keys=args.keys)
        rows, columns = spec.shape
        for batch in args.batches:
            figures: Dict[str, List[float]] = {}
            slots = list(range(batch))
            board = Batch(batch, rows=rows, columns=columns, view_size=7)
            for _ in range(args.rounds):
                every = [int(s) for s in rng.integers(2**63, size=max(args.levels, batch))]
                chunks = [every[i:i + batch] for i in range(0, len(every), batch)]
                spec.make_many(chunks[0][:8])  # (a first call of each shape outside the timing)

                def one_by_one(seeds: List[int], _: int) -> None:
                    for i, seed in enumerate(seeds):
                        board.load(i, spec.make(seed))

                def batched(seeds: List[int], _: int) -> None:
                    spec.make_arrays(seeds).load_into(board, slots[:len(seeds)])

                ways: Dict[str, Callable[[List[int], int], object]] = {
                    "make": lambda seeds, _: [spec.make(s) for s in seeds],
                    "many": lambda seeds, _: spec.make_many(seeds),
                    "arrays": lambda seeds, _: spec.make_arrays(seeds),
                    "make+load": one_by_one,
                    "arrays+load": batched,
                }
                for name, work in ways.items():
                    figures.setdefault(name, []).append(per_level(work, chunks))
            med = {k: statistics.median(v) for k, v in figures.items()}
            print(f"| {size} × {size} | {batch:,} | {med['make']:.1f} | {med['many']:.1f} | {med['arrays']:.1f} "
                  f"| {med['make+load']:.1f} | {med['arrays+load']:.1f} | {med['make+load'] / med['arrays+load']:.1f}× |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
