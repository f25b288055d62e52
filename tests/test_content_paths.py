"""Content placement's fast paths give exactly what the plain ones give.

- the floor graph built by the ``content`` kernel (``mazeplugin/_compiled/content.py``)
  holds the very arrays of the plain numpy passes, and levels furnished on
  either path have the same things;
- ``plan_locks`` over lists and bisection picks what the numpy searches picked
  (the first nearest door, the first best key), ties included;
- things placement makes with ``Thing.made`` (not re-checked) equal, field for
  field and type for type, what ``Thing(...)`` makes of the same values.
"""

from __future__ import annotations

from typing import List, Tuple

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples

import mazeplugin as mp
from mazeplugin.content import Thing, furnish
from mazeplugin.content.graph import FloorGraph
from mazeplugin.content.locks import plan_locks

ALGORITHMS = ["backtracker", "kruskal", "prim", "wilson", "growing-tree", "division", "eller"]
EXTRAS = [{}, {"braid": 0.3}, {"braid": 1.0}, {"corridor": 2}, {"wall": 2, "braid": 0.5},
          {"rooms": 2}, {"markers": "farthest"}]


def _level(algorithm, width, height, seed, extra):
    try:
        return mp.generate(algorithm, width, height, seed=seed, **extra)
    except ValueError:  # options this size cannot take (rooms that do not fit)
        return None


def _graph(level, monkeypatch, mode):
    monkeypatch.setenv("MAZEPLUGIN_COMPILED", mode)
    layout = level.layout
    return FloorGraph(level.base_tiles, layout.base_of(level.entrance), layout.base_of(level.exit))


ARRAYS = ("floor", "degree", "dist_entrance", "parent", "route", "path_index", "dist_path", "touch_high")


@settings(max_examples=examples(120), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(ALGORITHMS), st.integers(2, 16), st.integers(2, 12), st.integers(0, 2**32),
       st.sampled_from(EXTRAS))
def test_the_compiled_floor_graph_holds_the_plain_arrays(monkeypatch, algorithm, width, height, seed, extra):
    pytest.importorskip("numba")
    level = _level(algorithm, width, height, seed, extra)
    if level is None:
        return
    plain = _graph(level, monkeypatch, "0")
    fast = _graph(level, monkeypatch, "1")
    for name in ARRAYS:
        a, b = getattr(plain, name), getattr(fast, name)
        assert a.dtype == b.dtype, name
        assert np.array_equal(a, b), name
    assert fast.path == plain.path
    assert fast.separators().tolist() == plain.separators().tolist()
    assert fast.parents() == plain.parents()


def test_loops_make_spans_and_both_paths_agree_on_them(monkeypatch):
    pytest.importorskip("numba")
    # A braided level has loops beside the route: spans that remove separators.
    level = mp.generate("kruskal", 12, 9, seed=3, braid=0.6)
    plain, fast = _graph(level, monkeypatch, "0"), _graph(level, monkeypatch, "1")
    assert plain.separators().size < len(plain.path) - 2
    assert fast.separators().tolist() == plain.separators().tolist()


@pytest.mark.parametrize("extra", [{"wall": 2, "braid": 1.0}, {"corridor": 2, "braid": 0.5}, {"braid": 0.8}])
def test_both_graphs_agree_on_many_braided_levels(monkeypatch, extra):
    # Loop edges whose route end is the lower tile number reach past a part's
    # own branches only now and then (thick walls, full braid): a sweep, not a sample.
    pytest.importorskip("numba")
    for seed in range(120):
        level = mp.generate("kruskal", 3 + seed % 17, 2 + (seed * 7) % 13, seed=seed, **extra)
        plain, fast = _graph(level, monkeypatch, "0"), _graph(level, monkeypatch, "1")
        assert np.array_equal(plain.touch_high, fast.touch_high), seed
        assert np.array_equal(plain.dist_path, fast.dist_path), seed
        assert fast.separators().tolist() == plain.separators().tolist(), seed
        for keys in (1, 3):
            content = {"keys": keys, "treasure": 2, "enemies": 1}
            assert _things(level, monkeypatch, "1", **content) == _things(level, monkeypatch, "0", **content), seed


def _things(level, monkeypatch, mode, **content):
    monkeypatch.setenv("MAZEPLUGIN_COMPILED", mode)
    try:
        return furnish(level, **content).things
    except ValueError as error:
        return str(error)


