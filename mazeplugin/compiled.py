"""The optional compiled path: what is loaded, and warming it up.

With ``pip install "mazeplugin[fast]"`` (numba), every generator's inner
loop and the breadth-first searches behind ``solution()``, ``distances()``,
``stats()`` and ``markers="farthest"`` run compiled, making the very same
levels (byte for byte) as the plain Python path. Without numba nothing
changes. The environment variable ``MAZEPLUGIN_COMPILED`` chooses:

- unset or ``auto``: compiled when numba is installed. A small level whose
  kernel is not loaded yet runs plain and starts loading it in a background
  thread, so the next levels run compiled without ever waiting (loading
  numba takes about half a second; a 64 × 64 level takes milliseconds); a
  large level loads its kernel and waits for it;
- ``1`` / ``on``: always compiled; without numba, a ``RuntimeWarning`` says
  the plain path runs instead;
- ``0`` / ``off``: never.

Kernels are compiled the first time each generator uses them and cached on
disk, so later processes only load them. The first compilation takes from
2 to about 35 seconds of CPU per process-wide set of kernels; when a caller
would wait for it, one :class:`CompileWarning` says so. Run
``python -m mazeplugin.compiled`` once after installing to build every
kernel ahead (:func:`main`; :func:`compile_kernels` from code). A game that
wants the compiled path from its first frame without waiting calls
:func:`warm_up` with ``background=True`` at start: levels made meanwhile use
the plain path.

Gymnasium environments (:mod:`mazeplugin.gym`) step through compiled code
of their own, named ``"gym"`` once ``mazeplugin.gym`` is imported (``mazeplugin
compile`` builds it too). An env queues it first for the background loader at
its first reset and steps plain until it is built (a second or two with a warm
cache); to step compiled from the very first step, load it before::

    import mazeplugin.gym
    from mazeplugin import compiled
    compiled.warm_up(["gym", "backtracker"])   # the step and the generator's kernel, now

Loading is fork-safe: a process forked meanwhile (multiprocessing, gymnasium's
async vector env, Ray) waits for the kernel being loaded to be whole and
inherits whole kernels, or runs the plain path; spawned processes load their own.

>>> import mazeplugin.compiled as compiled
>>> compiled.available() in (True, False)
True
>>> thread = compiled.warm_up(["bfs"], background=True)  # None when there is nothing to do
>>> if thread is not None:
...     thread.join()
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
import warnings
from typing import Callable, Dict, Iterable, List, Optional, Sequence

from . import _compiled
from ._compiled import CompileWarning

__all__ = ["MODE_VARIABLE", "CompileWarning", "available", "loaded", "warm_up", "compile_kernels", "main"]

MODE_VARIABLE = _compiled.MODE_VARIABLE
"""The environment variable that turns the compiled path off (``0``) or always on (``1``)."""


def available() -> bool:
    """Whether the compiled path can run here: numba installed and not turned off."""
    return _compiled.mode() != "off" and _compiled.numba_installed()


def loaded() -> List[str]:
    """Names of the kernels loaded in this process (generator names, ``"bfs"``, ..., and ``"gym"`` once built)."""
    return _compiled.loaded()


def warm_up(
    names: Optional[Iterable[str]] = None, *, background: bool = False
) -> Optional[threading.Thread]:
    """Load (compile or read from the disk cache) the kernels for ``names``, default all, now.

    ``names`` are generator names, ``"bfs"`` (paths and stats), the other
    kernels' names and, once :mod:`mazeplugin.gym` is imported, ``"gym"`` (the
    environments' compiled step and view): ``warm_up(["gym", "backtracker"])``
    before the first ``reset`` makes a gym env step compiled from its first
    step (with a warm cache, a second or two). With ``background=True`` the
    names are queued for the one background loader thread, which is returned
    (None when there is nothing to load); until a kernel is loaded, levels
    that would use it are made on the plain path, never waiting for it.
    Does nothing when :func:`available` is False.
    """
    wanted = [*_compiled.KERNELS, *_compiled.BUILDERS] if names is None else list(names)
    _check("warm_up", wanted)
    if not available():
        return None
    if background:
        return _compiled.start_background(wanted)
    _compiled.load(wanted)
    return None


def _known() -> List[str]:
    return sorted([*_compiled.KERNELS, *_compiled.BUILDERS])


def _check(caller: str, names: Iterable[str]) -> None:
    for name in names:
        if name not in _compiled.KERNELS and name not in _compiled.BUILDERS:
            gym = "" if "gym" in _compiled.BUILDERS else " ('gym' once mazeplugin.gym is imported)"
            raise ValueError(f"{caller}: unknown kernel {name!r}; known: {', '.join(_known())}{gym}")


def compile_kernels(
    names: Optional[Iterable[str]] = None, *, report: Optional[Callable[[str, float], None]] = None
) -> Dict[str, float]:
    """Load every kernel in ``names`` (default all) now, compiling those not cached; seconds per kernel.

    ``report(name, seconds)`` is called after each one. No :class:`CompileWarning`
    is given (the caller asked for the wait). Raises ``RuntimeError`` when the
    compiled path cannot run here (numba missing, or ``MAZEPLUGIN_COMPILED=0``),
    and ``ValueError`` for an unknown name.

    >>> import mazeplugin.compiled as compiled
    >>> if compiled.available():
    ...     times = compiled.compile_kernels(["bfs"])
    ...     assert list(times) == ["bfs"] and "bfs" in compiled.loaded()
    """
    wanted = [*_compiled.KERNELS, *_compiled.BUILDERS] if names is None else list(names)
    _check("compile_kernels", wanted)
    if not available():
        why = (f"{MODE_VARIABLE}=0 turns it off" if _compiled.mode() == "off"
               else 'numba is not installed (pip install "mazeplugin[fast]")')
        raise RuntimeError(f"the compiled path cannot run here: {why}")
    times: Dict[str, float] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CompileWarning)
        for name in wanted:
            started = time.perf_counter()
            _compiled.load([name])
            times[name] = time.perf_counter() - started
            if report is not None:
                report(name, times[name])
    failed = [name for name in wanted if name not in _compiled.loaded()]
    if failed:
        raise RuntimeError(f"these kernels could not be compiled: {', '.join(failed)} (the plain path runs instead)")
    return times


def main(argv: Optional[Sequence[str]] = None, *, prog: str = "python -m mazeplugin.compiled") -> int:
    """``python -m mazeplugin.compiled [KERNEL ...]``: build the compiled kernels now; the exit status.

    Prints one line per kernel with its time on standard output, and one line
    on standard error with exit status 1 when the compiled path cannot run
    (numba missing) or a kernel fails; 2 for an unknown kernel name.
    """
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Compile (or load from numba's disk cache) mazeplugin's compiled kernels now, so that no "
                    "level waits for them later. Run once after installing mazeplugin[fast].",
    )
    parser.add_argument("kernels", nargs="*", metavar="KERNEL",
                        help=f"kernels to build (default all): {', '.join(_known())}")
    args = parser.parse_args(argv)
    unknown = [name for name in args.kernels if name not in _compiled.KERNELS and name not in _compiled.BUILDERS]
    if unknown:
        gym = "; 'gym' (the environments' step) is built by: mazeplugin compile gym" \
            if unknown[0] == "gym" else ""
        print(f"{prog}: unknown kernel {unknown[0]!r}; known: {', '.join(_known())}{gym}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    width = max(len(name) for name in (args.kernels or _compiled.KERNELS))  # the columns line up however long
    try:
        times = compile_kernels(args.kernels or None,
                                report=lambda name, seconds: print(f"{name:{width}} {seconds:6.2f} s", flush=True))
    except RuntimeError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 1
    print(f"{len(times)} kernels ready in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
