"""mazeplugin benchmarks: generation, tile work and memory, optionally side by side with mazelib.

    python benchmarks/bench.py                          # every generator, 64..1000 cells square
    python benchmarks/bench.py --compare mazelib        # + mazelib 0.9.16, same sizes, same run
    python benchmarks/bench.py --compare mazelib --results benchmarks/results
    python benchmarks/bench.py --sizes 64 200 --algorithms kruskal prim --quick
    python benchmarks/bench.py --compare limit labmaze  # + plain C (limit.c) and labmaze
    python benchmarks/bench.py --compare mazelib limit labmaze --results benchmarks/results

``--results DIR`` writes each table of the run as ``DIR/<table>.json`` (generation,
compiled-vs-plain, startup, mazelib, c, labmaze), the files the site's benchmarks
page is made from; ``--write PATH`` writes the whole run as one Markdown report.

With numba installed (``pip install -e ".[fast]"``) every generator is timed
on the compiled path and on the plain Python path, alternated, and the
start-up of a fresh process is measured with a cold and a warm kernel cache.
``--compare limit`` builds benchmarks/limit.c (a copy of the plain-C
baselines in ../shared/bench/) with ``cc -O2`` in a temporary directory;
``--compare labmaze`` creates ``bench-venv-labmaze`` (git-ignored) with
labmaze from PyPI, never a dependency of mazeplugin.

Times are medians of several runs (fewer for slow runs). A size whose time,
extrapolated from the smaller sizes, would exceed the limit (30 s for
mazeplugin, 60 s for mazelib) is skipped with a note instead of being run.
``--compare mazelib`` creates ``benchmarks/.venv-mazelib`` (git-ignored) and
installs mazelib there from PyPI the first time; mazelib is never imported
into this process and is not a dependency of mazeplugin or its tests. Its
generators are timed in a worker process, alternating run by run with
mazeplugin's, and every external command runs under a timeout.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import select
import statistics
import subprocess
import sys
import textwrap
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402

import mazeplugin as mp  # noqa: E402
from mazeplugin.tiles import base_tiles, wall_neighbours  # noqa: E402

sys.path.insert(0, HERE)
import fast  # noqa: E402  (benchmarks/fast.py: compiled path, start-up, C, labmaze)
from tables import write_table  # noqa: E402  (benchmarks/tables.py: the results files)

SIZES = [64, 200, 500, 1000]
COMPARE_SIZES = [64, 100, 200, 500, 1000]  # 100: where Kruskal is compared
OUR_LIMIT = 30.0  # s: skip a size predicted to take longer
MAZELIB_LIMIT = 60.0
MAZELIB_VERSION = "0.9.16"
MAZELIB_VENV = os.path.join(HERE, ".venv-mazelib")

# mazeplugin name -> mazelib class (module mazelib.generate.<class>).
MAZELIB = {
    "kruskal": "Kruskal",
    "prim": "Prims",
    "backtracker": "BacktrackingGenerator",
    "aldous-broder": "AldousBroder",
    "wilson": "Wilsons",
    "hunt-and-kill": "HuntAndKill",
    "binary-tree": "BinaryTree",
    "sidewinder": "Sidewinder",
    "growing-tree": "GrowingTree",
    "division": "Division",
    "eller": "Ellers",
}
# mazelib's Prims picks a random frontier cell: the "simplified" Prim's.
EXTRA_PAIRS = {"prim-simplified": "Prims"}

# Targets from issue 6: (our name, size, at least this many times faster).
RATIO_TARGETS = {"kruskal": (100, 100), "backtracker": (500, 50)}
DEFAULT_RATIO_TARGET = (500, 10)
SECONDS_TARGETS = {"binary-tree": 0.1, "sidewinder": 0.1}
DEFAULT_SECONDS_TARGET = 3.0  # at 1000 x 1000, all but aldous-broder

WORKER = r"""
import importlib, json, sys, time, traceback
import numpy
from mazelib import Maze
for line in sys.stdin:
    job = json.loads(line)
    try:
        cls = getattr(importlib.import_module("mazelib.generate." + job["cls"]), job["cls"])
        maze = Maze(job["seed"])
        maze.generator = cls(job["n"], job["n"])
        start = time.perf_counter()
        maze.generate()
        reply = {"seconds": time.perf_counter() - start, "open": int((maze.grid == 0).sum())}
    except Exception as error:
        frame = traceback.extract_tb(error.__traceback__)[-1]
        reply = {"error": f"{type(error).__name__}: {error}",
                 "where": f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno} {frame.line}"}
    print(json.dumps(reply), flush=True)
