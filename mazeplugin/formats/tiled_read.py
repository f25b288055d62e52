"""Tiled maps back into levels, square and hex: ``.tmx`` (XML) and ``.tmj`` (JSON), as saved or as a designer edited them.

What is read (see :mod:`mazeplugin.formats.tiled` for what mazeplugin writes):

- **Walls.** A tile is wall where any tile layer (group layers included)
  holds a tile whose bool property ``wall`` is true; floor elsewhere (other
  tiles, or no tile). So any tileset works: give its wall tiles the property
  (Tiled: select the tiles in the tileset, add a bool custom property
  ``wall``). Tilesets may be embedded or external (``.tsx``/``.tsj``/``.json``,
  read the same careful way). Flipped and rotated tiles count as their tile.
- **Layer data** as Tiled writes it: CSV, base64 (uncompressed, zlib or
  gzip), or XML ``<tile>`` elements in ``.tmx``; a list of ids, or base64,
  in ``.tmj``. zstd and infinite (chunked) maps are refused with a message
  saying how to save the map instead.
- **Markers.** Objects named (or of type/class) ``entrance`` and ``exit`` in
  any object layer; a point marks the tile under it, a rectangle, ellipse or
  tile object the tile under its centre (on a hexagonal map: the tile whose
  centre is nearest).
- **Bridges** (weave levels): a tile whose string property ``tunnel`` is
  ``"east-west"`` or ``"north-south"`` (the ``bridges`` layer mazeplugin
  writes) is a bridge over a tunnel running that way; each must be a
  straight crossing (:mod:`mazeplugin.weave`), else the map is refused.
- **Map properties** ``corridor`` and ``wall`` (square maps, default 1) give
  the layout; ``generator``, ``seed`` and ``options`` are kept on the level as
  recorded (after editing they say where the map came from); ``grid``, if
  given on a hexagonal map, must be ``"hex"``. ``size`` is not needed: the
  tile layer's size decides, so a map resized in Tiled loads too.
- **Things**: the ``things`` object layer (:mod:`mazeplugin.content.tiled`);
  a designer may move, add or delete them, and the level must then pass its
  ``check()`` to load.

**The grid is the map's orientation.** An orthogonal map is a square
:class:`~mazeplugin.Level`, its tiles rebuilt into the maze model by
:mod:`mazeplugin.formats.rebuild`. A hexagonal one (``staggeraxis="y"``,
``staggerindex="odd"``) is a hex :class:`~mazeplugin.Level`, its tiles
read as the doubled hex lattice of :mod:`mazeplugin.grids.hextiles`
(``2 × height + 1`` rows of ``2 × width + 2`` tiles): every tile is a cell,
a tile between two neighbouring cells (a passage where it is floor), an
opening in the rim (the entrance west of the first cell, the exit east of
the last) or margin. A hex map that is not a hex maze is refused naming the
first tile at fault: a cell tile that is wall, a floor tile between two cells
not both floor, a floor tile in the margin, one opening floor and the other
wall, a marker away from its opening, a thing off a cell's tile (a door: off
a passage's). Its things come back on cells: each on the cell whose tile is
nearest its point, a door on the passage whose tile is nearest (its ``cells``
ordered as the player meets them), an enemy's patrol the cells under its
polyline's points. :func:`load_tiled` gives either level; :func:`load_tmx`,
:func:`load_tmj` only a square one, :func:`load_hex` only a hex one.
Isometric and staggered maps are refused.

Safety: the file is read through :func:`~mazeplugin.formats.files.read_limited`
(a regular file, at most ``MAX_LEVEL_FILE_BYTES``) and parsed by
:mod:`mazeplugin.formats.tiled_parse`, which refuses before it amplifies:
XML with a DOCTYPE or entity declaration (no entity expansion, no external
fetches), more XML elements or JSON lists and objects than a map holds, a
layer's ``<tile>`` elements kept as an array and refused past the map's size.
The map's size is checked against ``MAX_TILES`` (and a square level's
against its layout and ``MAX_CELLS``, a hex level's against
``MAX_GRID_CELLS``) before any tile data is decoded; layers are decoded and
looked up a block at a time (:mod:`mazeplugin.formats.tiled_layers`), CSV
text far longer than the map needs is refused unparsed, and compressed layers
inflate at most the expected size; doors in the ``things`` layer are bounded
in tiles before they are listed. Nothing in a file is executed. A bad map
raises :class:`~mazeplugin.formats.files.LevelFormatError` starting with the
file name, never another exception. :mod:`mazeplugin.formats.tiled_map` reads
either kind of map into a :class:`TiledMap`; this module makes the level.

>>> import os, tempfile, mazeplugin as mp
>>> folder = tempfile.mkdtemp()
>>> level = mp.generate("kruskal", 6, 4, seed=7, markers="farthest")
>>> level.save(os.path.join(folder, "level.tmx"))
>>> again = mp.load(os.path.join(folder, "level.tmx"))
>>> again.tiles.tobytes() == level.tiles.tobytes(), again.entrance == level.entrance, again.seed
(True, True, 7)
>>> keyed = mp.generate("backtracker", 8, 6, grid="hex", seed=4, keys=2, treasure=1, enemies=1, braid=0.5)
>>> keyed.save(os.path.join(folder, "hex.tmj"))
>>> back = mp.load(os.path.join(folder, "hex.tmj"))
>>> bool((back.maze.open == keyed.maze.open).all()), back.things == keyed.things, back.options == keyed.options
(True, True, True)
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import NDArray

from ..content.cells import CellGraph, CellThing
from ..content.things import Thing
from ..grids import GridMaze, HexGrid
from ..grids.hextiles import cell_tiles, opening_tiles, passage_tiles, tile_shape
from ..level import Level
from ..limits import MAX_CORRIDOR, MAX_GRID_CELLS, MAX_LEVEL_FILE_BYTES, MAX_WALL, check_int
from .files import LevelFormatError, PathLike, read_limited
from .recorded import check_grid_options
from .rebuild import layout_for_shape, level_from_tiles
from .recorded import LevelShape, check_options, check_plain
from .tiled_common import SizeCheck, TiledMap, recorded_properties
from .tiled_map import MAX_TILESET_BYTES, read_map

__all__ = ["TiledMap", "MAX_TILESET_BYTES", "load_tiled", "load_tmx", "load_tmj", "load_hex", "read_tiled",
           "read_prefab", "hex_level"]


def load_tiled(path: PathLike, *, corridor: Optional[int] = None,
               wall: Optional[int] = None) -> Level:
    """Load a level from a Tiled map, ``.tmx`` or ``.tmj`` (by extension; other names by content): a
    :class:`~mazeplugin.Level` from an orthogonal map, a hex one from a
    hexagonal one. ``corridor`` and ``wall`` override a square map's properties of those names
    (default 1 when the map has none); a hex level has neither."""
    return _load(path, "", corridor, wall)


def load_tmx(path: PathLike, *, corridor: Optional[int] = None, wall: Optional[int] = None) -> Level:
    """Load a square level from a Tiled XML map (``.tmx``); see the module docstring."""
    return _load(path, "tmx", corridor, wall, "orthogonal")


def load_tmj(path: PathLike, *, corridor: Optional[int] = None, wall: Optional[int] = None) -> Level:
    """Load a square level from a Tiled JSON map (``.tmj``); see the module docstring."""
    return _load(path, "tmj", corridor, wall, "orthogonal")


def load_hex(path: PathLike, kind: str = "") -> Level:
    """Load a hex level from a Tiled hexagonal map, ``kind`` ``"tmx"`` or ``"tmj"`` (``""``: by extension,
    else by content); an orthogonal map is refused, naming the loader for it."""
    return _load(path, kind, None, None, "hexagonal")


def _load(path: PathLike, kind: str, corridor: Optional[int], wall: Optional[int],
          orientation: Optional[str] = None) -> Level:
    """The level of the map at ``path`` (of that ``orientation``, if given), by its orientation."""
    tiled = read_tiled(path, None if orientation == "hexagonal" else _square_size(corridor, wall), kind)
    if orientation is not None:
        _orientation(tiled, orientation)
    if tiled.orientation == "hexagonal":
        for name, given in (("corridor", corridor), ("wall", wall)):
            if given is not None and check_int(name, given, low=1, high=1 << 30) != 1:
                raise ValueError(f"{name}= is for square levels; {tiled.source} is a hexagonal map (a hex level), "
                                 f"whose tiles are one cell or passage each: leave {name}= out")
    level = hex_level(tiled) if tiled.orientation == "hexagonal" else _level(tiled, corridor, wall)
    if level.things:
        try:
            level.check()  # a designer may have moved things: they must still make a sound level
        except ValueError as error:
            raise LevelFormatError(f"{tiled.source}: things: {error}") from None
    return level


def read_tiled(path: PathLike, check_size: Optional[SizeCheck] = None, kind: str = "") -> TiledMap:
    """Read a Tiled map's walls, markers and properties, ``kind`` ``"tmx"`` or ``"tmj"`` (``""``: by extension,
    else by content), checking everything; ``check_size`` may refuse the map's size before any layer is decoded."""
    source = os.fspath(path)
    kind = kind or {".tmx": "tmx", ".tmj": "tmj", ".json": "tmj"}.get(os.path.splitext(source)[1].lower(), "")
    data = read_limited(path, MAX_LEVEL_FILE_BYTES, what="a Tiled map")
    if not kind:
        kind = "tmx" if data.lstrip()[:1] == b"<" else "tmj"
    return read_map(data, kind, source, os.path.dirname(os.path.abspath(source)), check_size)


