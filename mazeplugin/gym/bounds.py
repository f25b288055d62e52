"""The environments' bounds: view size, episode length, env count × level size, picture size, seeds and actions.

Every request is checked before any work, with an error naming the argument
and what is allowed. Memory is estimated from the batch's arrays (see
:func:`check_envs`) against :data:`mazeplugin.limits.REQUEST_BUDGET`.

>>> check_envs(1024, rows=19, columns=19, view_size=7)
>>> check_envs(1_000_000, rows=19, columns=19, view_size=7)
Traceback (most recent call last):
...
ValueError: num_envs=1,000,000 of 19 x 19 tiles with view_size=7 needs about 22.0 GB, more than the 1.75 GB working-memory budget: use fewer envs or smaller levels
"""

from __future__ import annotations

import numbers
import operator
from typing import List, Optional, Sequence

import numpy as np

from ..limits import REQUEST_BUDGET, check_picture as check_picture_pixels

__all__ = ["MAX_VIEW_SIZE", "MAX_EPISODE_STEPS", "MAX_TILE_SIZE", "check_view_size", "check_max_steps", "check_envs",
           "check_picture", "check_seeds", "check_seed_list", "action_index"]

MAX_VIEW_SIZE = 255
"""The largest egocentric view (MiniGrid's are 3 to 15; sight is worked out over view_size² cells every step)."""
MAX_EPISODE_STEPS = 1 << 62
"""The largest ``max_steps`` (step counts are 64-bit integers)."""
MAX_TILE_SIZE = 256
"""The largest ``tile_size`` in pixels."""
_BYTES_PER_ENV = 3000  # an env's own rng, mission and seed objects (Python), besides its arrays


def check_view_size(value: object) -> int:
    """``view_size``: odd, from 3 to :data:`MAX_VIEW_SIZE`."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 3 <= int(value) <= MAX_VIEW_SIZE or int(value) % 2 == 0:
        raise ValueError(f"view_size must be an odd whole number from 3 to {MAX_VIEW_SIZE} (MiniGrid's views are 3, 5, 7, ...), got {value!r}")
    return int(value)


def check_max_steps(value: object) -> int:
    """``max_steps``: from 1 to :data:`MAX_EPISODE_STEPS`."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 1 <= int(value) <= MAX_EPISODE_STEPS:
        raise ValueError(f"max_steps must be a whole number from 1 to 2**62 (or None: 4 x the tiles), got {value!r}")
    return int(value)


def check_envs(n: int, *, rows: int, columns: int, view_size: int) -> None:
    """Refuse ``n`` envs of ``rows`` × ``columns`` tiles whose batch would not fit the working-memory budget.

    Per env: its padded grid (4 bytes a tile, ``view_size`` tiles of wall on
    every side) three times over (the grid, the compiled step's copy and a
    step's temporaries), its view's working arrays, the top-down channels,
    and its Python objects.
    """
    padded = (rows + 2 * view_size) * (columns + 2 * view_size)
    per_env = 3 * 4 * padded + 32 * view_size * view_size + 12 * rows * columns + _BYTES_PER_ENV
    need = n * per_env
    if need > REQUEST_BUDGET:
        what = f"num_envs={n:,} of " if n > 1 else "an env of "
        raise ValueError(
            f"{what}{columns} x {rows} tiles with view_size={view_size} needs about {need / 1e9:.1f} GB, more than the "
            f"{REQUEST_BUDGET / 2**30:.2f} GB working-memory budget: use fewer envs or smaller levels"
            + (" or a smaller view_size" if view_size > 15 else "")
        )


def check_picture(rows: int, columns: int, tile_size: object, *, name: str = "tile_size") -> int:
    """``tile_size`` (1 to :data:`MAX_TILE_SIZE` pixels) for a picture of ``rows`` × ``columns`` tiles of at most
    :data:`~mazeplugin.limits.MAX_PICTURE_PIXELS` pixels."""
    if isinstance(tile_size, bool) or not isinstance(tile_size, numbers.Integral) or not 1 <= int(tile_size) <= MAX_TILE_SIZE:
        raise ValueError(f"{name} must be a whole number of pixels from 1 to {MAX_TILE_SIZE}, got {tile_size!r}")
    check_picture_pixels(rows, columns, int(tile_size), name=name)
    return int(tile_size)


def _seed_ok(seed: object) -> bool:
    return isinstance(seed, numbers.Integral) and not isinstance(seed, (bool, np.bool_)) and int(seed) >= 0


def check_seeds(seeds: Sequence[int]) -> None:
    """``seeds=`` (a split): every one a whole number >= 0; a range is checked by its ends, without a pass."""
    if isinstance(seeds, range):
        if seeds[0] < 0 or seeds[-1] < 0:
            raise ValueError(f"seeds must hold whole numbers >= 0, got {seeds!r}")
        return
    for i, seed in enumerate(seeds):
        if not _seed_ok(seed):
            raise ValueError(f"seeds must hold whole numbers >= 0, got {seed!r} at position {i}")


def check_seed_list(seed: object, n: int, *, single: bool = False) -> List[Optional[int]]:
    """A vector env's ``reset(seed=...)``: None, a whole number ``s`` >= 0 (``s, s+1, ...``) or ``n`` of them
    (None for an env that draws its own); per-env seeds as a list. ``single``: a single env's (None or a number)."""
    if seed is None:
        return [None] * n
    if _seed_ok(seed):
        return [int(seed) + i for i in range(n)]  # type: ignore[call-overload]
    if single:
        raise ValueError(f"seed must be None or a whole number >= 0, got {seed!r}")
    if isinstance(seed, (str, bytes)) or not isinstance(seed, Sequence) and not isinstance(seed, np.ndarray):
        raise ValueError(f"seed must be None, a whole number >= 0 or {n} of them (one per env), got {seed!r}")
    seeds = list(seed)
    if len(seeds) != n:
        raise ValueError(f"seed must be None, a whole number >= 0 or {n} seeds (one per env), got {len(seeds)}")
    for i, one in enumerate(seeds):
        if one is not None and not _seed_ok(one):
            raise ValueError(f"seed[{i}] must be None or a whole number >= 0, got {one!r}")
    return [None if one is None else int(one) for one in seeds]


def action_index(action: object) -> int:
    """An action as a whole number (a bool, ``True`` or ``np.True_``, is no action: -1, refused by the caller)."""
    if isinstance(action, (bool, np.bool_)):
        return -1
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return -1

