"""A shard's stats() figures in one compiled pass: the same figures, and so the same shard bytes."""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any, Dict, List

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mazeplugin as mp
import mazeplugin.dataset as ds
from mazeplugin.dataset import figures

MASK = ["########", ".######.", "########", "########"]
# Plain mazes with and without loops, markers of every kind, wide corridors, content; and two
# entries the compiled pass leaves to Level.stats() (rooms, a mask).
SPEC: Dict[str, Any] = {"levels": [
    {"generator": "backtracker", "width": 9, "height": 9, "count": 120, "shard_size": 60},
    {"generator": "kruskal", "width": 10, "height": 7, "count": 40, "braid": 0.5},
    {"generator": "wilson", "width": 8, "height": 8, "count": 30, "markers": "farthest"},
    {"generator": "backtracker", "width": 7, "height": 5, "count": 20, "corridor": 2, "wall": 1},
    {"generator": "prim", "width": 6, "height": 6, "count": 10, "markers": "none"},
    {"generator": "backtracker", "width": 14, "height": 10, "count": 8, "rooms": 2},
    {"generator": "kruskal", "width": 8, "height": 4, "count": 6, "mask": MASK},
    {"generator": "wilson", "width": 6, "height": 5, "count": 20, "keys": 1, "treasure": 2, "braid": 0.3},
]}
# The checksums the per-level Level.stats() path wrote before the compiled pass existed.
PINNED = [
    ("000-backtracker-9x9-00000.npz", "c3934ea40f74b7b4bffe4b1f6a58ab30e49e24d9327727f988ddb677906dbc5e"),
    ("000-backtracker-9x9-00001.npz", "dc0438a8fd699089c2b1acccd9a49ab9cc7aa2aba1be2289f45d9cf9d574df26"),
    ("001-kruskal-10x7-00000.npz", "4b463eb84169d4c89efdd61b5e3ee80e6812f2d1c035981988a3114900039fc6"),
    ("002-wilson-8x8-00000.npz", "a068223cb6f123d643be47b4180e043c055c8b37aa9acc87b1d5ca4e5ddf0fb1"),
    ("003-backtracker-7x5-00000.npz", "4b63c089d87eec7404f10d1519741aaa80c0c532ad66a3fcab84d33708a7ff88"),
    ("004-prim-6x6-00000.npz", "0bcf87e9f4219962e40b2dcaca2d553675438b4d00ba3f7ceda3841eab6e0bd3"),
    ("005-backtracker-14x10-00000.npz", "6d9ab24c367419234d62f2251f50963a0f979f6a5a13e0b8b1a7e7ecf7a5c60e"),
    ("006-kruskal-8x4-00000.npz", "01417147a6951528755cc4f5627bb0d53deca0ab30f8f7a5ad82d8b06fa5a6dc"),
    ("007-wilson-6x5-00000.npz", "01dfe65640aac24ac385487bbe6f6f2788f6da2fb7b0bb3c1ff086e9c96bb7d9"),
]


def compiled_or_skip() -> None:
    from mazeplugin.compiled import available

    if not available():
        pytest.skip("the compiled path is off or numba is not installed")


def as_columns(levels: List[mp.Level]) -> Dict[str, List[Any]]:
    rows = [dataclasses.asdict(level.stats()) for level in levels]
    return {name: [row[name] for row in rows] for name in figures.STATS_FIELDS}


def same(column: np.ndarray, expected: List[Any]) -> bool:
    got = [None if (isinstance(v, float) and math.isnan(v)) or v == -1 else v for v in column.tolist()]
    return got == expected  # exact: the same float bits, not approximately


@pytest.mark.parametrize("compiled", [True, False])
def test_shard_bytes_are_pinned_with_and_without_the_compiled_pass(tmp_path, monkeypatch, compiled):
    if compiled:
        compiled_or_skip()
        monkeypatch.setattr(figures, "COMPILED_MIN_CELLS", 0)
    else:
        monkeypatch.setattr(figures, "_use_compiled", lambda levels: False)
    manifest = ds.build(SPEC, tmp_path / "out", workers=1)
    assert [(s["file"], s["sha256"]) for s in manifest["shards"]] == PINNED


def test_the_compiled_pass_runs_and_leaves_rooms_and_masks_to_level_stats(monkeypatch):
    compiled_or_skip()
    monkeypatch.setattr(figures, "COMPILED_MIN_CELLS", 0)
    asked: List[mp.Level] = []
    real = mp.Level.stats
    monkeypatch.setattr(mp.Level, "stats", lambda self: asked.append(self) or real(self))
    plain = [mp.generate("kruskal", 8, 4, seed=s, braid=0.4) for s in range(5)]  # a shard has one size
    roomy = mp.generate("backtracker", 8, 4, seed=1, rooms=1)
    masked = mp.generate("kruskal", 8, 4, seed=1, mask=MASK)
    columns = figures.shard_stats([plain[0], roomy] + plain[1:] + [masked])
    assert asked == [roomy, masked]
    asked.clear()
    expected = as_columns([plain[0], roomy] + plain[1:] + [masked])
    assert all(same(columns[name], expected[name]) for name in figures.STATS_FIELDS)


