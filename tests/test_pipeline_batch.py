"""The batched lane (mazeplugin.pipeline_batch) and its streams (seeds.keyed_words) make what generate makes."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import mazeplugin as mp
import mazeplugin.dataset as ds
from budget import examples
from mazeplugin import _compiled, pipeline_batch
from mazeplugin.codes import level_code
from mazeplugin.dataset import shards
from mazeplugin.dataset.digest import digest_bytes, tiles_digest
from mazeplugin.pipeline import Build
from mazeplugin.pipeline_batch import make_batch, why_not
from mazeplugin.seeds import MAX_SEED, Random, keyed_words


def compiled_or_skip() -> None:
    from mazeplugin.compiled import available

    if not available():
        pytest.skip("the compiled path is off or numba is not installed")


seeds_strategy = st.one_of(st.integers(0, MAX_SEED), st.integers(0, 2**64), st.text(max_size=20))


@settings(max_examples=examples(150))
@given(seeds=st.lists(seeds_strategy, min_size=1, max_size=12), key=st.integers(0, 2**32 - 1),
       count=st.integers(0, 40))
def test_keyed_words_are_numpys_seedsequence_and_pcg64_words(seeds, key, count):
    seeds = [mp.seeds.resolve_seed(s) for s in seeds]
    expected = np.array([Random.keyed(s, (key,)).raw(count) for s in seeds], dtype=np.uint64).reshape(len(seeds), count)
    assert np.array_equal(keyed_words(seeds, key, count), expected)


def test_keyed_words_on_many_seeds_and_every_stream_number():
    seeds = list(range(3000)) + [2**32 - 1, 2**32, 2**64 - 1, 2**64, 2**96 + 7, MAX_SEED, "castle", "", "0x"]
    for key in (0, 1, 2, 3, 4, 5, 6, 2**31, 2**32 - 1):
        expected = np.array([Random.keyed(s, (key,)).raw(5) for s in seeds])
        assert np.array_equal(keyed_words(seeds, key, 5), expected), key


def test_keyed_words_without_the_compiled_path_are_the_same(monkeypatch):
    seeds = [0, 9, 2**70, "castle"]
    fast = keyed_words(seeds, 3, 6)
    monkeypatch.setattr(_compiled, "kernel", lambda name, work=0: None)
    assert np.array_equal(keyed_words(seeds, 3, 6), fast)


def test_keyed_words_refuses_a_bad_key_or_count():
    with pytest.raises(ValueError, match="key must be an int in"):
        keyed_words([1], 2**32, 3)
    with pytest.raises(ValueError, match="count must be at least 0"):
        keyed_words([1], 0, -1)


def same_as_generate(batch: pipeline_batch.LevelBatch, width: int, height: int, kwargs: dict) -> None:
    codes = batch.codes()
    for i, seed in enumerate(batch.seeds):
        level = mp.generate(batch.algorithm, width, height, seed=seed, **kwargs)
        assert batch.tiles[i].tobytes() == level.tiles.tobytes(), seed
        assert np.array_equal(batch.east[i], level.maze.east) and np.array_equal(batch.south[i], level.maze.south)
        assert (batch.entrance, batch.exit) == (level.entrance, level.exit)
        made = batch.level(i)
        assert made.tiles.tobytes() == level.tiles.tobytes()
        assert (made.options, made.seed, made.algorithm) == (level.options, level.seed, level.algorithm)
        try:
            code = level_code(level)
        except ValueError:
            code = ""
        assert codes[i] == code
        assert tiles_digest(batch.tiles[i], batch.entrance, batch.exit) == digest_bytes(level)


@settings(max_examples=examples(120))
@given(algorithm=st.sampled_from(pipeline_batch.BATCH_GENERATORS), width=st.integers(1, 14),
       height=st.integers(1, 14), corridor=st.integers(1, 3), wall=st.integers(1, 2),
       markers=st.sampled_from(["border", "none", "tiles"]),
       seeds=st.lists(seeds_strategy, min_size=1, max_size=6))
# A first seed no code can hold ("") left every later seed without its code (found by this test, at random).
@example(algorithm="backtracker", width=1, height=1, corridor=1, wall=1, markers="border", seeds=["", 0])
def test_a_batch_is_what_generate_makes_seed_by_seed(algorithm, width, height, corridor, wall, markers, seeds):
    compiled_or_skip()
    kwargs: dict = {"corridor": corridor, "wall": wall}
    if markers == "tiles":
        layout = mp.tiles.Layout(width, height, corridor=corridor, wall=wall)
        kwargs["markers"] = (layout.tile_of((1, 1)), layout.tile_of((2 * width - 1, 2 * height - 1)))
        if kwargs["markers"][0] == kwargs["markers"][1]:
            kwargs["markers"] = "none"
    else:
        kwargs["markers"] = markers
    build = Build.checked(algorithm, width, height, seed=0, **kwargs)
    assert why_not(build) is None
    same_as_generate(make_batch(build, seeds), width, height, kwargs)


@pytest.mark.parametrize("algorithm", pipeline_batch.BATCH_GENERATORS)
def test_a_batch_of_many_seeds_is_what_generate_makes(algorithm):
    compiled_or_skip()
    for width, height, count in ((9, 9, 400), (32, 32, 60), (1, 1, 5), (17, 2, 50)):
        build = Build.checked(algorithm, width, height, seed=0)
        same_as_generate(make_batch(build, list(range(1000, 1000 + count))), width, height, {})


@pytest.mark.parametrize("algorithm, kwargs, reason", [
    ("wilson", {}, "has no batch kernel"),
    ("backtracker", {"markers": "random"}, "markers='random'"),
    ("backtracker", {"markers": "farthest"}, "markers='farthest'"),
    ("backtracker", {"mask": np.arange(16).reshape(4, 4) != 3}, "mask"),
    ("backtracker", {"braid": 0.5}, "braid"),
    ("backtracker", {"weave": True}, "weave"),
    ("backtracker", {"treasure": 1}, "content"),
    ("backtracker", {"rooms": 1}, "has no batch kernel|rooms|mask"),
    ("growing-tree", {"strategy": "oldest"}, "has no batch kernel"),
    ("backtracker", {"grid": "hex"}, "grid='hex'"),
    ("kruskal", {"wrap": "xy"}, "wrap='xy'"),
])
def test_requests_the_lane_does_not_take_are_refused_with_the_reason(algorithm, kwargs, reason):
    try:
        build = Build.checked(algorithm, 4, 4, seed=0, **kwargs)
    except ValueError:
        pytest.skip(f"{algorithm} {kwargs} is not a request generate takes")
    said = why_not(build)
    assert said is not None
    assert re.search(reason, said)
    with pytest.raises(ValueError, match="cannot make this request in a batch"):
        make_batch(build, [1, 2])


def test_a_batch_needs_a_seed():
    compiled_or_skip()
    with pytest.raises(ValueError, match="seeds must hold at least one seed"):
        make_batch(Build.checked("backtracker", 3, 3, seed=0), [])


SPEC = {"levels": [
    {"generator": "backtracker", "width": 9, "height": 9, "count": 60, "first_seed": 5, "shard_size": 25},
    {"generator": "kruskal", "width": 8, "height": 6, "count": 30, "shard_size": 16},
    {"generator": "hunt-and-kill", "width": 6, "height": 9, "count": 30, "shard_size": 30, "markers": "none"},
    {"generator": "backtracker", "width": 7, "height": 3, "count": 20, "shard_size": 20, "corridor": 2, "wall": 3},
    {"generator": "backtracker", "width": 5, "height": 5, "count": 20, "shard_size": 7, "markers": "none",
     "stats": False},
    {"generator": "backtracker", "width": 6, "height": 4, "count": 10, "shard_size": 10, "first_seed": 2**63},
]}


@pytest.mark.parametrize("unique", [False, True])
def test_shards_of_the_batched_lane_are_the_bytes_of_the_level_by_level_lane(tmp_path, monkeypatch, unique):
    compiled_or_skip()
    spec = dict(SPEC, levels=[dict(e, count=40, shard_size=40, width=4, height=3) for e in SPEC["levels"][:1]]
                + SPEC["levels"][1:]) if unique else SPEC
    batched = ds.build(spec, tmp_path / "batched", workers=1, unique=unique)
    used = []
    real = pipeline_batch.make_batch
    monkeypatch.setattr(pipeline_batch, "make_batch", lambda build, seeds: used.append(len(seeds)) or real(build, seeds))
    ds.build(spec, tmp_path / "again", workers=1, unique=unique)
    assert used, "the batched lane was not used"
    monkeypatch.setattr(shards.LevelMaker, "batch", lambda self, seeds: None)
    plain = ds.build(spec, tmp_path / "plain", workers=1, unique=unique)
    assert [(s["file"], s["sha256"]) for s in batched["shards"]] == [(s["file"], s["sha256"]) for s in plain["shards"]]
    assert ds.verify(tmp_path / "batched") == []


def test_a_batch_drawn_a_few_mazes_at_a_time_is_the_same(monkeypatch):
    compiled_or_skip()
    build = Build.checked("kruskal", 6, 5, seed=0)
    whole = make_batch(build, list(range(50)))
    monkeypatch.setattr(pipeline_batch, "WORDS_AT_ONCE", 3 * 49)  # three mazes' words at a time, then the rest
    parts = make_batch(build, list(range(50)))
    assert np.array_equal(whole.tiles, parts.tiles) and np.array_equal(whole.east, parts.east)
    same_as_generate(parts, 6, 5, {})
