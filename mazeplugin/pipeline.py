"""``generate`` as one list of stages, for every grid: check → rooms → markers → carve → weave → braid →
openings → level → content.

Each stage is a small function of one :class:`Build` (the request and what
the stages before it made). It asks the build's grid what to do: the square
tilemap (a :class:`~mazeplugin.maze.Maze`) or a graph of cells (hex,
triangle, polar, a wrapping square: :mod:`mazeplugin.grids`), and passes
where the stage is not its grid's (rooms, marker plans and weave are the
square tilemap's). The work lives in the module of its layer:
:mod:`mazeplugin.limits` checks sizes and memory, :mod:`mazeplugin.rooms`
places rooms, :mod:`mazeplugin.markers` plans the markers, the registry's
generator carves (on a graph grid over the neighbour interface),
:mod:`mazeplugin.weave` adds crossings, :mod:`mazeplugin.shaping` braids,
:mod:`mazeplugin.content` furnishes. :func:`mazeplugin.generate` checks its
arguments into a :class:`Build` and runs :data:`STAGES` in order.

Adding a stage (as weave was) is one function here, put in :data:`STAGES`
where it belongs, plus the module that does the work. Every stage that
draws random numbers takes them from its own stream of the seed
(:class:`Streams`), the same stream numbers on every grid, so adding one
never changes the levels the others make.

>>> import mazeplugin as mp
>>> build = Build.checked("kruskal", 4, 3, seed=7)
>>> [stage.__name__ for stage in STAGES]
['place_rooms', 'plan_markers', 'carve', 'weave', 'braid', 'openings', 'make_level', 'furnish']
>>> run(build).tiles.tobytes() == mp.generate("kruskal", 4, 3, seed=7).tiles.tobytes()
True
>>> level = run(Build.checked("wilson", 5, 4, seed=3, grid="hex"))
>>> level.grid, level.stats().passages == level.stats().cells - 1
('hex', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from . import markers as marker_layer
from . import weave as weave_layer
from .content.request import ContentRequest, check_request
from .content.things import Place
from .level import Level
from .limits import MAX_GRID_CELLS, check_int, check_memory, check_size
from .maze import Maze, mask_parts
from .registry import GeneratorInfo, check_grid_generator, generator_infos, get_generator
from .seeds import Random, Seed, resolve_seed
from .shaping import braid as braid_maze
from .shaping import braid_grid as braid_cells
from .shaping import check_braid, parse_mask
from .tiles import Layout, Opening, Tile
from .unionfind import component_roots

if TYPE_CHECKING:  # pragma: no cover - rooms and grids load with the first level that has them (import stays quick)
    from . import rooms as room_layer
    from .grids import Grid, GridMaze

__all__ = ["Build", "Streams", "STAGES", "run", "run_on_grid"]

# Independent random streams drawn from one seed: adding a use of randomness
# to one never shifts the numbers another sees. (SeedSequence.spawn's children
# do not depend on how many are spawned, so adding a stream keeps the others.)
MAZE_STREAM, MARKER_STREAM, BRAID_STREAM, CONTENT_STREAM = 0, 1, 2, 3
ROOMS_STREAM = 4  # room placement and doors: made only when rooms= is given
WEAVE_STREAM = 5  # crossings: made only when weave= is given


class Streams:
    """A seed's random streams, each made when first used: ``streams[k]`` is
    ``Random.streams(seed, n)[k]`` for any ``n > k`` (see ``Random.keyed``).
    Most levels use only the maze stream, so the others are made only when asked for.
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


