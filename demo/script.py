"""Scripted input (``--script``): keys pressed and released as a keyboard would, one frame at a time.

Both modes (the maze game and the endless world) play the same
:class:`KeyScript`; when E switches mode the script carries on where it was.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import pygame


def post_key(kind: int, key: int) -> None:
    """Post a KEYDOWN or KEYUP event for ``key``, as the keyboard would."""
    pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))


class KeyScript:
    """Keys to press in turn, each held for a number of frames (``None``: press nothing, ``wait``)."""

    def __init__(self, steps: List[Tuple[Optional[int], int]]) -> None:
        self.steps = list(steps)
        self.key: Optional[int] = None
        self.left = 0

    def play(self) -> None:
        """Post the key events due this frame."""
        if self.left == 0:
            if self.key is not None:
                post_key(pygame.KEYUP, self.key)
                self.key = None
            if not self.steps:
                return
            self.key, self.left = self.steps.pop(0)
            if self.key is not None:
                post_key(pygame.KEYDOWN, self.key)
        self.left -= 1

    @property
    def done(self) -> bool:
        """Whether every key has been pressed and released."""
        return not self.steps and self.left == 0 and self.key is None
