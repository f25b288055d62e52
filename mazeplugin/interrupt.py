"""Ctrl-C while the ``mazeplugin`` command starts: one line and exit status 130, not a traceback.

Importing the package takes a good part of a second (numpy, the generators,
the formats); a Ctrl-C in that time would print a long traceback from
whichever import it hit. When, and only when, this process is the
``mazeplugin`` command (the console script, or ``python -m mazeplugin``),
:func:`guard_start`, run first by ``mazeplugin/__init__.py``, makes Ctrl-C
print one line and exit with 130 at once (nothing has been written yet);
the command's ``main`` then calls :func:`end_start_guard` and handles
Ctrl-C itself. In any other program importing mazeplugin nothing changes.

A worker process of the command's pools (``batch -j``, ``dataset build
--workers``) calls :func:`die_with_parent` first: killed from outside, the
command's main process takes its workers with it.

Standard library only, and as little of it as can be: this runs before anything else in the package,
so the window before the guard is in place is the time to import this module. It uses the built-in
``_signal`` (the C module ``signal`` wraps, already loaded by Python: importing ``signal`` would build
its enums first) and imports ``typing`` for the type checker only.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # (names for the type checker: typing is not imported before the guard)
    import signal
    from typing import Any, Sequence
else:
    try:
        import _signal as signal  # built in: no enums to build before the guard is in place
    except ImportError:  # pragma: no cover - another Python
        import signal

__all__ = ["INTERRUPTED_MESSAGE", "is_command_line", "guard_start", "end_start_guard", "ignore_from_now",
           "die_with_parent"]

INTERRUPTED_MESSAGE = "mazeplugin: interrupted"
"""The one line Ctrl-C prints on standard error (exit status 130)."""

_SCRIPT_NAMES = ("mazeplugin", "mazeplugin.exe", "mazeplugin-script.py")
_MODULES = ("mazeplugin", "mazeplugin.dataset")  # what ``python -m`` runs as the command
_HERE = os.path.dirname(os.path.abspath(__file__))
_MAINS = (os.path.join(_HERE, "__main__.py"), os.path.join(_HERE, "dataset", "__main__.py"))


def is_command_line(argv: Sequence[str], orig_argv: Sequence[str] = ()) -> bool:
    """Whether a process with these ``sys.argv`` (and ``sys.orig_argv``) is the ``mazeplugin`` command.

    >>> is_command_line(["/venv/bin/mazeplugin", "list"]), is_command_line(["game.py"])
    (True, False)
    >>> is_command_line(["-m", "list"], ["python", "-m", "mazeplugin", "list"])
    True
    >>> is_command_line(["-m"], ["python", "-m", "mazeplugin_demo"])
    False
    >>> is_command_line([os.path.join(_HERE, "__main__.py"), "list"])  # python -m mazeplugin, once it runs
    True
    """
    if not argv:
        return False
    if os.path.basename(argv[0]).lower() in _SCRIPT_NAMES:
        return True
    if os.path.isabs(argv[0]) and os.path.normcase(argv[0]) in map(os.path.normcase, _MAINS):
        return True  # ``python -m mazeplugin`` (or ``mazeplugin.dataset``) running its ``__main__``
    if argv[0] != "-m":  # "-m" while ``python -m`` imports the package that holds the module
        return False
    # Which module "-m" runs is known from sys.orig_argv, new in Python 3.10; on 3.9 only the
    # console script is guarded (Ctrl-C during "python -m mazeplugin"'s imports is Python's own).
    words = list(orig_argv)
    for index, word in enumerate(words):
        if word == "-m":
            return words[index + 1:index + 2] in ([name] for name in _MODULES)
        if word.startswith("-m"):
            return word[2:] in _MODULES
    return False


def _exit_interrupted(signum: int, frame: Any) -> None:
    try:
        os.write(2, (INTERRUPTED_MESSAGE + "\n").encode())
    except OSError:  # pragma: no cover - standard error closed
        pass
    os._exit(130)


def guard_start() -> None:
    """In the ``mazeplugin`` command's own process, make Ctrl-C exit at once with one line and 130.

    Only while Python's own handler is in place and only in the main thread;
    :func:`end_start_guard` restores it.
    """
    if not is_command_line(getattr(sys, "argv", None) or [], getattr(sys, "orig_argv", ())):
        return
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _exit_interrupted)
    except ValueError:  # pragma: no cover - not the main thread
        pass


def end_start_guard() -> None:
    """Give Ctrl-C back to Python (a ``KeyboardInterrupt``) if :func:`guard_start` took it."""
    try:
        if signal.getsignal(signal.SIGINT) is _exit_interrupted:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:  # pragma: no cover - not the main thread
        pass


def ignore_from_now() -> None:
    """In the ``mazeplugin`` command's own process, once its work ended (done or interrupted): ignore Ctrl-C.

    A Ctrl-C that came as the command returned would otherwise be an uncaught
    ``KeyboardInterrupt`` (Python then dies of the signal: exit status -2, not
    130), or meet Python's default handler while it shuts down. Elsewhere
    (a program that calls :func:`mazeplugin.cli.main`) nothing changes.
    """
    if not is_command_line(getattr(sys, "argv", None) or [], getattr(sys, "orig_argv", ())):
        return
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # pragma: no cover - not the main thread
        pass


_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """In a pool worker: end when the process ``parent`` (its creator's pid) ends, however it ends.

    A command killed from outside (``kill -9`` of its main process alone) must
    not leave workers behind, writing into its folder: on Linux the kernel
    kills the worker when its parent dies (``prctl(PR_SET_PDEATHSIG, SIGKILL)``);
    elsewhere a thread of the worker watches the parent's pid. A worker whose
    parent is already gone ends at once.
    """
    import threading

    if not _kernel_kills_orphan():
        threading.Thread(target=_watch_parent, args=(parent,), name="mazeplugin-watch-parent", daemon=True).start()
    if os.getppid() != parent:
        os._exit(1)


def _kernel_kills_orphan() -> bool:
    """Ask the kernel to kill this process when its parent dies; False where it cannot (not Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    import time

    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)
