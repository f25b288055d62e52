"""A dungeon's room shapes: built-in orthogonal polygons (L, T, plus, U) and rooms whose inside is a maze.

Edgar (Nepožitek, 2019) lays out rooms of any orthogonal polygon with chosen
door positions; here a polygon room is a :class:`~mazeplugin.rooms.prefab.Prefab`
over its bounding box, the cells outside the polygon solid, so the layout
(:mod:`.layout`) places, routes and carves it as it does a rectangle, and a
corridor still reaches it only through a possible door: a place on the box's
outline beside a floor cell of the polygon.

- ``"rect"``: the open rectangle (today's rooms);
- ``"L"``: the rectangle less one corner block (half its width by half its height);
- ``"T"``: a bar along one side and a stem from its middle third;
- ``"plus"``: the middle third of rows and of columns (a cross);
- ``"U"``: the rectangle less a notch in the middle third of one side, all but a row deep.

Each is drawn at a size of :data:`SHAPE_SIZES` (a rectangle of :data:`RECT_SIZES`,
today's) and turned a random quarter (``shapes=`` of :func:`~mazeplugin.dungeon.layout.layout`). A **maze room**
(``interior=``) is such a room whose floor cells are joined by a generator
of the registry instead of all open: a spanning tree of the room's cells for
a perfect generator, so every possible door still opens onto every cell.
Its maze draws from its own stream, ``(7, 2, i)`` of the seed for the
mission's ``i``-th room (:data:`INTERIOR_STREAM`), never from the layout's.

>>> print(shape_prefab("L", 4, 4, 0).to_text())
#+#+#####
+...#####
#...#####
+...#####
#...#####
+.......+
#.......#
+.......+
#+#+#+#+#
>>> print(shape_prefab("plus", 3, 3, 0).to_text())
###+###
###.###
###.###
+.....+
###.###
###.###
###+###
"""

from __future__ import annotations

import functools
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from ..maze import Maze
from ..registry import get_generator
from ..rooms.prefab import Prefab
from ..seeds import Random, Seed
from .model import MissionError, MissionGraph

__all__ = ["SHAPES", "RECT_SIZES", "SHAPE_SIZES", "INTERIOR_SIZES", "INTERIOR_STREAM", "check_shapes", "check_interior",
           "shape_floor", "shape_prefab", "maze_prefab", "draw_room", "interior_rng"]

SHAPES = ("rect", "L", "T", "plus", "U")
"""The built-in room shapes ``shapes=`` draws from (``"mixed"``: all of them)."""

RECT_SIZES = ((2, 2), (3, 2), (2, 3), (3, 3), (4, 2), (2, 4), (4, 3), (3, 4))
"""The open rectangles (cells) a ``"rect"`` room is drawn from: the layout's rooms of every dungeon."""

SHAPE_SIZES = ((3, 3), (4, 3), (3, 4), (4, 4))
"""The bounding boxes (cells) a polygon room is drawn from."""

INTERIOR_SIZES = ((3, 3), (4, 3), (3, 4), (4, 4), (5, 4), (4, 5))
"""The bounding boxes (cells) a maze room is drawn from: large enough for a maze to be one, small enough for 50
of them to be laid out (with boxes up to 6 × 4, 2 of 7,000 missions were not)."""

INTERIOR_STREAM = (7, 2)
"""The seed's stream the maze rooms draw from: beside the layout's ``(7, 1)``, used by nothing else."""


def check_shapes(shapes: object) -> Optional[Tuple[str, ...]]:
    """``shapes=`` as a tuple of :data:`SHAPES` (``"mixed"``: all), or None for today's rectangles."""
    if shapes is None:
        return None
    if shapes == "mixed":
        return SHAPES
    if isinstance(shapes, str):
        shapes = (shapes,)
    if not isinstance(shapes, (list, tuple)) or not shapes:
        raise ValueError(f"shapes must be 'mixed', a shape name or a list of them ({', '.join(SHAPES)}), "
                         f"not {shapes!r}")
    for name in shapes:
        if name not in SHAPES:
            raise ValueError(f"shapes: {name!r} is not a room shape; the shapes are {', '.join(SHAPES)} "
                             f"(or 'mixed' for all)")
    return tuple(dict.fromkeys(shapes))


def check_interior(interior: object, mission: MissionGraph) -> Dict[str, str]:
    """``interior=`` as ``{room id: generator name}``: a name makes every room but the start, the goal and a
    boss's a maze of that generator; a dict names the rooms (any kind). Each generator must join every cell
    it is given (``fills``)."""
    if interior is None:
        return {}
    if isinstance(interior, str):
        chosen = {node.id: interior for node in mission.nodes if node.kind not in ("start", "goal", "boss")}
    elif isinstance(interior, Mapping):
        chosen = {}
        for room, name in interior.items():
            if not isinstance(room, str) or not isinstance(name, str):
                raise TypeError(f"interior must map room ids to generator names (str to str), got "
                                f"{room!r}: {name!r}")
            try:
                mission.node(room)  # the mission's own lookup by id
            except KeyError:
                raise ValueError(f"interior: the mission has no room {room!r}; its rooms are "
                                 f"{', '.join(node.id for node in mission.nodes[:12])}"
                                 f"{', ...' if len(mission.nodes) > 12 else ''}") from None
            chosen[room] = name
    else:
        raise TypeError(f"interior must be a generator name or a dict of room id to generator name, not "
                        f"{type(interior).__name__}")
    for name in sorted(set(chosen.values())):
        try:
            info = get_generator(name)
        except ValueError as error:  # an unknown generator: say which argument named it
            raise ValueError(f"interior: {error}") from None
        if not info.fills:
            raise ValueError(f"interior: generator {name!r} leaves cells it is given unjoined, and a maze room "
                             f"needs every cell joined to its doors; choose another (e.g. 'backtracker')")
    return chosen


