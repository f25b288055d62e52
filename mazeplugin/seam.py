"""The one seam: where a lower layer's convenience call reaches a higher layer.

Data flows one way in mazeplugin (see ``docs/architecture.md``): nothing
imports from a layer above it. Three conveniences would break that rule,
and this module is the only place they do, each with an import inside the
function so that nothing above is loaded until it is asked for:

- :class:`~mazeplugin.level.Level`'s ``save_*``, ``load_*``, ``to_*`` and
  ``from_json`` methods reach :mod:`mazeplugin.formats`;
- :meth:`mazeplugin.rooms.Prefab.from_tiled` reaches the Tiled reader;
- picture files (``save_png`` and picture masks) reach :mod:`mazeplugin.pg`,
  the one package that imports pygame.

``tests/test_architecture.py`` allows upward imports here and nowhere else.

>>> import mazeplugin as mp
>>> level = mp.generate("kruskal", 3, 2, seed=1)
>>> from_json(to_json(level)).tiles.tobytes() == level.tiles.tobytes()
True
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import TYPE_CHECKING, Any, Optional, Tuple, Union

if TYPE_CHECKING:  # pragma: no cover - types only
    import numpy as np
    from numpy.typing import NDArray

    from .level import Level

PathLike = Union[str, "os.PathLike[str]"]

PYGAME_MISSING = (
    'writing PNG files needs pygame: pip install "mazeplugin[pygame]" '
    "(or pip install pygame-ce, or pygame; either one works)"
)

__all__ = [
    "to_svg", "save_png", "save_tmx", "save_tmj", "load_tmx", "load_tmj", "to_json", "from_json",
    "save_json", "load_json", "save_npy", "load_npy", "read_prefab", "pygame_package", "PYGAME_MISSING",
    "grid_svg", "save_hex_tiled", "load_hex_tiled", "save_grid_png", "grid_to_json", "grid_from_json", "save_grid_json",
    "load_grid_json",
]


def pygame_package(missing: str = PYGAME_MISSING) -> ModuleType:
    """:mod:`mazeplugin.pg`, or an ``ImportError`` saying ``missing`` when pygame is not installed."""
    try:  # import_module reads sys.modules first, so a pygame-less test can hide the package
        return importlib.import_module(f"{__package__}.pg")
    except ImportError as error:
        raise ImportError(missing) from error


def to_svg(level: "Level", cell: float, show_solution: bool) -> str:
    from .formats import svg

    return svg.to_svg(level, cell=cell, show_solution=show_solution)


def save_png(level: "Level", path: PathLike, tile: int, show_solution: bool) -> None:
    pygame_package().save_png(level, path, tile=tile, show_solution=show_solution)  # written safely


def save_tmx(level: "Level", path: PathLike, tile: int) -> None:
    from .formats import tiled

    tiled.save_tmx(level, path, tile=tile)


def save_tmj(level: "Level", path: PathLike, tile: int) -> None:
    from .formats import tiled

    tiled.save_tmj(level, path, tile=tile)


def load_tmx(path: PathLike, corridor: Optional[int], wall: Optional[int]) -> "Level":
    from .formats import tiled_read

    return tiled_read.load_tmx(path, corridor=corridor, wall=wall)


def load_tmj(path: PathLike, corridor: Optional[int], wall: Optional[int]) -> "Level":
    from .formats import tiled_read

    return tiled_read.load_tmj(path, corridor=corridor, wall=wall)


def to_json(level: "Level") -> str:
    from .formats import jsonio

    return jsonio.to_json(level)


def from_json(text: str) -> "Level":
    from .formats import jsonio

    return jsonio.from_json(text)


def save_json(level: "Level", path: PathLike) -> None:
    from .formats import jsonio

    jsonio.save_json(level, path)


def load_json(path: PathLike) -> "Level":
    from .formats import jsonio

    return jsonio.load_json(path)


def save_npy(level: "Level", path: PathLike) -> None:
    from .formats import jsonio

    jsonio.save_npy(level, path)


def load_npy(path: PathLike, corridor: int, wall: int) -> "Level":
    from .formats import jsonio

    return jsonio.load_npy(path, corridor=corridor, wall=wall)


def read_prefab(path: PathLike) -> Tuple["NDArray[np.uint8]", "NDArray[np.bool_]", str]:
    """A prefab room drawn in Tiled: ``(tiles, doors, source)``; see ``formats.tiled_read.read_prefab``."""
    from .formats.tiled_read import read_prefab as read

    return read(path)


def mask_from_picture(path: Any, missing: str) -> Any:
    """The cells of a mask picture (``mazeplugin.pg.mask_from_image``); ``ImportError(missing)`` without pygame."""
    return pygame_package(missing).mask_from_image(path)


def grid_svg(level: Any, cell: float, show_solution: bool) -> str:
    """A hex, triangle or polar level as SVG (``formats.grid_svg``)."""
    from .formats import grid_svg as svg

    return svg.to_svg(level, cell=cell, show_solution=show_solution)


def save_hex_tiled(level: Any, path: PathLike, tile: int, kind: str) -> None:
    """A hex level as a Tiled hexagonal map, ``kind`` ``"tmx"`` or ``"tmj"`` (``formats.tiled_hex``)."""
    from .formats import tiled_hex

    (tiled_hex.save_tmx if kind == "tmx" else tiled_hex.save_tmj)(level, path, tile=tile)


def load_hex_tiled(path: PathLike, kind: str) -> Any:
    """The hex level in a Tiled hexagonal map (``formats.tiled_read.load_hex``)."""
    from .formats import tiled_read

    return tiled_read.load_hex(path, kind)


def save_grid_png(level: Any, path: PathLike, cell: int, show_solution: bool) -> None:
    """A hex, triangle or polar level as a PNG (``pg.grids``); ``ImportError`` without pygame."""
    pygame_package().save_grid_png(level, path, cell=cell, show_solution=show_solution)


def grid_to_json(level: Any) -> str:
    """A grid level as JSON text (``formats.grid_json``)."""
    from .formats import grid_json

    return grid_json.to_json(level)


def grid_from_json(text: str) -> Any:
    """The grid level in JSON text (``formats.grid_json``)."""
    from .formats import grid_json

    return grid_json.from_json(text)


def save_grid_json(level: Any, path: PathLike) -> None:
    from .formats import grid_json

    grid_json.save_json(level, path)


def load_grid_json(path: PathLike) -> Any:
    from .formats import grid_json

    return grid_json.load_json(path)
