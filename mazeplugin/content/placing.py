"""Placing keys and locked doors, treasure, enemies and a game's own kinds on a level.

Placement is by construction on the floor graph of the level's base tilemap
(see :mod:`mazeplugin.content.graph`), then mapped to the level's tiles:

- **Doors** stand on *separators* of the direct route: passage tiles (one
  floor neighbour each way, so a real doorway) that every entrance → exit walk
  crosses. Door ``i`` has its key in the stretch of floor between door
  ``i - 1`` and door ``i``: off the route, at the end of the side branch that
  costs the longest detour (dead ends first). Doors are spread along the
  route; the most locks a level can hold is found greedily (earliest door
  after the earliest branch, again and again), and asking for more raises
  ``ValueError`` with that number.
- **Treasure** goes to dead ends farthest from the route first, then other
  cells off the route, spread out: the spacing starts wide and halves until
  all fit.
- **Place** requests: cells with the requested number of open sides, at
  least ``min_distance`` cells from the entrance, at least ``spacing`` apart.
- **Enemies** start at least :data:`ENEMY_DISTANCE` cells walked from the
  entrance and patrol a corridor stretch of at most
  ``2 * PATROL_CELLS + 1`` cells that avoids the direct route, every door,
  and a way (up the breadth-first tree from the entrance) to every key,
  treasure or Place thing: so a level stays solvable, every thing reachable,
  without ever touching an enemy (in a perfect maze the only way; where the
  level has loops an enemy may patrol another way, and the shortest walk may
  cross it).

Distances a game sets (``min_distance``, ``spacing``) are in cells walked or
cells apart, whatever the corridor and wall widths. Every choice among equals
draws from the content stream of the seed (stream 3 of
:meth:`mazeplugin.Random.streams`), so the maze's own numbers never shift.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Set, Tuple, cast

import numpy as np
from numpy.typing import NDArray

from ..level import Level
from ..level_protocol import AnyLevel
from ..seeds import Random, Seed
from . import engine
from .choosing import corridor_stretch
from .graph import FloorGraph
from .locks import key_candidates, plan_locks
from .request import (CONTENT_STREAM, ENEMY_DISTANCE, PATROL_CELLS, ContentRequest, Furnishable, check_request,
                      content_stream, with_content)
from .things import Place, Thing

if TYPE_CHECKING:  # pragma: no cover - a grid level's module loads with the cell engine, for a grid level only
    from ..grid_level import GridLevel

__all__ = ["furnish", "furnish_grid", "furnished", "place_things", "check_request", "with_content", "ContentRequest", "ENEMY_DISTANCE",
           "PATROL_CELLS", "CONTENT_STREAM"]

Tile = Tuple[int, int]


def furnish(
    level: Furnishable,
    *,
    keys: int = 0,
    treasure: int = 0,
    enemies: int = 0,
    place: Sequence[Place] = (),
    seed: Optional[Seed] = None,
) -> Furnishable:
    """A copy of ``level`` with content placed on it (its ``things``); the tiles stay the same.

    Args:
        level: any level (:class:`~mazeplugin.AnyLevel`: a generated one, a
            loaded one, a chunk of an endless world, a weave, a dungeon; on a
            square, wrapping, hex, triangle or polar grid). Square levels hold
            things on their tiles, the others on their cells
            (:mod:`~mazeplugin.content.cellplacing`). Things it already has
            are kept and new ones get ids after them.
        keys: locked doors on the way from entrance to exit, each with its key
            (needs an entrance and an exit).
        treasure: treasure things, in dead ends farthest from the route first.
        enemies: enemies with patrol routes (see :data:`ENEMY_DISTANCE`).
        place: :class:`~mazeplugin.content.things.Place` requests for a game's own kinds.
        seed: whose content stream to draw from; default ``level.seed``.

    Raises ``ValueError`` saying how many fit when the level cannot hold a count.

    >>> import mazeplugin as mp
    >>> level = mp.generate("backtracker", 12, 8, seed=3)
    >>> rich = furnish(level, keys=1, treasure=3, place=[mp.Place("coin", 4, where="corridors")])
    >>> sorted({t.kind for t in rich.things})
    ['coin', 'door', 'key', 'treasure']
    >>> rich.tiles is level.tiles, level.things
    (True, ())
    >>> rich.check()   # every key before its door, every door needed
    >>> triangles = mp.generate("wilson", 8, 6, grid="triangle", seed=2)
    >>> sorted(t.kind for t in furnish(triangles, keys=1, treasure=2).things), triangles.things
    (['door', 'key', 'treasure', 'treasure'], ())
    """
    if not isinstance(level, AnyLevel):
        raise TypeError(f"level must be a mazeplugin Level or GridLevel, not {type(level).__name__}")
    k, t, e, requests = check_request(keys, treasure, enemies, place, cells=level.cells)
    rng = content_stream(level, seed)
    if level.kind == "square":  # square and weave levels: on their tiles
        return cast(Furnishable, furnished(cast(Level, level), rng, k, t, e, requests))
    from .cellplacing import grid_furnished  # wrapping, hex, triangle and polar levels: on their cells

    return cast(Furnishable, grid_furnished(cast("GridLevel", level), rng, k, t, e, requests))


furnish_grid = furnish
"""The old name of :func:`furnish` for grid levels (hex, triangle, polar, wrapping): the same function."""


def furnished(level: Level, rng: Random, k: int, t: int, e: int, requests: Tuple[Place, ...]) -> Level:
    """:func:`furnish` with the stream given and the arguments already checked (``generate`` calls this).
    A weave level is furnished on its cells and tunnels (:func:`~mazeplugin.content.cellplacing.place_woven`)."""
    if level.weave:
        from .cellplacing import place_woven  # (with the cell engine: loaded only for a weave)

        if k and (level.entrance is None or level.exit is None):
            raise ValueError("keys need a level with an entrance and an exit (markers other than 'none')")
        return with_content(level, place_woven(level, rng, k, t, e, requests), k, t, e, requests)
    things = place_things(level, rng, keys=k, treasure=t, enemies=e, place=requests)
    return with_content(level, things, k, t, e, requests)


@lru_cache(maxsize=64)
def _cell_tiles(width: int, height: int, stride: int) -> NDArray[np.int64]:
    """The floor graph's index of each cell's base tile, cells in row order (read-only: shared)."""
    flat = ((2 * np.arange(height)[:, None] + 1 + 1) * stride + 2 * np.arange(width) + 1 + 1).ravel()
    flat.setflags(write=False)
    return flat


class _Blocks:
    """Where a base tile's block lies in the level's tiles."""

    def __init__(self, level: Level) -> None:
        layout = level.layout
        # Python ints: the things made from these are not re-checked (Thing.made).
        self.corridor, self.wall, self.pitch = int(layout.corridor), int(layout.wall), int(layout.pitch)

    def span(self, b: int) -> Tuple[int, int]:
        k, odd = divmod(b, 2)
        start = k * self.pitch + (self.wall if odd else 0)
        return start, start + (self.corridor if odd else self.wall)

    def middle(self, base: Tile) -> Tile:
        (x0, x1), (y0, y1) = self.span(base[0]), self.span(base[1])
        return (x0 + (x1 - x0 - 1) // 2, y0 + (y1 - y0 - 1) // 2)

    def tiles(self, base: Tile) -> List[Tile]:
        (x0, x1), (y0, y1) = self.span(base[0]), self.span(base[1])
        return [(x, y) for y in range(y0, y1) for x in range(x0, x1)]

    def walk(self, route: List[Tile]) -> List[Tile]:
        """The 4-adjacent tiles through the middles of a route's blocks."""
        out = [self.middle(route[0])]
        for b in route[1:]:
            tx, ty = self.middle(b)
            x, y = out[-1]
            while (x, y) != (tx, ty):
                x += (tx > x) - (tx < x)
                if x == tx:
                    y += (ty > y) - (ty < y)
                out.append((x, y))
        return out


