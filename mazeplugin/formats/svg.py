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

>>> import mazeplugin as mp
>>> picture = to_svg(mp.generate("kruskal", 4, 3, seed=7), cell=12, show_solution=True)
>>> picture.startswith("<svg") and 'width="108" height="84"' in picture
True
>>> 'class="solution"' in picture and 'class="entrance"' in picture
True
>>> 'class="thing door"' in to_svg(mp.generate("kruskal", 8, 6, seed=1, keys=1))
True
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Any, List
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
"""Fill and stroke colours (the same palette as :mod:`mazeplugin.pg`'s default)."""


def to_svg(level: "Level", *, cell: float = 10, show_solution: bool = False) -> str:
    """The level as SVG text, ``cell`` pixels per tile.

    ``cell`` is a positive number; the picture is ``columns * cell`` by
    ``rows * cell`` pixels.
    """
    if isinstance(cell, bool) or not isinstance(cell, numbers.Real):
        raise TypeError(f"cell must be a number (pixels per tile), not {type(cell).__name__}")
    if not (math.isfinite(cell) and cell > 0):
        raise ValueError(f"cell must be a positive number of pixels per tile, got {cell}")
    path = level.solution() if show_solution else None  # fails early without markers
    rows, columns = level.tiles.shape
    title = escape(repr(level))
    parts: List[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(columns * cell)}" '
        f'height="{_num(rows * cell)}" viewBox="0 0 {columns} {rows}" shape-rendering="crispEdges">',
        f"<title>{title}</title>",
        f'<rect class="floor" width="{columns}" height="{rows}" fill="{COLOURS["floor"]}"/>',
        f'<path class="walls" fill="{COLOURS["wall"]}" d="{_wall_runs(level.tiles)}"/>',
    ]
    if level.weave:
        parts.append(f'<path class="bridges" fill="{COLOURS["wall"]}" d="{_railings(level.bridges)}"/>')
    if path is not None:
        points = " ".join(f"{x + 0.5:g},{y + 0.5:g}" for x, y in path)
        parts.append(
            f'<polyline class="solution" points="{points}" fill="none" stroke="{COLOURS["solution"]}" '
            'stroke-width="0.3" stroke-linecap="round" stroke-linejoin="round" shape-rendering="auto"/>'
        )
    parts.extend(_things(level))
    for name in ("entrance", "exit"):
        tile = getattr(level, name)
        if tile is not None:
            parts.append(
                f'<circle class="{name}" cx="{tile[0] + 0.5:g}" cy="{tile[1] + 0.5:g}" r="0.4" '
                f'fill="{COLOURS[name]}" shape-rendering="auto"><title>{name}</title></circle>'
            )
    parts.append("</svg>\n")
    return "\n".join(parts)


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
