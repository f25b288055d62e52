# Long module: the loader's one state, its fork handlers and the kernel table belong together.
"""The optional compiled path: numba kernels for the loop-bound work, same bytes.

Each generator file keeps its plain Python loop as the readable reference and
asks here, with one call, for a compiled kernel of the same loop::

    fast = kernel("backtracker", maze.size)
    if fast is not None:
        fast.carve(...)   # the same loop, compiled
        return
    ...                   # the plain loop

Code outside the generators binds its kernel once, at module level: ``_BFS =
twin("bfs")``, then ``_BFS.pick(work)`` where it runs (:func:`twin`). The
architecture test reads both as imports of the kernel module.

:func:`kernel` returns None (use the plain loop) when numba is not installed,
when ``MAZEPLUGIN_COMPILED=0``, when a background warm-up has not loaded that
kernel yet, or, in the default ``auto`` mode, when the kernel is not loaded
yet and the job is small (below :data:`AUTO_CELLS`): then it queues that
kernel (and the searches' ``bfs``) for the background loader and the level
is made plain, so a process that only makes small levels gets the compiled
path after its first few levels without ever waiting for numba (about half
a second to import; a 64 × 64 level takes a few milliseconds in plain Python).

Compiling a kernel the first time (an empty cache) takes from 2 to about 35
seconds of CPU. When that is about to happen in the caller's thread, one
:class:`CompileWarning` says so (once per process; silence it with
``warnings.simplefilter("ignore", CompileWarning)``), and the logger
``mazeplugin.compiled`` reports each kernel loaded, with its time, at INFO.

**Loading and processes.** Every kernel import (and build of other compiled
code, :func:`register_builder`) holds one lock, in the caller's thread or in
the one background loader thread, which takes queued names in order. A fork
(``os.fork``: multiprocessing's fork and forkserver, gymnasium's async vector
env, process pools) first waits for the kernel being imported to be whole (at
most :data:`FORK_WAIT` s), so the child inherits whole kernels and the names
still queued, loaded when next asked, never a half-initialised module or a lock
held by a thread it does not have. Should the wait run out (a cold-cache
compile longer than that) the child runs plain for good (:func:`forked_mid_load`):
the same bytes, never a wait. Spawned processes start fresh.

Kernels live one module per generator (``mazeplugin._compiled.backtracker``
and so on), compiled with explicit signatures when first imported and cached
on disk (numba ``cache=True``; where (see :mod:`~mazeplugin._compiled.diskcache`).

The random numbers are never drawn in compiled code: the generator draws
PCG64's raw 64-bit words through :class:`~mazeplugin.seeds.Random` exactly
as the plain path does, and kernels apply the same fixed arithmetic to them
(:mod:`mazeplugin._compiled.rand`), so both paths make the same levels.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import threading
import time
import warnings
from types import ModuleType
from typing import Any, Callable, Dict, Iterable, List, Optional, Set, Type

from .diskcache import cached_module, prepare_numba, user_cache_dir

__all__ = [
    "MODE_VARIABLE", "AUTO_CELLS", "FORK_WAIT", "KERNELS", "BUILDERS", "kernel", "twin", "Twin", "mode",
    "numba_installed", "load", "start_background", "resume", "register_builder", "cede", "CEDE_SECONDS",
    "loading", "prepare_numba", "user_cache_dir", "loaded", "cached", "forked_mid_load", "CompileWarning",
    "LOG", "LOGGER",
]

MODE_VARIABLE = "MAZEPLUGIN_COMPILED"
"""``0``/``off``: never compiled; ``1``/``on``: always; unset or ``auto``: see :func:`kernel`."""

AUTO_CELLS = 40_000
"""In ``auto`` mode, a job this big (in cells or tiles) loads numba if it is not loaded yet."""

FORK_WAIT = 60.0
"""Seconds a fork waits at most for the kernel being imported in another thread to be whole."""

# Kernel name -> module under mazeplugin._compiled.
KERNELS: Dict[str, str] = {
    "backtracker": "backtracker",
    "kruskal": "kruskal",
    "union-find": "union_find",
    "wilson": "wilson",
    "aldous-broder": "aldous_broder",
    "hunt-and-kill": "hunt_and_kill",
    "growing-tree": "growing_tree",
    "prim-simplified": "prim_simplified",
    "prim": "prim",
    "eller": "eller",
    "division": "division",
    "rooms": "rooms",
    "bfs": "bfs",
    "grid-rows": "gridrows",
    "streams": "streams",
    "content": "content",
    "locks": "locks",
    "room-check": "roomcheck",
    "routes": "routes",
}

BUILDERS: Dict[str, Callable[[], Any]] = {}
"""Compiled code built outside :data:`KERNELS`, by name (:func:`register_builder`): loaded like a kernel,
under the same lock, by :func:`load` and the background loader (``"gym"``: the environments' step and view,
registered by :mod:`mazeplugin.gym.kernels`)."""

LOGGER = "mazeplugin.compiled"
"""The name of the logger (``LOG``) that reports each kernel loaded (compiled or read from the cache) and
how long it took, at INFO. ``LOG`` is made on first use, so ``import mazeplugin`` does not load ``logging``."""


def __getattr__(name: str) -> Any:
    """``LOG``, the ``logging.getLogger("mazeplugin.compiled")`` logger, on first use (PEP 562)."""
    if name == "LOG":
        import logging

        return logging.getLogger(LOGGER)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class CompileWarning(UserWarning):
    """Compiled kernels are about to be built in this thread, which can take seconds (once per process).

    Silence it with ``warnings.simplefilter("ignore", CompileWarning)``; build
    every kernel ahead with ``python -m mazeplugin.compiled``.
    """


class _State:
    """What this process knows of its kernels, in one object: a fork's child resets it in one place."""

    def __init__(self) -> None:
        self.loaded: Dict[str, ModuleType] = {}  # name -> kernel module, whole
        self.built: Set[str] = set()  # the BUILDERS run
        self.failed: Set[str] = set()
        self.numba: Optional[bool] = None  # None: not checked yet
        self.said: Set[str] = set()  # the one-time notices given in this process
        self.lock = threading.Lock()  # held while compiled code is imported or built (and across a fork)
        self.holder = 0  # threading.get_ident() of the thread holding `lock` through `loading` (0: none)
        self.guard = threading.Lock()  # guards `queue` and `thread` (never held across an import)
        self.queue: List[str] = []  # what the background loader has still to load, in order
        self.thread: Optional[threading.Thread] = None  # the background loader, while it runs
        self.fork: Optional[bool] = None  # during a fork: whether no load was half done
        self.forked_mid_load = False  # forked while a load was half done: plain for good
        self.ceding: Optional[float] = None  # when cede() first handed the GIL over (perf_counter)


