"""Endless worlds under hostile requests (issue 23, items 6 and 8): bounded windows, a thread-safe cache.

A window touching more chunks or cells than one request may is refused before
any chunk is made (counted with ``cache_info()``, never timed); the cache is
hammered from several threads with Python's switch interval at 1 µs, where
the unguarded ``OrderedDict`` raised ``KeyError`` in ``move_to_end``.
"""

from __future__ import annotations

import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.limits import MAX_TILES, MAX_WINDOW_CELLS, MAX_WINDOW_CHUNKS
from mazeplugin.world import geometry


def test_the_issue_windows_are_refused_before_any_chunk_is_made():
    tiny = mp.World("backtracker", seed=1, chunk=(1, 1))
    made = tiny.cache_info().misses
    with pytest.raises(ValueError, match=r"1,048,576 chunks.*at most 4,096 \(mazeplugin.limits.MAX_WINDOW_CHUNKS\)"):
        tiny.tiles(0, 0, 2048, 2048)
    default = mp.World("backtracker", seed=1)
    side = int(MAX_TILES**0.5)
    with pytest.raises(ValueError, match="MAX_WINDOW_CHUNKS"):
        default.tiles(0, 0, side, side)
    assert tiny.cache_info().misses == made and default.cache_info().misses == 1


def test_big_chunks_are_bounded_by_cells():
    world = mp.World("binary-tree", seed=1, chunk=(256, 256), cache=1)
    sw, sh = world.chunk_span
    assert 64 * 256 * 256 == MAX_WINDOW_CELLS
    with pytest.raises(ValueError, match=r"4,718,592 cells in all.*MAX_WINDOW_CELLS"):
        world.tiles(0, 0, 9 * sw, 8 * sh)
    assert world.cache_info().misses == 1


def test_level_and_things_are_bounded_too():
    world = mp.World("backtracker", seed=1, chunk=(1, 1), treasure=0)
    with pytest.raises(ValueError, match="MAX_WINDOW_CHUNKS"):
        world.level(0, 0, 200, 200)
    with pytest.raises(ValueError, match="MAX_WINDOW_CHUNKS"):
        world.things(0, 0, 200, 200)
    assert world.tiles(0, 0, 128, 128).shape == (128, 128)  # 64 x 64 chunks: the most one request may touch


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 4), st.integers(1, 4),
    st.integers(-50, 50), st.integers(-50, 50), st.integers(0, 60), st.integers(0, 60),
    st.integers(1, 40), st.integers(1, 200),
)
def test_a_window_is_refused_exactly_when_it_touches_too_much(cw, ch, x0, y0, w, h, max_chunks, max_cells):
    world = mp.World("kruskal", seed=3, chunk=(cw, ch), cache=4)
    touched = len(world.chunks(x0, y0, x0 + w, y0 + h)) if w and h else 0
    too_much = touched > max_chunks or touched * cw * ch > max_cells
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(geometry, "MAX_WINDOW_CHUNKS", max_chunks)
        patch.setattr(geometry, "MAX_WINDOW_CELLS", max_cells)
        made = world.cache_info().misses
        if too_much:
            with pytest.raises(ValueError, match="MAX_WINDOW_C"):
                world.tiles(x0, y0, x0 + w, y0 + h)
            assert world.cache_info().misses == made
        else:
            assert world.tiles(x0, y0, x0 + w, y0 + h).shape == (h, w)


@pytest.mark.parametrize("with_things", [False, True])
@pytest.mark.parametrize("cache", [1, 3, 256])
def test_concurrent_requests_get_the_same_tiles_and_every_lookup_is_counted(cache, with_things):
    world = mp.World("backtracker", seed=5, chunk=(2, 2), cache=cache, treasure=1)
    windows = [(4 * k - 2, 0, 4 * k + 2, 4) for k in range(8)]  # each touches two chunks
    expected = {w: mp.World("backtracker", seed=5, chunk=(2, 2), treasure=1).tiles(*w).tobytes() for w in windows}
    things = {w: mp.World("backtracker", seed=5, chunk=(2, 2), treasure=1).things(*w) for w in windows}
    before = world.cache_info()
    calls, threads = (400 if with_things else 3000), 6
    problems = []

    def work(k: int) -> None:
        for n in range(calls):
            w = windows[(n + k) % len(windows)]
            try:
                if world.tiles(*w).tobytes() != expected[w]:
                    problems.append(f"wrong tiles for {w}")
                if with_things and n % 5 == 0 and world.things(*w) != things[w]:
                    problems.append(f"wrong things for {w}")
            except Exception as error:  # the race raised KeyError in move_to_end
                problems.append(repr(error))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        pool = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert problems == []
    after = world.cache_info()
    # Every look-up counted once (the unguarded counters could lose increments), and no more chunks kept than allowed.
    if not with_things:  # placing things looks chunks up too
        assert (after.hits + after.misses) - (before.hits + before.misses) == 2 * calls * threads
    assert after.size <= cache


def test_a_chunk_is_one_array_object_while_cached_even_when_threads_race():
    world = mp.World("backtracker", seed=9, chunk=(8, 8), cache=64)
    world.cache_clear()
    seen = []
    barrier = threading.Barrier(4)

    def grab() -> None:
        barrier.wait()
        seen.append(world.chunk_tiles((3, 3)))

    pool = [threading.Thread(target=grab) for _ in range(4)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    assert all(block is world.chunk_tiles((3, 3)) for block in seen)