"""


# -- timing --------------------------------------------------------------------


def run_once(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def runs_for(seconds: float, quick: bool = False) -> int:
    """How many runs to take the median of, after a first run of ``seconds``."""
    if quick:
        return 1 if seconds > 0.5 else 3
    if seconds < 0.05:
        return 7
    if seconds < 0.5:
        return 5
    return 3 if seconds < 5 else 1


def median_seconds(fn: Callable[[], object], quick: bool = False) -> Tuple[float, int]:
    first = run_once(fn)
    times = [first] + [run_once(fn) for _ in range(runs_for(first, quick) - 1)]
    return statistics.median(times), len(times)


def predict(history: Sequence[Tuple[int, float]], cells: int) -> Optional[float]:
    """Seconds for ``cells`` extrapolated from (cells, seconds) measured at smaller sizes.

    Time ~ cells**k, with k the least-squares slope of log(time) over
    log(cells) for the sizes measured so far (one noisy point moves it
    less than a two-point fit), clamped to 1..2.5; 1.3 with only one size.
    A guess that errs towards skipping.
    """
    if not history:
        return None
    c_last, t_last = history[-1]
    k = 1.3
    points = [(math.log(c), math.log(t)) for c, t in history if t > 0]
    if len(points) >= 2:
        mx = sum(x for x, _ in points) / len(points)
        my = sum(y for _, y in points) / len(points)
        sxx = sum((x - mx) ** 2 for x, _ in points)
        if sxx > 0:
            k = sum((x - mx) * (y - my) for x, y in points) / sxx
    k = min(max(k, 1.0), 2.5)
    return t_last * (cells / c_last) ** k


def fmt_seconds(seconds: Optional[float]) -> str:
    if seconds is None:
        return "-"
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms" if seconds < 0.1 else f"{seconds * 1000:.0f} ms"
    return f"{seconds:.2f} s"


def fmt_rate(cells: int, seconds: float) -> str:
    rate = cells / seconds
    if rate >= 1e6:
        return f"{rate / 1e6:.1f} M"
    return f"{rate / 1e3:.0f} k"


def fmt_ratio(ratio: float) -> str:
    return f"{ratio:,.0f}x" if ratio >= 10 else f"{ratio:.1f}x"


def say(line: str = "") -> None:
    print(line, flush=True)


# -- mazelib in its own environment ----------------------------------------------


def venv_python(venv: str) -> str:
    return os.path.join(venv, "bin", "python")


def ensure_mazelib(venv: str = MAZELIB_VENV) -> str:
    """The venv's python with mazelib importable, creating the venv the first time."""
    python = venv_python(venv)
    check = [python, "-c", "import mazelib, numpy; print(numpy.__version__)"]
    if os.path.exists(python):
        done = subprocess.run(check, capture_output=True, text=True, timeout=120)
        if done.returncode == 0:
            return python
    say(f"creating {os.path.relpath(venv, ROOT)} and installing mazelib=={MAZELIB_VERSION} from PyPI ...")
    subprocess.run([sys.executable, "-m", "venv", venv], check=True, timeout=300)
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", f"mazelib=={MAZELIB_VERSION}"],
        check=True,
        timeout=900,
    )
    subprocess.run(check, check=True, capture_output=True, timeout=120)
    return python


