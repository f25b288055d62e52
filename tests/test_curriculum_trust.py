"""Seed splits are checked by arithmetic, never by listing their seeds; the levels a split makes are bounded
before the first; a Curriculum says where it stands (issue 34, items 7 and 15; mazeplugin/gym/curriculum.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

pytest.importorskip("gymnasium")

import mazeplugin.gym as mg
from mazeplugin.gym.curriculum import _meet
from mazeplugin.limits import MAX_SPLIT_LEVELS

from budget import examples
from processes import child_env

ranges = st.builds(lambda start, length, step, down: (range(start + (length - 1) * step, start - 1, -step) if down
                                                      else range(start, start + length * step, step)),
                   st.integers(0, 60), st.integers(1, 40), st.integers(1, 9), st.booleans())


@settings(max_examples=examples(600))
@given(ranges, ranges)
def test_a_split_is_refused_exactly_when_its_ranges_share_a_seed(train, test):
    shared = bool(set(train) & set(test))
    assert _meet(train if train.step > 0 else train[::-1], test if test.step > 0 else test[::-1]) == shared
    if shared:
        with pytest.raises(ValueError, match="overlap: a split needs disjoint seed ranges"):
            mg.SeedSplit(train=train, test=test)
    else:
        mg.SeedSplit(train=train, test=test)


_HUGE = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # a gigabyte: listing the seeds needs far more
import mazeplugin.gym as mg
mg.SeedSplit(train=range(0, 10**9), test=range(10**9, 2 * 10**9))
mg.SeedSplit(train=range(0, 2 * 10**8, 2), test=range(1, 2 * 10**8, 2))  # interleaved
mg.SeedSplit(train=range(0, 2**64, 2), test=range(1, 2**64, 2))
try:
    mg.SeedSplit(train=range(0, 2**70), test=range(2**70, 2**71))
except ValueError as error:
    print(error)
print(resource.getrusage(resource.RUSAGE_SELF).ru_utime)
"""


def test_huge_splits_are_checked_in_constant_time_and_memory():
    done = subprocess.run([sys.executable, "-c", _HUGE], capture_output=True, text=True, timeout=600,
                          env=child_env())
    assert done.returncode == 0, done.stderr[-2000:]
    refusal, cpu = done.stdout.splitlines()
    assert refusal == "train: level seeds are whole numbers from 0 to 2**64 - 1, got range(0, 1180591620717411303424)"
    assert float(cpu) < 30  # listing 10**9 seeds took 18 s of CPU; arithmetic takes none (a wide margin)


def test_a_split_making_too_many_levels_is_refused_before_the_first():
    made = []

    class Counting(mg.LevelSpec):
        def make(self, seed):
            made.append(seed)
            return super().make(seed)

    spec = Counting("kruskal", 3, 3)
    split = mg.SeedSplit(train=range(0, MAX_SPLIT_LEVELS), test=range(MAX_SPLIT_LEVELS, MAX_SPLIT_LEVELS + 1))
    with pytest.raises(ValueError, match="train and test hold 1,000,001 seeds: at most 1,000,000 levels"):
        split.test_seeds(spec)
    with pytest.raises(ValueError, match="seeds hold 1,000,001 seeds"):
        mg.duplicate_rate(spec, range(MAX_SPLIT_LEVELS + 1))
    assert made == []  # refused before any level was made
    assert 0 <= mg.duplicate_rate(spec, iter(range(5))) < 1 and made == [0, 1, 2, 3, 4]


def test_a_curriculum_says_its_stage_and_rate():
    curriculum = mg.Curriculum.by_difficulty(sizes=(4, 6), keys=(0, 1), window=4)
    assert repr(curriculum) == ("<Curriculum stage 0 of 4 {'width': 4, 'height': 4, 'keys': 0}: no episode yet "
                                "(promote_at=0.8, demote_at=None, window=4)>")
    curriculum.record(True)
    curriculum.record(False)
    assert "success rate 0.50 over 2" in repr(curriculum)
    assert repr(mg.SeedSplit(range(3), range(5, 9))) == "SeedSplit(train=range(0, 3), test=range(5, 9))"
