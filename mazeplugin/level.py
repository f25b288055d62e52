# Long module: the one level class of every grid: its model, places, answers, views and files.
"""A generated level on any grid: its maze, entrance and exit, things, and tilemap where the grid has one.

One class for every grid; what differs is the model it holds: a square
:class:`~mazeplugin.maze.Maze` and its :class:`~mazeplugin.tiles.Layout`
(square and weave levels, dungeons), or a :class:`~mazeplugin.grids.GridMaze`
(wrapping square, hex, triangle, polar). Every level answers the same methods
(:class:`~mazeplugin.AnyLevel`); wherever it has tiles (square, weave,
wrapping, hex) its places are tiles ``(x, y)``; triangle and polar levels,
graphs with no tilemap, answer by cell and refuse a tile method with a
``ValueError``. Every level also answers by cell (:attr:`~Level.entrance_cell`,
:meth:`~Level.solution_cells`, :meth:`~Level.cell_of`). What differs by grid
is worked out in :mod:`mazeplugin.level_tiles`.

>>> import mazeplugin as mp
>>> level = mp.generate("kruskal", width=4, height=3, seed=7)
>>> level.tiles.shape, level.tiles.dtype.name
((7, 9), 'uint8')
>>> level.entrance, level.exit
((0, 1), (8, 5))
>>> path = level.solution()
>>> path[0] == level.entrance and path[-1] == level.exit
True
>>> hexes = mp.generate("wilson", 6, 4, grid="hex", seed=3)
>>> type(hexes) is mp.Level, hexes.stats().passages == hexes.stats().cells - 1  # a perfect maze
(True, True)
>>> way = hexes.solution()
>>> way[0] == hexes.entrance and way[-1] == hexes.exit
True
>>> hexes.tiles.shape, hexes.entrance, hexes.distances()[1, :2].tolist(), hexes.distances_cells()[:1].tolist()
((9, 14), (0, 1), [0, 1], [0])
>>> cells = hexes.solution_cells()
>>> cells[0] == hexes.entrance_cell and cells[-1] == hexes.exit_cell
True
"""

from __future__ import annotations

import os
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union, cast

import numpy as np
from numpy.typing import NDArray

from . import seam, text
from . import level_views as views
from .maze import Maze
from .seeds import Seed
from .tiles import FLOOR, Layout, Tile, check_tile

if TYPE_CHECKING:  # pragma: no cover - at run time imported by the methods that use it
    from . import analysis
    from .level_tiles import Line, Places

__all__ = ["Level"]

Place = Union[int, Tile]
PathLike = Union[str, "os.PathLike[str]"]
SIDES = ("north", "east", "south", "west")  # a square cell's sides, numbered as grids.SquareGrid numbers them


def _is_cell(place: Any) -> bool:
    return isinstance(place, (int, np.integer)) and not isinstance(place, bool)