@dataclass
class Build:
    """One ``generate`` request, checked, and what its stages have made so far.

    :meth:`checked` is the first stage: it checks every argument (and the
    memory the request would need) before any work. ``grid`` and ``wrap``
    say which grid the stages work on: the square tilemap (``maze``, a
    :class:`~mazeplugin.maze.Maze`), or a graph of cells (``cells``, a
    :class:`~mazeplugin.grids.GridMaze`) for a hex, triangle or polar grid
    or a wrapping square one (``graph``). The fields after ``weave`` are
    filled in by the stages, in :data:`STAGES` order.
    """

    algorithm: str
    generator: GeneratorInfo
    layout: Layout  # cells across and down (polar: the innermost ring's cells and the rings)
    seed: Seed
    markers: Any
    braid: float
    content: ContentRequest
    options: Dict[str, Any]
    streams: Streams
    grid: str = "square"
    wrap: Optional[str] = None
    graph: bool = False  # a graph of cells (hex, triangle, polar, a wrapping square), not the square tilemap
    mask: Optional[NDArray[np.bool_]] = None
    room_spec: Optional[room_layer.RoomSpec] = None
    doors: Any = 1
    weave: float = 0.0
    # -- made by the stages
    maze: Maze = field(init=False)  # the square tilemap's
    cells: GridMaze = field(init=False)  # a graph grid's
    marker_mask: NDArray[np.bool_] = field(init=False)
    placed: List[room_layer.PlacedRoom] = field(init=False)
    plan: marker_layer.MarkerPlan = field(init=False)
    entrance: Optional[Tile] = field(init=False)
    exit: Optional[Tile] = field(init=False)
    cell_openings: Tuple[Tuple[int, Optional[int]], ...] = field(init=False)  # a graph grid's (cell, side)
    level: Level = field(init=False)

    @classmethod
    def checked(cls, algorithm: str, width: object, height: object, *, seed: Optional[Seed] = None,
                markers: Any = "border", corridor: object = 1, wall: object = 1, braid: object = 0.0, mask: Any = None,
                rooms: Any = None, doors: Any = 1, keys: object = 0, treasure: object = 0, enemies: object = 0,
                place: Sequence[Place] = (), grid: str = "square", wrap: Optional[str] = None, weave: object = False,
                **options: Any) -> "Build":
        """The check stage: every argument checked, then the memory the request needs; no work done yet."""
        graph, room_spec, crossings = grid != "square" or wrap is not None, None, 0.0
        if graph:  # hex, triangle, polar, or a wrapping square: a graph of cells, made by the grid generators
            refused = dict(corridor=corridor, wall=wall, mask=mask, rooms=rooms, doors=doors)
            layout, cells = check_graph(algorithm, grid, wrap, width, height, markers, weave, refused, options)
        generator = get_generator(algorithm)
        if not graph:
            layout = check_size(width, height, corridor, wall)
            cells = layout.width * layout.height
            if rooms is not None or doors != 1 or ("room_size" in options and "room_size" not in generator.options):
                room_spec = check_rooms(generator, rooms, doors, options)
            generator.check_options(options, layout.width, layout.height)
        fraction = check_braid(braid)
        content = check_request(keys, treasure, enemies, place, cells=cells)
        if graph and content[0] and markers == "none":
            raise ValueError(f"keys={content[0]} needs an entrance and an exit to put doors between; "
                             "markers='none' has none (use markers='border')")
        if not graph:
            if mask is not None:
                if not generator.masks:
                    raise ValueError(
                        f"algorithm {algorithm!r} cannot generate inside a mask; generators that can: "
                        + ", ".join(g.name for g in generator_infos() if g.masks)
                    )
                mask = parse_mask(mask, layout.width, layout.height)
            crossings = weave_layer.check_weave(weave)
            if crossings > 0:
                check_weave_with(generator, layout, room_spec, markers)
        seed = resolve_seed(seed)
        if not graph:  # every argument is checked; the last check before work: would it fit in memory?
            check_memory(generator, layout, braid=fraction > 0, mask=mask is not None or room_spec is not None,
                         farthest=isinstance(markers, str) and markers == "farthest",
                         content=any(content[:3]) or bool(content[3]), weave=crossings > 0)
        return cls(algorithm, generator, layout, seed, markers, fraction, content, options, Streams(seed),
                   grid, wrap, graph, mask, room_spec, doors, crossings)

    def reseeded(self, seed: Seed) -> "Build":
        """This checked request again for another ``seed``, its stages not run yet: what
        ``generate(..., seed=seed)`` with the same arguments would run, without checking them again
        (a dataset makes one entry's levels this way: the checks are a third of a 9 × 9 level's time).
        Every argument field is carried over (``dataclasses.replace``); the stages' fields start unset."""
        seed = resolve_seed(seed)
        mask = None if self.mask is None else self.mask.copy()
        return replace(self, seed=seed, streams=Streams(seed), mask=mask, options=dict(self.options))


