"""A require= search is bounded by the cells it makes, counted before the first candidate, and a candidate that
cannot hold the content is a miss, not the search's error (issue 34, items 7 and 8; mazeplugin/difficulty.py)."""

from __future__ import annotations

import pytest

import mazeplugin as mp
from mazeplugin.limits import MAX_REQUIRE_CELLS


def test_a_search_over_the_cell_bound_is_refused_before_the_first_candidate(monkeypatch):
    from mazeplugin import difficulty

    made = []
    monkeypatch.setattr(difficulty, "candidate_seeds", lambda seed: iter(made.append(seed) or ()))
    with pytest.raises(ValueError, match=r"attempts=10,000 candidates of 10,000 cells would make 100,000,000 cells; "
                                         r"at most 16,777,216 .* at most 1,677 attempts at this size"):
        mp.generate("backtracker", 100, 100, seed=1, require={"dead_ends": (0, 0)}, attempts=10_000)
    with pytest.raises(ValueError, match="at most 1,677 attempts"):
        mp.generate("backtracker", 100, 100, grid="hex", seed=1, require={"dead_ends": (0, 0)}, attempts=2_000)
    assert made == []


def test_without_attempts_a_large_search_tries_what_fits(monkeypatch):
    from mazeplugin import difficulty

    tried = []
    real = difficulty.choose
    monkeypatch.setattr(difficulty, "choose", lambda make, seed, require, attempts, **kw: tried.append(attempts)
                        or real(make, seed, require, 1, **kw))
    mp.generate("kruskal", 600, 600, seed=1, require={"cells": (1, None)})
    mp.generate("kruskal", 10, 10, seed=1, require={"cells": (1, None)})
    assert tried == [MAX_REQUIRE_CELLS // 360_000, 200]


def test_a_candidate_that_cannot_hold_the_keys_is_a_miss_and_the_error_is_about_require():
    # backtracker 20x20 seed 1: two of the 200 candidates hold only 2 locks; none has 0 dead ends.
    with pytest.raises(ValueError) as caught:
        mp.generate("backtracker", 20, 20, seed=1, keys=3, require={"dead_ends": (0, 0)})
    message = str(caught.value)
    assert message.startswith("no candidate among 200 met require={'dead_ends': (0, 0)}; closest: seed ")
    assert "2 of the candidates could not be made with these options (the first: keys=3 does not fit" in message
    with pytest.raises(ValueError, match=r"none of them could be made with these options \(the first: keys=40 does "
                                         r"not fit"):
        mp.generate("backtracker", 20, 20, seed=1, keys=40, require={"dead_ends": (0, 0)}, attempts=5)
    # A candidate that fits is found past those that do not; an argument error is still raised at once.
    level = mp.generate("backtracker", 20, 20, seed=1, keys=3, require={"dead_ends": (None, 100)})
    assert len([t for t in level.things if t.kind == "key"]) == 3
    with pytest.raises(ValueError, match="corridor"):
        mp.generate("backtracker", 20, 20, seed=1, corridor=0, require={"dead_ends": (None, 100)})
