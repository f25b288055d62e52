"""A player on a hex, triangle, polar or wrapping square level: stepping cell to cell, and drawing it.

A grid level (:class:`~mazeplugin.Level`) is a graph of
cells, so a player on it moves a whole cell at a time, through an open
passage. :func:`grid_step` turns a direction the player pushes (an angle, or
a compass name such as ``"north-east"``) into the linked neighbour that lies
nearest that way; a wall, or no passage within less than 90 degrees of the
direction, leaves the player where it is.

"That way" is measured from the cell's centre to the middle of the side the
passage crosses (:meth:`mazeplugin.grids.Grid.sides`), not to the
neighbour's centre: on a level that wraps, the neighbour across a wrap
passage is on the far side of the map, but the side it is reached through
faces the way the player walks off. Which cell that is comes from the
grid's neighbour relation, never from geometry.

Angles are in degrees on the screen (y down): 0 is east, 90 south, 180
west, 270 (or -90) north. On a hex level the six sides lie at -60 (north-east),
0, 60, 120, 180 and -120 degrees; on a square one at the four compass points.

:func:`glide` gives the point between two cells for a smooth step (out of
the first cell's side, in through the second's: over the edge of a wrapping
map rather than across it), and :func:`draw_grid_player` draws the player
there as a disc, at :func:`~mazeplugin.pg.grid_to_pixel` of it.

>>> import mazeplugin as mp, mazeplugin.pg as mpg
>>> level = mp.generate("kruskal", 4, 3, grid="hex", seed=7)
>>> way = level.solution_cells()
>>> here, there = way[0], way[1]
>>> angle = dict((b, a) for a, b in mpg.grid_exits(level, here))[there]
>>> mpg.grid_step(level, here, angle) == there
True
>>> all(mpg.grid_step(level, here, a) == here or mpg.grid_step(level, here, a) in level.maze.linked(here)
...     for a in range(0, 360, 15))
True
"""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence, Tuple, Union

import pygame

from ..level import Level
from ..grids.base import Grid, Point
from .grid import graph_level, grid_to_pixel
from .palette import Colour

__all__ = ["COMPASS", "grid_exits", "grid_step", "grid_key_steps", "glide", "draw_grid_player"]

COMPASS: Dict[str, float] = {
    "east": 0.0, "south-east": 45.0, "south": 90.0, "south-west": 135.0,
    "west": 180.0, "north-west": 225.0, "north": 270.0, "north-east": 315.0,
}
"""The compass names :func:`grid_step` takes, as screen angles in degrees (y down: south is 90)."""

SPREAD = 90.0
"""A passage is taken only when it lies less than this many degrees from the direction pushed."""

Direction = Union[float, int, str]


def _check_cell(level: Level, cell: object) -> int:
    cells = level.maze.grid.cells
    if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < cells:
        raise ValueError(f"cell must be a cell number from 0 to {cells - 1} of this {level.grid} level, got {cell!r}")
    return cell


def _angle(direction: object) -> float:
    if isinstance(direction, str):
        name = direction.strip().lower().replace(" ", "-").replace("_", "-")
        if name not in COMPASS:
            raise ValueError(f"direction must be an angle in degrees or one of {', '.join(COMPASS)}; got {direction!r}")
        return COMPASS[name]
    if isinstance(direction, bool) or not isinstance(direction, (int, float)) or not math.isfinite(direction):
        raise ValueError(f"direction must be an angle in degrees (a finite number) or a compass name, got {direction!r}")
    return float(direction)


def _side_middle(line: List[Point]) -> Point:
    """The middle of a side's polyline (its points' mean: the midpoint of a segment, the bisector of an arc)."""
    return (sum(p[0] for p in line) / len(line), sum(p[1] for p in line) / len(line))


def _through(level: Level, cell: int, other: int) -> Point:
    """The middle of the side of ``cell`` that its passage to ``other`` crosses."""
    for neighbour, line in level.maze.grid.sides(cell):
        if neighbour == other:
            return _side_middle(line)
    raise ValueError(f"cells {cell} and {other} are not neighbours on this {level.grid} level")


def grid_exits(level: Level, cell: int) -> List[Tuple[float, int]]:
    """``(angle, neighbour)`` for each open passage out of ``cell``: the screen angle in degrees
    (0 east, 90 south, in ``[0, 360)``) from the cell's centre to the side the passage crosses,
    in the order of :meth:`~mazeplugin.grids.Grid.sides`.

    >>> import mazeplugin as mp
    >>> level = mp.generate("backtracker", 3, 3, wrap="x", seed=1)
    >>> all(0 <= angle < 360 for angle, _ in grid_exits(level, 0))
    True
    """
    level = graph_level(level, "level must be")
    cell = _check_cell(level, cell)
    grid, maze = level.maze.grid, level.maze
    cx, cy = grid.centre(cell)
    exits = []
    for neighbour, line in grid.sides(cell):
        if neighbour < 0 or not maze.open[grid.edge(cell, neighbour)]:
            continue
        mx, my = _side_middle(line)
        exits.append((math.degrees(math.atan2(my - cy, mx - cx)) % 360.0, int(neighbour)))
    return exits


