"""Each generator's dead-end fraction matches its published texture.

Figures from W. D. Pullen, "Think Labyrinth: Maze Algorithms" (table of
algorithms, "Dead ends" column) and J. Buck, "Mazes for Programmers",
appendix 2, as a range where the two differ. The mean over 20 seeds of a
100 × 100-cell maze must lie within two percentage points of the range.
"""

from __future__ import annotations

import numpy as np
import pytest

import mazeplugin as mp

PUBLISHED = {  # algorithm: (low, high) dead-end percentage
    "backtracker": (10, 10),
    "hunt-and-kill": (10, 11),
    "binary-tree": (25, 25),
    "sidewinder": (27, 28),
    "eller": (28, 30),
    "aldous-broder": (29, 29),
    "wilson": (29, 29),
    "kruskal": (30, 31),
    "prim-simplified": (32, 32),
}
TOLERANCE = 2.0  # percentage points


def mean_dead_end_percent(algorithm: str, **options) -> float:
    fractions = [
        mp.generate(algorithm, 100, 100, seed=seed, markers="none", **options).stats().dead_end_fraction
        for seed in range(20)
    ]
    return 100 * float(np.mean(fractions))


@pytest.mark.parametrize("algorithm", sorted(PUBLISHED))
def test_dead_end_fraction_matches_published_texture(algorithm):
    low, high = PUBLISHED[algorithm]
    percent = mean_dead_end_percent(algorithm)
    assert low - TOLERANCE <= percent <= high + TOLERANCE, (
        f"{algorithm}: {percent:.2f}% dead ends, published {low}–{high}%"
    )


def test_growing_tree_newest_has_the_backtracker_texture():
    percent = mean_dead_end_percent("growing-tree", strategy="newest")
    assert 10 - TOLERANCE <= percent <= 10 + TOLERANCE


def test_growing_tree_strategies_order_their_textures():
    # newest (depth-first) < a newest/random mix < random: more random choice, more dead ends.
    newest = mean_dead_end_percent("growing-tree", strategy="newest")
    mixed = mean_dead_end_percent("growing-tree", strategy="newest:0.5")
    random = mean_dead_end_percent("growing-tree", strategy="random")
    assert newest + 5 < mixed < random - 5
