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