_STATE = _State()


class loading:
    """``with loading():`` holds the load lock (re-entrant in a thread): no fork, no other kernel import meanwhile.

    Every kernel import takes it, and so must any other compiled code built outside :data:`KERNELS`."""

    def __enter__(self) -> None:
        _watch_forks()
        state = _STATE
        me = threading.get_ident()
        self._lock: Optional[threading.Lock] = None
        if state.holder == me:
            return  # held by this thread already (a builder loading a kernel, say)
        lock = state.lock
        lock.acquire()
        state.holder = me
        self._lock = lock

    def __exit__(self, *exc: Any) -> None:
        lock = self._lock
        if lock is not None:
            if _STATE.lock is lock:  # (a fork in this thread since __enter__ gave the child a new lock)
                _STATE.holder = 0
            lock.release()


def _before_fork() -> None:
    # Wait (in the forking thread) until no kernel is half imported, and hold the lock across the fork,
    # so that the child gets only whole kernels. The forking thread may itself be the one loading
    # (a fork from inside an import), or the wait may run out: the child then runs plain.
    state = _STATE
    if state.holder == threading.get_ident():
        state.fork = False
    else:
        state.fork = state.lock.acquire(timeout=FORK_WAIT)


def _after_fork_in_parent() -> None:
    state = _STATE
    if state.fork:
        state.lock.release()
    state.fork = None


