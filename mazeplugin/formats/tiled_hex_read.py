"""Tiled hexagonal maps back into hex levels: the tiles of a ``.tmx``/``.tmj`` read as the doubled hex lattice.

A hex level's map (:mod:`mazeplugin.formats.tiled_hex` writes it; a designer
may draw one in Tiled) is the tilemap of :mod:`mazeplugin.grids.hextiles`:
``2 × height + 1`` rows of ``2 × width + 2`` pointy-top tiles, odd rows
shifted right (``staggeraxis="y"``, ``staggerindex="odd"``). Every tile is
a cell, a tile between two neighbouring cells (a passage where it is floor),
an opening in the rim (the entrance west of the first cell, the exit east of
the last) or margin. Walls are read as for square maps (tiles whose bool
property ``wall`` is true, :mod:`mazeplugin.formats.tiled_read`), and the
level is rebuilt from them, so a map edited in Tiled loads as the maze it
shows. A map that is not a hex maze is refused with a
:class:`~mazeplugin.errors.LevelFormatError` naming the first tile at fault:

- a cell tile that is wall (every cell is floor; the walls are between cells),
- a floor tile between two cells that are not both floor,
- a floor tile in the margin (neither a cell, nor between two, nor an opening),
- one opening floor and the other wall (a level has both markers or neither),
- an ``entrance`` or ``exit`` object away from its opening, or without one,
- a thing of the ``things`` layer off a cell's tile (a door: off a passage's
  tile), or things that do not make a sound level (:meth:`GridLevel.check`).

Things (the ``things`` object layer, as :mod:`mazeplugin.formats.tiled_hex`
writes it) come back as :class:`~mazeplugin.content.cells.CellThing` s: each
on the cell whose tile is nearest its point; a door on the passage whose
tile is nearest, its ``cells`` ordered as the player meets them (the one the
entrance still reaches with that door shut first); an enemy's patrol the
cells under its polyline's points.

Map properties, when present, say what made the level: ``generator``,
``seed`` and ``options`` (JSON text), as the writer stores them; ``grid``, if
given, must be ``"hex"``. A map drawn by hand needs none of them.

>>> import os, tempfile, mazeplugin as mp
>>> path = os.path.join(tempfile.mkdtemp(), "hex.tmx")
>>> level = mp.generate("wilson", 5, 4, grid="hex", seed=3, braid=0.5)
>>> level.save(path)
>>> again = mp.load(path)
>>> bool((again.maze.open == level.maze.open).all()), again.options == level.options, again.seed
(True, True, 3)
>>> keyed = mp.generate("backtracker", 8, 6, grid="hex", seed=4, keys=2, treasure=1, enemies=1)
>>> keyed.save(path.replace(".tmx", ".tmj"))
>>> mp.load(path.replace(".tmx", ".tmj")).things == keyed.things
True
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from ..content.cells import CellGraph, CellThing
from ..content.proof import ContentError
from ..content.things import Thing
from ..grid_level import GridLevel
from ..level import Level
from ..grids import GridMaze, HexGrid
from ..grids.hextiles import cell_tiles, opening_tiles, passage_tiles, tile_shape
from ..limits import MAX_GRID_CELLS
from .files import LevelFormatError
from .recorded import check_grid_options
from .recorded import check_plain
from .tiled_common import TiledMap, recorded_properties

__all__ = ["hex_level"]


def hex_level(tiled: TiledMap) -> GridLevel:
    """The hex level a hexagonal map's walls, markers and properties describe (see the module docstring)."""
    source = tiled.source
    if tiled.bridges.any():
        raise LevelFormatError(f"{source}: the hexagonal map has bridge tiles (the 'tunnel' property); "
                               "weave levels are square (orthogonal maps)")
    floor = ~tiled.walls
    rows, columns = floor.shape
    if rows < 3 or rows % 2 == 0 or columns < 4 or columns % 2:
        raise LevelFormatError(
            f"{source}: the hexagonal map is {columns} × {rows} tiles; a hex level's map is 2 × width + 2 "
            "columns by 2 × height + 1 rows (an even number of columns from 4, an odd number of rows from 3: "
            "the doubled hex lattice of mazeplugin.grids.hextiles)")
    width, height = (columns - 2) // 2, (rows - 1) // 2
    if width * height > MAX_GRID_CELLS:
        raise LevelFormatError(f"{source}: a hex level of {width:,} × {height:,} cells is larger than "
                               f"{MAX_GRID_CELLS:,} cells")
    grid = HexGrid(width, height)
    open_ = _passages(grid, floor, source)
    markers = _markers(grid, floor, tiled.markers, source)
    algorithm, seed, options = recorded_properties(tiled)
    if tiled.properties.get("grid", "hex") != "hex":
        raise LevelFormatError(f"{source}: map property 'grid' is {str(tiled.properties['grid'])!r:.40}, but "
                               "the map is hexagonal: a hex level")
    options = check_grid_options(_options(options, markers, source), algorithm, width, height, source)
    entrance, exit = (0, grid.cells - 1) if markers else (None, None)
    maze = GridMaze(grid, open_)
    things = _cell_things(maze, tiled.things, entrance, source)
    level = Level(maze, width=width, height=height, entrance=entrance, exit=exit,
                  openings=grid.openings() if markers else (), algorithm=algorithm, seed=seed,
                  options=dict(options, grid="hex"), things=things)
    if things:
        try:
            level.check()  # a designer may have moved things: they must still make a sound level
        except ContentError as error:
            raise LevelFormatError(f"{source}: things: {error}") from None
    return level


