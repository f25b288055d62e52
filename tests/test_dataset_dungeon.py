"""Datasets of dungeons (issue 33: "everything else a level has ... datasets"): a spec entry with
"generator": "dungeon" builds, verifies and reads back generate("dungeon", ...)'s levels, the same bytes
whatever the number of workers."""

from __future__ import annotations

import json

import pytest

import mazeplugin as mp
import mazeplugin.dataset as ds
from mazeplugin.dataset.spec import SpecError, parse_spec

SPEC = {"levels": [
    {"generator": "dungeon", "width": 20, "height": 20, "count": 5, "shard_size": 2, "rooms": 8, "locks": 2,
     "pattern": "lock-and-key"},
    {"generator": "dungeon", "width": 20, "height": 20, "count": 3, "first_seed": 40, "rooms": 10, "locks": 1,
     "pattern": "hidden"},
]}


def made(entry, seed):
    options = {k: v for k, v in entry.items() if k in ("rooms", "locks", "pattern")}
    return mp.generate("dungeon", entry["width"], entry["height"], seed=seed, **options)


def test_a_dungeon_dataset_reads_back_generates_levels_and_is_the_same_for_one_and_two_workers(tmp_path):
    one = ds.build(SPEC, tmp_path / "one", workers=1)
    two = ds.build(SPEC, tmp_path / "two", workers=2)
    assert [s["sha256"] for s in one["shards"]] == [s["sha256"] for s in two["shards"]]
    assert ds.verify(tmp_path / "one") == [] and ds.verify(tmp_path / "two") == []
    levels = list(ds.open(tmp_path / "two"))
    entries = [SPEC["levels"][0]] * 5 + [SPEC["levels"][1]] * 3
    assert [level.seed for level in levels] == [0, 1, 2, 3, 4, 40, 41, 42]
    for entry, level in zip(entries, levels):
        expected = made(entry, level.seed)
        assert level.tiles.tobytes() == expected.tiles.tobytes()
        assert (level.entrance, level.exit) == (expected.entrance, expected.exit)
        assert level.things == expected.things
        assert mp.level_code(level) == mp.level_code(expected)
        level.check()  # keys, doors (and the hidden pattern's secret passages) still proved fair
    assert any(t.kind == "secret" for level in levels[5:] for t in level.things)


def test_the_manifest_keeps_the_options_every_level_shares_not_the_first_levels_mission(tmp_path):
    manifest = ds.build(SPEC["levels"][0], tmp_path / "d", workers=1)
    assert manifest["entries"][0]["level_options"] == {"dungeon": {"rooms": 8, "locks": 2, "pattern": "lock-and-key"}}
    first = next(iter(ds.open(tmp_path / "d")))
    assert first.mission is None  # not stored in shards; the level code makes it again
    assert mp.level_from_code(mp.level_code(first)).mission.graph.pattern == "lock-and-key"


def test_a_seed_whose_dungeon_does_not_fit_is_refitted_with_a_derived_seed(tmp_path):
    entry = {"generator": "dungeon", "width": 10, "height": 10, "count": 4, "rooms": 6, "locks": 0,
             "pattern": "two-paths", "first_seed": 1}  # seed 1 fits; 2 and 5 of 0..7 do not
    manifest = ds.build(entry, tmp_path / "tight", workers=1)
    assert manifest["shards"][0]["refitted"]
    for slot, level in enumerate(ds.open(tmp_path / "tight")):
        expected = made(entry, level.seed)
        assert level.tiles.tobytes() == expected.tiles.tobytes()
        assert (level.seed == 1 + slot) == (slot + 1 not in (2,))


@pytest.mark.parametrize("change, message", [
    ({"keys": 2}, r"levels\[0\]: generate\('dungeon', ...\) does not take keys="),
    ({"bias": "north"}, r"levels\[0\]: .*unexpected option 'bias'"),
    ({"rooms": 2, "pattern": "hidden"}, r"levels\[0\]: rooms=2 is too few for pattern 'hidden'"),
    ({"generator": "dungeons"}, r"unknown generator 'dungeons'; choose one of .*dungeon"),
])
def test_what_a_dungeon_cannot_take_is_refused_when_the_spec_is_read(change, message):
    entry = dict(SPEC["levels"][0], **change)
    with pytest.raises(SpecError, match=message):
        parse_spec(json.dumps(entry))
