"""The demo in a real X window (Xvfb), driven by real key presses from xdotool.

Skipped, with the reason, only where Xvfb or xdotool is not installed
(``apt-get install xvfb xdotool``; CI runs ``.ci/xvfb.sh``). Every external
command has a timeout.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
import sys
import time

import pytest

pygame = pytest.importorskip("pygame")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MISSING = [tool for tool in ("Xvfb", "xdotool") if shutil.which(tool) is None]

pytestmark = pytest.mark.skipif(
    bool(MISSING),
    reason=f"{' and '.join(MISSING)} not installed (apt-get install xvfb xdotool, as .ci/xvfb.sh does)",
)


@pytest.fixture
def display():
    """A fresh Xvfb server; yields its DISPLAY name (Xvfb picks a free number itself)."""
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    try:
        ready, _, _ = select.select([read_end], [], [], 30)
        if not ready:
            pytest.fail("Xvfb did not report a display within 30 s")
        number = os.read(read_end, 64).decode().strip()
        assert number.isdigit(), f"Xvfb reported {number!r} as its display"
        yield f":{number}"
    finally:
        os.close(read_end)
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)


def xdotool(env: dict, *args: str, timeout: float = 20) -> str:
    done = subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"xdotool {' '.join(args)} failed: {done.stderr}"
    return done.stdout


def test_real_key_presses_move_the_player_and_a_screenshot_is_written(display, tmp_path):
    # SDL writes the title as UTF8_STRING, which xdotool's --name search cannot read,
    # so the window is found by the X class SDL is told to give it.
    env = dict(
        os.environ,
        DISPLAY=display,
        SDL_VIDEODRIVER="x11",
        SDL_AUDIODRIVER="dummy",
        SDL_VIDEO_X11_WMCLASS="mazeplugin-demo",
    )
    shot = tmp_path / "xvfb.png"
    # Frames cap the run at about a minute; Escape ends it sooner.
    game = subprocess.Popen(
        [sys.executable, "-m", "demo", "--code", "kruskal-8x6-3", "--frames", "3600",
         "--window", "640x480", "--screenshot", str(shot)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        window = xdotool(env, "search", "--sync", "--onlyvisible", "--class", "mazeplugin-demo", timeout=300).split()[0]
        # The window shows before the game loop runs; keys pressed then would all be read in its first
        # frame (down and up together: no move). The loop names the window in its first frame.
        deadline = time.monotonic() + 300  # a hang guard, not a speed bound
        while "mazeplugin demo" not in xdotool(env, "getwindowname", window):
            assert game.poll() is None and time.monotonic() < deadline, "the demo never drew a frame"  # hang guard
            time.sleep(0.1)
        xdotool(env, "windowfocus", "--sync", window)
        # The entrance of kruskal-8x6-3 opens east: hold Right, then let go.
        xdotool(env, "keydown", "Right")
        time.sleep(1.0)
        xdotool(env, "keyup", "Right")
        # The window is resizable: the frame (and so the screenshot) follows its new size.
        xdotool(env, "windowsize", "--sync", window, "800", "600")
        time.sleep(0.5)
        xdotool(env, "key", "--delay", "100", "Escape", "Escape")  # the first asks, the second quits
        out, err = game.communicate(timeout=300)
    finally:
        if game.poll() is None:
            game.kill()
            game.communicate(timeout=10)
    assert game.returncode == 0, err
    assert "Traceback" not in err
    match = re.search(r"player (\d+),(\d+) moves (\d+) frames (\d+)", out)
    assert match, out
    x, y, moves, frames = map(int, match.groups())
    assert moves > 0 and x > 0, f"the player did not move: {out}"
    assert frames < 3600, "Escape did not end the game"
    assert pygame.image.load(str(shot)).get_size() == (800, 600)
