"""Text output in the founding documents' styles."""

from __future__ import annotations

import pytest

import mazeplugin as mp


@pytest.fixture
def level():
    return mp.generate("kruskal", 6, 4, seed=7)


def test_ascii_matches_tiles_and_markers(level):
    lines = level.to_text("ascii").splitlines()
    marked = level.marked()
    assert len(lines) == marked.shape[0]
    for row, line in zip(marked, lines):
        assert line == "".join({0: " ", 1: "#", 2: "S", 3: "E"}[int(v)] for v in row)
    assert str(level) == level.to_text()


def test_blocks_uses_full_width_characters(level):
    lines = level.to_text("blocks").splitlines()
    assert set("".join(lines)) <= {"＃", "\u3000", "Ｓ", "Ｅ"}
    assert [len(line) for line in lines] == [level.tiles.shape[1]] * level.tiles.shape[0]
    assert lines[0] == "＃" * level.tiles.shape[1]


def test_box_draws_joined_lines(level):
    lines = level.to_text("box").splitlines()
    h, w = level.tiles.shape
    assert [len(line) for line in lines] == [2 * w] * h
    # The bottom-left corner of the outer wall joins north and east.
    assert lines[-1][0] == "┗"
    assert lines[-1][1] == "━"
    # Floor tiles are blank; walls never are.
    for y in range(h):
        for x in range(w):
            blank = lines[y][2 * x] == " "
            assert blank == (level.marked()[y, x] == mp.FLOOR)


def test_digits_is_the_matrix_with_in_and_out(level):
    lines = level.to_text("digits").splitlines()
    ex, ey = level.entrance
    xx, xy = level.exit
    assert lines[ey].startswith("IN ")
    assert lines[xy].endswith(" OUT")
    for y, line in enumerate(lines):
        digits = line.replace("IN", "").replace("OUT", "").split()
        assert digits == [str(int(v)) for v in level.tiles[y]]


def test_unknown_style(level):
    with pytest.raises(ValueError, match="style must be one of 'ascii'"):
        level.to_text("fancy")
