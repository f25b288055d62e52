"""Raw words fed to a resumable kernel in batches, in order: the floats the plain loop reads.

A plain grid generator reads floats one after another from
``generators.graph.uniforms``; how many depends on the walk (Aldous–Broder,
Wilson, the union-find web, ...). Its compiled twin reads the same raw words
in the same order from arrays handed to it here: a kernel step takes the
words, runs until it is done (and returns -1) or until it is short of words
for its next move (and returns how many it read); the unread rest comes
back first in the next array, so no word is skipped or read twice.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from numpy.typing import NDArray

from ..seeds import Random

__all__ = ["BATCH", "feed"]

BATCH = 1 << 16
"""Raw words per batch after the first (half a megabyte)."""


def feed(step: Callable[[NDArray[np.uint64]], int], rng: Random, first: int) -> None:
    """Call ``step(words)`` on ``rng``'s raw words, in order, until it returns -1.

    ``first`` is the size of the first batch (at least 1, at most :data:`BATCH`):
    about the words the whole job needs keeps a small job to one call.
    """
    words = rng.raw(max(1, min(first, BATCH)))
    while True:
        used = step(words)
        if used < 0:
            return
        words = np.concatenate((words[used:], rng.raw(BATCH)))
