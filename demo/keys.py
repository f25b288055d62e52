"""Keys both modes share: moving (and the diagonals of grid levels), help, and Esc, which closes what is open before it quits.

Esc never quits at once from play: the first press asks ("Esc again to
quit") and a second within :data:`QUIT_SECONDS` quits. A prompt or an
overlay that is open is closed by Esc first, so Esc after a mistyped level
code cancels, it does not end the game.
"""

from __future__ import annotations

from typing import Dict, List, Sequence, Tuple

import pygame

from .addon_api import Binding

Direction = Tuple[int, int]

MOVE_KEYS: Dict[int, Direction] = {
    pygame.K_UP: (0, -1),
    pygame.K_w: (0, -1),
    pygame.K_RIGHT: (1, 0),
    pygame.K_d: (1, 0),
    pygame.K_DOWN: (0, 1),
    pygame.K_s: (0, 1),
    pygame.K_LEFT: (-1, 0),
    pygame.K_a: (-1, 0),
}
GRID_KEYS: Dict[int, Direction] = {
    pygame.K_q: (-1, -1),
    pygame.K_e: (1, -1),
    pygame.K_z: (-1, 1),
    pygame.K_c: (1, 1),
    pygame.K_KP8: (0, -1),
    pygame.K_KP9: (1, -1),
    pygame.K_PAGEUP: (1, -1),
    pygame.K_KP6: (1, 0),
    pygame.K_KP3: (1, 1),
    pygame.K_PAGEDOWN: (1, 1),
    pygame.K_KP2: (0, 1),
    pygame.K_KP1: (-1, 1),
    pygame.K_END: (-1, 1),
    pygame.K_KP4: (-1, 0),
    pygame.K_KP7: (-1, -1),
    pygame.K_HOME: (-1, -1),
}
"""More movement keys on grid levels (:mod:`demo.gridplay`): Q, E, Z and C, the diagonals round WASD
(on a hex level Q E / A D / Z C are its six sides; E there is north-east, not the endless world), the keypad, and
Home, Page Up, End and Page Down as its diagonals; the arrows also turn diagonal two at a time (up and
right: north-east)."""
HELP_KEYS = (pygame.K_SLASH, pygame.K_QUESTION, pygame.K_F1)
SHORT_DROP_ORDER = ["V", "T", "G", "M", "Enter", "F", "N", "Tab", "H", "R"]
"""Which keys leave the short key line first when the window is narrow (others' keys go after these)."""
ESSENTIAL_KEYS = ("P", "?", "Esc")
"""Keys the key line always names: with ``?`` every other key is one press away."""
REPEAT_DELAY = 0.35
"""Seconds a key is held before N, + and - start repeating."""
SIZE_REPEAT = 0.08
"""Seconds between size steps while + or - is held (N repeats every frame)."""
QUIT_SECONDS = 2.0
"""How long after a first Esc in play a second one quits."""
QUIT_ASK = "Esc again to quit"


def repeats(held: float) -> int:
    """How many size steps a +/- key held ``held`` seconds has made after its first.

    >>> [repeats(t) for t in (0.0, 0.34, 0.35, 0.5)]
    [0, 0, 1, 2]
    """
    return 0 if held < REPEAT_DELAY else int((held - REPEAT_DELAY) / SIZE_REPEAT) + 1


def key_lines(bindings: Sequence[Binding]) -> List[str]:
    """Key lines for the bottom bar, longest first; the HUD shows the longest that fits the window.

    Every key with a short name, widely spaced; then closer, dropping the
    less needed keys one by one (:data:`SHORT_DROP_ORDER`); at last only
    moving, pause, all keys (``?``) and quit, which fits the narrowest window
    the demo opens.
    """
    full = ["Arrows/WASD move"] + [
        "+/- size" if b.label == "+" else f"{b.label} {b.short}" for b in bindings if b.short or b.label == "+"
    ]
    lines = ["   ".join(full)]
    short = [b for b in bindings if b.short]
    for label in SHORT_DROP_ORDER + [b.label for b in short]:
        line = "  ".join(["Arrows move"] + [f"{b.label} {b.short}" for b in short])
        if line not in lines:
            lines.append(line)
        if all(b.label in ESSENTIAL_KEYS for b in short):
            break
        short = [b for b in short if b.label != label or b.label in ESSENTIAL_KEYS]
    return lines


class EscToQuit:
    """Two presses of Esc within :data:`QUIT_SECONDS` quit; :meth:`press` says whether this one does.

    >>> esc = EscToQuit()
    >>> esc.press(), esc.press()
    (False, True)
    >>> esc = EscToQuit()
    >>> esc.press(); esc.tick(QUIT_SECONDS); esc.press()
    False
    False
    """

    def __init__(self) -> None:
        self.left = 0.0

    @property
    def asking(self) -> bool:
        """Whether a first Esc is waiting for its second."""
        return self.left > 0

    def press(self) -> bool:
        """Esc in play: True to quit now (the second press), else start asking."""
        if self.asking:
            return True
        self.left = QUIT_SECONDS
        return False

    def tick(self, dt: float) -> None:
        """``dt`` seconds passed (the question lapses)."""
        self.left = max(0.0, self.left - dt)

    def cancel(self) -> None:
        """Any other key: the question is dropped."""
        self.left = 0.0
