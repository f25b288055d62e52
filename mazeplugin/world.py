"""Endless worlds: one maze that goes on in every direction, generated chunk by chunk.

The world is an endless grid of maze cells cut into chunks of ``chunk = (w, h)``
cells. Each chunk is a maze of its own, made by a registered generator from a
seed derived from ``(world seed, chunk coordinates)`` alone; neighbouring
chunks join through openings in the wall they share, derived from
``(world seed, border)`` alone. So a tile depends only on the world's settings
and its coordinates: never on which windows were asked for before, in what
order, or in which process, and no chunk needs its neighbours generated.

**Geometry.** Tiles follow the usual layout across the whole world: cell
``(cx, cy)`` (any ints) has its floor block at tile ``(cx*pitch + wall,
cy*pitch + wall)``, ``pitch = corridor + wall``. Neighbouring chunks *share*
one wall (no doubled walls, no seams): chunk ``(i, j)`` owns the tiles
``[i*w*pitch, (i+1)*w*pitch) × [j*h*pitch, (j+1)*h*pitch)`` (its cells, the
passages between them, and its west and north walls, where the openings to
the chunks west and north of it are cut). With the defaults a chunk of
32 × 32 cells is 64 × 64 tiles, and chunk ``(0, 0)`` starts at tile ``(0, 0)``.
With ``chunk=(2, 2)``, chunk ``(0, 0)`` holds tiles 0 to 3 across and down;
column 4 is the wall it shares with chunk ``(1, 0)`` (open at y = 1), row 4
the wall it shares with chunk ``(0, 1)`` (open at x = 1), and row 0 its wall
with chunk ``(0, -1)`` (open at x = 3):

>>> import mazeplugin as mp
>>> small = mp.World("backtracker", seed=7, chunk=(2, 2))
>>> for row in small.tiles(0, 0, 9, 6):
...     print("".join(".#"[t] for t in row))
###.###.#
..#...#..
#.#.#.#.#
#...#...#
#.###.###
........#

**What is guaranteed.** Every chunk is a connected maze of all its cells
(the generator must leave no sealed pocket; a world checks each chunk), and
every shared border has at least one opening. So every floor tile reaches
every other, and the route between two cells in neighbouring chunks stays
inside those two chunks. Loops exist at chunk scale (around every corner
where four chunks meet) and are expected.

``perfect=True`` makes a loop-free world instead: each chunk opens exactly
one border, towards a neighbour one step closer to chunk ``(0, 0)`` (picked
from the seed), so the chunks form one tree rooted at the spawn chunk and
the whole world is a perfect maze. The cost: the route between two
neighbouring chunks that are not parent and child goes back towards the spawn
to their nearest common ancestor, so detours grow without bound the farther
out you are (up to ``|i| + |j|`` chunks and back).

**Random numbers** come from stream 6 of the seed (the stream reserved for
worlds), keyed by purpose and coordinates with :meth:`Random.keyed`, never
``hash()``: chunk ``(i, j)``'s maze is ``keyed(seed, (6, 0, *i, *j))``, its
braid ``(6, 1, ...)``, the openings in its west and north walls (which only
its own tiles hold) ``(6, 2, ...)``, its parent in a perfect world
``(6, 3, ...)`` and its content ``(6, 4, ...)``; each coordinate is
zigzag-coded (0, -1, 1, -2, ... → 0, 1, 2, 3, ...) and written as two 32-bit words.

>>> world = mp.World("backtracker", seed=7, chunk=(4, 3))
>>> world.spawn, world.chunk_of((-1, 0)), world.chunk_of((8, 5))
((1, 1), (-1, 0), (1, 0))
>>> window = world.tiles(-3, -2, 12, 5)          # any ints, negative too
>>> window.shape, window.dtype.name
((7, 15), 'uint8')
>>> bool((world.tiles(0, 0, 12, 5) == window[2:, 3:]).all())   # windows agree
True
>>> level = world.level(0, 0, 17, 13)            # a Level: formats, stats, pg work
>>> level.tiles.shape, level.entrance
((13, 17), None)
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from .content import Place, Thing, furnish
from .content.placing import check_request
from .formats.recorded import LEVEL_OPTIONS, LevelShape
from .limits import MAX_CORRIDOR, MAX_TILES, MAX_WALL, check_int
from .unionfind import DisjointSets
from .level import Level
from .maze import Maze
from .registry import GeneratorInfo, get_generator
from .seeds import Random, Seed, resolve_seed
from .shaping import braid as braid_maze
from .shaping import check_braid
from .tiles import FLOOR, WALL, Layout, Tile, base_tiles

__all__ = ["World", "CacheInfo", "Chunk", "WORLD_STREAM", "MAX_CHUNK_CELLS", "MAX_CHUNK_TILES", "MAX_COORDINATE"]

Chunk = Tuple[int, int]
"""A chunk position ``(i, j)``: chunk ``(0, 0)`` holds tile ``(0, 0)``, ``(1, 0)`` is east of it."""

WORLD_STREAM = 6
"""The index of the seed's random stream reserved for endless worlds."""