def _orientation(tiled: TiledMap, orientation: str) -> TiledMap:
    """Refuse a map of another orientation than the level (or prefab) asked for, naming the loader for it."""
    if tiled.orientation != orientation:
        grid = "hex" if tiled.orientation == "hexagonal" else "square"
        raise LevelFormatError(f"{tiled.source}: the map is {tiled.orientation}, a {grid} level: load it with mp.load")
    return tiled


def read_prefab(path: PathLike) -> Tuple[NDArray[np.uint8], NDArray[np.bool_], str]:
    """A prefab room drawn in a Tiled map: ``(tiles, doors, source)`` for :class:`mazeplugin.Prefab`.

    The map is the room in base tiles (one tile per cell, passage or corner
    between cells: ``2*h + 1`` rows of ``2*w + 1`` for ``w`` × ``h`` cells,
    like :meth:`Prefab.from_text`'s text). Wall tiles have the bool property
    ``wall``; door marks are tiles with the bool property ``door`` or objects
    named (or of class) ``door``, on the outline; a door mark is wall until a
    door is chosen there. A map with ``corridor``/``wall`` properties other
    than 1 is refused: ``corridor=``/``wall=`` widen the prefab with the level.
    """
    tiled = _orientation(read_tiled(path), "orthogonal")
    for name in ("corridor", "wall"):
        if tiled.properties.get(name, 1) != 1:
            raise LevelFormatError(
                f"{tiled.source}: a prefab map is drawn in base tiles (corridor=1, wall=1), but its {name} "
                f"property is {tiled.properties[name]!r:.40}; the level's corridor= and wall= widen the prefab"
            )
    tiles = (tiled.walls | tiled.doors).astype(np.uint8)
    return tiles, tiled.doors, tiled.source


