"""The figures designers choose generators by, computed from the maze model in one place.

Everything here reads a maze's cells and open passages, so it works the same
for every generator and every grid: one breadth-first sweep over a list of
each cell's open neighbours serves a square :class:`~mazeplugin.maze.Maze`
(a weave's tunnels through the places under their bridges) and a
:class:`~mazeplugin.grids.GridMaze` (hex, triangle, polar, wrapping square:
:func:`grid_distances`, :func:`grid_path`, :func:`grid_stats`, cells by
number). Distances and lengths are counted in passages walked between cells,
not in tiles, on every grid.

A room (``maze.rooms``) is one open space: its cells are never dead ends, and
junctions and loops are counted with each room taken as one place, so a
room's own floor adds none (a room with three or more doors is a junction; two
doors from one room into one corridor make a loop).

Difficulty. M. S. McClendon, "The complexity and difficulty of a maze"
(Bridges 2001, pp. 213-222), measures how hard a maze is by what its solver
meets along the way: the choices offered on the way through, and how much
the hallways twist and turn. Three such figures of the solution (the
shortest path from the entrance cell to the exit cell) are in :class:`Stats`:

- ``decision_points``: places along the solution where a wrong turn is
  possible, i.e. cells of the solution (the exit cell excluded: there the
  walk is over) with at least one open passage that is neither the one the
  walk came in by nor the one it leaves by. The entrance cell counts when
  it has a passage besides the one the walk leaves by.
- ``detour_ratio``: ``solution_length`` divided by the straight-line
  (Euclidean) distance between the centres of the entrance cell and the
  exit cell, in cells: 1.0 for a straight corridor, about 1.4 for a clean
  diagonal staircase, far more for a winding solution. None without a
  solution or when both markers are in one cell.
- ``turns``: changes of direction along the solution (a hallway's twists,
  McClendon's "short and quick twists and turns").

A solver's difficulty grows with ``decision_points`` (more chances to go
wrong) and ``detour_ratio`` (the way out leads away from the goal), so
``generate(..., require={"decision_points": (20, None)})`` asks for a hard
level and ``require={"detour_ratio": (None, 1.5)}`` for an easy one.
A weave's tunnel (see :mod:`mazeplugin.weave`) is one passage between the
cells at its ends, walked through the place under its bridge: two cells
walked, no turn, never a decision point, while the bridge's own cell is an
ordinary cell of its passage (so a perfect weave has ``loops == 0``).

A room on the solution is one place here too: it is a decision point when
it has a door besides the ones the walk enters and leaves by, and the walk
turns only at ordinary cells (a room is crossed in a straight line).

>>> from mazeplugin.maze import Maze
>>> maze = Maze(3, 2)
>>> maze.open_many([0, 1, 1, 3], [1, 2, 4, 4])  # a T with a tail: 0-1-2, 1-4-3; cell 5 sealed
>>> dead_ends(maze)
[(0, 0), (2, 0), (0, 1)]
>>> s = stats(maze, start=(0, 0), goal=(0, 1))
>>> s.dead_ends, s.junctions, s.loops, s.longest_path, s.solution_length
(3, 1, 0, 3, 3)
>>> s.decision_points, s.turns, s.detour_ratio   # the walk 0-1-4-3 passes the fork at 1
(1, 2, 3.0)
"""

from __future__ import annotations

from dataclasses import dataclass
import math
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ._compiled import twin
from .maze import Cell, Maze

if TYPE_CHECKING:  # pragma: no cover - a grid maze is only read here: importing mazeplugin loads no grid
    from .grids import GridMaze

__all__ = ["Stats", "dead_ends", "stats", "distances", "grid_distances", "grid_path", "grid_stats", "dead_end_cells"]

_BFS = twin("bfs")  # the compiled bfs kernel, or the plain code beside each use