MAX_CHUNK_CELLS = 1 << 16
"""Most cells a chunk may have (65,536, e.g. 256 × 256): a chunk is made where the camera looks, so it must be quick."""

MAX_CHUNK_TILES = 1 << 22
"""Most tiles a chunk may cover once ``corridor`` and ``wall`` widen it (4 MiB of uint8)."""

MAX_COORDINATE = 1 << 62
"""Tile coordinates must lie in ``(-MAX_COORDINATE, MAX_COORDINATE)``."""

# What each keyed stream under WORLD_STREAM is for (see the module docstring).
_MAZE, _BRAID, _BORDERS, _PARENT, _CONTENT = range(5)

_DEFAULT_CACHE = 256


class CacheInfo(NamedTuple):
    """How the chunk cache has done: like :func:`functools.lru_cache`'s ``cache_info()``."""

    hits: int
    misses: int
    size: int
    maxsize: int


def _check_coordinate(name: str, value: object) -> int:
    number = check_int(name, value, low=None, what="an int (a tile coordinate)")
    if not -MAX_COORDINATE < number < MAX_COORDINATE:
        raise ValueError(f"{name} must lie strictly between -2**62 and 2**62, got {number}")
    return number


def _check_pair(name: str, value: object, what: str) -> Tuple[object, object]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) and not isinstance(value, np.ndarray):
        raise TypeError(f"{name} must be a pair {what}, got {value!r}")
    items = list(value)
    if len(items) != 2:
        raise TypeError(f"{name} must be a pair {what}, got {value!r}")
    return items[0], items[1]


