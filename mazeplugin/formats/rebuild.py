"""A tilemap back into the maze model (cells, open passages and border openings), and tilemaps as ``.npy``.

Loaded levels must walk, solve and print like generated ones, so a loaded
tilemap is turned back into a :class:`~mazeplugin.maze.Maze` (with the default
layout, cell ``(cx, cy)`` is open to the east where ``tiles[2*cy + 1, 2*cx + 2]``
is floor, i.e. ``east = tiles[1::2, 2::2] == 0``; a floor tile at an even-even
position is an open corner, and the cells around touching open corners are
numbered as rooms, see :meth:`~mazeplugin.maze.Maze.rooms_from_corners`) and a
:class:`~mazeplugin.level.Level` is built from that model in the usual way.
The rebuilt level's tiles must equal the loaded ones exactly; the first tile
where they differ is reported, so a tilemap no maze could have is refused.
Every loader ends in :func:`proved`, the one proof of a loaded level's things.

``.npy`` holds one int8 array: :meth:`Level.marked` (0 floor, 1 wall,
2 entrance, 3 exit; a 3 with no 2 is an entrance and exit on one tile, as in
a one-cell maze). It keeps the tiles and markers but not the generator or
seed. Loading accepts int and bool arrays with those values (a plain 0/1
``level.tiles`` too) and never unpickles.

>>> import mazeplugin as mp
>>> level = mp.generate("backtracker", 3, 2, seed="castle")
>>> again = level_from_tiles(level.tiles, entrance=level.entrance, exit=level.exit)
>>> print(again)
#######
S #   #
# # # #
#   # E
#######
>>> import numpy as np
>>> level_from_tiles(np.zeros((3, 5), dtype=np.uint8))
Traceback (most recent call last):
...
mazeplugin.errors.LevelFormatError: <array>: tile (0, 0) is floor, but a maze of 2 × 1 cells (corridor=1, wall=1) has wall there: the corners in the outer wall are always wall
"""

from __future__ import annotations

import io
import numbers
import os
from typing import Any, List, Mapping, Optional, Sequence, Tuple, TypeVar

import numpy as np
from numpy.typing import NDArray

from ..limits import MAX_CELLS, MAX_TILES
from ..level import Level
from ..maze import UNDER_EAST_WEST, UNDER_NORTH_SOUTH, Maze
from ..seeds import Seed
from ..tiles import ENTRANCE, EXIT, FLOOR, Layout, Opening, Tile, check_tile
from .files import LevelFormatError, PathLike, atomic_path, open_regular

AnyLevelT = TypeVar("AnyLevelT")

__all__ = ["layout_for_shape", "level_from_tiles", "check_loadable", "proved", "save_npy", "load_npy"]


def layout_for_shape(shape: Sequence[int], corridor: int = 1, wall: int = 1, *, source: str = "<array>") -> Layout:
    """The layout of a tilemap of ``shape`` (rows, columns), or a :class:`LevelFormatError`."""
    rows, columns = (int(n) for n in shape)
    pitch = corridor + wall
    if rows * columns > MAX_TILES:
        raise LevelFormatError(
            f"{source}: {columns:,} × {rows:,} tiles is too large; at most {MAX_TILES:,} tiles are allowed"
        )
    if rows < pitch + wall or columns < pitch + wall or (rows - wall) % pitch or (columns - wall) % pitch:
        raise LevelFormatError(
            f"{source}: a {columns} × {rows} tilemap is not a maze with corridor={corridor}, wall={wall}: "
            f"its width and height in tiles must be cells × {pitch} + {wall}"
        )
    width, height = (columns - wall) // pitch, (rows - wall) // pitch
    if width * height > MAX_CELLS:
        raise LevelFormatError(f"{source}: {width} × {height} cells is too large; at most {MAX_CELLS:,} cells")
    return Layout(width, height, corridor=corridor, wall=wall)