class Level:
    """A maze level, ready for a game, on any grid.

    Attributes:
        maze: a :class:`~mazeplugin.maze.Maze` on a square level, a :class:`~mazeplugin.grids.GridMaze` on the others.
        square: whether the model is a square ``Maze`` (square and weave levels, dungeons).
        algorithm, seed, options: what made it; the same three (and the size) make the same level again, anywhere.
        things: the :class:`~mazeplugin.content.Thing` s on the floor (doors, keys, treasure, enemies, a game's
            own kinds; :class:`~mazeplugin.content.cells.CellThing` s on a grid maze's cells), sorted by id.

    ``Level(maze, ...)`` takes markers in the model's places: for a ``Maze``, ``entrance``/``exit`` tiles and
    ``openings`` (:class:`~mazeplugin.tiles.Opening`); for a ``GridMaze``, cells and ``(cell, side)`` openings,
    ``width`` and ``height`` the size asked for (for polar: innermost ring's cells, rings).
    """

    def __init__(self, maze: Any, *, layout: Optional[Layout] = None, entrance: Optional[Place] = None,
                 exit: Optional[Place] = None, openings: Sequence[Any] = (), algorithm: Optional[str] = None,
                 seed: Optional[Seed] = None, options: Optional[Mapping[str, Any]] = None, things: Sequence[Any] = (),
                 width: Optional[int] = None, height: Optional[int] = None) -> None:
        self.maze: Any = maze
        self.square: bool = isinstance(maze, Maze)
        self.algorithm: Optional[str] = algorithm
        self.seed: Optional[Seed] = seed
        self.options: Dict[str, Any] = dict(options or {})
        self._ends: Tuple[Any, Any] = cast(Tuple[Any, Any], (entrance, exit))  # tiles on a Maze, cells on a GridMaze
        self._bridges: Optional[NDArray[np.uint8]] = None
        self._tiles: Optional[NDArray[np.uint8]] = None  # a grid maze's, made when first read
        self._places: Optional[Places] = None
        if not self.square:
            grid = maze.grid
            self.width: int = width if width is not None else getattr(grid, "width", getattr(grid, "inner", 0))
            self.height: int = height if height is not None else getattr(grid, "height", getattr(grid, "rings", 0))
            self._openings: Tuple[Tuple[int, Optional[int]], ...] = tuple(openings)
            self._layout = Layout(self.width, self.height) if grid.name == "square" else None
            self.things = tuple(things)
            return
        from .level_tiles import square_layers  # (the tiles of a square maze: its base, tiles and bridges)

        self.width, self.height = maze.width, maze.height
        self._layout = layout or Layout(maze.width, maze.height)
        openings = tuple(openings)
        self._openings = tuple((o.cell[1] * maze.width + o.cell[0], None if o.side is None else SIDES.index(o.side))
                               for o in openings)
        self._base, self._tiles, self._bridges = square_layers(maze, self._layout, openings)
        self.things = tuple(things)
        for name, tile in zip(("entrance", "exit"), self._ends):
            if tile is not None and self._tiles[tile[1], tile[0]] != FLOOR:
                raise ValueError(f"{name} {tile} is not a floor tile")

    @property
    def things(self) -> Tuple[Any, ...]:
        """The level's things, sorted by id. Assigning on a square level checks them: ``Thing`` objects with
        distinct ids, each on a tile of the map (``TypeError``/``ValueError`` otherwise)."""
        return self._things

    @things.setter
    def things(self, things: Sequence[Any]) -> None:
        if not self.square or (isinstance(things, (tuple, list)) and not things):
            self._things: Tuple[Any, ...] = tuple(things)
            return
        from .level_tiles import checked_things

        self._things = checked_things(things, self.shape)

    # -- what the level is: asked of the level, never of its class --

    @property
    def grid(self) -> str:
        """The grid's name: ``"square"`` (a wrapping level too), ``"hex"``, ``"triangle"`` or ``"polar"``."""
        return "square" if self.square else str(self.maze.grid.name)

    @property
    def kind(self) -> str:
        """The level's kind as files, codes and datasets name it: ``"square"`` (weave included), ``"wrap"`` (a
        square level that wraps), ``"hex"``, ``"triangle"`` or ``"polar"``."""
        return "square" if self.square else ("wrap" if self.grid == "square" else self.grid)

    @property
    def tiled(self) -> bool:
        """Whether the level has :attr:`tiles`: every level but triangle and polar ones."""
        return self.grid in ("square", "hex")

    @property
    def weave(self) -> bool:
        """Whether the level has bridges (a weave level with at least one crossing)."""
        return self._bridges is not None

    @property
    def cells(self) -> int:
        """How many cells, numbered ``0 … cells-1`` (row-major on square grids: cell ``(x, y)`` is ``y * width + x``)."""
        return self.width * self.height if self.square else int(self.maze.grid.cells)

    @property
    def openings(self) -> Tuple[Tuple[int, Optional[int]], ...]:
        """``(cell, side)`` of the entrance and exit: the side of the cell (an index into ``maze.grid.sides(cell)``;
        on square grids 0 north, 1 east, 2 south, 3 west) opened through the grid's edge, or None inside a cell."""
        return self._openings

    @property
    def mission(self) -> Any:
        """A dungeon level's mission on its tiles (a :class:`~mazeplugin.dungeon.laid.LaidMission`: the
        :class:`~mazeplugin.dungeon.Mission` as ``.graph``, each room with its tiles, each edge with its
        corridor's tiles, door and kind), made afresh from ``options`` on each read; None on every other level.

        >>> import mazeplugin as mp
        >>> mp.generate("kruskal", 4, 3, seed=7).mission is None
        True
        """
        return seam.mission_of(self)

    # -- the tilemap --

    def _no_tiles(self, what: str) -> ValueError:
        return ValueError(f"{what} is for levels with a tilemap (square, weave, wrapping, hex); a {self.grid} level "
                          "is a graph of cells with no rectangular tilemap: use level.maze (cells and passages), "
                          "places by cell number, or level.to_svg()")

    def _grid_places(self, what: str) -> "Places":
        """Where a wrapping or hex level's cells and passages lie on its tiles, worked out once."""
        if not self.tiled:
            raise self._no_tiles(what)
        if self._places is None:
            from .level_tiles import Places

            self._places = Places(self.maze, self._openings)
        return self._places

    @cached_property
    def tiles(self) -> NDArray[np.uint8]:
        """The uint8 1 = wall (``mp.WALL``) / 0 = floor tilemap, ``[y, x]``, read-only (copy it to edit): a hex
        level's is the doubled hex lattice (:mod:`mazeplugin.grids.hextiles`), a wrapping level's has each wrap
        passage open on both edges (:mod:`mazeplugin.grids.square`). ``ValueError`` on triangle and polar levels."""
        if self._tiles is None:
            if not self.tiled:
                raise self._no_tiles("tiles")
            from .level_tiles import grid_tiles

            self._tiles = grid_tiles(self.maze, self._openings, markers=self._ends[0] is not None)
        return self._tiles

    @property
    def layout(self) -> Layout:
        """A square tilemap's :class:`~mazeplugin.tiles.Layout` (corridor and wall widths; 1 and 1 on a wrapping
        level); ``ValueError`` on hex, triangle and polar levels."""
        if self._layout is None:
            raise ValueError(f"layout is for square tilemaps (square, weave, wrapping levels), not a {self.grid} level")
        return self._layout

    @property
    def base_tiles(self) -> NDArray[np.uint8]:
        """The width-1 tilemap (corridor = wall = 1) the tiles are stretched from, openings included: read-only,
        ``(2*height + 1, 2*width + 1)`` on a square level (``layout.base_of(tile)`` maps a tile to it); ``tiles``
        itself when ``layout.is_unit`` and on the other grids.

        >>> import mazeplugin as mp
        >>> level = mp.generate("kruskal", 4, 3, seed=7, corridor=2)
        >>> level.base_tiles.shape, level.tiles.shape
        ((7, 9), (10, 13))
        """
        return self._base if self.square else self.tiles

    @property
    def shape(self) -> Tuple[int, int]:
        """``tiles.shape``: ``(rows, columns)`` of tiles."""
        rows, columns = self.tiles.shape
        return (rows, columns)

    @property
    def bridges(self) -> NDArray[np.uint8]:
        """The crossings, a second tile layer shaped like ``tiles`` (read-only uint8): 0 on ordinary tiles; on each
        bridge tile, which way the tunnel under it runs: ``mp.UNDER_EAST_WEST`` (1; the bridge runs north–south)
        or ``mp.UNDER_NORTH_SOUTH`` (2). The tiles on both sides of a bridge along its tunnel are floor. All zero
        (a new array each time) on a level without weave.

        >>> import mazeplugin as mp
        >>> level = mp.generate("backtracker", 10, 8, seed=2, weave=True)
        >>> ys, xs = (level.bridges == mp.UNDER_EAST_WEST).nonzero()
        >>> x, y = int(xs[0]), int(ys[0])
        >>> level.tiles[y, x - 1 : x + 2].tolist(), level.tiles[y - 1 : y + 2, x].tolist()
        ([0, 0, 0], [0, 0, 0])
        """
        return np.zeros(self.tiles.shape, dtype=np.uint8) if self._bridges is None else self._bridges

    # -- places: tiles where the level has them, else cells --

    @cached_property
    def entrance(self) -> Any:
        """Where the level is entered: its ``(x, y)`` tile (:attr:`entrance_tile`), the cell on triangle and polar
        levels; None without markers."""
        return self._ends[0] if self.square or not self.tiled else self.entrance_tile

    @cached_property
    def exit(self) -> Any:
        """Where the level is left, as :attr:`entrance` (:attr:`exit_tile` or the cell)."""
        return self._ends[1] if self.square or not self.tiled else self.exit_tile

    @property
    def entrance_tile(self) -> Optional[Tile]:
        """The entrance's ``(x, y)`` tile (on a torus the cell's own), or None without markers."""
        tile: Optional[Tile] = self._ends[0] if self.square else self._grid_places("entrance_tile").marker_tile(0)
        return tile

    @property
    def exit_tile(self) -> Optional[Tile]:
        """The exit's ``(x, y)`` tile, or None without markers."""
        tile: Optional[Tile] = self._ends[1] if self.square else self._grid_places("exit_tile").marker_tile(1)
        return tile

    @property
    def entrance_cell(self) -> Optional[int]:
        """The cell of the entrance (:meth:`cell_of`), or None without markers."""
        end = self._ends[0]
        return end if end is None or not self.square else self.cell_of(end)

    @property
    def exit_cell(self) -> Optional[int]:
        """The cell of the exit (:meth:`cell_of`), or None without markers."""
        end = self._ends[1]
        return end if end is None or not self.square else self.cell_of(end)

    def cell_of(self, place: Place) -> int:
        """The number of the cell tile ``(x, y)`` is on (or beside: a wall tile, a marker's opening; a hex passage's
        tile gives its lower numbered cell); a cell number comes back checked.

        >>> import mazeplugin as mp
        >>> level = mp.generate("kruskal", 4, 3, seed=7)
        >>> level.cell_of(level.entrance), level.cell_of(level.exit), level.cell_of(5)
        (0, 11, 5)
        >>> mp.generate("wilson", 6, 4, seed=3, wrap="xy").cell_of((3, 3))
        7
        """
        if _is_cell(place):
            if not 0 <= place < self.cells:  # type: ignore[operator]
                raise ValueError(f"cell must be a cell number from 0 to {self.cells - 1}, got {place}")
            return int(place)  # type: ignore[arg-type]
        if not self.square:
            places = self._grid_places("cell_of(tile)")
            return places.cell_at(check_tile("tile", place, self.tiles.shape), self.shape)
        x, y = self.layout.cell_of(check_tile("tile", place, self.tiles.shape))
        return y * self.width + x

    def cell_tile(self, cell: int) -> Tile:
        """The ``(x, y)`` tile of ``cell`` (its middle tile on a square level with wide corridors)."""
        cell = self.cell_of(cell)
        if self.square:
            return self.layout.cell_tile((cell % self.width, cell // self.width))
        return self._grid_places("cell_tile").cell_tile(cell)

    def tile_things(self) -> Tuple[Any, ...]:
        """:attr:`things` on the tilemap, as :class:`~mazeplugin.content.Thing` s: a square level's own; a grid
        maze's each at its cell's tile, a door at its passage's tile(s) (``props["tiles"]``), an enemy's patrol
        as the tiles walked (cell, passage, cell, …)."""
        if self.square:
            return self.things
        places = self._grid_places("tile_things")
        return tuple(places.thing_on_tiles(t) for t in self.things)

    # -- walking the tiles --

    def is_floor(self, tile: Tile) -> bool:
        """Whether ``(x, y)`` is inside the map and a floor tile."""
        x, y = tile
        h, w = self.tiles.shape
        return 0 <= x < w and 0 <= y < h and bool(self.tiles[y, x] == FLOOR)

    def step(self, tile: Tile, direction: Tuple[int, int], under: bool = False) -> Tuple[Tile, bool]:
        """One step of a player at floor ``tile`` (in the tunnel if ``under``): ``(tile, under)`` after it.

        ``direction`` is ``(dx, dy)``: on square tiles ``(0, -1)`` north, ``(1, 0)`` east, ``(0, 1)`` south or
        ``(-1, 0)`` west; on hex tiles ``dx`` is ``1`` (right) or ``-1`` (left), ``dy`` ``-1`` (up), ``0`` or ``1``
        (down). A wall stops the player (the same tile comes back); a wrap passage leads off one edge onto the
        other; on a bridge tile the player goes only straight on, and stepping onto one along its tunnel's axis
        goes under (``under`` is always False without weave; see :func:`mazeplugin.bridges.step`).

        >>> import mazeplugin as mp
        >>> level = mp.generate("kruskal", 4, 3, seed=7)
        >>> level.step(level.entrance, (1, 0)), level.step(level.entrance, (0, -1))
        (((1, 1), False), ((0, 1), False))
        """
        from .level_tiles import tile_step

        return tile_step(self, tile, direction, under)

    def can_step(self, a: Tile, b: Tile) -> bool:
        """Whether a player on tile ``a`` may step to ``b``: ``b`` a floor tile one :meth:`step` away, and the step
        the way of any one-way drop on ``a`` or ``b`` (a ``"drop"`` thing, walked only towards its
        ``props["direction"]``; :mod:`mazeplugin.content.drops`, whose rule the solver and the proof share). Locked
        doors are not asked: they open with keys.

        >>> import mazeplugin as mp
        >>> from mazeplugin.content.drops import DIRECTIONS
        >>> level = mp.generate("dungeon", 30, 30, seed=7, rooms=10, locks=1, pattern="valve", drops=True)
        >>> drop = next(t for t in level.things if t.kind == "drop")
        >>> dx, dy = DIRECTIONS[drop.props["direction"]]
        >>> behind, ahead = (drop.x - dx, drop.y - dy), (drop.x + dx, drop.y + dy)
        >>> level.can_step(behind, drop.tile), level.can_step(drop.tile, ahead), level.can_step(drop.tile, behind)
        (True, True, False)
        """
        if self.square:
            from .content.drops import can_step, drops_of  # (lazily: the content package's facade imports Level)

            return can_step(self.tiles, drops_of(self.things), a, b)
        from .level_tiles import steps_of

        b = (int(b[0]), int(b[1]))
        return self.is_floor(a) and b != tuple(a) and any(self.step(a, d)[0] == b for d in steps_of(self))

    # -- the way through --

    def solution(self) -> List[Any]:
        """The shortest way from entrance to exit, both ends included: ``(x, y)`` tiles wherever the level has
        tiles, each one :meth:`step` from the one before (:meth:`solution_tiles`), cells on triangle and polar
        levels (:meth:`solution_cells`). With locked doors, the shortest walk that picks up each key before its
        door (a place may come twice; :func:`mazeplugin.content.solve`); on a weave, straight over or under each
        bridge tile (:mod:`mazeplugin.bridges`); one-way drops walked their way only. ``ValueError`` without markers.
        """
        if not self.square:
            return self.solution_tiles() if self.tiled else self.solution_cells()
        from .level_tiles import square_solution

        return square_solution(self, self._bridges)

    def solution_tiles(self) -> List[Tile]:
        """The solution as ``(x, y)`` tiles, each a step from the one before; ``ValueError`` without tiles."""
        if self.square:
            return self.solution()
        places = self._grid_places("solution_tiles")
        cells = self.solution_cells()
        start, end = self.entrance_tile, self.exit_tile
        way = ([] if start is None or start == places.cell_tile(cells[0]) else [start]) + places.walk(cells)
        return way + ([end] if end is not None and end != way[-1] else [])

    def solution_cells(self) -> List[int]:
        """The cells of the shortest way from the entrance to the exit, both included, each once per visit (with
        locked doors, a detour to a key comes back through the same cells)."""
        if self.square:
            cells = [self.cell_of(tile) for tile in self.solution()]
            return [c for i, c in enumerate(cells) if i == 0 or cells[i - 1] != c]
        from .level_tiles import grid_solution

        return grid_solution(self)

    def check(self) -> None:
        """Prove the level's things; ``ValueError`` (a ``ContentError``) says what fails: every thing on the floor
        and off the markers; each key reachable with only the earlier doors open; each door needed; the exit
        reachable with all of them open; every enemy patrolling floor through no door, and keys, exit, treasure
        and Place things still reached with every patrol place walled (:func:`mazeplugin.content.check`,
        :mod:`mazeplugin.content.proof`).

        >>> import mazeplugin as mp
        >>> mp.generate("wilson", 20, 12, seed=5, braid=0.5, keys=2, treasure=4).check()
        """
        if self.square:
            from .content.proof import check

            check(self.tiles, self._ends[0], self._ends[1], self.things, self._bridges)
            return
        from .content.proof import check_cells
        from .content.cells import CellGraph

        check_cells(CellGraph.of(self.maze), self._ends[0], self._ends[1], self.things)

    def distances(self, source: Optional[Place] = None) -> NDArray[np.int32]:
        """Steps from ``source`` (a floor tile ``(x, y)``, a cell number: its middle tile, or None: the entrance)
        to every tile: int32 shaped like ``tiles`` wherever the level has them, -1 on walls and where unreachable
        (on a weave straight over and under bridges: :func:`mazeplugin.bridges.distance_maps`); on triangle and
        polar levels, which have no tiles, :meth:`distances_cells`."""
        from .level_tiles import distances

        return distances(self, source, by_cell=False)

    def distances_cells(self, source: Optional[Place] = None) -> NDArray[np.int32]:
        """Passages walked from ``source`` (a cell number, a floor tile: its cell, or None: the entrance's cell) to
        each cell, on every level: int32, one per cell, -1 where unreachable (a weave's tunnel counts two)."""
        from .level_tiles import distances

        return distances(self, source, by_cell=True)

    # -- analysis (see mazeplugin.analysis) --

    def dead_ends(self) -> List[Any]:
        """The cells with exactly one open passage (an opening in the outer wall is none; a room's cells never are):
        ``(x, y)`` **cells** row-major on a square level (``level.layout.cell_tile(cell)`` is a cell's middle tile),
        elsewhere :meth:`dead_end_cells`.

        >>> level = __import__("mazeplugin").generate("backtracker", 10, 10, seed=1)
        >>> len(level.dead_ends()) == level.stats().dead_ends, level.dead_end_cells()[:3], level.dead_ends()[:3]
        (True, [0, 1, 4], [(0, 0), (1, 0), (4, 0)])
        """
        from . import analysis  # (on first use: a level that is only played never needs it)

        return list(analysis.dead_ends(self.maze)) if self.square else self.dead_end_cells()

    def dead_end_cells(self) -> List[int]:
        """The numbers of the cells with exactly one open passage, ascending, on every level (:meth:`dead_ends`)."""
        from . import analysis

        return analysis.dead_end_cells(self.maze).tolist()  # type: ignore[no-any-return]

    def stats(self) -> analysis.Stats:
        """Dead ends, their fraction, junctions, loops, longest path and solution length (:class:`mazeplugin.analysis.Stats`):
        passages walked on square levels, cells on the way on the other grids (:func:`~mazeplugin.analysis.grid_stats`);
        ``detour_ratio`` and ``turns`` None on grids that are not square.

        >>> import mazeplugin as mp
        >>> s = mp.generate("kruskal", 20, 20, seed=3).stats()
        >>> s.cells, s.loops, 0.2 < s.dead_end_fraction < 0.4
        (400, 0, True)
        """
        from . import analysis

        if not self.square:
            return analysis.grid_stats(self.maze, self.entrance_cell, self.exit_cell)
        start, goal = self._ends
        if start is None or goal is None:
            return analysis.stats(self.maze, None, None)
        return analysis.stats(self.maze, self.layout.cell_of(start), self.layout.cell_of(goal))

    @property
    def stagger_index(self) -> str:
        """Hex levels: which tile rows are shifted half a tile right (Tiled's ``staggerindex``)."""
        if self.grid != "hex":
            raise ValueError(f"stagger_index is for hex levels; this is a {self.kind} level")
        from .grids.hextiles import STAGGER_INDEX

        return STAGGER_INDEX

    # -- views and files (the formats through the one seam, mazeplugin.seam) --

    def walls(self) -> List["Line"]:
        """Every wall as a polyline in the grid's drawing units (a square cell 1 × 1, y down), for pictures and
        games: each side of each cell once, by the lower numbered of the two cells it parts, unless their passage
        is open (a weave's tunnel too); sides on the grid's rim, except the entrance's and exit's openings.

        >>> import mazeplugin as mp
        >>> level = mp.generate("kruskal", 4, 3, seed=7)  # a perfect maze: 11 of its 17 inner sides open
        >>> len(level.walls()), level.walls()[0]  # 6 inner walls, the rim's 14 sides but the 2 openings
        (18, [(0.0, 0.0), (1.0, 0.0)])
        """
        from .level_tiles import graph_walls, square_walls

        return square_walls(self.base_tiles) if self.square else graph_walls(self.maze, self.openings)

    def marked(self) -> NDArray[np.int8]:
        """An int8 copy of the tiles with ``mp.ENTRANCE`` (2) and ``mp.EXIT`` (3) written in, and under them the
        things: ``mp.DOOR`` (4) on every tile a door blocks, ``mp.KEY`` (5), ``mp.TREASURE`` (6), ``mp.ENEMY`` (7)
        where an enemy starts; a game's own kinds are not written."""
        if not self.tiled:
            raise self._no_tiles("marked")
        return text.marked_tiles(self.tiles, self.tile_things(), self.entrance_tile, self.exit_tile)

    def to_text(self, style: str = "ascii") -> str:
        """The tilemap as text, a character a tile: ``"ascii"``, ``"blocks"``, ``"box"`` or ``"digits"``
        (:mod:`mazeplugin.text`; a weave's bridges show as ``|`` running north–south and ``-`` in ``"ascii"``).
        ``str(level)`` of a hex or wrapping level is its own picture (a hex level's rows staggered)."""
        if not self.tiled:
            raise self._no_tiles("to_text")
        picture = self.marked()
        if self.weave:
            bare, crossings = picture == FLOOR, self.bridges
            picture[bare & (crossings == 1)] = text.BRIDGE_NORTH_SOUTH
            picture[bare & (crossings == 2)] = text.BRIDGE_EAST_WEST
        return text.render(picture, style)

    def to_svg(self, cell: Optional[float] = None, *, show_solution: bool = False) -> str:
        """The level as an SVG picture (:mod:`mazeplugin.formats.svg`): ``cell`` pixels a tile on a square level
        (default 10), a cell on the others (default 20; cell outlines as walls)."""
        return seam.to_svg(self, (10 if self.square else 20) if cell is None else cell, show_solution)

    def to_json(self) -> str:
        """The level as JSON text that ``mp.from_json`` loads back (:mod:`mazeplugin.formats.jsonio`)."""
        return seam.to_json(self)

    def save(self, path: "PathLike", *, format: Optional[str] = None, **options: Any) -> None:
        """Write the level to ``path`` in the format its suffix names (or ``format``: ``"json"``, ``"tmx"``, ...):
        ``.json``; ``.tmx``/``.tmj`` (square and hex levels: Tiled maps and their tileset image; ``tile``, default
        16 square, 32 hex); ``.npy`` (square); ``.svg`` (``cell``, ``show_solution``); ``.png`` (needs pygame;
        ``tile``, default 8, on a square level, ``cell``, default 20, on the others; ``show_solution``); ``.txt``
        (levels with tiles; ``style`` on a square level, :meth:`to_text`). A suffix the grid cannot hold is refused
        before anything is written; ``mp.load`` reads ``.json``, Tiled maps and ``.npy`` back. Written safely
        (:mod:`mazeplugin.formats.files`); see :mod:`mazeplugin.formats.level_files`.

        >>> import os, tempfile, mazeplugin as mp
        >>> path = os.path.join(tempfile.mkdtemp(), "level.json")
        >>> level = mp.generate("kruskal", 4, 3, seed=7)
        >>> level.save(path)
        >>> mp.load(path).tiles.tobytes() == level.tiles.tobytes()
        True
        """
        seam.save(self, path, format, options)

    def __str__(self) -> str:
        """``str(level)``: a square level's :meth:`to_text`; a hex or wrapping level's :func:`picture`; a line saying
        what a triangle or polar level is, which has no tiles (the words 0.3 printed, kept byte for byte)."""
        if self.square or self.tiled:
            return self.to_text("ascii") if self.square else views.picture(self)
        return views.describe(self, "GridLevel")

    def __repr__(self) -> str:
        """``repr(level)``: what made it and its size (its tiles and markers, or its things' kinds on a grid maze)."""
        return views.describe(self, "Level")

    # -- deprecated per-format aliases (one release): level.save(path) --
    save_png: Callable[..., None] = seam.saver("Level", "png")
    save_tmx: Callable[..., None] = seam.saver("Level", "tmx")
    save_tmj: Callable[..., None] = seam.saver("Level", "tmj")
    save_json: Callable[..., None] = seam.saver("Level", "json")
    save_npy: Callable[..., None] = seam.saver("Level", "npy")
    # -- deprecated per-format aliases (one release): mp.load(path), mp.from_json(text) --
    load_tmx: Callable[..., "Level"] = seam.loader("Level", "load_tmx", "tiled_read", "load_tmx")
    load_tmj: Callable[..., "Level"] = seam.loader("Level", "load_tmj", "tiled_read", "load_tmj")
    load_json: Callable[..., "Level"] = seam.loader("Level", "load_json", "jsonio", "load_json")
    load_npy: Callable[..., "Level"] = seam.loader("Level", "load_npy", "jsonio", "load_npy")
    from_json: Callable[..., "Level"] = seam.loader("Level", "from_json", "jsonio", "from_json")
