"""Nothing is lost: every writer either writes a file that reads back as an equal level, or refuses up front.

For every kind of level (square: plain, with content, rooms, weave, masked, corridor > 1, braided with
its own markers; hex, triangle, polar and wrapping square, plain and with content) and every format the
kind can be written to (JSON, ``.npy``, TMX, TMJ, the level code), writing then reading gives a level
with the same tiles (or passages), markers, things (with their props), bridges, algorithm, seed and
options — or the writer raises ``ValueError`` before any file is written. Which pairs refuse is listed
(:data:`REFUSED`), so a writer that starts refusing what it used to keep fails too.

Exempt: SVG and PNG (pictures), text (a drawing: it has no reader), and the provenance of an ``.npy``
(algorithm, seed and options: an ``.npy`` is a bare tilemap array; its tiles, markers, things and
bridges are held to the rule — a level with things or bridges is refused).
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import mazeplugin as mp
from mazeplugin.formats.recorded import plain_json


def _weave_with_treasure():
    level = mp.generate("backtracker", 10, 8, seed=4, weave=True)
    ys, xs = np.nonzero((level.tiles == 0) & (level.bridges == 0))
    free = [(int(x), int(y)) for x, y in zip(xs, ys) if (x, y) not in (level.entrance, level.exit)]
    level.things = (mp.Thing("treasure", *free[len(free) // 2], 1),)
    return level


SQUARE = {
    "plain": lambda: mp.generate("kruskal", 6, 5, seed=1),
    "content": lambda: mp.generate("backtracker", 12, 9, seed=3, keys=2, treasure=2, enemies=1),
    "placed": lambda: mp.generate("backtracker", 10, 8, seed=3, place=[mp.Place("lamp", 2)]),
    "rooms": lambda: mp.generate("backtracker", 14, 10, seed=2, rooms=2, keys=1),
    "weave": lambda: mp.generate("backtracker", 10, 8, seed=4, weave=0.5),
    "weave+things": _weave_with_treasure,
    "masked": lambda: mp.generate("backtracker", 8, 6, seed=5, mask=np.pad(np.ones((4, 6), bool), 1)),
    "corridor2": lambda: mp.generate("kruskal", 6, 5, seed=6, corridor=2, wall=2, treasure=1),
    "braid+farthest": lambda: mp.generate("kruskal", 6, 5, seed=7, braid=0.5, markers="farthest"),
    "text seed": lambda: mp.generate("prim", 5, 4, seed="castle 9"),
}
GRID = {
    "hex": lambda: mp.generate("wilson", 6, 4, grid="hex", seed=1),
    "hex+braid+none": lambda: mp.generate("wilson", 6, 4, grid="hex", seed=1, braid=0.5, markers="none"),
    "hex+content": lambda: mp.generate("backtracker", 10, 8, grid="hex", seed=4, keys=2, treasure=2, enemies=1),
    "hex+none+content": lambda: mp.generate("wilson", 8, 6, grid="hex", seed=3, markers="none", treasure=2,
                                            enemies=1),
    "hex+placed": lambda: mp.generate("wilson", 6, 4, grid="hex", seed=2, place=[mp.Place("lamp", 1)]),
    "triangle": lambda: mp.generate("wilson", 8, 4, grid="triangle", seed=1),
    "triangle+content": lambda: mp.generate("backtracker", 14, 8, grid="triangle", seed=5, keys=1, treasure=2),
    "polar": lambda: mp.generate("wilson", 6, 5, grid="polar", seed=1),
    "polar+content": lambda: mp.generate("backtracker", 8, 6, grid="polar", seed=1, keys=1, treasure=2),
    "wrap": lambda: mp.generate("kruskal", 6, 5, wrap="x", seed=1),
    "wrap+content": lambda: mp.generate("backtracker", 10, 8, wrap="xy", seed=1, treasure=2, enemies=1),
}
SQUARE_FORMATS = ("json", "npy", "tmx", "tmj", "code")
GRID_FORMATS = ("json", "tmx", "tmj", "code")

REFUSED = {
    # an .npy holds tiles and markers only
    ("content", "npy"), ("placed", "npy"), ("rooms", "npy"), ("weave", "npy"), ("weave+things", "npy"),
    ("corridor2", "npy"),
    # a level code holds no options
    ("placed", "code"), ("masked", "code"), ("corridor2", "code"), ("braid+farthest", "code"),
    ("weave+things", "code"), ("hex+braid+none", "code"), ("hex+none+content", "code"),
    ("hex+placed", "code"),
    # Tiled maps are square (orthogonal) or hex (hexagonal)
    ("triangle", "tmx"), ("triangle", "tmj"), ("triangle+content", "tmx"), ("triangle+content", "tmj"),
    ("polar", "tmx"), ("polar", "tmj"), ("polar+content", "tmx"), ("polar+content", "tmj"),
    ("wrap", "tmx"), ("wrap", "tmj"), ("wrap+content", "tmx"), ("wrap+content", "tmj"),
}
CASES = [(kind, fmt) for kind in SQUARE for fmt in SQUARE_FORMATS] + [
    (kind, fmt) for kind in GRID for fmt in GRID_FORMATS]


def _options(level):
    return json.dumps(level.options, default=plain_json, sort_keys=True)


def lost(level, again, *, provenance=True):
    """What of ``level`` is not in ``again``: names of the parts that differ (empty: nothing lost)."""
    out = []
    if (type(again), again.kind) != (type(level), level.kind):
        return [f"type ({type(again).__name__}, {again.kind})"]
    if level.kind != "square":
        if again.grid != level.grid or (again.width, again.height) != (level.width, level.height):
            out.append("grid")
        elif not np.array_equal(again.maze.open, level.maze.open):
            out.append("passages")
        if again.openings != level.openings:
            out.append("openings")
    else:
        if not np.array_equal(again.tiles, level.tiles):
            out.append("tiles")
        if not np.array_equal(again.bridges, level.bridges):
            out.append("bridges")
        if (again.layout.corridor, again.layout.wall) != (level.layout.corridor, level.layout.wall):
            out.append("corridor and wall")
    if (again.entrance, again.exit) != (level.entrance, level.exit):
        out.append("markers")
    if again.things != level.things or [dict(t.props) for t in again.things] != [dict(t.props) for t in level.things]:
        out.append("things")
    if provenance:
        out += [name for name in ("algorithm", "seed") if getattr(again, name) != getattr(level, name)]
        if _options(again) != _options(level):
            out.append("options")
    return out


def write_and_read(level, fmt, folder):
    """Write ``level`` in ``fmt`` into ``folder`` and read it back (a code: made again from it)."""
    cls = type(level)
    if fmt == "code":
        code = mp.level_code(level)
        return mp.level_from_code(code)
    path = os.path.join(folder, f"level.{fmt}")
    level.save(path)
    if fmt == "npy":
        return mp.load(path, corridor=level.layout.corridor, wall=level.layout.wall)
    return mp.load(path)


@pytest.fixture(scope="module")
def levels():
    made = {}

    def get(kind):
        if kind not in made:
            made[kind] = (SQUARE.get(kind) or GRID[kind])()
        return made[kind]
    return get


@pytest.mark.parametrize("kind,fmt", CASES, ids=[f"{k}-{f}" for k, f in CASES])
def test_every_writer_keeps_everything_or_refuses_up_front(kind, fmt, levels, tmp_path):
    level = levels(kind)
    assert level.weave if kind.startswith("weave") else True  # the case is what it says
    assert level.things if "content" in kind or "placed" in kind or "things" in kind else True
    if (kind, fmt) in REFUSED:
        with pytest.raises(ValueError) as refused:
            write_and_read(level, fmt, str(tmp_path))
        assert os.listdir(tmp_path) == [], "a refusing writer wrote a file"
        assert not isinstance(refused.value, mp.LevelFormatError), "refused on reading, not before writing"
        return
    again = write_and_read(level, fmt, str(tmp_path))
    assert lost(level, again, provenance=fmt != "npy") == []


def test_the_audit_covers_every_kind_with_a_lossless_file(levels, tmp_path):
    """Every kind of level has at least one format that keeps it whole (all but a weave with things, which
    no reader takes yet)."""
    for kind in [k for k in list(SQUARE) + list(GRID) if k != "weave+things"]:
        kept = [fmt for fmt in (SQUARE_FORMATS if kind in SQUARE else GRID_FORMATS) if (kind, fmt) not in REFUSED]
        assert "tmx" in kept or "json" in kept, kind


@pytest.mark.parametrize("suffix", ["tmj", "tmx", "json"])
def test_a_weave_level_with_content_loads_back_from_each_file_and_is_proved_again(tmp_path, suffix):
    level = mp.generate("backtracker", 12, 9, seed=4, weave=True, keys=2, treasure=2, enemies=1)
    level.save(tmp_path / f"woven.{suffix}")
    back = mp.load(tmp_path / f"woven.{suffix}")
    assert back.things == level.things and np.array_equal(back.bridges, level.bridges)
    back.check()
    assert back.solution() == level.solution()


def test_the_comparison_sees_each_kind_of_loss(levels):
    level = levels("content")
    again = mp.from_json(level.to_json())
    assert lost(level, again) == []
    again.things = again.things[:-1]
    assert lost(level, again) == ["things"]
    hexed = levels("hex+content")
    assert lost(hexed, mp.generate("backtracker", 10, 8, grid="hex", seed=4)) == ["things", "options"]
    assert "bridges" in lost(levels("weave"), mp.generate("backtracker", 10, 8, seed=4))


def test_a_level_code_refuses_or_keeps_room_size():
    level = mp.generate("backtracker", 14, 10, seed=3, rooms=2, room_size=(3, 4))
    assert tuple(level.options["room_size"]) == (3, 4)  # recorded, so files and codes can tell
    again = mp.from_json(level.to_json())
    assert np.array_equal(again.tiles, level.tiles) and tuple(again.options["room_size"]) == (3, 4)
    try:
        code = mp.level_code(level)
    except ValueError:
        return
    assert np.array_equal(mp.level_from_code(code).tiles, level.tiles)


def _lamp(grid, value):
    """A level with one thing of a game's own kind, whose prop ``colour`` is ``value``."""
    if grid == "hex":
        level = mp.generate("wilson", 6, 4, grid="hex", seed=2, place=[mp.Place("lamp", 1)])
        lamp = level.things[0]
        level.things = (mp.CellThing("lamp", lamp.cell, lamp.id, {"colour": value, "name": "[1]"}),)
    else:
        level = mp.generate("backtracker", 10, 8, seed=3, place=[mp.Place("lamp", 1)])
        lamp = level.things[0]
        level.things = (mp.Thing("lamp", lamp.x, lamp.y, lamp.id, {"colour": value, "name": "[1]"}),)
    return level


