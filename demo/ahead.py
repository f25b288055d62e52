"""The next level, made in a worker thread while the current one is played.

Asking ``generate(..., require=...)`` for a harder level, calibrating what
"harder" means for a generator and size, furnishing the level with rooms and
content, and the first use of a compiled kernel can each take longer than a
frame. :class:`Ahead` makes the level the game will want next in a daemon
thread and hands it over when the game asks for it; until then the game
keeps drawing frames (the "Level complete" banner stays up). The worker
runs exactly the function the game would run itself, with the same
arguments, so the level for a given code is the same either way.

Only the latest request is made: when the player changes the level (N, G,
+/-, a typed code) the next level changes too, and a result for an old
request is dropped.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Generic, Hashable, Optional, Tuple, TypeVar

Request = Tuple[Hashable, ...]
"""Everything the made thing depends on (compared with ==)."""
T = TypeVar("T")


class Ahead(Generic[T]):
    """``make(request)`` run in a worker thread for the latest :meth:`want`; :meth:`take` when done.

    >>> ahead = Ahead(lambda request: sum(request))
    >>> ahead.want((1, 2, 3))
    >>> ahead.wait((1, 2, 3))
    (True, 6)
    >>> ahead.take((1, 2, 3)) is None  # taken once
    True
    """

    def __init__(self, make: Callable[[Request], T]) -> None:
        self._make = make
        self._changed = threading.Condition()
        self._wanted: Optional[Request] = None
        self._done: Optional[Tuple[Request, bool, Any]] = None  # (request, made without error, thing or error)
        self._thread: Optional[threading.Thread] = None

    def want(self, request: Request) -> None:
        """Make ``request`` next (dropping an older one not yet taken); returns at once."""
        with self._changed:
            if request == self._wanted:
                return
            self._wanted = request
            self._changed.notify()
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="demo-next-level", daemon=True)
            self._thread.start()

    def take(self, request: Request) -> Optional[Tuple[bool, Any]]:
        """``(True, thing)`` or ``(False, the error make raised)`` once ``request`` is made, else None (ask again later)."""
        with self._changed:
            if self._done is None or self._done[0] != request:
                return None
            _, ok, value = self._done
            self._done = None
            self._wanted = None
            return ok, value

    def wait(self, request: Request, timeout: float = 60.0) -> Optional[Tuple[bool, Any]]:
        """:meth:`take`, waiting up to ``timeout`` seconds (for tests and scripts; the game never waits)."""
        with self._changed:
            self._changed.wait_for(lambda: self._done is not None and self._done[0] == request, timeout)
        return self.take(request)

    @property
    def busy(self) -> bool:
        """Whether a request is wanted and not yet taken."""
        with self._changed:
            return self._wanted is not None

    def _work(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(
                    lambda: self._wanted is not None and (self._done is None or self._done[0] != self._wanted)
                )
                request = self._wanted
            assert request is not None
            try:
                done: Tuple[Request, bool, Any] = (request, True, self._make(request))
            except Exception as error:  # handed to the game, which says it or raises it on its own thread
                done = (request, False, error)
            with self._changed:
                if request == self._wanted:
                    self._done = done
                self._changed.notify_all()
