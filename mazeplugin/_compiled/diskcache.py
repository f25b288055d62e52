"""Where numba caches the compiled kernels on disk, and whether it holds one (see :mod:`mazeplugin._compiled`).

Standard library only: ``import mazeplugin`` loads this, never numba.
"""

from __future__ import annotations

import os
import sys

__all__ = ["cached_module", "user_cache_dir", "prepare_numba"]


def cached_module(stem: str) -> bool:
    """Whether numba's disk cache seems to hold the kernel module ``stem`` (its index file exists).

    A heuristic: an index written by another numba version, or for changed
    source, is recompiled all the same.
    """
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


def user_cache_dir() -> str:
    """Where the compiled kernels are cached when the package directory is read-only."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
        return os.path.join(base, "mazeplugin", "Cache", "numba")
    if sys.platform == "darwin":
        return os.path.join(os.path.expanduser("~/Library/Caches"), "mazeplugin", "numba")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "mazeplugin", "numba")


def prepare_numba() -> None:
    """Point numba's cache at a user directory when ours cannot be written (call before importing numba).

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