class MazelibWorker:
    """A mazelib process that times one generation per request, killed on a timeout."""

    def __init__(self, python: str) -> None:
        self.python = python
        self.proc: Optional[subprocess.Popen] = None

    def _start(self) -> subprocess.Popen:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [self.python, "-c", WORKER],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                cwd=HERE,  # not the repository root: never import mazeplugin there
            )
        return self.proc

    def versions(self) -> str:
        code = (
            "import importlib.metadata as m, numpy, platform; "
            "print(m.version('mazelib'), numpy.__version__, m.version('cython'), platform.python_version())"
        )
        done = subprocess.run([self.python, "-c", code], capture_output=True, text=True, timeout=120)
        return done.stdout.strip()

    def time(self, cls: str, n: int, timeout: float, seed: int = 1) -> dict:
        proc = self._start()
        assert proc.stdin and proc.stdout
        proc.stdin.write(json.dumps({"cls": cls, "n": n, "seed": seed}) + "\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], timeout)
        if not ready:
            self.close()
            return {"error": f"timed out after {timeout:.0f} s"}
        line = proc.stdout.readline()
        if not line:
            self.close()
            return {"error": "the mazelib worker died"}
        return json.loads(line)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        self.proc = None


# -- the benchmarks ------------------------------------------------------------


def generate_fn(name: str, n: int) -> Callable[[], object]:
    return lambda: mp.generate(name, n, n, seed=1)


def bench_generators(names: Sequence[str], sizes: Sequence[int], quick: bool) -> dict:
    """{name: {n: {"seconds", "runs"} or {"skipped": note}}}."""
    say(f"\n== generation: median of mp.generate(name, n, n, seed=1), skip if predicted > {OUR_LIMIT:.0f} s")
    say(f"{'algorithm':<16} {'size':>10} {'median':>10} {'cells/s':>9}  runs")
    results: dict = {}
    for name in names:
        results[name] = {}
        history: List[Tuple[int, float]] = []
        for n in sizes:
            guess = predict(history, n * n)
            if guess is not None and guess > OUR_LIMIT:
                note = f"skipped: predicted {guess:.0f} s"
                results[name][n] = {"skipped": note}
                say(f"{name:<16} {f'{n}x{n}':>10} {note}")
                continue
            try:
                seconds, runs = median_seconds(generate_fn(name, n), quick)
            except ValueError as error:
                results[name][n] = {"skipped": f"error: {error}"}
                say(f"{name:<16} {f'{n}x{n}':>10} error: {error}")
                continue
            history.append((n * n, seconds))
            results[name][n] = {"seconds": seconds, "runs": runs}
            say(f"{name:<16} {f'{n}x{n}':>10} {fmt_seconds(seconds):>10} {fmt_rate(n * n, seconds):>9}  {runs}")
    return results


def bench_compare(
    pairs: Sequence[Tuple[str, str]], sizes: Sequence[int], worker: MazelibWorker, quick: bool
) -> dict:
    """{(ours, theirs): {n: {...}}}: the two timed alternately, run by run, in one loop."""
    say(f"\n== side by side with mazelib {MAZELIB_VERSION} (skip mazelib if predicted > {MAZELIB_LIMIT:.0f} s)")
    say(f"{'mazeplugin':<16} {'mazelib':<22} {'size':>10} {'mazeplugin':>11} {'mazelib':>11} {'ratio':>8}")
    results: dict = {}
    for ours, theirs in pairs:
        rows: dict = {}
        ours_history: List[Tuple[int, float]] = []
        theirs_history: List[Tuple[int, float]] = []
        theirs_stopped: Optional[str] = None
        for n in sizes:
            row: dict = {}
            guess = predict(theirs_history, n * n)
            if theirs_stopped:
                row["theirs_note"] = theirs_stopped
            elif guess is not None and guess > MAZELIB_LIMIT:
                row["theirs_note"] = f"skipped: predicted {guess:.0f} s"
            ours_guess = predict(ours_history, n * n)
            if ours_guess is not None and ours_guess > OUR_LIMIT:
                row["ours_note"] = f"skipped: predicted {ours_guess:.0f} s"
            if "ours_note" in row and "theirs_note" in row:
                rows[n] = row
                continue
            ours_times: List[float] = []
            theirs_times: List[float] = []
            timeout = 2 * MAZELIB_LIMIT
            runs = 1
            i = 0
            while i < runs:
                if "ours_note" not in row:
                    ours_times.append(run_once(generate_fn(ours, n)))
                if "theirs_note" not in row:
                    reply = worker.time(theirs, n, timeout)
                    if "error" in reply:
                        row["theirs_note"] = f"fails: {reply['error']}"
                        if "where" in reply:
                            row["theirs_where"] = reply["where"]
                        theirs_stopped = f"not run: failed at {n}x{n}"
                    else:
                        theirs_times.append(reply["seconds"])
                if i == 0:  # decide the number of runs from the first, slower of the two
                    slowest = max(theirs_times + ours_times)
                    runs = 1 if slowest > 5 else (3 if slowest > 0.5 or quick else 5)
                i += 1
            while ours_times and len(ours_times) < 3:  # ours are cheap: at least three
                ours_times.append(run_once(generate_fn(ours, n)))
            if ours_times:
                row["ours"] = statistics.median(ours_times)
                ours_history.append((n * n, row["ours"]))
            if theirs_times:
                row["theirs"] = statistics.median(theirs_times)
                row["theirs_runs"] = len(theirs_times)
                theirs_history.append((n * n, row["theirs"]))
            if "ours" in row and "theirs" in row:
                row["ratio"] = row["theirs"] / row["ours"]
            rows[n] = row
            say(
                f"{ours:<16} {theirs:<22} {f'{n}x{n}':>10} {fmt_seconds(row.get('ours')):>11} "
                f"{fmt_seconds(row.get('theirs')):>11} "
                f"{fmt_ratio(row['ratio']) if 'ratio' in row else row.get('theirs_note', ''):>8}"
            )
        results[(ours, theirs)] = rows
    return results


def probe_ellers(worker: MazelibWorker) -> dict:
    """Where mazelib's Ellers stops working (it keeps set labels in an int8 array)."""
    works, fails = [], None
    for n in (4, 8, 12, 16, 20, 24, 32, 64):
        reply = worker.time("Ellers", n, 60)
        if "error" in reply:
            fails = (n, reply["error"], reply.get("where", ""))
            break
        works.append(n)
    return {"works": works, "fails": fails}


def bench_tiles(quick: bool) -> List[Tuple[str, str, Optional[float], str]]:
    """Per-frame and per-level tile work on 1000 x 1000-cell levels, and pygame drawing."""
    say("\n== tile work (1000 x 1000 cells = 2001 x 2001 tiles unless noted)")
    rows: List[Tuple[str, str, Optional[float], str]] = []

    def add(what: str, level_name: str, fn: Callable[[], object], note: str = "") -> None:
        seconds, _ = median_seconds(fn, quick)
        rows.append((what, level_name, seconds, note))
        say(f"{what:<44} {level_name:<12} {fmt_seconds(seconds):>10}  {note}")

    for name in ("kruskal", "backtracker"):
        level = mp.generate(name, 1000, 1000, seed=1)
        if name == "kruskal":
            add("tiles from passages (base_tiles)", name, lambda: base_tiles(level.maze))
            add("Level(maze): tilemap built and frozen", name, lambda: mp.Level(level.maze))
            add("marked()", name, level.marked)
            add("wall_neighbours(tiles) (autotile mask)", name, lambda: wall_neighbours(level.tiles))
        add("distances((1, 1))", name, lambda: level.distances((1, 1)))
        add("solution()", name, level.solution, f"path of {len(level.solution()):,} tiles")
    try:
        import pygame  # noqa: F401

        from mazeplugin import pg
    except ImportError as error:
        rows.append(("pygame drawing", "-", None, f"skipped: {error}"))
        say(f"pygame drawing skipped: {error}")
        return rows
    pygame.init()
    small = mp.generate("kruskal", 100, 100, seed=1)  # 201 x 201 tiles
    render = getattr(pg, "render", None)
    if callable(render):
        add("pg.render(level, tile=8): 201x201 tiles", "kruskal 100", lambda: render(small, tile=8),
            "1608 x 1608 px Surface")
        add("pg.render(level, tile=1): 201x201 tiles", "kruskal 100", lambda: render(small, tile=1))
    else:
        rows.append(("pg.render", "-", None, "skipped: mazeplugin.pg has no render()"))
    render_images = getattr(pg, "render_images", None)
    wall_set = getattr(pg, "simple_wall_set", None)
    if callable(render_images) and callable(wall_set):
        sprites = wall_set(8)
        floor = pygame.Surface((8, 8))
        add("pg.render_images(level, wall_set=16 sprites)", "kruskal 100",
            lambda: render_images(small, floor=floor, wall_set=sprites), "autotiled 8 px sprites")
    return rows


MEMORY_PROBE = r"""
def memory_kib(field):
    # VmRSS / VmHWM of this process, in KiB. VmHWM belongs to this process's own
    # address space (ru_maxrss would carry over the parent's peak across exec).
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])

def reset_peak():
    with open("/proc/self/clear_refs", "w") as refs:  # "5": reset VmHWM to VmRSS
        refs.write("5")
"""

MEMORY_CHILD = MEMORY_PROBE + r"""
import sys
import mazeplugin as mp
name, n = sys.argv[1], int(sys.argv[2])
mp.generate(name, 8, 8, seed=1)
before = memory_kib("VmRSS")
reset_peak()
level = mp.generate(name, n, n, seed=1)
print(before, memory_kib("VmHWM"), level.tiles.nbytes)
"""

STREAM_CHILD = MEMORY_PROBE + r"""
import tracemalloc
import mazeplugin as mp
rows = mp.stream("eller", width=64, seed=1)
next(rows)
reset_peak()
tracemalloc.start()
marks, taken = {}, 1
for checkpoint in (1_000, 10_000, 100_000):
    for _ in range(checkpoint - taken):
        next(rows)
    taken = checkpoint
    current, peak = tracemalloc.get_traced_memory()
    marks[checkpoint] = (current, peak, memory_kib("VmHWM"))
print(repr(marks))
"""


def bench_memory(names: Sequence[str], generation: dict) -> dict:
    """Peak RSS of a process generating one 1000 x 1000 level, and the stream's memory."""
    say("\n== memory: peak RSS (VmHWM) of a fresh process generating one 1000 x 1000 level")
    out: dict = {"levels": {}, "stream": None}
    env = dict(os.environ, PYTHONPATH=ROOT)
    for name in names:
        timing = generation.get(name, {}).get(1000, {})
        if "seconds" not in timing:
            out["levels"][name] = {"skipped": timing.get("skipped", "not timed at 1000x1000")}
            say(f"{name:<16} skipped ({out['levels'][name]['skipped']})")
            continue
        try:
            done = subprocess.run(
                [sys.executable, "-c", MEMORY_CHILD, name, "1000"],
                capture_output=True, text=True, env=env, timeout=max(120, 10 * timing["seconds"]),
            )
            before, after, nbytes = (int(v) for v in done.stdout.split())
        except (subprocess.TimeoutExpired, ValueError) as error:
            out["levels"][name] = {"skipped": f"failed: {type(error).__name__}"}
            continue
        out["levels"][name] = {"before_kb": before, "after_kb": after, "tiles_bytes": nbytes}
        say(f"{name:<16} peak {after / 1024:7.0f} MiB (before the level {before / 1024:4.0f} MiB; "
            f"+{(after - before) / 1024:.0f} MiB)")
    say('\n== memory: mp.stream("eller", width=64), tracemalloc, 100,000 tile rows')
    try:
        done = subprocess.run([sys.executable, "-c", STREAM_CHILD], capture_output=True, text=True,
                              env=env, timeout=600)
        marks = eval(done.stdout.strip(), {})  # a dict literal printed by our own child
        out["stream"] = marks
        for rows, (current, peak, rss) in marks.items():
            say(f"after {rows:>7,} rows: traced now {current / 1024:6.1f} KiB, traced peak "
                f"{peak / 1024:6.1f} KiB, process peak RSS {rss / 1024:.1f} MiB")
    except (subprocess.TimeoutExpired, SyntaxError) as error:
        out["stream"] = {"error": f"{type(error).__name__}"}
    return out


# -- the report ----------------------------------------------------------------


def machine() -> Dict[str, str]:
    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    info = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "load": " / ".join(f"{v:.2f}" for v in os.getloadavg()),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "numpy": np.__version__,
        "mazeplugin": mp.__version__,
    }
    try:
        import pygame

        info["pygame"] = pygame.version.ver
    except ImportError:
        info["pygame"] = "not installed"
    return info


