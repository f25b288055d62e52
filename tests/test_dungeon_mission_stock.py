"""Treasure where a designer's mission says (issue 33): a node of kind ``"treasure"`` is a room holding
treasure; laid out, each gets one ``"treasure"`` thing on its floor, drawn from the stocking stream, proven by
``level.check()`` and the independent tile solver. The grammar makes no treasure nodes, so every dungeon made
before is the same (tests/test_corpus.py and the other dungeon tests hold them)."""

from __future__ import annotations

import json

import pytest

import mazeplugin as mp
from mazeplugin.dungeon import NODE_KINDS, PATTERNS, Edge, Mission, MissionError, Node, least_rooms
from test_dungeon_rooms import assert_proven

NODES = [Node("start", "start"), Node("gold", "treasure", 0.5), Node("hall"), Node("cellar", "key", key="red"),
         Node("silver", "treasure", 0.8), Node("vault", "lock", key="red"), Node("goal", "goal")]
EDGES = [Edge("start", "gold"), Edge("start", "hall"), Edge("hall", "cellar"), Edge("hall", "silver"),
         Edge("hall", "vault", "locked", key="red"), Edge("vault", "goal")]
PLAN = Mission(NODES, EDGES)


def treasure_by_room(level: mp.Level) -> dict:
    out: dict = {}
    for thing in level.things:
        if thing.kind == "treasure":
            out.setdefault(thing.props["room"], []).append(thing.tile)
    return out


@pytest.mark.parametrize("seed, options", [(3, {}), (5, {"shapes": "mixed"}), (8, {"interior": "backtracker"})])
def test_each_treasure_room_holds_one_treasure_on_its_own_floor(seed, options):
    level = mp.generate("dungeon", 40, 40, seed=seed, mission=PLAN, **options)
    assert_proven(level)  # the content proof reaches every treasure; the tile oracle agrees
    found = treasure_by_room(level)
    assert sorted(found) == ["gold", "silver"] and all(len(tiles) == 1 for tiles in found.values())
    for name, (tile,) in found.items():
        assert tile in level.mission.room(name).tiles and level.tiles[tile[1], tile[0]] == mp.FLOOR
    others = [t.tile for t in level.things if t.kind != "treasure"] + [level.entrance, level.exit]
    assert not {tiles[0] for tiles in found.values()} & set(others)  # not on a marker, a key or a door


def test_treasure_n_adds_to_the_mission_s_treasure_and_the_dungeon_under_it_is_the_same():
    plain = mp.generate("dungeon", 40, 40, seed=3, mission=PLAN)
    more = mp.generate("dungeon", 40, 40, seed=3, mission=PLAN, treasure=3, enemies=1)
    assert_proven(more)
    assert plain.tiles.tobytes() == more.tiles.tobytes()
    assert treasure_by_room(more)["gold"][0] == treasure_by_room(plain)["gold"][0]  # drawn first, the same tile
    assert sum(len(tiles) for tiles in treasure_by_room(more).values()) == 2 + 3
    assert treasure_by_room(more).get("hall")  # treasure=N goes to the plain rooms first
    tiles = [tile for found in treasure_by_room(more).values() for tile in found]
    assert len(set(tiles)) == len(tiles)


def test_the_kind_is_kept_by_json_and_drawn():
    again = Mission.from_json(PLAN.to_json())
    assert again == PLAN and again.node("gold").kind == "treasure"
    svg = PLAN.to_svg()
    assert svg.count('class="node treasure"') == 2 and "#e6ab02" in svg
    level = mp.generate("dungeon", 40, 40, seed=3, mission=PLAN)
    assert {room["id"]: room["kind"] for room in level.options["layout"]["rooms"]}["silver"] == "treasure"


def test_an_old_mission_file_still_loads_and_lays_out_without_treasure(tmp_path):
    old = {"nodes": [{"id": "start", "kind": "start", "intensity": 0.0}, {"id": "k", "kind": "key", "key": "red",
                                                                           "intensity": 0.5},
                     {"id": "den", "kind": "boss", "intensity": 1.0}, {"id": "goal", "kind": "goal"}],
           "edges": [{"from": "start", "to": "k"}, {"from": "start", "to": "den", "kind": "locked", "key": "red"},
                     {"from": "den", "to": "goal"}]}
    (tmp_path / "old.json").write_text(json.dumps(old))
    level = mp.generate("dungeon", 30, 30, seed=1, mission=str(tmp_path / "old.json"))
    level.check()
    assert not [t for t in level.things if t.kind == "treasure"]


def test_a_bad_kind_is_still_refused_naming_every_kind():
    assert NODE_KINDS[-1] == "treasure"
    with pytest.raises(MissionError, match="kind must be one of start, goal, room, key, lock, boss, treasure; "
                                           "got 'chest'"):
        Node("a", "chest")
    with pytest.raises(MissionError, match="only key and lock rooms name a key"):
        Node("a", "treasure", key="red")


def test_the_grammar_makes_no_treasure_rooms():
    for pattern in PATTERNS:
        for seed in range(4):
            plan = mp.mission(rooms=max(14, least_rooms(pattern, 2)), locks=2, pattern=pattern, seed=seed)
            assert "treasure" not in {node.kind for node in plan.nodes}


def test_a_one_cell_treasure_room_holds_its_treasure_on_that_cell():
    tiny = mp.Prefab.from_text("""
        #+#
        +.+
        #+#
    """)
    plan = Mission([Node("start", "start"), Node("gold", "treasure"), Node("goal", "goal")],
                   [Edge("start", "gold"), Edge("gold", "goal")])
    level = plan.layout(2, prefabs=[tiny])  # one-cell rooms
    level.check()
    assert treasure_by_room(level)["gold"] == [level.mission.room("gold").tiles[0]]
