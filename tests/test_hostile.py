"""Hostile input: files that are not files, plugins that misbehave, requests that would run away.

Every case from issue 12 is here as a regression test, plus hypothesis fuzzing
of the loaders and of ``generate``'s arguments. Cases where a hang or a giant
allocation is the risk run in a subprocess under a memory limit
(``RLIMIT_AS``) and a timeout. Files live in ``tmp_path`` only: devices are
made there with ``mknod`` (as root; skipped otherwise), FIFOs with
``mkfifo``; nothing here opens a real ``/dev`` or ``/proc`` path.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import resource
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples

import mazeplugin as mp
from mazeplugin import cli, registry
from mazeplugin.formats import LevelFormatError, jsonio, rebuild
from mazeplugin.formats.files import UnsafeDestinationError, read_limited, write_bytes, write_text

from processes import child_env

HAS_PYGAME = importlib.util.find_spec("pygame") is not None
TIMEOUT = 600  # a hang guard for subprocesses, never a speed bound: wide enough for a loaded machine
HANG_GUARD = 600
MEMORY_LIMIT = 3 << 30  # a subprocess's address space: far below what a runaway request would take
ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv: str) -> tuple:
    """Run the command line in this process: ``(exit status, stdout, stderr)``."""
    try:
        status = cli.main(list(argv))
    except SystemExit as exit:
        status = exit.code
    out, err = capsys.readouterr()
    return status, out, err


def _limit_memory() -> None:  # preexec_fn: runs in the child before Python starts
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def python(code: str, *args: str, timeout: float = TIMEOUT, **kwargs) -> subprocess.CompletedProcess:
    """Run Python code in a fresh process under the memory limit and a timeout (no plugins)."""
    env = child_env(MAZEPLUGIN_NO_PLUGINS="1", OPENBLAS_NUM_THREADS="1", PYTHONPATH=str(ROOT),
                    SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    kwargs.setdefault("capture_output", True)
    return subprocess.run([sys.executable, "-c", code, *args], text=True, env=env, timeout=timeout,
                          preexec_fn=_limit_memory, **kwargs)


def command(*args: str, timeout: float = TIMEOUT, **kwargs) -> subprocess.CompletedProcess:
    """Run ``python -m mazeplugin ARGS`` under the memory limit and a timeout."""
    return python("import sys\nfrom mazeplugin.cli import main\nsys.exit(main(sys.argv[1:]))", *args,
                  timeout=timeout, **kwargs)


@pytest.fixture
def level():
    return mp.generate("kruskal", 5, 4, seed=3)


def _char_device(path: Path) -> Path:
    """A character device node like /dev/null (1, 3), made inside tmp_path; skip where mknod is not allowed."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError) as error:
        pytest.skip(f"cannot make a device node here: {error}")
    return path


