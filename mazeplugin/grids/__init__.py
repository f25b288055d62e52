"""Grids beyond the square: hexagonal, triangular and polar topologies (issue 21).

Each grid owns its cells (numbered ``0 … n-1``) and their neighbours; a
:class:`GridMaze` is a grid plus its open passages. The neighbour-only
generators (:mod:`mazeplugin.generators.graph`) run on any of them; the
square grid keeps :class:`mazeplugin.maze.Maze` and its fast arrays.

>>> from mazeplugin.grids import make_grid
>>> make_grid("polar", 6, 3)
PolarGrid(42 cells, 78 edges)
"""

from __future__ import annotations

from .base import Grid, GridMaze, Point, Side
from .hex import HEX_DIRECTIONS, HexGrid
from .polar import PolarGrid
from .square import WRAPS, SquareGrid
from .triangle import TriangleGrid

__all__ = ["Grid", "GridMaze", "Point", "Side", "HexGrid", "TriangleGrid", "PolarGrid", "HEX_DIRECTIONS",
           "GRIDS", "make_grid", "SquareGrid", "WRAPS"]

GRIDS = ("square", "hex", "triangle", "polar")
"""The grid names ``generate(grid=...)`` takes; ``"square"`` is :class:`mazeplugin.maze.Maze`."""


def make_grid(name: str, width: int, height: int, wrap: "str | None" = None) -> Grid:
    """The grid called ``name``: ``width × height`` cells, or for ``"polar"`` ``width`` cells in
    the innermost ring and ``height`` rings; ``"square"`` is the wrapping square grid (``wrap``
    ``"x"``, ``"y"`` or ``"xy"``). Sizes are checked by the caller."""
    if name == "square":
        return SquareGrid(width, height, wrap)
    if name == "hex":
        return HexGrid(width, height)
    if name == "triangle":
        return TriangleGrid(width, height)
    if name == "polar":
        return PolarGrid(width, height)
    raise ValueError(f"grid must be one of {', '.join(map(repr, GRIDS))}; got {name!r}")
