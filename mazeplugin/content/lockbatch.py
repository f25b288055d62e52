"""Keys and locked doors for many levels of one layout at once: ``keys=`` placement in a batch.

:func:`mazeplugin.content.placing.furnished` with only ``keys`` asked for, for
a batch of levels that share their layout and markers (levels of one request
made by :func:`mazeplugin.pipeline_batch.make_batch`): the content streams of
every seed in one loop (:func:`mazeplugin.seeds.keyed_words`), every level's
locks planned in one call of the compiled ``locks`` kernel
(:mod:`mazeplugin._compiled.locks`, the same floor graph, candidates, plan and
floats as the one-level path). The things made from the plan are the ones
``generate(..., keys=k)`` gives (``tests/test_gym_levelbatch.py`` compares
them level by level). Without the compiled path there is no batch:
:func:`place_locks_batch` returns None and the caller makes its levels one by one.

>>> import mazeplugin as mp
>>> from mazeplugin.tiles import Layout
>>> level = mp.generate("backtracker", 6, 5, seed=3, keys=1)
>>> plan = place_locks_batch(level.base_tiles[None], Layout(6, 5), level.entrance, level.exit, [3], 1)
>>> plan is None or plan.things(0) == level.things
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from .._compiled import twin
from ..seeds import Seed, keyed_words
from ..tiles import Layout, Tile
from .request import CONTENT_STREAM
from .things import Thing

__all__ = ["LockPlan", "place_locks_batch"]

_LOCKS = twin("locks")  # the compiled locks kernel, or the plain code beside each use


@dataclass
class LockPlan:
    """Where the locks of a batch of levels go, as arrays (one row a level).

    ``placed[i]``: the level holds its ``keys`` locks (False: ``generate`` would
    raise ``ValueError`` for it). For a placed level, lock ``k + 1`` has its
    door on base tile ``door_base[i, k]`` and its key in cell ``key_cell[i, k]``
    (``(x, y)`` each); :meth:`key_tiles` and :meth:`door_blocks` give them in tiles.
    """

    layout: Layout
    placed: NDArray[np.bool_]
    door_base: NDArray[np.int64]
    key_cell: NDArray[np.int64]
    _lists: Optional[Tuple[List[Any], List[Any], List[Any]]] = field(default=None, init=False, repr=False)

    @property
    def keys(self) -> int:
        """Locks per level."""
        return int(self.door_base.shape[1])

    def key_tiles(self) -> NDArray[np.int64]:
        """``(levels, keys, 2)``: each key's tile ``(x, y)`` (the middle of its cell's block)."""
        return self._middles(2 * self.key_cell + 1)

    def door_blocks(self) -> NDArray[np.int64]:
        """``(levels, keys, 4)``: each door's tiles as ``(x0, y0, x1, y1)``, the block ``x0 <= x < x1``, ``y0 <= y < y1``."""
        start, size = self._spans(self.door_base)
        return np.concatenate([start, start + size], axis=-1)

    def door_tiles(self) -> NDArray[np.int64]:
        """``(levels, keys, 2)``: the tile ``(x, y)`` each door thing stands on (the middle of its block)."""
        return self._middles(self.door_base)

    def _spans(self, base: NDArray[np.int64]) -> Tuple[NDArray[np.int64], NDArray[np.int64]]:
        """First tile and size of the blocks of base coordinates ``base`` (each axis alike)."""
        layout = self.layout
        odd = base % 2 == 1
        start = (base // 2) * layout.pitch + np.where(odd, layout.wall, 0)
        return start, np.where(odd, layout.corridor, layout.wall)

    def _middles(self, base: NDArray[np.int64]) -> NDArray[np.int64]:
        start, size = self._spans(base)
        return start + (size - 1) // 2

    def things(self, index: int) -> Tuple[Thing, ...]:
        """Level ``index``'s things, as ``place_things`` makes them: key, door, key, door, ... ids from 1."""
        if self._lists is None:  # the whole batch's positions as Python ints, once
            self._lists = (self.key_tiles().tolist(), self.door_tiles().tolist(), self.door_blocks().tolist())
        keys, doors, blocks = (part[index] for part in self._lists)
        made: List[Thing] = []
        for k in range(self.keys):
            key_id, door_id, lock = 2 * k + 1, 2 * k + 2, k + 1
            x0, y0, x1, y1 = blocks[k]
            tiles = tuple((x, y) for y in range(y0, y1) for x in range(x0, x1))
            made.append(Thing.made("key", keys[k][0], keys[k][1], key_id, {"door": door_id, "lock": lock}))
            made.append(Thing.made("door", doors[k][0], doors[k][1], door_id,
                                   {"key": key_id, "lock": lock, "tiles": tiles}))
        return tuple(made)


def place_locks_batch(base: NDArray[np.uint8], layout: Layout, entrance: Tile, exit: Tile,
                      seeds: Sequence[Seed], keys: int) -> Optional[LockPlan]:
    """``keys`` locks on each of the base tilemaps ``base`` (``(levels, rows, columns)``, 1 wall), the content
    stream of ``seeds[i]`` for level ``i``; None when the compiled ``locks`` kernel is not loaded.

    The levels share ``layout`` and their markers ``entrance`` and ``exit`` (tiles);
    ``keys`` is at least 1 and the seeds are resolved.
    """
    count = len(seeds)
    if base.ndim != 3 or base.shape[0] != count:
        raise ValueError(f"base must hold one tilemap per seed ({count}), got shape {base.shape}")
    if base.shape[1:] != (2 * layout.height + 1, 2 * layout.width + 1):
        raise ValueError(f"base must hold base tilemaps of the layout's {layout.width} x {layout.height} cells "
                         f"({2 * layout.height + 1} x {2 * layout.width + 1}), got {base.shape[1]} x {base.shape[2]}")
    if isinstance(keys, bool) or not isinstance(keys, int) or keys < 1:
        raise ValueError(f"keys must be a whole number >= 1, got {keys!r}")
    fast = _LOCKS.pick(base.size)
    if fast is None:
        return None
    width, height = layout.width, layout.height
    stride = base.shape[2] + 2
    cells = np.arange(width * height, dtype=np.int64)
    cell_tiles = (2 * (cells // width) + 2) * stride + 2 * (cells % width) + 2

    def padded(tile: Tile) -> int:
        bx, by = layout.base_of(tile)
        return int((by + 1) * stride + bx + 1)

    markers = np.array([x + y * width for x, y in (layout.cell_of(entrance), layout.cell_of(exit))], dtype=np.int64)
    words = keyed_words(list(seeds), CONTENT_STREAM, width * height)
    door_tiles = np.zeros((count, keys), dtype=np.int64)
    key_cells = np.zeros((count, keys), dtype=np.int64)
    placed = np.zeros(count, dtype=np.bool_)
    base = np.ascontiguousarray(base, dtype=np.uint8)
    if not base.flags.writeable:  # (a level's own tiles are read-only; the kernel is compiled for writable arrays)
        base = base.copy()
    fast.place_locks(base, padded(entrance), padded(exit), cell_tiles,
                     markers, words, keys, door_tiles, key_cells, placed)
    door_base = np.stack([door_tiles % stride - 1, door_tiles // stride - 1], axis=-1)
    key_cell = np.stack([key_cells % width, key_cells // width], axis=-1)
    return LockPlan(layout, placed, door_base, key_cell)
