"""Hex levels through Tiled: saving and loading ``.tmx``/``.tmj`` against JSON and the square reader, and peak memory.

    python benchmarks/bench_hex_tiled.py                  # 50 x 50 and 300 x 300 hex cells
    python benchmarks/bench_hex_tiled.py --sizes 1000 --repeat 1

For each size: a hex level (``wilson``, seed 7) saved and loaded as ``.tmx``
and ``.tmj`` (:mod:`mazeplugin.formats.tiled_hex_read`), next to its JSON
and to loading a square level's ``.tmx`` of the same cell count (the ratios
say what reading the doubled hex lattice costs against those); then the peak
memory of one ``GridLevel.load_tmx`` (``tracemalloc``: numpy's and Python's
allocations), per cell. Medians of ``--repeat`` runs; the machine may be
shared, so compare figures from one run. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
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
        level = mp.generate("wilson", side, side, grid="hex", seed=7)
        square = mp.generate("wilson", side, side, seed=7)
        tmx, tmj, js, sq = (os.path.join(folder, f"h{side}.{ext}") for ext in ("tmx", "tmj", "json", "sq.tmx"))
        level.save_tmx(tmx)
        level.save_tmj(tmj)
        level.save_json(js)
        square.save_tmx(sq)
        rows, columns = level.tiles.shape
        print(f"hex wilson {side}x{side} cells ({columns}x{rows} tiles), median of {args.repeat}")
        load_json = median(lambda: mp.GridLevel.load_json(js), args.repeat)
        load_square = median(lambda: mp.Level.load_tmx(sq), args.repeat)
        for name, seconds in (
            ("save_tmx", median(lambda: level.save_tmx(tmx), args.repeat)),
            ("save_tmj", median(lambda: level.save_tmj(tmj), args.repeat)),
            ("load_tmx", median(lambda: mp.GridLevel.load_tmx(tmx), args.repeat)),
            ("load_tmj", median(lambda: mp.GridLevel.load_tmj(tmj), args.repeat)),
            ("load_json", load_json),
            ("square load_tmx", load_square),
        ):
            print(f"  {name:16}{seconds * 1000:10.2f} ms   x{seconds / load_json:6.2f} hex load_json"
                  f"   x{seconds / load_square:6.2f} square load_tmx")
        tracemalloc.start()
        mp.GridLevel.load_tmx(tmx)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"  load_tmx peak memory {peak / 2**20:8.1f} MiB, {peak / (side * side):6.0f} bytes a cell")


if __name__ == "__main__":
    main()