def _cell_things(maze: GridMaze, things: Sequence[Thing], entrance: Optional[int],
                 source: str) -> Tuple[CellThing, ...]:
    """The things of the ``things`` layer (on tiles) as things on cells, a door on a passage."""
    if not things:
        return ()
    grid = maze.grid
    assert isinstance(grid, HexGrid)
    # Which cell (or edge) each tile is, -1 for none: two arrays, not dicts of a million tuples.
    cell_index = np.full(tile_shape(grid), -1, dtype=np.int64)
    cols, rows = cell_tiles(grid)
    cell_index[rows, cols] = np.arange(grid.cells)
    edge_index = np.full(tile_shape(grid), -1, dtype=np.int64)
    mid_cols, mid_rows = passage_tiles(grid)
    edge_index[mid_rows, mid_cols] = np.arange(len(grid.edges))

    def cell_at(tile: Tuple[int, int]) -> Optional[int]:
        k = int(cell_index[tile[1], tile[0]])  # the reader kept every thing's tiles on the map
        return None if k < 0 else k

    graph = CellGraph.of(maze)
    out: List[CellThing] = []
    for thing in things:
        where = f"{source}: things: {thing.kind} {thing.id}"
        props = {k: v for k, v in thing.props.items() if k not in ("tiles", "patrol", "edge", "cells")}
        if thing.kind == "door":
            edge = int(edge_index[thing.y, thing.x])
            if edge < 0:
                raise LevelFormatError(f"{where} is on tile ({thing.x}, {thing.y}), which is not between two "
                                       "cells; a door on a hex level stands on its passage's tile")
            cells = [int(c) for c in grid.edges[edge]]
            if entrance is not None and graph.open[edge]:
                reached = graph.reached(entrance, shut=[edge])
                if reached[cells[1]] and not reached[cells[0]]:
                    cells.reverse()  # the player meets the cell the entrance still reaches first
            out.append(CellThing("door", cells[0], thing.id, dict(props, edge=edge, cells=cells)))
            continue
        cell = cell_at((thing.x, thing.y))
        if cell is None:
            raise LevelFormatError(f"{where} is on tile ({thing.x}, {thing.y}), which is not a cell's tile")
        if "patrol" in thing.props:
            patrol = []
            for x, y in thing.props["patrol"]:
                step = cell_at((x, y))
                if step is None:
                    raise LevelFormatError(f"{where}: its patrol's point on tile ({x}, {y}) is not on a cell's tile")
                patrol.append(step)
            props["patrol"] = patrol
        out.append(CellThing(thing.kind, cell, thing.id, props))
    return tuple(out)


