"""``prim`` computes true Prim's tree by a vectorised route; it must be the heap's tree exactly.

With distinct random wall weights the minimum spanning tree is unique, so
Prim's heap and Borůvka's rounds find the same one. This checks it against
the heap algorithm as written, over sizes, seeds and masks.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from mazeplugin.generators.prim import _grow_with_heap, prim
from mazeplugin.maze import Maze
from mazeplugin.seeds import Random


def _both(width: int, height: int, seed: int, mask=None) -> tuple:
    fast = Maze(width, height, mask)
    prim(fast, Random.from_seed(seed))
    reference = Maze(width, height, mask)
    weights = Random.from_seed(seed).random(2 * reference.size).tolist()
    _grow_with_heap(reference, weights)
    return fast, reference


@given(width=st.integers(1, 40), height=st.integers(1, 40), seed=st.integers(0, 2**63))
def test_prim_is_the_heap_algorithms_tree(width, height, seed):
    fast, reference = _both(width, height, seed)
    assert (fast.east == reference.east).all() and (fast.south == reference.south).all()


@given(
    mask=st.lists(st.lists(st.booleans(), min_size=9, max_size=9), min_size=7, max_size=7).filter(
        lambda rows: any(any(r) for r in rows)
    ),
    seed=st.integers(0, 2**32),
)
def test_prim_is_the_heap_algorithms_forest_inside_masks(mask, seed):
    fast, reference = _both(9, 7, seed, np.array(mask))
    assert (fast.east == reference.east).all() and (fast.south == reference.south).all()
