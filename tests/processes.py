"""Processes of the test suite: a child's environment, and the compiled kernels built once up front.

``conftest.py`` turns the compiled path on (``MAZEPLUGIN_COMPILED=1``) in the
test processes, so every level made there runs compiled, however small. Two
costs followed from that, and both are paid once here instead:

- A child process (``python -c``, ``python -m mazeplugin``, a README block
  or command, a loader under a memory limit) inherited the setting and
  loaded numba and each kernel it touched: about 0.45 s of CPU a process,
  for levels the default ``auto`` mode makes plain in milliseconds.
  :func:`child_env` gives a child the user's default (unset: ``auto``; a
  large job still loads its kernel) unless the person running the suite
  chose a mode. Tests about the compiled path in a child keep it on
  (tests/test_compiled.py, and the other-process determinism tests of
  test_seeds, test_world, test_content, test_difficulty); so do the demo's
  runs, which warm their kernels up in the background either way.
- On a clean clone numba's disk cache is empty: every test worker (and any
  child) compiled the kernels it met first on its own, the same ones in
  parallel, 2 to 35 s of CPU each time. :func:`build_kernels` builds the
  kernels not cached yet once, before the workers start, spread over the
  cores (the gym's compiled step too, ``"gym"``, where gymnasium is
  installed); with a warm cache it starts nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

SUITE_CHOSE = "MAZEPLUGIN_SUITE_CHOSE_COMPILED"
"""Set (to ``1``) by conftest.py when it, not the person running the suite, turned the compiled path on."""

# CPU seconds to compile each kernel from an empty cache (python -m mazeplugin.compiled, 2026-12-02);
# only to spread the work evenly over the processes. Kernels not listed count one second.
COMPILE_SECONDS = {
    "rooms": 6.5, "backtracker": 6.1, "kruskal": 3.5, "hunt-and-kill": 1.7,
    "content": 1.7, "union-find": 1.6,
    "streams": 1.1, "growing-tree": 1.0, "bfs": 1.0,
    "eller": 0.8, "division": 0.8, "wilson": 0.6,
    "prim-simplified": 0.5, "prim": 0.3, "aldous-broder": 0.3,
    "grid-rows": 0.1, "routes": 4.0,
}
COMPILE_SECONDS["gym"] = 30.0  # the gym's compiled step and view (mazeplugin compile gym)
BUILD_GUARD = 1500  # seconds: a hang guard for the build, never a speed bound


def child_env(**changes: str) -> Dict[str, str]:
    """``os.environ`` with ``changes``, for a child process; the compiled path as a user gets it by default.

    When conftest.py turned the compiled path on, the child runs without ``MAZEPLUGIN_COMPILED``,
    in the default ``auto`` mode (small levels plain, large ones compiled); a mode the person
    running the suite chose is kept. ``changes`` win over both.

    >>> child_env(FOO="1")["FOO"]
    '1'
    """
    env = dict(os.environ)
    if env.pop(SUITE_CHOSE, None) == "1":
        env.pop("MAZEPLUGIN_COMPILED", None)  # unset, as a user has it: auto (a nested pytest turns it on again)
    env.update(changes)
    return env


def share_out(names: List[str], processes: int) -> List[List[str]]:
    """``names`` in ``processes`` groups of about equal compile time (longest first, each to the lightest group).

    >>> share_out(["prim", "rooms", "kruskal", "backtracker"], 2)
    [['rooms', 'prim'], ['backtracker', 'kruskal']]
    """
    groups: List[List[str]] = [[] for _ in range(max(1, processes))]
    loads = [0.0] * len(groups)
    for name in sorted(names, key=lambda n: -COMPILE_SECONDS.get(n, 1.0)):
        lightest = loads.index(min(loads))
        groups[lightest].append(name)
        loads[lightest] += COMPILE_SECONDS.get(name, 1.0)
    return [group for group in groups if group]


def gym_step_missing() -> bool:
    """Whether the gym's compiled step (``"gym"``, :mod:`mazeplugin.gym.kernels`) lacks numba's cache index
    beside it (gymnasium installed, numba caching beside the package: else it is left to the tests)."""
    import importlib.util

    if os.environ.get("NUMBA_CACHE_DIR") or importlib.util.find_spec("gymnasium") is None:
        return False
    from mazeplugin import _compiled

    folder = Path(_compiled.__file__).resolve().parents[1] / "gym" / "__pycache__"
    return not any(folder.glob("kernels._build_step.locals.step_views-*.nbi"))


def build_kernels() -> str:
    """Build the compiled kernels numba's cache lacks, in parallel processes; one line saying what was done.

    Does nothing (and imports no numba) when the compiled path is off or numba is not
    installed, or when every kernel's cache index already exists. A kernel that fails
    to build here is left to the tests, which compile it (or report it) as before.
    """
    import importlib.util

    if os.environ.get("MAZEPLUGIN_COMPILED", "").strip().lower() in ("0", "off", "false", "no"):
        return "compiled kernels: the compiled path is off"
    if importlib.util.find_spec("numba") is None:
        return "compiled kernels: numba is not installed"
    from mazeplugin import _compiled

    missing = [name for name in _compiled.KERNELS if not _compiled.cached(name)]
    if gym_step_missing():
        missing.append("gym")  # built by `mazeplugin compile gym` (it registers with mazeplugin.gym's import)
    if not missing:
        return "compiled kernels: all cached"
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    groups = share_out(missing, min(cores, 4))
    # The children build the cache of the very package this process imports (a checkout or an install).
    package_root = str(Path(_compiled.__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH")) if p))
    builds = [subprocess.Popen([sys.executable, "-m", *(("mazeplugin", "compile") if "gym" in group
                                                         else ("mazeplugin.compiled",)), *group],
                               cwd=package_root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
              for group in groups]
    failed = []
    for build in builds:
        try:
            _, err = build.communicate(timeout=BUILD_GUARD)
        except subprocess.TimeoutExpired:
            build.kill()
            _, err = build.communicate()
        if build.returncode != 0:
            failed.append(err.strip().splitlines()[-1] if err.strip() else f"exit status {build.returncode}")
    said = f"compiled kernels: built {len(missing)} not cached in {len(groups)} processes"
    return said + (f"; failed: {'; '.join(failed)}" if failed else "")
