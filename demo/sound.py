"""The demo's sound effects, synthesised with numpy at start-up: no sound files, nothing downloaded.

Each effect is a few hundred milliseconds of samples built from sine tones
and a little noise, shaped by envelopes that start and end at zero (so no
clicks), then handed to ``pygame.sndarray.make_sound`` in whatever sample
format the mixer opened with. Where there is no audio device the mixer
does not open and every effect is a silent no-op; under SDL's dummy audio
driver (headless runs, CI) the mixer opens and plays into nothing.

Opening the mixer is quiet: without a sound card, ALSA prints eight ``ALSA
lib ... cannot find card`` lines from C straight to the process's standard
error while SDL probes it; :func:`quiet_stderr` catches them, so a game
without audio is simply silent (other lines written meanwhile are passed
on).

Effects: ``step`` (a soft tick per tile walked), ``key`` and ``door`` (for
level content), ``exit`` (a short rising arpeggio), ``toggle`` (a blip for
switches).
"""

from __future__ import annotations

import os
import sys
import tempfile
from contextlib import contextmanager
from typing import Callable, Dict, Iterator, List, Optional

import numpy as np
import pygame
from numpy.typing import NDArray

RATE = 44100
"""Samples per second the effects are designed at (resampled to the mixer's rate)."""
Samples = NDArray[np.float64]


def _time(seconds: float, rate: int) -> Samples:
    return np.arange(int(seconds * rate)) / rate


def _envelope(n: int, rate: int, *, attack: float = 0.004, decay: float = 8.0) -> Samples:
    """A fast linear attack, an exponential decay (``decay`` per second) and a short fade to exactly zero."""
    t = np.arange(n) / rate
    env = np.exp(-decay * t) * np.clip(t / attack, 0.0, 1.0)
    fade = min(n, max(1, int(0.006 * rate)))
    env[n - fade :] *= np.linspace(1.0, 0.0, fade)
    return env


def _tone(freq: float, seconds: float, rate: int, *, decay: float = 8.0, harmonics: float = 0.25) -> Samples:
    t = _time(seconds, rate)
    wave = np.sin(2 * np.pi * freq * t) + harmonics * np.sin(4 * np.pi * freq * t)
    return wave * _envelope(len(t), rate, decay=decay) / (1 + harmonics)


def step(rate: int = RATE) -> Samples:
    """A soft footstep tick: a low thump with a breath of noise, 40 ms."""
    t = _time(0.04, rate)
    noise = np.random.default_rng(7).standard_normal(len(t))
    smooth = np.convolve(noise, np.ones(12) / 12, mode="same")  # low-passed: a tap, not a hiss
    thump = np.sin(2 * np.pi * 150 * t * (1 - 2.5 * t))
    return 0.35 * (0.7 * thump + 0.6 * smooth) * _envelope(len(t), rate, attack=0.002, decay=70.0)


def key(rate: int = RATE) -> Samples:
    """Picking up a key: two bright bell notes a fifth apart, 0.3 s."""
    first = _tone(1318.5, 0.3, rate, decay=9.0)
    second = np.concatenate([np.zeros(int(0.07 * rate)), _tone(1975.5, 0.23, rate, decay=11.0)])
    second = second[: len(first)]
    both: Samples = 0.45 * (first + np.pad(second, (0, len(first) - len(second))))
    return both


def door(rate: int = RATE) -> Samples:
    """A door: a falling low sweep with a wooden knock at its start, 0.35 s."""
    t = _time(0.35, rate)
    freq = 190 - 110 * t / t[-1]
    sweep = np.sin(2 * np.pi * np.cumsum(freq) / rate)
    square = np.sign(sweep) * 0.25 + sweep * 0.75  # a little grit
    knock = np.sin(2 * np.pi * 95 * t) * np.exp(-40 * t)
    return 0.5 * (0.6 * square * _envelope(len(t), rate, attack=0.01, decay=6.0) + 0.6 * knock * _envelope(len(t), rate))


def exit_(rate: int = RATE) -> Samples:
    """Reaching the exit: a rising C major arpeggio ending on a held octave, 0.7 s."""
    notes = [523.25, 659.25, 783.99]
    parts = [_tone(f, 0.1, rate, decay=14.0) for f in notes] + [_tone(1046.5, 0.4, rate, decay=4.5)]
    return 0.4 * np.concatenate(parts)


