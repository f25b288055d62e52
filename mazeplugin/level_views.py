"""What a level shows and writes: its walls, text, pictures and files (a part of :class:`~mazeplugin.Level`).

The text pictures of the one level class: ``str(level)`` of a hex or
wrapping level (:func:`picture`) and the one-line description ``repr``
and ``str`` give (:func:`describe`); :class:`~mazeplugin.Level`'s
``walls()``, ``marked()``, ``to_text()``, SVG, JSON and ``save`` reach
every format through the one seam (:mod:`mazeplugin.seam`).

>>> import mazeplugin as mp
>>> print(mp.generate("kruskal", 3, 2, seed=1).to_text())
#######
S #   #
# ### #
#     E
#######
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .level import Level

__all__ = ["picture", "describe"]


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
