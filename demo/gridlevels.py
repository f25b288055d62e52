"""Making the demo's grid levels: hex, triangle, polar and wrapping square levels of a generator, size and seed.

The same arguments always make the same level (:func:`make_grid_level`); a
generator that takes no such grid gives way to :data:`FALLBACK`; content
counts are cut down until they fit (:func:`demo.gridcontent.with_content`).
:func:`prepare_grid_level` makes one from a hashable :data:`GridRequest` in
the worker process (:mod:`demo.ahead`).
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

import mazeplugin as mp
from mazeplugin.seeds import Seed

from .gridcontent import with_content
from .rules import MAX_GRID_SIDE  # noqa: F401 - read from here too

Topology = Tuple[str, Optional[str]]
"""``(grid, wrap)``: ``("hex", None)``, ``("square", "xy")``, ..."""
FALLBACK = "backtracker"
"""The generator used when the square game's one takes no other grid (sidewinder, eller, ...)."""


def runs_on(algorithm: str, grid: str, wrap: Optional[str] = None) -> bool:
    """Whether generator ``algorithm`` makes this demo's levels on ``grid``: it runs over the neighbour
    interface there (on the square grid: it wraps; ``wrap`` is read by the caller).

    >>> runs_on("wilson", "hex"), runs_on("eller", "hex"), runs_on("wilson", "square"), runs_on("eller", "square")
    (True, False, True, False)
    """
    known = algorithm in mp.algorithms(grid=grid)
    return known and (grid != "square" or mp.get_generator(algorithm).wraps)


def topology_name(topology: Topology) -> str:
    """What the HUD and messages call a topology: ``"hex"``, ``"wrap xy"``.

    >>> topology_name(("square", "xy")), topology_name(("polar", None))
    ('wrap xy', 'polar')
    """
    grid, wrap = topology
    return f"wrap {wrap}" if wrap else grid


def grid_size(grid: str, width: int, height: int) -> Tuple[int, int]:
    """The ``(width, height)`` the square game's size becomes on ``grid``, kept within :data:`MAX_GRID_SIDE`:
    as many hexes; twice as many triangles across (two make a square); polar: half as many cells in the
    innermost ring and about half as many rings.

    >>> grid_size("hex", 12, 9), grid_size("triangle", 12, 9), grid_size("polar", 12, 9)
    ((12, 9), (24, 9), (6, 5))
    """
    if grid == "triangle":
        width *= 2
    elif grid == "polar":
        width, height = max(1, width // 2), max(2, (height + 1) // 2)
    return min(width, MAX_GRID_SIDE), min(height, MAX_GRID_SIDE)


def make_grid_level(algorithm: str, width: int, height: int, seed: Seed, topology: Topology,
                    exact: bool = False, content: Optional[Dict[str, int]] = None) -> mp.Level:
    """The level of ``(algorithm, size, seed, topology)``; the same arguments, the same level.

    ``width`` and ``height`` are the square game's; :func:`grid_size` turns
    them into the grid's. A generator that takes no such grid gives way to
    :data:`FALLBACK`, the same way every time. ``exact``: the size is the
    grid's own and the generator is kept (a level code: exactly its level).
    """
    grid, wrap = topology
    if exact:
        if max(width, height) > MAX_GRID_SIDE:
            raise ValueError(f"the demo plays {topology_name(topology)} levels up to {MAX_GRID_SIDE} cells a side "
                             f"(they are drawn whole), not {width}x{height}")
        options: Dict[str, object] = {"wrap": wrap} if wrap else {"grid": grid}
        return with_content(lambda c: mp.generate(algorithm, width, height, seed=seed, **options, **c),  # type: ignore
                            content or {}, True)
    w, h = grid_size(grid, width, height)
    if wrap:
        w, h = max(3, w), max(3, h)  # a wrap joins edges at least three cells long
    options = {"wrap": wrap} if wrap else {"grid": grid}
    if not runs_on(algorithm, grid, wrap):
        algorithm = FALLBACK  # the generator takes no grid but the square (sidewinder, eller, ...)
    return with_content(lambda c: mp.generate(algorithm, w, h, seed=seed, **options, **c),  # type: ignore
                        content or {}, False)


GridRequest = Tuple[str, int, int, Seed, Topology, bool, Tuple[Tuple[str, int], ...]]
"""``(algorithm, width, height, seed, topology, exact, content counts as sorted pairs)``: hashable, for :mod:`demo.ahead`."""


def prepare_grid_level(request: GridRequest) -> mp.Level:
    """:func:`make_grid_level` for a :data:`GridRequest` (run in the worker process, :mod:`demo.ahead`)."""
    algorithm, width, height, seed, topology, exact, counts = request
    return make_grid_level(algorithm, width, height, seed, topology, exact, dict(counts) or None)


def level_name(level: mp.Level) -> str:
    """The level's code (a wrapping level's ends ``+wrapxy``), or its words where it has none."""
    try:
        return mp.level_code(level)
    except ValueError:
        return f"{level.algorithm}-{level.width}x{level.height}-{level.seed} {level.grid}"
