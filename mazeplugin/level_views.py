"""What a level shows and writes: its walls, text, pictures and files (a part of :class:`~mazeplugin.Level`).

The methods of the one level class that turn a level into something to
look at or keep, on every grid: :func:`walls`, :func:`marked`,
:func:`to_text`, SVG, JSON and every file format through the one seam
(:mod:`mazeplugin.seam`); :class:`~mazeplugin.Level` takes them as its own
(``level.to_text()`` is ``to_text(level)``).

>>> import mazeplugin as mp
>>> print(mp.generate("kruskal", 3, 2, seed=1).to_text())
#######
S #   #
# ### #
#     E
#######
"""

from __future__ import annotations

import os
from collections import Counter
from typing import TYPE_CHECKING, Any, List, Optional, Union

import numpy as np
from numpy.typing import NDArray

from . import seam, text
from .tiles import FLOOR

if TYPE_CHECKING:  # pragma: no cover
    from .level import Level
    from .level_tiles import Line

__all__ = ["walls", "marked", "to_text", "to_svg", "to_json", "save", "text_of", "repr_of", "picture", "describe"]

PathLike = Union[str, "os.PathLike[str]"]


def walls(level: "Level") -> List["Line"]:
    """Every wall as a polyline in the grid's drawing units (a square cell 1 × 1, y down), for pictures and
    games: each side of each cell once, by the lower numbered of the two cells it parts, unless their passage
    is open (a weave's tunnel too); sides on the grid's rim, except the entrance's and exit's openings.

    >>> import mazeplugin as mp
    >>> level = mp.generate("kruskal", 4, 3, seed=7)  # a perfect maze: 11 of its 17 inner sides open
    >>> len(level.walls()), level.walls()[0]  # 6 inner walls, the rim's 14 sides but the 2 openings
    (18, [(0.0, 0.0), (1.0, 0.0)])
    """
    from .level_tiles import graph_walls, square_walls

    return square_walls(level.base_tiles) if level.square else graph_walls(level.maze, level.openings)


def marked(level: "Level") -> NDArray[np.int8]:
    """An int8 copy of the tiles with ``mp.ENTRANCE`` (2) and ``mp.EXIT`` (3) written in, and under them the
    things: ``mp.DOOR`` (4) on every tile a door blocks, ``mp.KEY`` (5), ``mp.TREASURE`` (6), ``mp.ENEMY`` (7)
    where an enemy starts; a game's own kinds are not written."""
    if not level.tiled:
        raise level._no_tiles("marked")
    return text.marked_tiles(level.tiles, level.tile_things(), level.entrance_tile, level.exit_tile)


def to_text(level: "Level", style: str = "ascii") -> str:
    """The tilemap as text, a character a tile: ``"ascii"``, ``"blocks"``, ``"box"`` or ``"digits"``
    (:mod:`mazeplugin.text`; a weave's bridges show as ``|`` running north–south and ``-`` in ``"ascii"``).
    ``str(level)`` of a hex or wrapping level is its own picture (a hex level's rows staggered)."""
    if not level.tiled:
        raise level._no_tiles("to_text")
    picture = level.marked()
    if level.weave:
        bare, crossings = picture == FLOOR, level.bridges
        picture[bare & (crossings == 1)] = text.BRIDGE_NORTH_SOUTH
        picture[bare & (crossings == 2)] = text.BRIDGE_EAST_WEST
    return text.render(picture, style)


def to_svg(level: "Level", cell: Optional[float] = None, *, show_solution: bool = False) -> str:
    """The level as an SVG picture (:mod:`mazeplugin.formats.svg`): ``cell`` pixels a tile on a square level
    (default 10), a cell on the others (default 20; cell outlines as walls)."""
    return seam.to_svg(level, (10 if level.square else 20) if cell is None else cell, show_solution)


def to_json(level: "Level") -> str:
    """The level as JSON text that ``mp.from_json`` loads back (:mod:`mazeplugin.formats.jsonio`)."""
    return seam.to_json(level)


def save(level: "Level", path: "PathLike", *, format: Optional[str] = None, **options: Any) -> None:
    """Write the level to ``path`` in the format its suffix names (or ``format``: ``"json"``, ``"tmx"``, ...):
    ``.json``; ``.tmx``/``.tmj`` (square and hex levels: Tiled maps and their tileset image; ``tile``, default
    16 square, 32 hex); ``.npy`` (square); ``.svg`` (``cell``, ``show_solution``); ``.png`` (needs pygame;
    ``tile``, default 8, on a square level, ``cell``, default 20, on the others; ``show_solution``); ``.txt``
    (levels with tiles; ``style`` on a square level, :meth:`to_text`). A suffix the grid cannot hold is refused
    before anything is written; ``mp.load`` reads ``.json``, Tiled maps and ``.npy`` back. Written safely
    (:mod:`mazeplugin.formats.files`); see :mod:`mazeplugin.formats.level_files`.

    >>> import os, tempfile, mazeplugin as mp
    >>> path = os.path.join(tempfile.mkdtemp(), "level.json")
    >>> level = mp.generate("kruskal", 4, 3, seed=7)
    >>> level.save(path)
    >>> mp.load(path).tiles.tobytes() == level.tiles.tobytes()
    True
    """
    seam.save(level, path, format, options)


def text_of(level: "Level") -> str:
    """``str(level)``: a square level's :meth:`to_text`; a hex or wrapping level's :func:`picture`; a line saying
    what a triangle or polar level is, which has no tiles (the words 0.3 printed, kept byte for byte)."""
    if level.square or level.tiled:
        return level.to_text("ascii") if level.square else picture(level)
    return describe(level, "GridLevel")


def repr_of(level: "Level") -> str:
    """``repr(level)``: what made it and its size (its tiles and markers, or its things' kinds on a grid maze)."""
    return describe(level, "Level")


def picture(level: "Level") -> str:
    """A hex or wrapping level's tiles as text (``#`` wall; ``D`` door, ``k`` key, ``$`` treasure, ``m``
    enemy; a hex level's odd rows shifted half a tile right): ``str(level)`` and its ``.txt`` file."""
    hexes = level.grid == "hex"
    rows = [["#" if t else ("." if hexes else " ") for t in line] for line in level.tiles.tolist()]
    marks = {"door": "D", "key": "k", "treasure": "$", "enemy": "m"}
    for thing in level.tile_things():
        for x, y in thing.tiles():
            rows[y][x] = marks.get(thing.kind, rows[y][x])
    if hexes:
        return "\n".join((" " if row % 2 else "") + " ".join(line) for row, line in enumerate(rows))
    return "\n".join("".join(line) for line in rows)


def describe(level: "Level", name: str) -> str:
    """What made ``level`` and its size (and its things' kinds on a grid maze), as a ``name(...)``."""
    if level.square:
        rows, columns = level.shape
        return (f"<Level {level.algorithm or 'custom'} {level.width}x{level.height} seed={level.seed!r} "
                f"tiles={columns}x{rows} entrance={level.entrance} exit={level.exit}>")
    things = ""
    if level.things:
        kinds = sorted(Counter(t.kind for t in level.things).items())
        things = ", things={" + ", ".join(f"{k!r}: {v}" for k, v in kinds) + "}"
    return (f"{name}(grid={level.grid!r}, {level.width}x{level.height}, {level.cells} cells, "
            f"algorithm={level.algorithm!r}, seed={level.seed!r}{things})")
