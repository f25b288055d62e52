"""A level on a hex, triangle or polar grid: its cells, passages, entrance and exit, and what they answer.

A :class:`GridLevel` is what ``mp.generate(..., grid="hex" | "triangle" |
"polar")`` (or ``wrap=``) returns: the grid maze
(:class:`~mazeplugin.grids.GridMaze`), the entrance and exit cells, and the
algorithm, seed and options that made it. A hex level is also a tilemap
(:attr:`GridLevel.tiles`, see :mod:`mazeplugin.grids.hextiles`), and so is a
wrapping square level; there, as on every level with tiles, places are tiles
``(x, y)``: :attr:`~GridLevel.entrance`, :attr:`~GridLevel.exit` and
:meth:`~GridLevel.solution`. Triangle and polar levels are graphs, drawn as
pictures (:meth:`GridLevel.to_svg`), whose places are cell numbers. Every
level also answers by cell (:attr:`~GridLevel.entrance_cell`,
:meth:`~GridLevel.solution_cells`, :meth:`~GridLevel.cell_of`); distances
and stats are of cells, from :mod:`mazeplugin.analysis`.

>>> import mazeplugin as mp
>>> level = mp.generate("wilson", 6, 4, grid="hex", seed=3)
>>> level.stats().passages == level.stats().cells - 1  # a perfect maze
True
>>> way = level.solution()
>>> way[0] == level.entrance and way[-1] == level.exit
True
>>> level.tiles.shape, level.entrance, level.entrance_cell
((9, 14), (0, 1), 0)
>>> cells = level.solution_cells()
>>> cells[0] == level.entrance_cell and cells[-1] == level.exit_cell
True
"""

from __future__ import annotations

import os
from collections import Counter
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import NDArray

from . import analysis, seam
from .analysis import Stats
from .grids import GridMaze, HexGrid
from .grids.hextiles import STAGGER_INDEX, cell_tiles, hex_tiles, opening_tiles, passage_tiles
from .grids.square import SquareGrid, side_tile, square_tiles
from .seeds import Seed
from .text import marked_tiles
from .tiles import check_tile

if TYPE_CHECKING:  # pragma: no cover
    from .content.cells import CellThing
    from .content.things import Thing

__all__ = ["GridLevel"]

PathLike = Union[str, "os.PathLike[str]"]


