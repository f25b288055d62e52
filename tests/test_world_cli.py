"""``mazeplugin generate ALGORITHM --world --window X0,Y0,X1,Y1``: a region of an endless world in every format."""

from __future__ import annotations

import pytest

import mazeplugin as mp
from mazeplugin.cli import FORMATS, main


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f != "png"] + ["png"])
def test_a_world_window_is_written_in_every_format(tmp_path, fmt):
    if fmt == "png":
        pytest.importorskip("pygame")
    path = tmp_path / f"region.{fmt}"
    argv = ["generate", "kruskal", "--world", "--window=-9,-5,30,22", "--chunk", "6x5", "--seed", "7",
            "--treasure", "1", "--format", fmt, "-o", str(path)]
    treasure = 1
    if fmt == "npy":  # an .npy holds tiles and markers only: a window with treasure is refused, not dropped
        assert main(argv) == 2 and not path.exists()
        argv.remove("--treasure")
        argv.remove("1")
        treasure = 0
    status = main(argv)
    assert status == 0 and path.stat().st_size > 0
    expected = mp.World("kruskal", seed=7, chunk=(6, 5), treasure=treasure).level(-9, -5, 30, 22)
    if fmt == "json":
        loaded = mp.load(path)
        assert (loaded.tiles == expected.tiles).all() and loaded.things == expected.things
        assert loaded.options["world"]["window"] == list(mp.World("kruskal", seed=7, chunk=(6, 5)).cell_window(-9, -5, 30, 22))
    elif fmt == "npy":
        assert (mp.load(path).tiles == expected.tiles).all()
    elif fmt == "ascii":
        assert path.read_text().splitlines()[1] == expected.to_text().splitlines()[1]


def test_the_default_window_is_chunk_zero(capsys):
    assert main(["generate", "backtracker", "--world", "--seed", "3", "--chunk", "4x3", "--format", "digits"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 3 * 2 + 1


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--world", "--size", "4x4"], "--size"),
        (["--window", "0,0,4,4"], "--world"),
        (["--chunk", "4x4"], "--world"),
        (["--world", "--keys", "1"], "keys"),
        (["--world", "--markers", "farthest"], "markers"),
        (["--world", "--require", "dead_ends=1:"], "--require"),
        (["--world", "--window", "4,0,0,4"], "x1 must be at least x0"),
    ],
)
def test_wrong_world_arguments_exit_2_with_one_line(capsys, argv, words):
    assert main(["generate", "kruskal", "--seed", "1"] + argv) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv", [["--world", "--window", "0,0,4"], ["--world", "--chunk", "0x4"]])
def test_malformed_world_arguments_are_usage_errors(capsys, argv):
    with pytest.raises(SystemExit) as exit:
        main(["generate", "kruskal"] + argv)
    assert exit.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_a_generator_that_leaves_pockets_exits_2(capsys):
    assert main(["generate", "union-find", "--world", "--seed", "1"]) == 2
    assert "sealed pockets" in capsys.readouterr().err
