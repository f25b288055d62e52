"""Hex levels' content through Tiled: saving and loading ``.tmx``/``.tmj`` with a ``things`` layer, against the same level without.

    python benchmarks/bench_hex_things.py                 # 50 x 50 and 300 x 300 hex cells
    python benchmarks/bench_hex_things.py --sizes 100 --repeat 1

For each size: a hex level (``backtracker``, seed 7) with keys, treasure and
enemies, saved and loaded as ``.tmx`` and ``.tmj``, next to the same passages
without content (the difference is what writing the things layer, reading it
back into cells and proving it with ``level.check()`` cost). Medians of
``--repeat`` runs; the machine may be shared, so compare figures from one run.
Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from typing import Callable, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import mazeplugin as mp  # noqa: E402


def median(run: Callable[[], object], repeat: int) -> float:
    times: List[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 300])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    for side in args.sizes:
        content = dict(keys=3, treasure=max(1, side // 5), enemies=max(1, side // 25))
        rich = mp.generate("backtracker", side, side, grid="hex", seed=7, **content)
        bare = mp.generate("backtracker", side, side, grid="hex", seed=7)
        print(f"hex backtracker {side}x{side} cells, {len(rich.things)} things "
              f"({', '.join(f'{k}={v}' for k, v in content.items())}), median of {args.repeat}")
        for kind in ("tmx", "tmj"):
            figures = []
            for name, level in (("things", rich), ("bare", bare)):
                path = os.path.join(folder, f"{name}{side}.{kind}")
                save = median(lambda: getattr(level, f"save_{kind}")(path), args.repeat)
                load = median(lambda: getattr(mp.GridLevel, f"load_{kind}")(path), args.repeat)
                figures.append((name, save, load, os.path.getsize(path)))
            for name, save, load, size in figures:
                print(f"  {kind} {name:6}  save {save * 1000:8.1f} ms  load {load * 1000:8.1f} ms  {size:>10,} bytes")


if __name__ == "__main__":
    main()
