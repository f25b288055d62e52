"""``prim`` computes true Prim's tree by a vectorised route; it must be the heap's tree exactly.

With distinct random wall weights the minimum spanning tree is unique, so
Prim's heap and Borůvka's rounds find the same one. This checks it against
the heap algorithm as written, over sizes, seeds and masks; and on a square
maze with tied weights the heap's own tree is the one made.
"""

from __future__ import annotations

import os
from unittest import mock

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.generators.graph import maze_grid
from mazeplugin.generators.prim import _grow_with_heap, edge_weights
from mazeplugin.maze import Maze
from mazeplugin.seeds import Random


def _heap_tree(maze: Maze, rng: Random) -> None:
    grid = maze_grid(maze)
    grid.open_on(maze, np.asarray(_grow_with_heap(grid, edge_weights(grid, rng), grid.cell_of(*maze.start))))


def _both(width: int, height: int, seed: int, mask=None) -> tuple:
    fast = Maze(width, height, mask)
    mp.get_generator("prim").function(fast, Random.from_seed(seed))
    reference = Maze(width, height, mask)
    _heap_tree(reference, Random.from_seed(seed))
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


class _Coarse(Random):
    """A stream whose floats take four values only, so many walls tie."""

    def random(self, size: int):  # type: ignore[override]
        return np.floor(super().random(size) * 4) / 4


@given(width=st.integers(1, 12), height=st.integers(1, 12), seed=st.integers(0, 2**32))
def test_tied_weights_on_a_square_maze_grow_the_heaps_tree(width, height, seed):
    fast, reference = Maze(width, height), Maze(width, height)
    with mock.patch.dict(os.environ, {"MAZEPLUGIN_COMPILED": "0"}):
        mp.get_generator("prim").function(fast, _Coarse.from_seed(seed))
    _heap_tree(reference, _Coarse.from_seed(seed))
    assert (fast.east == reference.east).all() and (fast.south == reference.south).all()
    assert int(fast.east.sum() + fast.south.sum()) == width * height - 1  # a spanning tree
