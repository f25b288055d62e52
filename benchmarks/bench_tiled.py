"""Tiled loading and levels chosen by difficulty: median times, and ratios measured in the same run.

    python benchmarks/bench_tiled.py                 # sizes 50 and 200 cells square
    python benchmarks/bench_tiled.py --sizes 100 --repeat 9

For each size: saving and loading a ``.tmx`` (CSV and zlib layers) and a
``.tmj``, next to loading the same level's JSON and generating it afresh (the
ratios say what loading costs against those); then ``generate(...,
require=...)`` for an easy and a hard ask, with the candidates it tried, next
to one plain ``generate`` + ``stats()``.
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import statistics
import sys
import tempfile
import time
import zlib
from typing import Callable, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import mazeplugin as mp  # noqa: E402
from mazeplugin import difficulty  # noqa: E402


def median(run: Callable[[], object], repeat: int) -> float:
    times: List[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.2f} ms"


def zlib_copy(source: str, target: str, level: mp.Level) -> None:
    raw = (level.tiles.astype("<u4") + 1).tobytes()
    data = base64.b64encode(zlib.compress(raw)).decode()
    with open(source) as f:
        text = f.read()
    text = re.sub(r"<data[^>]*>.*?</data>", lambda _: f'<data encoding="base64" compression="zlib">{data}</data>',
                  text, count=1, flags=re.S)
    with open(target, "w") as f:
        f.write(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    for side in args.sizes:
        level = mp.generate("backtracker", side, side, seed=7)
        tmx, tmj, js, z = (os.path.join(folder, f"l{side}.{ext}") for ext in ("tmx", "tmj", "json", "z.tmx"))
        level.save(tmx)
        level.save(tmj)
        level.save(js)
        zlib_copy(tmx, z, level)
        rows, columns = level.tiles.shape
        print(f"backtracker {side}x{side} cells ({columns}x{rows} tiles), median of {args.repeat}")
        gen = median(lambda: mp.generate("backtracker", side, side, seed=7), args.repeat)
        load_json = median(lambda: mp.load(js), args.repeat)
        rows_out = [
            ("generate", gen),
            ("save_tmx", median(lambda: level.save(tmx), args.repeat)),
            ("load_tmx (csv)", median(lambda: mp.load(tmx), args.repeat)),
            ("load_tmx (zlib)", median(lambda: mp.load(z), args.repeat)),
            ("load_tmj", median(lambda: mp.load(tmj), args.repeat)),
            ("load_json", load_json),
        ]
        for name, t in rows_out:
            print(f"  {name:18}{ms(t)}   x{t / gen:6.2f} generate   x{t / load_json:6.2f} load_json")
    print()
    for side in args.sizes:
        plain = median(lambda: mp.generate("backtracker", side, side, seed=7).stats(), args.repeat)
        print(f"require=, backtracker {side}x{side}: one generate + stats() {ms(plain)}")
        samples = sorted(mp.generate("backtracker", side, side, seed=s).stats().decision_points for s in range(40))
        for label, low in (("easy (median forks)", samples[len(samples) // 2]),
                           ("hard (9 in 10 forks)", samples[int(0.9 * len(samples))])):
            require = {"decision_points": (low, None)}
            tried = 0
            for candidate in difficulty.candidate_seeds(7):
                tried += 1
                if mp.generate("backtracker", side, side, seed=candidate).stats().decision_points >= low:
                    break
            t = median(lambda: mp.generate("backtracker", side, side, seed=7, require=require, attempts=1000),
                       args.repeat)
            print(f"  {label:24} decision_points >= {low:4}: {tried:3} candidates {ms(t)}   x{t / plain:6.1f} one level")


if __name__ == "__main__":
    main()