class GridLevel:
    """A maze level on a non-square grid.

    Attributes:
        maze: the :class:`~mazeplugin.grids.GridMaze` (grid and open passages).
        grid: the grid's name, ``"hex"``, ``"triangle"``, ``"polar"``, or ``"square"`` for a level that wraps.
        entrance, exit: where the level is entered and left, or None without markers
            (``markers="none"``): ``(x, y)`` tiles on a level with :attr:`tiles` (hex, wrapping
            square; as :attr:`entrance_tile`), cell numbers on triangle and polar levels.
        entrance_cell, exit_cell: the markers' cell numbers (the constructor's ``entrance`` and
            ``exit`` are cells), or None without markers.
        openings: ``(cell, side)`` of the entrance and exit: the side of the
            cell (an index into ``maze.grid.sides(cell)``) opened through the
            grid's edge, or None for a marker inside a cell.
        width, height: the size asked for (for polar: innermost ring's cells, rings).
        algorithm, seed, options: what made it; the same again make the same level.
        things: content on the cells (``keys=``, ``treasure=``, ``enemies=``,
            ``place=``): :class:`~mazeplugin.content.cells.CellThing` s sorted by
            id, a door on a passage (``props["edge"]``); see :meth:`check`.
    """

    width: int
    height: int
    entrance_cell: Optional[int]
    exit_cell: Optional[int]
    openings: Tuple[Tuple[int, Optional[int]], ...]
    algorithm: Optional[str]
    seed: Optional[Seed]
    things: Tuple["CellThing", ...]

    def __init__(self, maze: GridMaze, *, width: int, height: int, entrance: Optional[int] = None,
                 exit: Optional[int] = None, openings: Tuple[Tuple[int, Optional[int]], ...] = (),
                 algorithm: Optional[str] = None, seed: Optional[Seed] = None,
                 options: Optional[Mapping[str, Any]] = None, things: Sequence["CellThing"] = ()) -> None:
        self.maze = maze
        self.grid: str = maze.grid.name
        self.width, self.height = width, height
        self.entrance_cell, self.exit_cell = entrance, exit
        self.openings = tuple(openings)
        self.algorithm, self.seed = algorithm, seed
        self.options: Dict[str, Any] = dict(options or {})
        self._tiles: Optional[NDArray[np.uint8]] = None
        self._hex_places: Optional[Tuple[List[Tuple[int, int]], List[Tuple[int, int]]]] = None
        self._cell_table: Optional[NDArray[np.int32]] = None
        self.things = tuple(things)

    # -- places: tiles where the level has them, else cells
    @property
    def entrance(self) -> Union[None, int, Tuple[int, int]]:
        """Where the level is entered: the ``(x, y)`` tile on a level with :attr:`tiles` (hex,
        wrapping square: :attr:`entrance_tile`), the cell on triangle and polar levels; None
        without markers. :attr:`entrance_cell` is its cell on every level."""
        return self.entrance_tile if self.tiled else self.entrance_cell

    @property
    def exit(self) -> Union[None, int, Tuple[int, int]]:
        """Where the level is left, as :attr:`entrance` (:attr:`exit_tile` or the cell; :attr:`exit_cell`)."""
        return self.exit_tile if self.tiled else self.exit_cell

    def solution(self) -> List[Any]:
        """The shortest way from the entrance to the exit, both included: ``(x, y)`` tiles, each a
        step from the one before, on a level with :attr:`tiles` (:meth:`solution_tiles`), cells
        on triangle and polar levels (:meth:`solution_cells`)."""
        return self.solution_tiles() if self.tiled else self.solution_cells()

    # -- answers in cells
    def solution_cells(self) -> List[int]:
        """The cells of the shortest way from the entrance to the exit, both included.

        With locked doors, the shortest walk that picks up each key before its
        door (a cell may come twice: into a side branch for a key and back).
        """
        if self.entrance_cell is None or self.exit_cell is None:
            raise ValueError("this level has no entrance and exit (markers='none'); generate it with "
                             "markers='border'")
        if any(t.kind == "door" for t in self.things):
            from .content.proof import solve_cells
            from .content.cells import CellGraph

            return solve_cells(CellGraph.of(self.maze), self.entrance_cell, self.exit_cell, self.things) or []
        return analysis.grid_path(self.maze, self.entrance_cell, self.exit_cell)

    def check(self) -> None:
        """Prove the level's things: each key reachable before its door, each door needed, the exit reached,
        no thing on the entrance or exit, every enemy's patrol off the way (``ContentError`` says what fails;
        see :mod:`mazeplugin.content.proof`)."""
        from .content.proof import check_cells
        from .content.cells import CellGraph

        check_cells(CellGraph.of(self.maze), self.entrance_cell, self.exit_cell, self.things)

    def distances(self, source: Union[None, int, Tuple[int, int]] = None) -> NDArray[np.int32]:
        """Passages walked from ``source`` to every cell (one entry per cell); -1 where unreachable.

        ``source`` is a cell number, None (the entrance) or, on a level with tiles (hex, wrapping
        square), a floor tile ``(x, y)``: the cell it is on (:meth:`cell_of`)."""
        if source is None:
            if self.entrance_cell is None:
                raise ValueError("this level has no entrance (markers='none'); give source=, a cell number")
            source = self.entrance_cell
        elif not isinstance(source, (int, np.integer)) or isinstance(source, bool):
            x, y = check_tile("source", source, self.tiles.shape)
            if self.tiles[y, x]:
                raise ValueError(f"source {(x, y)} is a wall tile; distances start from a floor tile")
            source = self.cell_of((x, y))
        return analysis.grid_distances(self.maze, source)

    @property
    def cells(self) -> int:
        """How many cells the grid has, numbered ``0 … cells-1`` (see :class:`~mazeplugin.AnyLevel`)."""
        return self.maze.grid.cells

    @property
    def kind(self) -> str:
        """The level's kind as files, codes and datasets name it: its :attr:`grid`, or ``"wrap"`` for a
        square level that wraps (:class:`~mazeplugin.AnyLevel`)."""
        return "wrap" if self.grid == "square" else self.grid

    @property
    def tiled(self) -> bool:
        """Whether the level has :attr:`tiles`: hex and wrapping square levels do, triangle and polar ones not."""
        return isinstance(self.maze.grid, (HexGrid, SquareGrid))

    @property
    def weave(self) -> bool:
        """False: bridges are for square levels (``weave=``; :attr:`mazeplugin.Level.weave`)."""
        return False


    @property
    def mission(self) -> Any:
        """A dungeon level's mission, as on every level (:attr:`mazeplugin.Level.mission`): None here, since
        dungeons are laid out on square tilemaps (a :class:`~mazeplugin.Level`)."""
        return seam.mission_of(self)

    def cell_of(self, place: Union[int, Tuple[int, int]]) -> int:
        """The cell a tile ``(x, y)`` is on (hex and wrapping square levels; a passage's or an opening's tile
        gives the cell beside it, the lower numbered one for a passage); a cell number comes back checked.

        >>> import mazeplugin as mp
        >>> level = mp.generate("wilson", 6, 4, seed=3, wrap="xy")
        >>> level.cell_of((1, 1)), level.cell_of((3, 3)), level.cell_of(7)
        (0, 7, 7)
        """
        if isinstance(place, (int, np.integer)) and not isinstance(place, bool):
            if not 0 <= place < self.cells:
                raise ValueError(f"cell must be a cell number from 0 to {self.cells - 1}, got {place}")
            return int(place)
        grid = self._tiled("cell_of(tile)")
        x, y = check_tile("tile", place, self.tiles.shape)
        if isinstance(grid, SquareGrid):
            return min(max((y - 1) // 2, 0), grid.height - 1) * grid.width + min(max((x - 1) // 2, 0), grid.width - 1)
        cell = int(self._hex_cells()[y, x])
        if cell < 0:
            raise ValueError(f"tile {(x, y)} is a wall tile on no cell, passage or opening of this hex level")
        return cell

    def _hex_cells(self) -> NDArray[np.int32]:
        """Hex levels: each tile's cell (a passage's lower cell, an opening's cell), -1 elsewhere
        (worked out on the first call)."""
        if self._cell_table is not None:
            return self._cell_table
        grid = self._hex("cell_of")
        rows_count, cols_count = self.tiles.shape
        table = np.full((rows_count, cols_count), -1, dtype=np.int32)
        cols, rows = passage_tiles(grid)
        table[rows[::-1], cols[::-1]] = grid.edges[::-1, 0]  # the first edge through a tile wins
        for cell, (col, row) in zip((0, grid.cells - 1), opening_tiles(grid)):
            if 0 <= row < rows_count and 0 <= col < cols_count:
                table[row, col] = cell
        cols, rows = cell_tiles(grid)
        table[rows, cols] = np.arange(grid.cells, dtype=np.int32)
        self._cell_table = table
        return table

    def dead_ends(self) -> List[int]:
        """The cells with exactly one open passage, ascending."""
        return [int(c) for c in analysis.dead_end_cells(self.maze)]

    def stats(self) -> Stats:
        """The maze's texture in numbers (:class:`mazeplugin.analysis.Stats`; ``detour_ratio`` and ``turns`` None)."""
        return analysis.grid_stats(self.maze, self.entrance_cell, self.exit_cell)

    def walls(self) -> List[List[Tuple[float, float]]]:
        """Every wall as a polyline in the grid's drawing units (y down), for pictures and games.

        Each side of each cell (:meth:`mazeplugin.grids.Grid.sides`) once, by
        the lower numbered of the two cells it parts, unless their passage is
        open; sides on the grid's rim, except the entrance's and exit's openings.
        """
        maze, grid = self.maze, self.maze.grid
        opened = {(c, s) for c, s in self.openings if s is not None}
        lines = []
        for cell in range(grid.cells):
            for index, (other, line) in enumerate(grid.sides(cell)):
                if other < 0:
                    if (cell, index) not in opened:
                        lines.append(line)
                elif cell < other and not maze.open[grid.edge(cell, other)]:
                    lines.append(line)
        return lines

    # -- the tilemap: hex levels, and square levels that wrap
    def _tiled(self, what: str) -> Union[HexGrid, SquareGrid]:
        grid = self.maze.grid
        if not isinstance(grid, (HexGrid, SquareGrid)):
            raise ValueError(
                f"{what} is for hex (and wrapping square) levels; a {self.grid} level is a graph of cells "
                "with no rectangular tilemap: use level.maze (cells and passages) or level.to_svg()"
            )
        return grid

    def _hex(self, what: str) -> HexGrid:
        grid = self.maze.grid
        if not isinstance(grid, HexGrid):
            raise ValueError(f"{what} is for hex levels; this is a {self.grid} level")
        return grid

    @property
    def tiles(self) -> NDArray[np.uint8]:
        """The 1 = wall / 0 = floor tilemap, ``[row, col]``, read-only: hex levels' hex tiles (see
        :mod:`mazeplugin.grids.hextiles`), wrapping square levels' square tiles with each wrap
        passage open on both edges (:mod:`mazeplugin.grids.square`). Other grids raise ``ValueError``."""
        grid = self._tiled("tiles")
        if self._tiles is None:
            if isinstance(grid, HexGrid):
                self._tiles = hex_tiles(self.maze, openings=self.entrance_cell is not None)
            else:
                self._tiles = square_tiles(self.maze, self.openings)
            self._tiles.flags.writeable = False
        return self._tiles

    @property
    def bridges(self) -> NDArray[np.uint8]:
        """No crossings: zeros shaped like :attr:`tiles` (a new array each time), as on a square level
        without weave (:attr:`mazeplugin.Level.bridges`)."""
        return np.zeros(self.tiles.shape, dtype=np.uint8)

    def _marker_tile(self, which: int, what: str) -> Optional[Tuple[int, int]]:
        grid = self._tiled(what)
        if not self.openings:
            return None
        if isinstance(grid, HexGrid):
            return opening_tiles(grid)[which]
        return side_tile(grid, *self.openings[which])

    @property
    def entrance_tile(self) -> Optional[Tuple[int, int]]:
        """The entrance's ``(col, row)`` tile (an opening in the edge, or on a torus the cell's own), or None without markers."""
        return self._marker_tile(0, "entrance_tile")

    @property
    def exit_tile(self) -> Optional[Tuple[int, int]]:
        """The exit's ``(col, row)`` tile, or None without markers."""
        return self._marker_tile(1, "exit_tile")

    def cell_tile(self, cell: int) -> Tuple[int, int]:
        """The ``(col, row)`` tile of ``cell``."""
        grid = self._tiled("cell_tile")
        if isinstance(grid, SquareGrid):
            return side_tile(grid, cell, None)
        return self._hex_tiles_of()[0][cell]

    def _hex_tiles_of(self) -> Tuple[List[Tuple[int, int]], List[Tuple[int, int]]]:
        """Hex levels: the tile of every cell and of every edge's passage, worked out once (a walk
        over the solution asks for them a step at a time)."""
        if self._hex_places is None:
            grid = self._hex("tiles of cells")
            cells = list(zip(*(axis.tolist() for axis in cell_tiles(grid))))
            passages = list(zip(*(axis.tolist() for axis in passage_tiles(grid))))
            self._hex_places = (cells, passages)
        return self._hex_places

    def solution_tiles(self) -> List[Tuple[int, int]]:
        """The solution as ``(col, row)`` tiles, each a step from the one before — on a wrapping
        square level, a step through a wrap passage goes from one edge tile to the other."""
        self._tiled("solution_tiles")
        cells = self.solution_cells()
        start, end = self.entrance_tile, self.exit_tile
        way = [] if start is None or start == self.cell_tile(cells[0]) else [start]
        for a, b in zip(cells, cells[1:]):
            way += [self.cell_tile(a)] + self._between(a, b)
        way.append(self.cell_tile(cells[-1]))
        if end is not None and end != way[-1]:
            way.append(end)
        return way

    def _between(self, a: int, b: int) -> List[Tuple[int, int]]:
        """The tiles of the passage between neighbouring cells ``a`` and ``b`` (two for a wrap passage)."""
        grid = self._tiled("tiles between cells")
        if isinstance(grid, HexGrid):
            return [self._hex_tiles_of()[1][grid.edge(a, b)]]
        side = next(i for i in range(4) if grid.step(a, i) == b)
        leave, arrive = side_tile(grid, a, side), side_tile(grid, b, (side + 2) % 4)
        return [leave] if leave == arrive else [leave, arrive]

    def tile_things(self) -> Tuple["Thing", ...]:
        """Hex (and wrapping square) levels: :attr:`things` on the tilemap, as the square levels'
        :class:`~mazeplugin.content.Thing` s — each at its cell's tile, a door at its passage's tile(s)
        (``props["tiles"]``), an enemy's patrol as the tiles walked (cell, passage, cell, …)."""
        from .content.things import Thing

        self._tiled("tile_things")
        out = []
        for t in self.things:
            props: Dict[str, Any] = {k: v for k, v in t.props.items() if k not in ("edge", "cells", "patrol")}
            x, y = self.cell_tile(t.cell)
            if t.kind == "door":
                a, b = t.props["cells"]
                props["tiles"] = self._between(a, b)
                x, y = props["tiles"][0]
            if t.kind == "enemy":
                cells = list(t.props["patrol"])
                walk = [self.cell_tile(cells[0])]
                for a, b in zip(cells, cells[1:]):
                    walk += self._between(a, b) + [self.cell_tile(b)]
                props["patrol"] = walk
            out.append(Thing(t.kind, x, y, t.id, props))
        return tuple(out)

    def marked(self) -> NDArray[np.int8]:
        """Hex (and wrapping square) levels: an int8 copy of :attr:`tiles` with the markers and things
        written in as on square levels (:meth:`mazeplugin.Level.marked`): ``mp.ENTRANCE`` (2),
        ``mp.EXIT`` (3), ``mp.DOOR`` (4) on a door's passage tile(s), ``mp.KEY`` (5),
        ``mp.TREASURE`` (6), ``mp.ENEMY`` (7) where an enemy starts."""
        self._tiled("marked")
        return marked_tiles(self.tiles, self.tile_things() if self.things else (), self.entrance_tile, self.exit_tile)

    @property
    def stagger_index(self) -> str:
        """Hex levels: which tile rows are shifted half a tile right (Tiled's ``staggerindex``)."""
        self._hex("stagger_index")
        return STAGGER_INDEX

    # -- pictures and files (through mazeplugin.seam)
    def to_svg(self, cell: float = 20, *, show_solution: bool = False) -> str:
        """The level as an SVG picture: cell outlines as walls, ``cell`` pixels a cell (see
        :func:`mazeplugin.formats.svg.to_grid_svg`)."""
        return seam.to_svg(self, cell, show_solution)

    def to_json(self) -> str:
        """The level as JSON text, read back by ``mp.from_json`` (see :mod:`mazeplugin.formats.grid_json`)."""
        return seam.to_json(self)

    def save(self, path: PathLike, *, format: Optional[str] = None, **options: Any) -> None:
        """Write the level to ``path`` in the format its suffix names, as :meth:`mazeplugin.Level.save`:
        ``.json`` (every grid), ``.svg`` and ``.png`` (options ``cell``, default 20, and
        ``show_solution``), ``.tmx``/``.tmj`` (hex levels: a Tiled hexagonal map; option ``tile``,
        default 32) and ``.txt`` (hex and wrapping levels: :func:`str` of the level). A suffix the grid
        cannot hold is refused before anything is written; ``mp.load`` reads ``.json`` and Tiled maps back."""
        seam.save(self, path, format, options)

    # -- deprecated per-format aliases (one release): level.save(path), mp.load(path), mp.from_json(text)
    save_png: Callable[..., None] = seam.saver("GridLevel", "png", cell=20, show_solution=False)
    save_tmx: Callable[..., None] = seam.saver("GridLevel", "tmx", tile=32)
    save_tmj: Callable[..., None] = seam.saver("GridLevel", "tmj", tile=32)
    save_json: Callable[..., None] = seam.saver("GridLevel", "json")
    load_tmx: Callable[..., "GridLevel"] = seam.loader("GridLevel", "load_tmx", "tiled_read", "load_hex", kind="tmx")
    load_tmj: Callable[..., "GridLevel"] = seam.loader("GridLevel", "load_tmj", "tiled_read", "load_hex", kind="tmj")
    load_json: Callable[..., "GridLevel"] = seam.loader("GridLevel", "load_json", "grid_json", "load_json")
    from_json: Callable[..., "GridLevel"] = seam.loader("GridLevel", "from_json", "grid_json", "from_json")

    def __str__(self) -> str:
        """The tilemap as text (``#`` wall; things as on square levels: ``D`` door, ``k`` key, ``$``
        treasure, ``m`` enemy); triangle and polar levels, which have none, give their repr."""
        if not isinstance(self.maze.grid, (HexGrid, SquareGrid)):
            return repr(self)
        floor = "." if isinstance(self.maze.grid, HexGrid) else " "
        rows = [["#" if t else floor for t in line] for line in self.tiles.tolist()]
        marks = {"door": "D", "key": "k", "treasure": "$", "enemy": "m"}
        for thing in self.tile_things():
            for x, y in thing.tiles():
                rows[y][x] = marks.get(thing.kind, rows[y][x])
        if isinstance(self.maze.grid, HexGrid):
            return "\n".join((" " if row % 2 else "") + " ".join(line) for row, line in enumerate(rows))
        return "\n".join("".join(line) for line in rows)

    def __repr__(self) -> str:
        things = ""
        if self.things:
            kinds = sorted(Counter(t.kind for t in self.things).items())
            things = ", things={" + ", ".join(f"{k!r}: {v}" for k, v in kinds) + "}"
        return (f"GridLevel(grid={self.grid!r}, {self.width}x{self.height}, {self.maze.grid.cells} cells, "
                f"algorithm={self.algorithm!r}, seed={self.seed!r}{things})")
