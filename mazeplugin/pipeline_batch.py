"""Many seeds' levels of one checked request at once: :func:`make_batch`, the batched lane of :mod:`mazeplugin.pipeline`.

A dataset makes thousands of levels of one request that differ only in
their seed. :func:`mazeplugin.pipeline.run` makes them one by one, and at
9 × 9 most of a level's time is per-call work (a ``SeedSequence`` and a
``PCG64`` per stream, a ``Maze``, the validity check, a ``Level``), not
carving. Here the same stages run once per batch where they do not depend
on the seed, and once for the whole batch where they do:

- ``place_rooms``, ``plan_markers``, ``openings``: the pipeline's own stage
  functions, run once (for the requests taken here they draw no random
  numbers, so every seed gets the same plan);
- ``carve``: the maze stream's words of every seed in one loop
  (:func:`mazeplugin.seeds.keyed_words`), then every maze carved in one call
  of the generator's compiled kernel (its ``generate_many``: the same loop as
  its ``generate``, reading the same words);
- ``make_level``: the tiles of the whole batch by the one conversion
  ``Level`` uses (:func:`mazeplugin.tiles.passage_tiles`,
  :func:`~mazeplugin.tiles.open_markers`, ``Layout.expand``) and the options
  a level records (:func:`mazeplugin.pipeline.recorded_options`).

The levels are the ones ``generate`` makes (``tests/test_pipeline_batch.py``
compares them seed by seed). Requests taken (:func:`why_not` says why
another is not): a built-in generator whose compiled kernel has a
``generate_many`` (:data:`BATCH_GENERATORS`: ``backtracker``, ``hunt-and-kill``,
``kruskal``), with the compiled path on,
no generator options, ``markers`` ``"border"``, ``"none"`` or two given tiles,
any ``corridor`` and ``wall``, and no mask, rooms, braid, weave or content, on the square grid without a wrap.

>>> import mazeplugin as mp
>>> from mazeplugin.pipeline import Build
>>> build = Build.checked("backtracker", 5, 4, seed=0)
>>> batch = make_batch(build, [3, 4]) if why_not(build) is None else None
>>> batch is None or batch.tiles[1].tobytes() == mp.generate("backtracker", 5, 4, seed=4).tiles.tobytes()
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from ._compiled import Twin, twin
from .codes import code_of
from .level import Level
from .maze import Maze
from .pipeline import MAZE_STREAM, Build, openings, place_rooms, plan_markers, recorded_options, side_openings
from .seeds import Seed, keyed_words, resolve_seed
from .tiles import Layout, Opening, Tile, open_markers, passage_tiles

__all__ = ["BATCH_GENERATORS", "LevelBatch", "why_not", "make_batch", "WORDS_AT_ONCE"]

WORDS_AT_ONCE = 1 << 20
"""Random words drawn at a time (8 MiB): a shard of 10,000 128 × 128 levels would need 1.3 GB of them at once."""

BATCH_GENERATORS = ("backtracker", "hunt-and-kill", "kruskal")
"""The generators whose compiled kernel carves a batch of mazes in one call (``generate_many``)."""
_BATCH_KERNELS: Dict[str, Twin] = {"backtracker": twin("backtracker"), "hunt-and-kill": twin("hunt-and-kill"),
                                   "kruskal": twin("kruskal")}  # each one's kernel (a literal each: looked up as imports)


@dataclass
class LevelBatch:
    """The levels of one request for several seeds, as arrays (one row a seed).

    ``tiles[i]``, ``east[i]``, ``south[i]`` are ``level.tiles``, ``level.maze.east``
    and ``level.maze.south`` of ``generate(..., seed=seeds[i])``; the markers and
    options are the same for every seed. :meth:`level` makes one as a :class:`~mazeplugin.level.Level`.
    """

    algorithm: str
    layout: Layout
    seeds: List[Seed]
    tiles: NDArray[np.uint8]
    east: NDArray[np.bool_]
    south: NDArray[np.bool_]
    entrance: Optional[Tile]
    exit: Optional[Tile]
    openings: List[Opening]
    start: Tuple[int, int]
    goal: Tuple[int, int]
    options: Dict[str, Any]

    def __len__(self) -> int:
        return len(self.seeds)

    def level(self, index: int) -> Level:
        """The ``index``-th level as the :class:`~mazeplugin.level.Level` ``generate`` makes."""
        maze = Maze(self.layout.width, self.layout.height, start=self.start, goal=self.goal)
        maze.east[:] = self.east[index]
        maze.south[:] = self.south[index]
        return Level(maze, layout=self.layout, entrance=self.entrance, exit=self.exit, openings=self.openings,
                     algorithm=self.algorithm, seed=self.seeds[index], options=self.options)

    def codes(self) -> List[str]:
        """Each level's level code (``mazeplugin.level_code``), or ``""`` where its options have none."""
        try:
            first = code_of(self.algorithm, self.layout.width, self.layout.height, self.seeds[0], self.options)
        except ValueError:
            try:  # the first seed cannot be written in a code (""), or the options cannot, whatever the seed
                code_of(self.algorithm, self.layout.width, self.layout.height, 0, self.options)
            except ValueError:
                return [""] * len(self.seeds)
            first = ""
        if first and all(type(seed) is int for seed in self.seeds) and first.endswith(f"-{self.seeds[0]}"):
            # The codes differ only in the seed written last: the parts before it are checked above.
            prefix = first[:len(first) - len(str(self.seeds[0]))]
            return [prefix + str(seed) for seed in self.seeds]
        codes = []
        for seed in self.seeds:
            try:
                codes.append(code_of(self.algorithm, self.layout.width, self.layout.height, seed, self.options))
            except ValueError:
                codes.append("")
        return codes