@settings(max_examples=examples(90), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(ALGORITHMS), st.integers(3, 16), st.integers(3, 12), st.integers(0, 2**32),
       st.sampled_from(EXTRAS), st.integers(0, 3), st.integers(0, 4), st.integers(0, 3))
def test_both_paths_place_the_same_things(monkeypatch, algorithm, width, height, seed, extra, keys, treasure, enemies):
    pytest.importorskip("numba")
    level = _level(algorithm, width, height, seed, extra)
    if level is None:
        return
    content = {"keys": keys, "treasure": treasure, "enemies": enemies}
    assert _things(level, monkeypatch, "1", **content) == _things(level, monkeypatch, "0", **content)


@settings(max_examples=examples(90), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ALGORITHMS), st.integers(3, 16), st.integers(3, 12), st.integers(0, 2**32),
       st.sampled_from(EXTRAS))
def test_things_placement_makes_are_what_a_checked_thing_holds(algorithm, width, height, seed, extra):
    level = _level(algorithm, width, height, seed, extra)
    if level is None:
        return
    try:
        level = furnish(level, keys=1, treasure=2, enemies=1)
    except ValueError:
        return
    for thing in level.things:
        checked = Thing(thing.kind, thing.x, thing.y, thing.id, thing.props)
        assert thing == checked
        for name in ("kind", "x", "y", "id"):
            assert type(getattr(thing, name)) is type(getattr(checked, name)), name
        assert type(thing.props) is dict
        for key, value in thing.props.items():
            assert value == checked.props[key] and type(value) is type(checked.props[key]), key
            if isinstance(value, tuple):  # tiles: tuples of int pairs, as Thing(...) makes them
                assert all(type(p) is tuple and all(type(v) is int for v in p) for p in value), key


def _numpy_plan(keys: int, length: int, door_at, highs, order, score) -> List[Tuple[int, int]]:
    """The numpy searches plan_locks made before it took lists (the reference; capacity fits)."""

    def earliest(previous):
        n = int(np.searchsorted(highs, previous, side="right"))
        if n == len(highs):
            return -1
        m = int(np.searchsorted(door_at, highs[n], side="right"))
        return int(door_at[m]) if m < len(door_at) else -1

    def capacity(previous, limit):
        count = 0
        while count < limit:
            previous = earliest(previous)
            if previous < 0:
                break
            count += 1
        return count

    plan, previous = [], -1
    for i in range(1, keys + 1):
        low = earliest(previous)
        lo_n, hi_n = int(np.searchsorted(door_at, low)), len(door_at) - 1
        while lo_n < hi_n:
            mid = (lo_n + hi_n + 1) // 2
            if capacity(int(door_at[mid]), keys - i) == keys - i:
                lo_n = mid
            else:
                hi_n = mid - 1
        window = door_at[int(np.searchsorted(door_at, low)):lo_n + 1]
        door = int(window[int(np.argmin(np.abs(window - i * (length - 1) / (keys + 1))))])
        a = int(np.searchsorted(highs, previous, side="right"))
        b = int(np.searchsorted(highs, door, side="left"))
        plan.append((door, int(order[a + int(np.argmax(score[a:b]))])))
        previous = door
    return plan


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(3, 60).flatmap(lambda length: st.tuples(
    st.just(length),
    st.sets(st.integers(1, length - 2), min_size=1),
    st.lists(st.integers(0, length - 1), min_size=1, max_size=40),
    st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.25, 1e9]), min_size=40, max_size=40),  # many ties
    st.integers(1, 5),
)))
def test_plan_locks_picks_what_the_numpy_searches_picked(case):
    length, doors, touches, scores, keys = case
    door_at = np.array(sorted(doors), dtype=np.int64)
    highs = np.array(sorted(touches), dtype=np.int64)
    order = np.arange(100, 100 + highs.size, dtype=np.int64)
    score = np.array(scores[:highs.size], dtype=np.float64)
    try:
        plan = plan_locks(keys, length, door_at, highs, order, score)
    except ValueError:
        return  # the count that fits is checked in test_content
    assert plan == _numpy_plan(keys, length, door_at, highs, order, score)
    assert all(type(door) is int and type(key) is int for door, key in plan)
