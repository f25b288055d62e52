"""Compiled :func:`mazeplugin.generators.graph.prim` (any grid; same passages, same draws).

The plain path weighs each edge with one float (``rng.random``), takes the
edges in the stable order of their weights and keeps those that join two
sets (Borůvka's bulk form of that pass). A weight is ``(word >> 11) * 2**-53``,
exact and increasing in ``word >> 11``, so sorting that integer key stably
gives the same order, ties included; Kruskal's pass over it
(:func:`~mazeplugin._compiled.kruskal.join_in_order`) keeps the same edges.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from ..grids import Grid
from ..seeds import Random
from .kruskal import join_edges
from .grid import u64
from .sort import stable_argsort


@njit(u64(u64), cache=True, nogil=True)
def weight_keys(words: Any) -> Any:
    """Each edge's weight ``unit(word)`` as the integer it scales, ``word >> 11``: the same order."""
    keys = np.empty(words.size, dtype=np.uint64)
    for k in range(words.size):
        keys[k] = words[k] >> np.uint64(11)
    return keys


def generate(grid: Grid, rng: Random) -> "np.ndarray[Any, np.dtype[np.bool_]]":
    """True Prim's tree on ``grid`` by weight-ordered Kruskal, compiled: one bool per edge."""
    opened = np.zeros(grid.edge_count, dtype=np.uint8)
    keys = weight_keys(rng.raw(grid.edge_count))  # the plain path's rng.random(edges), as exact integers
    join_edges(grid, stable_argsort(keys), opened)
    return opened.view(np.bool_)