def level_from_tiles(
    tiles: NDArray[np.integer[Any]],
    *,
    corridor: int = 1,
    wall: int = 1,
    entrance: Optional[Tile] = None,
    exit: Optional[Tile] = None,
    algorithm: Optional[str] = None,
    seed: Optional[Seed] = None,
    options: Optional[Mapping[str, Any]] = None,
    source: str = "<array>",
    unmarked_openings: bool = False,
    bridges: Optional[NDArray[np.integer[Any]]] = None,
) -> Level:
    """Rebuild a :class:`Level` from a 0/1 tilemap (1 = wall) and its markers.

    Raises :class:`LevelFormatError` (naming ``source``) when the tiles are
    not 0/1, do not fit the layout, could not come from any maze, a marker
    is off the map or on a wall, or the outer wall has an opening where no
    marker is (the outer ring is wall except where the entrance or exit
    opens it). ``unmarked_openings=True`` accepts such openings, for tiles
    that carry no markers at all (a plain ``level.tiles`` array).

    ``bridges`` (a weave's second layer, shaped like ``tiles``: see
    :attr:`Level.bridges`) makes those tiles bridges over tunnels; each must
    be a straight crossing of a corridor=1, wall=1 map (see :mod:`mazeplugin.weave`).
    """
    tiles = np.asarray(tiles)
    if tiles.ndim != 2:
        raise LevelFormatError(f"{source}: tiles must be 2-dimensional (rows, columns), got shape {tiles.shape}")
    layout = layout_for_shape(tiles.shape, corridor, wall, source=source)
    bad = (tiles != 0) & (tiles != 1)
    if bad.any():
        y, x = (int(v) for v in np.argwhere(bad)[0])
        raise LevelFormatError(f"{source}: tile ({x}, {y}) is {tiles[y, x].item()!r}; tiles must be 0 (floor) or 1 (wall)")
    tiles = tiles.astype(np.uint8, copy=False)
    markers = {}
    for name, tile in (("entrance", entrance), ("exit", exit)):
        if tile is not None:
            markers[name] = _check_marker(name, tile, tiles, source)

    w, h = layout.width, layout.height
    # One tile per base position (the middle of its block) gives the width-1 map.
    ys = [layout._tile_axis(b) for b in range(2 * h + 1)]
    xs = [layout._tile_axis(b) for b in range(2 * w + 1)]
    base = tiles[np.ix_(ys, xs)]
    maze = Maze(w, h, mask=base[1::2, 1::2] == FLOOR)
    maze.east[:, :-1] = base[1::2, 2:-1:2] == FLOOR
    maze.south[:-1, :] = base[2:-1:2, 1::2] == FLOOR
    maze.corners[:] = base[2:-1:2, 2:-1:2] == FLOOR
    if bridges is not None:
        _add_bridges(maze, layout, np.asarray(bridges), tiles.shape, source)
    loose = maze.corners & ~maze.joined_corners()
    if loose.any():
        cy, cx = (int(v) for v in np.argwhere(loose)[0])
        tile = layout.tile_of((2 * cx + 2, 2 * cy + 2))
        raise LevelFormatError(
            f"{source}: tile {tile} is floor, but it is the corner between cells ({cx}, {cy}) and "
            f"({cx + 1}, {cy + 1}), and a corner is floor only inside an open area, where the "
            "four cells around it are joined all round"
        )
    try:
        maze.check()
    except ValueError as error:
        raise LevelFormatError(f"{source}: {error} (a floor tile joins a wall-filled cell)") from None
    maze.rooms_from_corners()
    openings = _border_openings(base, maze.mask, source)
    if markers:
        maze.start = _marker_cell(layout, markers.get("entrance"), maze.start)
        maze.goal = _marker_cell(layout, markers.get("exit"), maze.goal)
    try:
        level = Level(
            maze,
            layout=layout,
            entrance=markers.get("entrance"),
            exit=markers.get("exit"),
            openings=openings,
            algorithm=algorithm,
            seed=seed,
            options=options,
        )
    except ValueError as error:  # pragma: no cover - markers were checked above
        raise LevelFormatError(f"{source}: {error}") from None
    differ = level.tiles != tiles
    if differ.any():
        y, x = (int(v) for v in np.argwhere(differ)[0])
        raise LevelFormatError(_mismatch(source, layout, (x, y), int(tiles[y, x])))
    if not unmarked_openings:
        _check_openings_marked(openings, layout, markers, source)
    return level


