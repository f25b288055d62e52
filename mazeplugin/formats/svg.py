"""Levels as SVG pictures that open in any browser.

The picture is the tilemap: one square per tile, ``cell`` pixels wide
(``viewBox`` units are tiles, so the drawing scales cleanly). Walls are one
``<path>`` of rectangles, one per horizontal run of wall tiles; the entrance
(green) and exit (red) are discs at their tiles' centres; with
``show_solution`` the shortest path is a polyline through tile centres.
Things (:mod:`mazeplugin.content`) are drawn over the floor, each an element
of class ``thing`` and its kind with a ``<title>``: a door fills the tiles it
blocks, a key is a gold diamond, treasure an amber square, an enemy a purple
disc with its patrol as a dashed line, a one-way drop a blue arrow pointing
the way it is walked (:mod:`mazeplugin.content.drops`), a game's own kind a
small grey disc.
A weave level's bridges (:mod:`mazeplugin.weave`) are a ``<path>`` of class
``bridges``: two railings along each bridge tile, so the tunnel under it is a
gap in the walls on either side.

A level with no square tilemap (hex, triangle, polar, wrapping square) is
drawn from its cells instead: every side of every cell
(:meth:`mazeplugin.grids.Grid.sides`: hexagon and triangle edges, ring arcs
and radial lines) once, by the lower numbered of the two cells it parts,
unless their passage is open; sides on the grid's rim except the entrance's
and exit's openings. One ``<path>`` holds every wall; the entrance and exit
are discs at their cells' centres, the solution a polyline through cell
centres, in the grid's own units (a hexagon's corner radius, a triangle's
side, a ring's depth), ``cell`` pixels each. Its things are drawn simply in
the same colours: a door a thick bar on its passage's side, a key a disc,
treasure a square, an enemy a disc with its patrol dashed through the cell
centres, a game's own kinds small grey discs, each of its kind's class.

>>> import mazeplugin as mp
>>> picture = to_svg(mp.generate("kruskal", 4, 3, seed=7), cell=12, show_solution=True)
>>> picture.startswith("<svg") and 'width="108" height="84"' in picture
True
>>> 'class="solution"' in picture and 'class="entrance"' in picture
True
>>> 'class="thing door"' in to_svg(mp.generate("kruskal", 8, 6, seed=1, keys=1))
True
>>> picture = to_svg(mp.generate("backtracker", 6, 3, grid="polar", seed=1), show_solution=True)
>>> picture.startswith("<svg") and 'class="solution"' in picture and 'class="walls"' in picture
True
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Any, Callable, List, NamedTuple, Optional, Tuple
from xml.sax.saxutils import escape

import numpy as np

from ..content.drops import DIRECTIONS
from ..tiles import WALL

if TYPE_CHECKING:  # pragma: no cover
    from ..level import Level

__all__ = ["to_svg", "COLOURS"]

COLOURS = {
    "wall": "#2e3440",
    "floor": "#ece5d6",
    "entrance": "#4caf50",
    "exit": "#e53935",
    "solution": "#ffc107",
    "door": "#8d5524",
    "key": "#ffd54f",
    "treasure": "#ff8f00",
    "enemy": "#8e24aa",
    "thing": "#78909c",
    "drop": "#1f77b4",
}
"""Fill and stroke colours: the one table every picture draws in (:mod:`mazeplugin.pg`'s default palette
and sprite colours are read from it)."""


class _Picture(NamedTuple):
    """What differs between a picture by tiles and one by cells: its opening elements, where a place's
    centre is (as ``x``, ``y`` attribute text), the places its solution and markers stand on, its things,
    and the solution's and markers' shapes (``_TILES`` or ``_CELLS``)."""

    head: List[str]
    at: Callable[[Any], Tuple[str, str]]
    way: Optional[List[Any]]
    markers: Tuple[Any, Any]
    things: List[str]
    solution: str
    marker: str


_TILES = ('stroke-width="0.3" stroke-linecap="round" stroke-linejoin="round" shape-rendering="auto"',
          'r="0.4" fill="{colour}" shape-rendering="auto"><title>{name}</title></circle>')
_CELLS = ('stroke-width="0.2" stroke-linejoin="round"', 'r="0.35" fill="{colour}"/>')


def to_svg(level: Any, *, cell: Optional[float] = None, show_solution: bool = False) -> str:
    """Any level as SVG text: a square tilemap ``cell`` pixels per tile (default 10; the picture is
    ``columns * cell`` by ``rows * cell`` pixels), any other grid by its cells' outlines, ``cell`` pixels per
    grid unit (default 20, from 1 to 1024). ``cell`` is a positive number.
    """
    picture = _by_tiles(level, cell, show_solution) if level.kind == "square" else _by_cells(level, cell, show_solution)
    parts = list(picture.head)
    if picture.way is not None:
        points = " ".join(",".join(picture.at(place)) for place in picture.way)
        parts.append(f'<polyline class="solution" points="{points}" fill="none" stroke="{COLOURS["solution"]}" '
                     f'{picture.solution}/>')
    parts += picture.things
    for name, place in zip(("entrance", "exit"), picture.markers):
        if place is not None:
            x, y = picture.at(place)
            parts.append(f'<circle class="{name}" cx="{x}" cy="{y}" '
                         + picture.marker.format(colour=COLOURS[name], name=name))
    return "\n".join(parts) + "\n</svg>\n"


def _by_tiles(level: "Level", cell: Optional[float], show_solution: bool) -> _Picture:
    """A square level's picture: its tiles, walls one ``<path>`` of runs, a weave's railings."""
    cell = 10 if cell is None else cell
    if isinstance(cell, bool) or not isinstance(cell, numbers.Real):
        raise TypeError(f"cell must be a number (pixels per tile), not {type(cell).__name__}")
    if not (math.isfinite(cell) and cell > 0):
        raise ValueError(f"cell must be a positive number of pixels per tile, got {cell}")
    way = level.solution() if show_solution else None  # fails early without markers
    rows, columns = level.tiles.shape
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(columns * cell)}" '
        f'height="{_num(rows * cell)}" viewBox="0 0 {columns} {rows}" shape-rendering="crispEdges">',
        f"<title>{escape(repr(level))}</title>",
        f'<rect class="floor" width="{columns}" height="{rows}" fill="{COLOURS["floor"]}"/>',
        f'<path class="walls" fill="{COLOURS["wall"]}" d="{_wall_runs(level.tiles)}"/>',
    ]
    if level.weave:
        head.append(f'<path class="bridges" fill="{COLOURS["wall"]}" d="{_railings(level.bridges)}"/>')
    return _Picture(head, lambda t: (f"{t[0] + 0.5:g}", f"{t[1] + 0.5:g}"), way, (level.entrance, level.exit),
                    _things(level), *_TILES)


def _by_cells(level: "Level", cell: Optional[float], show_solution: bool) -> _Picture:
    """Any other level's picture: every wall of :meth:`~mazeplugin.Level.walls` in one stroked ``<path>``, in
    grid units with a half-unit margin."""
    cell = 20 if cell is None else cell
    if isinstance(cell, bool) or not isinstance(cell, numbers.Real) or not 1 <= float(cell) <= 1024:
        raise ValueError(f"cell must be a number of pixels from 1 to 1024, got {cell!r}")
    grid = level.maze.grid
    width, height = grid.extent()

    def at(p: Tuple[float, float]) -> Tuple[str, str]:
        return f"{p[0] + MARGIN:.3f}", f"{p[1] + MARGIN:.3f}"

    def point(p: Tuple[float, float]) -> str:
        return ",".join(at(p))

    walls = " ".join("M" + " L".join(point(p) for p in line) for line in level.walls())
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{round((width + 2 * MARGIN) * cell)}" '
        f'height="{round((height + 2 * MARGIN) * cell)}" '
        f'viewBox="0 0 {width + 2 * MARGIN:.3f} {height + 2 * MARGIN:.3f}">',
        f'<rect width="100%" height="100%" fill="{COLOURS["floor"]}"/>',
        f'<path class="walls" d="{walls}" fill="none" stroke="{COLOURS["wall"]}" stroke-width="0.15" '
        'stroke-linecap="round" stroke-linejoin="round"/>',
    ]
    way = level.solution_cells() if show_solution and level.entrance_cell is not None else None
    return _Picture(head, lambda c: at(grid.centre(c)), way, (level.entrance_cell, level.exit_cell),
                    _cell_things(level, point), *_CELLS)


def _railings(bridges: Any) -> str:
    """A weave's bridges: two railings along each bridge tile's sides, so the tunnel under it shows as a
    gap in the walls either side (a bridge over a tunnel east-west has railings on its west and east edges)."""
    d = []
    for y, x in np.argwhere(bridges > 0).tolist():
        if bridges[y, x] == 1:  # the bridge runs north-south
            d.append(f"M{x} {y}h0.15v1h-0.15zM{x + 0.85:g} {y}h0.15v1h-0.15z")
        else:
            d.append(f"M{x} {y}h1v0.15h-1zM{x} {y + 0.85:g}h1v0.15h-1z")
    return "".join(d)


def _things(level: "Level") -> List[str]:
    """One element per thing (see the module docstring), in id order."""
    out: List[str] = []
    for thing in level.things:
        kind = escape(thing.kind)
        label = f"<title>{kind} {thing.id}</title>"
        cls = f'class="thing {kind}"'
        cx, cy = thing.x + 0.5, thing.y + 0.5
        if thing.kind == "door":
            d = "".join(f"M{x} {y}h1v1h-1z" for x, y in thing.tiles())
            out.append(f'<path {cls} fill="{COLOURS["door"]}" d="{d}">{label}</path>')
        elif thing.kind == "key":
            out.append(
                f'<polygon {cls} points="{cx:g},{cy - 0.4:g} {cx + 0.3:g},{cy:g} {cx:g},{cy + 0.4:g} '
                f'{cx - 0.3:g},{cy:g}" fill="{COLOURS["key"]}" stroke="{COLOURS["door"]}" stroke-width="0.08" '
                f'shape-rendering="auto">{label}</polygon>'
            )
        elif thing.kind == "treasure":
            out.append(
                f'<rect {cls} x="{cx - 0.3:g}" y="{cy - 0.3:g}" width="0.6" height="0.6" '
                f'fill="{COLOURS["treasure"]}">{label}</rect>'
            )
        elif thing.kind == "drop" and thing.props.get("direction") in DIRECTIONS:
            dx, dy = DIRECTIONS[thing.props["direction"]]  # an arrow: its tip ahead, its base across behind
            tip, back = (cx + 0.4 * dx, cy + 0.4 * dy), (cx - 0.3 * dx, cy - 0.3 * dy)
            corners = [tip, (back[0] - 0.3 * dy, back[1] + 0.3 * dx), (back[0] + 0.3 * dy, back[1] - 0.3 * dx)]
            points = " ".join(f"{x:g},{y:g}" for x, y in corners)
            out.append(f'<polygon {cls} points="{points}" fill="{COLOURS["drop"]}" shape-rendering="auto">'
                       f'{label}</polygon>')
        elif thing.kind == "enemy":
            patrol = thing.props.get("patrol") or ()
            if len(patrol) > 1:
                points = " ".join(f"{x + 0.5:g},{y + 0.5:g}" for x, y in patrol)
                out.append(
                    f'<polyline class="patrol" points="{points}" fill="none" stroke="{COLOURS["enemy"]}" '
                    'stroke-width="0.12" stroke-dasharray="0.3 0.2" shape-rendering="auto"/>'
                )
            out.append(
                f'<circle {cls} cx="{cx:g}" cy="{cy:g}" r="0.38" fill="{COLOURS["enemy"]}" '
                f'shape-rendering="auto">{label}</circle>'
            )
        else:
            out.append(
                f'<circle {cls} cx="{cx:g}" cy="{cy:g}" r="0.25" fill="{COLOURS["thing"]}" '
                f'shape-rendering="auto">{label}</circle>'
            )
    return out


def _wall_runs(tiles: np.ndarray) -> str:
    """Path data: one 1-tile-high rectangle per horizontal run of wall tiles."""
    wall = np.zeros((tiles.shape[0], tiles.shape[1] + 2), dtype=np.int8)
    wall[:, 1:-1] = tiles == WALL
    edges = np.diff(wall, axis=1)
    ys, starts = np.nonzero(edges == 1)
    _, ends = np.nonzero(edges == -1)  # row-major order pairs each start with its end
    return "".join(
        f"M{x} {y}h{n}v1h-{n}z"
        for x, y, n in zip(starts.tolist(), ys.tolist(), (ends - starts).tolist())
    )


def _num(value: float) -> str:
    return f"{value:g}" if value != int(value) else str(int(value))


# -- things on a level drawn by its cells' outlines (hex, triangle, polar, wrapping square) -----------------

MARGIN = 0.5  # grid units around the drawing
_QUOTE = {'"': "&quot;"}  # with escape(): a game's own kind (any text) safe inside an attribute


def _cell_things(level: "Level", point: Callable[[Tuple[float, float]], str]) -> List[str]:
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