PROFILE_FINDINGS = """\
The plain Python path's hot spots as 0.1 left them (the compiled path's
work is in "Choosing the compiled route" below). Found with cProfile (`python -m cProfile -s tottime`, and `cProfile.run` on
one `mp.generate(name, 1000, 1000)`). "Before" and "after" are the old and
new code timed alternately in one process on a 1000 x 1000 maze (generator
function alone, median of 3; load average 0.65-0.75 at the time). Every change
keeps every level byte-identical: the golden digests in `tests/test_seeds.py`
are unchanged, and each rewrite was checked against the previous code on
hundreds of random sizes, seeds, masks and start cells.

| hot spot (cProfile) | before | fix | after |
|---|---|---|---|
| `kruskal`: `DisjointSets.union_each`, one Python iteration per wall, 2 M walls | 1.88 s | Kept as it was: the loop is already one tight pass over flat lists with union by rank and path halving. A vectorised route (the walls one Kruskal pass removes are the unique minimum spanning forest with the shuffled order as weights; Borůvka in numpy) measured 0.43 s and was used for a while, but the lead restored the union-find, which the issue names as the algorithm's data structure. Kruskal's targets are met either way (1000 x 1000 under 3 s; thousands of times mazelib's speed). | 1.9 s (unchanged) |
| `prim`: 2 M `heappush`/`heappop` of `(weight, cell, next)` tuples | 5.44 s | True Prim's with distinct random weights grows the unique minimum spanning tree, so it is computed in bulk by `unionfind.spanning_forest` over the walls sorted by weight: Borůvka's algorithm in numpy (every component takes its cheapest wall with `np.minimum.at`, components merge by pointer jumping, walls inside a component are dropped; int32 indices; about ten rounds, no Python loop). If two walls ever share a weight (53-bit floats: about 1 level in 5,000 at 1000 x 1000) the heap still runs, since its tie order decides the maze. | 0.56 s (9.8x) |
| `union-find`: a `union()` method call per random pick, plus `connected(start, goal)` (two finds) after every join | 6.38 s | Picks turned into (cell, neighbour) pairs with numpy in bulk (neighbour lists packed once); one inline loop, `union_each(..., until=(start, goal))`, which keeps the roots of the entrance's and exit's sets up to date so "joined yet?" is one comparison instead of two finds. (A loop-free route, spanning forest of the picks plus a halving search for where the loop stops, measured 0.47 s; the lead kept the union-find loop, as for `kruskal`.) | 2.2 s (2.9x) |
| `backtracker`: per step, a list comprehension over a row of `neighbour_table().tolist()` (4 M ints), `len(opened)` as the pick index, a Python stack | 1.69 s | A grid framed by a ring of visited cells: neighbours are `cell - pitch`, `+ 1`, `+ pitch`, `- 1`, no table and no bounds checks; the unvisited test unrolled; `int(pick * k)` for k = 2, 3, 4 precomputed in bulk; the stack replaced by parent links (backing up is `cell = parent[cell]`). | 0.39 s (4.3x) |
| `solution()` / `distances()`: breadth-first search tile by tile over 4 M tiles | 0.36-0.63 s / 0.49-0.55 s | With corridor = wall = 1 every even-even tile is a wall, so the search steps room to room: one iteration per cell instead of per floor tile, moves from a 16-entry table per room's 4-bit mask; the connector tiles' distances are filled in with numpy and the path is walked with the same north-east-south-west tie rule. Any other tilemap keeps the tile search. `tests/test_paths.py` checks the two give identical answers on random pillared maps and on levels of every generator. | 0.11-0.27 s / 0.17-0.20 s |
| `wall_neighbours()` (autotile mask): four `np.where(...).astype` temporaries | 50 ms | Whole-array uint8 shifts of the wall mask into each bit. | 4 ms (12x) |

Left alone: `eller` (a Python loop per row, inherent to streaming rows in
O(width) memory; 0.4 s at 1000 x 1000), and the generators the catalogue
helper wrote (`aldous-broder`, `wilson`, `hunt-and-kill`, `growing-tree`,
`prim-simplified`, `binary-tree`, `sidewinder`, `division`, `rooms`):
measured and reported here, not changed by this work.
"""


