"""The compiled path's benchmarks, used by bench.py: paths side by side, start-up,
plain C (limit.c) and labmaze, each measured side by side in one run.

Every comparison alternates the two contenders run by run and reports medians,
so the shared machine's noise hits both alike; the ratio is what to read.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

import mazeplugin as mp  # noqa: E402
import mazeplugin.compiled  # noqa: E402

LIMIT_SOURCE = os.path.join(HERE, "limit.c")  # a copy of ../shared/bench/limit.c
LIMIT_NAMES = ("backtracker", "kruskal", "wilson", "eller")
LIMIT_SIZE = 1000
LIMIT_TARGET = 3.0  # mazeplugin / C, at most
LABMAZE_VENV = os.path.join(ROOT, "bench-venv-labmaze")
LABMAZE_SIZES = (100, 500)
LABMAZE_TARGET = 3.0  # labmaze / mazeplugin (compiled), at least
PATH_SIZES = (64, 200, 500, 1000)
SMALL_TARGET = 0.002  # s for a 64 x 64 level, compiled
LARGE_TARGET = {"aldous-broder": 2.0}  # s at 1000 x 1000, compiled
LARGE_DEFAULT = 0.5


@contextmanager
def path(mode: str) -> Iterator[None]:
    """Generate with ``MAZEPLUGIN_COMPILED=mode`` ("1" compiled, "0" plain) inside the block."""
    old = os.environ.get(mazeplugin.compiled.MODE_VARIABLE)
    os.environ[mazeplugin.compiled.MODE_VARIABLE] = mode
    try:
        yield
    finally:
        if old is None:
            del os.environ[mazeplugin.compiled.MODE_VARIABLE]
        else:
            os.environ[mazeplugin.compiled.MODE_VARIABLE] = old


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def say(line: str = "") -> None:
    print(line, flush=True)


def warm() -> List[str]:
    """Load every kernel (compiling them into the cache if needed) before timing."""
    with path("1"):
        mazeplugin.compiled.warm_up()
        for name in mp.algorithms():  # and touch each once
            mp.generate(name, 8, 8, seed=1)
    return mazeplugin.compiled.loaded()


# -- compiled and plain, every generator ---------------------------------------


def bench_paths(names: Sequence[str], sizes: Sequence[int] = PATH_SIZES, quick: bool = False) -> dict:
    """{name: {n: {"compiled", "plain"}}}: medians of mp.generate(name, n, n, seed=1), both paths alternated."""
    say("\n== compiled and plain paths: median of mp.generate(name, n, n, seed=1), alternated")
    say(f"{'algorithm':<16} {'size':>10} {'compiled':>10} {'plain':>10} {'speed-up':>9}")
    out: dict = {}
    for name in names:
        out[name] = {}
        for n in sizes:
            fast: List[float] = []
            plain: List[float] = []
            runs = 7 if n <= 200 else 3
            plain_runs = runs
            for i in range(runs):
                with path("1"):
                    fast.append(timed(lambda: mp.generate(name, n, n, seed=1)))
                if i < plain_runs:
                    with path("0"):
                        plain.append(timed(lambda: mp.generate(name, n, n, seed=1)))
                    if plain[0] > 3 or quick:
                        plain_runs = 1  # slow plain runs: one is enough to show the gap
            row = {"compiled": statistics.median(fast), "plain": statistics.median(plain),
                   "runs": runs, "plain_runs": len(plain)}
            out[name][n] = row
            say(f"{name:<16} {f'{n}x{n}':>10} {fmt(row['compiled']):>10} {fmt(row['plain']):>10} "
                f"{row['plain'] / row['compiled']:>8.1f}x")
    return out


# -- start-up -----------------------------------------------------------------

STARTUP_CHILD = r"""
import sys, time
t0 = time.perf_counter()
import mazeplugin as mp
t1 = time.perf_counter()
mp.generate(sys.argv[1], int(sys.argv[2]), int(sys.argv[2]), seed=1)
t2 = time.perf_counter()
from mazeplugin import compiled
print(t1 - t0, t2 - t0, ",".join(compiled.loaded()) or "-", "numba" in sys.modules)
"""


def bench_startup() -> List[dict]:
    """First level in a fresh process (import + generate), cold and warm kernel cache."""
    say("\n== start-up: a fresh process imports mazeplugin and makes its first level")
    say(f"{'mode':<6} {'level':<20} {'cache':<6} {'import':>8} {'total':>8}  kernels loaded")
    rows = []
    cache = tempfile.mkdtemp(prefix="mazeplugin-bench-cache-")
    try:
        for mode, name, n in (("auto", "backtracker", 64), ("1", "backtracker", 64),
                              ("0", "backtracker", 64), ("auto", "backtracker", 1000),
                              ("0", "backtracker", 1000)):
            for state in ("cold", "warm") if mode != "0" else ("-",):
                if state == "cold":
                    shutil.rmtree(cache)
                    os.mkdir(cache)
                env = dict(os.environ, PYTHONPATH=ROOT, MAZEPLUGIN_COMPILED=mode, NUMBA_CACHE_DIR=cache)
                times = []
                for _ in range(1 if state == "cold" else 3):
                    done = subprocess.run([sys.executable, "-c", STARTUP_CHILD, name, str(n)],
                                          env=env, capture_output=True, text=True, timeout=900)
                    imported, total, loaded, numba = done.stdout.split()
                    times.append((float(total), float(imported), loaded))
                total, imported, loaded = sorted(times)[len(times) // 2]
                row = {"mode": mode, "level": f"{name} {n}x{n}", "cache": state,
                       "import": imported, "total": total, "loaded": loaded}
                rows.append(row)
                say(f"{mode:<6} {row['level']:<20} {state:<6} {fmt(imported):>8} {fmt(total):>8}  {loaded}")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return rows


STARTUP_PARTS_CHILD = r"""
import sys, time
t0 = time.perf_counter()
import mazeplugin as mp
t1 = time.perf_counter()
import numba
t2 = time.perf_counter()
from mazeplugin import _compiled
_compiled.load([sys.argv[1]])
t3 = time.perf_counter()
mp.generate(sys.argv[1], int(sys.argv[2]), int(sys.argv[2]), seed=1)
t4 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, t4 - t3)
"""


def bench_startup_parts(name: str = "backtracker", n: int = 64, runs: int = 3) -> dict:
    """Where the forced-compiled first level's time goes, warm cache: import mazeplugin, import numba,
    load the kernels from the cache, make the level. Medians of ``runs`` fresh processes."""
    cache = tempfile.mkdtemp(prefix="mazeplugin-bench-cache-")
    try:
        env = dict(os.environ, PYTHONPATH=ROOT, MAZEPLUGIN_COMPILED="1", NUMBA_CACHE_DIR=cache)
        parts: List[List[float]] = []
        for k in range(runs + 1):  # the first run fills the cache
            done = subprocess.run([sys.executable, "-c", STARTUP_PARTS_CHILD, name, str(n)],
                                  env=env, capture_output=True, text=True, timeout=900)
            if done.returncode:
                raise RuntimeError(f"start-up child failed: {done.stderr.strip()[-400:]}")
            if k:
                parts.append([float(v) for v in done.stdout.split()])
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    keys = ("import mazeplugin", "import numba", "load kernels (warm cache)", "first level")
    out = {key: statistics.median(p[i] for p in parts) for i, key in enumerate(keys)}
    say(f"   forced compiled, warm cache, {name} {n}x{n}: " + ", ".join(f"{k} {fmt(v)}" for k, v in out.items()))
    return {"level": f"{name} {n}x{n}", "parts": out}


# -- plain C --------------------------------------------------------------------


def build_limit(directory: str) -> Optional[str]:
    """Compile limit.c with the system C compiler (cc -O2); the binary, or None."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        return None
    binary = os.path.join(directory, "limit")
    subprocess.run([compiler, "-O2", "-o", binary, LIMIT_SOURCE], check=True, timeout=120)
    return binary


