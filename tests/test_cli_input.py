"""The command line's first contact and hostile input (issues 20, 22, 23): codes as seeds, masks,
negative windows, batch file names, Ctrl-C while starting, the dataset hook, generator names."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin import cli
from mazeplugin.cli import batch as cli_batch
from mazeplugin.codes import looks_like_level_code
from test_cli import run  # the command line run in this process: (status, stdout, stderr)
from processes import child_env

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60




# -- issue 22: text shaped like a level code must be one --------------------------------


@pytest.mark.parametrize("seed,reason", [
    ("nosuchgen-24x18-5", "'nosuchgen' is no generator"),
    ("kruskal-0x0-1", "width and height must be at least 1"),
    ("wilson-24x18-5+zz", "'+zz' is not content"),
    ("wilson-24x18-5+k2k3", "gives keys twice"),
    ("backtracker-30x20-7+k2+t1", "'+k2+t1' is not content"),
])
def test_text_shaped_like_a_code_that_is_not_one_is_refused(capsys, seed, reason):
    status, out, err = run(capsys, "generate", "kruskal", "--seed", seed)
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("mazeplugin generate: error: --seed") and reason in err


def test_the_error_says_how_to_give_such_text_as_a_seed(capsys):
    status, _, err = run(capsys, "generate", "prim", "--size", "6x4", "--seed", "my-2x2-castle")
    assert status == 2 and "--seed prim-6x4-my-2x2-castle" in err
    status, out, err = run(capsys, "generate", "prim", "--seed", "prim-6x4-my-2x2-castle")
    assert (status, err) == (0, "")
    assert out == str(mp.generate("prim", 6, 4, seed="my-2x2-castle")) + "\n"


@pytest.mark.parametrize("seed", ["my-castle", "castle+1", "a-b-c", "20x15", "7"])
def test_seeds_with_dashes_that_do_not_look_like_codes_are_still_seeds(capsys, seed):
    status, out, err = run(capsys, "generate", "kruskal", "--size", "5x4", "--seed", seed)
    assert (status, err) == (0, "")
    assert out == str(mp.generate("kruskal", 5, 4, seed=seed)) + "\n"


@pytest.mark.parametrize("seed", ["", "   "])
def test_an_empty_seed_is_refused(capsys, seed):
    status, out, err = run(capsys, "generate", "kruskal", "--seed", seed)
    assert (status, out) == (2, "") and err.count("\n") == 1 and "--seed" in err and "empty" in err


text_seeds = st.text(alphabet=st.characters(whitelist_categories=("L", "N", "Pd", "Po")), min_size=1, max_size=16)


@settings(max_examples=60)
@given(st.sampled_from(["kruskal", "union-find", "eller"]), st.integers(1, 30), st.integers(1, 30),
       st.one_of(st.integers(0, 2**64), text_seeds.filter(lambda s: "+" not in s)))
def test_every_level_code_looks_like_one(algorithm, width, height, seed):
    code = f"{algorithm}-{width}x{height}-{seed}"
    assert looks_like_level_code(code) and looks_like_level_code(f" {code}+k1 ")
    assert mp.parse_level_code(code) == (algorithm, width, height, mp.seeds.resolve_seed(str(seed)))


@given(text_seeds.filter(lambda s: not re.search(r"-[0-9]+[xX][0-9]+-", s)))
def test_text_without_a_size_between_dashes_does_not_look_like_a_code(text):
    assert not looks_like_level_code(text)


def test_a_seed_holding_plus_has_no_code():
    # Its code would read back as content counts, or as an error: no code rather than a wrong one.
    with pytest.raises(ValueError, match="holds '\\+'"):
        mp.level_code(mp.generate("kruskal", 3, 3, seed="a+k1"))
    with pytest.raises(ValueError, match="not content"):
        mp.parse_level_code("kruskal-3x3-a+k1x")


# -- issue 22: ragged masks, negative windows ----------------------------------------------


def test_a_ragged_mask_file_is_refused_naming_the_file_and_line(capsys, tmp_path):
    mask = tmp_path / "shape.txt"
    mask.write_text("####\n####\n###\n####\n")  # a cell missing by mistake in line 3
    status, out, err = run(capsys, "generate", "wilson", "--mask", str(mask))
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert f"--mask {mask}: line 3 has 3 characters but line 1 has 4" in err


@pytest.mark.parametrize("window", ["-40,-40,40,40", "-7,-3,5,1", "-1, -2, 3, 4"])
def test_a_negative_window_may_follow_a_space(capsys, window):
    common = ["generate", "kruskal", "--world", "--chunk", "4x4", "--seed", "3", "--format", "json"]
    status, spaced, err = run(capsys, *common, "--window", window)
    assert status == 0, err
    status, joined, err = run(capsys, *common, f"--window={window}")
    assert status == 0, err
    x0, y0, x1, y1 = (int(v) for v in window.split(","))
    expected = mp.World("kruskal", seed=3, chunk=(4, 4), markers="none").level(x0, y0, x1, y1)
    assert spaced == joined and np.array_equal(mp.from_json(spaced).tiles, expected.tiles)


def test_only_number_lists_after_their_options_are_joined():
    argv = ["generate", "k", "--seed", "-4,4", "--window", "-1,2,3,4", "--", "--window", "-1,2,3,4"]
    assert cli.common.join_number_lists(argv) == [
        "generate", "k", "--seed", "-4,4", "--window=-1,2,3,4", "--", "--window", "-1,2,3,4"]
    assert cli.common.join_number_lists(["--window", "-x"]) == ["--window", "-x"]


# -- issue 22: batch file names are as the documentation says ------------------------------


def _documented_batch_names() -> str:
    """The sentence of the site's "Files and formats" page that names batch files."""
    page = (ROOT / "docs" / "how-to" / "files-and-formats.md").read_text(encoding="utf-8")
    section = page.split("## Level packs", 1)[1].split("\n## ", 1)[0]
    return " ".join(section[section.index("- `batch` writes"):].split("\n- ")[0].split())


