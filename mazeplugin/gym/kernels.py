"""The batched view compiled with numba (the optional ``fast`` extra): the same pixels as :meth:`Batch.view`'s arrays.

One loop per env over its ``V × V`` view: gather, MiniGrid's visibility
spread, blank what is unseen, show what is carried. Used by
:class:`~mazeplugin.gym.engine.Batch` for batches of 64 envs and more when
:func:`mazeplugin.compiled.available` (numba installed, not turned off);
:func:`view_kernel` is None otherwise and the numpy path runs. A test checks
both paths give the same views.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

__all__ = ["view_kernel"]


def _build() -> Optional[Callable[..., None]]:
    from .. import compiled

    if not compiled.available():
        return None
    compiled.warm_up(["bfs"])  # sets up numba (and its cache folder) as the core's kernels do
    import numba

    def views(words: Any, here: Any, direction: Any, offsets: Any, carrying: Any, out: Any) -> None:  # pragma: no cover - compiled
        n, size = out.shape[0], out.shape[1]
        see = numpy.empty((size, size), numpy.bool_)
        mask = numpy.empty((size, size), numpy.bool_)
        last = size - 1
        for k in range(n):
            off = offsets[direction[k]]
            base = here[k]
            for j in range(size):
                for i in range(size):
                    w = words[base + off[j, i]]
                    out[k, j, i] = w
                    kind = w & 255
                    see[j, i] = kind != 2 and (kind != 4 or ((w >> 16) & 255) == 0)
                    mask[j, i] = False
            mask[last, size // 2] = True
            for j in range(last, -1, -1):
                for i in range(last):
                    if mask[j, i] and see[j, i]:
                        mask[j, i + 1] = True
                for i in range(last, 0, -1):
                    if mask[j, i] and see[j, i]:
                        mask[j, i - 1] = True
                if j > 0:
                    for i in range(size):
                        if mask[j, i] and see[j, i]:
                            mask[j - 1, i] = True
                            if i > 0:
                                mask[j - 1, i - 1] = True
                            if i < last:
                                mask[j - 1, i + 1] = True
            for j in range(size):
                for i in range(size):
                    if not mask[j, i]:
                        out[k, j, i] = 0
            c = carrying[k]
            out[k, last, size // 2] = (5 | (c << 8)) if c >= 0 else 1

    import numpy

    try:
        kernel: Callable[..., None] = numba.njit(cache=True, nogil=True)(views)
        return kernel
    except Exception:  # pragma: no cover - an unwritable cache folder: compile each run instead
        plain: Callable[..., None] = numba.njit(nogil=True)(views)
        return plain


_KERNEL: Any = False


def view_kernel() -> Optional[Callable[..., None]]:
    """The compiled view, built on first call; None without numba (or with ``MAZEPLUGIN_COMPILED=0``)."""
    global _KERNEL
    if _KERNEL is False:
        _KERNEL = _build()
    return _KERNEL  # type: ignore[no-any-return]
