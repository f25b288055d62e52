"""Shared fixtures and the structural checks every generator must pass."""

from __future__ import annotations

import os
import sys

# Tests that open a window or mixer use SDL's dummy drivers.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

sys.path.insert(0, os.path.dirname(__file__))

# With numba installed (the `test` extra has it), the whole suite runs the
# compiled path, every level size included; tests/test_compiled.py runs the
# golden digests once more on the plain path and compares the two. Without
# numba (the .ci/pygame26.sh venv) everything runs plain.
if "MAZEPLUGIN_COMPILED" not in os.environ:
    import importlib.util

    if importlib.util.find_spec("numba") is not None:
        os.environ["MAZEPLUGIN_COMPILED"] = "1"
        # Child processes get the user's default mode instead (tests/processes.py, child_env).
        os.environ["MAZEPLUGIN_SUITE_CHOSE_COMPILED"] = "1"
elif os.environ["MAZEPLUGIN_COMPILED"] != "1":  # a mode chosen for this run (a test's own nested run): kept
    os.environ.pop("MAZEPLUGIN_SUITE_CHOSE_COMPILED", None)

from hypothesis import HealthCheck, settings  # noqa: E402

# No deadlines and no too-slow health check in any profile: the machine may be
# shared and loaded, and a property is about results, never about speed. How
# many examples a test tries is a count (tests/budget.py scales explicit ones).
settings.register_profile(
    "default", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", parent=settings.get_profile("default"), deadline=None, max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


_KERNELS_BUILT = ""


def pytest_configure(config):
    # Once, in the process that starts the run (not in each xdist worker, which starts after this):
    # the kernels numba's cache lacks are built ahead, over the cores (tests/processes.py).
    global _KERNELS_BUILT
    if not hasattr(config, "workerinput") and not config.option.collectonly:
        import processes

        _KERNELS_BUILT = processes.build_kernels()


def pytest_report_header(config):
    return [_KERNELS_BUILT] if _KERNELS_BUILT else []
