"""Hex levels through Tiled: saving and loading ``.tmx``/``.tmj`` against JSON and the square reader, peak memory,
and the cost of a ``things`` layer.

    python benchmarks/bench_hex_tiled.py                  # 50 x 50 and 300 x 300 hex cells
    python benchmarks/bench_hex_tiled.py --sizes 1000 --repeat 1

For each size: a hex level (``wilson``, seed 7) saved and loaded as ``.tmx``
and ``.tmj`` (:mod:`mazeplugin.formats.tiled_read`), next to its JSON
and to loading a square level's ``.tmx`` of the same cell count (the ratios
say what reading the doubled hex lattice costs against those); then the peak
memory of one ``GridLevel.load_tmx`` (``tracemalloc``: numpy's and Python's
allocations), per cell; then a hex level (``backtracker``, seed 7) with keys,
treasure and enemies saved and loaded as ``.tmx`` and ``.tmj`` next to the
same passages without content (the difference is what writing the things
layer, reading it back into cells and proving it with ``level.check()``
cost). Medians of ``--repeat`` runs (``bench_tiled.median``); the machine may
be shared, so compare figures from one run. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import tracemalloc

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import mazeplugin as mp  # noqa: E402
from bench_tiled import median  # noqa: E402  (this folder is the script's own: first on sys.path)


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
        level.save(tmx)
        level.save(tmj)
        level.save(js)
        square.save(sq)
        rows, columns = level.tiles.shape
        print(f"hex wilson {side}x{side} cells ({columns}x{rows} tiles), median of {args.repeat}")
        load_json = median(lambda: mp.load(js), args.repeat)
        load_square = median(lambda: mp.load(sq), args.repeat)
        for name, seconds in (
            ("save_tmx", median(lambda: level.save(tmx), args.repeat)),
            ("save_tmj", median(lambda: level.save(tmj), args.repeat)),
            ("load_tmx", median(lambda: mp.load(tmx), args.repeat)),
            ("load_tmj", median(lambda: mp.load(tmj), args.repeat)),
            ("load_json", load_json),
            ("square load_tmx", load_square),
        ):
            print(f"  {name:16}{seconds * 1000:10.2f} ms   x{seconds / load_json:6.2f} hex load_json"
                  f"   x{seconds / load_square:6.2f} square load_tmx")
        tracemalloc.start()
        mp.load(tmx)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"  load_tmx peak memory {peak / 2**20:8.1f} MiB, {peak / (side * side):6.0f} bytes a cell")
        things(side, args.repeat, folder)


def things(side: int, repeat: int, folder: str) -> None:
    """A hex level with content against the same passages without: save and load, ``.tmx`` and ``.tmj``."""
    content = dict(keys=3, treasure=max(1, side // 5), enemies=max(1, side // 25))
    rich = mp.generate("backtracker", side, side, grid="hex", seed=7, **content)
    bare = mp.generate("backtracker", side, side, grid="hex", seed=7)
    print(f"hex backtracker {side}x{side} cells, {len(rich.things)} things "
          f"({', '.join(f'{k}={v}' for k, v in content.items())}), median of {repeat}")
    for kind in ("tmx", "tmj"):
        figures = []
        for name, level in (("things", rich), ("bare", bare)):
            path = os.path.join(folder, f"{name}{side}.{kind}")
            save = median(lambda: getattr(level, f"save_{kind}")(path), repeat)
            load = median(lambda: getattr(mp.GridLevel, f"load_{kind}")(path), repeat)
            figures.append((name, save, load, os.path.getsize(path)))
        for name, save, load, size in figures:
            print(f"  {kind} {name:6}  save {save * 1000:8.1f} ms  load {load * 1000:8.1f} ms  {size:>10,} bytes")


if __name__ == "__main__":
    main()
