"""Making one chunk of an endless world, and the openings that stitch it to its neighbours.

A chunk is a maze of its own, made by a registered generator from the
chunk's own random stream, checked to join every cell, braided if asked,
and drawn as tiles with the openings in its west and north walls cut. The
openings in a wall come from the wall's own stream, so both chunks beside
it agree on them without either being made; in a perfect world only the
wall between a chunk and its parent (one step closer to chunk ``(0, 0)``)
opens, once.

>>> from mazeplugin.registry import get_generator
>>> recipe = ChunkRecipe(get_generator("kruskal"), {}, name="kruskal", seed=3, chunk=(4, 4),
...                      corridor=1, wall=1, braid=0.0, openings=(1, 1), perfect=True)
>>> recipe.parent(0, -2), recipe.parent(5, 0), recipe.borders(1, 0)
((0, -1), (4, 0), ([2], [2]))
>>> recipe.make(0, 0).shape
(8, 8)
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from ..unionfind import DisjointSets
from ..maze import Maze
from ..registry import GeneratorInfo
from ..seeds import Random, Seed
from ..shaping import braid as braid_maze
from ..tiles import FLOOR, Layout, base_tiles
from .geometry import BORDERS, BRAID, MAZE, PARENT, Chunk, chunk_random

__all__ = ["ChunkRecipe"]


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


class ChunkRecipe:
    """Everything that makes chunk ``(i, j)``'s tiles: the world's settings, already checked."""

    layout: Layout

    def __init__(
        self,
        generator: GeneratorInfo,
        options: Dict[str, Any],
        *,
        name: str,
        seed: Seed,
        chunk: Tuple[int, int],
        corridor: int,
        wall: int,
        braid: float,
        openings: Tuple[int, int],
        perfect: bool,
    ) -> None:
        self.generator = generator
        self.name = name
        self.options = options
        self.seed = seed
        self.chunk = chunk
        self.braid = braid
        self.openings = openings
        self.perfect = perfect
        self.layout = Layout(chunk[0], chunk[1], corridor=corridor, wall=wall)
        pitch = corridor + wall
        self.span: Tuple[int, int] = (chunk[0] * pitch, chunk[1] * pitch)

    def random(self, purpose: int, i: int, j: int) -> Random:
        """Chunk ``(i, j)``'s stream for ``purpose`` (see :func:`~mazeplugin.world.geometry.chunk_random`)."""
        return chunk_random(self.seed, purpose, i, j)

    def make(self, i: int, j: int) -> NDArray[np.uint8]:
        """Chunk ``(i, j)``'s tiles, read-only, :attr:`span` in size."""
        width, height = self.chunk
        maze = Maze(width, height)
        self.generator.run(maze, self.random(MAZE, i, j), self.options)
        self.check_joined(maze, (i, j))
        if self.braid > 0:  # braiding only opens walls, so the chunk stays joined
            braid_maze(maze, self.random(BRAID, i, j), self.braid)
        base = base_tiles(maze)
        west, north = self.borders(i, j)
        base[[2 * r + 1 for r in west], 0] = FLOOR
        base[0, [2 * c + 1 for c in north]] = FLOOR
        sw, sh = self.span
        block = self.layout.expand(base)[:sh, :sw].copy()
        block.flags.writeable = False
        return block

    def check_joined(self, maze: Maze, chunk: Chunk) -> None:
        """Refuse a chunk whose cells are not all joined: openings into it could lead nowhere.

        A generator registered as perfect promises a spanning tree; taking it
        at its word but checking that it opened exactly ``cells - 1``
        passages (a forest with pockets has fewer) costs microseconds. Other
        generators get a full union-find over the chunk's passages (about a
        millisecond for 32 × 32 cells).
        """
        name = self.name
        if self.generator.perfect and maze.mask.all() and maze.passage_count() == maze.size - 1:
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

    # -- the seams between chunks ------------------------------------------------

    def borders(self, i: int, j: int) -> Tuple[List[int], List[int]]:
        """The openings in chunk ``(i, j)``'s west and north walls (cell rows, cell columns): one stream, west drawn first."""
        width, height = self.chunk
        rng = self.random(BORDERS, i, j)
        west = rng.permutation(height)[: self.openings[0]]
        north = rng.permutation(width)[: self.openings[1]]
        if self.perfect:
            # One opening, and only on a border between a chunk and its parent.
            joined_west = self.parent(i, j) == (i - 1, j) or self.parent(i - 1, j) == (i, j)
            joined_north = self.parent(i, j) == (i, j - 1) or self.parent(i, j - 1) == (i, j)
            west, north = west[: int(joined_west)], north[: int(joined_north)]
        return sorted(west.tolist()), sorted(north.tolist())

    def parent(self, i: int, j: int) -> Optional[Chunk]:
        """The neighbour chunk ``(i, j)`` opens to in a perfect world (one step closer to ``(0, 0)``)."""
        if i == 0 and j == 0:
            return None
        if j == 0 or (i != 0 and self.random(PARENT, i, j).below(2) == 0):
            return (i - _sign(i), j)
        return (i, j - _sign(j))
