"""``mazeplugin generate dungeon``: --rooms, --locks and --pattern (the help's "dungeon" group), a dungeon's level
code as --seed, every output format, and one line (status 2) naming the option for what a dungeon does not take."""

from __future__ import annotations

import pytest

import mazeplugin as mp

from test_cli import run

CODE = "dungeon-lock-and-key-24x24-5+r8k1"


def made():
    return mp.generate("dungeon", 24, 24, seed=5, rooms=8, locks=1, pattern="lock-and-key")


def test_options_and_the_code_as_seed_print_the_level_mp_makes(capsys):
    level = made()
    assert mp.level_code(level) == CODE
    status, out, _ = run(capsys, "generate", "dungeon", "--size", "24x24", "--seed", "5", "--rooms", "8",
                         "--locks", "1", "--pattern", "lock-and-key")
    assert status == 0 and out == str(level) + "\n"
    status, out, err = run(capsys, "generate", "kruskal", "--seed", CODE, "--size", "9x9")
    assert status == 0 and out == str(mp.level_from_code(CODE)) + "\n" == str(level) + "\n"
    assert "ALGORITHM kruskal and --size 9x9 ignored" in err
    status, out, _ = run(capsys, "generate", "dungeon", "--seed", "dungeon-24x24-5")  # the default pattern
    assert status == 0 and out == str(mp.level_from_code("dungeon-24x24-5")) + "\n"


@pytest.mark.parametrize("name", ["level.json", "level.tmx"])
def test_files_load_back_as_the_same_dungeon_with_its_mission(capsys, tmp_path, name):
    path = tmp_path / name
    assert run(capsys, "generate", "dungeon", "--seed", CODE, "-o", str(path))[0] == 0
    level, loaded = made(), mp.load(path)
    assert loaded.tiles.tobytes() == level.tiles.tobytes() and loaded.things == level.things
    assert loaded.mission is not None and len(loaded.mission.nodes) == 8


def test_a_png_is_written(capsys, tmp_path):
    pytest.importorskip("pygame")
    path = tmp_path / "level.png"
    assert run(capsys, "generate", "dungeon", "--seed", CODE, "-o", str(path))[0] == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv, names", [
    (["kruskal", "--locks", "2"], "--locks"),
    (["kruskal", "--pattern", "valve"], "--pattern"),
    (["dungeon", "--keys", "2"], "--locks N"),
    (["dungeon", "--treasure", "2"], "--treasure"),
    (["dungeon", "--pattern", "maze"], "--pattern"),
    (["dungeon", "--locks", "-1"], "--locks"),
    (["dungeon", "--seed", "dungeon-maze-24x24-5"], "not a dungeon pattern"),
    (["dungeon", "--seed", "dungeon-valve-24x24-5+r8t2"], "not treasure"),
    (["dungeon", "--size", "6x6", "--rooms", "30"], "width="),
    (["dungeon", "--locks", "99"], "--locks"),
    (["dungeon", "--grid", "hex"], "--grid"),
    (["dungeon", "--wrap", "x"], "--wrap"),
    (["dungeon", "--weave"], "--weave"),
    (["dungeon", "--braid", "0.5"], "--braid"),
    (["dungeon", "--markers", "farthest"], "--markers"),
])
def test_what_a_dungeon_does_not_take_is_one_line_naming_it(capsys, argv, names):
    status, out, err = run(capsys, "generate", *argv)
    assert status == 2 and not out and names in err and len(err.strip().splitlines()) == 1


def test_drops_from_the_command_line_and_from_a_code_with_d(capsys):
    made = mp.generate("dungeon", 24, 24, seed=5, rooms=8, locks=1, pattern="valve", drops=True)
    status, out, _ = run(capsys, "generate", "dungeon", "--size", "24x24", "--seed", "5", "--rooms", "8",
                         "--locks", "1", "--pattern", "valve", "--drops")
    assert status == 0 and out == str(made) + "\n"
    status, out, _ = run(capsys, "generate", "dungeon", "--seed", "dungeon-valve-24x24-5+r8k1d")
    assert status == 0 and out == str(made) + "\n"
    assert [t for t in made.things if t.kind == "drop"]
    status, _, err = run(capsys, "generate", "kruskal", "--drops")
    assert status == 2 and "--drops is for dungeons" in err