class _Spread:
    """Greedy picks in a given order, no two closer than ``spacing`` cells (Chebyshev)."""

    def __init__(self, shape: Tuple[int, int]) -> None:
        self.shape = shape

    def pick(self, xs: NDArray[np.int64], ys: NDArray[np.int64], count: int, spacing: int, accept: Any = None) -> List[int]:
        """Positions in ``xs``/``ys`` (cells, in preference order) chosen; ``accept(n)`` may refuse one."""
        blocked = np.zeros(self.shape, dtype=bool)
        chosen: List[int] = []
        r = spacing - 1
        # Candidates are read in chunks: usually only the first few are needed.
        for start in range(0, len(xs), 256):
            chunk = zip(xs[start:start + 256].tolist(), ys[start:start + 256].tolist())
            for n, (cx, cy) in enumerate(chunk, start=start):
                if blocked[cy, cx]:
                    continue
                if accept is not None and not accept(n):
                    continue
                chosen.append(n)
                if len(chosen) == count:
                    return chosen
                if r > 0:
                    blocked[max(cy - r, 0):cy + r + 1, max(cx - r, 0):cx + r + 1] = True
                else:
                    blocked[cy, cx] = True
        return chosen


def place_things(
    level: Level,
    rng: Random,
    *,
    keys: int = 0,
    treasure: int = 0,
    enemies: int = 0,
    place: Sequence[Place] = (),
) -> Tuple[Thing, ...]:
    """The things :func:`furnish` adds, drawn from ``rng`` (arguments already checked)."""
    if keys and (level.entrance is None or level.exit is None):
        raise ValueError("keys need a level with an entrance and an exit (markers other than 'none')")
    next_id = max((t.id for t in level.things), default=0) + 1
    return tuple(engine.place(_FloorPlaces(level), rng, next_id, keys=keys, treasure=treasure, enemies=enemies,
                              requests=place))