def bench_limit(runs: int = 5) -> dict:
    """{name: {"ours", "c", "ratio"}} at 1000 x 1000: the whole mp.generate(..., markers="none")
    call, compiled, against limit.c's own timing of the algorithm, alternated run by run."""
    say(f"\n== plain C (limit.c, cc -O2) vs mp.generate(name, {LIMIT_SIZE}, {LIMIT_SIZE}, markers='none'), compiled")
    say(f"{'algorithm':<14} {'mazeplugin':>11} {'C':>9} {'ratio':>7}")
    out: dict = {}
    with tempfile.TemporaryDirectory(prefix="mazeplugin-limit-") as directory:
        binary = build_limit(directory)
        if binary is None:
            say("no C compiler found: skipped")
            return {"skipped": "no C compiler (cc, gcc or clang) found"}
        compiler = subprocess.run([shutil.which("cc") or "cc", "--version"], capture_output=True,
                                  text=True).stdout.splitlines()[0]
        out["compiler"] = compiler
        with path("1"):
            for name in LIMIT_NAMES:
                ours: List[float] = []
                c: List[float] = []
                for seed in range(runs):
                    ours.append(timed(lambda: mp.generate(name, LIMIT_SIZE, LIMIT_SIZE, seed=seed,
                                                          markers="none")))
                    done = subprocess.run([binary, name, str(LIMIT_SIZE), str(LIMIT_SIZE)],
                                          capture_output=True, text=True, timeout=120, check=True)
                    c.append(float(done.stdout.split()[0]))
                row = {"ours": statistics.median(ours), "c": statistics.median(c)}
                row["ratio"] = row["ours"] / row["c"]
                out[name] = row
                say(f"{name:<14} {fmt(row['ours']):>11} {fmt(row['c']):>9} {row['ratio']:>6.1f}x")
    return out