@dataclass(frozen=True)
class Stats:
    """A maze's texture in numbers.

    Attributes:
        cells: cells in the maze (inside its mask).
        passages: open passages between cells.
        dead_ends: cells outside rooms with exactly one open passage.
        dead_end_fraction: ``dead_ends / cells``.
        junctions: cells outside rooms with three or more open passages,
            plus rooms with three or more doors.
        loops: independent loops (passages − places + connected pieces,
            where a room is one place and its inner passages are not
            counted); 0 for a perfect maze.
        longest_path: passages walked along the longest shortest path between
            two cells of one connected piece (exact for perfect mazes; a
            double breadth-first sweep, so a lower bound, with loops).
        solution_length: passages walked on the shortest path from the entrance
            cell to the exit cell; None without markers or when unreachable.
        decision_points: cells (a room counts once) along that path where a wrong turn is
            possible (see the module docstring); None like ``solution_length``.
        detour_ratio: ``solution_length`` over the straight-line distance
            between the entrance and exit cells' centres (≥ 1); None without
            a solution or when entrance and exit are in one cell.
        turns: changes of direction along that path; None like ``solution_length``.
    """

    cells: int
    passages: int
    dead_ends: int
    dead_end_fraction: float
    junctions: int
    loops: int
    longest_path: int
    solution_length: Optional[int]
    decision_points: Optional[int] = None
    detour_ratio: Optional[float] = None
    turns: Optional[int] = None


def dead_ends(maze: Maze) -> List[Cell]:
    """The ``(x, y)`` cells with exactly one open passage, in row-major order.

    Room cells are never dead ends: a room is one open space. A weave's
    tunnel is a passage of the cells at its ends.
    """
    degree: Any = maze.degree()
    if maze.under is not None and maze.under.any():
        degree = _woven_degree(maze)
    ys, xs = np.nonzero((degree == 1) & maze.mask & (maze.rooms == 0))
    return list(zip(xs.tolist(), ys.tolist()))


def _room_counts(maze: Maze) -> Tuple[int, int, int]:
    """``(rooms, inner passages, rooms with three or more doors)`` of ``maze``."""
    rooms = maze.rooms
    if not rooms.any():
        return 0, 0, 0
    a, b = maze.passages()
    ra, rb = rooms.flat[a], rooms.flat[b]
    inner = (ra == rb) & (ra > 0)
    # A door joins a room cell to a cell outside that room; count it for each room it opens.
    doors = np.concatenate([ra[~inner], rb[~inner]])
    per_room = np.bincount(doors, minlength=int(rooms.max()) + 1)[1:]
    present = np.unique(rooms[rooms > 0])
    return len(present), int(inner.sum()), int((per_room[present - 1] >= 3).sum())


def _adjacency(maze: Maze) -> List[List[int]]:
    """Each cell's list of cells it has an open passage to."""
    table = maze.neighbour_table()
    h, w = maze.height, maze.width
    opened = np.zeros((h, w, 4), dtype=bool)
    opened[1:, :, 0] = maze.south[:-1, :]
    opened[:, :, 1] = maze.east
    opened[:, :, 2] = maze.south
    opened[:, 1:, 3] = maze.east[:, :-1]
    table = np.where(opened.reshape(-1, 4), table, -1)
    return [[n for n in row if n >= 0] for row in table.tolist()]


def _sweep(adjacency: Sequence[List[int]], source: int, target: int = -1) -> Dict[int, int]:
    """Breadth-first distances (cells walked) from ``source``, in the order reached.

    Stops once ``target`` is reached; the last key is the farthest cell reached.
    """
    dist = {source: 0}
    order = [source]
    for cell in order:
        if cell == target:
            break
        d = dist[cell] + 1
        for n in adjacency[cell]:
            if n not in dist:
                dist[n] = d
                order.append(n)
    return dist