def _zero_device(path: Path) -> Path:
    """A character device node like /dev/zero (1, 5): endless bytes if anything ever read it."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 5))
    except (PermissionError, AttributeError, OSError) as error:
        pytest.skip(f"cannot make a device node here: {error}")
    return path


def _block_device(path: Path) -> Path:
    """A block device node for an unassigned device number (opening it fails: nothing can be harmed)."""
    try:
        os.mknod(path, stat.S_IFBLK | 0o600, os.makedev(240, 0))
    except (PermissionError, AttributeError, OSError) as error:
        pytest.skip(f"cannot make a device node here: {error}")
    return path


def _leftovers(folder: Path) -> list:
    return sorted(p.name for p in folder.iterdir() if ".tmp" in p.name or p.name.startswith("."))


SAVERS = {
    "json": lambda level, path: level.save(path, format="json"),
    "npy": lambda level, path: level.save(path, format="npy"),
    "tmx": lambda level, path: level.save(path, format="tmx"),
    "tmj": lambda level, path: level.save(path, format="tmj"),
    "png": lambda level, path: level.save(path, format="png", tile=2),
}
SAVER_NAMES = [
    pytest.param(n, marks=pytest.mark.skipif(not HAS_PYGAME, reason="PNG needs pygame")) if n == "png" else n
    for n in SAVERS
]


# -- writing: never a rename over anything but a regular file ---------------------


@pytest.mark.parametrize("fmt", SAVER_NAMES)
def test_every_save_follows_a_symlink_and_replaces_its_target(tmp_path, level, fmt):
    target = tmp_path / "real" / f"level.{fmt}"
    target.parent.mkdir()
    target.write_bytes(b"old")
    link = tmp_path / f"link.{fmt}"
    link.symlink_to(target)
    SAVERS[fmt](level, link)
    assert link.is_symlink() and os.readlink(link) == str(target)  # the link itself is left alone
    assert target.read_bytes() != b"old" and target.stat().st_size > 0
    assert _leftovers(tmp_path) == [] and _leftovers(target.parent) == []


def test_a_symlink_chain_and_a_dangling_symlink_are_followed(tmp_path, level):
    final = tmp_path / "final.json"
    (tmp_path / "b.json").symlink_to(final)  # dangling until written
    (tmp_path / "a.json").symlink_to(tmp_path / "b.json")
    level.save(tmp_path / "a.json")
    assert (tmp_path / "a.json").is_symlink() and (tmp_path / "b.json").is_symlink()
    assert mp.load(final).tiles.tobytes() == level.tiles.tobytes()


def test_an_existing_file_keeps_its_permissions(tmp_path, level):
    path = tmp_path / "level.json"
    path.write_text("old")
    path.chmod(0o640)
    level.save(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


@pytest.mark.parametrize("fmt", ["json", "npy"] + (["png"] if HAS_PYGAME else []))
def test_a_character_device_is_written_through_not_replaced(tmp_path, level, fmt):
    device = _char_device(tmp_path / "null-device")
    SAVERS[fmt](level, device)
    assert stat.S_ISCHR(os.lstat(device).st_mode)  # still the device node
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("fmt", ["json", "npy"] + (["png"] if HAS_PYGAME else []))
def test_a_fifo_is_written_through_to_its_reader(tmp_path, level, fmt):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    SAVERS[fmt](level, fifo)
    reader.join(TIMEOUT)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    expected = tmp_path / f"expected.{fmt}"
    SAVERS[fmt](level, expected)
    assert received == [expected.read_bytes()]


@pytest.mark.parametrize("fmt", ["json", "npy", "tmx", "tmj"])
def test_a_block_device_or_a_socket_is_refused_and_left_alone(tmp_path, level, fmt):
    disk = _block_device(tmp_path / "disk")
    with pytest.raises(UnsafeDestinationError, match="block device"):
        SAVERS[fmt](level, disk)
    assert stat.S_ISBLK(os.lstat(disk).st_mode)
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "sock"))
        with pytest.raises(UnsafeDestinationError, match="socket"):
            SAVERS[fmt](level, tmp_path / "sock")
        assert stat.S_ISSOCK(os.lstat(tmp_path / "sock").st_mode)
    finally:
        server.close()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".png")] == []  # no tileset written either


def test_a_tiled_map_is_refused_on_a_device_before_anything_is_written(tmp_path, level):
    device = _char_device(tmp_path / "null-device")
    with pytest.raises(UnsafeDestinationError, match="tileset image beside it"):
        level.save(device, format="tmx")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null-device"]


def test_a_directory_is_refused(tmp_path, level):
    with pytest.raises(IsADirectoryError):
        level.save(tmp_path, format="json")
    with pytest.raises(IsADirectoryError):
        write_bytes(tmp_path, b"x")


def test_cli_output_to_a_device_or_symlink(tmp_path):
    device = _char_device(tmp_path / "null-device")
    done = command("generate", "kruskal", "--seed", "1", "--format", "json", "-o", str(device))
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(os.lstat(device).st_mode)
    disk = _block_device(tmp_path / "disk")
    done = command("generate", "kruskal", "--seed", "1", "--format", "json", "-o", str(disk))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "block device" in done.stderr
    target = tmp_path / "target.json"
    target.write_text("old")
    (tmp_path / "link.json").symlink_to(target)
    done = command("generate", "kruskal", "--seed", "1", "-o", str(tmp_path / "link.json"))
    assert done.returncode == 0 and (tmp_path / "link.json").is_symlink()
    assert mp.load(target).seed == 1


@pytest.mark.parametrize("fmt", ["ascii", "json", "svg", "npy"] + (["png"] if HAS_PYGAME else []))
def test_dash_o_dash_prints_every_format_to_a_pipe(tmp_path, fmt):
    done = subprocess.run(
        [sys.executable, "-m", "mazeplugin", "generate", "kruskal", "--seed", "1", "--size", "5x4",
         "--format", fmt, "-o", "-"],
        capture_output=True, timeout=TIMEOUT, env=child_env(MAZEPLUGIN_NO_PLUGINS="1", PYGAME_HIDE_SUPPORT_PROMPT="1"),
    )
    assert done.returncode == 0, done.stderr
    expected = tmp_path / f"level.{fmt}"
    assert cli.main(["generate", "kruskal", "--seed", "1", "--size", "5x4", "--format", fmt,
                     "-o", str(expected)]) == 0
    assert done.stdout == expected.read_bytes()
    assert os.listdir(tmp_path) == [expected.name]


def test_output_naming_the_standard_output_writes_to_it(tmp_path):
    # Standard output is a FIFO made here, so the path names it without /dev/stdout or /proc.
    fifo = tmp_path / "stdout-fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    with open(fifo, "wb") as out:
        done = command("generate", "kruskal", "--seed", "1", "--size", "4x3", "--format", "json",
                       "-o", str(fifo), stdout=out, stderr=subprocess.PIPE, capture_output=False)
    reader.join(TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert mp.from_json(received[0]).seed == 1 and stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_link_to_a_redirected_standard_output_appends_instead_of_replacing(tmp_path):
    log = tmp_path / "log.txt"
    log.write_text("earlier lines\n")
    (tmp_path / "out").symlink_to(log)  # like /dev/stdout while stdout is `>> log.txt`
    with open(log, "ab") as out:
        done = command("generate", "kruskal", "--seed", "1", "--size", "3x2", "-o", str(tmp_path / "out"),
                       "--format", "ascii", stdout=out, stderr=subprocess.PIPE, capture_output=False)
    assert done.returncode == 0, done.stderr
    assert log.read_text() == "earlier lines\n" + str(mp.generate("kruskal", 3, 2, seed=1)) + "\n"


# -- reading: at most the limit, only regular files, never blocking -----------------


def test_read_limited_refuses_fifos_devices_directories_and_oversize(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(LevelFormatError, match=r"fifo: is a FIFO .*regular file"):
        read_limited(fifo, 100, what="a level")
    zero = _zero_device(tmp_path / "zero")
    with pytest.raises(LevelFormatError, match=r"zero: is a character device"):
        read_limited(zero, 100, what="a level")
    with pytest.raises(LevelFormatError, match=r"is a directory"):
        read_limited(tmp_path, 100, what="a level")
    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    with pytest.raises(LevelFormatError, match=r"big: 101 bytes is too large for a level \(at most 100 bytes\)"):
        read_limited(big, 100, what="a level")
    assert read_limited(big, 101, what="a level") == b"x" * 101


LOADERS = {
    "load_json": "import mazeplugin as mp; mp.load(PATH)",
    "formats.load_json": "import mazeplugin.formats as f; f.load_json(PATH)",
    "load_npy": "import mazeplugin as mp; mp.load(PATH)",
    "mask picture": "import mazeplugin as mp; mp.generate('kruskal', 2, 2, mask=PATH)",
}


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_loaders_refuse_a_fifo_or_an_endless_device_without_hanging(tmp_path, loader, kind):
    if loader == "mask picture" and not HAS_PYGAME:
        pytest.skip("picture masks need pygame")
    path = tmp_path / kind
    if kind == "fifo":
        os.mkfifo(path)
    else:
        _zero_device(path)
    code = "PATH = __import__('sys').argv[1]\n" + LOADERS[loader]
    done = python(code, str(path))  # a FIFO or device read would hang: the hang guard fails it
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert "ValueError" in last or "LevelFormatError" in last, done.stderr
    assert str(path) in last and ("FIFO" in last or "character device" in last)


def test_the_size_check_reads_no_more_than_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonio, "MAX_JSON_CHARS", 1000)
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * 5000)
    with pytest.raises(LevelFormatError, match="too large for a level"):
        jsonio.load_json(path)


# -- JSON: nesting, options, the outer wall ---------------------------------------


def test_deeply_nested_json_is_a_format_error_not_a_recursion_error():
    text = "[" * 2000 + "]" * 2000
    with pytest.raises(LevelFormatError, match="nested too deep"):
        mp.from_json(text)
    deep_options = json.loads(mp.generate("kruskal", 3, 2, seed=1).to_json())
    deep_options["options"] = {"x": json.loads("[" * 50 + "]" * 50)}
    with pytest.raises(LevelFormatError, match="option 'x': nested more than 8 deep"):
        mp.from_json(json.dumps(deep_options))


def _level_data(**changes):
    data = json.loads(mp.generate("kruskal", 4, 3, seed=7).to_json())
    data.update(changes)
    return data


@pytest.mark.parametrize("options,message", [
    ({"padding": list(range(100_000))}, "option 'padding': larger than 65,536 bytes"),
    ({"padding": "x" * 70_000}, "larger than 65,536 bytes"),
    ({"braid": "lots"}, "option 'braid': braid must be a number"),
    ({"braid": 1.5}, "option 'braid': braid must be a number from 0 to 1"),
    ({"mask": ["####"] * 2}, "option 'mask': mask must be a list of 3 row strings"),
    ({"mask": ["##x#"] * 3}, "mask row 0 must be a string of 4 '#'"),
    ({"markers": "middle"}, "option 'markers': markers must be one of"),
    ({"corridor": 3}, "option 'corridor': corridor is 3, but the level's corridor is 1"),
    ({"bias": "north"}, "unknown option 'bias' for 'kruskal'"),
    ([1, 2], "\"options\" must be an object"),
])
def test_options_are_checked_on_load(options, message):
    with pytest.raises(LevelFormatError, match=message):
        mp.from_json(json.dumps(_level_data(options=options)))


def test_a_built_in_generators_own_options_are_checked_on_load():
    data = json.loads(mp.generate("rooms", 9, 9, seed=1, prune=0.5, room_size=(2, 3)).to_json())
    assert mp.from_json(json.dumps(data)).options == {"prune": 0.5, "room_size": [2, 3]}
    data["options"]["prune"] = "all"
    with pytest.raises(LevelFormatError, match="prune must be a number from 0 to 1"):
        mp.from_json(json.dumps(data))
    data["options"] = {"strategy": "newest:2"}
    data["generator"] = "growing-tree"
    with pytest.raises(LevelFormatError, match="growing-tree strategy"):
        mp.from_json(json.dumps(data))


def test_every_recorded_option_generate_writes_loads_back():
    level = mp.generate("wilson", 6, 4, seed=2, braid=0.5, corridor=2, wall=1, markers="farthest",
                        mask=["######", "##..##", "######", "######"])
    again = mp.from_json(level.to_json())
    assert again.options == json.loads(level.to_json())["options"]
    tiles = mp.generate("kruskal", 4, 3, seed=2, markers=[(1, 1), (7, 5)])
    assert mp.from_json(tiles.to_json()).options == {"markers": [[1, 1], [7, 5]]}


def test_an_unmarked_hole_in_the_outer_wall_is_refused():
    data = _level_data()
    rows = data["tiles"]
    rows[0] = rows[0][:3] + "0" + rows[0][4:]  # open the north wall above cell (1, 0)
    with pytest.raises(LevelFormatError, match=r"outer wall is open at tile \(3, 0\) but no entrance or exit"):
        mp.from_json(json.dumps(data))
    # Markers removed from a level whose border they open: both holes are now unmarked.
    with pytest.raises(LevelFormatError, match="outer wall is open at tile"):
        mp.from_json(json.dumps(_level_data(entrance=None, exit=None)))


def test_wide_corridor_openings_are_marked_by_one_of_their_tiles():
    level = mp.generate("kruskal", 4, 3, seed=7, corridor=3, wall=2, markers="random")
    again = mp.from_json(level.to_json())
    assert (again.entrance, again.exit) == (level.entrance, level.exit)


def test_npy_with_markers_must_mark_its_openings_but_plain_tiles_need_not(tmp_path):
    level = mp.generate("kruskal", 4, 3, seed=7)
    marked = level.marked()
    marked[level.exit[1], level.exit[0]] = 0  # the exit's hole is left, unmarked
    np.save(tmp_path / "half.npy", marked)
    with pytest.raises(LevelFormatError, match="outer wall is open"):
        mp.load(tmp_path / "half.npy")
    np.save(tmp_path / "plain.npy", level.tiles)
    assert mp.load(tmp_path / "plain.npy").entrance is None


def test_npy_tile_data_is_bounded_in_bytes(tmp_path, monkeypatch):
    monkeypatch.setattr(rebuild, "MAX_TILES", 1000)
    np.save(tmp_path / "wide.npy", np.ones((11, 21), dtype=np.int64))
    with pytest.raises(LevelFormatError, match="bytes of int64 tiles is too large"):
        mp.load(tmp_path / "wide.npy")


def test_save_json_and_load_json_round_trip(tmp_path):
    level = mp.generate("prim", 7, 5, seed="castle", markers="farthest", braid=0.25)
    level.save(tmp_path / "level.json")
    again = mp.load(tmp_path / "level.json")
    assert again.tiles.tobytes() == level.tiles.tobytes()
    assert (again.algorithm, again.seed, again.entrance, again.exit) == ("prim", "castle", level.entrance, level.exit)
    assert (tmp_path / "level.json").read_text() == level.to_json()


# -- batch: Ctrl-C leaves no temporary file, ever -----------------------------------

BATCH_RUNS = 4


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_to_the_process_group_leaves_no_temporary_files(tmp_path, jobs):
    for run_number in range(BATCH_RUNS):
        out = tmp_path / f"pack{run_number}"
        process = subprocess.Popen(
            [sys.executable, "-m", "mazeplugin", "batch", "kruskal", "--size", "40x40", "--count", "100000",
             "--out", str(out), "--jobs", jobs, "--quiet"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
            env=child_env(MAZEPLUGIN_NO_PLUGINS="1"),
        )
        # Let it get going, a little further each run: wait for files, not for a time.
        polls = 0
        while not out.exists() or len(os.listdir(out)) < 3 + 2 * run_number:
            assert process.poll() is None, f"batch ended before it was interrupted: {process.stderr.read()}"
            polls += 1
            assert polls < HANG_GUARD * 50, "batch wrote no files (hang guard)"
            time.sleep(0.02)
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        _, err = process.communicate(timeout=TIMEOUT)
        assert process.returncode == 130, err
        assert "interrupted" in err
        names = os.listdir(out)
        assert [n for n in names if ".tmp" in n or n.startswith(".")] == []
        assert "manifest.json" not in names
        for name in names[:20]:
            mp.load(out / name)  # every file left is a whole level


# -- plugins cannot break the seed promise ---------------------------------------


class EntryPoint:
    def __init__(self, name, load):
        self.name, self.value, self._load = name, f"hostile:{name}", load

    def load(self):
        return self._load()


@pytest.fixture
def plugins(monkeypatch):
    points = []
    monkeypatch.setattr(registry, "_entry_points", lambda: list(points))
    before = dict(registry._REGISTRY)
    yield points
    registry._REGISTRY.clear()
    registry._REGISTRY.update(before)


def _kruskal_digest():
    return mp.generate("kruskal", 12, 9, seed=5).tiles.tobytes()


def _fake(maze, rng):
    """Fake: opens nothing useful."""
    maze.east[:, :-1] = True
    maze.south[:-1, 0] = True


def _module(action):
    def load():
        import types

        action()
        return types.ModuleType("hostile_plugin")

    return load


@pytest.mark.parametrize("name,action", [
    ("replace", lambda: mp.register("kruskal", replace=True)(_fake)),
    ("unregister", lambda: mp.unregister("prim")),
    ("edit-registry", lambda: registry._REGISTRY.pop("wilson")),
    ("swap-info", lambda: registry._REGISTRY.__setitem__(
        "kruskal", registry._REGISTRY["backtracker"])),
])
def test_a_plugin_cannot_replace_or_remove_a_built_in(plugins, name, action):
    expected = _kruskal_digest()
    builtins = {n: info for n, info in registry._REGISTRY.items() if info.builtin}
    plugins.append(EntryPoint(f"hostile-{name}", _module(lambda: (mp.register(f"extra-{name}")(_fake), action()))))
    plugins.append(EntryPoint("zz-fine", lambda: _fake))
    with pytest.warns(registry.PluginWarning, match=f"hostile-{name}.*built-in generator"):
        added = registry.load_plugins()
    assert added == ["zz-fine"]  # the others still load; nothing of the hostile one stays
    assert {n: info for n, info in registry._REGISTRY.items() if info.builtin} == builtins
    assert _kruskal_digest() == expected


def test_a_plugin_that_swallows_the_refusal_is_still_skipped(plugins):
    def sneaky():
        try:
            mp.register("kruskal", replace=True)(_fake)
        except Exception:
            pass
        mp.register("sneaky-extra")(_fake)

    plugins.append(EntryPoint("sneaky", _module(sneaky)))
    with pytest.warns(registry.PluginWarning, match="sneaky.*tried replacing the built-in generator 'kruskal'"):
        assert registry.load_plugins() == []
    assert "sneaky-extra" not in registry._REGISTRY


@pytest.mark.parametrize("exception", [SystemExit(3), GeneratorExit(), RuntimeError("bug"), MemoryError()])
def test_any_exception_a_plugin_raises_becomes_a_warning(plugins, exception):
    def explode():
        mp.register("half-made")(_fake)
        raise exception

    plugins += [EntryPoint("aa-explodes", explode), EntryPoint("zz-fine", lambda: _fake)]
    with pytest.warns(registry.PluginWarning, match=f"aa-explodes.*{type(exception).__name__}"):
        assert registry.load_plugins() == ["zz-fine"]
    assert "half-made" not in registry._REGISTRY


def test_keyboard_interrupt_in_a_plugin_still_stops_the_program(plugins):
    def interrupted():
        raise KeyboardInterrupt

    plugins.append(EntryPoint("ctrl-c", interrupted))
    with pytest.raises(KeyboardInterrupt):
        registry.load_plugins()


def test_a_plugin_calling_sys_exit_does_not_kill_the_host(tmp_path):
    package = tmp_path / "plugins"
    (package / "exiting_plugin-1.0.dist-info").mkdir(parents=True)
    (package / "exiting_plugin.py").write_text("import sys\nsys.exit(3)\n")
    (package / "exiting_plugin-1.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: exiting-plugin\nVersion: 1.0\n")
    (package / "exiting_plugin-1.0.dist-info" / "entry_points.txt").write_text(
        "[mazeplugin.generators]\nexiting = exiting_plugin\n")
    env = child_env(PYTHONPATH=os.pathsep.join([str(package), str(ROOT)]))
    env.pop("MAZEPLUGIN_NO_PLUGINS", None)
    done = subprocess.run([sys.executable, "-c", "import mazeplugin as mp; print(len(mp.algorithms()))"],
                          capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert done.returncode == 0 and int(done.stdout) >= 14
    assert "PluginWarning" in done.stderr and "SystemExit: 3" in done.stderr


def test_the_application_may_replace_a_built_in_with_a_warning():
    original = registry._REGISTRY["kruskal"]
    try:
        with pytest.warns(RuntimeWarning, match="replacing the built-in generator 'kruskal'"):
            mp.register("kruskal", replace=True)(_fake)
        assert mp.get_generator("kruskal").function is _fake and mp.get_generator("kruskal").builtin
        with pytest.warns(RuntimeWarning, match="removing the built-in generator 'kruskal'"):
            mp.unregister("kruskal")
        assert "kruskal" not in registry._REGISTRY
    finally:
        registry._REGISTRY["kruskal"] = original
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a name of the application's own: no warning
        mp.register("test-own-name")(_fake)
        mp.register("test-own-name", replace=True)(_fake)
        mp.unregister("test-own-name")


# -- no request may run away ---------------------------------------------------------


@pytest.mark.parametrize("call,error,message", [
    (lambda: mp.generate("rooms", 8, 8, seed=1, attempts=10**9), ValueError, "attempts must be None or an int from 0 to 100,000"),
    (lambda: mp.generate("rooms", 8, 8, seed=1, attempts=10**7), ValueError, "attempts"),
    (lambda: mp.generate("rooms", 8, 8, seed=1, room_size=(1, 10**30)), ValueError, "room_size"),
    (lambda: mp.generate("kruskal", 8, 8, corridor=10**9), ValueError, "corridor must be an int from 1 to 64"),
    (lambda: mp.generate("kruskal", 8, 8, wall=10**9), ValueError, "wall must be an int from 1 to 64"),
    (lambda: mp.generate("kruskal", 2000, 2000, corridor=64), ValueError, "with corridor=64 and wall=1, the tilemap"),
    (lambda: mp.generate("kruskal", 10**9, 10**9), ValueError, "width × height"),
    (lambda: mp.generate("kruskal", 8, 8, seed=2**200), ValueError, "seed must be an int from 0 to 2\\*\\*128 - 1"),
    (lambda: mp.generate("kruskal", 8, 8, seed="x" * 5000), ValueError, "seed text must be at most 1,024"),
    (lambda: mp.generate("kruskal", 8, 8, mask=np.ones((5000, 5000), dtype=bool)), ValueError, "mask has"),
])
def test_runaway_requests_are_refused_before_any_work(call, error, message):
    started = time.process_time()
    with pytest.raises(error, match=message):
        call()
    assert time.process_time() - started < 5  # refused, not attempted (a generous bound, not a timing test)


@pytest.mark.parametrize("argv,message", [
    (("batch", "kruskal", "--size", "2x2", "--count", "1000000000", "--out", "d"), "--count: must be an int from 1 to 1,000,000"),
    (("stats", "kruskal", "--size", "2x2", "--seeds", "1000000000"), "--seeds: must be an int from 1 to 1,000,000"),
    (("generate", "kruskal", "--tile", "100000", "-o", "x.png"), "--tile: must be an int from 1 to 4,096"),
    (("generate", "kruskal", "--tile", "4000", "-o", "x.png"), "tile=4000 makes a picture of"),
    (("generate", "kruskal", "--size", "200x200", "--tile", "300", "-o", "x.png"), "use a smaller tile"),
    (("generate", "kruskal", "--corridor", "1000000000"), "corridor must be an int from 1 to 64"),
    (("batch", "kruskal", "--count", "5", "--first-seed", str(2**128 - 2), "--out", "d"), "goes past the largest seed"),
    (("batch", "kruskal", "--count", "5", "--jobs", "100000", "--out", "d"), "--jobs: must be an int from 0 to 256"),
])
def test_cli_bounds_exit_2_with_one_line_before_any_work(capsys, tmp_path, monkeypatch, argv, message):
    if "x.png" in argv and not HAS_PYGAME:
        pytest.skip("PNG needs pygame")
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert message in err
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


@pytest.mark.parametrize("algorithm,width,height,options", [
    ("backtracker", 4096, 4096, {}),
    ("kruskal", 4096, 4096, {}),
    ("aldous-broder", 3000, 3000, {}),
    ("eller", 16_777_216, 1, {}),
    ("binary-tree", 4096, 4096, {"braid": 1}),
])
def test_sizes_that_would_need_more_than_2_gib_are_refused_naming_the_memory(algorithm, width, height, options):
    info = mp.get_generator(algorithm)
    with pytest.raises(ValueError, match=r"would need about .* GiB of working memory .* at most 1.75 GiB"):
        mp.generate(algorithm, width, height, seed=1, **options)
    assert info.max_cells < width * height or info.max_width is not None or options


def test_every_built_in_has_a_measured_footprint_and_plugins_a_cautious_one():
    from mazeplugin import limits

    for name in mp.algorithms():
        info = mp.get_generator(name)
        if info.builtin:
            assert info.bytes_per_cell == limits.GENERATOR_BYTES_PER_CELL[name]
            assert info.max_cells * info.bytes_per_cell <= limits.REQUEST_BUDGET
    assert registry.GeneratorInfo("x", _fake, "x").bytes_per_cell == limits.DEFAULT_BYTES_PER_CELL
    assert mp.get_generator("eller").max_width == limits.REQUEST_BUDGET // 340
    # A generator that needs little memory may use the full cell limit.
    assert mp.get_generator("binary-tree").max_cells == mp.MAX_CELLS


def test_png_pictures_are_capped_like_tiled_maps(tmp_path):
    pytest.importorskip("pygame")
    level = mp.generate("kruskal", 200, 200, seed=1)
    with pytest.raises(ValueError, match="tile=300 makes a picture of 120,300 x 120,300"):
        level.save(tmp_path / "big.png", tile=300)
    with pytest.raises(ValueError, match="tile must be from 1 to 4,096 pixels"):
        mp.generate("kruskal", 2, 2, seed=1).save(tmp_path / "big.png", tile=100_000)
    assert list(tmp_path.iterdir()) == []


def test_stats_streams_with_progress_and_running_figures(capsys):
    status, out, err = run(capsys, "stats", "kruskal", "--size", "2x2", "--seeds", "1000", "--json")
    assert status == 0
    assert "stats [" in err and "1000/1000 100%" in err  # progress on stderr for long runs
    figures = json.loads(out)["figures"]
    assert figures["dead_end_fraction"]["max"] <= 1 and figures["longest_path"]["max"] == 3


def test_batch_streams_its_seeds_and_manifest(capsys, tmp_path, monkeypatch):
    # The seeds are never listed up front: range() is all batch may hold.
    monkeypatch.setattr(cli.batch, "list", lambda *a: pytest.fail("batch built a list"), raising=False)
    status, _, _ = run(capsys, "batch", "eller", "--size", "3x2", "--count", "300", "--out", str(tmp_path),
                       "--quiet", "--format", "ascii", "--first-seed", "7")
    assert status == 0
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert [e["seed"] for e in manifest["levels"]] == list(range(7, 307))
    assert manifest["count"] == 300 and manifest["levels"][-1]["file"] == "eller-3x2-306.txt"


# -- errors name their argument --------------------------------------------------------


def test_a_seed_text_that_utf8_cannot_hold_names_seed():
    with pytest.raises(ValueError, match="seed must be text that UTF-8 can hold; '\\\\ud800' at position 0"):
        mp.generate("kruskal", 4, 4, seed="\ud800")


def test_a_directory_as_mask_names_mask(tmp_path):
    pytest.importorskip("pygame")
    with pytest.raises(ValueError, match=r"^mask: .* is a directory"):
        mp.generate("kruskal", 4, 4, mask=str(tmp_path))
    with pytest.raises(ValueError, match=r"^mask .*missing.png.*cannot read the picture: No such file"):
        mp.generate("kruskal", 4, 4, mask=str(tmp_path / "missing.png"))


def test_a_picture_mask_whose_header_is_too_big_is_refused_before_decoding(tmp_path):
    pytest.importorskip("pygame")  # mazeplugin.pg itself raises ImportError, not ModuleNotFoundError, without it
    import mazeplugin.pg as pg
    path = tmp_path / "bomb.png"
    pg.save_rgb_png(np.zeros((2, 2, 3), dtype=np.uint8), path)
    data = bytearray(path.read_bytes())
    data[16:24] = (100_000).to_bytes(4, "big") * 2  # IHDR width and height
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="100,000 × 100,000 picture has more pixels"):
        mp.generate("kruskal", 4, 4, mask=str(path))


@pytest.mark.parametrize("number", [np.float32(0.5), np.float64(0.25), np.float16(1.0), 0.5])
def test_numpy_floats_are_accepted_wherever_python_numbers_are(number):
    level = mp.generate("rooms", 12, 12, seed=1, prune=number, extra_doors=number, braid=number)
    assert level.tiles.shape == (25, 25)


def test_numpy_integers_are_accepted_for_sizes_and_widths():
    level = mp.generate("kruskal", np.int16(5), np.uint8(4), seed=np.int64(3), corridor=np.int32(2),
                        wall=np.uint16(1))
    assert level.tiles.tobytes() == mp.generate("kruskal", 5, 4, seed=3, corridor=2).tiles.tobytes()


def test_union_find_with_a_split_mask_follows_the_masks_own_advice():
    mask = ["##..", "....", "..##"]
    with pytest.raises(ValueError, match="markers='farthest'"):
        mp.generate("union-find", 4, 3, seed=1, mask=mask)  # border markers in separate parts
    level = mp.generate("union-find", 4, 3, seed=1, mask=mask, markers="farthest")
    assert len(level.solution()) >= 3
    assert str(mp.generate("union-find", 4, 3, seed=1, mask=mask, markers="none"))


HEART_RAGGED = [" ##  ##", "########", "########", " ######", "  ####", "   ##"]  # trailing spaces trimmed


def test_cli_refuses_a_ragged_text_mask_naming_the_file_and_line(capsys, tmp_path):
    # Issue 22: a short line may be trimmed spaces or missing cells; only the author knows, so it is refused.
    mask = tmp_path / "heart.txt"
    mask.write_text("\n".join(HEART_RAGGED) + "\n")
    status, out, err = run(capsys, "generate", "wilson", "--mask", str(mask), "--seed", "3", "--format", "json")
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert f"--mask {mask}: line 2 has 8 characters but line 1 has 7" in err and "'.'" in err
    mask.write_text("\n".join(row.ljust(8, ".") for row in HEART_RAGGED) + "\n")  # outside marked with '.'
    status, out, err = run(capsys, "generate", "wilson", "--mask", str(mask), "--seed", "3", "--format", "json")
    assert status == 0, err
    assert out == mp.generate("wilson", 8, 6, seed=3, mask=[row.ljust(8) for row in HEART_RAGGED]).to_json()


@pytest.mark.parametrize("content,message", [
    ("", "the file has no lines"),
    ("\n\n  \n", "the file has no lines"),
    ("....\n.  .\n", "mask has no cells"),
    (None, "cannot read it: No such file or directory"),
    (b"\xff\xfe##", "not UTF-8 text"),
])
def test_cli_bad_mask_files_exit_2_with_one_line(capsys, tmp_path, content, message):
    mask = tmp_path / "mask.txt"
    if isinstance(content, bytes):
        mask.write_bytes(content)
    elif content is not None:
        mask.write_text(content)
    status, out, err = run(capsys, "generate", "wilson", "--mask", str(mask))
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert message in err and "--mask" in err


def test_cli_mask_that_is_a_fifo_or_a_directory_exits_2(capsys, tmp_path):
    os.mkfifo(tmp_path / "mask.txt")
    status, _, err = run(capsys, "generate", "wilson", "--mask", str(tmp_path / "mask.txt"))
    assert status == 2 and "is a FIFO" in err and err.count("\n") == 1
    (tmp_path / "folder.txt").mkdir()
    status, _, err = run(capsys, "generate", "wilson", "--mask", str(tmp_path / "folder.txt"))
    assert status == 2 and "is a directory" in err


@pytest.mark.parametrize("seed", ["-1", "-0", " -5"])
def test_cli_refuses_negative_seeds(capsys, seed):
    status, out, err = run(capsys, "generate", "kruskal", "--seed", seed)
    assert (status, out) == (2, "") and "--seed: must be an int >= 0" in err and err.count("\n") == 1


def test_cli_seed_given_a_level_code_makes_that_level_with_a_note(capsys):
    status, out, err = run(capsys, "generate", "kruskal", "--seed", "backtracker-16x11-2026")
    assert status == 0
    assert out == str(mp.generate("backtracker", 16, 11, seed=2026)) + "\n"
    assert err.count("\n") == 1 and "is a level code: making backtracker 16x11 with seed 2026" in err
    assert "ALGORITHM kruskal" in err
    status, out, err = run(capsys, "generate", "backtracker", "--size", "16x11", "--seed", "backtracker-16x11-2026")
    assert (status, err) == (0, "")  # nothing disagrees: no note
    assert out == str(mp.generate("backtracker", 16, 11, seed=2026)) + "\n"
    # Issue 22: text shaped like a code of no generator is an error that says how to give it as a seed.
    status, out, err = run(capsys, "generate", "kruskal", "--size", "4x3", "--seed", "nosuch-3x3-castle")
    assert (status, out) == (2, "") and err.count("\n") == 1 and "'nosuch' is no generator" in err
    assert "--seed kruskal-4x3-nosuch-3x3-castle" in err
    status, out, _ = run(capsys, "generate", "kruskal", "--seed", "kruskal-4x3-nosuch-3x3-castle")
    assert out == str(mp.generate("kruskal", 4, 3, seed="nosuch-3x3-castle")) + "\n"  # that text as the seed


# -- fuzzing: loaders and generate() in a worker process under a memory limit ---------

WORKER = r"""
import base64, io, os, pickle, signal, sys, tempfile, time, traceback
import mazeplugin as mp
from mazeplugin.formats import LevelFormatError