def check_graph(algorithm: str, grid: object, wrap: object, width: object, height: object, markers: Any,
                weave: object, refused: Mapping[str, Any], options: Mapping[str, Any]) -> Tuple[Layout, int]:
    """A graph grid's request checked (``grid``, ``wrap``, the generator, the square-only arguments it refuses,
    the size and markers): its size as a layout, and its cell count, bounded."""
    from .grids import GRIDS, WRAPS
    from .grids.polar import ring_sizes

    if isinstance(weave, bool) and weave or not isinstance(weave, bool) and weave != 0:
        where = f"grid={grid!r}" if grid != "square" else f"wrap={wrap!r}"
        raise ValueError(f"weave= is for square levels without wrap=; {where} takes no weave "
                         "(leave weave at its default, False)")
    if not isinstance(grid, str) or grid not in GRIDS:
        raise ValueError(f"grid must be one of {', '.join(map(repr, GRIDS))}; got {grid!r}")
    get_generator(algorithm)  # an unknown name gets the registry's own error first
    if wrap is not None and (not isinstance(wrap, str) or wrap not in WRAPS):
        raise ValueError(f"wrap must be None, 'x', 'y' or 'xy'; got {wrap!r}")
    if wrap is not None and grid != "square":
        raise ValueError(f"wrap= is for grid='square' only, not grid={grid!r}")
    check_grid_generator(algorithm, grid, options)  # (on grid="square" only a wrap comes here)
    for name, value in refused.items():
        default = None if name in ("mask", "rooms") else 1
        given = value is not None if default is None else isinstance(value, bool) or value != default
        if given and wrap is not None:
            raise ValueError(f"{name}= cannot be combined with wrap= (a wrapping level is made by the "
                             f"grid generators, which take none of {name}; leave it at {default!r})")
        if given:
            raise ValueError(f"{name}= is for square levels only; grid={grid!r} takes none "
                             f"(leave {name} at its default, {default!r})")
    if grid == "polar":
        w = check_int("width (the cells of the innermost ring, for grid='polar')", width, low=1, high=1 << 16)
        h = check_int("height (the number of rings, for grid='polar')", height, low=1, high=1 << 16)
        cells = sum(ring_sizes(w, min(h, 1 << 12))) if h <= 1 << 12 else MAX_GRID_CELLS + 1
    else:
        w = check_int("width", width, low=1, high=MAX_GRID_CELLS)
        h = check_int("height", height, low=1, high=MAX_GRID_CELLS)
        cells = w * h
        if wrap is not None and ("x" in wrap and w < 3 or "y" in wrap and h < 3):
            raise ValueError(f"wrap={wrap!r} needs at least 3 cells across each edge it joins, "
                             f"got width={w}, height={h}")
        if grid == "triangle" and w < 2 and h > 1:
            raise ValueError("width must be at least 2 for grid='triangle' with more than one row "
                             "(a column one triangle wide falls apart)")
    if cells > MAX_GRID_CELLS:
        many = f"{cells:,}" if cells != MAX_GRID_CELLS + 1 else "more"
        raise ValueError(f"a {grid} maze may have at most {MAX_GRID_CELLS:,} cells; "
                         f"width={w}, height={h} would give {many}")
    if not (isinstance(markers, str) and markers in ("border", "none")):
        raise ValueError(f"markers must be 'border' or 'none' for grid={grid!r}, got {markers!r}")
    return Layout(w, h), cells


