"""A window that shows numpy RGB frames: the ``"human"`` render mode of :mod:`mazeplugin.gym`.

>>> import numpy as np, os
>>> os.environ.setdefault("SDL_VIDEODRIVER", "dummy") and None
>>> window = FrameWindow("maze")
>>> window.show(np.zeros((24, 32, 3), dtype=np.uint8)).get_size()
(32, 24)
>>> window.close()
"""

from __future__ import annotations

from typing import Optional

import numpy as np
import pygame
from numpy.typing import NDArray

__all__ = ["FrameWindow"]


class FrameWindow:
    """A pygame window sized to the frames shown in it; it handles its own events so it stays responsive."""

    def __init__(self, title: str = "mazeplugin") -> None:
        self.title = title
        self._screen: Optional["pygame.Surface"] = None

    def show(self, rgb: NDArray[np.uint8]) -> "pygame.Surface":
        """Show a uint8 ``(height, width, 3)`` frame; opens (or resizes) the window to fit it."""
        rgb = np.asarray(rgb)
        if rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
            raise ValueError(f"a frame must be uint8 (height, width, 3), got {rgb.dtype} {rgb.shape}")
        size = (rgb.shape[1], rgb.shape[0])
        if self._screen is None or self._screen.get_size() != size:
            pygame.display.init()
            pygame.display.set_caption(self.title)
            self._screen = pygame.display.set_mode(size)
        pygame.surfarray.blit_array(self._screen, rgb.transpose(1, 0, 2))
        pygame.event.pump()
        pygame.display.flip()
        return self._screen

    def close(self) -> None:
        """Close the window (pygame's display); showing a frame again opens a new one."""
        if self._screen is not None:
            pygame.display.quit()
            self._screen = None
