"""Content on a graph of cells: :class:`CellThing` (a thing on a cell, a door on a passage) and :class:`CellGraph`.

The levels of :mod:`mazeplugin.grid_level` (hex, triangle, polar, wrapping
square) are graphs: cells ``0 … n-1`` and the open passages between
neighbours, each passage an edge of the grid (``grid.edges[k]``). Content
there is placed and proved on that graph alone, so one code serves every
grid. A :class:`CellThing` is ``(kind, cell, id, props)``:

- ``"door"``: stands on a passage. ``props["edge"]`` is the edge's number,
  ``props["cells"]`` its two cells, the one nearer the entrance first (also
  the thing's ``cell``), ``props["key"]`` its key's id, ``props["lock"]`` its
  number in the order the player meets the doors (1, 2, ...).
- ``"key"``: ``props["door"]`` the id of the door it opens, ``props["lock"]`` that door's number.
- ``"treasure"`` and a game's own kinds: no props.
- ``"enemy"``: ``props["patrol"]``, the cells of the corridor stretch it
  walks back and forth, each joined to the next by an open passage.

>>> from mazeplugin.grids import GridMaze, TriangleGrid
>>> maze = GridMaze(TriangleGrid(4, 1))
>>> maze.link(0, 1); maze.link(1, 2); maze.link(2, 3)
>>> graph = CellGraph.of(maze)
>>> graph.distances(0).tolist(), graph.distances(0, shut={graph.edge(1, 2)}).tolist()
([0, 1, 2, 3], [0, 1, -1, -1])
>>> CellThing("door", 1, 2, {"edge": 1, "cells": [1, 2], "key": 1, "lock": 1}).props["cells"]
(1, 2)
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Collection, Dict, List, Mapping, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from ..unionfind import component_roots
from .things import check_fields

if TYPE_CHECKING:  # pragma: no cover - a proof on tiles (a weave) never loads the grids
    from ..grids import GridMaze

__all__ = ["CellThing", "CellGraph", "CELL_PROP_TYPES"]

CELL_PROP_TYPES: Dict[str, Dict[str, str]] = {
    "door": {"edge": "int", "cells": "cells", "key": "int", "lock": "int"},
    "key": {"door": "int", "lock": "int"},
    "enemy": {"patrol": "cells"},
}
"""What the built-in kinds' props must be on a cell graph: ``"int"``, or ``"cells"`` (a list of ints)."""


def _whole(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, numbers.Integral)


@dataclass(frozen=True)
class CellThing:
    """One thing on a cell of a grid level (a door: on the passage ``props["edge"]``; see the module docstring).

    Attributes:
        kind: ``"door"``, ``"key"``, ``"treasure"``, ``"enemy"`` or a game's own kind.
        cell: the cell it stands on (a door: the cell before its passage).
        id: unique within a level, >= 1; ``level.things`` is sorted by it.
        props: kind-specific properties; lists are stored as tuples.
    """

    kind: str
    cell: int
    id: int
    props: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        check_fields(self, "CellThing", ("cell", "id"), self._check_prop)

    def _check_prop(self, key: str, value: Any) -> None:
        rule = CELL_PROP_TYPES.get(self.kind, {}).get(key)
        if rule == "int" and not _whole(value):
            raise TypeError(f"{self.kind} props[{key!r}] must be an int, not {type(value).__name__}")
        if rule == "cells" and (not isinstance(value, (list, tuple)) or not all(_whole(v) for v in value)):
            raise TypeError(f"{self.kind} props[{key!r}] must be a list of cell numbers (ints)")

    def as_list(self) -> List[Any]:
        """``[kind, cell, id, props]`` with lists for tuples: what a grid level's JSON holds."""
        def plain(value: Any) -> Any:
            return [plain(v) for v in value] if isinstance(value, tuple) else value
        return [self.kind, self.cell, self.id, {k: plain(v) for k, v in self.props.items()}]