def _square_size(corridor: Optional[int], wall: Optional[int]) -> SizeCheck:
    """Refuse, before the layers are decoded, an orthogonal map whose size no level has at its
    ``corridor``/``wall`` (given, else the map's properties), or whose cells or tiles pass the bounds
    (a 16384 × 16384 map, 1.4 MB of zlib data, was decoded for 28 s before its size was refused)."""
    def check(orientation: str, columns: int, rows: int, properties: Dict[str, Any], source: str) -> None:
        if orientation == "hexagonal":
            return  # a hex level (hex_level reads its lattice), or refused naming its loader
        widths = _widths(properties, corridor, wall, source)
        layout_for_shape((rows, columns), widths["corridor"], widths["wall"], source=source)

    return check


# -- into a level -------------------------------------------------------------------


def _widths(props: Dict[str, Any], corridor: Optional[int], wall: Optional[int], source: str) -> Dict[str, int]:
    """``{"corridor": .., "wall": ..}``: the given ones, else the map's properties (default 1), checked."""
    widths = {}
    for name, given, most in (("corridor", corridor, MAX_CORRIDOR), ("wall", wall, MAX_WALL)):
        if given is not None:
            widths[name] = check_int(name, given, low=1, high=most)
            continue
        value = props.get(name, 1)
        try:
            widths[name] = check_int(f"map property {name!r}", value, low=1, high=most)
        except (TypeError, ValueError) as error:
            raise LevelFormatError(f"{source}: {error}") from None
    return widths


def _level(tiled: TiledMap, corridor: Optional[int], wall: Optional[int]) -> Level:
    source = tiled.source
    widths = _widths(tiled.properties, corridor, wall, source)
    algorithm, seed, parsed = recorded_properties(tiled)
    options: Dict[str, Any] = {}
    if parsed is not None:
        layout = layout_for_shape(tiled.walls.shape, widths["corridor"], widths["wall"], source=source)
        options = check_options(
            parsed, generator=algorithm,
            shape=LevelShape(layout.width, layout.height, layout.corridor, layout.wall), source=source,
        )
    level = level_from_tiles(
        tiled.walls.astype(np.uint8),
        corridor=widths["corridor"],
        wall=widths["wall"],
        entrance=tiled.markers.get("entrance"),
        exit=tiled.markers.get("exit"),
        algorithm=algorithm,
        seed=seed,
        options=options,
        source=source,
        bridges=tiled.bridges if tiled.bridges.any() else None,
    )
    if tiled.things:
        level.things = tiled.things  # checked by _load
    return level


# -- hexagonal maps: the doubled hex lattice -------------------------------------------


def hex_level(tiled: TiledMap) -> Level:
    """The hex level a hexagonal map's walls, markers, things and properties describe (see the module docstring;
    the things' soundness is checked by the loader, as on a square level)."""
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
    return Level(maze, width=width, height=height, entrance=entrance, exit=exit,
                 openings=grid.openings() if markers else (), algorithm=algorithm, seed=seed,
                 options=dict(options, grid="hex"), things=_cell_things(maze, tiled.things, entrance, source))


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
