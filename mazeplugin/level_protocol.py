"""What every level answers, on every grid: :class:`AnyLevel`, the one protocol.

:class:`~mazeplugin.Level` is the one level class for every grid (square,
weave, wrapping, hex, triangle, polar, dungeons) and satisfies it, so code
that takes "a level" annotates it ``mp.AnyLevel`` (or ``mp.Level``) and calls
the same methods whatever the grid. ``grid`` is ``"square"``, ``"hex"``,
``"triangle"`` or ``"polar"`` (a wrapping level is ``"square"`` with
``options["wrap"]``). ``entrance``, ``exit`` and ``solution()`` are places:
``(x, y)`` tiles wherever the level has tiles (square, weave, wrapping, hex),
cell numbers on triangle and polar levels. Every level answers by cell:
``cells`` (numbered ``0 … cells-1``, row-major on square grids),
``cell_of(place)``, ``entrance_cell``, ``exit_cell`` and ``solution_cells()``.
``distances(source=None)`` starts at the entrance, a cell number or, wherever
the level has tiles, a tile ``(x, y)``; it answers in the level's own places (a
map shaped like ``tiles`` on a square level, one entry per cell on the others).
``save(path)`` writes by suffix and ``mp.load`` reads it back. ``mission`` is a
dungeon's mission on its tiles (a ``LaidMission``, see
:attr:`mazeplugin.Level.mission`), None on every level that is not a dungeon.

Wherever a level has tiles it walks them the same way: ``shape``,
``is_floor``, ``step`` (four ways on square tiles, round the wrap on a
wrapping level, six on a hex level's), ``can_step``, ``cell_tile``,
``entrance_tile``, ``exit_tile``, ``solution_tiles()``, ``marked()`` and
``to_text()``; on triangle and polar levels these raise the ``ValueError``
that ``tiles`` raises. ``walls()`` gives every level's walls as drawn.

What a caller may need to tell levels apart is asked of the level, never of
its class: ``kind`` names it as files, codes and datasets do (``"square"``,
weave included; ``"wrap"``, a square level that wraps; ``"hex"``,
``"triangle"``, ``"polar"``); ``tiled`` says whether it has ``tiles`` (every
kind but triangle and polar); ``weave`` whether it has bridges (square levels
only); and ``tile_things()`` gives the things on the tilemap
(:class:`~mazeplugin.Thing` s, as a square level holds them) wherever the
level has one.

>>> import mazeplugin as mp
>>> levels = [mp.generate("wilson", 6, 4, seed=3, **kw) for kw in ({}, {"wrap": "xy"}, {"grid": "hex"})]
>>> all(isinstance(level, mp.AnyLevel) for level in levels)
True
>>> [(level.grid, level.cells, level.solution_cells()[0]) for level in levels]
[('square', 24, 0), ('square', 24, 0), ('hex', 24, 0)]
>>> [int(level.distances((1, 1)).max()) > 0 for level in levels]
[True, True, True]
>>> [(level.kind, level.tiled, level.weave, level.entrance_cell) for level in levels]
[('square', True, False, 0), ('wrap', True, False, 0), ('hex', True, False, 0)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Protocol, Tuple, Union, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover - types only: importing the protocol loads nothing else
    import numpy as np
    from numpy.typing import NDArray

    from .analysis import Stats
    from .seeds import Seed

__all__ = ["AnyLevel", "Place"]

Place = Union[int, Tuple[int, int]]
"""A place on a level: a cell number, or an ``(x, y)`` tile on a level with tiles."""


@runtime_checkable
class AnyLevel(Protocol):
    """A level on any grid: what :class:`~mazeplugin.Level` answers on every grid.

    See the module docstring for what each member means on each grid.
    """

    @property
    def grid(self) -> str: ...

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    @property
    def cells(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def tiled(self) -> bool: ...

    @property
    def weave(self) -> bool: ...

    if TYPE_CHECKING:  # for mypy only: they raise ValueError on a level without a tilemap, so isinstance never reads them
        @property
        def tiles(self) -> NDArray[np.uint8]: ...

        @property
        def bridges(self) -> NDArray[np.uint8]: ...

        @property
        def shape(self) -> Tuple[int, int]: ...

        @property
        def entrance_tile(self) -> Optional[Tuple[int, int]]: ...

        @property
        def exit_tile(self) -> Optional[Tuple[int, int]]: ...

    @property
    def openings(self) -> Tuple[Tuple[int, Optional[int]], ...]: ...

    algorithm: Optional[str]
    seed: Optional[Seed]
    options: Dict[str, Any]

    @property
    def entrance(self) -> Any: ...

    @property
    def exit(self) -> Any: ...

    @property
    def entrance_cell(self) -> Optional[int]: ...

    @property
    def exit_cell(self) -> Optional[int]: ...

    @property
    def things(self) -> Tuple[Any, ...]: ...

    def tile_things(self) -> Tuple[Any, ...]: ...

    @property
    def mission(self) -> Any: ...

    def solution(self) -> List[Any]: ...

    def solution_cells(self) -> List[int]: ...

    def cell_of(self, place: Place) -> int: ...

    def distances(self, source: Optional[Place] = None) -> NDArray[np.int32]: ...

    def stats(self) -> Stats: ...

    def dead_ends(self) -> List[Any]: ...

    def cell_tile(self, cell: int) -> Tuple[int, int]: ...

    def solution_tiles(self) -> List[Tuple[int, int]]: ...

    def is_floor(self, tile: Tuple[int, int]) -> bool: ...

    def step(self, tile: Tuple[int, int], direction: Tuple[int, int], under: bool = False) -> Tuple[Tuple[int, int], bool]: ...

    def can_step(self, a: Tuple[int, int], b: Tuple[int, int]) -> bool: ...

    def walls(self) -> List[List[Tuple[float, float]]]: ...

    def marked(self) -> NDArray[np.int8]: ...

    def to_text(self, style: str = "ascii") -> str: ...

    def check(self) -> None: ...

    def to_svg(self, cell: float = ..., *, show_solution: bool = False) -> str: ...

    def to_json(self) -> str: ...

    def save(self, path: Any, *, format: Optional[str] = None, **options: Any) -> None: ...



if TYPE_CHECKING:  # pragma: no cover - mypy proves the one class satisfies the protocol
    from .level import Level

    def _satisfied(level: Level) -> AnyLevel:
        return level