def _add_bridges(maze: Maze, layout: Layout, bridges: NDArray[np.integer[Any]], shape: Tuple[int, ...],
                 source: str) -> None:
    """Bridges on cell tiles become ``maze.under``; the floor beside each along its tunnel is the tunnel, not a passage."""
    if bridges.shape != shape:
        raise LevelFormatError(f"{source}: bridges must have the tiles' shape {shape}, got {bridges.shape}")
    if not bridges.any():
        return
    if not layout.is_unit:
        raise LevelFormatError(f"{source}: bridges need corridor=1 and wall=1 "
                               f"(got corridor={layout.corridor}, wall={layout.wall})")
    off = bridges.copy()
    off[1::2, 1::2] = 0
    if off.any():
        y, x = (int(v) for v in np.argwhere(off)[0])
        raise LevelFormatError(f"{source}: the bridge at tile {(x, y)} is not on a cell's tile "
                               "(cells are at odd x and odd y)")
    under = bridges[1::2, 1::2]
    if ((under != 0) & (under != UNDER_EAST_WEST) & (under != UNDER_NORTH_SOUTH)).any():
        raise LevelFormatError(f"{source}: bridges must be 0, 1 (tunnel east-west) or 2 (tunnel north-south)")
    maze.under = under.astype(np.int8)
    ew, ns = under == UNDER_EAST_WEST, under == UNDER_NORTH_SOUTH
    maze.east[ew] = False
    maze.east[:, :-1][ew[:, 1:]] = False
    maze.south[ns] = False
    maze.south[:-1, :][ns[1:, :]] = False
    try:
        maze.check_under()
    except ValueError as error:
        raise LevelFormatError(f"{source}: {error}") from None


def _check_marker(name: str, tile: object, tiles: NDArray[np.integer[Any]], source: str) -> Tile:
    try:
        x, y = check_tile(name, tile, tiles.shape)
    except (TypeError, ValueError) as error:
        raise LevelFormatError(f"{source}: {error}") from None
    if tiles[y, x] != FLOOR:
        raise LevelFormatError(f"{source}: {name} ({x}, {y}) is on a wall tile; markers must be on floor")
    return (x, y)


def _border_openings(base: NDArray[np.integer[Any]], mask: NDArray[np.bool_], source: str) -> List[Opening]:
    """The openings in the outer wall: floor tiles on the base map's edge beside a cell."""
    rows, columns = base.shape
    h, w = mask.shape
    found: List[Opening] = []
    edges = (
        ("north", base[0, 1::2], lambda i: (i, 0)),
        ("south", base[-1, 1::2], lambda i: (i, h - 1)),
        ("west", base[1::2, 0], lambda i: (0, i)),
        ("east", base[1::2, -1], lambda i: (w - 1, i)),
    )
    for side, edge, cell_of in edges:
        for i in np.flatnonzero(edge == FLOOR).tolist():
            cx, cy = cell_of(i)
            if not mask[cy, cx]:
                bx, by = Opening((cx, cy), side).base_position()
                raise LevelFormatError(
                    f"{source}: the opening at base position ({bx}, {by}) in the outer wall leads "
                    f"into cell ({cx}, {cy}), which is wall-filled"
                )
            found.append(Opening((cx, cy), side))
    return found


def _check_openings_marked(openings: List[Opening], layout: Layout, markers: Mapping[str, Tile],
                           source: str) -> None:
    """Refuse an opening in the outer wall that no marker stands in."""
    marked = {layout.base_of(tile) for tile in markers.values()}
    for opening in openings:
        position = opening.base_position()
        if position not in marked:
            tile = layout.opening_tile(opening)
            raise LevelFormatError(
                f"{source}: the outer wall is open at tile {tile} but no entrance or exit marker is there; "
                "the outer ring is wall except where a marker opens it"
            )