def check_weave_with(generator: GeneratorInfo, layout: Layout, room_spec: Optional[room_layer.RoomSpec],
                     markers: Any) -> None:
    """weave= with what it cannot be combined with (yet): one clear error naming the other argument."""
    if not generator.perfect:
        perfect = ", ".join(g.name for g in generator_infos() if g.perfect)
        raise ValueError(f"weave= needs a perfect generator (its loops would be closed to keep the crossings "
                         f"a tree); {generator.name!r} is not; generators that take weave: {perfect}")
    if layout.corridor != 1 or layout.wall != 1:
        raise ValueError(f"weave= draws bridges on corridor=1, wall=1 only; got corridor={layout.corridor}, "
                         f"wall={layout.wall}")
    if room_spec is not None:
        raise ValueError("weave= cannot be combined with rooms yet (leave it at its default); "
                         "weave levels take braid, a mask, any markers and content")


def check_rooms(generator: GeneratorInfo, rooms: Any, doors: Any, options: Dict[str, Any]) -> room_layer.RoomSpec:
    """Check ``rooms=``/``doors=``/``room_size=`` for ``generator`` (``room_size`` leaves ``options``
    unless the generator takes it too, as the ``rooms`` generator does)."""
    from . import rooms as room_layer

    room_size = options.get("room_size")
    if "room_size" not in generator.options:
        options.pop("room_size", None)
    if rooms is None:
        given = "doors=" if doors != 1 else "room_size="
        raise ValueError(f"{given} applies to rooms; give rooms= (a count or a list of rooms) with it")
    takers = ", ".join(g.name for g in generator_infos() if g.masks and g.fills)
    if not generator.masks:
        raise ValueError(
            f"algorithm {generator.name!r} cannot leave room for rooms (it cannot generate inside a mask); "
            "generators that can: " + takers
        )
    if not generator.fills:
        raise ValueError(
            f"algorithm {generator.name!r} leaves sealed cells, so rooms could not all be joined; "
            "generators that can take rooms: " + takers
        )
    if isinstance(rooms, (int, np.integer)) or "room_size" not in generator.options:
        return room_layer.check_rooms(rooms, doors, room_size)
    return room_layer.check_rooms(rooms, doors)


# -- the stages, in order -------------------------------------------------------


def place_rooms(build: Build) -> None:
    """The square maze, its open rooms kept out of the generator's way (see :mod:`mazeplugin.rooms`); markers
    avoid them."""
    if build.graph:
        return
    build.maze = Maze(build.layout.width, build.layout.height, build.mask)
    build.marker_mask = build.maze.mask
    if build.room_spec is not None:
        from . import rooms as room_layer

        build.placed = room_layer.place_rooms(build.room_spec, build.maze.mask, build.streams[ROOMS_STREAM])
        build.marker_mask = build.maze.mask & ~room_layer.solid_cells(build.placed, build.maze.mask.shape)


def plan_markers(build: Build) -> None:
    """Where the entrance and exit go (see :mod:`mazeplugin.markers`); generators may aim at them.
    (A graph grid's markers are its own openings: see :func:`openings`.)"""
    if build.graph:
        return
    plan = marker_layer.plan_markers(build.markers, build.layout, build.marker_mask,
                                     lambda: build.streams[MARKER_STREAM])
    if plan.entrance is not None and plan.exit is not None:
        if build.mask is not None:
            check_same_part(build.maze.mask, plan.entrance.cell, plan.exit.cell, build.markers)
        build.maze.start, build.maze.goal = plan.entrance.cell, plan.exit.cell
    build.plan = plan


