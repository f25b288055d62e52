"""Peak working memory of ``mp.generate`` per generator, in bytes per cell.

    python benchmarks/memory.py                       # every built-in generator, 256², 512², 1024² cells
    python benchmarks/memory.py --sides 512 1024 --algorithms kruskal eller
    python benchmarks/memory.py --strip 1048576       # eller/others on a one-row strip too
    python benchmarks/memory.py --algorithms binary-tree --options '{"braid": 1}'   # what braiding adds

Each (generator, size) runs in a fresh subprocess (``MAZEPLUGIN_NO_PLUGINS=1``)
that imports mazeplugin, records its peak resident set (``ru_maxrss``), then
generates one level (seed 1, default options) and records the peak again. The
difference is the working memory of the request: the generator's own arrays,
the maze model, the tilemap and markers. Bytes per cell is the slope between
the two largest sizes (so fixed costs drop out) and the ratio at the largest.
A run that takes longer than ``--timeout`` seconds is reported as such.

This measures the plain Python/numpy path of the generators as they are in this
checkout; compiled loops (numba), where a generator has them, may use less.
Not a test: nothing here asserts a figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

_CHILD = r"""
import json, resource, sys, time
import mazeplugin as mp
algorithm, width, height, options = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4])
if options.get("mask") == "holes":  # one cell in 64 outside, apart: a mask of one part
    import numpy as np
    options["mask"] = np.ones((height, width), dtype=bool)
    options["mask"][3::8, 3::8] = False
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
level = mp.generate(algorithm, width, height, seed=1, **options)
seconds = time.perf_counter() - started
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"before": before * 1024, "after": after * 1024, "seconds": seconds}))
"""


def measure(algorithm: str, width: int, height: int, timeout: float,
            options: str = "{}") -> Optional[Dict[str, float]]:
    """One run in a fresh process: peak RSS before and after, and the time; None on timeout."""
    env = dict(os.environ, MAZEPLUGIN_NO_PLUGINS="1", PYTHONPATH=ROOT)
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, algorithm, str(width), str(height), options],
            capture_output=True, text=True, timeout=timeout, env=env, check=True,
        )
    except subprocess.TimeoutExpired:
        return None
    result: Dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sides", type=int, nargs="+", default=[256, 512, 1024])
    parser.add_argument("--algorithms", nargs="+", default=None)
    parser.add_argument("--strip", type=int, default=None, help="also measure WIDTHx1 strips of this width")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--options", default="{}",
                        help='generate() options as JSON, e.g. \'{"braid": 1}\'; "mask": "holes" masks out one cell in 64')
    args = parser.parse_args(argv)
    sys.path.insert(0, ROOT)
    os.environ["MAZEPLUGIN_NO_PLUGINS"] = "1"
    import mazeplugin as mp

    names = args.algorithms or mp.algorithms()
    shapes: List[Tuple[int, int]] = [(s, s) for s in args.sides]
    if args.strip:
        shapes.append((args.strip, 1))
    print(f"# peak working memory of mp.generate(..., **{args.options}) (ru_maxrss after - before), "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print("| generator | " + " | ".join(f"{w}x{h}" for w, h in shapes) + " | bytes/cell (slope) |")
    print("|---|" + "---|" * len(shapes) + "---|")
    for name in names:
        cells: List[Tuple[int, float, float]] = []
        row = []
        for width, height in shapes:
            result = measure(name, width, height, args.timeout, args.options)
            if result is None:
                row.append(f"> {args.timeout:.0f} s")
                continue
            used = result["after"] - result["before"]
            cells.append((width * height, used, result["seconds"]))
            row.append(f"{used / 2**20:,.0f} MiB, {result['seconds']:.2f} s")
        square = [c for c in cells[: len(args.sides)]]
        slope = "-"
        if len(square) >= 2:
            (n1, m1, _), (n2, m2, _) = square[-2], square[-1]
            slope = f"{(m2 - m1) / (n2 - n1):.0f}"
        print(f"| `{name}` | " + " | ".join(row) + f" | {slope} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
