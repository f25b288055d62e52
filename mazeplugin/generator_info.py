"""What a registered generator is: :class:`GeneratorInfo`, and the checks a plugin's maze must pass.

The registry (:mod:`mazeplugin.registry`) makes one ``GeneratorInfo`` per
``@register`` line and hands it out by name; ``mazeplugin.registry`` exports
these names too.

A generator runs on the square grid through ``function(maze, rng,
**options)``; one written against the neighbour interface also runs on every
grid (:data:`GRIDS`) and wraps, through ``graph(grid, rng, start, goal,
**options)``, which returns one bool per edge of the
:class:`~mazeplugin.grids.Grid` (True where a passage opens).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Optional, Protocol, Tuple

import numpy as np
from numpy.typing import NDArray

from .limits import BYTES_PER_TILE, DEFAULT_BYTES_PER_CELL, max_cells_for, max_width_for
from .maze import Maze
from .seeds import Random

if TYPE_CHECKING:  # pragma: no cover - the grids load with the first grid level (import mazeplugin stays quick)
    from .grids import Grid

__all__ = ["GeneratorInfo", "GeneratorFunction", "GraphFunction", "RowFunction", "OptionCheck", "GRIDS",
           "check_plugin_maze", "check_plugin_passages", "neighbour_interface"]

GRIDS: Tuple[str, ...] = ("square", "hex", "triangle", "polar")
"""Every grid ``generate(grid=...)`` takes (``mazeplugin.grids.GRIDS``); a generator over the neighbour
interface runs on all of them, and wraps (``wrap=``, the square grid as a cylinder or torus)."""

class GridShape(Protocol):
    """What :func:`check_plugin_passages` reads of a grid (a :class:`~mazeplugin.grids.Grid` or a square maze's)."""

    @property
    def name(self) -> str: ...

    @property
    def edge_count(self) -> int: ...


GeneratorFunction = Callable[..., None]
GraphFunction = Callable[..., Any]
"""``(grid, rng, start, goal, **options) -> passages``: one bool per edge of ``grid`` (True where open)."""
RowFunction = Callable[..., Iterator[Tuple[Any, Any]]]
OptionCheck = Callable[[Mapping[str, Any], Optional[int], Optional[int]], None]


@dataclass(frozen=True)
class GeneratorInfo:
    """A registered generator.

    Attributes:
        name: the registered name.
        function: ``(maze, rng, **options) -> None``.
        description: one line about its texture.
        perfect: True if every maze it makes is a spanning tree of its cells
            (all cells joined, no loops).
        options: keyword-only option names and their defaults.
        rows: for row-by-row generators, ``(width, rng, height=None)`` yielding
            ``(east, south)`` bool rows; enables :func:`mazeplugin.stream`.
        masks: whether it can generate inside a mask.
        fills: whether it joins every cell of each part of its mask (False
            for generators that leave sealed pockets, like ``union-find``);
            ``rooms=`` needs it, so every room can be joined to the maze.
        grids: the grids it runs on (names from :data:`GRIDS`); ``("square",)``
            for a generator written for :class:`~mazeplugin.maze.Maze` alone.
        graph: its function over the neighbour interface (see the module
            docstring), which runs on every grid; None for a square-only one.
    """

    name: str
    function: GeneratorFunction
    description: str
    perfect: bool = True
    options: Mapping[str, Any] = field(default_factory=dict)
    rows: Optional[RowFunction] = None
    masks: bool = True
    fills: bool = True
    check: Optional[OptionCheck] = None
    builtin: bool = False
    bytes_per_cell: float = DEFAULT_BYTES_PER_CELL
    bytes_per_column: float = 0.0
    grids: Tuple[str, ...] = ("square",)
    graph: Optional[GraphFunction] = None
    grid_options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def wraps(self) -> bool:
        """Whether it takes ``wrap=`` (it runs over the neighbour interface, the square grid among its grids)."""
        return self.graph is not None and "square" in self.grids

    @property
    def max_cells(self) -> int:
        """The most cells it may generate with no other options (see :mod:`mazeplugin.limits`)."""
        return max_cells_for(self.bytes_per_cell + 4 * BYTES_PER_TILE)  # four tiles per cell by default

    @property
    def max_width(self) -> Optional[int]:
        """The widest maze it may generate, when its memory grows with the width; else None."""
        return max_width_for(self.bytes_per_column)

    def check_options(self, options: Mapping[str, Any], width: Optional[int] = None,
                      height: Optional[int] = None) -> None:
        """Check a square request before any work: ``ValueError`` if the generator does not run on the
        square grid, ``TypeError`` naming an unknown option, then the generator's own ``check``.

        ``check(options, width, height)`` (given to :func:`register`) checks
        types and upper bounds; ``width``/``height`` are the maze size when
        known (None when only the options are checked, as on loading a file).
        """
        if "square" not in self.grids:
            raise ValueError(f"algorithm {self.name!r} runs only on grid=" + " / ".join(map(repr, self.grids))
                             + ", not the square grid")
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            allowed = ", ".join(sorted(self.options)) or "none"
            raise TypeError(
                f"unknown option {unknown[0]!r} for {self.name!r}; its options: {allowed}"
            )
        if self.check is not None:
            self.check(options, width, height)

    def run(self, maze: Maze, rng: Random, options: Mapping[str, Any]) -> None:
        """Generate into ``maze``, then check the passages stay on the grid and in the mask.

        A plugin's maze is checked first for what the model promises (see
        :func:`check_plugin_maze`), so a faulty plugin fails here, naming
        itself, instead of handing back a level no one can solve.
        """
        mask = None if self.builtin else maze.mask.copy()
        self.function(maze, rng, **options)
        if mask is not None:
            check_plugin_maze(self.name, maze, mask)
        maze.check()

    def run_on_grid(self, grid: "Grid", rng: Random, start: int, goal: int,
                    options: Mapping[str, Any]) -> NDArray[np.bool_]:
        """Its passages on ``grid``: one bool per edge, True where open (a plugin's answer checked first)."""
        if self.graph is None:
            raise ValueError(f"algorithm {self.name!r} runs only on the square grid (see registry.check_grid_generator)")
        opened = self.graph(grid, rng, start, goal, **options)
        if not self.builtin:
            check_plugin_passages(self.name, grid, opened)
        return np.asarray(opened, dtype=bool)


def on_square(name: str, graph: GraphFunction, checked: bool = True) -> GeneratorFunction:
    """A square generator ``(maze, rng, **options)`` that runs generator ``name``'s ``graph`` on the maze's
    grid (:func:`mazeplugin.generators.graph.maze_grid`: the mask's cells, neighbours north, east, south,
    west); its passages checked first if ``checked`` (a plugin's)."""

    def square(maze: Maze, rng: Random, **options: Any) -> None:
        from .generators.graph import maze_grid  # (the grid generators' layer; loaded with the first such maze)

        grid = maze_grid(maze)
        opened = graph(grid, rng, grid.cell_of(*maze.start), grid.cell_of(*maze.goal), **options)
        if checked:
            check_plugin_passages(name, grid, opened)
        grid.open_on(maze, np.asarray(opened, dtype=bool))

    square.__name__ = square.__qualname__ = getattr(graph, "__name__", "square")
    square.__doc__ = graph.__doc__
    square.__module__ = graph.__module__
    return square


def check_plugin_passages(name: str, grid: GridShape, opened: object) -> None:
    """``ValueError`` naming generator ``name`` unless ``opened`` is one bool per edge of ``grid``.

    >>> from mazeplugin.grids import HexGrid
    >>> check_plugin_passages("sloppy", HexGrid(2, 2), [True, False])
    Traceback (most recent call last):
    ...
    ValueError: generator 'sloppy' broke the maze: it must return one bool per edge of the hex grid (5), got list of 2
    """
    edges = grid.edge_count
    if isinstance(opened, np.ndarray):
        ok = opened.dtype == np.bool_ and opened.shape == (edges,)
        got = f"{opened.dtype} array of shape {opened.shape}"
    else:
        ok = isinstance(opened, list) and len(opened) == edges and all(type(v) is bool for v in opened)
        got = f"{type(opened).__name__} of {len(opened)}" if isinstance(opened, (list, tuple)) else type(opened).__name__
    if not ok:
        raise ValueError(f"generator {name!r} broke the maze: it must return one bool per edge of the "
                         f"{grid.name} grid ({edges}), got {got}")


def check_plugin_maze(name: str, maze: Maze, mask: NDArray[np.bool_]) -> None:
    """``ValueError`` naming generator ``name`` if it broke the model while carving ``maze``.

    The passage, corner and room arrays must still be arrays of their dtype
    and shape; the mask it was given (``mask``) may lose cells (as open
    rooms' solid cells do) but gain none; the start and goal cells stay in it.

    >>> import numpy as np
    >>> maze = Maze(3, 2)
    >>> maze.east = np.ones((2, 3), dtype=np.int64)
    >>> check_plugin_maze("sloppy", maze, np.ones((2, 3), dtype=bool))
    Traceback (most recent call last):
    ...
    ValueError: generator 'sloppy' broke the maze: maze.east must stay a bool array of shape (2, 3), got int64 (2, 3)
    """
    shape = (maze.height, maze.width)
    wanted = {
        "mask": (np.bool_, shape), "east": (np.bool_, shape), "south": (np.bool_, shape),
        "corners": (np.bool_, (max(maze.height - 1, 0), max(maze.width - 1, 0))), "rooms": (np.int32, shape),
    }
    for field_name, (dtype, field_shape) in wanted.items():
        value = getattr(maze, field_name, None)
        if not isinstance(value, np.ndarray) or value.dtype != dtype or value.shape != field_shape:
            got = f"{value.dtype} {value.shape}" if isinstance(value, np.ndarray) else type(value).__name__
            raise ValueError(
                f"generator {name!r} broke the maze: maze.{field_name} must stay a "
                f"{np.dtype(dtype).name} array of shape {field_shape}, got {got}"
            )
    gained = maze.mask & ~mask
    if gained.any():
        y, x = (int(v) for v in np.argwhere(gained)[0])
        raise ValueError(f"generator {name!r} broke the maze: it added cell ({x}, {y}) to the mask it was given; "
                         "a generator may only leave cells out")
    for what, cell in (("start", maze.start), ("goal", maze.goal)):
        if not (isinstance(cell, tuple) and len(cell) == 2
                and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in cell)
                and 0 <= cell[0] < maze.width and 0 <= cell[1] < maze.height):
            raise ValueError(f"generator {name!r} broke the maze: maze.{what} must stay a cell (x, y) of its "
                             f"{maze.width} × {maze.height} grid, got {cell!r:.80}")
        x, y = (int(v) for v in cell)
        if mask[y, x] and not maze.mask[y, x]:
            raise ValueError(f"generator {name!r} broke the maze: it took the {what} cell ({x}, {y}) out of the mask")


def neighbour_interface(function: Callable[..., Any]) -> bool:
    """Whether ``function`` is written against the neighbour interface: ``(grid, rng, start, goal, ...)``."""
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):  # no signature to read (a builtin, say): the square grid's
        return False
    positional = [p.name for p in parameters
                  if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    return positional[2:4] == ["start", "goal"]
