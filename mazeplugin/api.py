"""``generate``, ``stream`` and ``level_from_code``: options → generator → passages → level.

``generate`` checks its arguments and runs the stages of :mod:`mazeplugin.pipeline`.

>>> import mazeplugin as mp
>>> level = mp.generate("backtracker", 3, 2, seed="castle")
>>> print(level)
#######
S #   #
# # # #
#   # E
#######
>>> rows = list(mp.stream("eller", width=3, height=2, seed=1))
>>> len(rows), rows[0].tolist()
(5, [1, 1, 1, 1, 1, 1, 1])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Mapping, Optional, Sequence, Tuple, Union, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import pipeline
from .content.things import Place
from .level import Level
from .limits import MAX_CELLS, MAX_TILES, check_int, check_memory, check_size
from .registry import generator_infos, get_generator
from .seeds import Random, Seed, resolve_seed

if TYPE_CHECKING:  # pragma: no cover - types only
    from .level_protocol import AnyLevel

__all__ = ["generate", "stream", "level_from_code", "grid_level_from_code", "MAX_CELLS", "MAX_TILES"]


def generate(
    algorithm: str,
    width: int,
    height: int,
    *,
    seed: Optional[Seed] = None,
    markers: Any = "border",
    corridor: int = 1,
    wall: int = 1,
    braid: float = 0.0,
    mask: Any = None,
    rooms: Any = None,
    doors: Any = 1,
    keys: int = 0,
    treasure: int = 0,
    enemies: int = 0,
    place: Sequence[Place] = (),
    require: Optional[Mapping[str, Any]] = None,
    grid: str = "square",
    wrap: Optional[str] = None,
    weave: Union[bool, float] = False,
    **options: Any,
) -> Level:
    """Generate a maze level.

    Args:
        algorithm: a registered generator name (see :func:`algorithms`).
        width, height: size in cells; the tilemap is
            ``(height * (corridor + wall) + wall, width * (corridor + wall) + wall)``,
            ``(2*height + 1, 2*width + 1)`` by default.
        seed: an int ≥ 0 or a str level code; None draws a fresh one (kept
            on ``level.seed``). The same algorithm, size, seed and options
            give the same level on every machine.
        markers: ``"border"``, ``"farthest"``, ``"random"``, ``"none"``, or
            two ``(x, y)`` tiles; see :mod:`mazeplugin.markers`.
        corridor, wall: passage width and wall thickness in tiles.
        braid: the fraction (0 to 1) of dead ends to remove by opening a
            wall, so the level gets loops; 1 leaves none. See
            :func:`mazeplugin.shaping.braid`.
        mask: where the maze may go: a bool ``(height, width)`` array, a
            list of strings (``' '`` or ``'.'`` = outside) or an image path;
            see :func:`mazeplugin.shaping.parse_mask`. Cells outside are
            solid wall; each connected part becomes its own maze, and the
            entrance and exit must lie in one part.
        rooms: open rooms in the maze: a count of random rooms (sides
            from ``room_size=(3, 6)`` cells), or a list of ``(x, y, w, h)``
            rectangles in cells and :class:`mazeplugin.Prefab` rooms. The
            generator fills the cells between them; each room gets a door
            and the level stays one piece. See :mod:`mazeplugin.rooms`.
        doors: doors per room (an int, default 1), or the chance (a float)
            that each other possible door opens.
        keys, treasure, enemies, place: level content (locked doors with
            their keys, treasure, patrolling enemies, a game's own kinds as
            :class:`~mazeplugin.content.Place` requests), drawn from the
            seed's own content stream, so the tiles are those of the same
            level without content; see :func:`mazeplugin.content.furnish`.
        require: ``{stats field: (low, high)}`` (None for an open end): the
            level returned is the first of up to ``attempts`` candidates
            (keyword, default 200, at most 10,000), made from seeds derived
            from ``seed``, whose ``stats()`` meet every bound; its
            ``level.seed`` is that derived seed. See :mod:`mazeplugin.difficulty`.
            Only together with ``require`` is ``attempts`` this; otherwise
            it is a generator option (the ``rooms`` generator has one).
            ``progress`` (keyword, with ``require`` only) is called as
            ``progress(tried, attempts)`` after each candidate, to show how
            far a long search is; the error when none passes says how many
            were tried and for how long.
        grid: ``"square"`` (the tilemap levels above), ``"hex"``,
            ``"triangle"`` or ``"polar"``: a level on that grid
            made by one of the neighbour-only generators (see
            :mod:`mazeplugin.grids`). A hex level has a tilemap and, as a
            square one, its ``entrance``, ``exit`` and ``solution()`` in
            tiles ``(x, y)``; triangle and polar levels answer in cells (every
            level also by cell: ``entrance_cell``, ``solution_cells()``).
            For ``"polar"``, ``width`` is the number
            of cells in the innermost ring and ``height`` the number of rings.
            Non-square grids take ``markers`` ``"border"`` or ``"none"``,
            ``braid``, content (``keys``, ``treasure``, ``enemies``, ``place``:
            things on cells, doors on passages, see
            :mod:`mazeplugin.content.placing`), and none of the square-only
            options (corridor, wall, mask, rooms, doors).
        wrap: None, or ``"x"``, ``"y"``, ``"xy"`` (square grid only): a
            cylinder or torus, where a passage leaving one edge arrives at
            the other; a level with a
            square tilemap open on both edges of each wrap passage (its places
            are tiles, as on every level with tiles), made by the
            neighbour-only generators.
        weave: False, True, or a number from 0 to 1 (square grid only):
            passages that cross under others where the crossing is straight,
            as in Buck's weave mazes; a float is the share of candidate
            crossings taken (True: all that fit). The level gets
            ``level.bridges`` (its second layer); ``solution()``,
            ``distances()`` and ``stats()`` go under the bridges; a perfect
            generator's level stays perfect; keys, treasure, enemies and
            ``place`` are placed and proved over and under them. See
            :mod:`mazeplugin.weave`.
        **options: the generator's own options (see ``GeneratorInfo.options``).

    Every argument is checked before any work is done.

    >>> import mazeplugin as mp
    >>> level = mp.generate("kruskal", width=20, height=15, seed=7)
    >>> level.tiles.shape
    (31, 41)
    >>> mp.generate("prim", 20, 15, seed=7).tiles.shape == level.tiles.shape
    True
    >>> mp.generate("wilson", 20, 15, seed=7, braid=1).stats().dead_ends
    0
    >>> print(mp.generate("backtracker", 5, 3, seed=7, mask=["#####", "##.##", "#####"]))
    ###########
    S #       #
    # ####### #
    #   ###   #
    ### ### # #
    #       # E
    ###########
    >>> hard = mp.generate("backtracker", 30, 20, seed=7, require={"decision_points": (25, None)})
    >>> hard.stats().decision_points >= 25, hard.seed != 7
    (True, True)
    """
    if algorithm == "dungeon":  # a mission laid out in width x height cells (mazeplugin.dungeon, through the seam)
        from . import seam

        refused = {name: value for name, value, default in (
            ("markers", markers, "border"), ("corridor", corridor, 1), ("wall", wall, 1), ("braid", braid, 0),
            ("doors", doors, 1), ("keys", keys, 0), ("treasure", treasure, 0), ("enemies", enemies, 0),
            ("grid", grid, "square")) if not (type(value) is type(default) and value == default)
            and not (isinstance(default, int) and isinstance(value, (int, float)) and not isinstance(value, bool)
                     and value == default)}
        refused.update({name: value for name, value in (("mask", mask), ("require", require), ("wrap", wrap))
                        if value is not None})
        if place:
            refused["place"] = place
        if weave is not False:
            refused["weave"] = weave
        dungeon: Level = seam.dungeons().generate_dungeon(width, height, seed, rooms, refused, **options)
        return dungeon
    progress = options.pop("progress", None)
    if progress is not None:
        if require is None:
            raise ValueError("progress= reports on a require= search; give require= with it")
        if not callable(progress):
            raise TypeError(f"progress must be callable as progress(tried, attempts), not {type(progress).__name__}")
    if require is not None:
        from . import difficulty

        require = difficulty.check_require(require)
        attempts = difficulty.search_attempts(options.pop("attempts", None), width, height)
        difficulty.check_markers(require, markers)
    build = pipeline.Build.checked(algorithm, width, height, seed=seed, markers=markers, corridor=corridor, wall=wall,
                                   braid=braid, mask=mask, rooms=rooms, doors=doors, keys=keys, treasure=treasure,
                                   enemies=enemies, place=place, grid=grid, wrap=wrap, weave=weave,
                                   **options)  # every argument checked first, once
    if require is None:
        return pipeline.run(build)  # place_rooms → plan_markers → carve → weave → braid → openings → level → furnish
    return difficulty.choose(lambda candidate: pipeline.run(build.reseeded(candidate)), build.seed, require, attempts,
                             progress=progress, unfit=True)


def stream(
    algorithm: str,
    width: int,
    height: Optional[int] = None,
    *,
    seed: Optional[Seed] = None,
    **options: Any,
) -> Iterator[NDArray[np.uint8]]:
    """Yield a maze's tilemap one tile row at a time, endlessly when ``height`` is None.

    Only row-by-row generators (``eller``) can stream; memory stays
    O(width) however many rows are taken. With a ``height``, the stacked rows
    equal ``generate(algorithm, width, height, seed=seed, markers="none").tiles``.

    Each row is a new uint8 array of length ``2 * width + 1``.

    >>> import itertools, mazeplugin as mp
    >>> rows = mp.stream("eller", width=64, seed=7)
    >>> [row.shape for row in itertools.islice(rows, 3)]
    [(129,), (129,), (129,)]
    """
    generator = get_generator(algorithm)
    if generator.rows is None:
        streamable = ", ".join(g.name for g in generator_infos() if g.rows is not None)
        raise ValueError(
            f"algorithm {algorithm!r} cannot stream: it needs the whole maze at once; "
            f"row-by-row algorithms: {streamable}"
        )
    if height is None:
        check_int("width", width, low=1)
        check_memory(generator, check_size(width, 1))
    else:
        check_size(width, height)
        check_memory(generator, check_size(width, 1))  # one row at a time
    generator.check_options(options, int(width), None if height is None else int(height))
    seed = resolve_seed(seed)
    rng = Random.streams(seed, 2)[pipeline.MAZE_STREAM]
    return _tile_rows(generator.rows(int(width), rng, height, **options), int(width))


def _tile_rows(rows: Iterator[Tuple[ArrayLike, ArrayLike]], width: int) -> Iterator[NDArray[np.uint8]]:
    yield np.ones(2 * width + 1, dtype=np.uint8)
    for east, south in rows:
        cells = np.ones(2 * width + 1, dtype=np.uint8)
        cells[1::2] = 0
        cells[2::2] = ~np.asarray(east, dtype=bool)
        below = np.ones(2 * width + 1, dtype=np.uint8)
        below[1::2] = ~np.asarray(south, dtype=bool)
        yield cells
        yield below


def level_from_code(text: str) -> "AnyLevel":
    """The level a code names, on any grid, content included: ``generate`` with what
    :func:`~mazeplugin.codes.parse_level_code` reads (see :mod:`mazeplugin.codes`), byte for byte the level
    :func:`~mazeplugin.codes.level_code` was taken from.

    >>> import mazeplugin as mp
    >>> level_from_code("kruskal-12x9-42+t3").things[0].kind
    'treasure'
    >>> int(level_from_code("wilson-24x18-5+r4k1").maze.rooms.max())
    4
    >>> [level_from_code(code).grid for code in ("wilson-hex12x8-7", "wilson-12x8-7+wrapxy")]
    ['hex', 'square']
    """
    from .codes import parse_level_code

    code = parse_level_code(text)
    algorithm, width, height, seed = code
    if algorithm == "dungeon" or algorithm.startswith("dungeon-"):  # dungeon-PATTERN-WxH-seed+rNkM
        from . import seam

        dungeon: Level = seam.dungeons().dungeon_from_code(code)
        return dungeon
    level: AnyLevel = generate(algorithm, width, height, seed=seed, grid=code.grid, **code.content)
    return level


def grid_level_from_code(text: str) -> Level:
    """Deprecated: :func:`level_from_code` (``mp.level_from_code``), which reads every code."""
    from . import seam

    seam.deprecated("mp.grid_level_from_code(text)", "mp.level_from_code(text)")
    level = level_from_code(text)
    if level.kind == "square":
        raise ValueError(f"level code {text.strip()!r} names a square level; read it with mp.level_from_code")
    return cast(Level, level)
