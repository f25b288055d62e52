"""The optional compiled path: what is loaded, and warming it up.

With ``pip install "mazeplugin[fast]"`` (numba), every generator's inner
loop and the breadth-first searches behind ``solution()``, ``distances()``,
``stats()`` and ``markers="farthest"`` run compiled, making the very same
levels (byte for byte) as the plain Python path. Without numba nothing
changes. The environment variable ``MAZEPLUGIN_COMPILED`` chooses:

- unset or ``auto``: compiled when numba is installed; a small level made
  before numba is loaded still runs plain (loading numba takes about half a
  second; a 64 × 64 level takes milliseconds), a large one loads it;
- ``1`` / ``on``: always compiled (numba must be installed);
- ``0`` / ``off``: never.

Kernels are compiled the first time each generator uses them and cached on
disk, so later processes only load them. A game that wants the compiled
path from its first frame without waiting calls :func:`warm_up` with
``background=True`` at start: levels made meanwhile use the plain path.

>>> import mazeplugin.compiled as compiled
>>> compiled.available() in (True, False)
True
>>> thread = compiled.warm_up(["bfs"], background=True)  # None when there is nothing to do
>>> if thread is not None:
...     thread.join()
"""

from __future__ import annotations

import threading
from typing import Iterable, List, Optional

from . import _compiled

__all__ = ["MODE_VARIABLE", "available", "loaded", "warm_up"]

MODE_VARIABLE = _compiled.MODE_VARIABLE
"""The environment variable that turns the compiled path off (``0``) or always on (``1``)."""


def available() -> bool:
    """Whether the compiled path can run here: numba installed and not turned off."""
    return _compiled.mode() != "off" and _compiled.numba_installed()


def loaded() -> List[str]:
    """Names of the kernels loaded in this process (generator names, ``"bfs"``, ...)."""
    return _compiled.loaded()


def warm_up(
    names: Optional[Iterable[str]] = None, *, background: bool = False
) -> Optional[threading.Thread]:
    """Load (compile or read from the disk cache) the kernels for ``names``, default all.

    ``names`` are generator names and ``"bfs"`` (paths and stats). With
    ``background=True`` the work runs in a daemon thread, which is returned
    (None when there is nothing to load); until a kernel is loaded, levels
    that would use it are made on the plain path, never waiting for it.
    Does nothing when :func:`available` is False.
    """
    wanted = None if names is None else list(names)
    for name in wanted or ():
        if name not in _compiled.KERNELS:
            raise ValueError(
                f"warm_up: unknown kernel {name!r}; known: {', '.join(sorted(_compiled.KERNELS))}"
            )
    if not available():
        return None
    if background:
        return _compiled.start_background(wanted)
    _compiled.load(wanted)
    return None
