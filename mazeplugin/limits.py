"""Upper bounds on every request, and the checks that enforce them before any work.

Every count, size and option mazeplugin accepts has a bound here, checked at
the boundary (``generate``, the loaders, the command line) before memory is
allocated or a loop starts, so no request can run away. The bounds on maze
size come from measured peak working memory (the benchmarks' "Working memory
and limits", ``benchmarks/results/memory.json``): no allowed request needs more
than about 2 GiB.

The argument checks (:func:`check_int`, :func:`check_number`) accept Python
and numpy numbers alike (``np.int64(3)``, ``np.float32(0.5)``), refuse bools,
and raise a ``TypeError``/``ValueError`` that names the argument and says
what is allowed.

>>> check_int("corridor", 3, low=1, high=MAX_CORRIDOR)
3
>>> import numpy as np
>>> check_number("prune", np.float32(0.5), low=0, high=1)
0.5
>>> check_int("corridor", 10**9, low=1, high=MAX_CORRIDOR)
Traceback (most recent call last):
...
ValueError: corridor must be an int from 1 to 64, got 1000000000
"""

from __future__ import annotations

import math
import numbers
from typing import Dict, Optional, Protocol

from .tiles import Layout

__all__ = [
    "MAX_CELLS",
    "MAX_TILES",
    "MAX_CORRIDOR",
    "MAX_WALL",
    "MAX_TILE_PIXELS",
    "MAX_PICTURE_PIXELS",
    "MAX_COUNT",
    "MAX_LEVEL_FILE_BYTES",
    "MAX_MASK_FILE_BYTES",
    "MAX_IMAGE_FILE_BYTES",
    "MAX_OPTIONS_BYTES",
    "MAX_OPTIONS_DEPTH",
    "MAX_SOLVE_STEPS",
    "MAX_SOLVE_TILE_STEPS",
    "MAX_WINDOW_CHUNKS",
    "MAX_WINDOW_CELLS",
    "MAX_DATASET_SHARDS",
    "MAX_MANIFEST_BYTES",
    "DATASET_BYTES_PER_LEVEL",
    "check_dataset_shards",
    "check_dataset_disk",
    "MAX_SPLIT_LEVELS",
    "MAX_UNIQUE_LEVELS",
    "MAX_REQUIRE_CELLS",
    "check_level_count",
    "check_require_work",
    "WORKING_MEMORY",
    "REQUEST_BUDGET",
    "GENERATOR_BYTES_PER_CELL",
    "GENERATOR_BYTES_PER_COLUMN",
    "DEFAULT_BYTES_PER_CELL",
    "STAGE_BYTES_PER_CELL",
    "MASK_BYTES_PER_CELL",
    "BYTES_PER_TILE",
    "max_cells_for",
    "max_width_for",
    "check_int",
    "check_number",
    "check_picture",
    "check_size",
    "MAX_COORDINATE",
    "check_coordinate",
    "check_memory",
    "MemoryFigures",
]

WORKING_MEMORY = 2 << 30
"""The working memory (bytes) the bounds keep every allowed request under: about 2 GiB."""

REQUEST_BUDGET = WORKING_MEMORY - (256 << 20)
"""What one ``generate`` request may use (1.75 GiB): 2 GiB less room for Python, numpy and the process."""

MAX_CELLS = 1 << 24
"""Most cells a maze may have (16,777,216, e.g. 4096 × 4096); most generators allow fewer,
from their measured working memory (:data:`GENERATOR_BYTES_PER_CELL`, :func:`max_cells_for`)."""

GENERATOR_BYTES_PER_CELL: Dict[str, float] = {
    # Peak working memory of mp.generate(name, n, n, seed=1) per cell on the plain path, measured
    # with benchmarks/memory.py (benchmarks/results/memory.json).
    "aldous-broder": 330,
    "backtracker": 145,
    "binary-tree": 16,
    "division": 10,
    "eller": 8,
    "growing-tree": 361,
    "hunt-and-kill": 180,
    "kruskal": 270,
    "prim": 186,
    "prim-simplified": 385,
    "rooms": 380,  # 351 measured at the default attempts; attempts may double the 13 B/cell they take
    "sidewinder": 20,
    "union-find": 301,
    "wilson": 354,
}
"""Peak working memory of each built-in generator, bytes per cell."""

DEFAULT_BYTES_PER_CELL = 400.0
"""What a plugin generator is assumed to need per cell unless it registers ``bytes_per_cell=``."""