def _passages(grid: HexGrid, floor: NDArray[np.bool_], source: str) -> NDArray[np.bool_]:
    """Each edge's passage (its tile is floor), after checking every tile is where a hex maze has it."""
    cols, rows = cell_tiles(grid)
    cell_floor = floor[rows, cols]
    mid_cols, mid_rows = passage_tiles(grid)
    open_ = floor[mid_rows, mid_cols]
    a, b = grid.edges[:, 0], grid.edges[:, 1]
    broken = open_ & ~(cell_floor[a] & cell_floor[b])
    if broken.any():
        k = int(np.argmax(broken))
        walled = int(a[k]) if not cell_floor[a[k]] else int(b[k])
        raise LevelFormatError(
            f"{source}: tile ({mid_cols[k]}, {mid_rows[k]}) is floor, the passage between cells "
            f"{grid.xy(int(a[k]))} and {grid.xy(int(b[k]))}, but cell {grid.xy(walled)}'s tile "
            f"({cols[walled]}, {rows[walled]}) is wall; on a hex level every cell tile is floor")
    if not cell_floor.all():
        cell = int(np.argmin(cell_floor))
        raise LevelFormatError(
            f"{source}: tile ({cols[cell]}, {rows[cell]}) is cell {grid.xy(cell)} and is wall; on a hex level "
            "every cell tile is floor (the walls are the tiles between cells)")
    known = np.zeros(floor.shape, dtype=bool)
    known[rows, cols] = True
    known[mid_rows, mid_cols] = True
    for col, row in opening_tiles(grid):
        known[row, col] = True
    stray = floor & ~known
    if stray.any():
        row, col = divmod(int(np.argmax(stray)), floor.shape[1])
        raise LevelFormatError(
            f"{source}: tile ({col}, {row}) is floor but is neither a cell, nor between two cells, nor the "
            "entrance's or exit's opening (it is in the map's margin); it must be wall")
    return open_


def _markers(grid: HexGrid, floor: NDArray[np.bool_], objects: Dict[str, Tuple[int, int]], source: str) -> bool:
    """Whether the level has its entrance and exit: both openings floor (or both wall: none); marker
    objects, where present, on their openings (or in the cells they open)."""
    openings = opening_tiles(grid)
    names = ("entrance", "exit")
    where = ("west of the first cell", "east of the last cell")
    opened = [bool(floor[row, col]) for col, row in openings]
    if opened[0] != opened[1]:
        shut = opened.index(False)
        raise LevelFormatError(
            f"{source}: tile {openings[shut]}, the {names[shut]}'s opening {where[shut]}, is wall, but the "
            f"{names[1 - shut]}'s {openings[1 - shut]} is floor; a hex level has both openings or neither")
    cols, rows = cell_tiles(grid)
    inside = ((int(cols[0]), int(rows[0])), (int(cols[-1]), int(rows[-1])))
    for k, name in enumerate(names):
        if name not in objects:
            continue
        if not opened[k]:
            raise LevelFormatError(f"{source}: the map has an {name} object, but the {name}'s opening "
                                   f"{where[k]}, tile {openings[k]}, is wall")
        if objects[name] not in (openings[k], inside[k]):
            raise LevelFormatError(
                f"{source}: the {name} object is on tile {objects[name]}; a hex level's {name} is its "
                f"opening {where[k]}, tile {openings[k]}")
    return opened[0]


def _options(options: Optional[Dict[str, Any]], markers: bool, source: str) -> Dict[str, Any]:
    """The recorded options, checked to be plain JSON; ``markers`` as the tiles say."""
    found = dict(options or {})
    try:
        check_plain(found)
    except ValueError as error:
        raise LevelFormatError(f"{source}: map property 'options': {error}") from None
    if "wrap" in found:
        raise LevelFormatError(f"{source}: map property 'options' has 'wrap'; a hex level does not wrap")
    found.pop("grid", None)
    found.pop("markers", None)
    if not markers:
        found["markers"] = "none"
    return found
