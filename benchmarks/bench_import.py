"""How long ``import mazeplugin`` takes next to ``import numpy``, in fresh processes (medians).

    python benchmarks/bench_import.py                  # this checkout, 21 processes of each kind
    python benchmarks/bench_import.py --also /tmp/old  # and another checkout, alternately, for before/after

Each figure is the cumulative time ``python -X importtime`` reports for the
top-level module (its own imports included, the interpreter's start-up not);
the CPU figure is ``time.process_time()`` around ``import numpy`` and then
``import mazeplugin`` inside one process (less disturbed by other jobs than
wall time); and, for "first level", the wall time of ``import mazeplugin`` plus one
15 × 15 backtracker level inside the process. Processes of the different
kinds alternate, so a change in the machine's load hits them alike.

Each checkout's ``mazeplugin`` package is copied to a temporary folder (the
checkout is never written to) and timed two ways (``--bytecode``):
``cached``, its bytecode compiled beforehand, as an installed package (and
numpy) has it; and ``source``, no bytecode, so every module is compiled from
its source at each import, as in a checkout run with
``PYTHONDONTWRITEBYTECODE=1``. numpy is always read from its installed bytecode.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from typing import Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FIRST_LEVEL = (
    "import time; t = time.perf_counter(); import mazeplugin as mp; "
    "mp.generate('backtracker', 15, 15, seed=1); print((time.perf_counter() - t) * 1e6)"
)


def child(code: "List[str]", root: str) -> "subprocess.CompletedProcess[str]":
    """Run ``python *code`` in ``root`` with ``root`` on the path, on the plain path, writing no bytecode.

    The child's working directory is ``root`` too: ``python -c`` puts it first on ``sys.path``, so a
    child started in another checkout would import that checkout's ``mazeplugin`` instead.
    """
    env = dict(os.environ, PYTHONPATH=root, MAZEPLUGIN_COMPILED="0", PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, *code], capture_output=True, text=True, timeout=120, env=env, cwd=root)


def copy_package(root: str, into: str, bytecode: bool) -> str:
    """A copy of ``root``'s ``mazeplugin`` package in a new folder under ``into`` (compiled if ``bytecode``)."""
    folder = tempfile.mkdtemp(prefix="cached-" if bytecode else "source-", dir=into)
    target = os.path.join(folder, "mazeplugin")
    shutil.copytree(os.path.join(root, "mazeplugin"), target, ignore=shutil.ignore_patterns("__pycache__"))
    if bytecode and not compileall.compile_dir(target, quiet=1):
        raise RuntimeError(f"could not compile {target}")
    return folder


def import_time(module: str, root: str) -> float:
    """Microseconds ``import module`` took (``-X importtime``'s cumulative figure) in a fresh process."""
    done = child(["-X", "importtime", "-c", f"import {module}"], root)
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip() == module:
            return float(parts[1])
    raise RuntimeError(f"no import time for {module}: {done.stderr[-500:]}")


CPU_SPLIT = (
    "import time; t0 = time.process_time(); import numpy; t1 = time.process_time(); import mazeplugin; "
    "t2 = time.process_time(); print((t1 - t0) * 1e6, (t2 - t0) * 1e6, mazeplugin.__file__)"
)


def import_cpu(root: str) -> "tuple[float, float]":
    """CPU microseconds of ``import numpy`` and of ``import numpy`` then ``import mazeplugin``, in one fresh process."""
    done = child(["-c", CPU_SPLIT], root)
    numpy_us, both_us, where = done.stdout.split()
    if not os.path.realpath(where).startswith(os.path.realpath(root) + os.sep):
        raise RuntimeError(f"timed the wrong mazeplugin: {where}, not the one in {root}")
    return float(numpy_us), float(both_us)


def first_level(root: str) -> float:
    done = child(["-c", FIRST_LEVEL], root)
    return float(done.stdout.strip())


def main(argv: "List[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="fresh processes per figure (default 21)")
    parser.add_argument("--also", metavar="ROOT", help="another checkout to time alternately (e.g. the code before a change)")
    parser.add_argument("--bytecode", choices=("cached", "source", "both"), default="both",
                        help="time the package from compiled bytecode, from source, or both (default)")
    args = parser.parse_args(argv)
    checkouts = {"this checkout": ROOT}
    if args.also:
        checkouts["--also " + args.also] = os.path.abspath(args.also)
    ways = ("cached", "source") if args.bytecode == "both" else (args.bytecode,)
    with tempfile.TemporaryDirectory(prefix="bench-import-") as scratch:
        roots = {f"{name}, {way}": copy_package(root, scratch, way == "cached")
                 for name, root in checkouts.items() for way in ways}
        times: Dict[str, List[float]] = {}
        for _ in range(args.runs):
            times.setdefault("numpy", []).append(import_time("numpy", ROOT))
            for name, root in roots.items():
                times.setdefault(f"mazeplugin|{name}", []).append(import_time("mazeplugin", root))
                numpy_us, both_us = import_cpu(root)
                times.setdefault("cpu numpy", []).append(numpy_us)
                times.setdefault(f"cpu mazeplugin|{name}", []).append(both_us)
                times.setdefault(f"cpu own|{name}", []).append(both_us - numpy_us)
                times.setdefault(f"first|{name}", []).append(first_level(root))
    med = {k: statistics.median(v) / 1000 for k, v in times.items()}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"medians of {args.runs} fresh processes each (plain path: MAZEPLUGIN_COMPILED=0); "
          f"load average {load:.1f} on {os.cpu_count()} cores")
    print()
    print("| what | ms (-X importtime) | vs import numpy | CPU ms (in the process) | vs import numpy "
          "| CPU ms after numpy (mazeplugin's own) |")
    print("|---|---|---|---|---|---|")
    print(f"| import numpy | {med['numpy']:.0f} | 1.00× | {med['cpu numpy']:.0f} | 1.00× | – |")
    for name in roots:
        mine, cpu, own = med[f"mazeplugin|{name}"], med[f"cpu mazeplugin|{name}"], med[f"cpu own|{name}"]
        print(f"| import mazeplugin ({name}) | {mine:.0f} | {mine / med['numpy']:.2f}× | {cpu:.0f} "
              f"| {cpu / med['cpu numpy']:.2f}× | {own:.0f} |")
        print(f"| import mazeplugin + a first 15 × 15 level, wall ({name}) | {med[f'first|{name}']:.0f} | – | – | – | – |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
