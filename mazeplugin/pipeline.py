"""``generate`` as a list of stages: check → rooms → markers → carve → weave → braid → openings → level → content.

Each stage is a small function of one :class:`Build` (the request and what
the stages before it made); the work itself lives in the module of its
layer (:mod:`mazeplugin.limits` checks sizes and memory,
:mod:`mazeplugin.rooms` places rooms, :mod:`mazeplugin.markers` plans the
markers, the registry's generator carves, :mod:`mazeplugin.weave` adds
crossings, :mod:`mazeplugin.shaping` braids,
:mod:`mazeplugin.content` furnishes). :func:`mazeplugin.generate` builds a
:class:`Build` from its arguments and runs :data:`STAGES` in order.

Adding a stage (as weave was) is one function here, put in :data:`STAGES`
where it belongs, plus the module that does the work. Grids beyond the
square (``grid="hex"``, ``"triangle"``, ``"polar"``) and wrapping square
levels (``wrap=``) take their own short branch, :mod:`mazeplugin.grid_pipeline`
(carve the grid graph, braid it, make a
:class:`~mazeplugin.grid_level.GridLevel`, furnish it); ``grid="square"`` without a wrap
never touches it. Every stage that draws random numbers takes them from its
own stream of the seed (:class:`Streams`), so adding one never changes the
levels the others make.

>>> import mazeplugin as mp
>>> build = Build.checked("kruskal", 4, 3, seed=7)
>>> [stage.__name__ for stage in STAGES]
['place_rooms', 'plan_markers', 'carve', 'weave', 'braid', 'openings', 'make_level', 'furnish']
>>> run(build).tiles.tobytes() == mp.generate("kruskal", 4, 3, seed=7).tiles.tobytes()
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from . import markers as marker_layer
from . import weave as weave_layer
from .content.request import ContentRequest, check_request
from .content.things import Place
from .level import Level
from .limits import check_memory, check_size
from .maze import Maze, mask_parts
from .registry import GeneratorInfo, generator_infos, get_generator
from .seeds import Random, Seed, resolve_seed
from .shaping import braid as braid_maze
from .shaping import check_braid, parse_mask
from .tiles import Layout, Opening, Tile
from .unionfind import component_roots

if TYPE_CHECKING:  # pragma: no cover - rooms load with the first level that has them (import mazeplugin stays quick)
    from . import rooms as room_layer

__all__ = ["Build", "Streams", "STAGES", "run"]

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
    memory the request would need) before any work. The fields after
    ``options`` are filled in by the stages, in :data:`STAGES` order.
    """

    algorithm: str
    generator: GeneratorInfo
    layout: Layout
    seed: Seed
    markers: Any
    braid: float
    mask: Optional[NDArray[np.bool_]]
    room_spec: Optional[room_layer.RoomSpec]
    doors: Any
    content: ContentRequest
    options: Dict[str, Any]
    streams: Streams
    maze: Maze
    weave: float = 0.0
    # -- made by the stages
    marker_mask: NDArray[np.bool_] = field(init=False)
    placed: List[room_layer.PlacedRoom] = field(init=False)
    plan: marker_layer.MarkerPlan = field(init=False)
    entrance: Optional[Tile] = field(init=False)
    exit: Optional[Tile] = field(init=False)
    level: Level = field(init=False)

    @classmethod
    def checked(
        cls,
        algorithm: str,
        width: object,
        height: object,
        *,
        seed: Optional[Seed] = None,
        markers: Any = "border",
        corridor: object = 1,
        wall: object = 1,
        braid: object = 0.0,
        mask: Any = None,
        rooms: Any = None,
        doors: Any = 1,
        keys: object = 0,
        treasure: object = 0,
        enemies: object = 0,
        place: Sequence[Place] = (),
        weave: object = False,
        **options: Any,
    ) -> "Build":
        """The check stage: every argument checked, then the memory the request needs; no work done yet."""
        generator = get_generator(algorithm)
        layout = check_size(width, height, corridor, wall)
        room_spec = None
        if rooms is not None or doors != 1 or ("room_size" in options and "room_size" not in generator.options):
            room_spec = check_rooms(generator, rooms, doors, options)
        generator.check_options(options, layout.width, layout.height)
        fraction = check_braid(braid)
        content = check_request(keys, treasure, enemies, place, cells=layout.width * layout.height)
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
        # Every argument is checked; the last check before work: would it fit in memory?
        check_memory(generator, layout, braid=fraction > 0, mask=mask is not None or room_spec is not None,
                     farthest=isinstance(markers, str) and markers == "farthest",
                     content=any(content[:3]) or bool(content[3]), weave=crossings > 0)
        return cls(algorithm, generator, layout, seed, markers, fraction, mask, room_spec, doors, content,
                   options, Streams(seed), Maze(layout.width, layout.height, mask), crossings)


    def reseeded(self, seed: Seed) -> "Build":
        """This checked request again for another ``seed``, its stages not run yet: what
        ``generate(..., seed=seed)`` with the same arguments would run, without checking them again
        (a dataset makes one entry's levels this way: the checks are a third of a 9 × 9 level's time).
        Every argument field is carried over (``dataclasses.replace``); the stages' fields start unset."""
        seed = resolve_seed(seed)
        mask = None if self.mask is None else self.mask.copy()
        return replace(self, seed=seed, streams=Streams(seed), mask=mask,
                       maze=Maze(self.layout.width, self.layout.height, mask), options=dict(self.options))


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
    """Open rooms are kept out of the generator's way (see :mod:`mazeplugin.rooms`); markers avoid them."""
    build.marker_mask = build.maze.mask
    if build.room_spec is not None:
        from . import rooms as room_layer

        build.placed = room_layer.place_rooms(build.room_spec, build.maze.mask, build.streams[ROOMS_STREAM])
        build.marker_mask = build.maze.mask & ~room_layer.solid_cells(build.placed, build.maze.mask.shape)


