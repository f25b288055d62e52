"""The optional compiled path: numba kernels for the loop-bound work, same bytes.

Each generator file keeps its plain Python loop as the readable reference and
asks here, with one call, for a compiled kernel of the same loop::

    fast = kernel("backtracker", maze.size)
    if fast is not None:
        fast.carve(...)   # the same loop, compiled
        return
    ...                   # the plain loop

:func:`kernel` returns None (use the plain loop) when numba is not installed,
when ``MAZEPLUGIN_COMPILED=0``, when a background warm-up has not loaded that
kernel yet, or, in the default ``auto`` mode, when the kernel is not loaded
yet and the job is small (below :data:`AUTO_CELLS`): then it starts loading
that kernel (and the searches' ``bfs``) in a background thread and the level
is made plain, so a process that only makes small levels gets the compiled
path after its first few levels without ever waiting for numba (about half
a second to import; a 64 × 64 level takes a few milliseconds in plain Python).

Compiling a kernel the first time (an empty cache) takes from 2 to about 35
seconds of CPU. When that is about to happen in the caller's thread, one
:class:`CompileWarning` says so (once per process; silence it with
``warnings.simplefilter("ignore", CompileWarning)``), and the logger
``mazeplugin.compiled`` reports each kernel loaded, with its time, at INFO.

Kernels live one module per generator (``mazeplugin._compiled.backtracker``
and so on), compiled with explicit signatures when first imported and cached
on disk (numba ``cache=True``). When the package directory is not writable
(a system-wide install) and the user has not set ``NUMBA_CACHE_DIR``, it is
set to a per-user cache directory before numba is imported.

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
from typing import Any, Dict, Iterable, List, Optional, Set, Type

__all__ = [
    "MODE_VARIABLE",
    "AUTO_CELLS",
    "KERNELS",
    "kernel",
    "mode",
    "numba_installed",
    "load",
    "start_background",
    "loaded",
    "cached",
    "forked_mid_load",
    "CompileWarning",
    "LOG",
    "LOGGER",
]

MODE_VARIABLE = "MAZEPLUGIN_COMPILED"
"""``0``/``off``: never compiled; ``1``/``on``: always; unset or ``auto``: see :func:`kernel`."""

AUTO_CELLS = 40_000
"""In ``auto`` mode, a job this big (in cells or tiles) loads numba if it is not loaded yet."""

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
    "graph-backtracker": "graph_backtracker",
    "graph-prim": "graph_prim",
    "graph-wilson": "graph_wilson",
    "graph-aldous-broder": "graph_aldous_broder",
    "graph-hunt-and-kill": "graph_hunt_and_kill",
    "graph-growing-tree": "graph_growing_tree",
    "grid-rows": "gridrows",
    "streams": "streams",
    "content": "content",
    "locks": "locks",
}

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


_loaded: Dict[str, ModuleType] = {}
_failed: Set[str] = set()
_numba: Optional[bool] = None  # None: not checked yet
_background: Optional[threading.Thread] = None
_lock = threading.Lock()
_said: Set[str] = set()  # the one-time notices given in this process
_loading = False  # a background load was started and has not finished
_forked_mid_load = False  # this process was forked while a kernel was loading: stay plain


def _after_fork_in_child() -> None:
    # A thread loading kernels does not survive a fork, but the locks it held
    # (ours, and importlib's lock on a half-imported module) would: the child
    # never imports kernels then, and makes its levels plain.
    # (threading has already marked the loading thread stopped here, so ask _loading.)
    global _lock, _background, _forked_mid_load, _loading
    if _loading or _lock.locked():
        _forked_mid_load = True
    _lock = threading.Lock()
    _background = None
    _loading = False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


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
    global _numba
    if _numba is None:
        _numba = "numba" in sys.modules or importlib.util.find_spec("numba") is not None
    return _numba


def loaded() -> List[str]:
    """The kernels loaded (compiled or read from the cache) in this process."""
    return sorted(_loaded)


def kernel(name: str, work: int = AUTO_CELLS) -> Optional[ModuleType]:
    """The compiled kernel module for ``name``, or None to run the plain loop.

    ``work`` is the size of the job (cells or tiles); in ``auto`` mode a
    small job does not load numba on its own (see the module docstring).
    """
    current = mode()
    if current == "off":
        return None
    found = _loaded.get(name)
    if found is not None:
        return found
    if not numba_installed():
        if current == "on":
            _say_once("no-numba", RuntimeWarning,
                      f"mazeplugin: {MODE_VARIABLE}={os.environ.get(MODE_VARIABLE)} asks for the compiled path, "
                      'but numba is not installed; using the plain Python path (pip install "mazeplugin[fast]")')
        return None
    if name in _failed or _forked_mid_load:
        return None
    background = _background
    if background is not None and background.is_alive() and current != "on":
        return None  # still warming up: never make the caller wait
    if current == "auto" and work < AUTO_CELLS:
        # Small: this level goes plain; the kernel loads meanwhile for the next ones.
        start_background([name] if name == "bfs" or "bfs" in _loaded else [name, "bfs"])
        return None
    return _import(name)


def forked_mid_load() -> bool:
    """Whether this process was forked while a kernel was loading: it then makes every level plain.

    Numba's locks and the half-imported kernel module's import lock were held by a thread the
    fork did not copy, so nothing here may compile or import a kernel; compiled code outside
    :data:`KERNELS` (``mazeplugin.dataset.figures_kernel``) asks this before it loads.
    """
    return _forked_mid_load


def load(names: Optional[Iterable[str]] = None) -> List[str]:
    """Load (compile, or read from the disk cache) kernels now; the names loaded."""
    if mode() == "off" or not numba_installed():
        return []
    for name in KERNELS if names is None else names:
        if name not in KERNELS:
            raise ValueError(f"unknown kernel {name!r}; known: {', '.join(sorted(KERNELS))}")
        _import(name)
    return loaded()


def start_background(names: Optional[Iterable[str]] = None) -> Optional[threading.Thread]:
    """Load kernels in a daemon thread; the thread, or None when there is nothing to do."""
    global _background, _loading
    if mode() == "off" or not numba_installed():
        return None
    wanted = [n for n in (KERNELS if names is None else names) if n not in _loaded]
    with _lock:
        if _background is not None and _background.is_alive():
            return _background
        if not wanted:
            return None
        thread = threading.Thread(
            target=_load_in_background, args=(wanted,), name="mazeplugin-compile", daemon=True
        )
        _background = thread
        _loading = True
        thread.start()
        return thread


def _load_in_background(names: List[str]) -> None:
    global _loading
    try:
        load(names)
    finally:
        _loading = False


def cached(name: str) -> bool:
    """Whether numba's disk cache seems to hold the ``name`` kernel (its index file exists).

    A heuristic: an index written by another numba version, or for changed
    source, is recompiled all the same.
    """
    stem = KERNELS[name]
    here = os.path.dirname(os.path.abspath(__file__))
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:  # numba then caches only there, in a folder named after this one and its path's SHA-1
        import hashlib  # (here, like glob: import mazeplugin need not load them)

        digest = hashlib.sha1(here.encode()).hexdigest()
        folder = os.path.join(user, f"{os.path.basename(here)}_{digest}")
    else:
        folder = os.path.join(here, "__pycache__")
    import glob

    return bool(glob.glob(os.path.join(glob.escape(folder), f"{stem}.*.nbi")))


def _say_once(key: str, category: Type[Warning], message: str) -> None:
    if key not in _said:
        _said.add(key)
        warnings.warn(message, category, stacklevel=4)


def _import(name: str) -> Optional[ModuleType]:
    with _lock:
        found = _loaded.get(name)
        if found is not None or name in _failed:
            return found
        _prepare_cache_dir()
        if threading.current_thread() is not _background and not cached(name):
            _say_once("compile", CompileWarning,
                      f"mazeplugin: compiling the {name!r} kernel with numba; the first time this can take "
                      "2-35 s (cached afterwards). Build every kernel ahead with: python -m mazeplugin.compiled")
        started = time.perf_counter()
        try:
            module = importlib.import_module(f"{__name__}.{KERNELS[name]}")
        except ImportError:
            if importlib.util.find_spec("numba") is None:
                global _numba
                _numba = False
                return None
            _failed.add(name)
            warnings.warn(
                f"mazeplugin: the compiled {name!r} kernel could not be loaded; "
                "using the plain Python path",
                RuntimeWarning,
                stacklevel=3,
            )
            return None
        except Exception as error:  # a numba compile error: never break a level over it
            _failed.add(name)
            warnings.warn(
                f"mazeplugin: the compiled {name!r} kernel failed to compile ({error}); "
                "using the plain Python path",
                RuntimeWarning,
                stacklevel=3,
            )
            return None
        import logging

        logging.getLogger(LOGGER).info("loaded the compiled %r kernel in %.2f s", name, time.perf_counter() - started)
        _loaded[name] = module
        return module


def user_cache_dir() -> str:
    """Where the compiled kernels are cached when the package directory is read-only."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
        return os.path.join(base, "mazeplugin", "Cache", "numba")
    if sys.platform == "darwin":
        return os.path.join(os.path.expanduser("~/Library/Caches"), "mazeplugin", "numba")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "mazeplugin", "numba")


def _prepare_cache_dir() -> None:
    """Point numba's cache at a user directory when ours cannot be written.

    Only before numba is imported (it reads the setting once) and only when
    the user has not chosen a cache directory themselves.
    """
    if "NUMBA_CACHE_DIR" in os.environ or "numba" in sys.modules:
        return
    here = os.path.dirname(os.path.abspath(__file__))
    cache = os.path.join(here, "__pycache__")
    if os.access(cache if os.path.isdir(cache) else here, os.W_OK):
        return
    os.environ["NUMBA_CACHE_DIR"] = user_cache_dir()