def carve(build: Build) -> None:
    """The generator opens passages: on the square maze (around the rooms, which the room layer then
    joins), or over the neighbour interface on a graph grid, from its first opening to its second."""
    generator, rng, options = build.generator, build.streams[MAZE_STREAM], build.options
    if build.graph:
        from .grids import GridMaze, make_grid

        grid = make_grid(build.grid, build.layout.width, build.layout.height, build.wrap)
        (start, _), (goal, _) = grid.openings()[:2]
        build.cells = GridMaze(grid, generator.run_on_grid(grid, rng, start, goal, options))
    elif build.room_spec is None:
        generator.run(build.maze, rng, options)
    else:
        from . import rooms as room_layer

        room_layer.build(build.maze, build.placed, build.streams[ROOMS_STREAM], build.room_spec.doors,
                         lambda maze: generator.run(maze, rng, options))
    if not build.graph and not generator.builtin and build.plan.entrance is not None and build.plan.exit is not None:
        check_joined(generator.name, build.maze)


def run_on_grid(algorithm: str, grid: Grid, rng: Random, start: int = 0, goal: Optional[int] = None,
                options: Optional[Mapping[str, Any]] = None) -> NDArray[np.bool_]:
    """Generator ``algorithm``'s passages on ``grid`` (over the neighbour interface): one bool per edge,
    True where open. ``start`` is the entrance cell (where growing generators begin), ``goal`` the exit
    cell (where the union-find web stops; the last cell by default).
    """
    info = check_grid_generator(algorithm, grid.name, options or {})
    return info.run_on_grid(grid, rng, start, grid.cells - 1 if goal is None else goal, options or {})


def check_joined(name: str, maze: Maze) -> None:
    """A plugin's maze must join its start and goal cells: else the level would have no solution."""
    a, b = maze.passages()
    roots = component_roots(maze.size, a, b)
    start, goal = maze.cell_id(*maze.start), maze.cell_id(*maze.goal)
    if roots[start] != roots[goal]:
        raise ValueError(
            f"generator {name!r} left the entrance's cell {maze.start} and the exit's cell {maze.goal} "
            "unjoined: the level would have no solution (a generator must join maze.start and maze.goal)"
        )


def weave(build: Build) -> None:
    """Crossings: straight passages under others (``weave=``, square only), from the weave's own stream; see
    :mod:`mazeplugin.weave`."""
    if build.weave > 0:
        avoid = [o.cell for o in (build.plan.entrance, build.plan.exit) if o is not None]
        weave_layer.weave(build.maze, build.streams[WEAVE_STREAM], build.weave, avoid)


def braid(build: Build) -> None:
    """Dead ends opened into loops (``braid=``), from the braid's own stream (on a weave, around its bridges)."""
    if build.braid > 0 and build.graph:
        braid_cells(build.cells, build.streams[BRAID_STREAM], build.braid)
    elif build.braid > 0 and build.weave > 0:
        weave_layer.braid_woven(build.maze, build.streams[BRAID_STREAM], build.braid)
    elif build.braid > 0:
        braid_maze(build.maze, build.streams[BRAID_STREAM], build.braid)


def openings(build: Build) -> None:
    """The markers: a graph grid's own openings (``markers="border"``), or the square's marker tiles as
    planned, or (``markers="farthest"``) the two openings farthest apart."""
    if build.graph:
        build.cell_openings = build.cells.grid.openings() if build.markers == "border" else ()
        return
    build.entrance, build.exit = build.plan.entrance_tile, build.plan.exit_tile
    if build.plan.mode == "farthest":
        first, second = marker_layer.farthest_openings(build.maze, build.layout)
        build.entrance, build.exit = build.layout.opening_tile(first), build.layout.opening_tile(second)