KEPT_HEADINGS = ("## Choosing the compiled route", "## Working memory and limits")
"""Sections of docs/benchmarks.md written by other tools (benchmarks/memory.py), kept on rewrite."""


def _kept_sections(path: str) -> str:
    """The file's trailing sections this script does not write, from the first kept heading on."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return ""
    starts = [text.find("\n" + h + "\n") for h in KEPT_HEADINGS if ("\n" + h + "\n") in text]
    return "\n" + text[min(starts) + 1:].rstrip() + "\n" if starts else ""


def write_fast(w: Callable[[str], None], extra: dict) -> None:
    """The compiled path's sections: paths, start-up, plain C, labmaze."""
    paths = extra.get("paths")
    if not extra.get("compiled"):
        w("## Compiled path")
        w("")
        w("Not measured in this run: numba is not installed (`pip install -e \".[fast]\"`).")
        w("")
        return
    if extra.get("limit") and "skipped" not in extra["limit"]:
        limit = extra["limit"]
        w("## Against plain C (limit.c)")
        w("")
        w(f"`benchmarks/limit.c` (a copy of `../shared/bench/limit.c`: the same four algorithms on the "
          f"same cell model, single-threaded, its own xorshift random numbers) built with `cc -O2` "
          f"({limit.get('compiler', 'cc')}) and timed by itself around the algorithm; mazeplugin timed "
          f"around the whole `mp.generate(name, {fast.LIMIT_SIZE}, {fast.LIMIT_SIZE}, seed=s, "
          f"markers=\"none\")` call on the compiled path (argument checks, PCG64 draws, the "
          f"generator, the tilemap and the Level included). The two alternate run by run; medians of 5.")
        w("")
        w(f"| generator | mazeplugin (compiled) | C | mazeplugin / C | target |")
        w("|---|---|---|---|---|")
        for name in fast.LIMIT_NAMES:
            r = limit[name]
            met = "met" if r["ratio"] <= fast.LIMIT_TARGET else "**missed**"
            w(f"| `{name}` | {fast.fmt(r['ours'])} | {fast.fmt(r['c'])} | **{r['ratio']:.1f}x** | "
              f"≤ {fast.LIMIT_TARGET:.0f}x: {met} |")
        w("")
    lab = extra.get("labmaze")
    if lab and "skipped" not in lab:
        w("## Against labmaze")
        w("")
        w(f"labmaze {lab['version']} (DeepMind; C++ core) from PyPI in its own venv "
          f"(`bench-venv-labmaze`, Python {lab['python']}), timed in a worker process around "
          "`labmaze.RandomMaze(height=2n+1, width=2n+1, max_rooms=R, room_min_size=3, "
          "room_max_size=9, random_seed=s, simplify=False)`: R = 0 for its plain maze, R = cells / 100 "
          "for rooms-and-maze (rooms of 3 to 9 tiles, as `rooms`' default 2 to 5 cells). "
          "`simplify=False`: labmaze's default post-pass took 1.6 to 45 s at 100x100 here and is not "
          "part of making the maze. mazeplugin: "
          "`mp.generate(name, n, n, seed=s)` (default markers, tilemap and Level included). "
          "Alternated run by run, medians of 5. Ratio = labmaze time / mazeplugin time.")
        w("")
        w("| labmaze | mazeplugin | size | labmaze | compiled | plain | ratio compiled | ratio plain |")
        w("|---|---|---|---|---|---|---|---|")
        for r in lab["rows"]:
            w(f"| {r['theirs']} | `{r['ours']}` | {r['n']}x{r['n']} | {fast.fmt(r['labmaze'])} | "
              f"{fast.fmt(r['compiled'])} | {fast.fmt(r['plain'])} | "
              f"**{r['labmaze'] / r['compiled']:.1f}x** | {r['labmaze'] / r['plain']:.1f}x |")
        w("")
        w(f"Targets: compiled at least {fast.LABMAZE_TARGET:.0f}x faster than labmaze on both; the "
          "plain path at least level (ratio ≥ 1) on the plain maze.")
        w("")
    if paths:
        w("## Compiled and plain paths")
        w("")
        w("Median of `mp.generate(name, n, n, seed=1)` (default markers), the compiled path "
          "(numba kernels, loaded before timing) and the plain Python path alternated run by run "
          "(slow plain runs: one). Both make the same level, byte for byte. Targets for the "
          f"compiled path: 64x64 under {fast.SMALL_TARGET * 1000:.0f} ms; 1000x1000 under "
          f"{fast.LARGE_DEFAULT} s (aldous-broder, a cover-time random walk: under "
          f"{fast.LARGE_TARGET['aldous-broder']:.0f} s).")
        w("")
        sizes = sorted({n for rows in paths.values() for n in rows})
        w("| generator | " + " | ".join(f"{n}x{n} compiled / plain" for n in sizes) + " | targets |")
        w("|---|" + "---|" * len(sizes) + "---|")
        for name, rows in paths.items():
            cells = [f"{fast.fmt(rows[n]['compiled'])} / {fast.fmt(rows[n]['plain'])} "
                     f"({rows[n]['plain'] / rows[n]['compiled']:.0f}x)" if n in rows else "-" for n in sizes]
            verdict = []
            if 64 in rows:
                verdict.append("64: met" if rows[64]["compiled"] < fast.SMALL_TARGET else "64: **missed**")
            if 1000 in rows:
                limit_s = fast.LARGE_TARGET.get(name, fast.LARGE_DEFAULT)
                verdict.append("1000: met" if rows[1000]["compiled"] < limit_s else "1000: **missed**")
            w(f"| `{name}` | " + " | ".join(cells) + f" | {', '.join(verdict)} |")
        w("")
    if extra.get("startup"):
        w("## Start-up")
        w("")
        w("A fresh process: `import mazeplugin`, then its first level; wall-clock from before the "
          "import to the level (the interpreter's own start excluded), median of 3 (cold: 1 run). "
          "Cold: an empty kernel cache (`NUMBA_CACHE_DIR` pointed at a new directory), so the "
          "kernels the level needs are compiled; warm: the cache that run filled. "
          "`MAZEPLUGIN_COMPILED`: auto (the default) makes a small first level on the plain "
          "path rather than wait for `import numba`; 1 forces the compiled path; 0 is plain.")
        w("")
        w("| MAZEPLUGIN_COMPILED | first level | cache | import | import + first level | kernels loaded |")
        w("|---|---|---|---|---|---|")
        for r in extra["startup"]:
            w(f"| {r['mode']} | {r['level']} | {r['cache']} | {fast.fmt(r['import'])} | "
              f"{fast.fmt(r['total'])} | {r['loaded']} |")
        w("")
        parts = extra.get("startup_parts")
        if parts:
            w(f"Where the forced-compiled first level ({parts['level']}, warm cache, `MAZEPLUGIN_COMPILED=1`) "
              "spends its time, medians of 3 fresh processes: "
              + ", ".join(f"{k} {fast.fmt(v)}" for k, v in parts["parts"].items())
              + ". Loading cached kernels is mostly numba setting up its compiler the first time it "
              "is used in a process, whatever the kernel; this is why `auto` makes small first levels "
              "on the plain path and the demo loads the kernels in a background thread.")
            w("")