CPU_LIMIT = float(sys.argv[1])


class CpuLimit(BaseException):
    pass


def over_limit(signum, frame):
    raise CpuLimit()


# SIGPROF counts this process's CPU time (user + system), not the wall clock: a
# loaded machine makes a case slower to finish, never more expensive.
signal.signal(signal.SIGPROF, over_limit)
folder = tempfile.mkdtemp()
out = sys.stdout
sys.stdout = io.StringIO()  # nothing a case prints may break the protocol
for line in sys.stdin:
    kind, payload = pickle.loads(base64.b64decode(line))
    started = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, CPU_LIMIT)
    try:
        if kind == "json":
            mp.from_json(payload)
        elif kind in ("npy", "json-file", "tmx", "tmj"):
            path = os.path.join(folder, "case." + kind.split("-")[0])
            with open(path, "wb") as f:
                f.write(payload)
            mp.load(path)
        elif kind == "mask":
            mp.shaping.parse_mask(payload)
        elif kind == "generate":
            args, kwargs = payload
            mp.generate(*args, **kwargs)
        result = ("ok", "")
    except (LevelFormatError, ValueError, TypeError) as error:
        result = (type(error).__name__, str(error))
    except CpuLimit:
        result = ("CPU LIMIT", f"over {CPU_LIMIT:g} s of CPU time")
    except BaseException as error:
        result = ("UNEXPECTED " + type(error).__name__, traceback.format_exc())
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    result = result + (time.process_time() - started,)
    out.write(base64.b64encode(pickle.dumps(result)).decode() + "\n")
    out.flush()