def grid_step(level: Level, cell: int, direction: Direction) -> int:
    """The cell a player at ``cell`` pushing ``direction`` steps to: the linked neighbour whose
    passage lies nearest in angle (less than 90 degrees away), or ``cell`` itself when walls
    stop it. ``direction``: degrees on the screen (0 east, 90 south) or a :data:`COMPASS` name.

    Ties (a hex cell's two northern sides are equally near "north") go to the first side
    in :meth:`~mazeplugin.grids.Grid.sides` order (on a hex grid: north-east before
    north-west, south-east before south-west).

    >>> import mazeplugin as mp
    >>> level = mp.generate("backtracker", 5, 4, grid="triangle", seed=2)
    >>> grid_step(level, 0, "north")  # the first triangle points up: nothing lies north of it
    0
    >>> grid_step(level, 0, "up")
    Traceback (most recent call last):
    ...
    ValueError: direction must be an angle in degrees or one of east, south-east, south, south-west, west, north-west, north, north-east; got 'up'
    """
    level = graph_level(level, "level must be")
    cell = _check_cell(level, cell)
    return _nearest(grid_exits(level, cell), _angle(direction), cell)


def _off(angle: float, want: float) -> float:
    """Degrees between two directions, 0 to 180."""
    return abs((angle - want + 180.0) % 360.0 - 180.0)


def _nearest(exits: List[Tuple[float, int]], want: float, cell: int) -> int:
    best: Optional[Tuple[float, int]] = None
    for angle, neighbour in exits:
        off = _off(angle, want)
        if off < SPREAD - 1e-9 and (best is None or off < best[0] - 1e-9):
            best = (off, neighbour)
    return cell if best is None else best[1]


def grid_key_steps(level: Level, cell: int, directions: Sequence[Direction]) -> List[int]:
    """Where each of a game's direction keys (``directions``: angles or compass names) takes a
    player at ``cell``, so that every open passage has a key whenever there are as many keys
    as passages.

    The four arrows alone cannot reach every passage of a polar cell (its middle can open onto
    six cells), and on a hex cell "north" is as near north-east as north-west. So passages and
    keys are paired nearest first (each passage to the nearest key still free, less than 90
    degrees away), and a key left over steps as :func:`grid_step` says. Entry ``i`` is the cell
    ``directions[i]`` leads to (``cell`` itself where walls stop it).

    >>> import mazeplugin as mp
    >>> level = mp.generate("backtracker", 1, 3, grid="polar", seed=4)  # a middle cell and six around it
    >>> eight = [315, 0, 45, 90, 135, 180, 225, 270]
    >>> set(level.maze.linked(0).tolist()) <= set(grid_key_steps(level, 0, eight))
    True
    """
    level = graph_level(level, "level must be")
    cell = _check_cell(level, cell)
    wants = [_angle(d) for d in directions]
    exits = grid_exits(level, cell)
    pairs = sorted((_off(angle, want), k, e)
                   for e, (angle, _) in enumerate(exits) for k, want in enumerate(wants))
    steps: List[Optional[int]] = [None] * len(wants)
    paired = set()
    for off, k, e in pairs:
        if off < SPREAD - 1e-9 and steps[k] is None and e not in paired:
            steps[k] = exits[e][1]
            paired.add(e)
    return [_nearest(exits, wants[k], cell) if step is None else step for k, step in enumerate(steps)]


def glide(level: Level, start: int, end: int, progress: float) -> Point:
    """Where a player stepping from ``start`` to neighbour ``end`` is, ``progress`` (0 to 1) of
    the way, in the grid's drawing units: from ``start``'s centre to the side between them,
    then from ``end``'s side to its centre (so a step through a wrap passage leaves by one
    edge and arrives by the other). ``start == end``: that cell's centre.

    >>> import mazeplugin as mp
    >>> level = mp.generate("kruskal", 3, 2, grid="hex", seed=1)
    >>> a, b = level.solution_cells()[:2]
    >>> glide(level, a, b, 0.0) == level.maze.grid.centre(a), glide(level, a, b, 1.0) == level.maze.grid.centre(b)
    (True, True)
    """
    level = graph_level(level, "level must be")
    start, end = _check_cell(level, start), _check_cell(level, end)
    if isinstance(progress, bool) or not isinstance(progress, (int, float)) or not 0 <= progress <= 1:
        raise ValueError(f"progress must be a number from 0 to 1, got {progress!r}")
    grid: Grid = level.maze.grid
    if start == end:
        return grid.centre(start)
    if progress < 0.5:
        (ax, ay), (bx, by), t = grid.centre(start), _through(level, start, end), 2 * progress
    else:
        (ax, ay), (bx, by), t = _through(level, end, start), grid.centre(end), 2 * progress - 1
    return (ax + (bx - ax) * t, ay + (by - ay) * t)


def draw_grid_player(surface: "pygame.Surface", level: Level, start: int, *, cell: float,
                     end: Optional[int] = None, progress: float = 0.0, offset: Tuple[int, int] = (0, 0),
                     colour: Colour = (37, 99, 235), edge: Colour = (255, 255, 255)) -> Tuple[int, int]:
    """Draw the player as a disc at ``start`` (or :func:`glide` ``progress`` of the way to ``end``),
    ``cell`` pixels per grid unit as in :func:`~mazeplugin.pg.render` (``cell=``), shifted by ``offset``;
    returns the disc's centre on ``surface``.

    >>> import mazeplugin as mp, pygame
    >>> level = mp.generate("kruskal", 3, 2, grid="hex", seed=1)
    >>> surface = pygame.Surface((100, 100))
    >>> centre = draw_grid_player(surface, level, 0, cell=10)
    >>> tuple(surface.get_at(centre)[:3])
    (37, 99, 235)
    """
    point = glide(level, start, start if end is None else end, progress)
    x, y = grid_to_pixel(point, cell)
    centre = (x + offset[0], y + offset[1])
    radius = max(2, round(cell * 0.3))
    pygame.draw.circle(surface, edge, centre, radius + max(1, round(cell / 14)))
    pygame.draw.circle(surface, colour, centre, radius)
    return centre