def plan_markers(build: Build) -> None:
    """Where the entrance and exit go (see :mod:`mazeplugin.markers`); generators may aim at them."""
    plan = marker_layer.plan_markers(build.markers, build.layout, build.marker_mask,
                                     lambda: build.streams[MARKER_STREAM])
    if plan.entrance is not None and plan.exit is not None:
        if build.mask is not None:
            check_same_part(build.maze.mask, plan.entrance.cell, plan.exit.cell, build.markers)
        build.maze.start, build.maze.goal = plan.entrance.cell, plan.exit.cell
    build.plan = plan


def carve(build: Build) -> None:
    """The generator opens passages (around the rooms, which the room layer then joins)."""
    generator, rng, options = build.generator, build.streams[MAZE_STREAM], build.options
    if build.room_spec is None:
        generator.run(build.maze, rng, options)
    else:
        from . import rooms as room_layer

        room_layer.build(build.maze, build.placed, build.streams[ROOMS_STREAM], build.room_spec.doors,
                         lambda maze: generator.run(maze, rng, options))
    if not generator.builtin and build.plan.entrance is not None and build.plan.exit is not None:
        check_joined(generator.name, build.maze)


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
    """Crossings: straight passages under others (``weave=``), from the weave's own stream; see :mod:`mazeplugin.weave`."""
    if build.weave > 0:
        avoid = [o.cell for o in (build.plan.entrance, build.plan.exit) if o is not None]
        weave_layer.weave(build.maze, build.streams[WEAVE_STREAM], build.weave, avoid)


def braid(build: Build) -> None:
    """Dead ends opened into loops (``braid=``), from the braid's own stream (on a weave, around its bridges)."""
    if build.braid > 0 and build.weave > 0:
        weave_layer.braid_woven(build.maze, build.streams[BRAID_STREAM], build.braid)
    elif build.braid > 0:
        braid_maze(build.maze, build.streams[BRAID_STREAM], build.braid)


def openings(build: Build) -> None:
    """The marker tiles: as planned, or (``markers="farthest"``) the two openings farthest apart."""
    build.entrance, build.exit = build.plan.entrance_tile, build.plan.exit_tile
    if build.plan.mode == "farthest":
        first, second = marker_layer.farthest_openings(build.maze, build.layout)
        build.entrance, build.exit = build.layout.opening_tile(first), build.layout.opening_tile(second)


def make_level(build: Build) -> None:
    """The :class:`~mazeplugin.level.Level`, with the options it was made with (for files and codes)."""
    build.level = Level(build.maze, layout=build.layout, entrance=build.entrance, exit=build.exit,
                        openings=side_openings(build.plan), algorithm=build.algorithm, seed=build.seed,
                        options=recorded_options(build))


def side_openings(plan: marker_layer.MarkerPlan) -> List[Opening]:
    """The planned markers that open the outer wall (their tiles become floor)."""
    return [o for o in (plan.entrance, plan.exit) if o is not None and o.side]


def recorded_options(build: Build) -> Dict[str, Any]:
    """The options a level of ``build`` records (``level.options``), after the :func:`openings` stage."""
    plan, layout = build.plan, build.layout
    recorded = dict(build.options)
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
    if plan.mode != "border":
        recorded["markers"] = build.markers if plan.mode != "tiles" else [build.entrance, build.exit]
    if layout.corridor != 1:
        recorded["corridor"] = layout.corridor
    if layout.wall != 1:
        recorded["wall"] = layout.wall
    return recorded


def furnish(build: Build) -> None:
    """Keys and locked doors, treasure, enemies and a game's own things, from the content stream."""
    if any(build.content):
        from .content.placing import furnished  # (here: a level without content never loads placement)

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
