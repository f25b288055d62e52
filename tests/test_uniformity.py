"""aldous-broder and wilson make uniform spanning trees; kruskal does not.

Each sample runs the generator on a tiny grid with its own seed, and the
maze is identified by its passages. Pearson's chi-square statistic over all
spanning trees of the grid (15 on 2 × 3 cells, 192 on 3 × 3, counted here by
Kirchhoff's matrix-tree theorem) is compared with the chi-square critical
value at significance 0.001. Seeds are fixed, so the tests are deterministic:
they cannot flake, and a generator bias large enough to matter fails them.
"""

from __future__ import annotations

import collections
import math

import numpy as np
import pytest

import mazeplugin as mp
from mazeplugin.maze import Maze
from mazeplugin.seeds import Random

Z_999 = 3.090232  # the standard normal's 0.999 quantile


def chi_square_critical(df: int) -> float:
    """The chi-square value exceeded with probability 0.001 (Wilson–Hilferty approximation).

    E. B. Wilson and M. M. Hilferty, "The distribution of chi-square",
    PNAS 17 (1931): (X/df)^(1/3) is close to normal with mean 1 - 2/(9 df)
    and variance 2/(9 df). Checked against the tabulated value below.
    """
    v = 2.0 / (9.0 * df)
    return df * (1.0 - v + Z_999 * math.sqrt(v)) ** 3


def spanning_tree_count(width: int, height: int) -> int:
    """Kirchhoff's matrix-tree theorem on the grid graph: any cofactor of its Laplacian."""
    a, b = Maze(width, height).walls()
    n = width * height
    laplacian = np.zeros((n, n))
    np.add.at(laplacian, (a, b), -1)
    np.add.at(laplacian, (b, a), -1)
    laplacian[np.arange(n), np.arange(n)] = -laplacian.sum(axis=1)
    return int(round(np.linalg.det(laplacian[1:, 1:])))


def tree_frequencies(algorithm: str, width: int, height: int, samples: int) -> collections.Counter:
    generator = mp.get_generator(algorithm)
    counts: collections.Counter = collections.Counter()
    for seed in range(samples):
        maze = Maze(width, height)
        generator.run(maze, Random.from_seed(seed), {})
        counts[maze.east.tobytes() + maze.south.tobytes()] += 1
    return counts


def chi_square(counts: collections.Counter, categories: int) -> float:
    samples = sum(counts.values())
    expected = samples / categories
    observed = list(counts.values()) + [0] * (categories - len(counts))
    return sum((o - expected) ** 2 / expected for o in observed)


def test_chi_square_critical_value_matches_the_tables():
    # 36.123 for 14 degrees of freedom at 0.001 (e.g. NIST/SEMATECH e-Handbook
    # of Statistical Methods, table 1.3.6.7.4).
    assert chi_square_critical(14) == pytest.approx(36.123, abs=0.15)


def test_grid_spanning_tree_counts():
    assert spanning_tree_count(3, 2) == 15
    assert spanning_tree_count(3, 3) == 192


@pytest.mark.parametrize("algorithm", ["aldous-broder", "wilson"])
@pytest.mark.parametrize("width,height,samples", [(3, 2, 15_000), (3, 3, 192 * 50)])
def test_uniform_spanning_tree_generators_are_not_rejected(algorithm, width, height, samples):
    trees = spanning_tree_count(width, height)
    counts = tree_frequencies(algorithm, width, height, samples)
    assert len(counts) == trees, "every spanning tree of the grid should appear"
    assert chi_square(counts, trees) < chi_square_critical(trees - 1)


def test_kruskal_is_not_uniform_on_2x3():
    trees = spanning_tree_count(3, 2)
    counts = tree_frequencies("kruskal", 3, 2, 15_000)
    assert len(counts) == trees
    assert chi_square(counts, trees) > chi_square_critical(trees - 1)
