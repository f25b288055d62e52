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

**The package.** :mod:`~mazeplugin.world.endless` holds :class:`World`
(arguments, geometry, tiles), :mod:`~mazeplugin.world.chunks` makes a chunk
and the openings between chunks, :mod:`~mazeplugin.world.cache` keeps made
chunks (thread-safe), :mod:`~mazeplugin.world.views` turns windows into
levels and places each chunk's things, and :mod:`~mazeplugin.world.geometry`
holds coordinates, their checks and the keyed random streams. One request
may touch at most :data:`~mazeplugin.limits.MAX_WINDOW_CHUNKS` chunks and
:data:`~mazeplugin.limits.MAX_WINDOW_CELLS` cells, refused before any chunk
is made.
"""

from __future__ import annotations

from .cache import CacheInfo
from .endless import World
from .geometry import MAX_CHUNK_CELLS, MAX_CHUNK_TILES, MAX_COORDINATE, WORLD_STREAM, Chunk

__all__ = ["World", "CacheInfo", "Chunk", "WORLD_STREAM", "MAX_CHUNK_CELLS", "MAX_CHUNK_TILES", "MAX_COORDINATE"]