def stats(maze: Maze, start: Optional[Cell] = None, goal: Optional[Cell] = None) -> Stats:
    """The :class:`Stats` of ``maze``; ``solution_length`` runs from cell ``start`` to ``goal``.

    >>> import mazeplugin as mp
    >>> s = stats(mp.generate("backtracker", 20, 20, seed=1).maze)
    >>> s.cells, s.passages, s.loops, s.solution_length
    (400, 399, 0, None)
    """
    woven = maze.under is not None and bool(maze.under.any())  # a weave: its tunnels walked under the bridges
    ordinary = maze.mask & (maze.rooms == 0)
    degree = (_woven_degree(maze) if woven else maze.degree())[ordinary]
    cells = int(maze.mask.sum())
    room_count, inner, busy_rooms = _room_counts(maze)
    passages = maze.passage_count() + (len(maze.under_passages()[1]) if woven else 0)  # (a tunnel: one passage)
    ends = (maze.cell_id(*start), maze.cell_id(*goal)) if start is not None and goal is not None else None
    fast = None if woven else _BFS.pick(maze.size)
    if fast is not None:  # the same sweeps and walk, compiled (mazeplugin/_compiled/bfs.py; it knows no tunnels)
        pieces, longest, walk = fast.stats_sweeps(maze, *(ends or (-1, -1)))
        adjacency: Sequence[List[int]] = _Links(maze)
    else:
        adjacency = _neighbours(maze)
        pieces, longest = _pieces(maze.cells().tolist(), adjacency)
        walk = None if ends is None else _shortest_walk(adjacency, *ends)
    dead = int((degree == 1).sum())
    return Stats(
        cells=cells,
        passages=passages,
        dead_ends=dead,
        dead_end_fraction=dead / cells if cells else 0.0,
        junctions=int((degree >= 3).sum()) + busy_rooms,
        loops=(passages - inner) - (int(ordinary.sum()) + room_count) + pieces,
        longest_path=longest,
        solution_length=None if walk is None else len(walk) - 1,
        decision_points=None if walk is None else _decision_points(maze, adjacency, walk),
        detour_ratio=None if walk is None else _detour_ratio(maze, walk),
        turns=None if walk is None else _turns(maze, walk),
    )


def _pieces(cells: List[int], adjacency: List[List[int]]) -> Tuple[int, int]:
    """``(connected pieces, longest path)`` of ``cells``: a double breadth-first sweep per piece."""
    seen = np.zeros(len(adjacency), dtype=bool)  # (a weave's adjacency has the places under bridges too)
    pieces = 0
    longest = 0
    for cell in cells:
        if seen[cell]:
            continue
        pieces += 1
        reached = list(_sweep(adjacency, cell))
        seen[reached] = True
        if len(reached) > 1:
            longest = max(longest, max(_sweep(adjacency, reached[-1]).values()))
    return pieces, longest


class _Links(Sequence[List[int]]):
    """``_adjacency(maze)[cell]`` worked out for one cell when asked (the compiled
    path reads only the cells of the solution, not all of them)."""

    def __init__(self, maze: Maze) -> None:
        self.east = maze.east.ravel()
        self.south = maze.south.ravel()
        self.width = maze.width

    def __len__(self) -> int:
        return len(self.east)

    def __getitem__(self, cell: int) -> List[int]:  # type: ignore[override]
        w = self.width
        links = []
        if cell >= w and self.south[cell - w]:
            links.append(cell - w)
        if self.east[cell]:
            links.append(cell + 1)
        if self.south[cell]:
            links.append(cell + w)
        if cell % w and self.east[cell - 1]:
            links.append(cell - 1)
        return links


def _shortest_walk(adjacency: Sequence[List[int]], source: int, target: int) -> Optional[List[int]]:
    """The cells of one shortest walk from ``source`` to ``target`` (both included), or None.

    Back from ``target`` along :func:`_sweep`'s distances, each cell's way in the one the sweep reached it
    from (its neighbour one nearer that the sweep took first; neighbours in north, east, south, west order),
    so the same maze always gives the same walk when several are shortest.
    """
    dist = _sweep(adjacency, source, target)
    if target not in dist:
        return None
    order = {cell: i for i, cell in enumerate(dist)}
    walk = [target]
    while walk[-1] != source:
        nearer = dist[walk[-1]] - 1
        walk.append(min((n for n in adjacency[walk[-1]] if dist.get(n) == nearer), key=order.__getitem__))
    walk.reverse()
    return walk


