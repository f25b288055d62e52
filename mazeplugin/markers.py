"""Where the entrance and exit go.

``markers=`` takes:

- ``"border"`` (default): the entrance in the west wall of the top-left cell,
  the exit in the east wall of the bottom-right cell.
- ``"farthest"``: the two cells farthest apart along the maze's passages
  (exact for perfect mazes, where it is the maze's longest path; a double
  breadth-first sweep for mazes with loops). Inside the maze, not in its wall.
- ``"random"``: two different openings in the outer wall, chosen from the seed.
- ``"none"``: no markers.
- ``((x1, y1), (x2, y2))``: two tiles given by the caller, each on a cell's
  floor or in the outer wall beside a border cell (which is then opened).

Everything but ``"farthest"`` is decided before the maze is generated, so the
generator knows which cells to join (see ``Maze.start`` / ``Maze.goal``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional, Tuple, cast

import numpy as np

from numpy.typing import NDArray

from . import bridges, paths
from .maze import Maze, mask_parts
from .seeds import Random
from .tiles import Layout, Opening, Tile, base_bridges, base_tiles, check_tile

__all__ = ["MARKER_MODES", "MarkerPlan", "plan_markers", "farthest_openings"]

MARKER_MODES = ("border", "farthest", "random", "none")


@dataclass(frozen=True)
class MarkerPlan:
    """Markers decided before generation: openings and the tiles reported for them."""

    mode: str  # one of MARKER_MODES, or "tiles" for caller-given tiles
    entrance: Optional[Opening] = None
    exit: Optional[Opening] = None
    entrance_tile: Optional[Tile] = None
    exit_tile: Optional[Tile] = None


def plan_markers(markers: object, layout: Layout, mask: np.ndarray, rng: Callable[[], Random]) -> MarkerPlan:
    """Check ``markers`` and decide every marker that does not depend on the maze.

    ``rng()`` gives the markers' random stream; it is called only for
    ``"random"`` (making a stream costs more than most plans).
    """
    if isinstance(markers, str):
        if markers == "border":
            cells = np.flatnonzero(mask)
            first = _cell_xy(int(cells[0]), layout.width)
            last = _cell_xy(int(cells[-1]), layout.width)
            entrance = Opening(first, "west" if first[0] == 0 else None)
            exit = Opening(last, "east" if last[0] == layout.width - 1 else None)
            return _plan("border", layout, entrance, exit)
        if markers == "random":
            return _random_openings(layout, mask, rng())
        if markers in ("farthest", "none"):
            return MarkerPlan(markers)
        raise ValueError(
            f"markers must be one of {', '.join(map(repr, MARKER_MODES))} "
            f"or a pair of (x, y) tiles; got {markers!r}"
        )
    return _caller_tiles(markers, layout, mask)


def _random_openings(layout: Layout, mask: np.ndarray, rng: Random) -> MarkerPlan:
    """Two different border openings, chosen uniformly, in one connected part of the mask.

    The entrance is drawn from every opening whose part has another one; the
    exit from the other openings of the same part. On a full grid (one part)
    that is simply two different openings.
    """


    labels, _ = mask_parts(mask)
    openings = layout.border_openings(mask)
    part = [int(labels[o.cell[1], o.cell[0]]) for o in openings]
    per_part = Counter(part)
    shared = [o for o, p in zip(openings, part) if per_part[p] >= 2]
    if not shared:
        raise ValueError(
            "markers='random' needs two cells on the map's border in one connected part of the maze"
        )
    entrance = shared[rng.below(len(shared))]
    same_part = [
        o for o, p in zip(openings, part)
        if p == labels[entrance.cell[1], entrance.cell[0]] and o != entrance
    ]
    exit = same_part[rng.below(len(same_part))]
    return _plan("random", layout, entrance, exit)


def _plan(mode: str, layout: Layout, entrance: Opening, exit: Opening) -> MarkerPlan:
    return MarkerPlan(
        mode, entrance, exit, layout.opening_tile(entrance), layout.opening_tile(exit)
    )


def _caller_tiles(markers: object, layout: Layout, mask: np.ndarray) -> MarkerPlan:
    try:
        pair: Tuple[Any, ...] = tuple(cast(Iterable[Any], markers))
    except TypeError:
        pair = ()
    if len(pair) != 2:
        raise TypeError(
            "markers must be 'border', 'farthest', 'random', 'none' or a pair of "
            f"(x, y) tiles, got {markers!r}"
        )
    names = ("entrance", "exit")
    tiles = [check_tile(f"markers {name}", tile, layout.shape) for name, tile in zip(names, pair)]
    if tiles[0] == tiles[1]:
        raise ValueError(f"markers: entrance and exit must be different tiles, both are {tiles[0]}")
    openings = []
    for name, tile in zip(names, tiles):
        opening = layout.opening_at(tile, mask)
        if opening is None:
            raise ValueError(
                f"markers {name} {tile} is a wall tile: a marker must be on a cell's floor "
                "(odd x and odd y with the default corridor and wall width) or in the "
                "outer wall beside a cell"
            )
        openings.append(opening)
    return MarkerPlan("tiles", openings[0], openings[1], tiles[0], tiles[1])


def farthest_openings(maze: Maze, layout: Layout) -> Tuple[Opening, Opening]:
    """The two cells farthest apart along the passages, found by a double sweep.

    The first sweep starts at ``maze.start`` (so in a maze with sealed pockets
    both ends lie in the start cell's part); its farthest cell is one end, the
    cell farthest from that is the other.
    """
    base = base_tiles(maze)
    is_cell = np.zeros(base.shape, dtype=bool)
    is_cell[1::2, 1::2] = maze.mask
    layer = base_bridges(maze) if maze.under is not None and maze.under.any() else None
    if layer is not None:  # a weave: no marker on a bridge
        is_cell &= layer == 0

    def distance_map(tile: Tile) -> NDArray[np.int32]:
        """Steps from ``tile``; on a weave, over and under its bridges."""
        return paths.distance_map(base, tile) if layer is None else bridges.distance_map(base, layer, tile)

    sx, sy = maze.start
    first = paths.farthest_tile(distance_map((2 * sx + 1, 2 * sy + 1)), is_cell)
    assert first is not None
    second = paths.farthest_tile(distance_map(first), is_cell)
    assert second is not None
    return Opening((first[0] // 2, first[1] // 2)), Opening((second[0] // 2, second[1] // 2))


def _cell_xy(cell: int, width: int) -> Tuple[int, int]:
    y, x = divmod(cell, width)
    return (x, y)
