"""``generate`` on grids beyond the square: check → carve → braid → level → content, for hex,
triangle and polar levels and wrapping square levels.

The same pattern as :mod:`mazeplugin.pipeline`: a :class:`GridBuild` holds
the checked request and what the stages have made, each stage in
:data:`GRID_STAGES` is a small function of it, and the work lives in the
modules of its layer (:mod:`mazeplugin.generators.graph` carves,
:func:`mazeplugin.shaping.braid_grid` braids, :mod:`mazeplugin.content.cellplacing`
furnishes). Random numbers come from the seed's streams
(:class:`~mazeplugin.pipeline.Streams`), the same stream numbers as square
levels use. ``grid="square"`` without a wrap never comes here.

>>> build = GridBuild.checked("wilson", "hex", 5, 4, seed=3)
>>> [stage.__name__ for stage in GRID_STAGES]
['carve_grid', 'braid_grid', 'make_grid_level', 'furnish_grid']
>>> level = run_grid(build)
>>> level.grid, level.stats().passages == level.stats().cells - 1
('hex', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, Mapping, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from .content.request import ContentRequest, check_request
from .limits import MAX_GRID_CELLS, check_int
from .pipeline import BRAID_STREAM, CONTENT_STREAM, MAZE_STREAM, Streams
from .registry import check_grid_generator, get_generator
from .seeds import Random, Seed, resolve_seed
from .shaping import braid_grid as braid_grid_maze, check_braid

if TYPE_CHECKING:  # pragma: no cover - the grids load with the first grid level (import mazeplugin stays quick)
    from .grid_level import GridLevel
    from .grids import Grid, GridMaze

__all__ = ["GridBuild", "GRID_STAGES", "run_grid", "check_grid", "check_wrap", "run_on_grid"]

# -- grids beyond the square (issue 21) ----------------------------------------
# grid="square" never comes here: it is Build and STAGES above, byte for byte.
# A hex, triangle or polar request is a GridBuild and runs GRID_STAGES.

GRID_OPTIONS_REFUSED = (("corridor", 1), ("wall", 1), ("mask", None), ("rooms", None), ("doors", 1))
GRID_CONTENT = ("keys", "treasure", "enemies", "place")  # taken on every grid (content.cellplacing)


def check_wrap(grid: str, wrap: object) -> None:
    """``wrap`` checked: None, or ``"x"``, ``"y"``, ``"xy"`` on the square grid."""
    if wrap is None:
        return
    from .grids import WRAPS

    if not isinstance(wrap, str) or wrap not in WRAPS:
        raise ValueError(f"wrap must be None, 'x', 'y' or 'xy'; got {wrap!r}")
    if grid != "square":
        raise ValueError(f"wrap= is for grid='square' only, not grid={grid!r}")


def check_grid(grid: object) -> str:
    """``grid`` checked: one of :data:`mazeplugin.grids.GRIDS`."""
    from .grids import GRIDS

    if not isinstance(grid, str) or grid not in GRIDS:
        raise ValueError(f"grid must be one of {', '.join(map(repr, GRIDS))}; got {grid!r}")
    return grid


@dataclass
class GridBuild:
    """One ``generate(..., grid=...)`` request on a hex, triangle or polar grid, and what its stages made."""

    algorithm: str
    grid: str
    width: int
    height: int
    seed: Seed
    markers: str
    options: Dict[str, Any]
    streams: Streams
    wrap: Optional[str] = None
    braid: float = 0.0
    content: ContentRequest = (0, 0, 0, ())
    maze: GridMaze = field(init=False)
    openings: Tuple[Tuple[int, Optional[int]], ...] = field(init=False)
    level: GridLevel = field(init=False)

    @classmethod
    def checked(cls, algorithm: str, grid: str, width: object, height: object, *, seed: Optional[Seed] = None,
                markers: Any = "border", refused: Optional[Dict[str, Any]] = None, wrap: Optional[str] = None,
                braid: object = 0.0, **options: Any) -> "GridBuild":
        """Every argument checked, and the cell count bounded, before any work.

        ``grid="square"`` comes here only with a ``wrap``: a wrapping square level is a graph.
        """
        from .grids.polar import ring_sizes

        get_generator(algorithm)  # an unknown name gets the registry's own error
        check_wrap(grid, wrap)
        check_grid_generator(algorithm, grid, options)  # (on grid="square" only a wrap comes here)
        for name, default in GRID_OPTIONS_REFUSED:
            value = (refused or {}).get(name, default)
            given = value is not None if default is None else (
                len(value or ()) > 0 if isinstance(default, tuple) else isinstance(value, bool) or value != default)
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
        fraction = check_braid(braid)
        given = {name: value for name, value in (refused or {}).items() if name in GRID_CONTENT}
        content = check_request(**given, cells=cells)
        if content[0] and markers == "none":
            raise ValueError(f"keys={content[0]} needs an entrance and an exit to put doors between; "
                             "markers='none' has none (use markers='border')")
        seed = resolve_seed(seed)
        return cls(algorithm, grid, w, h, seed, markers, options, Streams(seed), wrap, fraction, content)


def carve_grid(build: GridBuild) -> None:
    """The grid, and the generator's passages on it, from the maze stream (as on the square grid)."""
    from .grids import GridMaze, make_grid

    grid = make_grid(build.grid, build.width, build.height, build.wrap)
    build.openings = grid.openings() if build.markers == "border" else ()
    start, goal = grid.openings()[0][0], grid.openings()[1][0]
    build.maze = GridMaze(grid, run_on_grid(build.algorithm, grid, build.streams[MAZE_STREAM], start, goal,
                                            build.options))