def toggle(rate: int = RATE) -> Samples:
    """A short blip for switches (fog, solution, map), 60 ms."""
    return 0.25 * _tone(880.0, 0.06, rate, decay=30.0, harmonics=0.0)


EFFECTS: Dict[str, Callable[[int], Samples]] = {"step": step, "key": key, "door": door, "exit": exit_, "toggle": toggle}
"""Every effect by name: a function of the sample rate returning mono samples in [-1, 1]."""


def to_mixer_format(samples: Samples, size: int, channels: int) -> Optional[NDArray[np.generic]]:
    """``samples`` (mono, -1..1) as the array ``pygame.sndarray.make_sound`` wants for a mixer of ``size`` and ``channels``.

    ``size`` is pygame's sample format: -16 (signed 16-bit), 16 (unsigned),
    -8, 8, or 32 (32-bit float). None for a format this does not know.

    >>> to_mixer_format(np.array([0.0, 1.0, -1.0]), -16, 2).tolist()
    [[0, 0], [32767, 32767], [-32767, -32767]]
    >>> to_mixer_format(np.array([0.0, 1.0]), 8, 1).tolist()
    [128, 255]
    """
    clipped = np.clip(samples, -1.0, 1.0)
    if size == -16:
        data: NDArray[np.generic] = np.round(clipped * 32767).astype(np.int16)
    elif size == 16:
        data = np.round(clipped * 32767 + 32768).astype(np.uint16)
    elif size == -8:
        data = np.round(clipped * 127).astype(np.int8)
    elif size == 8:
        data = np.round(clipped * 127 + 128).astype(np.uint8)
    elif size == 32:
        data = clipped.astype(np.float32)
    else:
        return None
    if channels == 1:
        return np.ascontiguousarray(data)
    return np.ascontiguousarray(np.repeat(data[:, None], channels, axis=1))


@contextmanager
def quiet_stderr() -> Iterator[List[str]]:
    """Catch what is written to file descriptor 2 (by C libraries too) inside the block; the lines, once it ends.

    Where the process has no descriptor 2, nothing is caught.
    """
    lines: List[str] = []
    fd = 2  # where C libraries write, whatever sys.stderr is in Python
    try:
        os.fstat(fd)
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        yield lines
        return
    saved = os.dup(fd)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), fd)
        try:
            yield lines
        finally:
            sys.stderr.flush()
            os.dup2(saved, fd)
            os.close(saved)
            sink.seek(0)
            lines.extend(sink.read().decode("utf-8", "replace").splitlines())


def open_mixer() -> None:
    """Open pygame's mixer for the effects, quietly (ALSA's complaints without a sound card are dropped)."""
    lines: List[str] = []
    try:
        with quiet_stderr() as lines:
            pygame.mixer.init(frequency=RATE, size=-16, channels=2, buffer=512)
    finally:
        others = [line for line in lines if not line.startswith("ALSA lib ")]
        if others:
            print("\n".join(others), file=sys.stderr)


class Sounds:
    """The effects, ready to play; silent (and harmless) where no audio device opens.

    ``play(name)`` plays one unless muted or disabled and says whether it
    did; ``toggle_mute()`` is the M key.
    """

    def __init__(self, *, muted: bool = False) -> None:
        self.muted = muted
        self.sounds: Dict[str, "pygame.mixer.Sound"] = {}
        self.error = ""
        try:
            if not pygame.mixer.get_init():
                open_mixer()
            init = pygame.mixer.get_init()
            if not init:
                raise pygame.error("the mixer did not open")
            rate, size, channels = init
            for name, make in EFFECTS.items():
                data = to_mixer_format(make(rate), size, channels)
                if data is None:
                    raise pygame.error(f"unsupported sample format {size}")
                self.sounds[name] = pygame.sndarray.make_sound(data)
        except (pygame.error, ValueError, NotImplementedError) as error:
            self.sounds.clear()
            self.error = str(error) or type(error).__name__

    @property
    def enabled(self) -> bool:
        """Whether an audio device (or SDL's dummy driver) opened and the effects were made."""
        return bool(self.sounds)

    def play(self, name: str) -> bool:
        """Play effect ``name`` (see :data:`EFFECTS`); False when muted, disabled or unknown."""
        sound = self.sounds.get(name)
        if sound is None or self.muted:
            return False
        sound.play()
        return True

    def toggle_mute(self) -> None:
        """M: sound off or on (a muted game stops what is playing)."""
        self.muted = not self.muted
        if self.muted and self.enabled:
            pygame.mixer.stop()
