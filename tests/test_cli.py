"""The ``mazeplugin`` command line: output, formats, exit codes, atomic writes, batch packs."""

from __future__ import annotations

import importlib.util

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin import cli
from mazeplugin.formats import jsonio

from processes import child_env

TIMEOUT = 600  # a hang guard for subprocesses, never a speed bound


def run(capsys, *argv: str) -> tuple:
    """Run the command line in this process: ``(exit status, stdout, stderr)``."""
    try:
        status = cli.main(list(argv))
    except SystemExit as exit:  # argparse's own exits (--help, wrong arguments)
        status = exit.code
    out, err = capsys.readouterr()
    return status, out, err


# -- generate ---------------------------------------------------------------------


# run() reads capsys empty after every example, so sharing the fixture is safe.
@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    st.sampled_from(mp.algorithms()),
    st.integers(1, 12),
    st.integers(1, 12),
    st.integers(0, 10**6),
    st.sampled_from(["ascii", "blocks", "box", "digits"]),
)
def test_text_formats_print_the_level_that_generate_makes(capsys, algorithm, width, height, seed, style):
    status, out, err = run(capsys, "generate", algorithm, "--size", f"{width}x{height}",
                           "--seed", str(seed), "--format", style)
    assert (status, err) == (0, "")
    assert out == mp.generate(algorithm, width, height, seed=seed).to_text(style) + "\n"


def test_generate_passes_markers_braid_corridor_and_generator_options(capsys):
    status, out, _ = run(capsys, "generate", "binary-tree", "--size", "9x7", "--seed", "castle",
                         "--markers", "farthest", "--braid", "0.3", "--corridor", "2",
                         "-O", "bias=northwest", "--format", "json")
    assert status == 0
    expected = mp.generate("binary-tree", 9, 7, seed="castle", markers="farthest", braid=0.3,
                           corridor=2, bias="northwest")
    assert out == expected.to_json()


def test_a_fresh_seed_is_printed_so_the_level_can_be_made_again(capsys):
    status, out, err = run(capsys, "generate", "prim", "--size", "5x4", "--format", "json")
    assert status == 0
    seed = int(err.removeprefix("mazeplugin: seed ").strip())
    assert mp.from_json(out).seed == seed
    assert out == mp.generate("prim", 5, 4, seed=seed).to_json()


HEART = [" ##  ## ", "########", "########", " ###### ", "  ####  ", "   ##   "]


def test_a_text_mask_file_shapes_the_level_and_sets_its_size(capsys, tmp_path):
    mask = tmp_path / "heart.txt"
    mask.write_text("\n".join(HEART) + "\n\n")
    status, out, _ = run(capsys, "generate", "wilson", "--mask", str(mask), "--seed", "4", "--format", "json")
    assert status == 0
    assert out == mp.generate("wilson", 8, 6, seed=4, mask=HEART).to_json()
    status, _, err = run(capsys, "generate", "wilson", "--mask", str(mask), "--size", "5x5")
    assert status == 2 and "must match" in err and err.count("\n") == 1
    status, _, err = run(capsys, "generate", "wilson", "--mask", str(tmp_path / "none.txt"))
    assert status == 2 and "--mask" in err and "cannot read it" in err and err.count("\n") == 1


def test_generate_takes_marker_tiles(capsys):
    status, out, _ = run(capsys, "generate", "kruskal", "--size", "4x4", "--seed", "1",
                         "--markers", "1,1,7,7", "--format", "json")
    assert status == 0
    level = mp.from_json(out)
    assert (level.entrance, level.exit) == ((1, 1), (7, 7))


