"""Hostile files against the rewritten readers (issue 34's promise for new code): a file the library writes,
mutated one value at a time, loads or is refused with a ``LevelFormatError`` naming the field, never a bare
``KeyError``/``TypeError``/``IndexError`` from deep inside, at load or on the first use of the level."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.errors import LevelFormatError

from budget import examples

FUZZ = settings(max_examples=examples(90), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
HOSTILE = [True, None, 1.5, -1, 0, 2**70, "x", [], {}, [[1, 2]], {"a": 1}]
DUNGEON = mp.generate("dungeon", 40, 40, seed=3, rooms=8, locks=1, shapes="mixed", drops=True)
DUNGEON_DATA = json.loads(DUNGEON.to_json())


def _paths(value, prefix=()):
    yield prefix
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        yield from _paths(inner, prefix + (key,))


LAYOUT_PATHS = [p for p in _paths(DUNGEON_DATA) if p[:2] == ("options", "layout") and len(p) > 2]
EDGE_PATHS = [p for p in _paths(DUNGEON_DATA) if p[-1:] == ("edge",)]


def _mutated(path, value):
    data = copy.deepcopy(DUNGEON_DATA)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if value == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return json.dumps(data)


def _used(level):
    """What a game does first with a loaded dungeon: its mission on the tiles, its code, its file again."""
    level.mission
    try:
        mp.level_code(level)
    except ValueError as error:  # (a shapes= dungeon has no code: said in words)
        assert "has no level code" in str(error)
    level.to_json()


@FUZZ
@given(path=st.sampled_from(LAYOUT_PATHS + EDGE_PATHS), value=st.sampled_from(HOSTILE + ["delete"]))
def test_fuzz_a_dungeon_file_with_its_layout_record_mutated_loads_or_is_refused(path, value):
    try:
        level = mp.from_json(_mutated(path, value))
    except LevelFormatError:
        return
    _used(level)


@pytest.mark.parametrize("path, value, words", [
    (("options", "layout", "rooms", 0, "id"), [], r'rooms\[0\]: "id" must be a node of the mission'),
    (("options", "layout", "rooms", 1), "delete", "no room for the mission's node"),
    (("options", "layout", "rooms", 0, "x"), 2**70, r"rooms\[0\] must hold ints x, y, width and height"),
    (("options", "layout", "rooms"), "x", 'must be an object with lists "rooms" and "corridors"'),
    (("options", "layout", "corridors"), "delete", 'must be an object with lists "rooms" and "corridors"'),
    (("options", "layout", "corridors", 0, "tiles"), [[10**6, 1]], r"corridors\[0\] must be"),
])
def test_a_dungeon_layout_record_out_of_shape_is_refused_at_load_naming_the_field(path, value, words):
    """Before: these loaded, then ``level.mission``, ``mp.level_code`` or ``to_json`` raised ``KeyError``,
    ``TypeError`` or ``IndexError`` from dungeon/laid.py."""
    with pytest.raises(LevelFormatError, match=r'^<json text>: options\["layout"\].*' + words):
        mp.from_json(_mutated(path, value))


def test_a_door_naming_its_edge_by_an_object_loads_without_a_type_error():
    """Before: a thing's ``"edge"`` prop of ``{}`` gave ``TypeError: unhashable type: 'dict'`` on ``level.mission``."""
    index = next(i for i, t in enumerate(DUNGEON_DATA["things"]) if "edge" in t["props"])
    try:
        level = mp.from_json(_mutated(("things", index, "props", "edge"), {}))
    except LevelFormatError:
        return
    _used(level)