class _FloorPlaces:
    """A square level's cells as the engine's places, on the floor graph of its base tilemap: distances
    in tiles (two per cell), spread in cells (Chebyshev), patrols along floor tiles."""

    def __init__(self, level: Level) -> None:
        layout = level.layout
        entrance = layout.base_of(level.entrance) if level.entrance is not None else None
        exit_ = layout.base_of(level.exit) if level.exit is not None else None
        if entrance is None or exit_ is None:
            entrance = exit_ = None
        self.g = g = FloorGraph(level.base_tiles, entrance, exit_)
        self.blocks = _Blocks(level)
        self.has_route = has_route = bool(g.path)
        # Places: floor cells reached from the entrance (or any floor cell without markers), not a marker's cell.
        flat = _cell_tiles(level.width, level.height, g.stride)
        floor = g.floor[flat]
        dist_e = g.dist_entrance[flat].astype(np.int64)
        usable = floor & (dist_e >= 0) if has_route else floor.copy()
        self.taken: Set[int] = set()
        for marker in (level.entrance, level.exit):
            if marker is not None:
                mx, my = layout.cell_of(marker)
                usable[my * level.width + mx] = False
                self.taken.add(g.index(layout.base_of(marker)))
        for thing in level.things:  # things already there
            for tile in thing.tiles():
                bx, by = layout.base_of(tile)
                self.taken.add(g.index((bx, by)))
                if bx % 2 == 1 and by % 2 == 1:
                    usable[(by // 2) * level.width + bx // 2] = False
        self.cells_flat = flat[usable]
        cell_ids = np.flatnonzero(usable)
        self.cell_x, self.cell_y = cell_ids % level.width, cell_ids // level.width
        self.degree = g.degree[self.cells_flat].astype(np.int64)
        self.dist_path = g.dist_path[self.cells_flat].astype(np.int64)
        self.distance = dist_e[usable] // 2
        self.free = np.ones(len(cell_ids), dtype=bool)
        self.area = len(cell_ids)
        self.floor_words = "floor cells"
        self._spread = _Spread((level.height, level.width))
        self._order: Optional[NDArray[np.int64]] = None
        self._xy: Tuple[NDArray[np.int64], NDArray[np.int64]] = (self.cell_x, self.cell_y)
        self.needed = bytearray()

    def base(self, n: int) -> Tile:
        return (2 * int(self.cell_x[n]) + 1, 2 * int(self.cell_y[n]) + 1)

    def locks(self, keys: int, noise: NDArray[np.float64]) -> List[Tuple[Any, int]]:
        return _plan_locks(self.g, keys, self.cells_flat, self.degree, self.dist_path, noise)

    def thing(self, kind: str, place: int, id: int, props: Dict[str, Any]) -> Thing:
        x, y = self.blocks.middle(self.base(place))
        return Thing.made(kind, x, y, id, props)  # fields right by construction: not re-checked

    def door(self, door: Any, id: int, key: int, lock: int) -> Thing:
        self.taken.add(door)
        base = self.g.xy(door)
        x, y = self.blocks.middle(base)
        return Thing.made("door", x, y, id, {"key": key, "lock": lock, "tiles": tuple(self.blocks.tiles(base))})

    def claim(self, place: int) -> None:
        self.taken.add(int(self.cells_flat[place]))

    def spread(self, order: NDArray[np.int64], count: int, spacing: int,
               accept: engine.Accept = None) -> List[int]:
        at = None if accept is None else (lambda p: accept(int(order[p])))
        if order is not self._order:  # (widest asks again with a smaller spacing: the same order)
            self._order, self._xy = order, (self.cell_x[order], self.cell_y[order])
        picks = self._spread.pick(*self._xy, count, spacing, at)
        return [int(order[p]) for p in picks]

    def ways(self, claimed: List[int]) -> None:
        self.needed = self.g.ways_up([int(self.cells_flat[n]) for n in claimed])

    def patrol(self, place: int, patrolled: Set[int]) -> Optional[List[int]]:
        g, needed, taken = self.g, self.needed, self.taken
        far = 2 * ENEMY_DISTANCE if self.has_route else 0
        dist_all = g.dist_entrance

        def walkable(i: int) -> bool:
            return (
                g.floor[i] and not needed[i] and i not in taken and i not in patrolled
                and g.degree[i] <= 2 and (not self.has_route or dist_all[i] >= far)
            )

        i = int(self.cells_flat[place])
        if not walkable(i):
            return None
        route = corridor_stretch(g.neighbours, i, walkable, 2 * PATROL_CELLS)
        if len(route) < 3:
            return None
        patrolled.update(route)
        return route

    def patrol_props(self, route: List[int]) -> Tuple[Tile, ...]:
        return tuple(self.blocks.walk([self.g.xy(i) for i in route]))


def _plan_locks(
    g: FloorGraph,
    keys: int,
    cells_flat: NDArray[np.int64],
    degree: NDArray[np.int64],
    dist_path: NDArray[np.int64],
    noise: NDArray[np.float64],
) -> List[Tuple[int, int]]:
    """``(door tile index, key cell number)`` per lock, in the order the player meets them."""
    length = len(g.path)
    cuts = g.separators()
    if g.fast is not None:  # the same arrays in one pass (mazeplugin/_compiled/content.py)
        doors, highs, order, score = g.fast.lock_candidates(g.route, cuts, g.degree, g.stride, g.touch_high,
                                                            cells_flat, dist_path, noise, degree)
        return [(g.path[door], key) for door, key in plan_locks(keys, length, doors, highs, order, score)]
    at = g.route[cuts]
    # A doorway: two floor neighbours, between two cells (exactly one odd base coordinate).
    row, column = at // g.stride - 1, at % g.stride - 1
    doors = cuts[(g.degree[at] == 2) & ((row % 2) != (column % 2))]
    order, highs, score = key_candidates(g.touch_high[cells_flat], dist_path, degree, noise)
    return [(g.path[door], key) for door, key in plan_locks(keys, length, doors, highs, order, score)]

