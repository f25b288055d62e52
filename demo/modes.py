"""The frame loop over the demo's modes: the maze game, the endless world, and E switching between them.

:func:`run` knows a mode only as a :class:`Mode` (tick a frame, say where it
is, save a picture) and makes the next one through a function it is given,
so it imports neither mode.
"""

from __future__ import annotations

import os
import time
from typing import Callable, Optional, Protocol, Tuple

import pygame

from . import ahead
from .frametimes import FrameTimes
from .script import KeyScript

FPS = 60
MAX_STEP = 0.05
"""Seconds of play a stalled frame counts as at most (so it does not fling the player)."""


class Mode(Protocol):
    """A mode of the demo, as the loop sees it."""

    running: bool
    frames: int
    fps: float
    switch_to: Optional[str]
    script: KeyScript

    def tick(self, dt: float) -> None:
        """One frame of ``dt`` seconds: events, rules, drawing."""
        ...  # pragma: no cover

    def status(self) -> str:
        """One line about where the mode is, printed on exit."""
        ...  # pragma: no cover

    def screenshot(self, path: str) -> None:
        """Save the current frame."""
        ...  # pragma: no cover


def run(app: Mode, frames: Optional[int], make: Callable[[str], Mode]) -> Tuple[Mode, FrameTimes]:
    """Run ``app``, then ``make(name)`` each time a mode asks to switch, until quit, Ctrl-C or ``frames`` frames in all.

    Frames are paced at 60 fps in a window (a stalled frame counts as at most
    :data:`MAX_STEP` of play) and are exactly 1/60 s each headless or with
    ``frames``. Returns the mode running at the end and the time every frame
    took (its work: events, rules, drawing; not the wait for the next frame). With ``frames``, a frame
    that waits for the next level from the worker counts that wait (:func:`demo.ahead.count_frames`).
    """
    times = FrameTimes()
    used = 0
    clock = pygame.time.Clock()
    real_time = os.environ.get("SDL_VIDEODRIVER") != "dummy"
    ahead.count_frames(frames is not None)  # a run of N frames waits for the next level: the same every time
    try:
        while True:
            while app.running and (frames is None or used < frames):
                dt = 1 / FPS
                if real_time:
                    elapsed = clock.tick(FPS) / 1000
                    app.fps = clock.get_fps()
                    if frames is None:
                        dt = min(elapsed, MAX_STEP)
                start = time.perf_counter()
                before = app.frames
                app.tick(dt)
                if app.frames > before:
                    times.add(time.perf_counter() - start)
                    used += 1
            target = app.switch_to
            if target is None or (frames is not None and used >= frames):
                return app, times
            script = app.script
            app = make(target)
            app.script = script  # the script carries on in the next mode
    except KeyboardInterrupt:
        return app, times
    finally:
        ahead.count_frames(False)