def _after_fork_in_child() -> None:
    # Only this thread survives: every lock is made anew, and the loader thread is gone (the jobs still
    # queued stay, loaded when next asked). With a load half done, nothing here may import or build a
    # kernel ever (a half-initialised module, numba's locks held by a thread that is gone): plain for good.
    state = _STATE
    whole = state.fork is True or (state.fork is None and not state.lock.locked())
    state.lock = threading.Lock()
    state.guard = threading.Lock()
    state.holder = 0
    state.thread = None
    state.fork = None
    if not whole:
        state.forked_mid_load = True
        state.queue = []


_WATCHING: List[bool] = []


def _watch_forks() -> None:
    # Registered when the first load starts, after `logging` is imported: fork's `before` handlers run in
    # reverse order of registration, so ours waits for the loader before logging's takes its lock (the
    # loader, importing numba, needs that lock: the other order stalled every fork for FORK_WAIT).
    if _WATCHING or not hasattr(os, "register_at_fork"):
        return
    import logging  # noqa: F401 - registers its own fork handlers first

    _WATCHING.append(True)
    os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent,
                        after_in_child=_after_fork_in_child)


def mode() -> str:
    """``"off"``, ``"on"`` or ``"auto"``, from the environment variable ``MAZEPLUGIN_COMPILED``."""
    value = os.environ.get(MODE_VARIABLE, "").strip().lower()
    if value in ("0", "off", "false", "no"):
        return "off"
    if value in ("1", "on", "true", "yes"):
        return "on"
    return "auto"


def numba_installed() -> bool:
    """Whether numba can be imported (checked without importing it)."""
    state = _STATE
    if state.numba is None:
        state.numba = "numba" in sys.modules or importlib.util.find_spec("numba") is not None
    return state.numba


def loaded() -> List[str]:
    """The kernels loaded (compiled or read from the cache) and the builders run, in this process."""
    return sorted(set(_STATE.loaded) | _STATE.built)


def kernel(name: str, work: int = AUTO_CELLS) -> Optional[ModuleType]:
    """The compiled kernel module for ``name``, or None to run the plain loop.

    ``work`` is the size of the job (cells or tiles); in ``auto`` mode a
    small job does not load numba on its own (see the module docstring).
    """
    current = mode()
    if current == "off":
        return None
    state = _STATE
    found = state.loaded.get(name)
    if found is not None and not state.forked_mid_load:
        return found
    if not numba_installed():
        if current == "on":
            _say_once("no-numba", RuntimeWarning,
                      f"mazeplugin: {MODE_VARIABLE}={os.environ.get(MODE_VARIABLE)} asks for the compiled path, "
                      'but numba is not installed; using the plain Python path (pip install "mazeplugin[fast]")')
        return None
    if name in state.failed or state.forked_mid_load:
        return None
    if current != "on":
        thread = state.thread
        if thread is not None and thread.is_alive():
            start_background([name])  # still warming up: never make the caller wait (queued for later)
            return None
        if current == "auto" and work < AUTO_CELLS:
            # Small: this level goes plain; the kernel loads meanwhile for the next ones.
            start_background([name] if name == "bfs" else [name, "bfs"])
            return None
    return _import(name)


