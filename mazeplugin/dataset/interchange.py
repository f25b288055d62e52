"""Interchange with maze-dataset (understanding-search): our levels as its ``SolvedMaze``, and its mazes as our levels.

``pip install maze-dataset`` (``"muutils<0.9"`` is what works with it
today); imported only when these are called. maze-dataset's mazes are
lattices of cells with a connection list (``connection_list[0][r, c]``: cell
``(r, c)`` joins ``(r + 1, c)``; ``[1][r, c]``: joins ``(r, c + 1)``), so the
levels that convert are square ones of ``corridor=1``, ``wall=1`` without
weave, the tiles of whose cells and passages are the whole level (as
:mod:`mazeplugin.dataset.tokens` requires). Its mazes have no openings in the
outer wall and no keys or doors: :func:`to_maze_dataset` gives the marker
cells as ``start_pos`` / ``end_pos`` and the level's solution cells (detours
to keys included) as ``solution``, and leaves keys and doors out;
:func:`from_maze_dataset` puts the entrance and exit on their cells' tiles.
So ``from_maze_dataset(to_maze_dataset(level))`` has the level's passages and
marker cells, its openings closed.

Then maze-dataset's tokenisers and plots run on our levels::

    from maze_dataset.tokenization import MazeTokenizerModular
    solved = to_maze_dataset(mp.generate("wilson", 8, 8, seed=1))
    text = solved.as_tokens(MazeTokenizerModular())
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

import mazeplugin as mp

__all__ = ["to_maze_dataset", "from_maze_dataset"]


def _maze_dataset() -> Any:
    try:
        return importlib.import_module("maze_dataset")
    except ImportError:
        raise ImportError('interchange with maze-dataset needs it: pip install maze-dataset "muutils<0.9"') from None


def to_maze_dataset(level: mp.Level) -> Any:
    """``level`` as a ``maze_dataset.SolvedMaze`` (see the module docstring); ``ValueError`` for levels that do
    not convert."""
    from .tokens import encode

    encode(level, solution=False)  # the checks: corridor=1, wall=1, no weave, markers, only cells and passages
    module = _maze_dataset()
    tiles = level.tiles
    rows, columns = (tiles.shape[0] - 1) // 2, (tiles.shape[1] - 1) // 2
    connections = np.zeros((2, rows, columns), dtype=bool)
    connections[0, :-1, :] = tiles[2:-1:2, 1::2][:rows - 1, :columns] == mp.FLOOR
    connections[1, :, :-1] = tiles[1::2, 2:-1:2][:rows, :columns - 1] == mp.FLOOR
    width = level.maze.width
    solution = np.array([(n // width, n % width) for n in level.solution_cells()], dtype=np.int8)
    return module.SolvedMaze(connection_list=connections, solution=solution,
                             generation_meta={"mazeplugin": {"algorithm": level.algorithm, "seed": level.seed}})


def from_maze_dataset(maze: Any) -> mp.Level:
    """A maze-dataset ``LatticeMaze`` or ``SolvedMaze`` as a :class:`~mazeplugin.Level`: its cells and connections
    as tiles, the entrance and exit on the tiles of its ``start_pos`` and ``end_pos`` (a ``LatticeMaze`` without
    them gets none)."""
    from mazeplugin.formats.rebuild import level_from_tiles

    connections = np.asarray(getattr(maze, "connection_list", None))
    if connections.ndim != 3 or connections.shape[0] != 2:
        raise ValueError(f"maze must be a maze-dataset LatticeMaze or SolvedMaze (a connection_list of shape "
                         f"(2, rows, columns)), got {type(maze).__name__}")
    _, rows, columns = connections.shape
    tiles = np.ones((2 * rows + 1, 2 * columns + 1), dtype=np.uint8)
    tiles[1::2, 1::2] = mp.FLOOR
    tiles[2:-1:2, 1::2][connections[0, :-1, :]] = mp.FLOOR
    tiles[1::2, 2:-1:2][connections[1, :, :-1]] = mp.FLOOR
    markers = []
    for name in ("start_pos", "end_pos"):
        cell = getattr(maze, name, None)
        markers.append(None if cell is None else (2 * int(cell[1]) + 1, 2 * int(cell[0]) + 1))
    return level_from_tiles(tiles, entrance=markers[0], exit=markers[1], source="maze-dataset maze")
