"""Neighbour questions answered from a grid's compressed rows, written once for every grid.

A grid keeps each cell's neighbours flat: ``neighbours[offsets[c]:offsets[c + 1]]``
are the cells next to ``c`` and ``edge_ids`` at the same places the edges
crossed to reach them. :class:`NeighbourRows` answers from those arrays; both
:class:`~mazeplugin.grids.Grid` and the square maze's grid
(``generators.graph.MazeGrid``) take it, so neither repeats the other.

>>> import numpy as np
>>> class Path(NeighbourRows):  # three cells in a row: 0 - 1 - 2
...     name = "path"
...     offsets, neighbours, edge_ids = np.array([0, 1, 3, 4]), np.array([1, 0, 2, 1]), np.array([0, 0, 1, 1])
>>> Path().neighbours_of(1).tolist(), Path().degrees().tolist(), Path().edge(2, 1)
([0, 2], [1, 2, 1], 1)
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["NeighbourRows"]


class NeighbourRows:
    """Neighbours, degrees and edges of a grid with ``offsets``, ``neighbours``, ``edge_ids`` and a ``name``."""

    name: str

    @property
    def offsets(self) -> NDArray[np.int64]:
        """Where each cell's row starts in :attr:`neighbours` and :attr:`edge_ids` (``cells + 1`` values)."""
        raise NotImplementedError

    @property
    def neighbours(self) -> NDArray[np.int64]:
        """Every cell's neighbours, one row after another (see :attr:`offsets`)."""
        raise NotImplementedError

    @property
    def edge_ids(self) -> NDArray[np.int64]:
        """The edge each entry of :attr:`neighbours` crosses."""
        raise NotImplementedError

    def neighbours_of(self, cell: int) -> NDArray[np.int64]:
        """The cells next to ``cell``, in the grid's order."""
        return self.neighbours[self.offsets[cell]:self.offsets[cell + 1]]

    def degrees(self) -> NDArray[np.int64]:
        """How many neighbours each cell has."""
        return np.diff(self.offsets)

    def edge(self, a: int, b: int) -> int:
        """The index of the edge between neighbours ``a`` and ``b``; ``ValueError`` when they are not neighbours."""
        start, stop = int(self.offsets[a]), int(self.offsets[a + 1])
        found = np.flatnonzero(self.neighbours[start:stop] == b)
        if not found.size:
            raise ValueError(f"cells {a} and {b} are not neighbours on this {self.name} grid")
        return int(self.edge_ids[start + found[0]])