def why_not(build: Build) -> Optional[str]:
    """None when :func:`make_batch` takes ``build`` (a checked request), else why it does not."""
    if build.graph:
        return f"grid={build.grid!r}" + (f", wrap={build.wrap!r}" if build.wrap else "") + " (a graph of cells)"
    if build.generator.name not in BATCH_GENERATORS or not build.generator.builtin:
        return f"generator {build.generator.name!r} has no batch kernel (those that do: {', '.join(BATCH_GENERATORS)})"
    if build.options:
        return "generator options"
    markers = build.markers
    if isinstance(markers, str) and markers not in ("border", "none"):
        return f"markers={markers!r} (drawn or found per level)"
    refused = [("mask", build.mask is not None), ("rooms", build.room_spec is not None), ("braid", build.braid > 0),
               ("weave", build.weave > 0), ("content", any(build.content[:3]) or bool(build.content[3]))]
    for name, given in refused:
        if given:
            return name
    if _BATCH_KERNELS[build.generator.name].pick(build.layout.width * build.layout.height) is None:
        return "the compiled path is off or not loaded"
    return None


def make_batch(build: Build, seeds: Sequence[Seed]) -> LevelBatch:
    """The levels ``pipeline.run(build.reseeded(seed))`` makes, for every seed of ``seeds`` at once.

    ``build`` is a checked request that :func:`why_not` takes (``ValueError`` otherwise).
    """
    reason = why_not(build)
    if reason is not None:
        raise ValueError(f"make_batch cannot make this request in a batch: {reason}")
    if not seeds:
        raise ValueError("seeds must hold at least one seed")
    resolved = [resolve_seed(seed) for seed in seeds]
    template = build.reseeded(resolved[0])
    place_rooms(template)  # the pipeline's stages before carving: no random numbers drawn for these requests
    plan_markers(template)
    maze, layout = template.maze, template.layout
    fast = _BATCH_KERNELS[build.generator.name].pick(maze.size)
    if fast is None:  # pragma: no cover - why_not looked it up just now
        raise ValueError("make_batch: the compiled path went off")
    per_maze = fast.words_per_maze(maze.width, maze.height)
    east = np.empty((len(resolved), maze.height, maze.width), dtype=np.bool_)
    south = np.empty_like(east)
    step = max(1, WORDS_AT_ONCE // max(per_maze, 1))  # the words of a few mazes at a time, not of all
    for first in range(0, len(resolved), step):
        words = keyed_words(resolved[first:first + step], MAZE_STREAM, per_maze)
        east[first:first + step], south[first:first + step] = fast.generate_many(words, maze.width, maze.height,
                                                                                 maze.start)
    openings(template)
    markers = side_openings(template.plan)
    tiles = layout.expand(open_markers(passage_tiles(east, south), markers))
    return LevelBatch(build.algorithm, layout, resolved, tiles, east, south, template.entrance, template.exit,
                      markers, maze.start, maze.goal, recorded_options(template))