def write_markdown(path: str, info: dict, args: argparse.Namespace, generation: dict, compare: Optional[dict],
                   ellers: Optional[dict], mazelib_versions: str, tiles: list, memory: Optional[dict],
                   extra: Optional[dict] = None, results: bool = False) -> None:
    """The run as a Markdown report at ``path``, or with ``results`` its tables as JSON files in the folder
    ``path`` (:func:`write_results`)."""
    out: List[str] = []
    w = out.append
    w("# Benchmarks")
    w("")
    w(f"Regenerated by `python benchmarks/bench.py {' '.join(sys.argv[1:])}` on {info['date']}.")
    w("")
    w("## Machine")
    w("")
    w(f"- CPU: {info['cpu']}, {info['cores']} cores; {info['os']}")
    w(f"- Python {info['python']}, numpy {info['numpy']}, pygame {info['pygame']}, mazeplugin {info['mazeplugin']}")
    if mazelib_versions:
        ml, mnp, mcy, mpy = (mazelib_versions.split() + ["?"] * 4)[:4]
        w(f"- mazelib {ml} from PyPI (a pure-Python wheel: Cython {mcy} is installed but the "
          f"modules are not compiled), numpy {mnp}, Python {mpy}, in `benchmarks/.venv-mazelib`")
    w(f"- Load average when the run started: {info['load']}. The machine is shared with other "
      "jobs (other helpers' test suites may run during the benchmark), so absolute figures are noisy: "
      "every figure is a median, and the mazelib ratios come from runs alternated with "
      "mazeplugin's in the same loop, which cancels most of the noise.")
    w("")
    if compare:
        w("## Headline: mazeplugin vs mazelib")
        w("")
        w("Generation only (mazelib's `Maze.generate()`, mazeplugin's `mp.generate(...)`, "
          "which also builds the tilemap and markers). Ratio = mazelib time / mazeplugin time.")
        w("")
        w("| generator | mazelib | size | mazeplugin | mazelib | ratio | target |")
        w("|---|---|---|---|---|---|---|")
        for (ours, theirs), rows in compare.items():
            size, need = RATIO_TARGETS.get(ours, DEFAULT_RATIO_TARGET)
            if ours in EXTRA_PAIRS:
                size, need = DEFAULT_RATIO_TARGET
            row = rows.get(size, {})
            ratio = row.get("ratio")
            if ratio is None:
                # mazelib skipped at that size: a lower bound from its predicted time.
                note = row.get("theirs_note", "not measured")
                verdict = note
                if note.startswith(("fails", "not run")):
                    verdict = "mazelib fails (see below)"
                if note.startswith("skipped: predicted") and row.get("ours"):
                    predicted = float(note.split()[2])
                    verdict = f"≥ {fmt_ratio(predicted / row['ours'])} (mazelib {note})"
                w(f"| `{ours}` | {theirs} | {size}x{size} | {fmt_seconds(row.get('ours'))} | - | {verdict} | ≥ {need}x |")
                continue
            met = "met" if ratio >= need else "**missed**"
            w(f"| `{ours}` | {theirs} | {size}x{size} | {fmt_seconds(row['ours'])} | "
              f"{fmt_seconds(row['theirs'])} | **{fmt_ratio(ratio)}** | ≥ {need}x: {met} |")
        w("")
    if extra:
        write_fast(w, extra)
    w("## Generation")
    w("")
    path_note = "compiled path" if extra and extra.get("compiled") else "plain path"
    w(f"Median of `mp.generate(name, n, n, seed=1)` (default markers; {path_note}); cells per second in "
      f"brackets. Sizes predicted (from the smaller ones) to take more than {OUR_LIMIT:.0f} s are skipped.")
    w("")
    sizes = args.sizes
    w("| generator | " + " | ".join(f"{n}x{n}" for n in sizes) + " | target at 1000x1000 |")
    w("|---|" + "---|" * len(sizes) + "---|")
    for name, rows in generation.items():
        cells = []
        for n in sizes:
            r = rows.get(n, {})
            if "seconds" in r:
                cells.append(f"{fmt_seconds(r['seconds'])} ({fmt_rate(n * n, r['seconds'])}/s)")
            else:
                cells.append(r.get("skipped", "-"))
        target = SECONDS_TARGETS.get(name, DEFAULT_SECONDS_TARGET)
        verdict = "none (random walk)" if name == "aldous-broder" else f"< {fmt_seconds(target)}"
        r = rows.get(1000, {})
        if name != "aldous-broder" and "seconds" in r:
            verdict += ": met" if r["seconds"] < target else ": **missed**"
        w(f"| `{name}` | " + " | ".join(cells) + f" | {verdict} |")
    w("")
    if compare:
        w("## Side by side, every size")
        w("")
        w(f"Both libraries in the same run, alternating run by run; mazelib skipped where its "
          f"time predicted from the smaller sizes exceeds {MAZELIB_LIMIT:.0f} s.")
        w("")
        w("| mazeplugin | mazelib | size | mazeplugin | mazelib | ratio |")
        w("|---|---|---|---|---|---|")
        for (ours, theirs), rows in compare.items():
            for n, row in rows.items():
                ratio = fmt_ratio(row["ratio"]) if "ratio" in row else row.get("theirs_note", "-")
                w(f"| `{ours}` | {theirs} | {n}x{n} | "
                  f"{fmt_seconds(row.get('ours')) if 'ours' in row else row.get('ours_note', '-')} | "
                  f"{fmt_seconds(row.get('theirs'))} | {ratio} |")
        w("")
        w("mazelib's `Prims` grows the maze from random frontier cells (what mazeplugin calls "
          "`prim-simplified`); it is listed against both.")
        w("")
    if ellers:
        w("### mazelib's Ellers")
        w("")
        fails = ellers.get("fails")
        if fails:
            n, error, where = fails
            w(f"mazelib's `Ellers` keeps set labels in an `int8` array and gives every new cell a "
              f"new label, so once a maze needs label 128 numpy 2 refuses the write: it worked at "
              f"{', '.join(f'{m}x{m}' for m in ellers['works']) or 'no size tried'} and fails from "
              f"{n}x{n} on with `{error}` (at `{where.strip()}`). numpy 1.x wrapped such a write "
              f"around to -128 instead (with a DeprecationWarning from 1.24 on), so labels could "
              f"repeat and two unrelated sets be taken for one; numpy 1.x was not tried here. "
              f"So no Ellers timing exists at the benchmark sizes; mazeplugin's `eller` is listed alone.")
        else:
            w("mazelib's `Ellers` worked at every probed size in this run.")
        w("")
    w("## Tile work")
    w("")
    w("What a game does with a level once it has one. Median times.")
    w("")
    w("| operation | level | median | note |")
    w("|---|---|---|---|")
    for what, level_name, seconds, note in tiles:
        w(f"| {what} | {level_name} | {fmt_seconds(seconds)} | {note} |")
    w("")
    if memory:
        w("## Memory")
        w("")
        w("Peak resident memory (`VmHWM` from `/proc/self/status`, reset just before the "
          "level) of a fresh process that imports mazeplugin, generates one 8 x 8 level (to "
          "load everything), then one 1000 x 1000 level; \"added\" is that peak minus the "
          "resident memory before the level. The finished 2001 x 2001 tilemap itself is 3.8 MiB.")
        w("")
        w("| generator | peak RSS | added by the 1000x1000 level |")
        w("|---|---|---|")
        for name, r in memory["levels"].items():
            if "after_kb" in r:
                w(f"| `{name}` | {r['after_kb'] / 1024:.0f} MiB | {(r['after_kb'] - r['before_kb']) / 1024:.0f} MiB |")
            else:
                w(f"| `{name}` | - | {r.get('skipped', '-')} |")
        w("")
        stream = memory.get("stream") or {}
        if stream and "error" not in stream:
            w('`mp.stream("eller", width=64)`, traced by `tracemalloc` while taking 100,000 tile rows:')
            w("")
            w("| rows taken | traced now | traced peak | process peak RSS |")
            w("|---|---|---|---|")
            for rows, (current, peak, rss) in stream.items():
                w(f"| {rows:,} | {current / 1024:.1f} KiB | {peak / 1024:.1f} KiB | {rss / 1024:.1f} MiB |")
            w("")
            w("Flat: memory does not grow with the number of rows.")
            w("")
    w("## Profiler findings: the plain path (0.1)")
    w("")
    w(PROFILE_FINDINGS)
    w("## Running it")
    w("")
    w("```sh")
    w("python benchmarks/bench.py                                   # mazeplugin only")
    w("python benchmarks/bench.py --compare mazelib --results benchmarks/results")
    w("python benchmarks/bench.py --compare mazelib limit labmaze --write report.md")
    w("python benchmarks/route.py                                   # numba vs the same kernel in C")
    w("```")
    w("")
    w("The first `--compare mazelib` creates `benchmarks/.venv-mazelib` and installs "
      f"mazelib=={MAZELIB_VERSION} from PyPI into it; mazelib never enters mazeplugin's own "
      "environment, dependencies or tests.")
    if results:
        write_results(path, info, out)
        return
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    kept = _kept_sections(path)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out).rstrip() + "\n" + kept)
    say(f"\nwrote {path}")


