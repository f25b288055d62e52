"""The grid kernels run as plain Python (``NUMBA_DISABLE_JIT=1``) make the plain path's levels.

Numba checks no array bounds, so a kernel that reads past an array goes
unseen compiled; run as Python, the same read raises or reads a wrong cell.
Issue 34, item 13: a uint8 cell kind times the row stride wrapped round in
Python (numba widens it), so the backtracker's grid kernel (then ``graph_backtracker``) raised ``IndexError`` on a
polar 8×10 grid and other polar levels differed. Each level here is made in
a child process twice, plain and through the kernels without the JIT, and
the passages must match.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from processes import child_env

pytest.importorskip("numba")

PROBE = """
import hashlib, json
import mazeplugin as mp
out = {}
for algorithm in ("aldous-broder", "backtracker", "growing-tree", "hunt-and-kill", "kruskal", "prim", "prim-simplified",
                  "union-find", "wilson"):
    for grid, width, height in (("polar", 8, 10), ("polar", 3, 6), ("hex", 7, 5), ("triangle", 6, 5)):
        level = mp.generate(algorithm, width, height, grid=grid, seed=5)
        out[f"{algorithm} {grid} {width}x{height}"] = hashlib.sha256(level.maze.open.tobytes()).hexdigest()
print(json.dumps(out))
"""


def _passages(**env: str) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=600,
                          env=dict(child_env(), **env))
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_grid_kernels_without_the_jit_make_the_plain_levels():
    plain = _passages(MAZEPLUGIN_COMPILED="0")
    kernels = _passages(MAZEPLUGIN_COMPILED="1", NUMBA_DISABLE_JIT="1")
    assert len(plain) == 36
    assert kernels == plain