def _words(n: int) -> Tuple[int, int]:
    """An int as two 32-bit words of its zigzag code (0, -1, 1, -2, ... → 0, 1, 2, 3, ...)."""
    z = 2 * n if n >= 0 else -2 * n - 1
    return (z & 0xFFFFFFFF, z >> 32)


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


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
        cw, ch = _check_pair("chunk", chunk, "(width, height) of ints, in cells")
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
        self._generator: GeneratorInfo = generator
        self._layout = Layout(width, height, corridor=corridor, wall=wall)
        self._span = (width * pitch, height * pitch)
        self._cache: "OrderedDict[Chunk, NDArray[np.uint8]]" = OrderedDict()
        self._maxsize = cache
        self._hits = self._misses = 0
        self._things: "OrderedDict[Chunk, Tuple[Thing, ...]]" = OrderedDict()
        self.spawn: Tile = self._layout.cell_tile((0, 0))
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
        return self._layout

    def chunk_of(self, tile: Tuple[int, int]) -> Chunk:
        """The chunk ``(i, j)`` that holds tile ``(x, y)``.

        >>> World("kruskal", seed=1, chunk=(8, 8)).chunk_of((-1, 16))
        (-1, 1)
        """
        x, y = _check_pair("tile", tile, "(x, y) of ints")
        x = _check_coordinate("tile x", x)
        y = _check_coordinate("tile y", y)
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
        from .formats.rebuild import level_from_tiles

        if not isinstance(open_edges, bool):
            raise TypeError(f"open_edges must be True or False, not {type(open_edges).__name__}")
        window = self.cell_window(x0, y0, x1, y1)
        self._check_window(*window)
        tiles = self.tiles(*window)
        if not open_edges:
            wall = self.wall
            tiles[:wall, :] = tiles[-wall:, :] = WALL
            tiles[:, :wall] = tiles[:, -wall:] = WALL
        level = level_from_tiles(
            tiles,
            corridor=self.corridor,
            wall=self.wall,
            algorithm=self.algorithm,
            seed=self.seed,
            options=self._recorded(window, open_edges),
            source=f"world window {window}",
            unmarked_openings=open_edges,
        )
        if self.treasure or self.place:
            # The window's things, in level tiles, numbered 1, 2, ... in the order things() gives.
            wx, wy = window[0], window[1]
            level.things = tuple(
                Thing(t.kind, t.x - wx, t.y - wy, k, {**t.props, "chunk_id": t.id})
                for k, t in enumerate(self.things(*window), start=1)
            )
        return level

    def _recorded(self, window: Tuple[int, int, int, int], open_edges: bool) -> Dict[str, Any]:
        """The options a window's Level records: what it takes to make it again."""
        world: Dict[str, Any] = {"chunk": list(self.chunk), "window": list(window)}
        if open_edges:
            world["open_edges"] = True
        if self.treasure:
            world["treasure"] = self.treasure
        if self.place:
            world["place"] = [p.as_dict() for p in self.place]
        if self.perfect:
            world["perfect"] = True
        else:
            world["openings"] = list(self.openings)
        recorded: Dict[str, Any] = {"world": world, **self.options}
        if self.braid > 0:
            recorded["braid"] = self.braid
        if self.corridor != 1:
            recorded["corridor"] = self.corridor
        if self.wall != 1:
            recorded["wall"] = self.wall
        return recorded

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
        if things is not None:
            self._things.move_to_end(chunk)
            return things
        things = self._furnish(*chunk)
        self._things[chunk] = things
        if len(self._things) > self._maxsize:
            self._things.popitem(last=False)
        return things

    def _furnish(self, i: int, j: int) -> Tuple[Thing, ...]:
        """Place the chunk's content with :func:`mazeplugin.content.furnish`, from the chunk's content seed.

        The chunk is seen as a level of its own cells, with every opening
        in its four walls (the east and south ones come from its neighbours'
        borders, drawn without generating them), so its dead ends are the
        world's. The content seed is the first two words of the chunk's
        content stream, ``keyed(seed, (6, 4, *i, *j))``, as one 128-bit int.
        """
        from .formats.rebuild import level_from_tiles

        sw, sh = self._span
        wall, pitch, corridor = self.wall, self.corridor + self.wall, self.corridor
        tiles = np.ones((sh + wall, sw + wall), dtype=np.uint8)
        tiles[:sh, :sw] = self._chunk((i, j))
        for r in self._borders(i + 1, j)[0]:
            tiles[r * pitch + wall : r * pitch + wall + corridor, sw:] = FLOOR
        for c in self._borders(i, j + 1)[1]:
            tiles[sh:, c * pitch + wall : c * pitch + wall + corridor] = FLOOR
        level = level_from_tiles(
            tiles, corridor=corridor, wall=wall, unmarked_openings=True, source=f"chunk {(i, j)}"
        )
        words = self._rng(_CONTENT, i, j).raw(2).tolist()
        try:
            rich = furnish(level, treasure=self.treasure, place=self.place, seed=(words[0] << 64) | words[1])
        except ValueError as error:
            raise ValueError(f"chunk {(i, j)} cannot hold the content asked for: {error}") from None
        x, y = i * sw, j * sh
        return tuple(
            Thing(t.kind, t.x + x, t.y + y, t.id, {**t.props, "chunk": (i, j)}) for t in rich.things
        )

    # -- the cache -------------------------------------------------------------

    def cache_info(self) -> CacheInfo:
        """Hits, misses, chunks held and the most it holds."""
        return CacheInfo(self._hits, self._misses, len(self._cache), self._maxsize)

    def cache_clear(self) -> None:
        """Drop every cached chunk (they are made again, identical, when asked for)."""
        self._cache.clear()
        self._things.clear()

    def _chunk(self, chunk: Chunk) -> NDArray[np.uint8]:
        block = self._cache.get(chunk)
        if block is not None:
            self._hits += 1
            self._cache.move_to_end(chunk)
            return block
        self._misses += 1
        block = self._make_chunk(*chunk)
        self._cache[chunk] = block
        if len(self._cache) > self._maxsize:
            self._cache.popitem(last=False)
        return block

    # -- making a chunk --------------------------------------------------------

    def _rng(self, purpose: int, i: int, j: int) -> Random:
        return Random.keyed(self.seed, (WORLD_STREAM, purpose, *_words(i), *_words(j)))

    def _make_chunk(self, i: int, j: int) -> NDArray[np.uint8]:
        width, height = self.chunk
        maze = Maze(width, height)
        self._generator.run(maze, self._rng(_MAZE, i, j), self.options)
        self._check_joined(maze, (i, j))
        if self.braid > 0:  # braiding only opens walls, so the chunk stays joined
            braid_maze(maze, self._rng(_BRAID, i, j), self.braid)
        base = base_tiles(maze)
        west, north = self._borders(i, j)
        base[[2 * r + 1 for r in west], 0] = FLOOR
        base[0, [2 * c + 1 for c in north]] = FLOOR
        sw, sh = self._span
        block = self._layout.expand(base)[:sh, :sw].copy()
        block.flags.writeable = False
        return block

    def _check_joined(self, maze: Maze, chunk: Chunk) -> None:
        """Refuse a chunk whose cells are not all joined: openings into it could lead nowhere.

        A generator registered as perfect promises a spanning tree; taking it
        at its word but checking that it opened exactly ``cells - 1``
        passages (a forest with pockets has fewer) costs microseconds. Other
        generators get a full union-find over the chunk's passages (about a
        millisecond for 32 × 32 cells).
        """
        name = self.algorithm
        if self._generator.perfect and maze.mask.all() and maze.passage_count() == maze.size - 1:
            return
        hint = " (with 'rooms', pass prune=0)" if name == "rooms" else ""
        if not maze.mask.all():
            raise ValueError(
                f"algorithm {name!r} turned cells of chunk {chunk} into solid rock; a world needs every "
                f"cell of every chunk joined, so the openings between chunks always lead somewhere{hint}"
            )
        ids = np.arange(maze.size, dtype=np.int64).reshape(maze.height, maze.width)
        a = np.concatenate([ids[maze.east], ids[maze.south]])
        b = np.concatenate([ids[maze.east] + 1, ids[maze.south] + maze.width])
        sets = DisjointSets(maze.size)
        sets.union_each(a.tolist(), b.tolist())
        if sets.count != 1:
            raise ValueError(
                f"algorithm {name!r} leaves sealed pockets: chunk {chunk} falls apart into {sets.count} "
                "parts; a world needs a generator that joins every cell (a perfect one, e.g. "
                f"'backtracker', 'kruskal', 'prim', 'eller'){hint}"
            )

    # -- borders ---------------------------------------------------------------

    def west_openings(self, chunk: Chunk) -> List[int]:
        """The cell rows (0 to chunk height - 1) where the wall west of ``chunk`` is open, ascending.

        Derived from the seed and the border alone (the wall belongs to
        ``chunk``'s tiles, so the chunk to the west never needs them).
        """
        i, j = self._check_chunk(chunk)
        return self._borders(i, j)[0]

    def north_openings(self, chunk: Chunk) -> List[int]:
        """The cell columns (0 to chunk width - 1) where the wall north of ``chunk`` is open, ascending."""
        i, j = self._check_chunk(chunk)
        return self._borders(i, j)[1]

    def _borders(self, i: int, j: int) -> Tuple[List[int], List[int]]:
        """The openings in chunk ``(i, j)``'s west and north walls: one stream, west drawn first."""
        width, height = self.chunk
        rng = self._rng(_BORDERS, i, j)
        west = rng.permutation(height)[: self.openings[0]]
        north = rng.permutation(width)[: self.openings[1]]
        if self.perfect:
            # One opening, and only on a border between a chunk and its parent.
            joined_west = self._parent(i, j) == (i - 1, j) or self._parent(i - 1, j) == (i, j)
            joined_north = self._parent(i, j) == (i, j - 1) or self._parent(i, j - 1) == (i, j)
            west, north = west[: int(joined_west)], north[: int(joined_north)]
        return sorted(west.tolist()), sorted(north.tolist())

    def parent(self, chunk: Chunk) -> Optional[Chunk]:
        """In a perfect world, the neighbour ``chunk`` opens to (one step closer to ``(0, 0)``); else None.

        Chunk ``(0, 0)`` has none. Off the axes the step is along x or y,
        half and half from the seed; on an axis it is along the axis.

        >>> world = World("kruskal", seed=3, chunk=(4, 4), perfect=True)
        >>> world.parent((0, 0)), world.parent((0, -2)), world.parent((5, 0))
        (None, (0, -1), (4, 0))
        """
        i, j = self._check_chunk(chunk)
        return self._parent(i, j) if self.perfect else None

    def _parent(self, i: int, j: int) -> Optional[Chunk]:
        if i == 0 and j == 0:
            return None
        if j == 0 or (i != 0 and self._rng(_PARENT, i, j).below(2) == 0):
            return (i - _sign(i), j)
        return (i, j - _sign(j))

    # -- checks ----------------------------------------------------------------

    def _check_chunk(self, chunk: object) -> Chunk:
        i, j = _check_pair("chunk", chunk, "(i, j) of ints")
        limit = MAX_COORDINATE // min(self._span) if hasattr(self, "_span") else MAX_COORDINATE
        result = []
        for name, value in (("chunk i", i), ("chunk j", j)):
            number = check_int(name, value, low=None, what="an int (a chunk coordinate)")
            if not -limit <= number <= limit:
                raise ValueError(f"{name} must lie within ±{limit}, got {number}")
            result.append(number)
        return (result[0], result[1])

    def _check_window(self, x0: object, y0: object, x1: object, y1: object) -> Tuple[int, int, int, int]:
        left, top = _check_coordinate("x0", x0), _check_coordinate("y0", y0)
        right, bottom = _check_coordinate("x1", x1), _check_coordinate("y1", y1)
        if right < left:
            raise ValueError(f"x1 must be at least x0 (the window is [x0, x1) × [y0, y1)), got x0={left}, x1={right}")
        if bottom < top:
            raise ValueError(f"y1 must be at least y0 (the window is [x0, x1) × [y0, y1)), got y0={top}, y1={bottom}")
        area = (right - left) * (bottom - top)
        if area > MAX_TILES:
            raise ValueError(
                f"the window [{left}, {right}) × [{top}, {bottom}) is {right - left:,} × {bottom - top:,} = "
                f"{area:,} tiles; at most {MAX_TILES:,} ({MAX_TILES // 2**20} MiB) can be allocated at once"
            )
        return (left, top, right, bottom)


