"""Level codes (mazeplugin.codes): pure Python, no pygame needed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples

import mazeplugin as mp

text_seeds = st.text(
    alphabet=st.characters(whitelist_categories=("L", "N", "Zs", "Pd", "Po")), min_size=1, max_size=20
).filter(lambda s: s.strip() == s and s != "")
seeds = st.one_of(st.integers(0, 2**64), text_seeds)


@given(
    algorithm=st.sampled_from(["kruskal", "union-find", "backtracker", "eller", "prim"]),
    width=st.integers(1, 12),
    height=st.integers(1, 12),
    seed=seeds,
)
@settings(max_examples=examples(80))
def test_a_code_makes_the_same_level_again(algorithm, width, height, seed):
    level = mp.generate(algorithm, width, height, seed=seed)
    code = mp.level_code(level)
    parsed = mp.parse_level_code(code)
    assert parsed == (algorithm, width, height, level.seed)
    again = mp.generate(parsed[0], parsed[1], parsed[2], seed=parsed[3])
    assert again.tiles.tobytes() == level.tiles.tobytes()
    assert (again.entrance, again.exit) == (level.entrance, level.exit)


def test_every_registered_algorithm_has_codes():
    for name in mp.algorithms():
        level = mp.generate(name, 6, 5, seed=3)
        assert mp.parse_level_code(mp.level_code(level)) == (name, 6, 5, 3)


def test_digit_seeds_are_ints_and_other_seeds_stay_text():
    assert mp.parse_level_code("kruskal-3x3-42")[3] == 42
    assert mp.parse_level_code("kruskal-3x3-042")[3] == "042"
    assert mp.parse_level_code("kruskal-3x3-a-1x1-b") == ("kruskal", 3, 3, "a-1x1-b")
    assert mp.parse_level_code("kruskal-3X4-7") == ("kruskal", 3, 4, 7)


@pytest.mark.parametrize("text", ["", "kruskal", "kruskal-3x3", "kruskal-3x3-", "-3x3-1", "kruskal-0x3-1", "kruskal-ax3-1"])
def test_unreadable_codes_raise_value_error_showing_the_form(text):
    with pytest.raises(ValueError, match="level code"):
        mp.parse_level_code(text)


def test_codes_reject_non_text_and_levels_they_cannot_name():
    with pytest.raises(TypeError, match="str"):
        mp.parse_level_code(42)
    with pytest.raises(TypeError, match="Level"):
        mp.level_code("kruskal-3x3-1")
    with pytest.raises(ValueError, match="options"):
        mp.level_code(mp.generate("kruskal", 3, 3, seed=1, corridor=2))
    with pytest.raises(ValueError, match="unambiguous"):
        mp.level_code(mp.generate("kruskal", 3, 3, seed=" padded "))


ROOM_GENERATORS = [n for n in mp.algorithms() if mp.get_generator(n).masks and mp.get_generator(n).fills]


@given(
    algorithm=st.sampled_from(ROOM_GENERATORS),
    size=st.integers(12, 24),
    seed=st.integers(0, 2**32),
    rooms=st.integers(1, 4),
    keys=st.integers(0, 2),
)
@settings(max_examples=40, deadline=None)
def test_a_code_with_rooms_makes_the_same_level_again(algorithm, size, seed, rooms, keys):
    try:
        level = mp.generate(algorithm, size, size, seed=seed, rooms=rooms, keys=keys)
    except ValueError as error:  # too many rooms or locks for this maze: no level, no code
        assert "fit" in str(error) or "lock" in str(error), error
        return
    code = mp.level_code(level)
    assert f"+r{rooms}" in code
    again = mp.level_from_code(code)
    assert again.tiles.tobytes() == level.tiles.tobytes()
    assert again.maze.rooms.tobytes() == level.maze.rooms.tobytes() and again.things == level.things
    assert mp.parse_level_code(code).content == {"rooms": rooms, **({"keys": keys} if keys else {})}


def test_rooms_given_by_place_or_shape_have_no_code():
    with pytest.raises(ValueError, match="rooms"):
        mp.level_code(mp.generate("wilson", 12, 10, seed=1, rooms=[(2, 2, 3, 3)]))
    with pytest.raises(ValueError, match="doors"):
        mp.level_code(mp.generate("wilson", 30, 20, seed=1, rooms=2, doors=2))
    assert mp.parse_level_code("prim-9x9-castle+r2e1").content == {"rooms": 2, "enemies": 1}
