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
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union, cast

import numpy as np
from numpy.typing import NDArray

from . import analysis, paths, text
from .maze import Cell, Maze
from .seeds import Seed
from .tiles import ENTRANCE, EXIT, FLOOR, Layout, Opening, Tile, base_tiles

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
        base = base_tiles(maze)
        for opening in openings:
            bx, by = opening.base_position()
            base[by, bx] = FLOOR
        base.flags.writeable = False
        self._base = base
        tiles = self.layout.expand(base)
        tiles.flags.writeable = False
        self.tiles: NDArray[np.uint8] = tiles
        self.things: Tuple[Any, ...] = tuple(sorted(things, key=lambda t: t.id))
        self.entrance: Optional[Tile] = entrance
        self.exit: Optional[Tile] = exit
        for name, tile in (("entrance", entrance), ("exit", exit)):
            if tile is not None and tiles[tile[1], tile[0]] != FLOOR:
                raise ValueError(f"{name} {tile} is not a floor tile")

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
    def shape(self) -> Tuple[int, int]:
        """``tiles.shape``: ``(rows, columns)`` of tiles."""
        rows, columns = self.tiles.shape
        return (rows, columns)

    # -- walking -------------------------------------------------------------

    def is_floor(self, tile: Tile) -> bool:
        """Whether ``(x, y)`` is inside the map and a floor tile."""
        x, y = tile
        h, w = self.tiles.shape
        return 0 <= x < w and 0 <= y < h and bool(self.tiles[y, x] == FLOOR)

    def solution(self) -> List[Tile]:
        """The shortest path from entrance to exit: ``(x, y)`` tiles, both ends included.

        Each step moves to a 4-adjacent floor tile. On a level with locked
        doors it is the shortest walk that picks up each key before passing
        its door (detours to keys included, so a tile may appear twice); see
        :func:`mazeplugin.content.solve`. Raises ``ValueError`` when the
        level has no markers.
        """
        if self.entrance is None or self.exit is None:
            raise ValueError(
                "this level has no entrance and exit (markers='none'); "
                "generate it with markers='border', 'farthest', 'random' or two tiles"
            )
        if any(t.kind == "door" for t in self.things):
            from .content import solve

            path = solve(self.tiles, self.entrance, self.exit, self.things)
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
        from .content import check

        check(self.tiles, self.entrance, self.exit, self.things)

    def distances(self, source: Tile) -> NDArray[np.int32]:
        """Steps from floor tile ``source`` to every tile; -1 on walls and unreachable tiles.

        int32, shaped like ``tiles``.
        """
        source = _check_tile("source", source, self.tiles.shape)
        if not self.is_floor(source):
            raise ValueError(f"source {source} is a wall tile; distances start from a floor tile")
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
        return analysis.dead_ends(self.maze)

    def stats(self) -> analysis.Stats:
        """Dead ends, their fraction, junctions, loops, longest path and solution length.

        Lengths are in cells walked; see :class:`mazeplugin.analysis.Stats`.

        >>> import mazeplugin as mp
        >>> s = mp.generate("kruskal", 20, 20, seed=3).stats()
        >>> s.cells, s.loops, 0.2 < s.dead_end_fraction < 0.4
        (400, 0, True)
        """
        start = goal = None
        if self.entrance is not None and self.exit is not None:
            start, goal = self._cell_of(self.entrance), self._cell_of(self.exit)
        return analysis.stats(self.maze, start, goal)

    def _cell_of(self, tile: Tile) -> Cell:
        """The cell a marker tile is on, or beside (for an opening in the outer wall)."""
        bx, by = self.layout.base_of(tile)
        x = min(max((bx - 1) // 2, 0), self.width - 1)
        y = min(max((by - 1) // 2, 0), self.height - 1)
        return (x, y)

    # -- views ---------------------------------------------------------------

    def marked(self) -> NDArray[np.int8]:
        """An int8 copy of the tiles with ``mp.ENTRANCE`` (2) and ``mp.EXIT`` (3) written in.

        Things are written in under the markers: ``mp.DOOR`` (4) on every tile
        a door blocks, ``mp.KEY`` (5), ``mp.TREASURE`` (6), ``mp.ENEMY`` (7)
        where an enemy starts; a game's own kinds are not written.
        """
        out = self.tiles.astype(np.int8)
        if self.things:
            from .content import MARKS

            for thing in self.things:
                mark = MARKS.get(thing.kind)
                if mark is not None:
                    for x, y in thing.tiles():
                        out[y, x] = mark
        if self.entrance is not None:
            out[self.entrance[1], self.entrance[0]] = ENTRANCE
        if self.exit is not None:
            out[self.exit[1], self.exit[0]] = EXIT
        return out

    def to_text(self, style: str = "ascii") -> str:
        """The level as text: ``"ascii"``, ``"blocks"``, ``"box"`` or ``"digits"``.

        See :mod:`mazeplugin.text` for what each looks like.
        """
        return text.render(self.marked(), style)

    # -- files (see mazeplugin.formats) ---------------------------------------

    def to_svg(self, cell: float = 10, *, show_solution: bool = False) -> str:
        """The level as an SVG picture, ``cell`` pixels per tile; see :mod:`mazeplugin.formats.svg`."""
        from .formats import svg

        return svg.to_svg(self, cell=cell, show_solution=show_solution)

    def save_png(self, path: "PathLike", *, tile: int = 8, show_solution: bool = False) -> None:
        """Write a PNG picture, ``tile`` pixels per tile (needs pygame: ``pip install "mazeplugin[pygame]"``)."""
        from .formats import picture

        picture.save_png(self, path, tile=tile, show_solution=show_solution)

    def save_tmx(self, path: "PathLike", *, tile: int = 16) -> None:
        """Write a Tiled map (XML ``.tmx``) and its tileset image; see :mod:`mazeplugin.formats.tiled`."""
        from .formats import tiled

        tiled.save_tmx(self, path, tile=tile)

    def save_tmj(self, path: "PathLike", *, tile: int = 16) -> None:
        """Write a Tiled map (JSON ``.tmj``) and its tileset image; see :mod:`mazeplugin.formats.tiled`."""
        from .formats import tiled

        tiled.save_tmj(self, path, tile=tile)

    @classmethod
    def load_tmx(cls, path: "PathLike", *, corridor: Optional[int] = None, wall: Optional[int] = None) -> "Level":
        """Load a level from a Tiled XML map, as saved or as edited in Tiled; see :mod:`mazeplugin.formats.tiled_read`."""
        from .formats import tiled_read

        return tiled_read.load_tmx(path, corridor=corridor, wall=wall)

    @classmethod
    def load_tmj(cls, path: "PathLike", *, corridor: Optional[int] = None, wall: Optional[int] = None) -> "Level":
        """Load a level from a Tiled JSON map, as saved or as edited in Tiled; see :mod:`mazeplugin.formats.tiled_read`."""
        from .formats import tiled_read

        return tiled_read.load_tmj(path, corridor=corridor, wall=wall)

    def to_json(self) -> str:
        """The level as JSON text that :meth:`from_json` loads back; see :mod:`mazeplugin.formats.jsonio`."""
        from .formats import jsonio

        return jsonio.to_json(self)

    @classmethod
    def from_json(cls, text: str) -> "Level":
        """Load a level from :meth:`to_json` text, checking it (``ValueError`` saying what is wrong)."""
        from .formats import jsonio

        return jsonio.from_json(text)

    def save_json(self, path: "PathLike") -> None:
        """Write :meth:`to_json` text to ``path``; :meth:`load_json` reads it back.

        Written safely like every ``save_*`` (see :mod:`mazeplugin.formats.files`):
        atomically for a regular file, a symlink's target replaced, a device
        or FIFO written through, never a rename over anything else.

        >>> import os, tempfile, mazeplugin as mp
        >>> path = os.path.join(tempfile.mkdtemp(), "level.json")
        >>> level = mp.generate("kruskal", 4, 3, seed=7)
        >>> level.save_json(path)
        >>> mp.Level.load_json(path).tiles.tobytes() == level.tiles.tobytes()
        True
        """
        from .formats import jsonio

        jsonio.save_json(self, path)

    @classmethod
    def load_json(cls, path: "PathLike") -> "Level":
        """Load a level from a JSON file (:meth:`save_json`), checking it; errors name the file.

        Reads only a regular file, at most ``mazeplugin.formats.jsonio.MAX_JSON_CHARS``
        bytes; see :func:`mazeplugin.formats.jsonio.load_json`.
        """
        from .formats import jsonio

        return jsonio.load_json(path)

    def save_npy(self, path: "PathLike") -> None:
        """Write :meth:`marked` to an ``.npy`` file (0 floor, 1 wall, 2 entrance, 3 exit)."""
        from .formats import jsonio

        jsonio.save_npy(self, path)

    @classmethod
    def load_npy(cls, path: "PathLike", *, corridor: int = 1, wall: int = 1) -> "Level":
        """Load a level from an ``.npy`` tilemap (never unpickling); see :func:`mazeplugin.formats.jsonio.load_npy`."""
        from .formats import jsonio

        return jsonio.load_npy(path, corridor=corridor, wall=wall)

    def __str__(self) -> str:
        return self.to_text("ascii")

    def __repr__(self) -> str:
        return (
            f"<Level {self.algorithm or 'custom'} {self.width}x{self.height} "
            f"seed={self.seed!r} tiles={self.tiles.shape[1]}x{self.tiles.shape[0]} "
            f"entrance={self.entrance} exit={self.exit}>"
        )


def _check_tile(name: str, tile: object, shape: Tuple[int, ...]) -> Tile:
    """A tile argument as an ``(x, y)`` int pair inside a map of ``shape``, or a clear error."""
    try:
        x, y = cast(Iterable[Any], tile)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an (x, y) pair of ints, got {tile!r}") from None
    if any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in (x, y)):
        raise TypeError(f"{name} must be an (x, y) pair of ints, got {tile!r}")
    x, y = int(x), int(y)
    h, w = shape
    if not (0 <= x < w and 0 <= y < h):
        raise ValueError(f"{name} {(x, y)} is outside the map: x must be in 0..{w - 1}, y in 0..{h - 1}")
    return (x, y)