"""


CASE_CPU_SECONDS = 60.0
"""Most CPU time one fuzz case may use. A case is refused or made in well under a
second; the margin covers numba compiling a kernel on a cold cache (CPU time,
so it holds however loaded the machine is)."""


class Worker:
    """One Python process under the memory limit that runs cases sent to it, each under a CPU-time limit."""

    def __init__(self, cpu_seconds=CASE_CPU_SECONDS, **environment):
        env = child_env(MAZEPLUGIN_NO_PLUGINS="1", OPENBLAS_NUM_THREADS="1", PYTHONPATH=str(ROOT), **environment)
        self.process = subprocess.Popen([sys.executable, "-c", WORKER, str(cpu_seconds)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, env=env, preexec_fn=_limit_memory)

    def run(self, kind, payload):
        """``(outcome, message)`` of one case; fails when it used over CASE_CPU_SECONDS of CPU time."""
        import base64
        import pickle
        import select

        self.process.stdin.write(base64.b64encode(pickle.dumps((kind, payload))).decode() + "\n")
        self.process.stdin.flush()
        # Only a hang guard (a worker stuck without using CPU): the bound that counts is the CPU limit.
        ready, _, _ = select.select([self.process.stdout], [], [], HANG_GUARD)
        assert ready, f"the worker hung (no answer in {HANG_GUARD} s) on a {kind} case: {payload!r:.300}"
        line = self.process.stdout.readline()
        assert line, f"the worker died on a {kind} case: {payload!r:.300}"
        outcome, message, cpu = pickle.loads(base64.b64decode(line))
        assert outcome != "CPU LIMIT", f"{kind} case used {message} ({cpu:.1f} s): {payload!r:.300}"
        return outcome, message

    def close(self):
        self.process.stdin.close()
        self.process.wait(TIMEOUT)


@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.close()


def test_a_case_over_its_cpu_time_fails_and_the_worker_goes_on():
    w = Worker(cpu_seconds=0.5, MAZEPLUGIN_COMPILED="0")
    try:
        assert w.run("generate", (("kruskal", 4, 3), {"seed": 1})) == ("ok", "")
        with pytest.raises(AssertionError, match=r"generate case used over 0.5 s of CPU time"):
            w.run("generate", (("aldous-broder", 400, 400), {"seed": 1}))  # seconds of CPU on the plain path
        assert w.run("generate", (("kruskal", 4, 3), {"seed": 2})) == ("ok", "")
    finally:
        w.close()


FUZZ = settings(max_examples=examples(60), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
VALID_JSON = mp.generate("rooms", 6, 5, seed=4, braid=0.5, markers="farthest").to_json()
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)


def _expect_clean(result, allowed=("ok", "LevelFormatError")):
    assert result[0] in allowed, result[1]


@FUZZ
@given(st.text(max_size=200) | st.binary(max_size=200).map(lambda b: b.decode("latin-1")))
def test_fuzz_from_json_arbitrary_text(worker, text):
    _expect_clean(worker.run("json", text))


VALID_WITH_THINGS = mp.generate("backtracker", 7, 6, seed=3, keys=1, treasure=2, enemies=1).to_json()


@FUZZ
@given(st.sampled_from([VALID_JSON, VALID_WITH_THINGS]), st.data(), json_values)
def test_fuzz_from_json_one_field_replaced(worker, valid, data, value):
    document = json.loads(valid)
    field = data.draw(st.sampled_from(sorted(document)))
    document[field] = value
    _expect_clean(worker.run("json", json.dumps(document)))


@FUZZ
@given(st.data(), json_values)
def test_fuzz_from_json_things_edited(worker, data, value):
    document = json.loads(VALID_WITH_THINGS)
    things = document.get("things") or []
    if not things:
        pytest.skip("this checkout writes no things")
    thing = things[data.draw(st.integers(0, len(things) - 1))]
    if isinstance(thing, dict):
        thing[data.draw(st.sampled_from(sorted(thing) + ["extra"]))] = value
    else:
        things[things.index(thing)] = value
    _expect_clean(worker.run("json", json.dumps(document)))


@FUZZ
@given(st.sampled_from(sorted(json.loads(VALID_JSON)["options"]) + ["room_size", "attempts", "x"]), json_values)
def test_fuzz_from_json_options(worker, name, value):
    data = json.loads(VALID_JSON)
    data["options"][name] = value
    _expect_clean(worker.run("json", json.dumps(data)))


@FUZZ
@given(st.integers(0, len(VALID_JSON) - 1), st.integers(1, 40), st.binary(max_size=40))
def test_fuzz_load_json_corrupted_file(worker, start, length, junk):
    data = VALID_JSON.encode()
    _expect_clean(worker.run("json-file", data[:start] + junk + data[start + length:]))


def _npy_bytes(array):
    buffer = __import__("io").BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


VALID_NPY = _npy_bytes(mp.generate("kruskal", 4, 3, seed=1).marked())


@FUZZ
@given(st.integers(0, len(VALID_NPY) - 1), st.binary(min_size=1, max_size=16))
def test_fuzz_load_npy_corrupted_file(worker, start, junk):
    _expect_clean(worker.run("npy", VALID_NPY[:start] + junk + VALID_NPY[start + len(junk):]))


@FUZZ
@given(st.sampled_from(["<i8", "<u2", "|b1", "<f8", "|O", "<i4"]),
       st.tuples(st.integers(0, 2**40), st.integers(0, 2**40)) | st.tuples(st.integers(0, 9)))
def test_fuzz_load_npy_lying_headers(worker, dtype, shape):
    header = {"descr": dtype, "fortran_order": False, "shape": shape}
    text = repr(header).encode("latin-1")
    text += b" " * (-(len(text) + 11) % 64) + b"\n"
    data = b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text + b"\x01" * 64
    _expect_clean(worker.run("npy", data))


@FUZZ
@given(st.lists(st.text(max_size=12), max_size=8) | st.lists(st.integers(), max_size=3) | st.none())
def test_fuzz_parse_mask(worker, rows):
    _expect_clean(worker.run("mask", rows), allowed=("ok", "ValueError", "TypeError"))


def _numbers(small):
    huge = st.sampled_from([0, -1, -(2**70), 2**31, 2**63, 10**9, 5000])
    odd = st.sampled_from([True, 1.5, float("nan"), "7", None, b"3", [3]])
    numpy_ints = small.map(np.int32) | small.map(np.uint16) | small.map(np.int64)
    return small | huge | odd | numpy_ints


sizes = _numbers(st.integers(1, 24))
seeds = (st.integers(-5, 2**130) | st.text(max_size=30) | st.sampled_from([None, 1.5, b"x", "\ud800", "-1"])
         | st.integers(0, 2**40).map(np.uint64))
braids = (st.floats(allow_nan=True, allow_infinity=True) | st.floats(0, 1).map(np.float32)
          | st.sampled_from([0, 1, True, "0.5", None]))
markers = (st.sampled_from(["border", "farthest", "random", "none", "middle", None, 3])
           | st.tuples(st.tuples(st.integers(-3, 60), st.integers(-3, 60)), st.tuples(st.integers(-3, 60), st.integers(-3, 60))))
masks = st.none() | st.lists(st.text(alphabet="#. x", min_size=1, max_size=6), min_size=1, max_size=6) | st.just(3)
option_values = json_values | st.floats(0, 1).map(np.float32) | st.integers(-5, 10**12)
algorithm_options = {
    "rooms": ["room_size", "attempts", "extra_doors", "prune"],
    "growing-tree": ["strategy"],
    "binary-tree": ["bias"],
}


@settings(max_examples=examples(120), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.sampled_from(sorted(mp.algorithms()) + ["kruskall", ""]), sizes, sizes,
       st.fixed_dictionaries({}, optional={"seed": seeds, "braid": braids, "markers": markers, "mask": masks,
                                           "corridor": _numbers(st.integers(1, 4)),
                                           "wall": _numbers(st.integers(1, 3))}),
       st.data())
def test_fuzz_generate_arguments(worker, algorithm, width, height, kwargs, data):
    names = algorithm_options.get(algorithm, []) + ["bogus"]
    options = data.draw(st.dictionaries(st.sampled_from(names), option_values, max_size=2))
    result = worker.run("generate", ((algorithm, width, height), dict(kwargs, **options)))
    _expect_clean(result, allowed=("ok", "ValueError", "TypeError"))
    if result[0] != "ok":
        message = result[1]
        named = [n for n in ["algorithm", "width", "height", "seed", "braid", "markers", "mask", "corridor",
                             "wall", "tilemap", "memory", "cells", "option", "entrance", "exit", *names]
                 if n in message]
        assert named, f"the error names no argument: {message}"


def _tiled_bytes(fmt):
    import tempfile

    folder = tempfile.mkdtemp()
    path = os.path.join(folder, f"level.{fmt}")
    mp.generate("kruskal", 4, 3, seed=1, markers="farthest").save(path)
    with open(path, "rb") as f:
        return f.read()


@pytest.mark.skipif(not hasattr(mp.Level, "load_tmx"), reason="Tiled loading is not in this checkout")
@FUZZ
@given(st.sampled_from(["tmx", "tmj"]), st.data())
def test_fuzz_load_tiled_corrupted_file(worker, fmt, data):
    valid = _tiled_bytes(fmt)
    start = data.draw(st.integers(0, len(valid) - 1))
    junk = data.draw(st.binary(max_size=30) | st.sampled_from([b"<!DOCTYPE x [<!ENTITY a 'aaaa'>]>", b"&a;",
                                                                b"[[[[[[[[[[", b"99999999999"]))
    length = data.draw(st.integers(0, 30))
    _expect_clean(worker.run(fmt, valid[:start] + junk + valid[start + length:]))


@pytest.mark.parametrize("code", ["kruskal-" + "9" * 5000 + "x2-1", "kruskal-2x2-1+k" + "9" * 5000])
def test_an_overlong_level_code_is_refused_before_parsing(code):
    with pytest.raises(ValueError, match="level code is 5,0.. characters long; at most 1,200"):
        mp.codes.parse_level_code(code)


def test_cli_seed_that_is_too_long_is_one_line(capsys):
    status, out, err = run(capsys, "generate", "kruskal", "--seed", "x" * 5000)
    assert (status, out) == (2, "") and "seed text must be at most 1,024 characters" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("options,stage", [
    ({"treasure": 1}, "516 while placing content"),
    ({"braid": 0.5}, "302 with braid"),
    ({"keys": 1, "mask": np.ones((4096, 4096), dtype=bool)}, "+ 110 with a mask or rooms"),
])
def test_the_memory_estimate_counts_the_stages_a_request_uses(options, stage):
    mp.generate("binary-tree", 64, 64, seed=1, **{k: v for k, v in options.items() if k != "mask"})
    algorithm = "backtracker" if "mask" in options else "binary-tree"
    with pytest.raises(ValueError, match=f"would need about .*{re.escape(stage)}"):
        mp.generate(algorithm, 4096, 4096, seed=1, **options)
