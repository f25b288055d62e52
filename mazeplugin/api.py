"""``generate`` and ``stream``: options → generator → passages → level.

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

from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import difficulty
from .content.placing import check_request, furnished
from .content.things import Place
from .level import Level
from .limits import (
    BYTES_PER_TILE,
    MAX_CELLS,
    MAX_CORRIDOR,
    MAX_TILES,
    MAX_WALL,
    MASK_BYTES_PER_CELL,
    STAGE_BYTES_PER_CELL,
    REQUEST_BUDGET,
    check_int,
    max_cells_for,
)
from .markers import farthest_openings, plan_markers
from .maze import Maze
from .registry import GeneratorInfo, get_generator
from .seeds import Random, Seed, resolve_seed
from .shaping import braid as braid_maze
from .shaping import check_braid, mask_parts, parse_mask
from .tiles import Layout

__all__ = ["generate", "stream", "MAX_CELLS", "MAX_TILES"]

# Independent random streams drawn from one seed: adding a use of randomness
# to one never shifts the numbers another sees. (SeedSequence.spawn's children
# do not depend on how many are spawned, so adding a stream keeps the others.)
_MAZE_STREAM, _MARKER_STREAM, _BRAID_STREAM, _CONTENT_STREAM = 0, 1, 2, 3
_STREAM_COUNT = 4
_ROOMS_STREAM = 4  # room placement and doors (issue 11): spawned only when rooms= is given


class _Streams:
    """A seed's random streams, each made when first used: ``streams[k]`` is
    ``Random.streams(seed, n)[k]`` for any ``n > k`` (see ``Random.keyed``).

    Spawning all four streams up front took about 0.1 ms, a sixth of a compiled
    64 × 64 level; most levels use only the maze stream.
    """

    __slots__ = ("_seed", "_made")

    def __init__(self, seed: Seed) -> None:
        self._seed = seed
        self._made: Dict[int, Random] = {}

    def __getitem__(self, index: int) -> Random:
        made = self._made.get(index)
        if made is None:
            made = self._made[index] = Random.keyed(self._seed, (index,))
        return made


def _check_count(name: str, value: object, *, low: int = 1) -> int:
    return check_int(name, value, low=low)


def _check_size(width: object, height: object, corridor: object = 1, wall: object = 1) -> Layout:
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


def _check_memory(generator: GeneratorInfo, layout: Layout, *, braid: bool = False, mask: bool = False,
                  farthest: bool = False, content: bool = False) -> None:
    """Refuse a request whose estimated working memory exceeds ``REQUEST_BUDGET``, before any work.

    Per cell, the estimate takes the largest peak of the request's stages —
    the generator's measured bytes per cell, then braiding, farthest markers
    and placing content, each measured as a whole request with a generator
    that needs almost nothing — plus what a mask or rooms add throughout; then
    what grows with the width (row-by-row generators) and what the tilemap
    takes per tile. See :mod:`mazeplugin.limits` and docs/benchmarks.md,
    "Working memory and limits".
    """
    stages = [(generator.bytes_per_cell, f"{generator.bytes_per_cell:.0f} for {generator.name}")]
    for used, name, label in ((braid, "braid", "braid"), (farthest, "farthest", "markers='farthest'"),
                              (content, "content", "content")):
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
    if require is not None:
        require = difficulty.check_require(require)
        attempts = difficulty.check_attempts(options.pop("attempts", difficulty.DEFAULT_ATTEMPTS))
        difficulty.check_markers(require, markers)
        shared = dict(markers=markers, corridor=corridor, wall=wall, braid=braid, mask=mask, rooms=rooms,
                      doors=doors, keys=keys, treasure=treasure, enemies=enemies, place=place, **options)
        return difficulty.choose(
            lambda candidate: generate(algorithm, width, height, seed=candidate, **shared),
            resolve_seed(seed),
            require,
            attempts,
        )
    generator = get_generator(algorithm)
    layout = _check_size(width, height, corridor, wall)
    room_spec = None
    if rooms is not None or doors != 1 or ("room_size" in options and "room_size" not in generator.options):
        room_spec = _check_rooms(generator, rooms, doors, options)
    generator.check_options(options, layout.width, layout.height)
    braid = check_braid(braid)
    content = check_request(keys, treasure, enemies, place, cells=layout.width * layout.height)
    if mask is not None:
        if not generator.masks:
            raise ValueError(
                f"algorithm {algorithm!r} cannot generate inside a mask; generators that can: "
                + ", ".join(_mask_names())
            )
        mask = parse_mask(mask, layout.width, layout.height)
    seed = resolve_seed(seed)
    # Every argument is checked; the last check before work: would it fit in memory?
    _check_memory(generator, layout, braid=braid > 0, mask=mask is not None or room_spec is not None,
                  farthest=isinstance(markers, str) and markers == "farthest",
                  content=any(content[:3]) or bool(content[3]))
    streams = _Streams(seed)  # indices below _STREAM_COUNT
    maze = Maze(layout.width, layout.height, mask)
    marker_mask = maze.mask
    if room_spec is not None:
        from . import rooms as room_layer

        room_rng = Random.streams(seed, _ROOMS_STREAM + 1)[_ROOMS_STREAM]
        placed = room_layer.place_rooms(room_spec, maze.mask, room_rng)
        marker_mask = maze.mask & ~room_layer.solid_cells(placed, maze.mask.shape)
    plan = plan_markers(markers, layout, marker_mask, lambda: streams[_MARKER_STREAM])
    if plan.entrance is not None and plan.exit is not None:
        if mask is not None:
            _check_same_part(maze.mask, plan.entrance.cell, plan.exit.cell, markers)
        maze.start, maze.goal = plan.entrance.cell, plan.exit.cell
    if room_spec is None:
        generator.run(maze, streams[_MAZE_STREAM], options)
    else:
        room_layer.build(maze, placed, room_rng, room_spec.doors, lambda m: generator.run(m, streams[_MAZE_STREAM], options))
    if braid > 0:
        braid_maze(maze, streams[_BRAID_STREAM], braid)

    entrance_tile, exit_tile = plan.entrance_tile, plan.exit_tile
    openings = [o for o in (plan.entrance, plan.exit) if o is not None and o.side]
    if plan.mode == "farthest":
        first, second = farthest_openings(maze, layout)
        entrance_tile, exit_tile = layout.opening_tile(first), layout.opening_tile(second)
    recorded = dict(options)
    if braid > 0:
        recorded["braid"] = braid
    if mask is not None:
        recorded["mask"] = mask
    if room_spec is not None:
        recorded["rooms"] = room_spec.recorded()
        if doors != 1:
            recorded["doors"] = doors
    if plan.mode != "border":
        recorded["markers"] = markers if plan.mode != "tiles" else [entrance_tile, exit_tile]
    if layout.corridor != 1:
        recorded["corridor"] = layout.corridor
    if layout.wall != 1:
        recorded["wall"] = layout.wall
    level = Level(
        maze,
        layout=layout,
        entrance=entrance_tile,
        exit=exit_tile,
        openings=openings,
        algorithm=algorithm,
        seed=seed,
        options=recorded,
    )
    if any(content):
        level = furnished(level, streams[_CONTENT_STREAM], *content)
    return level


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
        streamable = ", ".join(
            name for name in _streamable_names()
        )
        raise ValueError(
            f"algorithm {algorithm!r} cannot stream: it needs the whole maze at once; "
            f"row-by-row algorithms: {streamable}"
        )
    if height is None:
        _check_count("width", width)
        _check_memory(generator, _check_size(width, 1))
    else:
        _check_size(width, height)
        _check_memory(generator, _check_size(width, 1))  # one row at a time
    generator.check_options(options, int(width), None if height is None else int(height))
    seed = resolve_seed(seed)
    rng = Random.streams(seed, 2)[_MAZE_STREAM]
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


def _check_rooms(generator: Any, rooms: Any, doors: Any, options: Dict[str, Any]) -> Any:
    """Check ``rooms=``/``doors=``/``room_size=`` for ``generator`` (``room_size`` leaves ``options``
    unless the generator takes it too, as the ``rooms`` generator does)."""
    from . import rooms as room_layer

    room_size = options.get("room_size")
    if "room_size" not in generator.options:
        options.pop("room_size", None)
    if rooms is None:
        given = "doors=" if doors != 1 else "room_size="
        raise ValueError(f"{given} applies to rooms; give rooms= (a count or a list of rooms) with it")
    if not generator.masks:
        raise ValueError(
            f"algorithm {generator.name!r} cannot leave room for rooms (it cannot generate inside a mask); "
            "generators that can: " + ", ".join(_room_names())
        )
    if not generator.fills:
        raise ValueError(
            f"algorithm {generator.name!r} leaves sealed cells, so rooms could not all be joined; "
            "generators that can take rooms: " + ", ".join(_room_names())
        )
    if isinstance(rooms, (int, np.integer)) or "room_size" not in generator.options:
        return room_layer.check_rooms(rooms, doors, room_size)
    return room_layer.check_rooms(rooms, doors)


def _check_same_part(mask: NDArray[np.bool_], entrance: Tuple[int, int], exit: Tuple[int, int], markers: Any) -> None:
    """A clear error when the entrance and exit cells lie in separate parts of a mask."""
    labels, count = mask_parts(mask)
    if count > 1 and labels[entrance[1], entrance[0]] != labels[exit[1], exit[0]]:
        raise ValueError(
            f"markers={markers!r} put the entrance in cell {entrance} and the exit in cell "
            f"{exit}, which lie in separate parts of the mask (it has {count} parts that "
            "do not touch); join the parts, or give two marker tiles in one part, "
            "or use markers='farthest'"
        )


def _mask_names() -> List[str]:
    from .registry import _REGISTRY

    return sorted(name for name, info in _REGISTRY.items() if info.masks)


def _room_names() -> List[str]:
    from .registry import _REGISTRY

    return sorted(name for name, info in _REGISTRY.items() if info.masks and info.fills)


def _streamable_names() -> List[str]:
    from .registry import _REGISTRY

    return sorted(name for name, info in _REGISTRY.items() if info.rows is not None)