def shape_floor(shape: str, width: int, height: int, turn: int) -> NDArray[np.bool_]:
    """The floor cells ``(rows, columns)`` of ``shape`` in a ``width`` × ``height`` box, turned ``turn``
    quarters (odd turns swap the box's sides)."""
    w, h = (height, width) if turn % 2 else (width, height)
    floor = np.ones((h, w), dtype=bool)
    a, b = w // 3, h // 3
    if shape == "L":
        floor[: h // 2, w - w // 2 :] = False
    elif shape == "T":
        floor[max(1, h // 2) :, :] = False
        floor[:, a : w - a] = True
    elif shape == "plus":
        floor[:] = False
        floor[b : h - b, :] = True
        floor[:, a : w - a] = True
    elif shape == "U":
        floor[: h - 1 - b, a : w - a] = False
    elif shape != "rect":
        raise ValueError(f"unknown room shape {shape!r}; the shapes are {', '.join(SHAPES)}")
    turned: NDArray[np.bool_] = np.ascontiguousarray(np.rot90(floor, turn % 4))
    return turned


def _prefab(floor: NDArray[np.bool_], east: NDArray[np.bool_], south: NDArray[np.bool_]) -> Prefab:
    """A prefab of these floor cells and inside passages, a possible door on the outline beside every floor cell
    of the box's edge, and corners open where four cells are joined all round."""
    h, w = floor.shape
    tiles = np.ones((2 * h + 1, 2 * w + 1), dtype=np.uint8)
    tiles[1::2, 1::2] = ~floor
    tiles[1::2, 2:-1:2] = ~east[:, :-1]
    tiles[2:-1:2, 1::2] = ~south[:-1, :]
    tiles[2:-1:2, 2:-1:2] = ~(east[:-1, :-1] & east[1:, :-1] & south[:-1, :-1] & south[:-1, 1:])
    doors = np.zeros(tiles.shape, dtype=bool)
    doors[0, 1::2], doors[-1, 1::2] = floor[0, :], floor[-1, :]
    doors[1::2, 0], doors[1::2, -1] = floor[:, 0], floor[:, -1]
    return Prefab(tiles, doors)


def _open(floor: NDArray[np.bool_]) -> Tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    east = np.zeros_like(floor)
    east[:, :-1] = floor[:, :-1] & floor[:, 1:]
    south = np.zeros_like(floor)
    south[:-1, :] = floor[:-1, :] & floor[1:, :]
    return east, south


@functools.lru_cache(maxsize=None)
def shape_prefab(shape: str, width: int, height: int, turn: int) -> Prefab:
    """The open room of ``shape`` (see :func:`shape_floor`), made once (a prefab is read-only)."""
    floor = shape_floor(shape, width, height, turn)
    return _prefab(floor, *_open(floor))


def maze_prefab(generator: str, floor: NDArray[np.bool_], rng: Random) -> Prefab:
    """A room whose ``floor`` cells are joined by ``generator`` (its default options) drawing from ``rng``; a
    generator that cannot take a mask runs only in a rectangle."""
    info = get_generator(generator)
    h, w = floor.shape
    whole = bool(floor.all())
    if not whole and not info.masks:
        raise ValueError(f"interior: generator {generator!r} cannot take a mask, so it makes maze rooms only in "
                         f"rectangles; give shapes=None (or 'rect') with it, or choose another generator")
    maze = Maze(w, h, None if whole else floor.copy())
    info.function(maze, rng, **dict(info.options))
    east, south = _open(floor)
    return _prefab(floor, maze.east & east, maze.south & south)


def draw_room(rng: Random, maze_rng: Optional[Random], shapes: Sequence[str], corridors: int, boss: bool,
              generator: Optional[str]) -> Tuple[Prefab, str]:
    """One room drawn from ``shapes`` (a box of :data:`RECT_SIZES` for a rectangle, :data:`SHAPE_SIZES` for a
    polygon, :data:`INTERIOR_SIZES` for a maze room of ``generator``; 4 × 4 for a boss's) with
    at least two possible doors for each of its ``corridors`` (room to choose keeps the corridors routable: a
    50-room dungeon of L, T, plus and U rooms with one door each to spare was not laid out for one seed in 7,000),
    and its shape's name. ``rng`` draws the shape, box and turn; ``maze_rng`` the maze."""
    shape = rng.choice(list(shapes))
    sizes: Sequence[Tuple[int, int]] = INTERIOR_SIZES if generator else RECT_SIZES if shape == "rect" else SHAPE_SIZES
    if boss:
        sizes = ((4, 4),)
    choices: List[Tuple[str, int, int, int]] = [
        (shape, w, h, turn) for w, h in sizes for turn in range(4)
        if len(shape_prefab(shape, w, h, turn).door_sides()) >= 2 * corridors]
    if not choices:  # too many corridors for this shape: an open box of the largest size has room for them
        w, h = max(sizes, key=lambda size: size[0] * size[1])
        choices = [("rect", w, h, 0)]
    name, w, h, turn = choices[rng.below(len(choices))]
    if generator is None or maze_rng is None:
        return shape_prefab(name, w, h, turn), name
    return maze_prefab(generator, shape_floor(name, w, h, turn), maze_rng), name


def interior_rng(seed: Seed, mission: MissionGraph, room: str) -> Random:
    """The maze room ``room``'s own stream: ``(7, 2, i)`` of ``seed`` for the mission's ``i``-th node."""
    index = [node.id for node in mission.nodes].index(room)
    return Random.keyed(seed, (*INTERIOR_STREAM, index))
