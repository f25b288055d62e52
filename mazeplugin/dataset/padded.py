"""Fixed-shape level buffers for JAX grid worlds: many levels padded into a few arrays, indexed by level number.

JAX environments (XLand-MiniGrid, NAVIX) need static shapes: they cannot run
retry-based generation inside ``jit``, but they can index a pre-made buffer.
:func:`padded` lays levels (a dataset folder, or any iterable of levels) out
as:

- ``walls`` uint8 ``(n, rows, columns)``: 1 wall, 0 floor; each level in the
  top-left corner, wall around it up to the largest level (or the given
  ``rows``, ``columns``).
- ``shape`` int32 ``(n, 2)``: each level's own ``(rows, columns)``.
- ``start``, ``goal`` int32 ``(n, 2)``: entrance and exit ``(x, y)``.
- ``keys`` int32 ``(n, max_keys, 3)``: ``(x, y, lock)`` per key, rows of -1 after the last.
- ``doors`` int32 ``(n, max_doors, 3)``: ``(x, y, lock)`` per door tile, rows of -1 after the last.
- ``seed`` uint64 ``(n,)``: each level's seed (0 where it is not a number).

``out=`` also writes them to an ``.npz`` file (the dataset's own byte-exact
writer: the same levels make the same bytes). Read it with ``np.load`` and
index it in JAX (CPU is enough)::

    buffers = np.load("levels.npz")
    walls = jax.numpy.asarray(buffers["walls"])
    level = jax.jit(lambda i: walls[i])(7)          # one static-shape level

>>> import mazeplugin as mp
>>> levels = [mp.generate("kruskal", 4, 3, seed=s, keys=1) for s in range(3)] + [mp.generate("kruskal", 2, 2, seed=0)]
>>> buffers = padded(levels)
>>> buffers["walls"].shape, buffers["keys"].shape, buffers["shape"][3].tolist(), buffers["keys"][3].tolist()
((4, 7, 9), (4, 1, 3), [5, 5], [[-1, -1, -1]])
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

import numpy as np
from numpy.typing import NDArray

import mazeplugin as mp

from .shards import npz_bytes

__all__ = ["padded", "BUFFER_NAMES"]

BUFFER_NAMES = ("walls", "shape", "start", "goal", "keys", "doors", "seed")
"""The arrays :func:`padded` gives, in the order the ``.npz`` file holds them."""


def _size(name: str, value: Optional[int], needed: int) -> int:
    if value is None:
        return needed
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a whole number >= 0 or None (the largest the levels need), got {value!r}")
    if value < needed:
        raise ValueError(f"{name}={value} is less than the levels need ({needed})")
    return value


def padded(source: Union[str, "os.PathLike[str]", Iterable[mp.Level]], *, out: Optional[Union[str, "os.PathLike[str]"]] = None,
           rows: Optional[int] = None, columns: Optional[int] = None, max_keys: Optional[int] = None,
           max_doors: Optional[int] = None) -> Dict[str, NDArray[Any]]:
    """The buffers (see the module docstring) of the levels of ``source``: a dataset folder or levels.

    ``rows``, ``columns``, ``max_keys``, ``max_doors`` fix the shapes (default:
    the largest the levels need; smaller than that is a ``ValueError``), so
    buffers of several datasets can share one shape. ``out`` writes them to
    that ``.npz`` file too.
    """
    if isinstance(source, (str, os.PathLike)):
        from .reading import open_dataset

        levels: List[Any] = list(open_dataset(source))
    else:
        levels = list(source)
    if not levels:
        raise ValueError("padded needs at least one level")
    parts: List[Tuple[NDArray[np.uint8], Tuple[int, int], Tuple[int, int], List[List[int]], List[List[int]], int]] = []
    for i, level in enumerate(levels):
        if not isinstance(level, mp.AnyLevel) or level.kind != "square" or level.weave:
            raise ValueError(f"level {i}: padded buffers hold square tile levels without weave (a JAX grid world's "
                             f"walls), got {type(level).__name__}{' with weave' if getattr(level, 'weave', False) else ''}")
        if level.entrance is None or level.exit is None:
            raise ValueError(f"level {i} has no entrance and exit (markers='none'); buffers need a start and goal")
        keys = [[t.x, t.y, int(t.props["lock"])] for t in level.things if t.kind == "key" and "lock" in t.props]
        doors = [[x, y, int(t.props["lock"])] for t in level.things if t.kind == "door" and "lock" in t.props
                 for x, y in t.tiles()]
        seed = level.seed if isinstance(level.seed, int) else 0
        parts.append((level.tiles, level.entrance, level.exit, keys, doors, seed))
    height = _size("rows", rows, max(p[0].shape[0] for p in parts))
    width = _size("columns", columns, max(p[0].shape[1] for p in parts))
    k = _size("max_keys", max_keys, max(len(p[3]) for p in parts))
    d = _size("max_doors", max_doors, max(len(p[4]) for p in parts))
    n = len(parts)
    walls = np.ones((n, height, width), dtype=np.uint8)
    buffers: Dict[str, NDArray[Any]] = {
        "walls": walls,
        "shape": np.array([p[0].shape for p in parts], dtype="<i4"),
        "start": np.array([p[1] for p in parts], dtype="<i4"),
        "goal": np.array([p[2] for p in parts], dtype="<i4"),
        "keys": np.full((n, k, 3), -1, dtype="<i4"),
        "doors": np.full((n, d, 3), -1, dtype="<i4"),
        "seed": np.array([p[5] for p in parts], dtype="<u8"),
    }
    for i, (tiles, _, _, keys, doors, _) in enumerate(parts):
        walls[i, :tiles.shape[0], :tiles.shape[1]] = tiles
        if keys:
            buffers["keys"][i, :len(keys)] = keys
        if doors:
            buffers["doors"][i, :len(doors)] = doors
    if out is not None:
        with open(os.fspath(out), "wb") as f:
            f.write(npz_bytes(buffers))
    return buffers
