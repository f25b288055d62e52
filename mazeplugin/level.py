"""A generated level: the maze, its tilemap and its entrance and exit.

>>> import mazeplugin as mp
>>> level = mp.generate("kruskal", width=4, height=3, seed=7)
>>> level.tiles.shape, level.tiles.dtype.name
((7, 9), 'uint8')
>>> level.entrance, level.exit
((0, 1), (8, 5))
>>> path = level.solution()
>>> path[0] == level.entrance and path[-1] == level.exit
True
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import NDArray

from . import bridges, paths, seam, text
from .maze import Cell, Maze
from .seeds import Seed
from .tiles import ENTRANCE, EXIT, FLOOR, Layout, Opening, Tile, base_bridges, base_tiles, check_tile, open_markers

if TYPE_CHECKING:  # pragma: no cover - at run time imported by the methods that use it
    from . import analysis

__all__ = ["Level"]

PathLike = Union[str, "os.PathLike[str]"]


class Level:
    """A maze level, ready for a game.

    Attributes:
        tiles: uint8 ``(rows, columns)`` tilemap indexed ``[y, x]``;
            ``mp.WALL`` (1) and ``mp.FLOOR`` (0). Read-only: copy it to edit.
        entrance, exit: ``(x, y)`` floor tiles, or None without markers.
        maze: the :class:`~mazeplugin.maze.Maze` (cells and open passages)
            the tiles were made from.
        layout: the :class:`~mazeplugin.tiles.Layout` (corridor and wall widths).
        algorithm, seed, options: what made it; the same three (and the
            size) make the same level again, anywhere.
        things: the :class:`~mazeplugin.content.Thing` s standing on the
            floor (doors, keys, treasure, enemies, a game's own kinds), sorted
            by id; empty unless content was asked for (see :mod:`mazeplugin.content`).
        bridges: the second layer of a weave level (see :attr:`bridges`).
    """

    def __init__(
        self,
        maze: Maze,
        *,
        layout: Optional[Layout] = None,
        entrance: Optional[Tile] = None,
        exit: Optional[Tile] = None,
        openings: Sequence[Opening] = (),
        algorithm: Optional[str] = None,
        seed: Optional[Seed] = None,
        options: Optional[Mapping[str, Any]] = None,
        things: Sequence[Any] = (),
    ) -> None:
        self.maze: Maze = maze
        self.layout: Layout = layout or Layout(maze.width, maze.height)
        self.algorithm: Optional[str] = algorithm
        self.seed: Optional[Seed] = seed
        self.options: Dict[str, Any] = dict(options or {})
        base = open_markers(base_tiles(maze), openings)
        base.flags.writeable = False
        self._base = base
        tiles = self.layout.expand(base)
        tiles.flags.writeable = False
        self.tiles: NDArray[np.uint8] = tiles
        self._bridges: Optional[NDArray[np.uint8]] = None
        if maze.under is not None and maze.under.any():
            if not self.layout.is_unit:
                raise ValueError("a maze with bridges (maze.under) makes a level with corridor=1 and wall=1 only, "
                                 f"not corridor={self.layout.corridor}, wall={self.layout.wall}")
            crossings = self.layout.expand(base_bridges(maze))
            crossings.flags.writeable = False
            self._bridges = crossings
        self.things = tuple(things)
        self.entrance: Optional[Tile] = entrance
        self.exit: Optional[Tile] = exit
        for name, tile in (("entrance", entrance), ("exit", exit)):
            if tile is not None and tiles[tile[1], tile[0]] != FLOOR:
                raise ValueError(f"{name} {tile} is not a floor tile")

    @property
    def things(self) -> Tuple[Any, ...]:
        """The level's :class:`~mazeplugin.content.Thing` s, sorted by id (see the class docstring).

        Assigning checks what is given: ``Thing`` objects with distinct ids,
        each on a tile of the map (``TypeError``/``ValueError`` otherwise), so a
        level never holds something its proofs and files cannot read.
        """
        return self._things

    @things.setter
    def things(self, things: Sequence[Any]) -> None:
        if isinstance(things, (tuple, list)) and not things:
            self._things: Tuple[Any, ...] = ()
            return
        from .content.things import Thing  # (lazily: the content package's facade imports Level)

        if isinstance(things, (str, bytes)) or not isinstance(things, (tuple, list, Sequence)):
            raise TypeError(f"things must be a sequence of mazeplugin.Thing, not {type(things).__name__}")
        rows, columns = self.tiles.shape
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
        self._things = tuple(sorted(things, key=lambda t: t.id))

    # -- size ----------------------------------------------------------------

    @property
    def width(self) -> int:
        """Width in cells."""
        return self.maze.width

    @property
    def height(self) -> int:
        """Height in cells."""
        return self.maze.height

    @property
    def base_tiles(self) -> NDArray[np.uint8]:
        """The width-1 tilemap (corridor = wall = 1) the tiles are stretched from, openings included.

        Read-only, ``(2*height + 1, 2*width + 1)``; the same array as ``tiles``
        when ``layout.is_unit``. ``layout.base_of(tile)`` maps a tile to it.

        >>> import mazeplugin as mp
        >>> level = mp.generate("kruskal", 4, 3, seed=7, corridor=2)
        >>> level.base_tiles.shape, level.tiles.shape
        ((7, 9), (10, 13))
        """
        return self._base

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

    @property
    def grid(self) -> str:
        """``"square"``: the grid's name, as on every level (:class:`~mazeplugin.AnyLevel`)."""
        return "square"

    @property
    def cells(self) -> int:
        """How many cells: ``width * height``, numbered row-major (cell ``(x, y)`` is ``y * width + x``)."""
        return self.maze.width * self.maze.height

    @property
    def kind(self) -> str:
        """``"square"`` (weave included): the level's kind as files, codes and datasets name it
        (:class:`~mazeplugin.AnyLevel`; a wrapping square level is ``"wrap"``)."""
        return "square"

    @property
    def tiled(self) -> bool:
        """True: a square level is a tilemap (:attr:`tiles`), as every level but triangle and polar ones."""
        return True

    @property
    def entrance_cell(self) -> Optional[int]:
        """The cell of the entrance (:meth:`cell_of`), or None without markers."""
        return None if self.entrance is None else self.cell_of(self.entrance)

    @property
    def exit_cell(self) -> Optional[int]:
        """The cell of the exit (:meth:`cell_of`), or None without markers."""
        return None if self.exit is None else self.cell_of(self.exit)

    def tile_things(self) -> Tuple[Any, ...]:
        """:attr:`things`: on a square level they stand on tiles already (as every tiled level's
        ``tile_things()`` gives them; :class:`~mazeplugin.AnyLevel`)."""
        return self.things

    def cell_of(self, place: Union[int, Tile]) -> int:
        """The number of the cell tile ``(x, y)`` is on (or beside: a wall tile, a marker's opening);
        a cell number comes back checked. See :class:`~mazeplugin.AnyLevel`.

        >>> import mazeplugin as mp
        >>> level = mp.generate("kruskal", 4, 3, seed=7)
        >>> level.cell_of(level.entrance), level.cell_of(level.exit), level.cell_of(5)
        (0, 11, 5)
        """
        if isinstance(place, (int, np.integer)) and not isinstance(place, bool):
            if not 0 <= place < self.cells:
                raise ValueError(f"cell must be a cell number from 0 to {self.cells - 1}, got {place}")
            return int(place)
        x, y = self.layout.cell_of(check_tile("tile", place, self.tiles.shape))
        return y * self.maze.width + x

    def solution_cells(self) -> List[int]:
        """The cells :meth:`solution` walks through, in order, each once per visit (a detour to a key
        comes back through the same cells)."""
        cells: List[int] = []
        for tile in self.solution():
            cell = self.cell_of(tile)
            if not cells or cells[-1] != cell:
                cells.append(cell)
        return cells

    @property
    def shape(self) -> Tuple[int, int]:
        """``tiles.shape``: ``(rows, columns)`` of tiles."""
        rows, columns = self.tiles.shape
        return (rows, columns)

    # -- weave: bridges over tunnels (see mazeplugin.weave) -------------------

    @property
    def weave(self) -> bool:
        """Whether the level has bridges (a weave level with at least one crossing)."""
        return self._bridges is not None

    @property
    def bridges(self) -> NDArray[np.uint8]:
        """The crossings, a second tile layer shaped like ``tiles`` (read-only uint8).

        0 on ordinary tiles; on each bridge tile, which way the tunnel under
        it runs: ``mp.UNDER_EAST_WEST`` (1; the bridge itself runs
        north–south) or ``mp.UNDER_NORTH_SOUTH`` (2; the bridge runs
        east–west). The tiles on both sides of a bridge along its tunnel are
        floor in ``tiles``. All zero (a new array each time) on a level
        without weave.

        >>> import mazeplugin as mp
        >>> level = mp.generate("backtracker", 10, 8, seed=2, weave=True)
        >>> ys, xs = (level.bridges == mp.UNDER_EAST_WEST).nonzero()
        >>> x, y = int(xs[0]), int(ys[0])
        >>> level.tiles[y, x - 1 : x + 2].tolist(), level.tiles[y - 1 : y + 2, x].tolist()
        ([0, 0, 0], [0, 0, 0])
        """
        if self._bridges is None:
            return np.zeros(self.tiles.shape, dtype=np.uint8)
        return self._bridges

    def step(self, tile: Tile, direction: Tuple[int, int], under: bool = False) -> Tuple[Tile, bool]:
        """One step of a player at floor ``tile`` (in the tunnel if ``under``): ``(tile, under)`` after it.

        ``direction`` is ``(dx, dy)``, one of ``(0, -1)`` north, ``(1, 0)``
        east, ``(0, 1)`` south, ``(-1, 0)`` west. A wall stops the player (the
        same tile comes back); on a bridge tile the player goes only straight
        on, along the bridge or along the tunnel; stepping onto a bridge tile
        along its tunnel's axis goes under. On a level without weave it is a
        plain 4-way step and ``under`` is always False. See
        :func:`mazeplugin.bridges.step`.

        >>> import mazeplugin as mp
        >>> level = mp.generate("kruskal", 4, 3, seed=7)
        >>> level.step(level.entrance, (1, 0)), level.step(level.entrance, (0, -1))
        (((1, 1), False), ((0, 1), False))
        """
        return bridges.step(self.tiles, self.bridges, tile, direction, under)

    # -- walking -------------------------------------------------------------

    def is_floor(self, tile: Tile) -> bool:
        """Whether ``(x, y)`` is inside the map and a floor tile."""
        x, y = tile
        h, w = self.tiles.shape
        return 0 <= x < w and 0 <= y < h and bool(self.tiles[y, x] == FLOOR)

    def can_step(self, a: Tile, b: Tile) -> bool:
        """Whether a player on tile ``a`` may step to ``b``: ``b`` a 4-adjacent floor tile, and the step the way of
        any one-way drop on ``a`` or ``b`` (a ``"drop"`` thing, walked only towards its ``props["direction"]``; see
        :mod:`mazeplugin.content.drops`). Locked doors are not asked: they open with keys. The demo's player steps
        by it, and the solver and the proof ask its rule (``content.drops.passes``) of every passage at once.

        >>> import mazeplugin as mp
        >>> from mazeplugin.content.drops import DIRECTIONS
        >>> level = mp.generate("dungeon", 30, 30, seed=7, rooms=10, locks=1, pattern="valve", drops=True)
        >>> drop = next(t for t in level.things if t.kind == "drop")
        >>> dx, dy = DIRECTIONS[drop.props["direction"]]
        >>> behind, ahead = (drop.x - dx, drop.y - dy), (drop.x + dx, drop.y + dy)
        >>> level.can_step(behind, drop.tile), level.can_step(drop.tile, ahead), level.can_step(drop.tile, behind)
        (True, True, False)
        """
        from .content.drops import can_step, drops_of  # (lazily: the content package's facade imports Level)

        return can_step(self.tiles, drops_of(self.things), a, b)

    def solution(self) -> List[Tile]:
        """The shortest path from entrance to exit: ``(x, y)`` tiles, both ends included.

        Each step moves to a 4-adjacent floor tile. On a level with locked
        doors it is the shortest walk that picks up each key before passing
        its door (detours to keys included, so a tile may appear twice); see
        :func:`mazeplugin.content.solve`. On a weave level the walk goes
        straight over or under each bridge tile it crosses (never turning
        there); see :mod:`mazeplugin.bridges`. On a level with one-way drops
        each is walked its way only (:meth:`can_step`). Raises ``ValueError``
        when the level has no markers.
        """
        if self.entrance is None or self.exit is None:
            if "world" in self.options:  # a window of an endless World: it has no markers at all
                raise ValueError(
                    "this level is a window of a World, which has no entrance or exit, so it has no "
                    "solution; for a way between two floor tiles use level.distances(tile) or "
                    "mazeplugin.paths.shortest_path(level.tiles, start, goal)"
                )
            raise ValueError(
                "this level has no entrance and exit (markers='none'); "
                "generate it with markers='border', 'farthest', 'random' or two tiles"
            )
        if any(t.kind in ("door", "drop") for t in self.things):  # (on a weave: over and under the bridges too)
            from .content.proof import solve  # (lazily: the content package's facade imports Level)

            path = solve(self.tiles, self.entrance, self.exit, self.things, self._bridges)
        elif self._bridges is not None:  # a weave: straight over and under the bridges
            path = bridges.shortest_path(self.tiles, self._bridges, self.entrance, self.exit)
        else:
            path = paths.shortest_path(self.tiles, self.entrance, self.exit)
        if path is None:  # pragma: no cover - generate() always joins the markers
            raise ValueError("the exit cannot be reached from the entrance")
        return path

    def check(self) -> None:
        """Prove the level's things; ``ValueError`` (a ``ContentError``) says what fails.

        Every thing on a floor tile and off the markers; each key reachable
        with only the earlier doors open; each door needed (with it and the
        later ones shut the exit cannot be reached); the exit reachable with
        all of them open; every enemy patrolling 4-adjacent floor tiles
        through no door, and keys, exit, treasure and Place things still
        reached with every patrol tile walled. See :func:`mazeplugin.content.check`.

        >>> import mazeplugin as mp
        >>> mp.generate("wilson", 20, 12, seed=5, braid=0.5, keys=2, treasure=4).check()
        """
        from .content.proof import check

        check(self.tiles, self.entrance, self.exit, self.things, self._bridges)

    def distances(self, source: Optional[Union[int, Tile]] = None) -> NDArray[np.int32]:
        """Steps from floor tile ``source`` to every tile; -1 on walls and unreachable tiles.

        ``source`` is an ``(x, y)`` floor tile, a cell number (its middle tile) or None (the entrance).

        int32, shaped like ``tiles``. On a weave level the walk goes straight
        over and under bridges; a bridge tile gets the fewer steps of the two
        (on the bridge or in its tunnel; :func:`mazeplugin.bridges.distance_maps`
        gives both), and a source on a bridge tile starts on the bridge.
        """
        if source is None:
            if self.entrance is None:
                raise ValueError("this level has no entrance (markers='none'); give source=, a floor tile (x, y)")
            source = self.entrance
        elif isinstance(source, (int, np.integer)) and not isinstance(source, bool):
            if not 0 <= source < self.cells:
                raise ValueError(f"source must be a floor tile (x, y) or a cell number from 0 to {self.cells - 1}, "
                                 f"got {source}")
            source = self.layout.cell_tile((int(source) % self.maze.width, int(source) // self.maze.width))
        source = check_tile("source", source, self.tiles.shape)
        if not self.is_floor(source):
            raise ValueError(f"source {source} is a wall tile; distances start from a floor tile")
        if self._bridges is not None:
            return bridges.distance_map(self.tiles, self._bridges, source)
        return paths.distance_map(self.tiles, source)

    # -- analysis (see mazeplugin.analysis) ----------------------------------

    def dead_ends(self) -> List[Cell]:
        """The ``(x, y)`` **cells** with exactly one open passage, row-major.

        Cell coordinates, not tiles: ``level.layout.cell_tile(cell)`` is the
        tile at a cell's middle. An entrance or exit opening in the outer
        wall does not count as a passage.

        >>> import mazeplugin as mp
        >>> level = mp.generate("backtracker", 10, 10, seed=1)
        >>> len(level.dead_ends()) == level.stats().dead_ends
        True
        >>> len(mp.generate("backtracker", 10, 10, seed=1, braid=1).dead_ends())
        0
        """
        from . import analysis  # (on first use: a level that is only played never needs it)

        return analysis.dead_ends(self.maze)

    def stats(self) -> analysis.Stats:
        """Dead ends, their fraction, junctions, loops, longest path and solution length.

        Lengths are in cells walked; see :class:`mazeplugin.analysis.Stats`.

        >>> import mazeplugin as mp
        >>> s = mp.generate("kruskal", 20, 20, seed=3).stats()
        >>> s.cells, s.loops, 0.2 < s.dead_end_fraction < 0.4
        (400, 0, True)
        """
        from . import analysis

        start = goal = None
        if self.entrance is not None and self.exit is not None:
            start, goal = self.layout.cell_of(self.entrance), self.layout.cell_of(self.exit)
        return analysis.stats(self.maze, start, goal)

    # -- views ---------------------------------------------------------------

    def marked(self) -> NDArray[np.int8]:
        """An int8 copy of the tiles with ``mp.ENTRANCE`` (2) and ``mp.EXIT`` (3) written in.

        Things are written in under the markers: ``mp.DOOR`` (4) on every tile
        a door blocks, ``mp.KEY`` (5), ``mp.TREASURE`` (6), ``mp.ENEMY`` (7)
        where an enemy starts; a game's own kinds are not written.
        """
        return text.marked_tiles(self.tiles, self.things, self.entrance, self.exit)

    def to_text(self, style: str = "ascii") -> str:
        """The level as text: ``"ascii"``, ``"blocks"``, ``"box"`` or ``"digits"``.

        See :mod:`mazeplugin.text` for what each looks like; a weave's
        bridges show as ``|`` (running north–south) and ``-`` in ``"ascii"``.
        """
        marked = self.marked()
        if self._bridges is not None:
            bare = marked == FLOOR
            marked[bare & (self._bridges == 1)] = text.BRIDGE_NORTH_SOUTH
            marked[bare & (self._bridges == 2)] = text.BRIDGE_EAST_WEST
        return text.render(marked, style)

    # -- files: mazeplugin.formats, reached through the one seam (mazeplugin.seam) --

    def to_svg(self, cell: float = 10, *, show_solution: bool = False) -> str:
        """The level as an SVG picture, ``cell`` pixels per tile; see :mod:`mazeplugin.formats.svg`."""
        return seam.to_svg(self, cell, show_solution)

    def to_json(self) -> str:
        """The level as JSON text that ``mp.from_json`` loads back; see :mod:`mazeplugin.formats.jsonio`."""
        return seam.to_json(self)

    def save(self, path: "PathLike", *, format: Optional[str] = None, **options: Any) -> None:
        """Write the level to ``path`` in the format its suffix names (or ``format``: ``"json"``, ``"tmx"``, ...):
        ``.json``, ``.tmx``/``.tmj`` (Tiled maps and their tileset image; option ``tile``, default 16), ``.npy``,
        ``.svg`` (``cell``, default 10; ``show_solution``), ``.png`` (``tile``, default 8; ``show_solution``;
        needs pygame), ``.txt`` (``style``, see :meth:`to_text`). ``mp.load`` reads the first four back.
        Written safely (:mod:`mazeplugin.formats.files`); see :mod:`mazeplugin.formats.level_files`.

        >>> import os, tempfile, mazeplugin as mp
        >>> path = os.path.join(tempfile.mkdtemp(), "level.json")
        >>> level = mp.generate("kruskal", 4, 3, seed=7)
        >>> level.save(path)
        >>> mp.load(path).tiles.tobytes() == level.tiles.tobytes()
        True
        """
        seam.save(self, path, format, options)

    # -- deprecated per-format aliases (one release): level.save(path), mp.load(path), mp.from_json(text) --
    save_png: Callable[..., None] = seam.saver("Level", "png", tile=8, show_solution=False)
    save_tmx: Callable[..., None] = seam.saver("Level", "tmx", tile=16)
    save_tmj: Callable[..., None] = seam.saver("Level", "tmj", tile=16)
    save_json: Callable[..., None] = seam.saver("Level", "json")
    save_npy: Callable[..., None] = seam.saver("Level", "npy")
    load_tmx: Callable[..., "Level"] = seam.loader("Level", "load_tmx", "tiled_read", "load_tmx")
    load_tmj: Callable[..., "Level"] = seam.loader("Level", "load_tmj", "tiled_read", "load_tmj")
    load_json: Callable[..., "Level"] = seam.loader("Level", "load_json", "jsonio", "load_json")
    load_npy: Callable[..., "Level"] = seam.loader("Level", "load_npy", "jsonio", "load_npy")
    from_json: Callable[..., "Level"] = seam.loader("Level", "from_json", "jsonio", "from_json")

    def __str__(self) -> str:
        return self.to_text("ascii")

    def __repr__(self) -> str:
        return (
            f"<Level {self.algorithm or 'custom'} {self.width}x{self.height} "
            f"seed={self.seed!r} tiles={self.tiles.shape[1]}x{self.tiles.shape[0]} "
            f"entrance={self.entrance} exit={self.exit}>"
        )