def run_on_grid(algorithm: str, grid: Grid, rng: Random, start: int = 0, goal: Optional[int] = None,
                options: Optional[Mapping[str, Any]] = None) -> NDArray[np.bool_]:
    """Generator ``algorithm``'s passages on ``grid`` (over the neighbour interface): one bool per edge,
    True where open. ``start`` is the entrance cell (where growing generators begin), ``goal`` the exit
    cell (where the union-find web stops; the last cell by default).
    """
    info = check_grid_generator(algorithm, grid.name, options or {})
    return info.run_on_grid(grid, rng, start, grid.cells - 1 if goal is None else goal, options or {})


def braid_grid(build: GridBuild) -> None:
    """Dead ends opened into loops (``braid=``), from the braid's own stream, as on the square grid."""
    if build.braid > 0:
        braid_grid_maze(build.maze, build.streams[BRAID_STREAM], build.braid)


def make_grid_level(build: GridBuild) -> None:
    """The :class:`~mazeplugin.Level`, with the options it was made with."""
    from .level import Level

    recorded = dict(build.options, grid=build.grid)
    if build.wrap is not None:
        recorded["wrap"] = build.wrap
    if build.braid > 0:
        recorded["braid"] = build.braid
    if build.markers != "border":
        recorded["markers"] = build.markers
    entrance, exit = (build.openings[0][0], build.openings[1][0]) if build.openings else (None, None)
    build.level = Level(build.maze, width=build.width, height=build.height, entrance=entrance, exit=exit,
                        openings=build.openings, algorithm=build.algorithm, seed=build.seed, options=recorded)


def furnish_grid(build: GridBuild) -> None:
    """Keys and locked doors, treasure, enemies and a game's own things on the cells, from the content stream."""
    if any(build.content):
        from .content.cellplacing import grid_furnished

        build.level = grid_furnished(build.level, build.streams[CONTENT_STREAM], *build.content)


GridStage = Callable[[GridBuild], None]

GRID_STAGES: Tuple[GridStage, ...] = (carve_grid, braid_grid, make_grid_level, furnish_grid)
"""The stages after :meth:`GridBuild.checked`, in order."""


def run_grid(build: GridBuild, stages: Sequence[GridStage] = GRID_STAGES) -> GridLevel:
    """Run ``stages`` on a checked grid ``build``; the level it makes."""
    for stage in stages:
        stage(build)
    return build.level
