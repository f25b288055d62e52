"""Eller's rows streamed one at a time: endless, O(width) memory, equal to generate()."""

from __future__ import annotations

import itertools
import tracemalloc

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mazeplugin as mp
from mazecheck import assert_perfect


@given(width=st.integers(1, 40), height=st.integers(1, 40), seed=st.integers(0, 2**32))
def test_stacked_rows_equal_generate(width, height, seed):
    rows = list(mp.stream("eller", width=width, height=height, seed=seed))
    assert all(r.dtype == np.uint8 and r.shape == (2 * width + 1,) for r in rows)
    level = mp.generate("eller", width=width, height=height, seed=seed, markers="none")
    assert (np.vstack(rows) == level.tiles).all()


def test_endless_stream_prefix_matches_finite_maze_but_the_closed_last_row():
    endless = list(itertools.islice(mp.stream("eller", width=64, seed=7), 2 * 30 + 1))
    finite = mp.generate("eller", 64, 31, seed=7, markers="none").tiles
    assert (np.vstack(endless) == finite[: 2 * 30 + 1]).all()


def test_stream_accepts_str_seed_and_is_repeatable():
    a = list(itertools.islice(mp.stream("eller", 10, seed="endless"), 50))
    b = list(itertools.islice(mp.stream("eller", 10, seed="endless"), 50))
    assert all((x == y).all() for x, y in zip(a, b))


def test_every_streamed_window_is_connected_upward():
    # Each cell row of an endless maze is joined to the rows above: closing the
    # stream at any height gives a perfect maze, which generate() checks.
    level = mp.generate("eller", 30, 40, seed=11, markers="border")
    assert_perfect(level)


def _peak_bytes(rows: int) -> int:
    tracemalloc.start()
    for _ in itertools.islice(mp.stream("eller", width=64, seed=3), rows):
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def test_stream_memory_does_not_grow_with_rows():
    small, large = _peak_bytes(500), _peak_bytes(20000)
    assert large < small * 1.5 + 64 * 1024, (small, large)


def test_only_row_generators_stream():
    with pytest.raises(ValueError, match="cannot stream.*eller"):
        mp.stream("kruskal", width=10)


@pytest.mark.parametrize("kwargs,error", [({"width": 0}, ValueError), ({"width": "8"}, TypeError),
                                          ({"width": 8, "height": 0}, ValueError),
                                          ({"width": 8, "seed": 1.5}, TypeError)])
def test_stream_checks_arguments(kwargs, error):
    with pytest.raises(error):
        mp.stream("eller", **kwargs)
