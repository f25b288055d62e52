"""Why numba: the compiled route measured against the same kernel in plain C.

    python benchmarks/route.py [--size N] [--runs R]

The backtracker's kernel (``mazeplugin/_compiled/backtracker.py``: depth-first
carving on a framed grid, each step's neighbour picked from one raw PCG64
word as ``int(unit(word) * k)``) is written once more in C below, built with
the system compiler (``cc -O2``) into a shared library in a temporary
directory and called through ctypes on the very same input arrays. Both must
open the same passages, byte for byte (checked before any timing); then the
two are timed alternately, medians of ``--runs``. A C extension (or Cython,
which compiles to the same C) is what numba would be traded for: the ratio
says what that trade could still gain in speed, beside what it costs in
portability (a compiler, or a wheel per platform and Python version).

Not a test: nothing here asserts a time. Needs numba (``pip install -e ".[fast]"``) and ``cc``.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from mazeplugin._compiled import backtracker as kernel  # noqa: E402
from mazeplugin._compiled.grid import framed, framed_passages, framed_roots  # noqa: E402
from mazeplugin.maze import Maze  # noqa: E402
from mazeplugin.seeds import Random  # noqa: E402

C_SOURCE = r"""
#include <stdint.h>
#include <stdlib.h>

static inline int64_t below(uint64_t word, int64_t high) {
    return (int64_t)((double)(word >> 11) * (1.0 / 9007199254740992.0) * (double)high);
}

static inline void open_between(uint8_t *east, uint8_t *south, int64_t a, int64_t b) {
    if (a < b) { if (b - a == 1) east[a] = 1; else south[a] = 1; }
    else if (a - b == 1) east[b] = 1;
    else south[b] = 1;
}

/* mazeplugin/_compiled/backtracker.py's carve_framed, line for line. */
void carve(uint8_t *visited, int64_t size, const uint64_t *words, const int64_t *roots, int64_t nroots,
           int64_t pitch, uint8_t *east, uint8_t *south) {
    int32_t *parent = malloc(sizeof(int32_t) * size);
    int64_t choice[4], carved = 0;
    for (int64_t r = 0; r < nroots; r++) {
        int64_t root = roots[r];
        if (visited[root]) continue;
        visited[root] = 1;
        int64_t cell = root;
        for (;;) {
            int k = 0;
            if (!visited[cell - pitch]) choice[k++] = cell - pitch;
            if (!visited[cell + 1]) choice[k++] = cell + 1;
            if (!visited[cell + pitch]) choice[k++] = cell + pitch;
            if (!visited[cell - 1]) choice[k++] = cell - 1;
            if (k) {
                int64_t next = k > 1 ? choice[below(words[carved], k)] : choice[0];
                carved++;
                visited[next] = 1;
                parent[next] = (int32_t)cell;
                open_between(east, south, cell, next);
                cell = next;
            } else if (cell != root) {
                cell = parent[cell];
            } else {
                break;
            }
        }
    }
    free(parent);
}
"""


def build(directory: str) -> ctypes.CDLL:
    source = os.path.join(directory, "carve.c")
    library = os.path.join(directory, "carve.so")
    with open(source, "w", encoding="utf-8") as f:
        f.write(C_SOURCE)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", library, source], check=True, timeout=120)
    lib = ctypes.CDLL(library)
    p = ctypes.c_void_p
    lib.carve.argtypes = [p, ctypes.c_int64, p, p, ctypes.c_int64, ctypes.c_int64, p, p]
    lib.carve.restype = None
    return lib


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if shutil.which("cc") is None:
        sys.exit("route.py needs a C compiler (cc)")
    n = args.size
    maze = Maze(n, n)
    words = Random(1).raw(maze.size)
    roots = framed_roots(maze)
    pitch = n + 2
    blocked = framed(~maze.mask, True)

    def numba_run() -> tuple:
        east, south = framed_passages(maze)
        kernel.carve_framed(blocked.copy(), words, roots, pitch, east, south)
        return east, south

    with tempfile.TemporaryDirectory(prefix="mazeplugin-route-") as directory:
        lib = build(directory)

        def c_run() -> tuple:
            east, south = framed_passages(maze)
            visited = blocked.copy()
            lib.carve(visited.ctypes.data, visited.size, words.ctypes.data, roots.ctypes.data, roots.size,
                      pitch, east.ctypes.data, south.ctypes.data)
            return east, south

        a, b = numba_run(), c_run()
        same = all(np.array_equal(x, y) for x, y in zip(a, b))
        if not same:
            sys.exit("route.py: the C kernel and the numba kernel opened different passages")
        times: dict = {"numba": [], "C": []}
        for _ in range(args.runs):
            for name, run in (("numba", numba_run), ("C", c_run)):
                start = time.perf_counter()
                run()
                times[name].append(time.perf_counter() - start)
    numba_s, c_s = statistics.median(times["numba"]), statistics.median(times["C"])
    print(f"backtracker carve, {n}x{n} cells, same words, same passages (checked); medians of {args.runs}, alternated")
    print(f"  numba kernel  {numba_s * 1000:8.1f} ms")
    print(f"  C (cc -O2)    {c_s * 1000:8.1f} ms")
    print(f"  numba / C     {numba_s / c_s:8.2f}x")


if __name__ == "__main__":
    main()
