"""Missions as JSON and SVG (mazeplugin.dungeon.files, dungeon.drawing): round trips, a designer's short form,
hostile or broken files refused with what is wrong."""

from __future__ import annotations

import json
import os
import re

import pytest

from mazeplugin.dungeon import Edge, Mission, MissionError, Node, load_mission
from mazeplugin.dungeon.files import MAX_MISSION_BYTES, graph_from_dict, graph_from_json
from mazeplugin.errors import LevelFormatError

DESIGNED = {
    "nodes": [{"id": "start", "kind": "start"}, {"id": "hall"}, {"id": "vault", "kind": "key", "key": "red"},
              {"id": "den", "kind": "boss", "intensity": 1}, {"id": "goal", "kind": "goal"}],
    "edges": [{"from": "start", "to": "hall"}, {"from": "hall", "to": "vault", "kind": "hidden"},
              {"from": "vault", "to": "start", "kind": "one-way"},
              {"from": "hall", "to": "den", "kind": "locked", "key": "red"}, {"from": "den", "to": "goal"}],
}


def test_a_designer_s_short_form_is_read_with_its_defaults():
    m = Mission.from_dict(DESIGNED)
    assert m.node("hall") == Node("hall", "room", 0.0) and m.node("den").intensity == 1.0
    assert m.edges[0] == Edge("start", "hall", "open") and m.seed is None and m.pattern is None
    assert m.prove().route == ("start", "hall", "vault", "hall", "den", "goal") and m.prove().ok


def test_dict_json_and_file_round_trips_keep_the_mission(tmp_path):
    m = Mission.from_dict(DESIGNED)
    assert Mission.from_dict(m.to_dict()) == m
    assert Mission.from_json(m.to_json()) == m and Mission.from_json(m.to_json().encode()) == m
    json.loads(m.to_json())  # plain JSON any tool reads
    m.save(tmp_path / "m.json")
    assert load_mission(tmp_path / "m.json") == m and load_mission(str(tmp_path / "m.json")) == m
    made = Mission(m.nodes, m.edges, seed="castle", pattern="valve")
    again = Mission.from_json(made.to_json())
    assert (again.seed, again.pattern) == ("castle", "valve")


def test_a_mission_that_cannot_be_played_loads_only_when_asked_not_to_check(tmp_path):
    data = json.loads(json.dumps(DESIGNED))
    del data["edges"][2]
    data["edges"][1]["kind"] = "locked"
    data["edges"][1]["key"] = "red"  # the vault's only door needs the vault's own key
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(MissionError, match=r"bad\.json: the mission cannot be played: .*behind its own lock"):
        load_mission(tmp_path / "bad.json")
    assert not load_mission(tmp_path / "bad.json", check=False).prove().solvable
    with pytest.raises(MissionError, match="behind its own lock"):
        Mission.from_dict(data)


@pytest.mark.parametrize("data, message", [
    ([], "a mission must be an object"),
    ({"nodes": []}, "exactly one start"),
    ({"nodes": "start"}, "nodes must be a list"),
    ({"nodes": [{"id": "start", "kind": "start", "colour": "red"}]}, "unknown field.*'colour'"),
    ({"format": "tiled", "nodes": []}, "format must be 'mazeplugin-mission'"),
    ({"version": 9, "nodes": []}, "version 9"),
    ({"seed": 1.5, "nodes": []}, "seed must be an int or a str"),
    ({"nodes": [{"id": 3}]}, "id must be a non-empty str"),
    ({"nodes": [{"id": "a", "intensity": "high"}]}, "intensity must be a number"),
    ({"nodes": [], "edges": [["a", "b"]]}, "edge 0 must be an object"),
])
def test_a_broken_mission_dict_is_refused_with_what_is_wrong(data, message):
    with pytest.raises(MissionError, match=message):
        graph_from_dict(data)


def test_broken_or_hostile_json_is_refused_with_the_source_named(tmp_path):
    with pytest.raises(MissionError, match="m.json: truncated"):
        graph_from_json('{"nodes": [', "m.json")
    with pytest.raises(MissionError, match="nested too deep"):
        graph_from_json("[" * 30_000, "deep.json")
    with pytest.raises(MissionError, match="JSON lists and objects is more than a mission holds"):
        graph_from_json("[" + "{}," * 50_000 + "{}]", "wide.json")
    with pytest.raises(MissionError, match="not UTF-8"):
        graph_from_json(b"\xff\xfe", "bin.json")
    with pytest.raises(MissionError, match="x.json: a mission has exactly one goal"):
        graph_from_json('{"nodes": [{"id": "start", "kind": "start"}]}', "x.json")
    with pytest.raises(TypeError, match="str or bytes"):
        graph_from_json(3)
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_MISSION_BYTES + 1))
    with pytest.raises(LevelFormatError, match="too large for a mission"):
        load_mission(big)
    with pytest.raises(LevelFormatError):
        load_mission(tmp_path)  # a folder, not a file


def test_save_knows_json_and_svg_and_refuses_the_rest(tmp_path):
    m = Mission.from_dict(DESIGNED)
    m.save(tmp_path / "m.svg")
    assert (tmp_path / "m.svg").read_text() == m.to_svg()
    with pytest.raises(ValueError, match="must end in .json or .svg"):
        m.save(tmp_path / "m.txt")
    assert sorted(os.listdir(tmp_path)) == ["m.svg"]


def test_the_drawing_shows_every_room_and_edge_by_kind_in_columns_by_depth():
    m = Mission.from_dict(DESIGNED)
    svg = m.to_svg()
    assert svg.count("<circle") == len(m.nodes)
    for kind in ("open", "hidden", "one-way", "locked"):
        assert svg.count(f'class="edge {kind}"') == len(m.edges_of(kind))
    assert svg.count('marker-end="url(#arrow)"') == 1 and "stroke-dasharray" in svg and ">red</text>" in svg
    centres = {name: int(x) for name, x in re.findall(r'<g class="node \w+"><title>\w+ (\w+),.*?cx="(\d+)"', svg)}
    assert centres["start"] < centres["hall"] < centres["den"] < centres["goal"]
    assert centres["vault"] == centres["hall"]  # both one edge from the start


def test_labels_are_escaped_in_the_drawing():
    m = Mission([Node("<start>", "start"), Node("a&b", "goal")], [Edge("<start>", "a&b")])
    svg = m.to_svg()
    assert "&lt;start&gt;" in svg and "a&amp;b" in svg and "<start>" not in svg


def test_any_mission_survives_the_round_trip_even_one_that_cannot_be_played():
    import random

    from test_dungeon_model import random_mission

    rng = random.Random(7)
    for _ in range(200):
        m = random_mission(rng)
        assert Mission.from_dict(m.to_dict(), check=False) == m
        assert Mission.from_json(m.to_json(), check=False) == m
        assert m.to_svg().count("<line") == len(m.edges)