def _decision_points(maze: Maze, adjacency: Sequence[List[int]], walk: List[int]) -> int:
    """Places of ``walk`` (the last excluded) with an open way off the walk's own way in and out.

    A place is an ordinary cell, or a whole room (consecutive cells of the
    walk in one room), whose ways out are its doors.
    """
    rooms = np.pad(maze.rooms.ravel(), (0, len(adjacency) - maze.size))  # (a place under a bridge: in no room)
    places: List[List[int]] = []
    for cell in walk:
        room = int(rooms[cell])
        if places and room and rooms[places[-1][0]] == room:
            places[-1].append(cell)
        else:
            places.append([cell])
    count = 0
    for i, place in enumerate(places[:-1]):
        room = int(rooms[place[0]])
        if room:
            ways = sum(1 for cell in np.flatnonzero(rooms == room).tolist()
                       for n in adjacency[cell] if rooms[n] != room)
        else:
            ways = len(adjacency[place[0]])
        used = 1 + (i > 0)  # the way out, and the way in (none at the entrance)
        if ways > used:
            count += 1
    return count


def _detour_ratio(maze: Maze, walk: List[int]) -> Optional[float]:
    (x0, y0), (x1, y1) = maze.cell_xy(walk[0]), maze.cell_xy(walk[-1])
    # sqrt of the exact integer sum, not math.hypot: hypot is correctly rounded only from Python 3.10
    # (on 3.9 it differs in the last bit for most pairs, and the figure must be the same everywhere).
    straight = math.sqrt((x1 - x0) ** 2 + (y1 - y0) ** 2)
    return (len(walk) - 1) / straight if straight else None


def _turns(maze: Maze, walk: List[int]) -> int:
    """Changes of direction at ordinary cells of ``walk`` (a room is crossed in a straight line)."""
    cells = np.asarray(walk, dtype=np.int64)
    under = cells >= maze.size
    if under.any():  # a tunnel's middle is under its bridge's cell
        cells[under] = maze.under_passages()[1][cells[under] - maze.size]
    steps = np.diff(cells)  # ±1 east/west, ±width south/north
    turned = steps[1:] != steps[:-1]
    return int(np.count_nonzero(turned & (maze.rooms.ravel()[cells[1:-1]] == 0)))


def _woven_degree(maze: Maze) -> "np.ndarray[Any, np.dtype[np.int64]]":
    """Each cell's open passages, a tunnel counted at both its ends."""
    ends_a, _, ends_b = maze.under_passages()
    degree = maze.degree().astype(np.int64)
    flat = degree.reshape(-1)
    np.add.at(flat, ends_a, 1)
    np.add.at(flat, ends_b, 1)
    return degree


def _neighbours(maze: "Union[Maze, GridMaze]") -> List[List[int]]:
    """Each cell's open neighbours: a grid maze's, or a square maze's (:func:`_adjacency`) with its tunnels, the
    place under bridge ``k`` node ``size + k`` joined to the tunnel's two ends."""
    if not isinstance(maze, Maze):
        offsets, neighbours = maze.open_adjacency()
        off, nbr = offsets.tolist(), neighbours.tolist()
        return [nbr[off[c]:off[c + 1]] for c in range(maze.grid.cells)]
    adjacency = _adjacency(maze)
    if maze.under is not None:
        ends_a, _, ends_b = maze.under_passages()
        for k, (a, b) in enumerate(zip(ends_a.tolist(), ends_b.tolist())):
            adjacency[a].append(maze.size + k)
            adjacency[b].append(maze.size + k)
            adjacency.append([a, b])
    return adjacency


def distances(maze: "Union[Maze, GridMaze]", source: int) -> "np.ndarray[Any, np.dtype[np.int32]]":
    """Passages walked from cell ``source`` to every cell of any maze (a square maze's cells row-major; a weave's
    tunnel two, through the place under its bridge), -1 where it cannot be reached or outside the mask.

    >>> from mazeplugin.grids import GridMaze, TriangleGrid
    >>> maze = GridMaze(TriangleGrid(3, 1))
    >>> maze.link(0, 1); maze.link(1, 2)
    >>> distances(maze, 0).tolist(), grid_path(maze, 0, 2), grid_stats(maze, 0, 2).dead_ends
    ([0, 1, 2], [0, 1, 2], 2)
    """
    cells = _check_cell(maze, source, "source")
    return _distance_array(_neighbours(maze), source, cells)