RESULT_TABLES = {
    "Generation": "generation",
    "Compiled and plain paths": "compiled-vs-plain",
    "Start-up": "startup",
    "Headline: mazeplugin vs mazelib": "mazelib",
    "Against plain C (limit.c)": "c",
    "Against labmaze": "labmaze",
}
"""Report sections (headings of :func:`write_markdown`) kept as result files, and their names."""


def report_tables(lines: Sequence[str]) -> Dict[str, dict]:
    """Each kept section of the report as ``{name: {"heading", "note", "columns", "rows"}}``: its first
    paragraph and its first table."""
    tables: Dict[str, dict] = {}
    current: Optional[dict] = None
    for line in "\n".join(lines).splitlines():
        if line.startswith("## "):
            name = RESULT_TABLES.get(line[3:].strip())
            current = {"heading": line[3:].strip(), "note": "", "columns": [], "rows": []} if name else None
            if current is not None:
                tables[name] = current
        elif current is None:
            continue
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not current["columns"]:
                current["columns"] = cells
            elif not set("".join(cells)) <= set("-: "):
                current["rows"].append(cells)
        elif line.strip() and not current["note"] and not current["columns"]:
            current["note"] = line.strip()
        elif current["rows"] and not line.strip():
            current = None  # the first table is the section's table
    return tables


