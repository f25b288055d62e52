"""Codes for every level (issue 29): mp.level_code writes one for every level generate makes with default
generator options — square, weave (+w), grid (hex12x8), wrap (+wrapxy), with content — and
mp.level_from_code makes it again, byte for byte."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples

import mazeplugin as mp

NEIGHBOUR_ONLY = ["aldous-broder", "backtracker", "growing-tree", "hunt-and-kill", "kruskal", "prim",
                  "prim-simplified", "union-find", "wilson"]
SQUARE_ONLY = ["binary-tree", "division", "eller", "sidewinder"]
TOPOLOGIES = [{}, {"grid": "hex"}, {"grid": "triangle"}, {"grid": "polar"}, {"wrap": "x"}, {"wrap": "y"},
              {"wrap": "xy"}, {"weave": True}, {"weave": 0.5}]


def _same(a, b):
    assert type(a) is type(b)
    assert a.to_json() == b.to_json()  # maze, markers, things, algorithm, seed and options, byte for byte
    if a.tiled:
        assert a.tiles.tobytes() == b.tiles.tobytes()


@settings(max_examples=examples(90), deadline=None)
@given(algorithm=st.sampled_from(NEIGHBOUR_ONLY + SQUARE_ONLY), topology=st.sampled_from(TOPOLOGIES),
       width=st.integers(2, 9), height=st.integers(2, 9), seed=st.integers(0, 2**40),
       content=st.sampled_from([{}, {"keys": 1}, {"treasure": 2}, {"keys": 1, "enemies": 1}]))
def test_every_generated_level_has_a_code_that_makes_it_again(algorithm, topology, width, height, seed, content):
    if algorithm in SQUARE_ONLY and ("grid" in topology or "wrap" in topology):
        return  # these run on the square grid only (generate says so)
    try:
        level = mp.generate(algorithm, width, height, seed=seed, **topology, **content)
    except ValueError:  # content that does not fit a small level, or weave with content (not yet)
        return
    code = mp.level_code(level)
    again = mp.level_from_code(code)
    _same(again, level)
    assert mp.level_code(again) == code


@pytest.mark.parametrize("code, kind, grid, options", [
    ("kruskal-8x6-3", mp.Level, "square", {}),
    ("kruskal-8x6-3+w", mp.Level, "square", {"weave": True}),
    ("wilson-hex8x6-9", mp.Level, "hex", {"grid": "hex"}),
    ("backtracker-polar4x5-1+k1", mp.Level, "polar", {"grid": "polar", "keys": 1}),
    ("wilson-8x6-9+wrapxy", mp.Level, "square", {"grid": "square", "wrap": "xy"}),
    ("prim-8x6-2+k1t2wrapy", mp.Level, "square", {"grid": "square", "wrap": "y", "keys": 1, "treasure": 2}),
])
def test_one_reader_makes_every_kind_of_code(code, kind, grid, options):
    level = mp.level_from_code(code)
    assert isinstance(level, kind) and level.grid == grid and level.options == options
    assert mp.level_code(level) == code


def test_wrap_codes_are_read_strictly():
    assert mp.parse_level_code("wilson-8x6-9+wrapx").content == {"wrap": "x"}
    assert mp.parse_level_code("wilson-8x6-9+k2wwrapxy").content == {"keys": 2, "weave": True, "wrap": "xy"}
    for bad in ("wilson-8x6-9+wrapz", "wilson-8x6-9+wrap", "wilson-8x6-9+wrapxwrapy"):
        with pytest.raises(ValueError, match="is not content|gives wrap twice"):
            mp.parse_level_code(bad)
    with pytest.raises(ValueError, match="wrap= is for grid='square' only"):
        mp.level_from_code("wilson-hex8x6-9+wrapx")


@pytest.mark.parametrize("code, words", [("wilson-hex8x6-9", "names a hex level"),
                                         ("wilson-8x6-9+wrapxy", "names a square level that wraps")])
def test_the_environments_refuse_a_code_of_a_level_they_do_not_play(code, words):
    pytest.importorskip("gymnasium")
    from mazeplugin.gym.levels import LevelSpec, level_from_options

    with pytest.raises(ValueError, match=f"{words}; the environments play square levels"):
        level_from_options(LevelSpec(), {"level_code": code}, (99, 99))
