"""The demo's command line and start-up (issue 22): no display, no sound card, --script, strict codes, no pygame."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pygame = pytest.importorskip("pygame")


def run(*args: str, env: dict, code: str = "") -> subprocess.CompletedProcess:
    command = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "demo", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)


def clean_env(**extra: str) -> dict:
    """This environment without a display or SDL drivers chosen, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "SDL_AUDIODRIVER")}
    env.update(extra)
    return env


@pytest.mark.skipif(sys.platform.startswith(("win", "darwin")), reason="X11/Wayland systems only")
def test_without_a_display_the_demo_says_so_and_exits_1():
    done = run("--code", "kruskal-8x6-3", env=clean_env())  # would run invisibly until killed (the timeout)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "no display" in done.stderr and "--frames" in done.stderr
    assert done.stdout == ""


def test_a_chosen_driver_or_frames_run_without_a_display():
    done = run("--code", "kruskal-8x6-3", "--frames", "3", env=clean_env())
    assert done.returncode == 0, done.stderr
    done = run("--code", "kruskal-8x6-3", "--frames", "3", env=clean_env(SDL_VIDEODRIVER="dummy"))
    assert done.returncode == 0, done.stderr


def test_opening_the_mixer_without_a_sound_card_prints_no_alsa_lines():
    code = "from demo.sound import Sounds; s = Sounds(); print(s.enabled)"
    done = run(env=clean_env(SDL_VIDEODRIVER="dummy"), code=code)  # SDL probes the real audio drivers
    assert done.returncode == 0, done.stderr
    assert "ALSA lib" not in done.stderr and done.stderr == ""


def test_quiet_stderr_catches_what_c_writes_to_descriptor_2(capfd):
    from demo.sound import quiet_stderr

    with quiet_stderr() as lines:
        os.write(2, b"ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n")
    assert lines == ["ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default"]
    assert capfd.readouterr().err == ""
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "after\n"  # descriptor 2 is back


def test_script_plays_keys_and_the_old_keys_still_works_with_a_notice():
    env = clean_env(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    new = run("--code", "kruskal-8x6-3", "--script", "right*10,p,wait*3", "--frames", "20", env=env)
    old = run("--code", "kruskal-8x6-3", "--keys", "right*10,p,wait*3", "--frames", "20", env=env)
    assert new.returncode == old.returncode == 0, (new.stderr, old.stderr)
    assert new.stdout == old.stdout or new.stdout.split(" frame ")[0] == old.stdout.split(" frame ")[0]
    assert "time 0.17" in new.stdout and new.stderr == ""
    assert old.stderr.count("\n") == 1 and "--keys is now --script" in old.stderr


def test_the_exit_line_reports_the_worst_frame_of_a_run_of_levels():
    env = clean_env(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = run("--code", "backtracker-4x3-1", "--autoplay", "--levels", "2", "--frames", "100000", env=env)
    assert done.returncode == 0, done.stderr
    line = done.stdout.strip().splitlines()[-1]
    assert line.startswith("level 3 ") and " worst " in line and line.endswith(" ms")


@pytest.mark.parametrize("code", ["backtracker-30x20-7+zz", "backtracker-30x20-7+", "kruskal 20 15"])
def test_a_malformed_code_is_refused_in_one_line(code):
    from demo.app import build_parser

    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(["--code", code])
    assert stop.value.code == 2


def test_a_malformed_code_says_what_is_wrong(capsys):
    from demo.app import main

    with pytest.raises(SystemExit):
        main(["--code", "backtracker-30x20-7+zz", "--frames", "1"])
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'+zz' is not content" in err


def test_a_typed_malformed_code_keeps_the_level():
    from demo.app import App, build_parser

    app = App(build_parser().parse_args(["--window", "640x480", "--code", "kruskal-8x6-3"]))
    assert not app.game.enter_code("backtracker-30x20-7+zz")
    assert app.game.code == "kruskal-8x6-3" and "not content" in app.game.message


def test_sizes_the_demo_refuses_say_why_the_cli_differs(capsys):
    from demo.app import main

    for args in (["--size", "1x1"], ["--code", "kruskal-300x5-1"]):
        with pytest.raises(SystemExit):
            main([*args, "--frames", "1"])
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "2 to 250" in err and "CLI" in err


def run_without_pygame(*args: str) -> subprocess.CompletedProcess:
    code = "import sys; sys.modules['pygame'] = None; import runpy; runpy.run_module('demo', run_name='__main__')"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_help_and_version_work_without_pygame():
    helped = run_without_pygame("--help")
    assert helped.returncode == 0, helped.stderr
    for option in ("--script", "--code", "--endless", "--no-map", "--level", "--no-content"):
        assert option in helped.stdout
    version = run_without_pygame("--version")
    assert version.returncode == 0 and version.stdout.startswith("mazeplugin-demo ")
    wrong = run_without_pygame("--size", "0x0")
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1