@pytest.mark.parametrize("name,check", [
    ("level.json", lambda p, level: np.array_equal(jsonio.load_json(p).tiles, level.tiles)),
    ("level.npy", lambda p, level: np.array_equal(mp.load(p).marked(), level.marked())),
    ("level.svg", lambda p, level: ET.parse(p).getroot().get("viewBox") == "0 0 13 9"),
    ("level.txt", lambda p, level: p.read_text() == level.to_text() + "\n"),
    ("level.tmx", lambda p, level: "<map " in p.read_text()
        and (p.parent / "mazeplugin-tiles-16.png").exists()),
    ("level.tmj", lambda p, level: json.loads(p.read_text())["width"] == 13),
    pytest.param("level.png", lambda p, level: p.read_bytes()[:4] == b"\x89PNG",
                 marks=pytest.mark.skipif(importlib.util.find_spec("pygame") is None,
                                          reason="PNG files are drawn with pygame")),
])
def test_the_format_follows_the_file_extension(capsys, tmp_path, name, check):
    path = tmp_path / name
    status, out, err = run(capsys, "generate", "kruskal", "--size", "6x4", "--seed", "7", "-o", str(path))
    assert (status, out, err) == (0, "", "")
    assert check(path, mp.generate("kruskal", 6, 4, seed=7))
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left


def test_format_option_beats_the_extension(capsys, tmp_path):
    path = tmp_path / "level.dat"
    status, _, _ = run(capsys, "generate", "prim", "--size", "3x3", "--seed", "2", "--format", "json",
                       "-o", str(path))
    assert status == 0
    assert jsonio.load_json(path).algorithm == "prim"


def test_svg_goes_to_stdout_with_the_solution(capsys):
    status, out, _ = run(capsys, "generate", "kruskal", "--size", "5x5", "--seed", "3", "--format", "svg",
                         "--solution", "--tile", "4")
    assert status == 0
    assert out == mp.generate("kruskal", 5, 5, seed=3).to_svg(cell=4, show_solution=True)


WRONG = [
    ("generate",),
    ("generate", "kruskal", "--size", "20by15"),
    ("generate", "kruskal", "--size", "0x5"),
    ("generate", "kruskal", "--size"),
    ("generate", "kruskall"),
    ("generate", "kruskal", "--braid", "1.5"),
    ("generate", "kruskal", "--corridor", "0"),
    ("generate", "kruskal", "--markers", "middle"),
    ("generate", "kruskal", "--markers", "0,0,3,3"),
    ("generate", "kruskal", "-O", "twist"),
    ("generate", "kruskal", "-O", "twist=1"),
    ("generate", "kruskal", "--format", "gif"),
    ("generate", "kruskal", "--format", "png"),
    ("generate", "kruskal", "-o", "level.gif"),
    ("generate", "kruskal", "--format", "json", "--solution"),
    ("generate", "kruskal", "--markers", "none", "--format", "svg", "--solution"),
    ("generate", "kruskal", "--size", "5000x5000"),
    ("generate", "kruskal", "--no-such-flag"),
    ("stats", "kruskal", "--seeds", "0"),
    ("batch", "kruskal", "--count", "3"),
    ("batch", "kruskal", "--out", "somewhere", "--count", "-1"),
    ("batch", "kruskal", "--out", "somewhere", "--count", "2", "--jobs", "many"),
    ("frobnicate",),
    (),
]