class Twin:
    """A kernel bound once, where the code that uses it is defined: ``BFS = twin("bfs")`` at module level.

    :meth:`pick` chooses at run time (``MAZEPLUGIN_COMPILED`` is read each time, a
    kernel loads when first asked): the kernel module, or None for the plain code
    beside it. The architecture test reads ``twin("name")`` as an import of the
    kernel's module, so a twin may only name kernels of its own layer or below.
    """

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        if name not in KERNELS:
            raise ValueError(f"unknown kernel {name!r}; known: {', '.join(sorted(KERNELS))}")
        self.name = name

    def pick(self, work: int = AUTO_CELLS) -> Optional[ModuleType]:
        """The compiled kernel for a job of ``work`` cells or tiles, or None: run the plain code (see :func:`kernel`)."""
        return kernel(self.name, work)

    def ready(self) -> Optional[ModuleType]:
        """The kernel if it is loaded here and the compiled path is on, else None; never starts a load."""
        if mode() == "off" or _STATE.forked_mid_load:
            return None
        return _STATE.loaded.get(self.name)

    def __repr__(self) -> str:
        return f"twin({self.name!r})"


def twin(name: str) -> Twin:
    """The :class:`Twin` of kernel ``name`` (one of :data:`KERNELS`; ``ValueError`` otherwise)."""
    return Twin(name)


def forked_mid_load() -> bool:
    """Whether this process was forked while a kernel was half loaded (the fork's wait ran out): all plain.

    Numba's locks and the module's import lock were held by a thread the fork did not copy, so nothing
    here may compile or import; compiled code outside :data:`KERNELS` asks this before it loads."""
    return _STATE.forked_mid_load


def register_builder(name: str, build: Callable[[], Any]) -> None:
    """Make ``build`` (no arguments; it builds compiled code and keeps it) loadable as ``name``: :func:`load`
    and :func:`start_background` take it as a kernel's name, and run it once, under :class:`loading`."""
    if name in KERNELS:
        raise ValueError(f"register_builder: {name!r} is a kernel's name")
    BUILDERS[name] = build


def _check_names(names: Iterable[str]) -> List[str]:
    wanted = list(names)
    for name in wanted:
        if name not in KERNELS and name not in BUILDERS:
            raise ValueError(f"unknown kernel {name!r}; known: {', '.join(sorted([*KERNELS, *BUILDERS]))}")
    return wanted


def load(names: Optional[Iterable[str]] = None) -> List[str]:
    """Load (compile, or read from the disk cache) kernels now, in this thread; the names loaded.

    ``names`` are kernel names and registered builders' (default: every kernel).
    """
    wanted = _check_names(KERNELS if names is None else names)
    if mode() == "off" or not numba_installed():
        return []
    for name in wanted:
        _load_one(name)
    return loaded()


def start_background(names: Optional[Iterable[str]] = None, *, first: bool = False) -> Optional[threading.Thread]:
    """Queue kernels (and builders) for the one background loader thread, starting it if need be.

    ``first=True`` puts ``names`` before those queued already (what a caller needs soonest).
    Returns the thread, or None when there is nothing to do."""
    wanted = _check_names(KERNELS if names is None else names)
    state = _STATE
    if mode() == "off" or not numba_installed() or state.forked_mid_load:
        return None
    _watch_forks()
    with state.guard:
        new = [name for name in dict.fromkeys(wanted) if name not in state.loaded and name not in state.built
               and name not in state.failed]
        if first:
            state.queue[:] = new + [name for name in state.queue if name not in new]
        else:
            state.queue.extend(name for name in new if name not in state.queue)
        return _start_locked(state)


def resume() -> Optional[threading.Thread]:
    """Start the background loader again if jobs are queued and it is not running (in a forked child, say)."""
    state = _STATE
    if not state.queue or mode() == "off" or state.forked_mid_load:
        return None
    with state.guard:
        return _start_locked(state)


CEDE_SECONDS = 5.0
"""How long, at most, :func:`cede` hands the GIL to the background loader (from its first call)."""


