"""A fork during a background load waits for the loader, not for FORK_WAIT (the fork handlers' order).

``os.fork`` runs the ``before`` handlers in reverse order of registration.
``_compiled`` once registered its handlers when it was imported, before
``logging`` was (numba imports it inside the loader): at a fork, logging's
handler took logging's lock first, then ours waited for the loader, which,
importing numba, waited for logging's lock. So every fork during a load
stalled for ``FORK_WAIT`` (60 s) and its child ran plain: a 600-level
``mazeplugin batch -j 2`` took 2 min instead of 1.2 s. The handlers are now
registered when the first load starts, after logging's (``_watch_forks``).

The test runs a fresh process (in a process that has imported logging first,
as pytest has, the order is right either way): a builder queued on the
background loader asks for a logger, as numba's import does, while a fork
pool starts. Each pool worker reports whether its fork's wait ran out (then
``forked_mid_load()`` is true); a stall is counted, not timed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from processes import child_env

pytest.importorskip("numba")

CHILD = textwrap.dedent("""
    import json, os, sys, threading, time
    import mazeplugin  # never logging before mazeplugin: the order under test
    from mazeplugin import _compiled

    assert "logging" not in sys.modules, "the test needs a process that has not imported logging yet"
    _compiled.FORK_WAIT = 10.0  # a stall runs out after 10 s and shows in the child; a wait is 0.2 s
    started, forking = threading.Event(), threading.Event()

    def probe():  # a load like numba's import: imports logging, then needs its lock while a fork starts
        import logging
        started.set()
        forking.wait(30)
        time.sleep(0.2)
        logging.getLogger("mazeplugin.test.probe")

    _compiled.BUILDERS["fork-order-probe"] = probe
    thread = _compiled.start_background(["fork-order-probe"])
    assert thread is not None
    started.wait(30)
    import multiprocessing

    forking.set()
    with multiprocessing.get_context("fork").Pool(2) as pool:  # each worker is a fork during the load
        answers = pool.starmap(_compiled.forked_mid_load, [()] * 8)
    thread.join(60)
    print(json.dumps({"stalled": sum(map(bool, answers)), "answers": len(answers),
                      "built": "fork-order-probe" in _compiled._STATE.built}))
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_pool_forked_during_a_load_waits_for_the_loader_not_for_fork_wait():
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=300,
                          env=child_env(MAZEPLUGIN_COMPILED="1"))
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    # Before (handlers registered at import): the first worker's fork waited FORK_WAIT for a loader
    # stuck on logging's lock, and both workers ran plain ("stalled": 8 of 8 answers).
    assert got == {"stalled": 0, "answers": 8, "built": True}