class CellGraph:
    """The open passages of a grid maze as a graph: each cell's ``(neighbour, edge)`` steps.

    Edge numbers are the grid's (``grid.edges[k]``), so a door names its
    passage the way the maze does. Searches take passages to keep ``shut``
    (locked doors) and cells to keep out (``blocked``: enemy patrols).
    """

    def __init__(self, cells: int, edges: NDArray[np.int64], open_: NDArray[np.bool_]) -> None:
        self.cells = int(cells)
        self.edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        self.open = np.asarray(open_, dtype=bool)

    @cached_property
    def degree(self) -> NDArray[np.int64]:
        """Open passages of each cell."""
        return np.bincount(self.edges[self.open].ravel(), minlength=self.cells).astype(np.int64)

    @cached_property
    def _steps(self) -> Tuple[List[int], List[int], List[int]]:
        """Each cell's steps as lists (offsets, neighbours, edges), made on the first walk: a proof that only
        labels pieces (:meth:`reached`) never needs them."""
        keep = np.flatnonzero(self.open)
        a, b = self.edges[keep, 0], self.edges[keep, 1]
        order = np.argsort(np.concatenate([a, b]), kind="stable")
        offsets = np.zeros(self.cells + 1, dtype=np.int64)
        np.cumsum(self.degree, out=offsets[1:])
        return (offsets.tolist(), np.concatenate([b, a])[order].tolist(),
                np.concatenate([keep, keep])[order].tolist())

    @classmethod
    def of(cls, maze: GridMaze) -> "CellGraph":
        """The graph of ``maze``'s open passages."""
        return cls(maze.grid.cells, maze.grid.edges, maze.open)

    def steps(self, cell: int) -> List[Tuple[int, int]]:
        """``(neighbour, edge)`` for each open passage of ``cell``."""
        offsets, following, edges = self._steps
        lo, hi = offsets[cell], offsets[cell + 1]
        return list(zip(following[lo:hi], edges[lo:hi]))

    def edge(self, a: int, b: int) -> int:
        """The open passage between ``a`` and ``b``; ``ValueError`` when there is none."""
        for other, k in self.steps(a):
            if other == b:
                return k
        raise ValueError(f"no open passage between cells {a} and {b}")

    def search(self, sources: Collection[int], *, shut: Collection[int] = (),
               blocked: Optional[Collection[int]] = None) -> Tuple[List[int], List[int]]:
        """Breadth-first from ``sources``: ``(distance, parent)`` per cell, -1 where unreached (or a source's parent)."""
        dist, parent = [-1] * self.cells, [-1] * self.cells
        off, nxt, eid = self._steps
        closed = set(shut)
        wall = set(blocked or ())
        frontier = [s for s in sources if s not in wall]
        for s in frontier:
            dist[s] = 0
        if not closed and not wall:  # the common case, without the two look-ups per step
            while frontier:
                following: List[int] = []
                push = following.append
                for cell in frontier:
                    d = dist[cell] + 1
                    for other in nxt[off[cell]:off[cell + 1]]:
                        if dist[other] < 0:
                            dist[other] = d
                            parent[other] = cell
                            push(other)
                frontier = following
            return dist, parent
        while frontier:
            following = []
            for cell in frontier:
                d = dist[cell] + 1
                for k in range(off[cell], off[cell + 1]):
                    other = nxt[k]
                    if dist[other] < 0 and other not in wall and eid[k] not in closed:
                        dist[other], parent[other] = d, cell
                        following.append(other)
            frontier = following
        return dist, parent

    def reached(self, source: int, *, shut: Collection[int] = (),
                blocked: Optional[Collection[int]] = None) -> NDArray[np.bool_]:
        """Which cells a walk from ``source`` reaches, ``shut`` passages closed and ``blocked`` cells walled.

        Labels the pieces of the graph with numpy passes
        (:func:`mazeplugin.unionfind.component_roots`): about ten times quicker
        than a breadth-first search in Python, for proofs that need only "reached or not".
        """
        keep = self.open.copy()
        keep[np.asarray(list(shut), dtype=np.int64)] = False
        pairs = self.edges[keep]
        if blocked:
            wall = np.zeros(self.cells, dtype=bool)
            wall[np.asarray(list(blocked), dtype=np.int64)] = True
            if wall[source]:
                return np.zeros(self.cells, dtype=bool)
            pairs = pairs[~wall[pairs[:, 0]] & ~wall[pairs[:, 1]]]
        roots = component_roots(self.cells, pairs[:, 0], pairs[:, 1])
        return np.asarray(roots == roots[source])

    def distances(self, source: int, *, shut: Collection[int] = (),
                  blocked: Optional[Collection[int]] = None) -> NDArray[np.int32]:
        """Passages walked from ``source`` to every cell (-1: unreached), ``shut`` passages closed."""
        return np.asarray(self.search([source], shut=shut, blocked=blocked)[0], dtype=np.int32)

    def way(self, parent: List[int], cell: int) -> List[int]:
        """The cells from a search's source to ``cell``, read up ``parent``."""
        out = [cell]
        while parent[out[-1]] >= 0:
            out.append(parent[out[-1]])
        return out[::-1]
