"""``mazeplugin generate dungeon``: --rooms, --locks and --pattern (the help's "dungeon" group), a dungeon's level
code as --seed, every output format, and one line (status 2) naming the option for what a dungeon does not take."""

from __future__ import annotations

import json

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
    (["dungeon", "--shapes", "star"], "--shapes"),
    (["dungeon", "--interior", "nosuch"], "nosuch"),
    (["kruskal", "--interior", "backtracker"], "--interior"),
    (["dungeon", "--pattern", "maze"], "--pattern"),
    (["dungeon", "--locks", "-1"], "--locks"),
    (["dungeon", "--seed", "dungeon-maze-24x24-5"], "not a dungeon pattern"),
    (["dungeon", "--seed", "dungeon-valve-24x24-5+r8w"], "not weave"),
    (["dungeon", "--size", "6x6", "--rooms", "30"], "in --size 6x6 cells"),
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


# -- batch and stats take the dungeon's options as generate does ------------------------------------------------


def test_batch_writes_the_dungeons_generate_makes_with_its_options_in_the_manifest(capsys, tmp_path):
    out = tmp_path / "pack"
    status, _, err = run(capsys, "batch", "dungeon", "--size", "24x24", "--rooms", "8", "--locks", "1",
                         "--pattern", "lock-and-key", "--count", "3", "--first-seed", "4", "--out", str(out), "-q")
    assert status == 0, err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["options"] == {"markers": "border", "rooms": 8, "locks": 1, "pattern": "lock-and-key"}
    for seed in (4, 5, 6):
        level = mp.load(out / f"dungeon-24x24-{seed}.json")
        expected = mp.generate("dungeon", 24, 24, seed=seed, rooms=8, locks=1, pattern="lock-and-key")
        assert level.tiles.tobytes() == expected.tiles.tobytes() and level.things == expected.things
        assert mp.level_code(level) == mp.level_code(expected)


def test_stats_averages_the_figures_of_generates_dungeons(capsys):
    status, out, _ = run(capsys, "stats", "dungeon", "--size", "24x24", "--rooms", "8", "--locks", "1",
                         "--pattern", "lock-and-key", "--seeds", "3", "--json")
    assert status == 0
    figures = json.loads(out)["figures"]
    lengths = [mp.generate("dungeon", 24, 24, seed=s, rooms=8, locks=1, pattern="lock-and-key").stats().solution_length
               for s in range(3)]
    assert figures["solution_length"] == {"mean": sum(lengths) / 3, "min": min(lengths), "max": max(lengths)}


@pytest.mark.parametrize("command", ["generate", "batch", "stats"])
def test_an_argument_the_library_names_rooms_is_named_by_its_option(capsys, tmp_path, command):
    with pytest.raises(ValueError, match=r"rooms=2 is too few for pattern 'hidden'"):
        mp.generate("dungeon", 24, 24, seed=0, rooms=2, pattern="hidden")
    extra = ["--count", "2", "--out", str(tmp_path / "p")] if command == "batch" else []
    status, out, err = run(capsys, command, "dungeon", "--size", "24x24", "--rooms", "2", "--pattern", "hidden", *extra)
    assert status == 2 and not out and len(err.strip().splitlines()) == 1
    assert "--rooms 2 is too few for --pattern hidden with --locks 1" in err and "rooms=" not in err


@pytest.mark.parametrize("command", ["batch", "stats"])
def test_a_seed_whose_dungeon_does_not_fit_is_named_with_the_size_option(capsys, tmp_path, command):
    extra = ["--count", "2", "--out", str(tmp_path / "p")] if command == "batch" else ["--seeds", "2"]
    status, _, err = run(capsys, command, "dungeon", "--size", "10x10", "--rooms", "6", "--pattern", "two-paths",
                         "--locks", "0", *extra)  # seed 0's mission does not fit in 10 x 10 cells
    assert status == 2 and "seed 0: the mission" in err and "--size 10x10" in err and "width=" not in err


@pytest.mark.parametrize("command", ["batch", "stats"])
@pytest.mark.parametrize("argv, names", [
    (["kruskal", "--locks", "2"], "--locks is for dungeons"),
    (["kruskal", "--pattern", "valve"], "--pattern is for dungeons"),
    (["dungeon", "--braid", "0.5"], "--braid: a dungeon's shape"),
    (["dungeon", "--locks", "99"], "--locks"),
])
def test_batch_and_stats_refuse_what_generate_refuses(capsys, tmp_path, command, argv, names):
    extra = ["--count", "2", "--out", str(tmp_path / "p")] if command == "batch" else []
    status, out, err = run(capsys, command, *argv, *extra)
    assert status == 2 and not out and names in err and len(err.strip().splitlines()) == 1


def test_room_shapes_maze_rooms_treasure_and_enemies_from_the_command_line(capsys):
    status, out, _ = run(capsys, "generate", "dungeon", "--size", "40x40", "--seed", "3", "--rooms", "12",
                         "--pattern", "gauntlet", "--shapes", "L,plus", "--interior", "backtracker",
                         "--treasure", "2", "--enemies", "2")
    made = mp.generate("dungeon", 40, 40, seed=3, rooms=12, pattern="gauntlet", shapes=("L", "plus"),
                       interior="backtracker", treasure=2, enemies=2)
    assert status == 0 and out == str(made) + "\n"
    code = "dungeon-gauntlet-34x34-7+r16k2t2e1"
    status, out, _ = run(capsys, "generate", "dungeon", "--seed", code)
    assert status == 0 and out == str(mp.level_from_code(code)) + "\n"


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
