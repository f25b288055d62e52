"""What differs by grid in :class:`~mazeplugin.level.Level`, the one level class, each worked out once here.

A level's model is a square :class:`~mazeplugin.maze.Maze` or a
:class:`~mazeplugin.grids.GridMaze`; from it come the tiles of a wrapping or
hex level (:func:`grid_tiles`) and where its cells, passages and markers lie
on them (:class:`Places`), a step on the tiles (:func:`tile_step`: four ways
on square tiles, round the wrap on a wrapping level, six ways on the doubled
hex lattice, :mod:`mazeplugin.grids.hextiles`), the way through
(:func:`square_solution` on tiles, :func:`grid_solution` on cells), the walls
as drawn (:func:`square_walls`, :func:`graph_walls`) and a level's text.

>>> import mazeplugin as mp
>>> level = mp.generate("wilson", 6, 4, grid="hex", seed=3)
>>> tile_step(level, level.entrance, (1, 0)), tile_step(level, (1, 1), (1, 1))
(((1, 1), False), ((2, 2), False))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from . import bridges
from .maze import Maze
from .tiles import WALL, Layout, Opening, Tile, base_bridges, base_tiles, check_tile, open_markers

if TYPE_CHECKING:  # pragma: no cover - the grids load with the first level that is not square
    from .grids import GridMaze
    from .level import Level

__all__ = ["Places", "tile_step", "steps_of", "square_walls", "graph_walls", "checked_things", "no_markers",
           "grid_tiles", "square_solution", "grid_solution", "square_layers", "distances", "Line"]

Line = List[Tuple[float, float]]
"""A wall as a polyline in the grid's drawing units (a square cell is 1 × 1, y down)."""