grid_distances = distances  # (the name it had when only grid mazes were swept by number)


def _distance_array(adjacency: List[List[int]], source: int, cells: int) -> "np.ndarray[Any, np.dtype[np.int32]]":
    """:func:`_sweep`'s distances to cells ``0 … cells-1`` (nodes past them dropped), -1 where not reached."""
    dist = np.full(len(adjacency), -1, dtype=np.int32)
    found = _sweep(adjacency, source)
    dist[list(found)] = list(found.values())
    return dist[:cells]


# -- any grid's cells (hex, triangle, polar, wrapping square): the same sweeps over its open passages ---


def grid_path(maze: "GridMaze", start: int, goal: int) -> List[int]:
    """The cells of the shortest way from ``start`` to ``goal`` of a grid maze, both included; [] when there is none."""
    _check_cell(maze, start, "start")
    _check_cell(maze, goal, "goal")
    return _shortest_walk(_neighbours(maze), start, goal) or []


def dead_end_cells(maze: "Union[Maze, GridMaze]") -> "np.ndarray[Any, np.dtype[np.int64]]":
    """The numbers of the cells of any maze with exactly one open passage, ascending (a square maze's as
    :func:`dead_ends`: rooms' cells never)."""
    if isinstance(maze, Maze):
        return np.array([maze.cell_id(*cell) for cell in dead_ends(maze)], dtype=np.int64)
    return np.flatnonzero(maze.degrees() == 1).astype(np.int64)


def grid_stats(maze: "GridMaze", entrance: Optional[int], exit: Optional[int]) -> Stats:
    """The :class:`Stats` of a grid maze. ``solution_length`` and ``longest_path`` count the cells on the way
    (one more than the passages a square level's :func:`stats` counts: the grid levels' figures since they
    were made, which ``require=``, dataset filters and shards keep), the longest path found by a double sweep
    from cell 0's piece; ``detour_ratio`` and ``turns`` are None: a grid's cells have no common straight line
    to measure them by.

    >>> from mazeplugin.grids import GridMaze, TriangleGrid
    >>> maze = GridMaze(TriangleGrid(3, 1))
    >>> maze.link(0, 1); maze.link(1, 2)
    >>> s = grid_stats(maze, 0, 2)
    >>> s.solution_length, s.longest_path, s.passages
    (3, 3, 2)
    """
    adjacency, cells, passages, degree = _neighbours(maze), maze.grid.cells, int(maze.open.sum()), maze.degrees()
    walk = _shortest_walk(adjacency, entrance, exit) if entrance is not None and exit is not None else None
    pieces, _ = _pieces(list(range(cells)), adjacency)
    farthest = int(np.argmax(_distance_array(adjacency, 0, cells)))  # a double sweep from cell 0
    dead = int(np.count_nonzero(degree == 1))
    return Stats(cells=cells, passages=passages, dead_ends=dead, dead_end_fraction=dead / cells,
                 junctions=int(np.count_nonzero(degree >= 3)), loops=passages - cells + pieces,
                 longest_path=max(_sweep(adjacency, farthest).values()) + 1,
                 solution_length=None if walk is None else len(walk),  # a wrong turn: a passage off the way
                 decision_points=None if walk is None else sum(
                     1 for i, cell in enumerate(walk[:-1]) if degree[cell] > 1 + (i > 0)))


def _check_cell(maze: "Union[Maze, GridMaze]", cell: object, name: str) -> int:
    """How many cells ``maze`` has, once ``cell`` is checked to be one of them."""
    cells = maze.size if isinstance(maze, Maze) else maze.grid.cells
    if isinstance(cell, bool) or not isinstance(cell, (int, np.integer)) or not 0 <= int(cell) < cells:
        raise ValueError(f"{name} must be a cell number from 0 to {cells - 1}, got {cell!r}")
    return int(cells)
