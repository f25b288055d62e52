"""What the agent sees: MiniGrid's egocentric view, its offsets and its line of sight (``Grid.process_vis``).

>>> import numpy as np
>>> see = np.ones((3, 3), dtype=bool)
>>> bool(visible_one(see).all())
True
"""

from __future__ import annotations

from typing import List, Tuple

import numpy as np
from numpy.typing import NDArray

__all__ = ["DIRECTION_VECTORS", "view_offsets", "visible", "visible_one", "spread_rows", "sideways_table"]

DIRECTION_VECTORS = np.array([(1, 0), (0, 1), (-1, 0), (0, -1)], dtype=np.intp)
"""``(dx, dy)`` of directions 0 east, 1 south, 2 west, 3 north (MiniGrid's DIR_TO_VEC)."""


def view_offsets(view_size: int) -> Tuple[NDArray[np.intp], NDArray[np.intp]]:
    """``(dy, dx)``, each ``(4, V, V)``: the world tile under view cell ``[vy, vx]`` for each direction.

    MiniGrid's view: the agent at view ``(V // 2, V - 1)`` looking up, so view
    cell ``(vx, vy)`` is ``V - 1 - vy`` tiles ahead and ``vx - V // 2`` to the right.
    """
    vy, vx = np.mgrid[0:view_size, 0:view_size]
    ahead, right = view_size - 1 - vy, vx - view_size // 2
    dys, dxs = [], []
    for fx, fy in DIRECTION_VECTORS:
        rx, ry = -fy, fx
        dxs.append(fx * ahead + rx * right)
        dys.append(fy * ahead + ry * right)
    return np.array(dys, dtype=np.intp), np.array(dxs, dtype=np.intp)


def visible(see: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Which view cells the agent sees, for N views at once: MiniGrid's ``Grid.process_vis``.

    ``see`` is bool ``(N, V, V)`` indexed ``[n, vy, vx]``: True where sight
    passes (floor, keys, the goal, open doors). Row by row from the agent's
    (the bottom one) up, sight spreads sideways along the row through cells
    it passes, and up into the row above beside every lit cell it passes.
    Loops over the view's rows and columns, never over the N views.

    >>> see = np.ones((1, 3, 3), dtype=bool); see[0, 1, :] = [True, False, False]
    >>> visible(see)[0].astype(int).tolist()
    [[1, 1, 1], [1, 1, 1], [1, 1, 1]]
    """
    n, size, _ = see.shape
    through = np.ascontiguousarray(see.transpose(1, 2, 0))  # [vy, vx, n]: every slice below is contiguous
    mask = np.zeros((size, size, n), dtype=bool)
    mask[size - 1, size // 2] = True
    lit = np.empty((size, n), dtype=bool)
    for j in range(size - 1, -1, -1):
        row, passes = mask[j], through[j]
        for i in range(size - 1):
            row[i + 1] |= row[i] & passes[i]
        for i in range(size - 1, 0, -1):
            row[i - 1] |= row[i] & passes[i]
        if j:
            np.logical_and(row, passes, out=lit)
            above = mask[j - 1]
            above |= lit
            above[1:] |= lit[:-1]
            above[:-1] |= lit[1:]
    spread: NDArray[np.bool_] = mask.transpose(2, 0, 1)
    return spread


def visible_one(see: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """:func:`visible` for a single ``(V, V)`` view, over Python lists: faster than numpy for one.

    >>> see = np.ones((3, 3), dtype=bool); see[1, :] = [True, False, False]
    >>> visible_one(see).astype(int).tolist()
    [[1, 1, 1], [1, 1, 1], [1, 1, 1]]
    """
    spread: NDArray[np.bool_] = np.array(spread_rows(see.tolist()), dtype=bool)
    return spread


def spread_rows(rows: List[List[bool]]) -> List[List[bool]]:
    """:func:`visible_one` over lists of lists."""
    size = len(rows)
    mask = [[False] * size for _ in range(size)]
    mask[size - 1][size // 2] = True
    last = size - 1
    for j in range(last, -1, -1):
        row, through = mask[j], rows[j]
        for i in range(last):
            if row[i] and through[i]:
                row[i + 1] = True
        for i in range(last, 0, -1):
            if row[i] and through[i]:
                row[i - 1] = True
        if j:
            above = mask[j - 1]
            for i in range(size):
                if row[i] and through[i]:
                    above[i] = True
                    if i:
                        above[i - 1] = True
                    if i < last:
                        above[i + 1] = True
    return mask


def sideways_table(size: int) -> NDArray[np.uint8]:
    """How sight spreads along one view row of ``size`` cells (up to 7), for every row: uint8 ``(2 ** (2 * size),)``.

    Entry ``(lit << size) | passes`` is the row's lit cells after sight
    spreads sideways (as in :func:`visible`) from the ``lit`` cells through
    the cells sight passes, bit ``i`` for view column ``i``. The compiled
    step (:mod:`mazeplugin.gym.kernels`) looks rows up in it.

    >>> table = sideways_table(3)
    >>> bin(table[(0b010 << 3) | 0b011])   # lit middle; sight passes columns 0, 1: column 0 lit, and 2 beyond 1
    '0b111'
    >>> bin(table[(0b010 << 3) | 0b001])   # the middle blocks: only it stays lit
    '0b10'
    """
    if not 1 <= size <= 7:
        raise ValueError(f"size must be from 1 to 7 (a table of 4 ** size entries), got {size}")
    entries = np.arange(1 << (2 * size), dtype=np.int64)
    lit, passes = entries >> size, entries & ((1 << size) - 1)
    for _ in range(size):  # right, a cell at a time, through the cells sight passes
        lit |= (lit & passes) << 1
    lit &= (1 << size) - 1
    for _ in range(size):  # then left
        lit |= (lit & passes) >> 1
    table: NDArray[np.uint8] = lit.astype(np.uint8)
    return table