def _marker_cell(layout: Layout, tile: Optional[Tile], default: Tuple[int, int]) -> Tuple[int, int]:
    """The cell a marker stands in or beside (what generate() calls start and goal)."""
    if tile is None:
        return default
    bx, by = layout.base_of(tile)
    cx = min(max((bx - 1) // 2, 0), layout.width - 1)
    cy = min(max((by - 1) // 2, 0), layout.height - 1)
    return (cx, cy)


def _mismatch(source: str, layout: Layout, tile: Tile, value: int) -> str:
    bx, by = layout.base_of(tile)
    found, needed = ("floor", "wall") if value == FLOOR else ("wall", "floor")
    on_ring = bx in (0, 2 * layout.width) or by in (0, 2 * layout.height)
    if bx % 2 == 0 and by % 2 == 0 and on_ring:
        why = "the corners in the outer wall are always wall"
    elif not layout.is_unit:
        why = "each cell, passage or corner is a block of tiles that are all floor or all wall"
    else:  # pragma: no cover - with width-1 blocks every other tile is rebuilt as read
        why = "this tile is decided by its neighbours"
    return (
        f"{source}: tile {tile} is {found}, but a maze of {layout.width} × {layout.height} cells "
        f"(corridor={layout.corridor}, wall={layout.wall}) has {needed} there: {why}"
    )


def check_loadable(level: Level, what: str) -> None:
    """Refuse to write a level that its loader would refuse: whatever mazeplugin writes, it reads back.

    The one such level a library call makes is a world window taken with
    ``open_edges=True``: its outer wall is open where no marker stands.

    >>> import mazeplugin as mp
    >>> check_loadable(mp.generate("kruskal", 3, 2, seed=1), "JSON")
    >>> window = mp.World("kruskal", seed=1).level(0, 0, 2, 2, open_edges=True)
    >>> check_loadable(window, "JSON")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: cannot write JSON: the outer wall is open at tile ... with no entrance or exit marker there...
    """
    base = level.base_tiles
    ring = np.zeros(base.shape, dtype=bool)
    ring[0, :] = ring[-1, :] = ring[:, 0] = ring[:, -1] = True
    marked = {level.layout.base_of(tile) for tile in (level.entrance, level.exit) if tile is not None}
    for by, bx in np.argwhere(ring & (base == FLOOR)).tolist():
        if (bx, by) not in marked:
            rows, columns = base.shape
            side = "west" if bx == 0 else "east" if bx == columns - 1 else "north" if by == 0 else "south"
            tile = level.layout.tile_of((bx, by), outer=side)
            raise ValueError(
                f"cannot write {what}: the outer wall is open at tile {tile} with no entrance or exit marker "
                "there, so the file would not load back (a level's outer wall is open only at its markers); "
                "take world windows with open_edges=False to save them"
            )


def proved(level: AnyLevelT, things: Sequence[Any], source: str) -> AnyLevelT:
    """``level`` (of any grid) with the ``things`` a file holds, proved sound (``level.check()``: each key before
    its door, each door needed, nothing on a wall or marker, patrols sound): the one proof every loader runs.
    ``LevelFormatError`` naming ``source`` and what fails otherwise.

    >>> import mazeplugin as mp
    >>> rich = mp.generate("kruskal", 8, 6, seed=7, keys=1)
    >>> plain = level_from_tiles(rich.tiles, entrance=rich.entrance, exit=rich.exit)
    >>> proved(plain, rich.things, "level.json").things == rich.things
    True
    >>> proved(plain, [t for t in rich.things if t.kind != "key"], "level.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mazeplugin.errors.LevelFormatError: level.json: things: door ... has no key...
    """
    if things:
        loaded: Any = level  # (a level of any grid: it holds its things and checks them)
        loaded.things = tuple(things)
        try:
            loaded.check()
        except ValueError as error:  # (a ContentError)
            raise LevelFormatError(f"{source}: things: {error}") from None
    try:
        getattr(level, "mission")  # (a dungeon's record of its rooms and corridors, read once; None elsewhere)
    except ValueError as error:  # (a MissionError, or the layout record's own)
        raise LevelFormatError(f"{source}: {error}") from None
    return level


# -- .npy: the tilemap and its markers as one int8 array ---------------------------


def save_npy(level: Level, path: PathLike) -> None:
    """Write ``level.marked()`` (int8: 0 floor, 1 wall, 2 entrance, 3 exit) to ``path`` atomically.

    An ``.npy`` is the tilemap and its markers only, so a level with things (keys, doors, treasure,
    enemies) or bridges (a weave) is refused before anything is written: the file would drop them
    (save JSON or a Tiled map to keep them). What made the level (algorithm, seed, options) is not in
    the array either; the JSON and Tiled files keep that too.
    """
    check_loadable(level, "an .npy tilemap")
    if level.things:
        kinds = sorted({t.kind for t in level.things})
        raise ValueError(f"cannot write an .npy tilemap of a level with things ({', '.join(kinds)}): the array "
                         "holds tiles and markers only, so they would be lost; save JSON (.json) or a Tiled "
                         "map (.tmx, .tmj) to keep them")
    if level.weave:
        raise ValueError("cannot write an .npy tilemap of a weave level: the array holds tiles and markers only, "
                         "so its bridges would be lost; save JSON (.json) or a Tiled map (.tmx, .tmj) to keep them")
    marked = level.marked()
    with atomic_path(path) as temporary:
        with open(temporary, "wb") as f:
            np.save(f, marked, allow_pickle=False)


def load_npy(path: PathLike, *, corridor: int = 1, wall: int = 1) -> Level:
    """Load a level from an ``.npy`` tilemap (never unpickling), checking everything.

    The array is 2-D with 0 floor and 1 wall, and optionally one 2 (entrance)
    and one 3 (exit), as :func:`save_npy` writes. ``corridor`` and ``wall``
    say how wide the level's passages and walls are (the array alone cannot).
    The header is read first: a wrong dtype, a pickle, or an oversized
    shape is refused before the tiles are read, and a file shorter than its
    header promises is reported as truncated.
    """
    for name, value in (("corridor", corridor), ("wall", wall)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        if value < 1:
            raise ValueError(f"{name} must be at least 1, got {value}")
    source = os.fspath(path)
    with open_regular(source, what="a level") as f:
        shape, dtype = _npy_header(f, source)
        layout_for_shape(shape, int(corridor), int(wall), source=source)
        expected = int(np.prod(shape)) * dtype.itemsize
        if expected > MAX_TILES:
            raise LevelFormatError(
                f"{source}: {expected:,} bytes of {dtype} tiles is too large; at most {MAX_TILES:,} bytes "
                "(save big maps as int8, as save_npy does)"
            )
        start = f.tell()
        f.seek(0, io.SEEK_END)
        available = f.tell() - start
        if available < expected:
            raise LevelFormatError(
                f"{source}: truncated: the header promises {expected:,} bytes of tiles, the file has {available:,}"
            )
        f.seek(0)
        try:
            marked = np.load(f, allow_pickle=False)
        except (ValueError, EOFError, OSError) as error:
            raise LevelFormatError(f"{source}: corrupted .npy file ({error})") from None
    return _level_from_marked(marked, int(corridor), int(wall), source)


def _npy_header(f: Any, source: str) -> Tuple[Tuple[int, ...], np.dtype[Any]]:
    try:
        version = np.lib.format.read_magic(f)
    except ValueError as error:
        raise LevelFormatError(f"{source}: not an .npy file ({error})") from None
    try:
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            raise LevelFormatError(f"{source}: .npy format version {version} is not supported")
    except LevelFormatError:
        raise
    except Exception as error:  # numpy's header parser fails in many ways on junk (ValueError, TokenError, ...)
        raise LevelFormatError(f"{source}: corrupted .npy header ({type(error).__name__}: {error})") from None
    if dtype.hasobject:
        raise LevelFormatError(
            f"{source}: the array holds Python objects (a pickle); refusing to load it"
        )
    if dtype.kind not in "biu":
        raise LevelFormatError(f"{source}: tiles must be an int or bool array, got dtype {dtype}")
    if len(shape) != 2:
        raise LevelFormatError(f"{source}: tiles must be 2-dimensional (rows, columns), got shape {shape}")
    return shape, dtype


def _level_from_marked(marked: np.ndarray, corridor: int, wall: int, source: str) -> Level:
    markers = {}
    for name, code in (("entrance", ENTRANCE), ("exit", EXIT)):
        where = np.argwhere(marked == code)
        if len(where) > 1:
            raise LevelFormatError(f"{source}: {len(where)} tiles hold {code} ({name}); a level has at most one")
        if len(where):
            markers[name] = (int(where[0][1]), int(where[0][0]))
    if "exit" in markers and "entrance" not in markers:
        markers["entrance"] = markers["exit"]  # both on one tile (a one-cell maze): 3 wins in marked()
    tiles = marked
    if markers:
        tiles = marked.copy()
        for x, y in markers.values():
            tiles[y, x] = 0
    # A plain 0/1 array (level.tiles, no 2 or 3 anywhere) records no markers, so its
    # openings cannot be checked against them; an array with markers must mark every opening.
    return level_from_tiles(tiles, corridor=corridor, wall=wall, source=source, unmarked_openings=not markers,
                            entrance=markers.get("entrance"), exit=markers.get("exit"))
