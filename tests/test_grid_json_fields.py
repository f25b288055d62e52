"""Issue 34 item 10: the grid loaders check every field, so a bad file is refused at load, not later.

On the code before, one entry in ``openings`` loaded and then ``exit_tile``, ``marked()`` and
``solution_tiles()`` raised IndexError; ``options`` were never checked (``{"keys": [1, 2]}`` loaded, then
``mp.level_code`` raised TypeError)."""

from __future__ import annotations

import json

import pytest

import mazeplugin as mp


def _data(**kw):
    return json.loads(mp.generate("kruskal", 5, 4, seed=1, **kw).to_json())


@pytest.mark.parametrize("kw", [dict(grid="hex"), dict(grid="triangle"), dict(grid="polar"), dict(wrap="x"),
                                dict(wrap="xy")])
def test_one_opening_is_refused_at_load(kw):
    data = _data(**kw)
    data["openings"] = data["openings"][:1]
    with pytest.raises(mp.LevelFormatError, match=r"must be the grid's two openings .* or none at all"):
        mp.from_json(json.dumps(data))


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(openings=[]), "must be the grid's two openings"),  # markers without their openings
    (lambda d: d.update(entrance=None, exit=None), "openings must be \\[\\] on a level without entrance and exit"),
    (lambda d: d.update(entrance=3), "must be the grid's two openings"),
    (lambda d: d.update(openings=[[0, True], [19, 1]]), "openings must be a list of \\[cell, side or null\\]"),
    (lambda d: d.update(options={"keys": [1, 2]}), "option 'keys': keys must be"),
    (lambda d: d.update(options={"braid": 3}), "option 'braid': braid must be a number from 0 to 1"),
    (lambda d: d.update(options={"grid": "hex"}), "options hold 'grid'"),
    (lambda d: d.update(options=[]), "\"options\" must be an object"),
    (lambda d: d.update(algorithm=[1]), "algorithm must be a generator's name or null"),
    (lambda d: d.update(seed=-1), "seed: "),
    (lambda d: d.update(extra=1), "unknown field 'extra'"),
    (lambda d: d.pop("passages"), "missing field 'passages'"),
])
def test_every_field_is_checked_at_load(change, words):
    data = _data(grid="hex")
    change(data)
    with pytest.raises(mp.LevelFormatError, match=words):
        mp.from_json(json.dumps(data))


def test_a_level_without_markers_and_every_generated_level_still_load():
    for kw in (dict(grid="hex", markers="none"), dict(grid="polar", keys=1), dict(wrap="xy", treasure=2),
               dict(grid="triangle", braid=0.5, enemies=1)):
        level = mp.generate("wilson", 6, 5, seed=2, **kw)
        again = mp.from_json(level.to_json())
        assert again.to_json() == level.to_json()
        if again.entrance is not None and again.grid == "hex":
            assert again.marked().shape == level.marked().shape and again.solution_tiles() == level.solution_tiles()


def test_a_hex_tiled_maps_options_are_checked_too(tmp_path):
    level = mp.generate("kruskal", 5, 4, seed=1, grid="hex")
    level.save(tmp_path / "hex.tmj")
    data = json.loads((tmp_path / "hex.tmj").read_text())
    data["properties"].append({"name": "options", "type": "string", "value": json.dumps({"keys": [1, 2]})})
    (tmp_path / "hex.tmj").write_text(json.dumps(data))
    with pytest.raises(mp.LevelFormatError, match=r"hex\.tmj: option 'keys': keys must be"):
        mp.load(tmp_path / "hex.tmj")


@pytest.mark.parametrize("change, words", [
    (lambda t: t[0].__setitem__(1, 10**6), r"things\[0\]: 'cell' must be an int from 0 to 19"),
    (lambda t: t[0].__setitem__(2, 0), r"things\[0\]: 'id' must be an int >= 1"),
    (lambda t: t[0].__setitem__(0, ""), r"things\[0\]: \"kind\" must be a non-empty string"),
    (lambda t: t[0].__setitem__(3, {"x": [[[[[[[[[[1]]]]]]]]]]}), r"things\[0\]: props: nested more than"),
    (lambda t: t[1].__setitem__(2, t[0][2]), "two things share an id"),
    (lambda t: t.append(["coin"]), r"things\[\d+\] must be \[kind, cell, id, props\]"),
])
def test_a_grid_files_things_get_the_square_files_checks(change, words):
    """One things check for every grid: a grid file's things are refused as a square file's are, naming the field."""
    data = _data(grid="hex", keys=1, treasure=2)
    change(data["things"])
    with pytest.raises(mp.LevelFormatError, match=words):
        mp.from_json(json.dumps(data))


def test_the_two_layouts_name_their_fields_in_one_table():
    """Which fields each kind of file holds is data; a file of either kind missing any one of them is refused."""
    from mazeplugin.formats.jsonio import FORMAT, GRID_FORMAT, LAYOUTS

    for format, kw in ((FORMAT, {}), (GRID_FORMAT, dict(grid="triangle"))):
        data = _data(**kw)
        assert set(data) == LAYOUTS[format].fields[data["version"] - 1]
        for field in sorted(set(data) - {"format"}):
            broken = {k: v for k, v in data.items() if k != field}
            with pytest.raises(mp.LevelFormatError, match=f"missing field {field!r}|\"version\" must be"):
                mp.from_json(json.dumps(broken))


@pytest.mark.parametrize("kw", [{}, dict(grid="hex"), dict(wrap="x")])
def test_a_level_with_a_long_place_kind_loads_back(kw):
    """Whatever mazeplugin writes it reads back: a Place kind is any non-empty name, long ones included."""
    level = mp.generate("kruskal", 8, 6, seed=1, place=[mp.Place("x" * 70, 2)], **kw)
    assert mp.from_json(level.to_json()).things == level.things
