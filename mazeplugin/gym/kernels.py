"""The batched view compiled with numba (the optional ``fast`` extra): the same pixels as :meth:`Batch.view`'s arrays.

One loop per env over its ``V × V`` view: gather, MiniGrid's visibility
spread, blank what is unseen, show what is carried. Used by
:class:`~mazeplugin.gym.engine.Batch` when :func:`mazeplugin.compiled.available`
(numba installed, not turned off): batches of 64 envs and more wait for it
once; smaller ones (a single env) use it once a background :func:`warm_up`
has built it, and the plain path until then. :func:`view_kernel` is None
without numba and the plain paths run. A test checks the paths give the same views.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional

import numpy

__all__ = ["view_kernel", "warm_up"]


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

    try:
        kernel: Callable[..., None] = numba.njit(cache=True, nogil=True)(views)
        return kernel
    except Exception:  # pragma: no cover - an unwritable cache folder: compile each run instead
        plain: Callable[..., None] = numba.njit(nogil=True)(views)
        return plain


_KERNEL: Any = False
_LOCK = threading.Lock()


def _ready() -> Optional[Callable[..., None]]:
    global _KERNEL
    with _LOCK:
        if _KERNEL is False:
            kernel = _build()
            if kernel is not None:  # compile (or load from the disk cache) now, on a view of one
                out = numpy.zeros((1, 3, 3), dtype=numpy.uint32)
                kernel(numpy.zeros(64, numpy.uint32), numpy.array([30], numpy.int32), numpy.zeros(1, numpy.intp),
                       numpy.zeros((4, 3, 3), numpy.int32), numpy.full(1, -1, numpy.intp), out)
            _KERNEL = kernel
    return _KERNEL  # type: ignore[no-any-return]


def view_kernel(wait: bool = True) -> Optional[Callable[..., None]]:
    """The compiled view; None without numba (or with ``MAZEPLUGIN_COMPILED=0``).

    ``wait=True`` builds it now if need be (numba's import and the kernel's
    compilation or cache load: a second or so, once per process);
    ``wait=False`` returns it only when already built (see :func:`warm_up`).
    """
    if _KERNEL is False:
        return _ready() if wait else None
    return _KERNEL  # type: ignore[no-any-return]


def warm_up() -> None:
    """Build the compiled view in a background thread (once), so that views switch to it when it is ready."""
    global _STARTED
    if _STARTED:
        return
    _STARTED = True
    threading.Thread(target=_ready, name="mazeplugin.gym view kernel", daemon=True).start()


_STARTED = False