@settings(max_examples=30, deadline=None)
@given(generator=st.sampled_from(["backtracker", "kruskal", "wilson", "prim", "eller", "hunt-and-kill", "division", "sidewinder", "binary-tree", "growing-tree"]),
       width=st.integers(1, 12), height=st.integers(1, 12), braid=st.sampled_from([0.0, 0.3, 1.0]),
       markers=st.sampled_from(["border", "farthest", "none"]), seed=st.integers(0, 2**32))
def test_compiled_figures_equal_level_stats(generator, width, height, braid, markers, seed):
    from mazeplugin.compiled import available

    if not available():
        return  # nothing to compare (the plain path is Level.stats itself)
    levels = [mp.generate(generator, width, height, seed=seed + k, braid=braid, markers=markers) for k in range(4)]
    rows = figures._compiled_rows(levels)
    assert all(row is not None for row in rows)
    expected = [dataclasses.asdict(level.stats()) for level in levels]
    assert rows == expected


# -- levels made from one checked build per entry ------------------------------------------

ENTRIES = [
    {"generator": "backtracker", "width": 9, "height": 9},
    {"generator": "kruskal", "width": 10, "height": 7, "braid": 0.5, "markers": "farthest"},
    {"generator": "wilson", "width": 8, "height": 8, "keys": 1, "treasure": 2, "enemies": 1},
    {"generator": "backtracker", "width": 7, "height": 5, "corridor": 2, "wall": 3},
    {"generator": "backtracker", "width": 14, "height": 10, "rooms": 2, "doors": 2},
    {"generator": "kruskal", "width": 8, "height": 4, "mask": MASK, "markers": "none"},
    {"generator": "prim", "width": 12, "height": 9, "place": [{"kind": "coin", "count": 3}]},
    {"generator": "growing-tree", "width": 6, "height": 6, "braid": 1.0},
    {"generator": "backtracker", "width": 10, "height": 8, "weave": True},
    {"generator": "kruskal", "width": 9, "height": 7, "weave": 0.5, "braid": 0.5, "markers": "farthest"},
    {"generator": "wilson", "width": 8, "height": 4, "weave": True, "mask": MASK},
]


@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, len(ENTRIES) - 1), seed=st.integers(0, 2**64 - 1))
def test_a_level_maker_makes_what_generate_makes(index, seed):
    from mazeplugin.dataset.shards import LevelMaker

    entry = ds.parse_spec(dict(ENTRIES[index], count=1)).entries[0]
    maker = LevelMaker(entry)
    try:
        expected = mp.generate(entry.generator, entry.width, entry.height, seed=seed, **entry.kwargs())
    except ValueError as error:  # content that does not fit this seed's level: the same error
        with pytest.raises(ValueError, match=re.escape(str(error))):
            maker(seed)
        return
    for _ in range(2):  # and again: the checked build it copies is left as it was
        level = maker(seed)
        assert level.to_json() == expected.to_json() and ds.digest(level) == ds.digest(expected)


FORKED_MID_LOAD = r'''
import os, sys
import numba  # loaded: the compiled pass would be taken for any shard
import mazeplugin as mp
from mazeplugin import _compiled
from mazeplugin.dataset import figures

os.environ["MAZEPLUGIN_COMPILED"] = "0"  # made plain: no warm-up thread of this process loads a kernel meanwhile
levels = [mp.generate("backtracker", 9, 9, seed=s) for s in range(4)]
del os.environ["MAZEPLUGIN_COMPILED"]  # auto, as a user has it
_compiled.FORK_WAIT = 0.05
_compiled._watch_forks()  # as a load that has started has done (the fork handlers are registered then)
_compiled._STATE.lock.acquire()  # as a loader holds it while a kernel loads for longer than a fork waits
pid = os.fork()
if pid == 0:
    ok = _compiled.forked_mid_load()
    columns = figures.shard_stats(levels)
    ok = ok and [int(v) for v in columns["solution_length"]] == [lv.stats().solution_length for lv in levels]
    # Loading the compiled pass here could wait forever on locks held by the thread the fork left behind.
    ok = ok and "mazeplugin.dataset.figures_kernel" not in sys.modules and "mazeplugin._compiled.bfs" not in sys.modules
    os._exit(0 if ok else 1)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
'''


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="fork is POSIX-only")
def test_a_process_forked_while_kernels_load_gives_plain_figures_without_loading_the_pass():
    # A dataset build in auto mode forked its process pool while a background thread was importing the
    # searches' kernel: each pool worker then waited forever on that module's import lock (README's dataset example, found when the README's blocks ran in auto mode).
    import os
    import subprocess
    import sys

    pytest.importorskip("numba")
    env = {k: v for k, v in os.environ.items() if k != "MAZEPLUGIN_COMPILED"}  # auto, as a user has it
    done = subprocess.run([sys.executable, "-c", FORKED_MID_LOAD], capture_output=True, text=True,
                          timeout=300, env=env)  # a hang guard, not a speed bound
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "0"