@pytest.mark.parametrize("argv", WRONG, ids=lambda argv: " ".join(argv) or "nothing")
def test_wrong_arguments_exit_2_with_a_one_line_reason(capsys, argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and "error: " in err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_an_unwritable_file_exits_1(capsys, tmp_path):
    status, _, err = run(capsys, "generate", "kruskal", "--seed", "1", "-o", str(tmp_path / "missing" / "level.json"))
    assert status == 1
    assert err.startswith("mazeplugin: error: cannot write ") and err.count("\n") == 1


@pytest.mark.parametrize("command", [(), ("generate",), ("list",), ("stats",), ("batch",)])
def test_every_command_has_help(capsys, command):
    status, out, _ = run(capsys, *command, "--help")
    assert status == 0
    assert out.startswith("usage: mazeplugin")


# -- list and stats ---------------------------------------------------------------


def test_list_names_every_generator_with_its_description(capsys):
    status, out, _ = run(capsys, "list")
    assert status == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == mp.algorithms()
    for line in lines:
        name = line.split()[0]
        assert line.endswith(mp.get_generator(name).description)


def test_stats_averages_the_levels_figures_over_the_seeds(capsys):
    status, out, _ = run(capsys, "stats", "kruskal", "--size", "12x10", "--seeds", "5", "--first-seed", "3",
                         "--json")
    assert status == 0
    figures = json.loads(out)["figures"]
    stats = [mp.generate("kruskal", 12, 10, seed=s).stats() for s in range(3, 8)]
    for key in ("dead_end_fraction", "longest_path", "solution_length", "decision_points", "detour_ratio", "turns"):
        values = [getattr(s, key) for s in stats]
        assert figures[key]["mean"] == pytest.approx(sum(values) / 5)
        assert (figures[key]["min"], figures[key]["max"]) == (min(values), max(values))


def test_stats_table_names_the_figures(capsys):
    status, out, _ = run(capsys, "stats", "backtracker", "--size", "10x10", "--seeds", "3")
    assert status == 0
    assert out.splitlines()[0] == "backtracker 10x10, 3 seeds (0..2)"
    for label in ("dead-end fraction", "longest path", "solution length", "decision points", "detour ratio"):
        assert label in out


# -- batch ------------------------------------------------------------------------


def test_batch_writes_a_level_pack_and_its_manifest(capsys, tmp_path):
    out_dir = tmp_path / "pack"
    status, out, err = run(capsys, "batch", "kruskal", "--size", "8x6", "--count", "12", "--first-seed", "95",
                           "--out", str(out_dir), "--format", "json", "--braid", "0.5")
    assert (status, out) == (0, "")
    manifest = json.loads((out_dir / "manifest.json").read_text())
    assert manifest["generator"] == "kruskal" and (manifest["width"], manifest["height"]) == (8, 6)
    assert [entry["seed"] for entry in manifest["levels"]] == list(range(95, 107))
    assert manifest["levels"][0]["file"] == "kruskal-8x6-095.json"
    assert sorted(p.name for p in out_dir.iterdir()) == sorted(
        [entry["file"] for entry in manifest["levels"]] + ["manifest.json"]
    )
    for entry in manifest["levels"]:
        level = jsonio.load_json(out_dir / entry["file"])
        expected = mp.generate("kruskal", 8, 6, seed=entry["seed"], braid=0.5)
        assert np.array_equal(level.tiles, expected.tiles) and level.seed == entry["seed"]
    # Not a terminal: the bar prints a line per tenth, ending at 100%.
    assert "12/12 100%" in err


def test_batch_manifest_records_the_mask_file(capsys, tmp_path):
    mask = tmp_path / "heart.txt"
    mask.write_text("\n".join(HEART))
    status, _, _ = run(capsys, "batch", "backtracker", "--mask", str(mask), "--count", "2", "--quiet",
                       "--out", str(tmp_path / "pack"))
    assert status == 0
    manifest = json.loads((tmp_path / "pack" / "manifest.json").read_text())
    assert manifest["options"]["mask"] == str(mask) and (manifest["width"], manifest["height"]) == (8, 6)
    level = jsonio.load_json(tmp_path / "pack" / manifest["levels"][1]["file"])
    assert np.array_equal(level.tiles, mp.generate("backtracker", 8, 6, seed=1, mask=HEART).tiles)


def test_batch_on_all_cores_writes_the_same_files(capsys, tmp_path):
    one, many = tmp_path / "one", tmp_path / "many"
    for folder, jobs in ((one, "1"), (many, "0")):
        status, _, _ = run(capsys, "batch", "prim", "--size", "5x5", "--count", "40", "--out", str(folder),
                           "--format", "npy", "--jobs", jobs, "--quiet")
        assert status == 0
    names = sorted(p.name for p in one.iterdir())
    assert names == sorted(p.name for p in many.iterdir()) and len(names) == 41
    for name in names:
        assert (one / name).read_bytes() == (many / name).read_bytes()


def test_a_worker_that_cannot_write_stops_the_batch_with_status_1(capsys, tmp_path):
    (tmp_path / "kruskal-4x4-17.json").mkdir()  # a level's name taken by a folder
    status, _, err = run(capsys, "batch", "kruskal", "--size", "4x4", "--count", "30", "--out", str(tmp_path),
                         "--jobs", "2", "--quiet")
    assert status == 1
    assert err.startswith("mazeplugin: error: cannot write ") and "kruskal-4x4-17.json" in err
    assert not (tmp_path / "manifest.json").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_batch_quiet_prints_nothing(capsys, tmp_path):
    status, out, err = run(capsys, "batch", "eller", "--count", "2", "--out", str(tmp_path), "--quiet",
                           "--format", "ascii")
    assert (status, out, err) == (0, "", "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["eller-20x15-0.txt", "eller-20x15-1.txt",
                                                          "manifest.json"]


def test_interrupted_batch_leaves_only_whole_levels(capsys, tmp_path, monkeypatch):
    written = []
    real = mp.Level.to_json

    def interrupt_on_the_fourth(level):
        if len(written) == 3:
            raise KeyboardInterrupt
        written.append(level.seed)
        return real(level)

    monkeypatch.setattr(mp.Level, "to_json", interrupt_on_the_fourth)
    status, _, err = run(capsys, "batch", "kruskal", "--size", "4x4", "--count", "10", "--out", str(tmp_path))
    assert status == 130 and "interrupted" in err
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["kruskal-4x4-0.json", "kruskal-4x4-1.json", "kruskal-4x4-2.json"]  # no manifest, no temp
    for name in names:
        jsonio.load_json(tmp_path / name)


def test_progress_bar_redraws_one_line_on_a_terminal():
    class Terminal:
        def __init__(self):
            self.text = ""

        def write(self, text):
            self.text += text

        def flush(self):
            pass

        def isatty(self):
            return True

    terminal = Terminal()
    bar = cli.Progress(3, label="pack", stream=terminal, width=6)
    for _ in range(3):
        bar.advance()
    bar.close()
    assert terminal.text.startswith("\rpack [##----] 1/3 33%")
    assert terminal.text.count("\n") == 1 and "pack [######] 3/3 100%" in terminal.text


# -- the installed command --------------------------------------------------------


def test_python_dash_m_and_the_console_script_run(tmp_path):
    script = shutil.which("mazeplugin", path=os.path.dirname(sys.executable))
    assert script is not None, "the mazeplugin console script is not installed next to this Python"
    for command in ([sys.executable, "-m", "mazeplugin"], [script]):
        done = subprocess.run(command + ["generate", "backtracker", "--size", "3x2", "--seed", "castle"],
                              capture_output=True, text=True, timeout=TIMEOUT, env=child_env())
        assert done.returncode == 0, done.stderr
        assert done.stdout == str(mp.generate("backtracker", 3, 2, seed="castle")) + "\n"
        wrong = subprocess.run(command + ["generate", "kruskal", "--size", "big"],
                               capture_output=True, text=True, timeout=TIMEOUT, env=child_env())
        assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1



VAULT_TEXT = """\
###+#####+###
#...........#
#.#.#...#.#.#
+...........+
#.#.#...#.#.#
#...........#
#######+#####
"""


def test_generate_places_rooms_and_prefab_files(capsys, tmp_path):
    vault = tmp_path / "vault.txt"
    vault.write_text(VAULT_TEXT)
    status, out, _ = run(capsys, "generate", "backtracker", "--size", "20x12", "--seed", "7", "--format", "json",
                         "--room", f"{vault}@4,3", "--room", "13,1,5,4", "--doors", "2")
    assert status == 0
    expected = mp.generate("backtracker", 20, 12, seed=7, doors=2,
                           rooms=[mp.Prefab.from_text(VAULT_TEXT, at=(4, 3)), (13, 1, 5, 4)])
    assert np.array_equal(mp.from_json(out).tiles, expected.tiles)
    status, out, _ = run(capsys, "generate", "wilson", "--size", "20x12", "--seed", "7", "--format", "json",
                         "--rooms", "3", "--doors", "0.5")
    assert status == 0
    assert np.array_equal(mp.from_json(out).tiles, mp.generate("wilson", 20, 12, seed=7, rooms=3, doors=0.5).tiles)


@pytest.mark.parametrize("args,message", [
    (["--rooms", "2", "--room", "1,1,3,3"], "not both"),
    (["--room", "missing.txt"], "cannot read it"),
    (["--room", "0,0,30,3"], "room 1 (30 × 3 cells) is too large"),
    (["--rooms", "-1"], "--rooms"),
    (["--doors", "lots", "--rooms", "1"], "--doors"),
])
def test_bad_rooms_on_the_command_line_are_one_line_errors(capsys, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, "generate", "wilson", "--size", "20x12", *args)
    assert status == 2 and message in err and err.count("\n") == 1