def make_level(build: Build) -> None:
    """The level, with the options it was made with (for files and codes): a
    :class:`~mazeplugin.level.Level` holding a square ``Maze``, or a ``GridMaze`` on a graph grid."""
    if build.graph:
        cells, opened = build.layout, build.cell_openings
        entrance, exit = (opened[0][0], opened[1][0]) if opened else (None, None)
        build.level = Level(build.cells, width=cells.width, height=cells.height, entrance=entrance, exit=exit,
                            openings=opened, algorithm=build.algorithm, seed=build.seed,
                            options=recorded_options(build))
        return
    build.level = Level(build.maze, layout=build.layout, entrance=build.entrance, exit=build.exit,
                        openings=side_openings(build.plan), algorithm=build.algorithm, seed=build.seed,
                        options=recorded_options(build))


def side_openings(plan: marker_layer.MarkerPlan) -> List[Opening]:
    """The planned markers that open the outer wall (their tiles become floor)."""
    return [o for o in (plan.entrance, plan.exit) if o is not None and o.side]


def recorded_options(build: Build) -> Dict[str, Any]:
    """The options a level of ``build`` records (``level.options``), after the :func:`openings` stage."""
    layout = build.layout
    recorded = dict(build.options)
    if build.graph:
        recorded["grid"] = build.grid
        if build.wrap is not None:
            recorded["wrap"] = build.wrap
    if build.braid > 0:
        recorded["braid"] = build.braid
    if build.weave > 0:
        recorded["weave"] = True if build.weave == 1 else build.weave
    if build.mask is not None:
        recorded["mask"] = build.mask
    if build.room_spec is not None:
        recorded["rooms"] = build.room_spec.recorded()
        from .rooms.placing import DEFAULT_ROOM_SIZE

        if "room_size" not in recorded and build.room_spec.room_size != DEFAULT_ROOM_SIZE:
            recorded["room_size"] = build.room_spec.room_size  # (the rooms generator keeps its own)
        if build.doors != 1:
            recorded["doors"] = build.doors
    mode = build.markers if build.graph else build.plan.mode
    if mode != "border":
        recorded["markers"] = build.markers if mode != "tiles" else [build.entrance, build.exit]
    if layout.corridor != 1:
        recorded["corridor"] = layout.corridor
    if layout.wall != 1:
        recorded["wall"] = layout.wall
    return recorded


def furnish(build: Build) -> None:
    """Keys and locked doors, treasure, enemies and a game's own things, from the content stream: on the
    square level's tiles (:mod:`mazeplugin.content.placing`), or on a graph grid's cells
    (:mod:`mazeplugin.content.placing`)."""
    if not any(build.content):
        return  # (a level without content never loads placement)
    if build.graph:
        from .content.placing import grid_furnished

        build.level = grid_furnished(build.level, build.streams[CONTENT_STREAM], *build.content)
    else:
        from .content.placing import furnished

        build.level = furnished(build.level, build.streams[CONTENT_STREAM], *build.content)


Stage = Callable[[Build], None]

STAGES: Tuple[Stage, ...] = (place_rooms, plan_markers, carve, weave, braid, openings, make_level, furnish)
"""The stages after :meth:`Build.checked`, in order."""


def run(build: Build, stages: Sequence[Stage] = STAGES) -> Level:
    """Run ``stages`` on a checked ``build``; the level it makes."""
    for stage in stages:
        stage(build)
    return build.level


def check_same_part(mask: NDArray[np.bool_], entrance: Tuple[int, int], exit: Tuple[int, int], markers: Any) -> None:
    """A clear error when the entrance and exit cells lie in separate parts of a mask."""
    labels, count = mask_parts(mask)
    if count > 1 and labels[entrance[1], entrance[0]] != labels[exit[1], exit[0]]:
        raise ValueError(
            f"markers={markers!r} put the entrance in cell {entrance} and the exit in cell "
            f"{exit}, which lie in separate parts of the mask (it has {count} parts that "
            "do not touch); join the parts, or give two marker tiles in one part, "
            "or use markers='farthest'"
        )
