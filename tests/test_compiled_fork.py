"""A process forked or spawned at any moment has the compiled kernels whole or runs the plain path.

Each test runs in fresh Python processes, so the suite's own process (its kernels
loaded, its threads) is neither used nor changed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("numba")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FORK_AT_RANDOM = r'''
import hashlib, json, os, random, sys, time
import mazeplugin as mp
from mazeplugin import _compiled, compiled

NAMES = ["kruskal", "wilson", "prim", "bfs", "content", "streams"]
LEVELS = [("kruskal", {}), ("wilson", {}), ("prim", {"markers": "farthest"}), ("kruskal", {"keys": 1})]

def digests():
    return [hashlib.sha1(mp.generate(name, 20, 15, seed=3, **kw).tiles.tobytes()).hexdigest() for name, kw in LEVELS]

os.environ["MAZEPLUGIN_COMPILED"] = "0"
expected = digests()  # the plain path's bytes, before any kernel loads
os.environ["MAZEPLUGIN_COMPILED"] = "auto"

def child(warm):
    alive = False
    if warm:  # as a gym env's first reset does: load the kernels in this process too, and wait for them
        thread = compiled.warm_up(NAMES, background=True)
        if thread is not None:
            thread.join(400)  # loading from numba's cache can take minutes on a loaded 2-core machine
            alive = thread.is_alive()
    # Whole: no kernel module half imported; every kernel the loader holds is that module, whole.
    state = _compiled._STATE
    half = [n for n, m in sys.modules.items()
            if n.startswith("mazeplugin._compiled.") and getattr(m.__spec__, "_initializing", False)]
    whole = all(sys.modules.get(m.__name__) is m and not getattr(m.__spec__, "_initializing", False)
                for m in state.loaded.values())
    kept = whole and (not half or _compiled.forked_mid_load())
    same = digests() == expected  # compiled where loaded, plain elsewhere: the same bytes
    # bit 0: failed; bits 1-3 say why (half-loaded kernels, other bytes, warm-up still running); then the count
    return (0 if kept and same else 1) | (0 if kept else 2) | (0 if same else 4) | (8 if alive else 0) | (len(state.loaded) << 4)

rng = random.Random(int(sys.argv[1]))
_compiled.start_background(NAMES)
children = []
while len(children) < int(sys.argv[2]):
    time.sleep(rng.random() * 0.01)
    loader = _compiled._STATE.thread
    busy = loader is not None and loader.is_alive()
    warm = rng.random() < 0.25
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            import signal
            signal.alarm(500)  # a hang guard: a child that waits on a lost thread is killed
            code = child(warm)
        finally:
            os._exit(code)
    children.append((pid, busy))
    if not busy and len(children) >= 8:
        break
results = []
for pid, busy in children:
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    results.append({"busy": busy, "ok": code >= 0 and code & 1 == 0, "half_loaded": code >= 0 and bool(code & 2),
                    "other_bytes": code >= 0 and bool(code & 4), "warm_up_running": code >= 0 and bool(code & 8),
                    "had": code >> 4 if code >= 0 else code})
print(json.dumps({"results": results, "mid": _compiled.forked_mid_load(), "loaded": len(_compiled._STATE.loaded)}))
'''


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_processes_forked_at_random_moments_of_loading_have_whole_kernels_or_run_plain():
    env = {k: v for k, v in os.environ.items() if k != "MAZEPLUGIN_COMPILED"}
    env["PYTHONPATH"] = ROOT
    done = subprocess.run([sys.executable, "-c", FORK_AT_RANDOM, "7", "40"], env=env, capture_output=True,
                          text=True, timeout=600)  # a hang guard, not a speed bound
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    results = report["results"]
    assert [r for r in results if not r["ok"]] == []  # every child: whole kernels or plain, the same bytes
    forked_while_loading = [r for r in results if r["busy"]]
    assert forked_while_loading, "no fork happened while the loader ran: the test tested nothing"
    assert not report["mid"] and report["loaded"] == 6  # the parent loaded them all


ASYNC = r"""
import gymnasium, numpy as np, mazeplugin.gym
envs = gymnasium.make_vec("mazeplugin/Maze-v0", num_envs=2, vectorization_mode="async", width=5, height=5,
                          vector_kwargs={"context": CONTEXT})
obs, info = envs.reset(seed=1)
for _ in range(20):
    obs, *_ = envs.step(np.array([2, 1]))
envs.close()
print(obs["image"].shape, int(obs["image"].sum()))
"""


@pytest.mark.parametrize("context", ["fork", "fork", "forkserver"])
def test_an_async_vector_env_runs_in_a_fresh_process(context):
    # gymnasium builds an env in the parent (its first level starts the kernels loading) and then starts
    # its workers: forked ones crashed on a half-imported kernel module 9 runs in 10.
    import multiprocessing

    if context not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {context} start method here")
    code = ASYNC.replace("CONTEXT", repr(context))
    env = {k: v for k, v in os.environ.items() if k != "MAZEPLUGIN_COMPILED"}
    env["PYTHONPATH"] = ROOT
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("(2, 7, 7, 3) ")
