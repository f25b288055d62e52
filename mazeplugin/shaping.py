"""Shaping a maze into a level: masks (where the maze may go) and braiding (loops).

A **mask** says which cells belong to the maze; cells outside it are solid
wall. :func:`parse_mask` accepts

- a 2-D boolean array of cells, indexed ``[y, x]`` (True = part of the maze);
- a list of equal-length strings, one per row, in which a space or ``.`` is
  outside the maze and any other character is a cell;
- a path (``str`` or :class:`pathlib.Path`) to an image file: light pixels are
  cells, dark pixels are outside (read by :func:`mazeplugin.pg.mask_from_image`,
  so it needs pygame).

Each connected part of a mask (:func:`mask_parts`) becomes its own maze.

**Braiding** (:func:`braid`) opens a wall at a fraction of the dead ends,
preferring walls that join two dead ends, so the level gets loops; on any
grid (hex, triangle, polar, wrapping square), :func:`braid_grid` opens one
of a cell's closed edges by the same rule (:func:`braid_dead_ends`).

>>> parse_mask(["##.", "###"]).astype(int).tolist()
[[1, 1, 0], [1, 1, 1]]
>>> labels, count = mask_parts(parse_mask(["#.#", "#.#"]))
>>> count, labels.tolist()
(2, [[0, -1, 1], [0, -1, 1]])
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from . import seam
from .limits import MAX_CELLS
from .maze import Maze, mask_parts
from .seeds import Random

if TYPE_CHECKING:  # pragma: no cover - a grid maze is only read here: importing mazeplugin loads no grid
    from .grids import GridMaze

__all__ = ["parse_mask", "mask_parts", "braid", "braid_grid", "braid_dead_ends", "check_braid"]

_OUTSIDE = " ."


def parse_mask(
    mask: Any, width: Optional[int] = None, height: Optional[int] = None
) -> NDArray[np.bool_]:
    """Check ``mask`` and return it as a bool ``(height, width)`` array of cells.

    When ``width`` and ``height`` are given, the mask must have that shape.
    A mask must contain at least one cell.

    >>> parse_mask([[True, False], [True, True]]).tolist()
    [[True, False], [True, True]]
    >>> parse_mask(["# #", "###"], width=4, height=2)
    Traceback (most recent call last):
    ...
    ValueError: mask has 3 × 2 cells (width × height) but width=4, height=2; they must match
    """
    if isinstance(mask, (str, os.PathLike)):
        cells = _image_mask(mask)
    elif isinstance(mask, (list, tuple)) and mask and all(isinstance(row, str) for row in mask):
        lengths = {len(row) for row in mask}
        if len(lengths) != 1:
            raise ValueError(
                f"mask rows must all have the same length; got lengths {sorted(lengths)[:10]}"
            )
        _check_mask_cells(len(mask), len(mask[0]))
        if not mask[0]:
            raise ValueError("mask rows must not be empty strings")
        # One UTF-32 code unit per character: a cell unless it is ' ' or '.'.
        codes = np.frombuffer("".join(mask).encode("utf-32-le", "surrogatepass"), dtype="<u4")
        cells = ((codes != ord(" ")) & (codes != ord("."))).reshape(len(mask), len(mask[0]))
    else:
        array = np.asarray(mask)
        if array.dtype != np.bool_:
            raise TypeError(
                "mask must be a 2-D bool array, a list of equal-length strings "
                "(' ' or '.' = outside) or a path to an image file; "
                f"got {type(mask).__name__}" + (f" of dtype {array.dtype}" if array.ndim else "")
            )
        if array.ndim != 2 or 0 in array.shape:
            raise ValueError(f"mask must be a non-empty 2-D array, got shape {array.shape}")
        _check_mask_cells(*array.shape)
        cells = array.copy()
    h, w = cells.shape
    if width is not None and height is not None and (w, h) != (width, height):
        raise ValueError(
            f"mask has {w} × {h} cells (width × height) but width={width}, "
            f"height={height}; they must match"
        )
    if not cells.any():
        raise ValueError("mask has no cells: every position is outside the maze")
    return cells


def _check_mask_cells(rows: int, columns: int) -> None:
    if rows * columns > MAX_CELLS:
        raise ValueError(
            f"mask has {columns:,} × {rows:,} = {rows * columns:,} cells; at most {MAX_CELLS:,} are allowed"
        )


def _image_mask(path: Any) -> NDArray[np.bool_]:
    """The cells of a mask picture; every failure is a ``ValueError`` naming ``mask`` and the file."""
    missing = (
        f'mask={os.fspath(path)!r} is a picture, and reading pictures needs pygame: '
        'pip install "mazeplugin[pygame]" (or give the mask as a list of strings)'
    )
    try:
        cells = np.asarray(seam.mask_from_picture(path, missing), dtype=bool)
    except OSError as error:
        raise ValueError(f"mask {os.fspath(path)!r}: cannot read the picture: {error.strerror or error}") from None
    except ValueError as error:
        message = str(error)
        if not message.startswith("mask"):
            message = f"mask: {message}"
        raise ValueError(message) from None
    _check_mask_cells(*cells.shape)
    return cells


def check_braid(braid: object) -> float:
    """``braid`` as a float in [0, 1], or a ``TypeError``/``ValueError`` saying what is allowed."""
    if isinstance(braid, bool) or not isinstance(braid, (int, float, np.integer, np.floating)):
        raise TypeError(f"braid must be a number from 0 to 1, not {type(braid).__name__}")
    value = float(braid)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"braid must be from 0 to 1 (the fraction of dead ends removed), got {braid!r}")
    return value


def braid(maze: Maze, rng: Random, fraction: float) -> None:
    """Remove ``round(fraction × dead ends)`` dead ends by opening one wall at each.

    Dead ends (cells with exactly one open passage) are visited in random
    order. Each one still a dead end when visited gets a wall opened to a
    neighbour that is also a dead end if it has one (removing two at once),
    else to a random closed neighbour on a passage, else to a sealed cell
    (one with no passage yet, like ``union-find``'s pockets), which then
    becomes a dead end in its turn. A dead end whose every neighbour is
    already open to it (a corridor's end against the grid's or the mask's
    edge, like the ends of a 1-cell-wide strip) cannot be removed.

    With ``fraction=1`` a maze on a grid at least 2 × 2 cells (no mask) is left
    with no dead end.

    Braiding only opens walls: it never opens a corner, so a 2 × 2 block of
    cells that ends up joined all round stays four cells around a pillar
    (only rooms are open floor), and braided levels are those of before open
    areas existed. Room cells (``maze.rooms``) are not dead ends, so braiding
    leaves them alone.

    >>> from mazeplugin.maze import Maze
    >>> maze = Maze(2, 2)
    >>> maze.open_many([0, 0, 1], [1, 2, 3])  # a U: dead ends at cells 2 and 3
    >>> braid(maze, Random.from_seed(1), 1.0)
    >>> maze.passage_count(), int(maze.degree().min())
    (4, 2)
    """
    degree = maze.degree().ravel().tolist()
    dead = np.flatnonzero((maze.degree() == 1) & (maze.rooms == 0)).tolist()
    if int(round(fraction * len(dead))) == 0:
        return
    neighbours = maze.neighbour_table().tolist()

    def closed(cell: int) -> List[Tuple[int, int]]:
        return [(n, n) for n in neighbours[cell] if n >= 0 and not maze.is_open(cell, n)]

    braid_dead_ends(dead, degree, fraction, rng, closed, lambda cell, way: maze.open(cell, way))


def braid_grid(maze: "GridMaze", rng: Random, fraction: float) -> None:
    """:func:`braid` on any grid: ``round(fraction × dead ends)`` dead ends of ``maze`` opened by one edge each.

    >>> import mazeplugin as mp
    >>> mp.generate("backtracker", 8, 6, grid="hex", seed=2, braid=1.0).stats().dead_ends
    0
    """
    grid = maze.grid
    degree = maze.degrees().tolist()
    dead = [c for c in range(grid.cells) if degree[c] == 1]
    if int(round(fraction * len(dead))) == 0:
        return
    off, nbr, eid = grid.offsets.tolist(), grid.neighbours.tolist(), grid.edge_ids.tolist()
    opened = maze.open

    def closed(cell: int) -> List[Tuple[int, int]]:
        return [(nbr[j], eid[j]) for j in range(off[cell], off[cell + 1]) if not opened[eid[j]]]

    def open_way(cell: int, edge: int) -> None:
        opened[edge] = True

    braid_dead_ends(dead, degree, fraction, rng, closed, open_way)


def braid_dead_ends(dead: List[int], degree: List[int], fraction: float, rng: Random,
                    closed: Callable[[int], List[Tuple[int, Any]]], open_way: Callable[[int, Any], None]) -> None:
    """The braid rule over any maze model: remove ``round(fraction × len(dead))`` of the ``dead`` ends.

    ``degree`` is every cell's count of open passages (updated here);
    ``closed(cell)`` lists ``(neighbour, way)`` for each closed way out of a
    cell and ``open_way(cell, way)`` opens one. :func:`braid` (square cells)
    and :func:`braid_grid` (any grid's edges) both
    run it, so a rule changed here changes both. Draws, in this order, a
    permutation of the dead ends, one float each, and one more float for
    each sealed cell that becomes a dead end.
    """
    target = int(round(fraction * len(dead)))
    if target == 0:
        return
    order = rng.permutation(len(dead)).tolist()
    picks = rng.random(len(dead)).tolist()
    removed = 0
    for k in order:  # `order` grows when a sealed cell becomes a dead end
        if removed >= target:
            break
        cell = dead[k]
        if degree[cell] != 1:
            continue  # already joined by a neighbouring dead end's opening
        ways = closed(cell)
        choices = (
            [w for w in ways if degree[w[0]] == 1]
            or [w for w in ways if degree[w[0]] > 1]
            or ways
        )
        if not choices:
            continue
        other, way = choices[int(picks[k] * len(choices))]
        open_way(cell, way)
        removed += 1 + (degree[other] == 1) - (degree[other] == 0)
        if degree[other] == 0:
            order.append(len(dead))
            dead.append(other)
            picks.append(float(rng.random(1)[0]))
        degree[cell] += 1
        degree[other] += 1
