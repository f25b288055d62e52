"""Hex, triangle and polar levels as SVG pictures: each cell's outline, walls where no passage opens.

Every side of every cell (:meth:`mazeplugin.grids.Grid.sides`: hexagon and
triangle edges, ring arcs and radial lines) is drawn once, by the lower
numbered of the two cells it parts, unless their passage is open; sides on
the grid's rim are drawn except the entrance's and exit's openings. One
``<path>`` holds every wall. The entrance (green) and exit (red) are discs
at their cells' centres; with ``show_solution`` the shortest way is a
polyline through cell centres. Units are the grid's own (a hexagon's
corner radius, a triangle's side, a ring's depth), ``cell`` pixels each.

Content (``level.things``) is drawn simply, in the square pictures'
colours: a door as a thick bar on the side its passage crosses, a key as a
disc, treasure as a square, an enemy as a disc with its patrol as a dashed
line through the cell centres, a game's own kinds as small grey discs; each
shape has the thing's kind as its class.

>>> import mazeplugin as mp
>>> picture = to_svg(mp.generate("backtracker", 6, 3, grid="polar", seed=1), show_solution=True)
>>> picture.startswith("<svg") and 'class="solution"' in picture and 'class="walls"' in picture
True
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Callable, List, Tuple
from xml.sax.saxutils import escape

from .svg import COLOURS

if TYPE_CHECKING:  # pragma: no cover
    from ..grid_level import GridLevel

__all__ = ["to_svg", "wall_lines"]

MARGIN = 0.5  # grid units around the drawing
_QUOTE = {'"': "&quot;"}  # with escape(): a game's own kind (any text) safe inside an attribute


def wall_lines(level: "GridLevel") -> List[List[Tuple[float, float]]]:
    """The polylines of every wall of ``level``, in grid units (:meth:`GridLevel.walls`)."""
    return level.walls()


def to_svg(level: "GridLevel", cell: float = 20, *, show_solution: bool = False) -> str:
    """The level as an SVG document, ``cell`` pixels per grid unit."""
    if isinstance(cell, bool) or not isinstance(cell, numbers.Real) or not 1 <= float(cell) <= 1024:
        raise ValueError(f"cell must be a number of pixels from 1 to 1024, got {cell!r}")
    grid = level.maze.grid
    width, height = grid.extent()
    px_w, px_h = round((width + 2 * MARGIN) * cell), round((height + 2 * MARGIN) * cell)

    def point(p: Tuple[float, float]) -> str:
        return f"{p[0] + MARGIN:.3f},{p[1] + MARGIN:.3f}"

    walls = " ".join("M" + " L".join(point(p) for p in line) for line in wall_lines(level))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{px_w}" height="{px_h}" '
        f'viewBox="0 0 {width + 2 * MARGIN:.3f} {height + 2 * MARGIN:.3f}">',
        f'<rect width="100%" height="100%" fill="{COLOURS["floor"]}"/>',
        f'<path class="walls" d="{walls}" fill="none" stroke="{COLOURS["wall"]}" stroke-width="0.15" '
        'stroke-linecap="round" stroke-linejoin="round"/>',
    ]
    if show_solution and level.entrance_cell is not None:
        way = " ".join(point(grid.centre(c)) for c in level.solution_cells())
        parts.append(f'<polyline class="solution" points="{way}" fill="none" stroke="{COLOURS["solution"]}" '
                     'stroke-width="0.2" stroke-linejoin="round"/>')
    parts += _things(level, point)
    for name, where in (("entrance", level.entrance_cell), ("exit", level.exit_cell)):
        if where is not None:
            x, y = grid.centre(where)
            parts.append(f'<circle class="{name}" cx="{x + MARGIN:.3f}" cy="{y + MARGIN:.3f}" r="0.35" '
                         f'fill="{COLOURS[name]}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _things(level: "GridLevel", point: Callable[[Tuple[float, float]], str]) -> List[str]:
    """The SVG shapes of ``level.things`` (see the module docstring)."""
    grid = level.maze.grid
    out = []
    for thing in level.things:
        x, y = grid.centre(thing.cell)
        x, y = x + MARGIN, y + MARGIN
        kind = thing.kind
        if kind == "door":
            a, b = thing.props["cells"]
            line = next(side for other, side in grid.sides(a) if other == b)
            out.append(f'<polyline class="door" points="{" ".join(point(p) for p in line)}" fill="none" '
                       f'stroke="{COLOURS["door"]}" stroke-width="0.3" stroke-linecap="butt"/>')
        elif kind == "treasure":
            out.append(f'<rect class="treasure" x="{x - 0.2:.3f}" y="{y - 0.2:.3f}" width="0.4" height="0.4" '
                       f'fill="{COLOURS["treasure"]}"/>')
        elif kind == "enemy":
            walk = " ".join(point(grid.centre(c)) for c in thing.props["patrol"])
            out.append(f'<polyline class="patrol" points="{walk}" fill="none" stroke="{COLOURS["enemy"]}" '
                       'stroke-width="0.08" stroke-dasharray="0.2 0.15"/>')
            out.append(f'<circle class="enemy" cx="{x:.3f}" cy="{y:.3f}" r="0.28" fill="{COLOURS["enemy"]}"/>')
        else:
            colour, r = (COLOURS["key"], 0.25) if kind == "key" else (COLOURS["thing"], 0.18)
            out.append(f'<circle class="{"key" if kind == "key" else "thing"}" data-kind="{escape(kind, _QUOTE)}" '
                       f'cx="{x:.3f}" cy="{y:.3f}" r="{r}" fill="{colour}" stroke="{COLOURS["wall"]}" '
                       'stroke-width="0.05"/>')
    return out