def test_the_documented_pack_of_1000_names_its_first_and_last_files(capsys, tmp_path):
    sentence = _documented_batch_names()
    assert "`kruskal-32x32-000.json` … `kruskal-32x32-999.json` in a pack of 1000" in sentence
    assert cli_batch.level_file("kruskal", (32, 32), 0, len(str(999)), "json") == "kruskal-32x32-000.json"
    # The last seed's digits set the padding: a pack ending at seed 999 pads to three.
    status, _, err = run(capsys, "batch", "kruskal", "--size", "32x32", "--count", "2", "--first-seed", "998",
                         "--out", str(tmp_path), "--format", "json", "--quiet")
    assert status == 0, err
    assert sorted(p.name for p in tmp_path.glob("kruskal-*.json")) == ["kruskal-32x32-998.json", "kruskal-32x32-999.json"]


@pytest.mark.parametrize("fmt,extension", [("json", ".json"), ("box", ".txt"), ("tmj", ".tmj"), ("npy", ".npy")])
def test_batch_file_names_are_as_the_documentation_says(capsys, tmp_path, fmt, extension):
    sentence = _documented_batch_names()
    assert "`ALGORITHM-WxH-SEED.EXT`" in sentence and "zeros" in sentence and "`.txt`" in sentence
    assert "`mazeplugin-tiles-PIXELS.png`" in sentence
    status, _, err = run(capsys, "batch", "kruskal", "--size", "5x4", "--count", "3", "--first-seed", "8",
                         "--out", str(tmp_path), "--format", fmt, "--quiet")
    assert status == 0, err
    levels = [f"kruskal-5x4-{seed:02d}{extension}" for seed in (8, 9, 10)]  # padded to the last seed's digits
    tileset = ["mazeplugin-tiles-16.png"] if fmt == "tmj" else []
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(levels + ["manifest.json"] + tileset)


# -- issue 23: generator names stay plain, files stay inside --out --------------------------


@pytest.mark.parametrize("name", ["../escaped", "a/b", "Spiral", "two words", "-dash", "_under", "ünï", "x\0"])
def test_register_refuses_names_that_are_not_plain(name):
    with pytest.raises(ValueError, match="lowercase letters, digits"):
        mp.register(name)(lambda maze, rng: None)
    assert name not in mp.algorithms()


def test_every_registered_name_is_plain():
    for name in mp.algorithms():
        assert set(name) <= mp.registry.NAME_CHARACTERS and name[0] not in "-_"