# -- labmaze ----------------------------------------------------------------------

LABMAZE_WORKER = r"""
import json, sys, time
import labmaze
for line in sys.stdin:
    job = json.loads(line)
    n = job["n"]
    start = time.perf_counter()
    labmaze.RandomMaze(height=2 * n + 1, width=2 * n + 1, max_rooms=job["rooms"],
                       room_min_size=3, room_max_size=9, random_seed=job["seed"], simplify=False)
    print(json.dumps({"seconds": time.perf_counter() - start}), flush=True)
"""


def labmaze_python() -> Optional[str]:
    python = os.path.join(LABMAZE_VENV, "bin", "python")
    if not os.path.exists(python):
        say(f"creating {os.path.relpath(LABMAZE_VENV, ROOT)} and installing labmaze from PyPI ...")
        subprocess.run([sys.executable, "-m", "venv", LABMAZE_VENV], check=True, timeout=300)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "labmaze"], check=True, timeout=900)
    done = subprocess.run([python, "-c", "import labmaze, importlib.metadata as m, platform; "
                           "print(m.version('labmaze'), platform.python_version())"],
                          capture_output=True, text=True, timeout=120)
    return python if done.returncode == 0 else None


def bench_labmaze(runs: int = 5) -> dict:
    """labmaze's plain maze and rooms-and-maze vs our backtracker and rooms, compiled and plain."""
    python = labmaze_python()
    if python is None:
        return {"skipped": "labmaze could not be installed"}
    version = subprocess.run([python, "-c", "import importlib.metadata as m, platform; "
                              "print(m.version('labmaze'), platform.python_version())"],
                             capture_output=True, text=True, timeout=120).stdout.split()
    say(f"\n== labmaze {version[0]} (Python {version[1]}, own venv) vs mazeplugin, alternated")
    say(f"{'labmaze':<16} {'mazeplugin':<12} {'size':>9} {'labmaze':>9} {'compiled':>9} {'plain':>9} "
        f"{'lab/compiled':>13} {'lab/plain':>10}")
    worker = subprocess.Popen([python, "-c", LABMAZE_WORKER], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, cwd=HERE)
    out: dict = {"version": version[0], "python": version[1], "rows": []}
    try:
        for theirs, ours in (("maze", "backtracker"), ("rooms-and-maze", "rooms")):
            for n in LABMAZE_SIZES:
                rooms = 0 if theirs == "maze" else max(1, n * n // 100)
                lab: List[float] = []
                fast: List[float] = []
                plain: List[float] = []
                for seed in range(runs):
                    assert worker.stdin and worker.stdout
                    worker.stdin.write(json.dumps({"n": n, "rooms": rooms, "seed": seed + 1}) + "\n")
                    worker.stdin.flush()
                    ready, _, _ = select.select([worker.stdout], [], [], 600)
                    if not ready:
                        raise RuntimeError("labmaze timed out")
                    lab.append(json.loads(worker.stdout.readline())["seconds"])
                    with path("1"):
                        fast.append(timed(lambda: mp.generate(ours, n, n, seed=seed)))
                    with path("0"):
                        plain.append(timed(lambda: mp.generate(ours, n, n, seed=seed)))
                row = {"theirs": theirs, "ours": ours, "n": n, "rooms": rooms,
                       "labmaze": statistics.median(lab), "compiled": statistics.median(fast),
                       "plain": statistics.median(plain)}
                out["rows"].append(row)
                say(f"{theirs:<16} {ours:<12} {f'{n}x{n}':>9} {fmt(row['labmaze']):>9} "
                    f"{fmt(row['compiled']):>9} {fmt(row['plain']):>9} "
                    f"{row['labmaze'] / row['compiled']:>12.1f}x {row['labmaze'] / row['plain']:>9.1f}x")
    finally:
        worker.kill()
        worker.wait(timeout=30)
    return out


def fmt(seconds: Optional[float]) -> str:
    if seconds is None:
        return "-"
    if seconds < 0.01:
        return f"{seconds * 1000:.2f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms" if seconds >= 0.1 else f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"
