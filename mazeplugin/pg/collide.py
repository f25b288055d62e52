"""Moving through a level: swept rect collision that never passes a wall, and grid steps."""

from __future__ import annotations

import math
from typing import Any, Iterable, Optional, Sequence, Tuple, Union, cast, overload

import numpy as np
from numpy.typing import NDArray
import pygame

from ..tiles import FLOOR
from .grid import TilesLike, DIRECTIONS, check_tile_size, tiles_of


RectLike = Union["pygame.Rect", Tuple[int, int, int, int], Sequence[int]]


Motion = Union[float, "pygame.math.Vector2", Tuple[float, float], Sequence[float]]


FRECT = getattr(pygame, "FRect", None)  # pygame-ce only: a rect of floats


def _check_pixels(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number of pixels (int or float), not {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number of pixels, got {value}")
    return float(value)


def motion_of(dx: object, dy: object) -> Tuple[float, float]:
    """``(dx, dy)`` from two numbers, or from one Vector2 / pair as ``dx`` (``dy`` None)."""
    if dy is None:
        if isinstance(dx, (str, bytes)):
            raise TypeError(f"motion must be two numbers or a (dx, dy) pair / Vector2, not {dx!r}")
        try:
            mx, my = cast(Iterable[Any], dx)
        except (TypeError, ValueError):
            raise TypeError(
                f"motion must be dx, dy numbers or one (dx, dy) pair / pygame.Vector2, got {dx!r}"
            ) from None
        return (_check_pixels("dx", mx), _check_pixels("dy", my))
    return (_check_pixels("dx", dx), _check_pixels("dy", dy))


def _first_blocked(tiles: NDArray[np.uint8], lanes: range, steps: range, *, horizontal: bool) -> Optional[int]:
    """The first tile column (``horizontal``) or row in ``steps`` that is solid across ``lanes``.

    Off the map is solid.
    """
    h, w = tiles.shape
    limit_lanes, limit_steps = (h, w) if horizontal else (w, h)
    if lanes.start < 0 or lanes.stop > limit_lanes:
        return steps.start if len(steps) else None
    for step in steps:
        if not 0 <= step < limit_steps:
            return step
        line = tiles[lanes.start:lanes.stop, step] if horizontal else tiles[step, lanes.start:lanes.stop]
        if (line != FLOOR).any():
            return step
    return None


def _span(low: float, size: float, tile: int) -> range:
    """The tiles a segment ``[low, low + size)`` of pixels overlaps (at least one)."""
    first = math.floor(low / tile)
    return range(first, max(math.ceil((low + size) / tile), first + 1))


def _slide(tiles: NDArray[np.uint8], low: float, size: float, d: float, lanes: range, tile: int, *, horizontal: bool) -> float:
    """The new ``low`` after moving the segment ``[low, low + size)`` by ``d``, stopping flush at the first wall.

    Sweeps every tile line between the segment's leading edge and where it
    would end, so no speed passes through a wall.
    """
    span = _span(low, size, tile)
    if d > 0:
        ahead = range(span.stop, math.ceil((low + size + d) / tile))
        hit = _first_blocked(tiles, lanes, ahead, horizontal=horizontal)
        return low + d if hit is None else min(low + d, max(low, hit * tile - size))
    ahead = range(span.start - 1, math.floor((low + d) / tile) - 1, -1)
    hit = _first_blocked(tiles, lanes, ahead, horizontal=horizontal)
    return low + d if hit is None else max(low + d, min(low, float((hit + 1) * tile)))


def _float32(low: float, size: float, tile: int) -> float:
    """``low`` as an FRect stores it (float32), nudged so the segment covers no tile its exact value did not."""
    want = _span(low, size, tile)
    stored = np.float32(low)
    for _ in range(4):  # float32 steps are far finer than a tile: one nudge is always enough
        got = _span(float(stored), size, tile)
        if got.stop > want.stop:
            stored = np.nextafter(stored, np.float32(-np.inf))
        elif got.start < want.start:
            stored = np.nextafter(stored, np.float32(np.inf))
        else:
            break
    return float(stored)


@overload
def move_rect(level: TilesLike, rect: "pygame.FRect", dx: Motion, dy: Optional[float] = None, *, tile: int) -> "pygame.FRect": ...


@overload
def move_rect(level: TilesLike, rect: RectLike, dx: Motion, dy: Optional[float] = None, *, tile: int) -> "pygame.Rect": ...


def move_rect(level: TilesLike, rect: Any, dx: Motion, dy: Optional[float] = None, *, tile: int) -> Any:
    """``rect`` moved by ``(dx, dy)`` world pixels without entering a wall tile: a new rect of the same kind.

    The motion is two numbers (ints or floats) or one ``pygame.Vector2`` /
    ``(dx, dy)`` pair. A ``pygame.FRect`` (pygame-ce) comes back as an FRect
    and keeps its sub-pixel position; a ``Rect`` (or a rect-like tuple) comes
    back as a ``Rect``, its motion rounded to whole pixels (keep the remainder
    yourself, or use an FRect, for speeds below a pixel per frame).

    Moves along x first, then along y (so a diagonal move slides along a
    wall). Each move sweeps every tile column or row it crosses and stops
    flush against the first wall, so nothing tunnels through a wall at any
    speed. Tiles off the map are solid. A rect that already overlaps a wall
    can still move out of it.

    >>> import mazeplugin as mp, pygame
    >>> level = mp.generate("kruskal", 3, 2, seed=1)
    >>> print(level)
    #######
    S #   #
    # ### #
    #     E
    #######
    >>> player = pygame.Rect(10, 10, 8, 8)             # on tile (1, 1), 10-pixel tiles
    >>> tuple(move_rect(level, player, 35, 0, tile=10))  # stops at the wall (2, 1)
    (12, 10, 8, 8)
    >>> tuple(move_rect(level, player, -50, -50, tile=10))  # west to the map's edge; north is wall
    (0, 10, 8, 8)
    >>> tuple(move_rect(level, player, pygame.Vector2(-2.4, 0), tile=10))  # rounded for a Rect
    (8, 10, 8, 8)
    """
    tiles = tiles_of(level)
    tile = check_tile_size(tile)
    mx, my = motion_of(dx, dy)
    exact = FRECT is not None and isinstance(rect, FRECT)
    if exact:
        x, y, w, h = float(rect.x), float(rect.y), float(rect.w), float(rect.h)
    else:
        moved = pygame.Rect(rect)
        x, y, w, h = float(moved.x), float(moved.y), float(moved.w), float(moved.h)
        mx, my = float(round(mx)), float(round(my))
    if mx:
        x = _slide(tiles, x, w, mx, _span(y, h, tile), tile, horizontal=True)
        if exact:
            x = _float32(x, w, tile)
    if my:
        y = _slide(tiles, y, h, my, _span(x, w, tile), tile, horizontal=False)
        if exact:
            y = _float32(y, h, tile)
    if exact:
        return type(rect)(x, y, w, h)  # an FRect (or a subclass), as given
    return pygame.Rect(int(x), int(y), int(w), int(h))


def can_move(level: TilesLike, position: Tuple[int, int], direction: Union[str, Tuple[int, int]]) -> bool:
    """Whether one grid step from tile ``position`` in ``direction`` lands on a floor tile of the map.

    ``direction`` is ``"north"``/``"up"``, ``"east"``/``"right"``,
    ``"south"``/``"down"``, ``"west"``/``"left"`` or a unit step ``(dx, dy)``.

    >>> import mazeplugin as mp
    >>> level = mp.generate("kruskal", 3, 2, seed=1)
    >>> can_move(level, level.entrance, "east"), can_move(level, level.entrance, "west")
    (True, False)
    """
    tiles = tiles_of(level)
    if isinstance(direction, str):
        try:
            dx, dy = DIRECTIONS[direction.lower()]
        except KeyError:
            raise ValueError(
                f"direction must be one of {', '.join(map(repr, DIRECTIONS))} or a unit (dx, dy) step, "
                f"got {direction!r}"
            ) from None
    else:
        try:
            dx, dy = (int(v) for v in direction)
        except (TypeError, ValueError):
            raise TypeError(f"direction must be a name or a (dx, dy) pair, got {direction!r}") from None
        if abs(dx) + abs(dy) != 1:
            raise ValueError(f"direction must be one grid step, (±1, 0) or (0, ±1), got {direction!r}")
    x, y = (int(v) for v in position)
    h, w = tiles.shape
    nx, ny = x + dx, y + dy
    return 0 <= nx < w and 0 <= ny < h and bool(tiles[ny, nx] == FLOOR)
