"""The fixed arithmetic of :class:`~mazeplugin.seeds.Random`, compiled.

Kernels receive PCG64's raw 64-bit words, drawn by ``Random.raw`` in the same
order and amounts as the plain path draws them, and turn them into numbers
here exactly as ``seeds.py`` does with numpy: ``unit`` is ``Random.random``
for one word, ``below`` is ``int(unit * high)`` (``Random.integers``,
``Random.below`` and the generators' ``int(picks[i] * k)``). Both use only
operations IEEE 754 rounds the same way everywhere (an exact integer to
double conversion, an exact scaling by 2**-53, one rounded multiply, a
truncation), and numba compiles without fast-math, so the results are the
same bits; tests/test_compiled.py checks them against seeds.py.
"""

from __future__ import annotations

import numpy as np
from .jit import njit, types

DOUBLE_UNIT = 2.0**-53


@njit(types.float64(types.uint64), cache=True, nogil=True, inline="always")
def unit(word: int) -> float:
    """A float uniform in [0, 1) from one raw word (its top 53 bits)."""
    return np.float64(word >> np.uint64(11)) * DOUBLE_UNIT


@njit(types.int64(types.uint64, types.int64), cache=True, nogil=True, inline="always")
def below(word: int, high: int) -> int:
    """An int uniform in [0, high) from one raw word: ``int(unit(word) * high)``."""
    return int(unit(word) * np.float64(high))  # truncates, as numpy's astype(int64)
