"""PNG pictures of levels, drawn by :mod:`mazeplugin.pg` (the one module that imports pygame).

pygame is an optional extra, so it is imported only when a PNG is asked for;
without it the call fails with an ``ImportError`` that names the extra to
install. The file is written safely like every level file (see
:mod:`mazeplugin.formats.files`), and a picture over
``mazeplugin.limits.MAX_PICTURE_PIXELS`` pixels is refused before it is drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import seam

from .files import PathLike

if TYPE_CHECKING:  # pragma: no cover
    from ..level import Level

__all__ = ["PYGAME_MISSING", "save_png"]

PYGAME_MISSING = seam.PYGAME_MISSING


def save_png(level: "Level", path: PathLike, *, tile: int = 8, show_solution: bool = False) -> None:
    """Write a PNG of ``level``, ``tile`` pixels per tile, the solution drawn with ``show_solution``.

    >>> import os, tempfile, mazeplugin as mp
    >>> path = os.path.join(tempfile.mkdtemp(), "level.png")
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()):  # pygame may greet on import
    ...     mp.generate("kruskal", 4, 3, seed=7).save_png(path, tile=2)
    >>> open(path, "rb").read(8) == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    seam.save_png(level, path, tile, show_solution)  # mazeplugin.pg draws it; written safely, like every level file