@pytest.mark.parametrize("fmt", ["tmx", "tmj", "json"])
@pytest.mark.parametrize("grid", ["square", "hex"])
@pytest.mark.parametrize("value", [[1, 2], (3, [4, 5]), None, {"a": [1, None]}, 2.5, True, "[1, 2]"])
def test_a_things_props_read_back_as_they_were_whatever_plain_data_they_hold(grid, fmt, value, tmp_path):
    level = _lamp(grid, value)
    again = write_and_read(level, fmt, str(tmp_path))
    assert lost(level, again) == []
    assert again.things[0].props["name"] == "[1]"  # text that looks like JSON stays text


@pytest.mark.parametrize("fmt", ["tmx", "tmj", "json"])
@pytest.mark.parametrize("grid", ["square", "hex"])
@pytest.mark.parametrize("value", [float("nan"), float("inf"), object()])
def test_a_thing_prop_no_file_can_hold_is_refused_before_any_file(grid, fmt, value, tmp_path):
    level = _lamp(grid, value)
    with pytest.raises((ValueError, TypeError), match="lamp 1|JSON"):
        write_and_read(level, fmt, str(tmp_path))
    assert os.listdir(tmp_path) == []


ASCII = {"#": 1, " ": 0, ".": 0, "S": 2, "E": 3, "D": 4, "k": 5, "$": 6, "m": 7, "|": 8, "-": 9}