SQUARE_STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""A step on square tiles: north, east, south, west."""
HEX_STEPS = ((1, -1), (1, 0), (1, 1), (-1, 1), (-1, 0), (-1, -1))
"""A step on hex tiles, clockwise from north-east (the order of ``hextiles.hex_neighbour_tiles``): ``dx`` says
right or left, ``dy`` up, level or down."""


def _hextiles() -> Any:
    from .grids import hextiles  # (the grids load with the first level that is not square)

    return hextiles


class Places:
    """The tiles of a wrapping square or hex level's cells, passages and markers (the tables worked out once)."""

    def __init__(self, maze: "GridMaze", openings: Tuple[Tuple[int, Optional[int]], ...]) -> None:
        from .grids.square import side_tile

        self.grid: Any = maze.grid  # a SquareGrid that wraps, or a HexGrid
        self.hexes, self.openings, self.side_tile = self.grid.name == "hex", openings, side_tile
        self._hex: Optional[Tuple[List[Tile], List[Tile], Tuple[Tile, Tile]]] = None
        self._table: Optional[NDArray[np.int32]] = None

    def _hex_places(self) -> Tuple[List[Tile], List[Tile], Tuple[Tile, Tile]]:
        """Hex levels: every cell's tile, every edge's passage tile and the openings' (a walk asks a step at a time)."""
        if self._hex is None:
            cells = list(zip(*(axis.tolist() for axis in _hextiles().cell_tiles(self.grid))))
            passages = list(zip(*(axis.tolist() for axis in _hextiles().passage_tiles(self.grid))))
            self._hex = (cells, passages, _hextiles().opening_tiles(self.grid))
        return self._hex

    def cell_tile(self, cell: int) -> Tile:
        return self._hex_places()[0][cell] if self.hexes else self.side_tile(self.grid, cell, None)

    def marker_tile(self, which: int) -> Optional[Tile]:
        if not self.openings:
            return None
        if self.hexes:
            return self._hex_places()[2][which]
        return self.side_tile(self.grid, *self.openings[which])

    def between(self, a: int, b: int) -> List[Tile]:
        """The tiles of the passage between neighbouring cells ``a`` and ``b`` (two for a wrap passage)."""
        grid = self.grid
        if self.hexes:
            return [self._hex_places()[1][grid.edge(a, b)]]
        side = next(i for i in range(4) if grid.step(a, i) == b)
        leave, arrive = self.side_tile(grid, a, side), self.side_tile(grid, b, (side + 2) % 4)
        return [leave] if leave == arrive else [leave, arrive]

    def cell_at(self, tile: Tile, shape: Tuple[int, int]) -> int:
        """The cell of a checked tile: the cell it is on, or beside (a passage's lower cell, an opening's cell)."""
        x, y = tile
        grid = self.grid
        if not self.hexes:
            return int(min(max((y - 1) // 2, 0), grid.height - 1) * grid.width + min(max((x - 1) // 2, 0), grid.width - 1))
        if self._table is None:
            table = np.full(shape, -1, dtype=np.int32)
            cols, rows = _hextiles().passage_tiles(grid)
            table[rows[::-1], cols[::-1]] = grid.edges[::-1, 0]  # the first edge through a tile wins
            for cell, (col, row) in zip((0, grid.cells - 1), self._hex_places()[2]):
                if 0 <= row < shape[0] and 0 <= col < shape[1]:
                    table[row, col] = cell
            cols, rows = _hextiles().cell_tiles(grid)
            table[rows, cols] = np.arange(grid.cells, dtype=np.int32)
            self._table = table
        cell = int(self._table[y, x])
        if cell < 0:
            raise ValueError(f"tile {(x, y)} is a wall tile on no cell, passage or opening of this hex level")
        return cell

    def walk(self, cells: Sequence[int]) -> List[Tile]:
        """The tiles of a walk through neighbouring ``cells``: each cell's tile and the passages between."""
        way = [self.cell_tile(cells[0])]
        for a, b in zip(cells, cells[1:]):
            way += self.between(a, b) + [self.cell_tile(b)]
        return way

    def thing_on_tiles(self, thing: Any) -> Any:
        """A :class:`~mazeplugin.content.cells.CellThing` as a :class:`~mazeplugin.content.Thing` on the tiles: at its
        cell's tile, a door at its passage's tile(s) (``props["tiles"]``), a patrol as the tiles walked."""
        from .content.things import Thing

        props: Dict[str, Any] = {k: v for k, v in thing.props.items() if k not in ("edge", "cells", "patrol")}
        x, y = self.cell_tile(thing.cell)
        if thing.kind == "door":
            props["tiles"] = self.between(*thing.props["cells"])
            x, y = props["tiles"][0]
        if thing.kind == "enemy":
            props["patrol"] = self.walk(list(thing.props["patrol"]))
        return Thing(thing.kind, x, y, thing.id, props)


def steps_of(level: "Level") -> Tuple[Tuple[int, int], ...]:
    """The ``(dx, dy)`` steps a walker takes on ``level``'s tiles: six on a hex level, four elsewhere."""
    return HEX_STEPS if level.grid == "hex" else SQUARE_STEPS


def tile_step(level: "Level", tile: Tile, direction: Tuple[int, int], under: bool = False) -> Tuple[Tile, bool]:
    """One step from floor ``tile`` of ``level``: ``(tile, under)`` after it (see :meth:`mazeplugin.Level.step`)."""
    tiles = level.tiles
    if level.kind == "square":  # four ways, over and under a weave's bridges
        return bridges.step(tiles, level.bridges, tile, direction, under)
    steps = steps_of(level)
    direction = (int(direction[0]), int(direction[1]))
    if direction not in steps:
        raise ValueError(f"direction must be one of {', '.join(map(str, steps))} on a {level.kind} level's tiles, "
                         f"got {direction!r}")
    x, y = int(tile[0]), int(tile[1])
    rows, columns = tiles.shape
    if not (0 <= x < columns and 0 <= y < rows) or tiles[y, x] != 0:
        raise ValueError(f"tile {tile!r} is not a floor tile of the map")
    if level.grid == "hex":
        from .grids.hextiles import hex_neighbour_tiles

        nx, ny = hex_neighbour_tiles(x, y)[steps.index(direction)]
    else:  # a wrap passage leaves one edge tile and arrives on the other (as the solution walks it)
        grid = level.maze.grid
        nx, ny = x + direction[0], y + direction[1]
        nx, ny = (nx % columns if grid.wraps_x else nx), (ny % rows if grid.wraps_y else ny)
    if 0 <= nx < columns and 0 <= ny < rows and tiles[ny, nx] == 0:
        return (nx, ny), False
    return (x, y), False


def square_walls(base: NDArray[np.uint8]) -> List[Line]:
    """The walls of a square level's width-1 tilemap ``base`` as cell sides, in the units and order of
    :func:`graph_walls` on a square grid: each cell's walled sides (north, east, south, west) once, by the lower
    numbered of two floor cells; no wall inside a region the mask leaves out; the markers' openings open."""
    rows, columns = base.shape
    height, width = rows // 2, columns // 2
    floor = base[1::2, 1::2] != WALL
    lines: List[Line] = []
    for y in range(height):
        for x in range(width):
            if not floor[y, x]:
                continue
            corners = [(float(x), float(y)), (x + 1.0, float(y)), (x + 1.0, y + 1.0), (float(x), y + 1.0)]
            for side, (dx, dy) in enumerate(SQUARE_STEPS):
                nx, ny = x + dx, y + dy
                inside = 0 <= nx < width and 0 <= ny < height and bool(floor[ny, nx])
                if base[2 * y + 1 + dy, 2 * x + 1 + dx] == WALL and not (inside and ny * width + nx < y * width + x):
                    lines.append([corners[side], corners[(side + 1) % 4]])
    return lines


def graph_walls(maze: "GridMaze", openings: Sequence[Tuple[int, Optional[int]]]) -> List[Line]:
    """Every wall of a grid maze as a polyline: each side of each cell (:meth:`mazeplugin.grids.Grid.sides`)
    once, by the lower numbered of the two cells it parts, unless their passage is open; sides on the grid's
    rim, except the entrance's and exit's openings."""
    grid = maze.grid
    opened = {(c, s) for c, s in openings if s is not None}
    lines = []
    for cell in range(grid.cells):
        for index, (other, line) in enumerate(grid.sides(cell)):
            if other < 0:
                if (cell, index) not in opened:
                    lines.append(line)
            elif cell < other and not maze.open[grid.edge(cell, other)]:
                lines.append(line)
    return lines


def checked_things(things: Sequence[Any], shape: Tuple[int, int]) -> Tuple[Any, ...]:
    """A square level's ``things`` checked (``Thing`` objects with distinct ids, each on a tile of a map of
    ``shape``; ``TypeError``/``ValueError`` otherwise) and sorted by id."""
    from .content.things import Thing  # (lazily: the content package's facade imports Level)

    if isinstance(things, (str, bytes)) or not isinstance(things, (tuple, list, Sequence)):
        raise TypeError(f"things must be a sequence of mazeplugin.Thing, not {type(things).__name__}")
    rows, columns = shape
    seen = set()
    for thing in things:
        if not isinstance(thing, Thing):
            raise TypeError(f"things must hold only mazeplugin.Thing objects, not {type(thing).__name__}")
        if thing.id in seen:
            raise ValueError(f"things: two things have id {thing.id}; ids must be distinct")
        seen.add(thing.id)
        if not (0 <= thing.x < columns and 0 <= thing.y < rows):
            raise ValueError(f"things: {thing.kind} {thing.id} at {(thing.x, thing.y)} is outside the map "
                             f"(x in 0..{columns - 1}, y in 0..{rows - 1})")
    return tuple(sorted(things, key=lambda t: t.id))


def no_markers(level: "Level") -> ValueError:
    """What a level without an entrance and exit says when asked its way through."""
    if "world" in level.options:  # a window of an endless World: it has no markers at all
        return ValueError("this level is a window of a World, which has no entrance or exit, so it has no "
                          "solution; for a way between two floor tiles use level.distances(tile) or "
                          "mazeplugin.paths.shortest_path(level.tiles, start, goal)")
    return ValueError("this level has no entrance and exit (markers='none'); "
                      "generate it with markers='border', 'farthest', 'random' or two tiles")


def grid_tiles(maze: "GridMaze", openings: Tuple[Tuple[int, Optional[int]], ...], *, markers: bool) -> NDArray[np.uint8]:
    """A wrapping or hex maze's read-only tilemap: the doubled hex lattice (:mod:`mazeplugin.grids.hextiles`) or
    the square tiles with each wrap passage open on both edges (:mod:`mazeplugin.grids.square`)."""
    from .grids.hextiles import hex_tiles
    from .grids.square import square_tiles

    made = hex_tiles(maze, openings=markers) if maze.grid.name == "hex" else square_tiles(maze, openings)
    made.flags.writeable = False
    return made


def square_solution(level: "Level", crossings: Optional[NDArray[np.uint8]]) -> List[Tile]:
    """A square level's solution on its tiles (see :meth:`mazeplugin.Level.solution`); ``crossings`` its bridges."""
    entrance, exit = level.entrance, level.exit
    if entrance is None or exit is None:
        raise no_markers(level)
    if any(t.kind in ("door", "drop") for t in level.things):  # (on a weave: over and under the bridges too)
        from .content.proof import solve  # (lazily: the content package's facade imports Level)

        path = solve(level.tiles, entrance, exit, level.things, crossings)
    elif crossings is not None:  # a weave: straight over and under the bridges
        path = bridges.shortest_path(level.tiles, crossings, entrance, exit)
    else:
        from .paths import shortest_path

        path = shortest_path(level.tiles, entrance, exit)
    if path is None:  # pragma: no cover - generate() always joins the markers
        raise ValueError("the exit cannot be reached from the entrance")
    return path


def grid_solution(level: "Level") -> List[int]:
    """A grid maze's solution in cells (see :meth:`mazeplugin.Level.solution_cells`)."""
    entrance, exit = level.entrance_cell, level.exit_cell
    if entrance is None or exit is None:
        raise no_markers(level)
    if any(t.kind == "door" for t in level.things):
        from .content.proof import solve_cells
        from .content.cells import CellGraph

        return solve_cells(CellGraph.of(level.maze), entrance, exit, level.things) or []
    from .analysis import grid_path

    return grid_path(level.maze, entrance, exit)


def square_layers(maze: Maze, layout: Layout, openings: Sequence[Opening]) -> Tuple[
        NDArray[np.uint8], NDArray[np.uint8], Optional[NDArray[np.uint8]]]:
    """A square maze's read-only width-1 tiles (openings open), its tiles stretched by ``layout``, and a weave's
    bridges (None without crossings)."""
    base = open_markers(base_tiles(maze), openings)
    base.flags.writeable = False
    tiles = layout.expand(base)
    tiles.flags.writeable = False
    if maze.under is None or not maze.under.any():
        return base, tiles, None
    if not layout.is_unit:
        raise ValueError("a maze with bridges (maze.under) makes a level with corridor=1 and wall=1 only, "
                         f"not corridor={layout.corridor}, wall={layout.wall}")
    crossings = layout.expand(base_bridges(maze))
    crossings.flags.writeable = False
    return base, tiles, crossings


def distances(level: "Level", source: Any, *, by_cell: bool) -> NDArray[np.int32]:
    """:meth:`mazeplugin.Level.distances` (a map shaped like the tiles wherever the level has them) and, with
    ``by_cell`` (or on a level without tiles), :meth:`mazeplugin.Level.distances_cells`: from a floor tile, a
    cell number (on tiles, its middle tile) or None (the entrance)."""
    by_cell = by_cell or not level.tiled
    if source is None:
        if level.entrance is None:
            raise ValueError("this level has no entrance (markers='none'); give source=, a floor tile (x, y) "
                             "or a cell number")
        source = level.entrance_cell if by_cell else level.entrance
    elif isinstance(source, (int, np.integer)) and not isinstance(source, bool):
        if not 0 <= source < level.cells:
            raise ValueError(f"source must be a floor tile (x, y) or a cell number from 0 to {level.cells - 1}, "
                             f"got {source}")
        source = int(source) if by_cell else level.cell_tile(int(source))
    elif not level.tiled:
        raise ValueError(f"distances(tile) is for levels with a tilemap (square, weave, wrapping, hex); a {level.grid} "
                         "level is a graph of cells with no rectangular tilemap: give source= a cell number")
    else:
        source = check_tile("source", source, level.shape)
        if not level.is_floor(source):
            raise ValueError(f"source {source} is a wall tile; distances start from a floor tile")
        source = level.cell_of(source) if by_cell else source
    from . import analysis

    if by_cell:
        return analysis.distances(level.maze, source)
    if level.weave:
        return bridges.distance_map(level.tiles, level.bridges, source)
    if level.square:
        from .paths import distance_map

        return distance_map(level.tiles, source)
    return _step_distances(level, source)


def _step_distances(level: "Level", source: Tile) -> NDArray[np.int32]:
    """Steps (:func:`tile_step`) from floor tile ``source`` to every tile of a wrapping or hex level, -1 on walls
    and where unreachable: a breadth-first sweep over the tiles."""
    dist = np.full(level.shape, -1, dtype=np.int32)
    dist[source[1], source[0]] = 0
    steps, queue = steps_of(level), [source]
    for tile in queue:
        reach = int(dist[tile[1], tile[0]]) + 1
        for step in steps:
            (x, y), _ = tile_step(level, tile, step)
            if dist[y, x] < 0:
                dist[y, x] = reach
                queue.append((x, y))
    return dist
