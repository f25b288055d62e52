"""Pictures as files: PNGs of levels and arrays, and cell masks read from pictures."""

from __future__ import annotations

import io
import os
from typing import Optional, Tuple, Union

import numpy as np
from numpy.typing import NDArray
import pygame

from ..level_protocol import AnyLevel
from ..limits import MAX_CELLS, MAX_IMAGE_FILE_BYTES
from .grid import picture
from .render import surface_from_rgb, draw_markers, render
from .things import draw_things


PathLike = Union[str, "os.PathLike[str]"]


def save_rgb_png(rgb: NDArray[np.uint8], path: PathLike) -> None:
    """Write a uint8 ``(height, width, 3)`` RGB array (indexed ``[y, x]``) to ``path`` as a PNG.

    Always PNG, whatever the file name's extension.

    >>> import os, tempfile, numpy as np
    >>> path = os.path.join(tempfile.mkdtemp(), "red.png")
    >>> save_rgb_png(np.full((2, 3, 3), (255, 0, 0), dtype=np.uint8), path)
    >>> import pygame; pygame.image.load(path).get_size()
    (3, 2)
    """
    array = np.asarray(rgb)
    if array.dtype != np.uint8:
        raise TypeError(f"rgb must be a uint8 array, not {array.dtype}")
    if array.ndim != 3 or array.shape[2] != 3 or array.shape[0] == 0 or array.shape[1] == 0:
        raise ValueError(f"rgb must have shape (height, width, 3) with height, width >= 1, got {array.shape}")
    _save_surface(surface_from_rgb(array), path)


def _save_surface(surface: "pygame.Surface", path: PathLike) -> None:
    from ..formats.files import atomic_path  # safe writing: see mazeplugin.formats.files

    with atomic_path(path) as temporary:
        with open(temporary, "wb") as file:
            # The name hint makes it a PNG whatever the path's extension.
            pygame.image.save(surface, file, "png")


def save_png(level: AnyLevel, path: PathLike, *, tile: Optional[int] = None, cell: Optional[int] = None,
             show_solution: bool = False) -> None:
    """Write a picture of ``level`` to ``path`` as a PNG: :func:`render`'s, by tiles (``tile`` pixels a tile)
    or by cells (``cell`` pixels a grid unit), with the default palette (entrance and exit marked, the
    solution path too with ``show_solution``) and the level's things (:func:`draw_things`; by tiles with
    their default sprites, patrols and marker sprites over them).

    >>> import os, tempfile, mazeplugin as mp, pygame
    >>> path = os.path.join(tempfile.mkdtemp(), "level.png")
    >>> save_png(mp.generate("kruskal", 4, 3, seed=7), path, tile=2)
    >>> pygame.image.load(path).get_size()
    (18, 14)
    >>> save_png(mp.generate("kruskal", 5, 4, grid="triangle", seed=2), path, cell=10)
    >>> pygame.image.load(path).get_size()
    (40, 45)
    """
    if not isinstance(level, AnyLevel):
        raise TypeError(f"level must be a mazeplugin level (mp.AnyLevel), not {type(level).__name__}")
    unit, size = picture(level, tile, cell)
    surface = render(level, tile=size if unit == "tile" else None, cell=size if unit == "cell" else None,
                     show_solution=show_solution)
    if level.things and unit == "cell":
        draw_things(surface, level, cell=size)
    elif level.things:
        draw_things(surface, level, tile=size, patrols=True)
        draw_markers(surface, level, tile=size)
    _save_surface(surface, path)


def mask_from_image(path: PathLike, *, threshold: int = 128) -> NDArray[np.bool_]:
    """A cell mask from a picture: one cell per pixel, ``[y, x]``; light pixels are cells.

    True (a cell) where the pixel's luminance ``0.299 R + 0.587 G + 0.114 B``
    is at least ``threshold``, False (solid rock) where it is darker, or
    where the pixel is more than half transparent. So draw the shape in white
    on black. Any format pygame can load (PNG, BMP, ...).

    >>> import os, tempfile, numpy as np
    >>> path = os.path.join(tempfile.mkdtemp(), "mask.png")
    >>> save_rgb_png(np.array([[[255, 255, 255], [0, 0, 0]]], dtype=np.uint8), path)
    >>> mask_from_image(path).tolist()
    [[True, False]]
    """
    if isinstance(threshold, bool) or not isinstance(threshold, (int, np.integer)):
        raise TypeError(f"threshold must be an int in 0..256, not {type(threshold).__name__}")
    if not 0 <= threshold <= 256:
        raise ValueError(f"threshold must be in 0..256 (256: no pixel is a cell), got {threshold}")
    from ..formats.files import read_limited  # never a FIFO or a device, never a giant file

    source = os.fspath(path)
    data = read_limited(source, MAX_IMAGE_FILE_BYTES, what="a picture")
    size = _png_size(data)
    if size is not None and size[0] * size[1] > MAX_CELLS:
        raise ValueError(
            f"{source}: a {size[0]:,} × {size[1]:,} picture has more pixels than a mask may have cells "
            f"(at most {MAX_CELLS:,})"
        )
    try:
        image = pygame.image.load(io.BytesIO(data), os.path.basename(source))
    except (pygame.error, MemoryError) as error:
        raise ValueError(f"cannot read an image from {source!r}: {error}") from None
    rgb = pygame.surfarray.array3d(image).swapaxes(0, 1).astype(np.uint32)
    # Integer luminance (ITU-R BT.601 weights, x1000) so the threshold is exact.
    luma = rgb[..., 0] * 299 + rgb[..., 1] * 587 + rgb[..., 2] * 114
    mask = luma >= threshold * 1000
    if image.get_flags() & pygame.SRCALPHA or image.get_colorkey() is not None:
        alpha = pygame.surfarray.array_alpha(image).swapaxes(0, 1)
        mask &= alpha >= 128
    return np.ascontiguousarray(mask)


def _png_size(data: bytes) -> Optional[Tuple[int, int]]:
    """``(width, height)`` from a PNG's header, read before decoding it (None if not a PNG)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None
