"""Levels as text, the way the founding documents print their mazes.

Styles:

- ``"ascii"``: ``#`` walls, spaces, ``S`` entrance, ``E`` exit (what ``print(level)`` shows);
  things (see :mod:`mazeplugin.content`) as ``D`` door, ``k`` key, ``$`` treasure, ``m`` enemy.
- ``"blocks"``: full-width ``＃`` walls and ideographic spaces, so the maze keeps
  its proportions in CJK-friendly terminals (as the Kruskal document prints).
- ``"box"``: walls drawn with heavy box-drawing lines, two columns per tile
  (as the O(n) Eller document prints).
- ``"digits"``: the 0/1 matrix, with ``IN`` and ``OUT`` written beside the
  entrance and exit rows (as the depth-first document prints).

A weave's bridges (:mod:`mazeplugin.weave`) are marked 8 (a bridge running
north–south, over a tunnel east–west) and 9 (running east–west): ``|`` and
``-`` in ``"ascii"``, and the like in ``"blocks"`` and ``"box"``; floor in
``"digits"``.

>>> import numpy as np
>>> marked = np.array([[1, 1, 1, 1, 1],
...                    [2, 0, 0, 0, 3],
...                    [1, 1, 1, 1, 1]], dtype=np.int8)
>>> print(render(marked, "ascii"))
#####
S   E
#####
>>> print(render(marked, "digits"))
   1 1 1 1 1
IN 0 0 0 0 0 OUT
   1 1 1 1 1
>>> print(render(marked, "box"))
╺━━━━━━━╸ 
S       E 
╺━━━━━━━╸ 
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from .tiles import EAST_BIT, ENTRANCE, EXIT, FLOOR, WALL, wall_neighbours

__all__ = ["STYLES", "render", "marked_tiles", "BRIDGE_NORTH_SOUTH", "BRIDGE_EAST_WEST"]

STYLES = ("ascii", "blocks", "box", "digits")

# Things (mazeplugin.content): door 4, key 5, treasure 6, enemy 7; bridges (mazeplugin.weave) 8 and 9.
BRIDGE_NORTH_SOUTH, BRIDGE_EAST_WEST = 8, 9
_CHARS = {
    "ascii": {WALL: "#", FLOOR: " ", ENTRANCE: "S", EXIT: "E", 4: "D", 5: "k", 6: "$", 7: "m", 8: "|", 9: "-"},
    "blocks": {WALL: "＃", FLOOR: "\u3000", ENTRANCE: "Ｓ", EXIT: "Ｅ", 4: "Ｄ", 5: "ｋ", 6: "＄", 7: "ｍ",
               8: "｜", 9: "－"},
}
_BOX_THINGS = {4: "D ", 5: "k ", 6: "$ ", 7: "m ", 8: "│ ", 9: "──"}

# Heavy box-drawing glyph for each wall_neighbours() mask (N=1, E=2, S=4, W=8).
_BOX = "■╹╺┗╻┃┏┣╸┛━┻┓┫┳╋"


def render(marked: NDArray[np.integer], style: str = "ascii") -> str:
    """Text of a marked tilemap (walls 1, floor 0, entrance 2, exit 3) in ``style``."""
    if style in _CHARS:
        table = _CHARS[style]
        return "\n".join("".join(table[int(v)] for v in row) for row in marked)
    if style == "box":
        return _box(marked)
    if style == "digits":
        return _digits(marked)
    raise ValueError(f"style must be one of {', '.join(map(repr, STYLES))}; got {style!r}")


def _box(marked: NDArray[np.integer]) -> str:
    bits = wall_neighbours(marked)
    lines = []
    for row, row_bits in zip(marked.tolist(), bits.tolist()):
        out = []
        for value, b in zip(row, row_bits):
            if value == WALL:
                # The second column continues the line east when the wall does.
                out.append(_BOX[b] + ("━" if b & EAST_BIT else " "))
            elif value == ENTRANCE:
                out.append("S ")
            elif value == EXIT:
                out.append("E ")
            elif value in _BOX_THINGS:
                out.append(_BOX_THINGS[value])
            else:
                out.append("  ")
        lines.append("".join(out))
    return "\n".join(lines)


def _digits(marked: NDArray[np.integer]) -> str:
    h, w = marked.shape
    left: Dict[int, List[str]] = {}
    right: Dict[int, List[str]] = {}
    for code, label in ((ENTRANCE, "IN"), (EXIT, "OUT")):
        for y, x in zip(*np.nonzero(marked == code)):
            # The label goes on the side of the map the marker is nearer to.
            (left if 2 * x < w - 1 else right).setdefault(int(y), []).append(label)
    gutter = max((len("/".join(v)) for v in left.values()), default=-1) + 1
    lines = []
    for y, row in enumerate(marked.tolist()):
        digits = " ".join("1" if v == WALL else "0" for v in row)
        line = "/".join(left.get(y, [])).ljust(gutter) + digits
        if y in right:
            line += " " + "/".join(right[y])
        lines.append(line)
    return "\n".join(lines)


def marked_tiles(tiles: NDArray[np.uint8], things: Sequence[Any], entrance: Optional[Tuple[int, int]],
                 exit: Optional[Tuple[int, int]]) -> NDArray[np.int8]:
    """An int8 copy of ``tiles`` with each thing's mark (``content.things.MARKS``) on its tiles and the
    markers over them: what :meth:`Level.marked` gives on every level with tiles."""
    out = tiles.astype(np.int8)
    if things:
        from .content.things import MARKS

        for thing in things:
            mark = MARKS.get(thing.kind)
            if mark is not None:
                for x, y in thing.tiles():
                    out[y, x] = mark
    for tile, value in ((entrance, ENTRANCE), (exit, EXIT)):
        if tile is not None:
            out[tile[1], tile[0]] = value
    return out
