"""Image pairs for vision models: each level as an input picture (the maze) and a target (the maze and its solution).

As maze-dataset's easy-to-hard pictures: one square of ``scale`` x ``scale``
pixels a tile, RGB uint8. Walls black, floor white, the entrance green, the
exit red, keys yellow and locked doors brown; in the target the solution's
other tiles are blue. The pictures of a whole shard are made in one numpy
step from a small code map per level (:func:`codes`, then :func:`pixels`).

>>> import mazeplugin as mp
>>> level = mp.generate("kruskal", 3, 2, seed=1)
>>> pair = pixels(codes(level.tiles, level.entrance, level.exit, level.solution())[None], 2)[0]
>>> pair.shape, pair[0, 2, 0].tolist(), pair[1, 2, 2].tolist(), pair[0, 2, 2].tolist()
((2, 10, 14, 3), [0, 255, 0], [0, 0, 255], [255, 255, 255])
"""

from __future__ import annotations

from typing import Iterable, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

__all__ = ["PALETTE", "FLOOR_CODE", "WALL_CODE", "ENTRANCE_CODE", "EXIT_CODE", "PATH_CODE", "KEY_CODE", "DOOR_CODE",
           "MAX_SCALE", "codes", "pixels"]

FLOOR_CODE, WALL_CODE, ENTRANCE_CODE, EXIT_CODE, PATH_CODE, KEY_CODE, DOOR_CODE = range(7)
PALETTE = np.array([[255, 255, 255], [0, 0, 0], [0, 255, 0], [255, 0, 0], [0, 0, 255], [255, 255, 0], [128, 64, 0]],
                   dtype=np.uint8)
"""The colour of each code: floor, wall, entrance, exit, solution, key, door."""
MAX_SCALE = 32
"""Largest ``image_scale`` (pixels a tile side)."""

Tile = Tuple[int, int]


def codes(tiles: NDArray[np.uint8], entrance: Tile, exit: Tile, path: Sequence[Tile],
          keys: Iterable[Tile] = (), doors: Iterable[Tile] = ()) -> NDArray[np.uint8]:
    """The code map of one level's pair: uint8 ``(2, rows, columns)``, input then target (see :data:`PALETTE`)."""
    out = np.empty((2,) + tiles.shape, dtype=np.uint8)
    out[0] = tiles  # FLOOR_CODE 0, WALL_CODE 1: the tiles' own values
    for x, y in keys:
        out[0, y, x] = KEY_CODE
    for x, y in doors:
        out[0, y, x] = DOOR_CODE
    out[1] = out[0]
    if len(path):
        walked = np.asarray(path, dtype=np.intp).reshape(-1, 2)
        out[1, walked[:, 1], walked[:, 0]] = PATH_CODE
    for layer in (0, 1):
        out[layer, entrance[1], entrance[0]] = ENTRANCE_CODE
        out[layer, exit[1], exit[0]] = EXIT_CODE
    return out


def pixels(code_maps: NDArray[np.uint8], scale: int) -> NDArray[np.uint8]:
    """RGB pictures of code maps ``(..., rows, columns)``: uint8 ``(..., rows * scale, columns * scale, 3)``."""
    if isinstance(scale, bool) or not isinstance(scale, int) or not 1 <= scale <= MAX_SCALE:
        raise ValueError(f"image_scale must be an int from 1 to {MAX_SCALE}, got {scale!r}")
    coloured: NDArray[np.uint8] = PALETTE[code_maps]
    if scale > 1:
        coloured = np.repeat(np.repeat(coloured, scale, axis=-3), scale, axis=-2)
    return coloured
