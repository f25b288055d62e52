"""Pictures of an environment's level: RGB frames drawn with :mod:`mazeplugin.pg` colours, in numpy.

Two looks: ``"minigrid"`` (black floor, grey walls, a green goal, keys and
doors in their MiniGrid colours, a red triangle for the agent) and
``"mazeplugin"`` (``mazeplugin.pg``'s palette: the demo's paper floor and slate
walls, the red exit square, a blue agent). A frame is uint8 ``(rows * tile,
columns * tile, 3)``: one colour per tile, blown up with ``np.repeat``, and the
agent's triangle and the keys stamped on with boolean masks. Needs pygame
(through ``mazeplugin.pg``) only for its palette and for the ``"human"`` window.
"""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from .engine import DOOR, GOAL, KEY, OPEN, WALL, Batch

__all__ = ["LOOKS", "MINIGRID_COLOURS", "frame"]

LOOKS = ("minigrid", "mazeplugin")
"""The looks :func:`frame` draws."""

MINIGRID_COLOURS = np.array(
    [(255, 0, 0), (0, 255, 0), (0, 0, 255), (112, 39, 195), (255, 255, 0), (100, 100, 100)], dtype=np.uint8
)
"""MiniGrid's colours by colour id (``minigrid.core.constants.COLORS``)."""


def _triangle(tile: int) -> NDArray[np.bool_]:
    """A triangle pointing east inside a ``tile`` × ``tile`` square (MiniGrid's agent)."""
    centres = (np.arange(tile) + 0.5) / tile
    y, x = np.meshgrid(centres, centres, indexing="ij")
    # Corners (0.12, 0.19), (0.87, 0.5), (0.12, 0.81), as MiniGrid draws it.
    upper = (y - 0.19) * (0.87 - 0.12) >= (x - 0.12) * (0.5 - 0.19)
    lower = (0.81 - y) * (0.87 - 0.12) >= (x - 0.12) * (0.81 - 0.5)
    inside: NDArray[np.bool_] = (x >= 0.12) & upper & lower
    return inside


def _palette(look: str) -> Tuple[Tuple[int, int, int], Tuple[int, int, int], Tuple[int, int, int], Tuple[int, int, int]]:
    """``(floor, wall, goal, agent)`` colours of a look."""
    if look == "minigrid":
        return (0, 0, 0), (100, 100, 100), (0, 255, 0), (255, 0, 0)
    import mazeplugin.pg as mpg  # pygame, for the demo's palette

    palette = mpg.DEFAULT_PALETTE
    return palette.floor, palette.wall, palette.exit, (37, 99, 235)


def frame(batch: Batch, index: int, *, tile: int, look: str = "minigrid", seen: Optional[NDArray[np.bool_]] = None) -> NDArray[np.uint8]:
    """The picture of level ``index`` of ``batch``: uint8 ``(rows * tile, columns * tile, 3)``.

    ``seen`` (bool, ``(rows, columns)``) lightens the tiles the agent sees,
    as MiniGrid's ``highlight`` does.

    >>> import mazeplugin as mp
    >>> batch = Batch(1, rows=5, columns=7, view_size=3)
    >>> batch.load(0, mp.generate("kruskal", 3, 2, seed=1))
    >>> picture = frame(batch, 0, tile=4)
    >>> picture.shape, picture[1 * 4 + 2, 0 * 4 + 1].tolist()   # the agent at the entrance (0, 1): red
    ((20, 28, 3), [255, 0, 0])
    """
    floor, wall, goal, agent = _palette(look)
    p = batch.pad
    cells = batch.grid[index, p:p + batch.rows, p:p + batch.columns]
    kind, colour, state = cells[..., 0], cells[..., 1], cells[..., 2]
    rgb = np.empty(kind.shape + (3,), dtype=np.uint8)
    rgb[...] = floor
    rgb[kind == WALL] = wall
    rgb[kind == GOAL] = goal
    doors = kind == DOOR
    door_rgb = MINIGRID_COLOURS[colour[doors]]
    # An open door is drawn dimmed: you may walk through it.
    door_rgb[state[doors] == OPEN] //= 3
    rgb[doors] = door_rgb
    if seen is not None:
        lit = rgb[seen].astype(np.int32)
        rgb[seen] = (lit + (255 - lit) * 3 // 10).astype(np.uint8)
    picture = np.repeat(np.repeat(rgb, tile, axis=0), tile, axis=1)
    centre = np.zeros((tile, tile), dtype=bool)
    centre[tile // 4: tile - tile // 4, tile // 4: tile - tile // 4] = True
    for y, x in zip(*np.nonzero(kind == KEY)):
        block = picture[y * tile:(y + 1) * tile, x * tile:(x + 1) * tile]
        block[centre] = MINIGRID_COLOURS[colour[y, x]]
    ay, ax = int(batch.position[index, 0]) - p, int(batch.position[index, 1]) - p
    # Directions 0 east, 1 south, 2 west, 3 north: the east triangle turned clockwise d times.
    shape = np.rot90(_triangle(tile), -int(batch.direction[index]))
    block = picture[ay * tile:(ay + 1) * tile, ax * tile:(ax + 1) * tile]
    block[shape] = agent
    return picture