def cede() -> None:
    """Let the background loader run its next slice now, if it is running; once per turn of a hot loop.

    A Python loop that waits for a kernel (a single gym env stepping plain until
    its compiled step is built) holds the GIL against the loader, which then gets
    half the time at best: ceding, a kernel read from the warm cache loads in about
    its own CPU time. Only for the first :data:`CEDE_SECONDS` of the process's
    waiting (a cold-cache compile then shares the GIL as before).
    """
    state, thread = _STATE, _STATE.thread
    if thread is None or not thread.is_alive():
        return
    now = time.perf_counter()
    state.ceding = now if state.ceding is None else state.ceding
    if now - state.ceding < CEDE_SECONDS:
        time.sleep(0)


def _start_locked(state: _State) -> Optional[threading.Thread]:
    if state.thread is not None and state.thread.is_alive():
        return state.thread
    if not state.queue:
        return None
    thread = threading.Thread(target=_drain, name="mazeplugin-compile", daemon=True)
    state.thread = thread
    thread.start()
    return thread


def _drain() -> None:
    """The background loader: the queued names, first to last."""
    me = threading.current_thread()
    while True:
        state = _STATE
        with state.guard:
            if state.thread is not me:  # (a fork's child never runs this thread: defensive)
                return
            if not state.queue or state.forked_mid_load:
                state.thread = None
                return
            name = state.queue.pop(0)
        _load_one(name)


def _load_one(name: str) -> None:
    if name in BUILDERS:
        _build(name)
    else:
        _import(name)


def _build(name: str) -> None:
    state = _STATE
    with loading():
        if name in state.built or name in state.failed or state.forked_mid_load:
            return
        prepare_numba()
        started = time.perf_counter()
        try:
            BUILDERS[name]()
        except Exception as error:  # never break a level or a step over compiled code
            state.failed.add(name)
            warnings.warn(f"mazeplugin: the compiled {name!r} code failed to build ({error}); "
                          "using the plain Python path", RuntimeWarning, stacklevel=3)
            return
        state.built.add(name)
    import logging

    logging.getLogger(LOGGER).info("built the compiled %r code in %.2f s", name, time.perf_counter() - started)


def cached(name: str) -> bool:
    """Whether numba's disk cache seems to hold the ``name`` kernel (its index file exists; a heuristic:
    an index written by another numba version, or for changed source, is recompiled all the same)."""
    return cached_module(KERNELS[name])


def _say_once(key: str, category: Type[Warning], message: str) -> None:
    if key not in _STATE.said:
        _STATE.said.add(key)
        warnings.warn(message, category, stacklevel=4)


def _import(name: str) -> Optional[ModuleType]:
    state = _STATE
    with loading():
        found = state.loaded.get(name)
        if found is not None or name in state.failed or state.forked_mid_load:
            return None if state.forked_mid_load else found
        prepare_numba()
        if threading.current_thread() is not state.thread and not cached(name):
            _say_once("compile", CompileWarning,
                      f"mazeplugin: compiling the {name!r} kernel with numba; the first time this can take "
                      "2-35 s (cached afterwards). Build every kernel ahead with: python -m mazeplugin.compiled")
        started = time.perf_counter()
        try:
            module = importlib.import_module(f"{__name__}.{KERNELS[name]}")
        except ImportError:
            if importlib.util.find_spec("numba") is None:
                state.numba = False
                return None
            state.failed.add(name)
            warnings.warn(f"mazeplugin: the compiled {name!r} kernel could not be loaded; using the plain "
                          "Python path", RuntimeWarning, stacklevel=3)
            return None
        except Exception as error:  # a numba compile error: never break a level over it
            state.failed.add(name)
            warnings.warn(f"mazeplugin: the compiled {name!r} kernel failed to compile ({error}); using the "
                          "plain Python path", RuntimeWarning, stacklevel=3)
            return None
        state.loaded[name] = module
    import logging

    logging.getLogger(LOGGER).info("loaded the compiled %r kernel in %.2f s", name, time.perf_counter() - started)
    return module
