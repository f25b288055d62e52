"""The camera: which part of the level the window shows."""

from __future__ import annotations

from typing import Any, Iterable, Tuple, cast

import pygame


class _View:
    """What every camera shares: a ``view_size`` window whose top-left is world pixel ``(x, y)``.

    Subclasses keep the view where it may go by overriding ``_clamp``.
    """

    view_size: Tuple[int, int]
    x: float
    y: float

    def resize(self, view_size: Tuple[int, int]) -> None:
        """The view (window) changed size; keep showing the same centre (clamped, where the camera clamps)."""
        cx, cy = self.x + self.view_size[0] / 2, self.y + self.view_size[1] / 2
        self.view_size = _check_size_pair("view_size", view_size)
        self.x, self.y = cx - self.view_size[0] / 2, cy - self.view_size[1] / 2
        self._clamp()

    def follow(self, point: Tuple[float, float], *, smoothing: float = 1.0) -> None:
        """Move towards centring world pixel ``point``: all the way (``smoothing=1``) or that fraction of it."""
        if not 0 < smoothing <= 1:
            raise ValueError(f"smoothing must be in (0, 1], got {smoothing}")
        tx = point[0] - self.view_size[0] / 2
        ty = point[1] - self.view_size[1] / 2
        self.x += (tx - self.x) * smoothing
        self.y += (ty - self.y) * smoothing
        self._clamp()

    def _clamp(self) -> None:
        """Keep the view where it may go; a view without bounds goes anywhere."""

    @property
    def offset(self) -> Tuple[int, int]:
        """Screen pixel of world pixel (0, 0): add it to world pixels to draw them."""
        return (-round(self.x), -round(self.y))

    @property
    def view_rect(self) -> "pygame.Rect":
        """The world pixels in view."""
        return pygame.Rect(round(self.x), round(self.y), *self.view_size)

    def to_screen(self, point: Tuple[float, float]) -> Tuple[int, int]:
        """World pixel → screen pixel."""
        ox, oy = self.offset
        return (int(point[0]) + ox, int(point[1]) + oy)

    def to_world(self, point: Tuple[float, float]) -> Tuple[int, int]:
        """Screen pixel → world pixel."""
        ox, oy = self.offset
        return (int(point[0]) - ox, int(point[1]) - oy)

    def apply(self, rect: "pygame.Rect") -> "pygame.Rect":
        """A world rect moved to where it is drawn on screen."""
        return pygame.Rect(rect).move(self.offset)


class Camera(_View):
    """Which part of a world (the level, in pixels) a view (the window) shows.

    ``follow(point)`` centres the view on a world pixel, clamped so the view
    never shows past the map's edges; a map smaller than the view is centred
    in it. ``offset`` is what to add to world pixels to get screen pixels.

    >>> camera = Camera((100, 80), (400, 300))
    >>> camera.follow((10, 10)); camera.offset
    (0, 0)
    >>> camera.follow((390, 290)); camera.offset
    (-300, -220)
    >>> camera.follow((200, 150)); camera.to_screen((200, 150))
    (50, 40)
    >>> Camera((100, 80), (40, 40)).offset       # small map: centred
    (30, 20)
    """

    def __init__(self, view_size: Tuple[int, int], world_size: Tuple[int, int]) -> None:
        self.view_size: Tuple[int, int] = _check_size_pair("view_size", view_size)
        self.world_size: Tuple[int, int] = _check_size_pair("world_size", world_size)
        self.x: float = 0.0
        self.y: float = 0.0
        self._clamp()

    def set_world(self, world_size: Tuple[int, int]) -> None:
        """The world (a new level) changed size."""
        self.world_size = _check_size_pair("world_size", world_size)
        self._clamp()

    def _clamp(self) -> None:
        """Clamp to the world's edges; centre a world smaller than the view."""
        for axis in (0, 1):
            view, world = self.view_size[axis], self.world_size[axis]
            value = self.x if axis == 0 else self.y
            value = -(view - world) / 2 if world <= view else min(max(value, 0.0), float(world - view))
            if axis == 0:
                self.x = value
            else:
                self.y = value


class EndlessCamera(_View):
    """Which world pixels a view (the window) shows, for a world without edges: never clamped.

    The same interface as :class:`Camera` (``follow``, ``resize``,
    ``offset``, ``view_rect``, ``to_screen``, ``to_world``, ``apply``),
    minus the world size.

    >>> camera = EndlessCamera((100, 80))
    >>> camera.follow((-500, 20)); camera.offset, camera.view_rect.topleft
    ((550, 20), (-550, -20))
    """

    view_size: Tuple[int, int]
    x: float
    y: float

    def __init__(self, view_size: Tuple[int, int]) -> None:
        self.view_size = _check_size_pair("view_size", view_size)
        self.x = 0.0
        self.y = 0.0


def _check_size_pair(name: str, size: object) -> Tuple[int, int]:
    try:
        w, h = (int(v) for v in cast(Iterable[Any], size))
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a (width, height) pair of ints, got {size!r}") from None
    if w < 1 or h < 1:
        raise ValueError(f"{name} must be at least (1, 1), got {size!r}")
    return (w, h)
