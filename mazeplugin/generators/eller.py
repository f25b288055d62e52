"""Eller's algorithm: a perfect maze one row at a time, in O(width) memory.

Each cell of the current row belongs to a set (cells known to be joined
through the rows above). For each row: join random horizontal neighbours that
are in different sets, merging the sets; then open at least one downward
passage from every set, and maybe more, at random; cells below that got no
passage start new sets. The last row joins every pair of neighbours still in
different sets. Only the current row's sets are kept, so rows can be streamed
forever (see :func:`mazeplugin.stream`). Texture: about 28–30% dead ends,
short horizontal runs; a perfect maze.

Sources: M. Eller (1982), as described by W. D. Pullen, "Think Labyrinth:
Maze Algorithms", and J. Buck, "Mazes for Programmers", ch. 12; founding
document 002 (O(n) 线性空间的迷宫生成算法: rows printed as they are made,
connectivity kept in a union-find with per-set counts).
"""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Tuple


from .._compiled import kernel
from ..maze import Maze
from ..registry import register
from ..seeds import Random

Row = Tuple[List[bool], List[bool]]


def eller_rows(width: int, rng: Random, height: Optional[int] = None) -> Iterator[Row]:
    """Yield ``(east, south)`` passage rows, forever when ``height`` is None.

    Every row draws the same count of random numbers, so the rows of a
    finite maze are exactly the first rows of the endless one, but for the
    last row, which is closed.
    """
    fast = kernel("eller", width * 64)
    if fast is not None:  # the same rows, compiled (mazeplugin/_compiled/eller.py)
        yield from fast.stream_rows(width, rng, height)
        return
    sets = list(range(width))  # set label of each cell in the current row
    next_label = width
    y = 0
    while height is None or y < height:
        last = height is not None and y == height - 1
        join = rng.random(max(width - 1, 0)).tolist()
        down = rng.random(width).tolist()
        pick = rng.random(width).tolist()

        # Join horizontal neighbours in different sets (all of them in the last row).
        members: Dict[int, List[int]] = {}
        for x, label in enumerate(sets):
            members.setdefault(label, []).append(x)
        east = [False] * width
        for x in range(width - 1):
            a, b = sets[x], sets[x + 1]
            if a != b and (last or join[x] < 0.5):
                east[x] = True
                if len(members[a]) < len(members[b]):
                    a, b = b, a  # relabel the smaller set
                for c in members[b]:
                    sets[c] = a
                members[a].extend(members.pop(b))

        south = [False] * width
        if not last:
            # Every set goes down at least once; each cell also goes down with p = 1/2.
            for label, cells in members.items():
                going = [c for c in cells if down[c] < 0.5]
                if not going:
                    going = [cells[int(pick[cells[0]] * len(cells))]]
                for c in going:
                    south[c] = True
            for x in range(width):
                if not south[x]:
                    sets[x] = next_label
                    next_label += 1
        yield east, south
        y += 1


def _eller(maze: Maze, rng: Random) -> None:
    """Eller's algorithm: row by row in O(width) memory; streams endless levels. Perfect."""
    if not maze.mask.all():
        raise ValueError("eller works row by row over the whole grid and cannot take a mask")
    fast = kernel("eller", maze.size)
    if fast is not None:  # the same rows, compiled (mazeplugin/_compiled/eller.py)
        fast.generate(maze, rng)
        return
    for y, (east, south) in enumerate(eller_rows(maze.width, rng, maze.height)):
        maze.east[y] = east
        maze.south[y] = south


register("eller", rows=eller_rows, masks=False)(_eller)

