"""A tiny third-party generator plugin, as another package would ship it.

Its entry points (see the ``*.dist-info/entry_points.txt`` beside it, which
is what pip writes when it installs a package whose pyproject.toml declares
``[project.entry-points."mazeplugin.generators"]``) name the ``comb``
function below, and, to test that a broken plugin is skipped with a warning,
a missing function, a non-callable and a missing module.

Importing this module registers nothing: mazeplugin registers ``comb`` under
its entry-point name when it loads plugins.
"""

from __future__ import annotations

import numpy as np

NOT_A_GENERATOR = 42


def comb(maze, rng, *, teeth: str = "random") -> None:
    """Comb: every row one long corridor, joined to the row above through one random gap. Perfect."""
    if teeth not in ("random", "left"):
        raise ValueError(f"comb teeth must be 'random' or 'left'; got {teeth!r}")
    maze.east[:, :-1] = True
    gaps = rng.integers(maze.width, maze.height) if teeth == "random" else np.zeros(maze.height, dtype=np.int64)
    rows = np.arange(maze.height - 1)
    maze.south[rows, gaps[1:]] = True
