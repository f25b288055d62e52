"""Rules that keep the suite from flaking on a loaded machine (issue 22).

A test may bound work by counts, memory or CPU time, never by the wall clock:
the machine running it may be shared and busy. Waiting with a timeout is
allowed only as a hang guard (a line that says so), and Hypothesis runs
without deadlines or its too-slow health check in every profile.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, settings

import budget
import processes

TESTS = Path(__file__).resolve().parent
WALL_CLOCK = re.compile(r"\b(?:time\.time|perf_counter|monotonic|time_ns|datetime\.now)\s*\(")
DEADLINE = re.compile(r"\bdeadline\s*=\s*(?!None\b)[\w.(]")


def test_every_hypothesis_profile_runs_without_deadline_or_too_slow_check():
    for name in ("default", "ci"):
        profile = settings.get_profile(name)
        assert profile.deadline is None, name
        assert HealthCheck.too_slow in profile.suppress_health_check, name


def test_no_test_reads_the_wall_clock_except_as_a_hang_guard():
    offenders = []
    for path in sorted(TESTS.glob("*.py")):
        if path.name == Path(__file__).name:
            continue  # its own examples of what is not allowed
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if WALL_CLOCK.search(code) and "hang guard" not in line:
                offenders.append(f"{path.name}:{number}: {line.strip()}")
            if DEADLINE.search(code) and "time.monotonic" not in code:
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert offenders == []


def test_the_rules_catch_what_they_should():
    assert WALL_CLOCK.search("started = time.perf_counter()") and WALL_CLOCK.search("t = time.time()")
    assert not WALL_CLOCK.search("started = time.process_time()")  # CPU time is allowed
    assert DEADLINE.search("@settings(deadline=200)") and not DEADLINE.search("settings(deadline=None)")


def test_examples_are_full_in_ci_and_a_third_locally(monkeypatch):
    monkeypatch.setattr(budget, "FULL", True)
    assert [budget.examples(n) for n in (10, 60, 150, 300)] == [10, 60, 150, 300]
    monkeypatch.setattr(budget, "FULL", False)
    assert [budget.examples(n) for n in (10, 60, 150, 300)] == [10, 20, 50, 100]


def test_children_get_the_users_default_mode_unless_the_run_chose_one(monkeypatch):
    monkeypatch.setenv("MAZEPLUGIN_COMPILED", "1")
    monkeypatch.setenv(processes.SUITE_CHOSE, "1")  # conftest.py turned it on
    env = processes.child_env(EXTRA="x")
    assert "MAZEPLUGIN_COMPILED" not in env and processes.SUITE_CHOSE not in env and env["EXTRA"] == "x"
    assert processes.child_env(MAZEPLUGIN_COMPILED="0")["MAZEPLUGIN_COMPILED"] == "0"  # a test's own choice
    monkeypatch.delenv(processes.SUITE_CHOSE)  # the person running the suite chose it
    assert processes.child_env()["MAZEPLUGIN_COMPILED"] == "1"


def test_kernels_are_shared_out_once_each_and_evenly():
    from mazeplugin import _compiled

    names = list(_compiled.KERNELS)
    for count in (1, 2, 3, 4, 64):
        groups = processes.share_out(names, count)
        assert sorted(n for group in groups for n in group) == sorted(names) and len(groups) <= count
        loads = [sum(processes.COMPILE_SECONDS.get(n, 1.0) for n in group) for group in groups]
        assert max(loads) - min(loads) <= max(processes.COMPILE_SECONDS.values())