GENERATOR_BYTES_PER_COLUMN: Dict[str, float] = {
    "eller": 340,  # row-by-row state is Python lists as wide as the maze: 340 MiB at 1,048,576 × 1
}
"""Working memory that grows with the width alone (row-by-row generators), bytes per column."""

STAGE_BYTES_PER_CELL: Dict[str, float] = {
    "braid": 302,  # degree and neighbour lists over every cell (binary-tree 16 B/cell; with braid=1, 302)
    "farthest": 62,  # two distance maps over the base tiles (binary-tree with markers="farthest")
    "content": 516,  # keys, treasure, enemies or place= (binary-tree 516, backtracker 510 with content)
    "weave": 160,  # crossings: union-find and passage lists over every cell (binary-tree 158 with weave=True)
}
"""Peak working memory per cell of the stages after the generator; a request's estimate takes the largest."""

MASK_BYTES_PER_CELL = 110.0
"""Extra working memory per cell of a request with a mask or ``rooms=``."""

BYTES_PER_TILE = 1.2
"""Working memory per tile of the tilemap."""


def max_cells_for(bytes_per_cell: float) -> int:
    """The most cells a request needing ``bytes_per_cell`` may have: :data:`REQUEST_BUDGET` / it, at most :data:`MAX_CELLS`.

    >>> max_cells_for(16) == MAX_CELLS, max_cells_for(400)
    (True, 4697620)
    """
    return int(min(MAX_CELLS, REQUEST_BUDGET // max(bytes_per_cell, 1.0)))


def max_width_for(bytes_per_column: float) -> Optional[int]:
    """The widest maze for a generator whose memory grows by ``bytes_per_column``; None if it does not."""
    if bytes_per_column <= 0:
        return None
    return int(min(MAX_CELLS, REQUEST_BUDGET // bytes_per_column))

GRID_BYTES_PER_CELL = 850.0
"""Working memory per cell of a hex, triangle or polar maze (the grid's arrays and the generators' lists),
the largest any grid generator needs (``benchmarks/bench_grids.py``)."""

MAX_GRID_CELLS = max_cells_for(GRID_BYTES_PER_CELL)
"""Most cells a hex, triangle or polar maze may have."""

MAX_TILES = 1 << 28
"""Most tiles a tilemap may have (268,435,456: 256 MiB of uint8)."""

MAX_CORRIDOR = 64
"""Widest passage, in tiles (``corridor=``)."""

MAX_WALL = 64
"""Thickest wall, in tiles (``wall=``)."""

MAX_TILE_PIXELS = 4096
"""Most pixels per tile in a picture or a Tiled map (``tile=``, ``--tile``)."""

MAX_PICTURE_PIXELS = 1 << 26
"""Most pixels a PNG picture may have (67,108,864, e.g. 8192 × 8192: 256 MiB as RGBA)."""

MAX_COUNT = 1_000_000
"""Most levels one ``batch`` writes and most seeds one ``stats`` run measures."""

MAX_LEVEL_FILE_BYTES = 4 * MAX_TILES + (1 << 20)
"""Largest level file (JSON, TMX, TMJ) a loader reads: about a byte per tile plus punctuation."""

MAX_MASK_FILE_BYTES = 8 * MAX_CELLS
"""Largest ``.txt`` mask file read (a few bytes per cell: UTF-8 characters and line ends)."""

MAX_IMAGE_FILE_BYTES = 64 << 20
"""Largest picture file read as a mask (64 MiB)."""

MAX_OPTIONS_BYTES = 1 << 16
"""Largest recorded options a level file may hold (as JSON, not counting a ``mask``): 64 KiB."""

MAX_OPTIONS_DEPTH = 8
"""Deepest nesting of lists and objects inside a level file's options."""

MAX_SOLVE_STEPS = 1 << 21
"""Most steps the key-aware solver (``level.solution()``) may take over its states *(key just
picked up, keys held)*, one per state and key: 2,097,152. Counted before searching, on the graph
of the rooms between doors; a level whose keys can be picked up in more orders (say 15 keys all
before the first of 15 doors in series) is refused with a ``ValueError``. A state is a few
hundred bytes, so the search stays under about 100 MiB besides one distance map."""

MAX_SOLVE_TILE_STEPS = 1 << 28
"""Most tile steps the key-aware solver's breadth-first searches may take in all (268,435,456,
about 256 searches of a 1001 × 1001 level), counted before searching; one search per key and
one more is always allowed, which is all a generated level needs."""

MAX_WINDOW_CHUNKS = 1 << 12
"""Most chunks one request to an endless world (``World.tiles``, ``level``, ``things``) may touch:
4,096, counted before any is made (tiny chunks are made at 1,000 to 8,000 a second)."""

MAX_WINDOW_CELLS = 1 << 22
"""Most maze cells the chunks one request to an endless world touches may hold in all: 4,194,304
(64 × 64 default chunks of 32 × 32 cells, made at about 2 million cells a second)."""

MAX_DATASET_SHARDS = 100_000
"""Most shards one dataset may have, all entries together (``count / shard_size`` rounded up, summed).
The manifest holds a record of about 200 bytes a shard, so at this bound it stays near 30 MiB,
well inside :data:`MAX_MANIFEST_BYTES`: every dataset that can be built can be read and resumed."""

MAX_MANIFEST_BYTES = 64 << 20
"""Largest dataset ``manifest.json`` read (64 MiB)."""

MAX_SPLIT_LEVELS = 1_000_000
"""Most levels one :meth:`mazeplugin.gym.SeedSplit.test_seeds` or :func:`mazeplugin.gym.duplicate_rate` call
makes (training and test seeds together), counted before the first is made: at about 5,000 small levels a
second, a few minutes at most (:func:`check_level_count`)."""

MAX_REQUIRE_CELLS = 1 << 24
"""Most maze cells one ``generate(..., require=...)`` search may make in all, ``attempts × width × height``
(16,777,216: the default 200 attempts up to 289 × 289 cells, 10,000 attempts up to 40 × 40), checked
before the first candidate (:func:`check_require_work`). At about 2 million cells a second with
``stats()``, under about 10 s. Without ``attempts=`` the search tries ``min(200, what fits)`` candidates."""

MAX_UNIQUE_LEVELS = 10_000_000
"""Most levels a ``unique=True`` dataset build may hold: it keeps every level's 32-byte digest in memory
(about 100 bytes a level with the set that finds repeats: 1 GiB at this bound), checked before any work."""

DATASET_BYTES_PER_LEVEL = 32
"""Fewest bytes a level takes in a dataset shard: its 32-byte digest, which no compression
shrinks. A build whose levels cannot fit in the free space of its folder's disk at this rate
is refused before any work (:func:`check_dataset_disk`); the real figure is larger
(a 9 × 9 backtracker level takes about 60 bytes in ``.npz``)."""


def check_int(
    name: str, value: object, *, low: Optional[int], high: Optional[int] = None, what: str = "an int"
) -> int:
    """``value`` as an int in ``low..high`` (any Python or numpy integer; not a bool), or a clear error.

    ``low=None`` leaves the lower end open; ``what`` is how the type error
    describes the value (``"an int (a tile coordinate)"``, say).

    >>> check_int("count", "3", low=1)
    Traceback (most recent call last):
    ...
    TypeError: count must be an int, not str
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be {what}, not {type(value).__name__}")
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        if low is None:
            allowed = f"at most {high:,}"
        else:
            allowed = f"an int from {low:,} to {high:,}" if high is not None else f"at least {low:,}"
        raise ValueError(f"{name} must be {allowed}, got {number}")
    return number


def check_picture(rows: int, columns: int, tile: int, *, name: str = "tile") -> None:
    """Refuse, before drawing, a picture of ``rows`` × ``columns`` tiles of ``tile`` pixels over
    :data:`MAX_PICTURE_PIXELS` (a PNG, a pygame frame, an environment's frame), naming ``name``.

    >>> check_picture(200, 200, 300)
    Traceback (most recent call last):
    ...
    ValueError: tile=300 makes a picture of 60,000 x 60,000 pixels, more than 67,108,864 (200 x 200 tiles): use a smaller tile (at most 40 here)
    """
    if rows * tile * columns * tile > MAX_PICTURE_PIXELS:
        most = max(1, int((MAX_PICTURE_PIXELS / (rows * columns)) ** 0.5))
        raise ValueError(f"{name}={tile} makes a picture of {columns * tile:,} x {rows * tile:,} pixels, more than "
                         f"{MAX_PICTURE_PIXELS:,} ({columns} x {rows} tiles): use a smaller {name} (at most {most} here)")


def check_number(name: str, value: object, *, low: float, high: float) -> float:
    """``value`` as a float in ``low..high`` (any Python or numpy real; not a bool, not NaN)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number from {low:g} to {high:g}, not {type(value).__name__}")
    number = float(value)
    if math.isnan(number) or not low <= number <= high:
        raise ValueError(f"{name} must be a number from {low:g} to {high:g}, got {value!r}")
    return number


class MemoryFigures(Protocol):
    """What :func:`check_memory` reads of a generator (``mazeplugin.registry.GeneratorInfo`` has it)."""

    @property
    def name(self) -> str: ...

    @property
    def bytes_per_cell(self) -> float: ...

    @property
    def bytes_per_column(self) -> float: ...


def check_size(width: object, height: object, corridor: object = 1, wall: object = 1) -> Layout:
    """The layout for a size, or a ``TypeError``/``ValueError`` naming the argument (see :mod:`mazeplugin.limits`)."""
    width = check_int("width", width, low=1)
    height = check_int("height", height, low=1)
    corridor = check_int("corridor", corridor, low=1, high=MAX_CORRIDOR)
    wall = check_int("wall", wall, low=1, high=MAX_WALL)
    if width * height > MAX_CELLS:
        raise ValueError(
            f"width × height = {width} × {height} = {width * height:,} cells is too large: "
            f"at most {MAX_CELLS:,} cells (e.g. 4096 × 4096)"
        )
    layout = Layout(width, height, corridor=corridor, wall=wall)
    rows, columns = layout.shape
    if rows * columns > MAX_TILES:
        raise ValueError(
            f"with corridor={corridor} and wall={wall}, the tilemap would be {columns:,} × {rows:,} = "
            f"{rows * columns:,} tiles ({rows * columns / 2**20:,.0f} MiB) for {width} × {height} cells; "
            f"at most {MAX_TILES:,} tiles ({MAX_TILES // 2**20} MiB) are allowed: "
            "lower corridor, wall or the size"
        )
    return layout


def check_memory(generator: MemoryFigures, layout: Layout, *, braid: bool = False, mask: bool = False,
                  farthest: bool = False, content: bool = False, weave: bool = False) -> None:
    """Refuse a request whose estimated working memory exceeds ``REQUEST_BUDGET``, before any work.

    Per cell, the estimate takes the largest peak of the request's stages (the
    generator's bytes per cell, weaving, braiding, farthest markers, placing
    content), plus what a mask or rooms add; then what grows with the width
    (row-by-row generators) and what the tilemap takes per tile.
    """
    stages = [(generator.bytes_per_cell, f"{generator.bytes_per_cell:.0f} for {generator.name}")]
    for used, name, label in ((braid, "braid", "braid"), (farthest, "farthest", "markers='farthest'"),
                              (content, "content", "content"), (weave, "weave", "weave")):
        if used:
            stages.append((STAGE_BYTES_PER_CELL[name], f"{STAGE_BYTES_PER_CELL[name]:.0f} while placing {label}"
                           if name == "content" else f"{STAGE_BYTES_PER_CELL[name]:.0f} with {label}"))
    per_cell, why = max(stages)
    if mask:
        per_cell += MASK_BYTES_PER_CELL
        why += f", + {MASK_BYTES_PER_CELL:.0f} with a mask or rooms"
    cells = layout.width * layout.height
    rows, columns = layout.shape
    need = cells * per_cell + layout.width * generator.bytes_per_column + rows * columns * BYTES_PER_TILE
    if need <= REQUEST_BUDGET:
        return
    pitch = layout.corridor + layout.wall
    most = max_cells_for(per_cell + pitch * pitch * BYTES_PER_TILE)  # about pitch² tiles per cell
    side = int(most ** 0.5)
    detail = f"{per_cell:.0f} bytes per cell ({why})"
    if generator.bytes_per_column and layout.width * generator.bytes_per_column > REQUEST_BUDGET / 2:
        detail += f" and {generator.bytes_per_column:.0f} per column of width"
    raise ValueError(
        f"width × height = {layout.width} × {layout.height} would need about {need / 2**30:.1f} GiB of working "
        f"memory ({detail}); at most {REQUEST_BUDGET / 2**30:.2f} GiB is allowed: at most about {most:,} cells "
        f"(e.g. {side} × {side}) for {generator.name!r} with these options"
    )


MAX_COORDINATE = 1 << 62
"""Tile coordinates must lie in ``(-MAX_COORDINATE, MAX_COORDINATE)``."""


def check_coordinate(name: str, value: object) -> int:
    """A tile coordinate as an int strictly inside ``±MAX_COORDINATE``, or a clear error."""
    number = check_int(name, value, low=None, what="an int (a tile coordinate)")
    if not -MAX_COORDINATE < number < MAX_COORDINATE:
        raise ValueError(f"{name} must lie strictly between -2**62 and 2**62, got {number}")
    return number


def check_dataset_shards(shards: int, levels: int, most_per_shard: int) -> None:
    """Refuse a dataset of more than :data:`MAX_DATASET_SHARDS` shards, saying what shard size would do.

    ``levels`` is the dataset's level count, ``most_per_shard`` the largest ``shard_size`` allowed.

    >>> check_dataset_shards(400_000, 400_000, 1_000_000)
    Traceback (most recent call last):
    ...
    ValueError: the dataset would have 400,000 shards; at most 100,000 are allowed (its manifest must stay readable): give shard_size at least 4
    """
    if shards <= MAX_DATASET_SHARDS:
        return
    least = -(-levels // MAX_DATASET_SHARDS)
    hint = (f"give shard_size at least {least:,}" if least <= most_per_shard
            else f"at most {MAX_DATASET_SHARDS * most_per_shard:,} levels fit, at {most_per_shard:,} a shard")
    raise ValueError(f"the dataset would have {shards:,} shards; at most {MAX_DATASET_SHARDS:,} are allowed "
                     f"(its manifest must stay readable): {hint}")


def check_dataset_disk(levels: int, free: int, where: str) -> None:
    """Refuse ``levels`` more levels when even :data:`DATASET_BYTES_PER_LEVEL` each is more than ``free`` bytes.

    >>> check_dataset_disk(2**40, 10**12, "levels/")
    Traceback (most recent call last):
    ...
    ValueError: levels/: 1,099,511,627,776 levels need at least 35.2 TB of disk (32 bytes a level at the very least); 1.0 TB free there
    """
    need = levels * DATASET_BYTES_PER_LEVEL
    if need > free:
        raise ValueError(f"{where}: {levels:,} levels need at least {_bytes(need)} of disk "
                         f"({DATASET_BYTES_PER_LEVEL} bytes a level at the very least); {_bytes(free)} "
                         "free there")


def _bytes(count: int) -> str:
    """A byte count for a person: ``'1.5 GB'``."""
    for unit, size in (("TB", 10**12), ("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if count >= size:
            return f"{count / size:,.1f} {unit}"
    return f"{count} bytes"


def check_level_count(name: str, count: int) -> None:
    """Refuse a request to make more than :data:`MAX_SPLIT_LEVELS` levels (``count``; ``name`` says which).

    >>> check_level_count("train and test", 10**9)
    Traceback (most recent call last):
    ...
    ValueError: train and test hold 1,000,000,000 seeds: at most 1,000,000 levels are made by one call (a level per seed); split the seeds into smaller ranges
    """
    if count > MAX_SPLIT_LEVELS:
        raise ValueError(f"{name} hold {count:,} seeds: at most {MAX_SPLIT_LEVELS:,} levels are made by one call "
                         "(a level per seed); split the seeds into smaller ranges")


def check_require_work(attempts: Optional[int], cells: int, default: int) -> int:
    """The candidates a ``require=`` search at ``cells`` cells tries: ``attempts``, or refused when they would make
    more than :data:`MAX_REQUIRE_CELLS` cells; without ``attempts`` (None), ``default`` or fewer, at least one.

    >>> check_require_work(None, 100 * 100, 200), check_require_work(None, 1000 * 1000, 200)
    (200, 16)
    >>> check_require_work(10_000, 100 * 100, 200)
    Traceback (most recent call last):
    ...
    ValueError: attempts=10,000 candidates of 10,000 cells would make 100,000,000 cells; at most 16,777,216 are made by one require= search: at most 1,677 attempts at this size
    """
    most = max(1, MAX_REQUIRE_CELLS // max(cells, 1))
    if attempts is None:
        return min(default, most)
    if attempts * cells > MAX_REQUIRE_CELLS and attempts > 1:
        raise ValueError(f"attempts={attempts:,} candidates of {cells:,} cells would make {attempts * cells:,} cells; "
                         f"at most {MAX_REQUIRE_CELLS:,} are made by one require= search: at most {most:,} attempts "
                         "at this size")
    return attempts
