"""The :class:`World`: an endless maze of chunks, its arguments, geometry and tiles.

See :mod:`mazeplugin.world` for what a world is and promises; chunks are made
by :mod:`~mazeplugin.world.chunks`, kept by :mod:`~mazeplugin.world.cache`,
and seen as levels and things through :mod:`~mazeplugin.world.views`.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from ..content import Place, Thing
from ..content.placing import check_request
from ..level import Level
from ..limits import MAX_CORRIDOR, MAX_WALL, check_int
from ..registry import get_generator
from ..seeds import Seed, resolve_seed
from ..shaping import check_braid
from ..tiles import FLOOR, Layout, Tile
from .cache import CacheInfo, ChunkCache
from .chunks import ChunkRecipe
from .geometry import (
    MAX_CHUNK_CELLS,
    MAX_CHUNK_TILES,
    MAX_COORDINATE,
    Chunk,
    check_coordinate,
    check_pair,
    check_window,
    check_window_work,
)
from .views import furnish_chunk, window_level

__all__ = ["World"]

_DEFAULT_CACHE = 256


class World:
    """An endless maze made of chunks, the same for everyone with the same settings.

    Args:
        algorithm: a registered generator whose mazes join every cell
            (perfect generators, or others that leave no sealed pocket:
            ``rooms`` with ``prune=0``). ``union-find`` is refused.
        seed: an int ≥ 0 or a str; None draws a fresh one (kept on ``world.seed``).
        chunk: ``(width, height)`` of a chunk in cells, each 1 or more, at
            most :data:`MAX_CHUNK_CELLS` cells in all.
        corridor, wall: passage width and wall thickness in tiles, as in
            :func:`mazeplugin.generate`.
        braid: the fraction (0 to 1) of each chunk's dead ends to open into
            loops, as in :func:`mazeplugin.generate`.
        openings: how many openings each shared border gets (at least 1, at
            most the border's length in cells); default: one per 16 cells of
            border, at least 1.
        perfect: a loop-free world (see the module docstring for its cost);
            needs a perfect generator and no braid.
        cache: how many chunks to keep (least recently used ones are dropped);
            memory is about ``cache × chunk tiles`` bytes.
        markers, mask: refused (a world has no entrance, exit or edges);
            only their "nothing" values are accepted.
        **options: the generator's own options.

    Every argument is checked, and chunk ``(0, 0)`` generated (which
    refuses a generator that leaves sealed pockets), before the world is
    returned.
    """

    def __init__(
        self,
        algorithm: str,
        *,
        seed: Optional[Seed] = None,
        chunk: Tuple[int, int] = (32, 32),
        corridor: int = 1,
        wall: int = 1,
        braid: float = 0.0,
        openings: Optional[int] = None,
        perfect: bool = False,
        cache: int = _DEFAULT_CACHE,
        treasure: int = 0,
        place: Sequence[Place] = (),
        markers: Any = "none",
        mask: Any = None,
        **options: Any,
    ) -> None:
        generator = get_generator(algorithm)
        for name in ("keys", "enemies"):
            if name in options:
                raise ValueError(
                    f"{name}= cannot apply to a world: locked doors and enemies are placed by the route from "
                    "an entrance to an exit, which a world does not have; treasure= and place= are placed per chunk"
                )
        if not (markers is None or (isinstance(markers, str) and markers == "none")):
            raise ValueError(
                f"markers={markers!r} cannot apply to a world: it has no edges, entrance or exit; "
                "start the player at world.spawn (markers must be 'none')"
            )
        if mask is not None:
            raise ValueError(
                "mask= cannot apply to a world: a whole-world mask would have to be endless; "
                "a world's chunks are full rectangles of cells (mask must be None)"
            )
        cw, ch = check_pair("chunk", chunk, "(width, height) of ints, in cells")
        width = check_int("chunk width", cw, low=1)
        height = check_int("chunk height", ch, low=1)
        corridor = check_int("corridor", corridor, low=1, high=MAX_CORRIDOR)
        wall = check_int("wall", wall, low=1, high=MAX_WALL)
        if width * height > MAX_CHUNK_CELLS:
            raise ValueError(
                f"chunk={chunk!r} is {width * height:,} cells; at most {MAX_CHUNK_CELLS:,} "
                "(e.g. 256 × 256) are allowed, so each chunk is generated quickly"
            )
        pitch = corridor + wall
        if width * pitch * height * pitch > MAX_CHUNK_TILES:
            raise ValueError(
                f"chunk={chunk!r} with corridor={corridor}, wall={wall} covers "
                f"{width * pitch * height * pitch:,} tiles; at most {MAX_CHUNK_TILES:,} are allowed"
            )
        braid = check_braid(braid)
        if not isinstance(perfect, bool):
            raise TypeError(f"perfect must be True or False, not {type(perfect).__name__}")
        if openings is None:
            counts = (max(1, round(height / 16)), max(1, round(width / 16)))
        else:
            count = check_int("openings", openings, low=1)
            if count > min(width, height):
                raise ValueError(
                    f"openings={count} is more than a border of chunk={chunk!r} has cells "
                    f"(at most {min(width, height)})"
                )
            counts = (count, count)
        if perfect:
            counts = (1, 1)
        if perfect and openings not in (None, 1):
            raise ValueError(f"openings={openings!r}: a perfect world opens exactly one place per joined border")
        cache = check_int("cache", cache, low=1)
        _, treasure, _, requests = check_request(0, treasure, 0, place)
        generator.check_options(options, width, height)
        if perfect and not generator.perfect:
            raise ValueError(
                f"perfect=True needs a perfect generator; {algorithm!r} makes loops or pockets"
            )
        if perfect and braid > 0:
            raise ValueError("perfect=True and braid > 0 contradict each other: braiding makes loops")

        self.algorithm: str = algorithm
        self.seed: Seed = resolve_seed(seed)
        self.chunk: Tuple[int, int] = (width, height)
        self.corridor: int = corridor
        self.wall: int = wall
        self.braid = braid
        self.perfect = perfect
        self.openings: Tuple[int, int] = counts  # per west/east border, per north/south border
        self.options: Dict[str, Any] = dict(options)
        self.treasure = treasure
        self.place: Tuple[Place, ...] = requests
        self._recipe = ChunkRecipe(
            generator, self.options, name=algorithm, seed=self.seed, chunk=self.chunk, corridor=corridor,
            wall=wall, braid=braid, openings=counts, perfect=perfect,
        )
        self._span = self._recipe.span
        self._cache: ChunkCache[NDArray[np.uint8]] = ChunkCache(cache)
        self._things: ChunkCache[Tuple[Thing, ...]] = ChunkCache(cache)
        self.spawn: Tile = self._recipe.layout.cell_tile((0, 0))
        self.chunk_tiles((0, 0))  # refuses a generator that leaves sealed pockets, now rather than later
        if self.treasure or self.place:
            self.chunk_things((0, 0))  # refuses counts that do not fit a chunk, now rather than later

    def __repr__(self) -> str:
        extra = "".join(
            f", {name}={value!r}"
            for name, value, default in (
                ("corridor", self.corridor, 1),
                ("wall", self.wall, 1),
                ("braid", self.braid, 0.0),
                ("perfect", self.perfect, False),
            )
            if value != default
        )
        if self.treasure:
            extra += f", treasure={self.treasure}"
        if self.place:
            extra += f", place={list(self.place)!r}"
        options = "".join(f", {k}={v!r}" for k, v in sorted(self.options.items()))
        return f"World({self.algorithm!r}, seed={self.seed!r}, chunk={self.chunk!r}{extra}{options})"

    # -- geometry --------------------------------------------------------------

    @property
    def chunk_span(self) -> Tuple[int, int]:
        """``(width, height)`` of a chunk in tiles: ``chunk × (corridor + wall)``."""
        return self._span

    @property
    def layout(self) -> Layout:
        """The tile layout of one chunk (``corridor``, ``wall``; cells at the usual places)."""
        return self._recipe.layout

    @property
    def recipe(self) -> ChunkRecipe:
        """How this world makes a chunk and the openings between chunks (:class:`~mazeplugin.world.chunks.ChunkRecipe`)."""
        return self._recipe

    def chunk_of(self, tile: Tuple[int, int]) -> Chunk:
        """The chunk ``(i, j)`` that holds tile ``(x, y)``.

        >>> World("kruskal", seed=1, chunk=(8, 8)).chunk_of((-1, 16))
        (-1, 1)
        """
        x, y = check_pair("tile", tile, "(x, y) of ints")
        x = check_coordinate("tile x", x)
        y = check_coordinate("tile y", y)
        return (x // self._span[0], y // self._span[1])

    def chunk_rect(self, chunk: Chunk) -> Tuple[int, int, int, int]:
        """``(x, y, width, height)`` in tiles of what chunk ``(i, j)`` holds."""
        i, j = self._check_chunk(chunk)
        sw, sh = self._span
        return (i * sw, j * sh, sw, sh)

    def chunks(self, x0: int, y0: int, x1: int, y1: int) -> List[Chunk]:
        """The chunks that the window ``[x0, x1) × [y0, y1)`` touches, row by row.

        >>> World("kruskal", seed=1, chunk=(8, 8)).chunks(-1, 0, 17, 1)
        [(-1, 0), (0, 0), (1, 0)]
        """
        x0, y0, x1, y1 = self._check_window(x0, y0, x1, y1)
        sw, sh = self._span
        return [
            (i, j)
            for j in range(y0 // sh, -(-y1 // sh))
            for i in range(x0 // sw, -(-x1 // sw))
        ]

    def cell_window(self, x0: int, y0: int, x1: int, y1: int) -> Tuple[int, int, int, int]:
        """The smallest window of whole cells (with the walls around them) holding ``[x0, x1) × [y0, y1)``.

        It starts on a wall line and is ``cells × pitch + wall`` tiles wide
        and high, at least one cell each way: what :meth:`level` returns.

        >>> World("kruskal", seed=1).cell_window(0, 0, 10, 10)
        (0, 0, 11, 11)
        >>> World("kruskal", seed=1).cell_window(-3, 4, -2, 5)
        (-4, 4, -1, 7)
        """
        x0, y0, x1, y1 = self._check_window(x0, y0, x1, y1)
        pitch, wall = self.corridor + self.wall, self.wall
        c0, r0 = x0 // pitch, y0 // pitch
        c1 = max(-(-(x1 - wall) // pitch), c0 + 1)
        r1 = max(-(-(y1 - wall) // pitch), r0 + 1)
        return (c0 * pitch, r0 * pitch, c1 * pitch + wall, r1 * pitch + wall)

    # -- tiles -----------------------------------------------------------------

    def tiles(self, x0: int, y0: int, x1: int, y1: int) -> NDArray[np.uint8]:
        """The uint8 tiles of the window ``[x0, x1) × [y0, y1)``, indexed ``[y - y0, x - x0]``.

        1 = wall, 0 = floor; a new array of shape ``(y1 - y0, x1 - x0)`` (empty
        windows are allowed). Chunks it touches are generated as needed and
        kept in the cache.
        """
        x0, y0, x1, y1 = self._check_window(x0, y0, x1, y1)
        check_window_work((x0, y0, x1, y1), self._span, self.chunk)
        out = np.empty((y1 - y0, x1 - x0), dtype=np.uint8)
        sw, sh = self._span
        for j in range(y0 // sh, -(-y1 // sh)):
            top, bottom = max(y0, j * sh), min(y1, (j + 1) * sh)
            for i in range(x0 // sw, -(-x1 // sw)):
                left, right = max(x0, i * sw), min(x1, (i + 1) * sw)
                block = self._chunk((i, j))
                out[top - y0 : bottom - y0, left - x0 : right - x0] = block[
                    top - j * sh : bottom - j * sh, left - i * sw : right - i * sw
                ]
        return out

    def is_floor(self, tile: Tuple[int, int]) -> bool:
        """Whether tile ``(x, y)`` is floor."""
        i, j = self.chunk_of(tile)
        x, y = (int(v) for v in tile)  # checked by chunk_of
        sw, sh = self._span
        return bool(self._chunk((i, j))[y - j * sh, x - i * sw] == FLOOR)

    def chunk_tiles(self, chunk: Chunk) -> NDArray[np.uint8]:
        """The tiles chunk ``(i, j)`` holds: read-only uint8 ``(height, width)`` of :attr:`chunk_span`.

        The same array object while the chunk stays in the cache (renderers
        may key on it); copy it to edit.
        """
        return self._chunk(self._check_chunk(chunk))

    def level(self, x0: int, y0: int, x1: int, y1: int, *, open_edges: bool = False) -> Level:
        """The window as a :class:`~mazeplugin.level.Level` (no markers) that formats, stats and pg take.

        The window is widened to whole cells first (:meth:`cell_window`), so
        level tile ``(0, 0)`` is world tile ``cell_window(...)[:2]``; that
        window is recorded in ``level.options["world"]["window"]``. The
        level's maze is the window's cells and passages, rebuilt from the
        tiles by :func:`mazeplugin.formats.rebuild.level_from_tiles`.

        Passages that lead out of the window are walled off, so the level is
        a map of its own that every loader reads back (a level's outer wall
        is open only at its markers). ``open_edges=True`` keeps them open:
        the tiles then equal ``world.tiles(*world.cell_window(...))`` exactly,
        but a file saved from it will not load (its outer wall has unmarked
        holes). Parts of a window may join only through the world outside it;
        a window of whole chunks is always joined.
        """
        if not isinstance(open_edges, bool):
            raise TypeError(f"open_edges must be True or False, not {type(open_edges).__name__}")
        window = self.cell_window(x0, y0, x1, y1)
        self._check_window(*window)
        return window_level(self, window, open_edges)

    # -- content -----------------------------------------------------------------

    def things(self, x0: int, y0: int, x1: int, y1: int) -> List[Thing]:
        """The things (treasure, ``place`` kinds) standing in the window, in world tiles.

        Chunk by chunk, row by row, each chunk's things by id. A thing's
        ``id`` is unique within its chunk, and ``props["chunk"]`` names the
        chunk, so ``(props["chunk"], id)`` identifies it in the world (say,
        to remember what a player collected).

        >>> world = World("backtracker", seed=7, chunk=(8, 8), treasure=2)
        >>> [(t.kind, t.props["chunk"]) for t in world.things(0, 0, 32, 16)]
        [('treasure', (0, 0)), ('treasure', (0, 0)), ('treasure', (1, 0)), ('treasure', (1, 0))]
        """
        x0, y0, x1, y1 = self._check_window(x0, y0, x1, y1)
        check_window_work((x0, y0, x1, y1), self._span, self.chunk)
        found: List[Thing] = []
        for chunk in self.chunks(x0, y0, x1, y1):
            found += [t for t in self._chunk_things(chunk) if x0 <= t.x < x1 and y0 <= t.y < y1]
        return found

    def chunk_things(self, chunk: Chunk) -> Tuple[Thing, ...]:
        """The things of chunk ``(i, j)``, in world tiles (see :meth:`things`)."""
        return self._chunk_things(self._check_chunk(chunk))

    def _chunk_things(self, chunk: Chunk) -> Tuple[Thing, ...]:
        if not (self.treasure or self.place):
            return ()
        things = self._things.get(chunk)
        if things is None:
            things = self._things.put(chunk, furnish_chunk(self, chunk))
        return things

    # -- the cache -------------------------------------------------------------

    def cache_info(self) -> CacheInfo:
        """Hits, misses, chunks held and the most it holds."""
        return self._cache.info()

    def cache_clear(self) -> None:
        """Drop every cached chunk (they are made again, identical, when asked for)."""
        self._cache.clear()
        self._things.clear()

    def _chunk(self, chunk: Chunk) -> NDArray[np.uint8]:
        block = self._cache.get(chunk)
        if block is None:  # made outside the cache's lock: another thread may make it too, identically
            block = self._cache.put(chunk, self._recipe.make(*chunk))
        return block

    # -- borders ---------------------------------------------------------------

    def west_openings(self, chunk: Chunk) -> List[int]:
        """The cell rows (0 to chunk height - 1) where the wall west of ``chunk`` is open, ascending.

        Derived from the seed and the border alone (the wall belongs to
        ``chunk``'s tiles, so the chunk to the west never needs them).
        """
        i, j = self._check_chunk(chunk)
        return self._recipe.borders(i, j)[0]

    def north_openings(self, chunk: Chunk) -> List[int]:
        """The cell columns (0 to chunk width - 1) where the wall north of ``chunk`` is open, ascending."""
        i, j = self._check_chunk(chunk)
        return self._recipe.borders(i, j)[1]

    def parent(self, chunk: Chunk) -> Optional[Chunk]:
        """In a perfect world, the neighbour ``chunk`` opens to (one step closer to ``(0, 0)``); else None.

        Chunk ``(0, 0)`` has none. Off the axes the step is along x or y,
        half and half from the seed; on an axis it is along the axis.

        >>> world = World("kruskal", seed=3, chunk=(4, 4), perfect=True)
        >>> world.parent((0, 0)), world.parent((0, -2)), world.parent((5, 0))
        (None, (0, -1), (4, 0))
        """
        i, j = self._check_chunk(chunk)
        return self._recipe.parent(i, j) if self.perfect else None

    # -- checks ----------------------------------------------------------------

    def _check_chunk(self, chunk: object) -> Chunk:
        i, j = check_pair("chunk", chunk, "(i, j) of ints")
        limit = MAX_COORDINATE // min(self._span) if hasattr(self, "_span") else MAX_COORDINATE
        result = []
        for name, value in (("chunk i", i), ("chunk j", j)):
            number = check_int(name, value, low=None, what="an int (a chunk coordinate)")
            if not -limit <= number <= limit:
                raise ValueError(f"{name} must lie within ±{limit}, got {number}")
            result.append(number)
        return (result[0], result[1])

    def _check_window(self, x0: object, y0: object, x1: object, y1: object) -> Tuple[int, int, int, int]:
        return check_window(x0, y0, x1, y1)
