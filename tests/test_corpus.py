"""The recorded byte corpus (tests/corpus.py): every level, file, code, observation and shard as before issue 29.

Each group is recomputed on the plain path and on the compiled path (where
numba is installed) and must equal the digests recorded from main before the
one-model refactor. A difference names the cases that moved.
"""

from __future__ import annotations

import importlib.util

import pytest

import corpus
from mazecheck import on_path

RECORDED = corpus.load()
HAS_NUMBA = importlib.util.find_spec("numba") is not None
MODES = ["0"] + (["1"] if HAS_NUMBA else [])


def test_the_corpus_is_wide():
    sizes = {group: len(cases) for group, cases in RECORDED.items()}
    assert set(sizes) == set(corpus.GROUPS)
    assert sum(sizes.values()) > 800, sizes
    refused = [name for cases in RECORDED.values() for name, d in cases.items() if d.startswith("error:")]
    assert len(refused) < 20, refused


@pytest.mark.parametrize("mode", MODES, ids=lambda m: {"0": "plain", "1": "compiled"}[m])
@pytest.mark.parametrize("group", ["square", "grid", "format", "lane"])
def test_levels_are_byte_identical(group, mode):
    with on_path(mode):
        now = corpus.compute(group)
    moved = sorted(name for name in RECORDED[group] if now.get(name) != RECORDED[group][name])
    assert not moved, f"{len(moved)} cases moved: {moved[:20]}"
    assert set(now) == set(RECORDED[group])


NEEDS = {"gym/": "gymnasium", "dataset/parquet": "pyarrow"}
"""Cases that run only where an optional stack is installed (the core-only venv of .ci/core-py39.sh has neither)."""


@pytest.mark.parametrize("group", ["gym", "dataset"])
def test_observations_and_shards_are_byte_identical(group):
    now = corpus.compute(group)
    moved = sorted(name for name in RECORDED[group] if name in now and now[name] != RECORDED[group][name])
    assert not moved, f"{len(moved)} cases moved: {moved}"
    for name in set(RECORDED[group]) - set(now):  # not run: only for want of its stack
        stack = next((s for prefix, s in NEEDS.items() if name.startswith(prefix)), None)
        assert stack is not None and importlib.util.find_spec(stack) is None, f"{name} was not computed"
    if not now:
        pytest.skip(f"every {group} case needs a stack not installed here")