def _drawn(level):
    """What ``print(level)`` shows, read back tile by tile into the numbers of ``marked()`` (bridges 8, 9)."""
    lines = str(level).split("\n")
    if level.grid == "hex":
        lines = [(line[1:] if row % 2 else line)[::2] for row, line in enumerate(lines)]
    return np.array([[ASCII[c] for c in line] for line in lines], dtype=np.int8)


@pytest.mark.parametrize("kind", [k for k in SQUARE if k != "corridor2"] + ["hex+content", "wrap+content", "hex"])
def test_text_draws_every_tile_marker_thing_and_bridge_the_level_has(kind, levels):
    """Text has no reader (a drawing, like SVG), but it drops nothing it can draw: each tile's character
    is the level's wall, floor, marker, thing (built-in kinds) or bridge there."""
    level = levels(kind)
    wanted = level.marked().copy()
    if level.kind == "square":
        if level.weave:
            bare = wanted == 0
            wanted[bare & (level.bridges == 1)] = 8
            wanted[bare & (level.bridges == 2)] = 9
    else:  # a grid level's text shows no entrance and exit marks: its openings are floor
        wanted[np.isin(wanted, (2, 3))] = 0
    wanted[wanted > 9] = 0
    assert np.array_equal(_drawn(level), wanted)
    shown = {4: "door", 5: "key", 6: "treasure", 7: "enemy"}
    assert {shown[v] for v in np.unique(_drawn(level)).tolist() if v in shown} == {
        t.kind for t in level.things if t.kind in shown.values()}