def test_batch_never_writes_outside_out(capsys, tmp_path, monkeypatch):
    # A name that got past register() (say, edited into the registry) still cannot leave --out.
    level = mp.generate("kruskal", 4, 4, seed=0)
    monkeypatch.setattr(cli_batch, "make_level", lambda args, seed, kwargs: level)
    status, out, err = run(capsys, "batch", "../escaped", "--size", "4x4", "--count", "2",
                           "--out", str(tmp_path / "pack"), "--quiet")
    assert (status, out) == (2, "") and err.count("\n") == 1 and "outside --out" in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == []


# -- issue 23: Ctrl-C while the command starts ----------------------------------------------


def _commands():
    if sys.version_info >= (3, 10):  # sys.orig_argv tells "python -m mazeplugin" while it imports (3.10+)
        yield [sys.executable, "-m", "mazeplugin"]
    script = shutil.which("mazeplugin", path=os.path.dirname(sys.executable))
    if script is not None:
        yield [script]


_PAUSE_HOOK = """
import os, sys

class _PauseInsideThePackage:
    # Holds the command still while it imports mazeplugin.content (after mazeplugin.interrupt set its guard),
    # until the test has sent its Ctrl-C: no race between the signal and the command finishing.
    def find_spec(self, name, path=None, target=None):
        if name == "mazeplugin.content":
            sys.meta_path.remove(self)
            os.write(2, b"paused\\n")
            os.read(0, 1)  # the test never writes: only the signal ends this
        return None

sys.meta_path.insert(0, _PauseInsideThePackage())
"""