def _recorded_rule(value: Any, shape: LevelShape) -> None:
    """The ``world`` option a window's level records, checked when a level file is loaded."""
    if not isinstance(value, dict):
        raise TypeError("world must be an object with 'chunk' and 'window'")
    known = {"chunk", "window", "openings", "perfect", "open_edges", "treasure", "place"}
    if set(value) - known or "chunk" not in value or "window" not in value:
        raise ValueError(
            "world must hold 'chunk' [width, height], 'window' [x0, y0, x1, y1] and optionally "
            f"'openings', 'perfect', 'open_edges', 'treasure', 'place'; got keys {sorted(value)}"
        )
    if "treasure" in value:
        check_int("world treasure", value["treasure"], low=0)
    if "place" in value:
        if not isinstance(value["place"], list):
            raise TypeError("world place must be a list of Place requests")
        check_request(0, 0, 0, value["place"])
    chunk, window = value["chunk"], value["window"]
    if not isinstance(chunk, list) or len(chunk) != 2:
        raise ValueError(f"world chunk must be [width, height], got {chunk!r}")
    for v in chunk:
        check_int("world chunk size", v, low=1)
    if not isinstance(window, list) or len(window) != 4:
        raise ValueError(f"world window must be [x0, y0, x1, y1], got {window!r}")
    x0, y0, x1, y1 = (_check_coordinate("world window coordinate", v) for v in window)
    pitch = shape.corridor + shape.wall
    if (x1 - x0, y1 - y0) != (shape.width * pitch + shape.wall, shape.height * pitch + shape.wall):
        raise ValueError(f"world window {window} does not have the level's size in tiles")
    for name in ("perfect", "open_edges"):
        if name in value and not isinstance(value[name], bool):
            raise TypeError(f"world {name} must be true or false, got {value[name]!r}")
    if "openings" in value:
        openings = value["openings"]
        if not isinstance(openings, list) or len(openings) != 2:
            raise ValueError(f"world openings must be [west, north] counts, got {openings!r}")
        for v in openings:
            check_int("world openings", v, low=1)


LEVEL_OPTIONS["world"] = _recorded_rule
