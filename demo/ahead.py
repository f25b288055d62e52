"""The next level, made in a worker process while the current one is played.

Asking ``generate(..., require=...)`` for a harder level, calibrating what
"harder" means for a generator and size, furnishing the level with rooms and
content, its solution and statistics, and loading or compiling numba
kernels can each take longer than a frame. A thread would not do: it shares
the interpreter lock with the frame loop, and on a busy machine a frame
then waits for it for hundreds of milliseconds. So :class:`Ahead` sends
what the game will want next to one worker process (spawned once, shared
by every game in this process, ended with it) and hands the result over
when the game asks for it; until then the game keeps drawing frames (the
"Level complete" banner stays up). The worker runs exactly the function the
game would run itself, with the same arguments, so the level for a given
code is the same either way. The compiled kernels are warmed up in the
worker, where the levels are made.

Only the latest request is made: when the player changes the level (N, G,
+/-, a typed code) the next level changes too, and a request superseded
before the worker reached it is skipped. What cannot be sent to the worker
(a function that is not at the top level of a module) is made in the
calling thread instead, and so is everything if the worker cannot start.
"""

from __future__ import annotations

import multiprocessing
import pickle
import time
from collections import OrderedDict
from typing import Any, Callable, Dict, Hashable, Optional, Tuple

Request = Tuple[Hashable, ...]
"""Everything the made thing depends on (compared with ==; sent to the worker with pickle)."""
Maker = Callable[[Request], Any]
"""Makes the thing for a request: a function at the top level of a module (sent to the worker by name)."""
Result = Tuple[bool, Any]
"""``(True, thing)``, or ``(False, the exception the maker raised)``."""
KEEP = 8
"""Results kept for requests not yet taken."""


def serve(connection: Any) -> None:
    """The worker process: make each request (only the latest of those waiting) and send the result back."""
    try:
        import mazeplugin.compiled

        mazeplugin.compiled.warm_up(background=True)  # kernels load here, beside the levels that use them
    except Exception:  # pragma: no cover - the plain path makes the same levels
        pass
    while True:
        try:
            message = connection.recv()
            while connection.poll():
                message = connection.recv()
        except (EOFError, OSError):
            return  # the game ended
        make, request = message
        result: Tuple[Request, bool, Any]
        try:
            result = (request, True, make(request))
        except Exception as error:
            result = (request, False, error)
        try:
            connection.send(result)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            connection.send((request, False, RuntimeError(f"the worker could not send its result: {error}")))
        except (BrokenPipeError, OSError):
            return


class Worker:
    """The worker process and the results it has sent back, by request."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")  # a fresh interpreter: no copy of the window or SDL
        self.connection, child = context.Pipe()
        self.process = context.Process(target=serve, args=(child,), name="mazeplugin-demo-levels", daemon=True)
        self.process.start()
        child.close()
        self.results: "OrderedDict[Request, Result]" = OrderedDict()

    def send(self, make: Maker, request: Request) -> None:
        """Ask for ``make(request)``; PicklingError (or TypeError/AttributeError) when it cannot be sent."""
        self.connection.send((make, request))

    def collect(self) -> None:
        """Read every result that has arrived (never waits); OSError/EOFError when the worker is gone."""
        while self.connection.poll():
            request, ok, value = self.connection.recv()
            self.results[request] = (ok, value)
            while len(self.results) > KEEP:
                self.results.popitem(last=False)


_workers: Dict[str, Optional[Worker]] = {}
_counted_frames = {"on": False}


def count_frames(on: bool) -> None:
    """Whether frames are counted, not timed (a run of ``--frames N``, each frame 1/60 s of play): then
    :meth:`Ahead.take` waits for the worker (up to :meth:`Ahead.ready`'s hang guard) instead of
    answering "not yet", so a scripted run plays the same on a loaded machine as on an idle one. Played
    live, the game never waits."""
    _counted_frames["on"] = on


def shared_worker() -> Optional[Worker]:
    """The process's one worker, started on first use; None when it cannot start (then work is done in place)."""
    if "worker" not in _workers:
        try:
            _workers["worker"] = Worker()
        except (OSError, RuntimeError, ValueError):  # pragma: no cover - no processes here: make levels in place
            _workers["worker"] = None
    return _workers["worker"]


class Ahead:
    """``make(request)`` made in the worker for the latest :meth:`want`; :meth:`take` when done."""

    def __init__(self, make: Maker) -> None:
        self._make = make
        self._wanted: Optional[Request] = None
        self._sent = False  # whether the worker is making the wanted request (else it is made in place)

    def want(self, request: Request) -> None:
        """Make ``request`` next (an older one not yet taken is dropped); returns at once."""
        if request == self._wanted:
            return
        self._wanted, self._sent = request, False
        worker = shared_worker()
        if worker is None:
            return
        try:
            worker.send(self._make, request)
            self._sent = True
        except (pickle.PicklingError, TypeError, AttributeError):
            pass  # not sendable (say, a local function): made in place when taken
        except OSError:  # pragma: no cover - the worker died: make levels in place from now on
            _workers["worker"] = None

    def take(self, request: Request) -> Optional[Result]:
        """:data:`Result` once ``request`` is made, else None (ask again next frame)."""
        self.want(request)
        worker = shared_worker()
        if worker is not None and self._sent:
            try:
                worker.collect()
            except (EOFError, OSError):  # pragma: no cover - the worker died: make it here
                _workers["worker"] = None
                self._sent = False
            else:
                if request not in worker.results and _counted_frames["on"]:
                    self.ready(request)  # counted frames: waiting costs the run no frames
                if request not in worker.results:
                    return None
                self._wanted = None
                return worker.results.pop(request)
        try:
            made: Result = (True, self._make(request))
        except Exception as error:
            made = (False, error)
        self._wanted = None
        return made

    def ready(self, request: Request, timeout: float = 60.0) -> bool:
        """Wait up to ``timeout`` seconds until :meth:`take` would hand ``request`` over (for tests and scripts;
        the game never waits); whether it would."""
        self.want(request)
        worker = shared_worker()
        if worker is None or not self._sent:
            return True  # made in place when taken
        deadline = time.monotonic() + timeout
        while True:
            try:
                worker.collect()
            except (EOFError, OSError):  # pragma: no cover - the worker died: take makes it in place
                return True
            if request in worker.results or time.monotonic() >= deadline:
                return request in worker.results
            worker.connection.poll(max(0.0, deadline - time.monotonic()))

    def wait(self, request: Request, timeout: float = 60.0) -> Optional[Result]:
        """:meth:`take`, waiting up to ``timeout`` seconds (for tests and scripts; the game never waits)."""
        deadline = time.monotonic() + timeout
        made = self.take(request)
        worker = shared_worker()
        while made is None and worker is not None and time.monotonic() < deadline:
            worker.connection.poll(max(0.0, deadline - time.monotonic()))
            made = self.take(request)
        return made