@pytest.mark.parametrize("command", list(_commands()), ids=lambda c: os.path.basename(c[-1]))
def test_ctrl_c_while_the_command_starts_prints_one_line_and_exits_130(tmp_path, command):
    (tmp_path / "sitecustomize.py").write_text(_PAUSE_HOOK)
    env = child_env(PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]), MAZEPLUGIN_NO_PLUGINS="1")
    process = subprocess.Popen(command + ["list"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        assert process.stderr.readline() == "paused\n"  # type: ignore[union-attr]
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=TIMEOUT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=TIMEOUT)
    assert process.returncode == 130 and out == "" and err.splitlines() == ["mazeplugin: interrupted"], err[-2000:]


_LATE_CTRL_C = """
import os, signal, sys
sys.argv[0] = "mazeplugin"  # this process is the command (mazeplugin.interrupt.is_command_line)
from mazeplugin.cli import main
status = main(sys.argv[1:])
os.kill(os.getpid(), signal.SIGINT)  # a Ctrl-C as the command returns
raise SystemExit(status)
"""


@pytest.mark.parametrize("argv, status", [(["list"], 0), (["generate", "nosuchgen"], 2)])
def test_a_ctrl_c_as_the_command_returns_keeps_its_exit_status(argv, status):
    done = subprocess.run([sys.executable, "-c", _LATE_CTRL_C, *argv], capture_output=True, text=True,
                          timeout=TIMEOUT, env=child_env(PYTHONPATH=str(ROOT), MAZEPLUGIN_NO_PLUGINS="1"))
    assert done.returncode == status and "Traceback" not in done.stderr, done.stderr[-2000:]


_CTRL_C_AT_EXIT = """
import atexit, os, signal
atexit.register(lambda: os.kill(os.getpid(), signal.SIGINT))  # a Ctrl-C after the command returned
"""


def test_a_ctrl_c_after_python_m_mazeplugin_returned_changes_nothing(tmp_path):
    # `python -m mazeplugin` runs with sys.argv[0] the path of mazeplugin/__main__.py, which the late guard
    # did not know as the command: a Ctrl-C as it ended was a KeyboardInterrupt (exit -2, or a traceback).
    import mazeplugin.dataset as ds

    ds.build({"generator": "kruskal", "width": 3, "height": 3, "count": 2}, tmp_path / "data", workers=1)
    (tmp_path / "hook").mkdir()
    (tmp_path / "hook" / "sitecustomize.py").write_text(_CTRL_C_AT_EXIT)
    env = child_env(PYTHONPATH=os.pathsep.join([str(tmp_path / "hook"), str(ROOT)]), MAZEPLUGIN_NO_PLUGINS="1")
    for module, argv in (("mazeplugin", ["list"]), ("mazeplugin.dataset", ["info", str(tmp_path / "data")])):
        done = subprocess.run([sys.executable, "-m", module, *argv], capture_output=True, text=True,
                              timeout=TIMEOUT, env=env)
        assert done.returncode == 0 and "KeyboardInterrupt" not in done.stderr, (module, done.stderr[-2000:])


def test_python_m_mazeplugin_running_is_the_command():
    import mazeplugin
    from mazeplugin.interrupt import is_command_line

    here = os.path.dirname(mazeplugin.__file__)
    assert is_command_line([os.path.join(here, "__main__.py"), "list"])
    assert is_command_line([os.path.join(here, "dataset", "__main__.py"), "info"])
    assert is_command_line(["-m"], ["python", "-m", "mazeplugin.dataset", "info"])
    assert not is_command_line([os.path.join(here, "cli", "__init__.py")])


_BEFORE_THE_GUARD = """
import _signal, sys

class _Record:
    # Each module imported once mazeplugin's import began, and whether the Ctrl-C guard was in place then.
    def find_spec(self, name, path=None, target=None):
        if name == "mazeplugin" or seen:
            seen.append((name, _signal.getsignal(_signal.SIGINT) is not _signal.default_int_handler))
        return None

seen = []
sys.meta_path.insert(0, _Record())
sys.argv[0] = "mazeplugin"  # this process is the command (mazeplugin.interrupt.is_command_line)
preloaded = sorted(name for name in ("typing", "signal", "threading", "enum") if name in sys.modules)
import mazeplugin
print(repr(([name for name, guarded in seen if not guarded], preloaded)))
"""


def test_nothing_slow_is_imported_before_the_ctrl_c_guard():
    # Before: typing (by mazeplugin/__init__.py), then signal (building its enums) and threading (by
    # mazeplugin.interrupt) were imported before the guard: a Ctrl-C then was a traceback or exit -2.
    done = subprocess.run([sys.executable, "-c", _BEFORE_THE_GUARD], capture_output=True, text=True,
                          timeout=TIMEOUT, env=child_env(PYTHONPATH=str(ROOT), MAZEPLUGIN_NO_PLUGINS="1"))
    assert done.returncode == 0, done.stderr[-2000:]
    unguarded, preloaded = eval(done.stdout.strip().splitlines()[-1])  # noqa: S307 - our own child's repr
    assert set(unguarded) <= {"mazeplugin", "mazeplugin.interrupt", "_signal"}, (unguarded, preloaded)


def test_a_closed_pipe_ends_the_command_quietly():
    # `mazeplugin list | head -3`: the reader goes away; no BrokenPipeError traceback, the status of SIGPIPE.
    process = subprocess.Popen([sys.executable, "-m", "mazeplugin", "list"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=child_env(PYTHONPATH=str(ROOT)))
    process.stdout.close()  # type: ignore[union-attr]  # nobody reads: the first write breaks the pipe
    err = process.stderr.read()  # type: ignore[union-attr]
    process.wait(timeout=TIMEOUT)
    assert process.returncode == cli.BROKEN_PIPE_STATUS == 141 and err == b"", err[-2000:]


def test_the_start_guard_is_only_for_the_command_itself():
    from mazeplugin.interrupt import is_command_line

    assert is_command_line(["/usr/local/bin/mazeplugin"]) and is_command_line(["-m"], ["py", "-mmazeplugin"])
    assert not is_command_line(["-m"], ["python", "-m", "mazeplugin_demo"])
    assert not is_command_line(["/usr/bin/pytest"]) and not is_command_line([])
    # pytest imported mazeplugin, and its Ctrl-C handler was left alone.
    assert getattr(signal.getsignal(signal.SIGINT), "__module__", None) != "mazeplugin.interrupt"


# -- issue 20: the dataset subcommand is another package's ---------------------------------


def test_dataset_is_listed_in_help(capsys):
    status, out, _ = run(capsys, "--help")
    assert status == 0 and re.search(r"^\s+dataset\s+\S", out, re.MULTILINE)


def test_dataset_hands_the_rest_of_the_line_to_its_module(capsys, monkeypatch):
    calls = []
    package = types.ModuleType("mazeplugin.dataset")
    module = types.ModuleType("mazeplugin.dataset.cli")
    module.main = lambda argv: calls.append(argv) or 7  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "mazeplugin.dataset", package)
    monkeypatch.setitem(sys.modules, "mazeplugin.dataset.cli", module)
    status, _, _ = run(capsys, "dataset", "build", "--help", "--size", "-1,-2")
    assert status == 7 and calls == [["build", "--help", "--size", "-1,-2"]]


def test_dataset_missing_is_one_line_and_status_2(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "mazeplugin.dataset", None)  # import of it fails: not installed
    monkeypatch.setitem(sys.modules, "mazeplugin.dataset.cli", None)  # (even if another test loaded it)
    status, out, err = run(capsys, "dataset", "build")
    assert (status, out) == (2, "") and err.count("\n") == 1 and "mazeplugin.dataset.cli" in err


# -- issue 20: the package's shape ----------------------------------------------------------


CLI_MODULES = sorted((ROOT / "mazeplugin" / "cli").glob("*.py"))


@pytest.mark.parametrize("path", CLI_MODULES, ids=lambda p: p.name)
def test_cli_modules_import_no_private_names_and_heavy_modules_only_where_used(path):
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
            assert not private, f"{path.name}:{node.lineno} imports private {private} from {node.module}"
    for node in tree.body:  # module level: nothing that only one subcommand needs, nothing slow
        if isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            assert not module.startswith(("..world", "..formats", "..api", "concurrent", "multiprocessing")), \
                f"{path.name}:{node.lineno} imports {module} at module level"
        if isinstance(node, ast.Import):
            assert not {a.name for a in node.names} & {"multiprocessing", "concurrent.futures"}, path.name
    assert len(path.read_text(encoding="utf-8").splitlines()) < 500


def test_compile_subcommand_hands_over_to_the_compiled_module(capsys):
    status, out, err = run(capsys, "compile", "no-such-kernel")
    assert status == 2 and "mazeplugin compile: unknown kernel 'no-such-kernel'" in err
    status, out, err = run(capsys, "--help")
    assert status == 0 and "compile" in out


# -- issue 21: --grid and --wrap ------------------------------------------------------------


def test_grid_levels_from_the_command_line_are_the_librarys(capsys, tmp_path):
    status, out, err = run(capsys, "generate", "wilson", "--grid", "hex", "--size", "5x4", "--seed", "7")
    assert status == 0 and out == str(mp.generate("wilson", 5, 4, grid="hex", seed=7)) + "\n"
    status, out, _ = run(capsys, "generate", "backtracker", "--grid", "polar", "--size", "4x3", "--seed", "3",
                         "--format", "json")
    assert status == 0 and mp.from_json(out).maze.open.tolist() == \
        mp.generate("backtracker", 4, 3, grid="polar", seed=3).maze.open.tolist()
    status, out, _ = run(capsys, "generate", "kruskal", "--wrap", "xy", "--size", "6x4", "--seed", "2")
    assert status == 0 and out == str(mp.generate("kruskal", 6, 4, wrap="xy", seed=2)) + "\n"
    path = tmp_path / "hex.tmx"
    status, _, _ = run(capsys, "generate", "wilson", "--grid", "hex", "--size", "5x4", "--seed", "7", "-o", str(path))
    assert status == 0 and 'orientation="hexagonal"' in path.read_text()


def test_a_grid_level_code_makes_that_grid(capsys):
    code = mp.level_code(mp.generate("wilson", 5, 4, grid="hex", seed=7))
    status, out, _ = run(capsys, "generate", "kruskal", "--seed", code)
    assert status == 0 and out == str(mp.generate("wilson", 5, 4, grid="hex", seed=7)) + "\n"


@pytest.mark.parametrize("argv,match", [
    (["--grid", "triangle"], "--format ascii: a --grid triangle level is written as svg, png, json"),
    (["--grid", "hex", "--format", "npy", "-o", "x.npy"], "--format npy"),
    (["--grid", "hex", "--corridor", "2"], "corridor"),
    (["--grid", "hex", "--markers", "farthest"], "--markers"),
    (["--wrap", "x", "--world", "--window", "0,0,10,10"], "--world"),
])
def test_grid_options_a_grid_cannot_take_are_one_clear_error(capsys, argv, match):
    size = [] if "--world" in argv else ["--size", "4x3"]
    status, out, err = run(capsys, "generate", "kruskal", *size, "--seed", "1", *argv)
    assert status == 2 and out == "" and match in err and err.count("\n") == 1