def write_results(folder: str, info: dict, lines: Sequence[str]) -> None:
    """The run's tables as ``folder/<name>.json`` in the format of ``docs/_hooks/benchmarks_page.py``
    (a file's title is kept when it exists; the rest is this run's)."""
    os.makedirs(folder, exist_ok=True)
    machine_text = (f"{info['cpu']}, {info['cores']} cores, shared (load {info['load']}); Python {info['python']}, "
                    f"numpy {info['numpy']}")
    for name, table in report_tables(lines).items():
        target = os.path.join(folder, name + ".json")
        title = table["heading"]
        try:
            with open(target, encoding="utf-8") as f:
                title = json.load(f).get("title", title)
        except (OSError, ValueError):
            pass
        write_table(target, title=title, command="python benchmarks/bench.py " + " ".join(sys.argv[1:]),
                    machine=machine_text, note=table["note"], columns=table["columns"], rows=table["rows"])
        say(f"wrote {target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=SIZES)
    parser.add_argument("--compare-sizes", type=int, nargs="+", default=COMPARE_SIZES)
    parser.add_argument("--algorithms", nargs="+", default=None, help="default: every registered generator")
    parser.add_argument("--compare", choices=["mazelib", "limit", "labmaze"], nargs="+", default=[],
                        help="also time mazelib, plain C (limit.c) and/or labmaze, side by side")
    parser.add_argument("--no-paths", action="store_true",
                        help="skip the compiled-vs-plain table and the start-up figures")
    parser.add_argument("--no-tiles", action="store_true", help="skip the tile-work timings")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory measurements")
    parser.add_argument("--quick", action="store_true", help="fewer runs per median")
    parser.add_argument("--write", metavar="PATH", help="write the whole run as one Markdown report")
    parser.add_argument("--results", metavar="DIR",
                        help="write each table as DIR/<table>.json (benchmarks/results: the site's benchmarks page)")
    args = parser.parse_args()

    names = args.algorithms or mp.algorithms()
    for name in names:
        mp.get_generator(name)  # unknown names fail here, before any work
    info = machine()
    say(textwrap.dedent(f"""\
        mazeplugin {info['mazeplugin']} benchmarks, {info['date']}
        {info['cpu']}, {info['cores']} cores, load {info['load']}
        Python {info['python']}, numpy {info['numpy']}, pygame {info['pygame']}"""))

    compare = ellers = None
    versions = ""
    worker = None
    compiled_on = mp.compiled.available()
    if compiled_on:
        say(f"compiled path: numba, kernels loaded: {', '.join(fast.warm())}")
    else:
        say("compiled path: not available (numba not installed or MAZEPLUGIN_COMPILED=0)")
    if "mazelib" in args.compare:
        worker = MazelibWorker(ensure_mazelib())
        versions = worker.versions()
        say(f"mazelib, numpy, cython, python in {os.path.relpath(MAZELIB_VENV, ROOT)}: {versions}")
    try:
        generation = bench_generators(names, args.sizes, args.quick)
        if worker is not None:
            pairs = [(ours, MAZELIB[ours]) for ours in names if ours in MAZELIB]
            pairs += [(ours, cls) for ours, cls in EXTRA_PAIRS.items() if ours in names]
            compare = bench_compare(pairs, args.compare_sizes, worker, args.quick)
            if "eller" in names:
                ellers = probe_ellers(worker)
                say(f"\nmazelib Ellers works at {ellers['works']}; fails: {ellers['fails']}")
    finally:
        if worker is not None:
            worker.close()
    tiles = [] if args.no_tiles else bench_tiles(args.quick)
    memory = None if args.no_memory else bench_memory(names, generation)
    extra: dict = {"compiled": compiled_on}
    if compiled_on and not args.no_paths:
        extra["paths"] = fast.bench_paths(names, args.sizes, quick=args.quick)
        if not args.quick:  # fresh processes, cold compiles: not for a quick look
            extra["startup"] = fast.bench_startup()
            extra["startup_parts"] = fast.bench_startup_parts()
    if "limit" in args.compare:
        extra["limit"] = fast.bench_limit()
    if "labmaze" in args.compare:
        extra["labmaze"] = fast.bench_labmaze()
    if args.write:
        write_markdown(args.write, info, args, generation, compare, ellers, versions, tiles, memory, extra)
    if args.results:
        write_markdown(args.results, info, args, generation, compare, ellers, versions, tiles, memory, extra,
                       results=True)


if __name__ == "__main__":
    main()
