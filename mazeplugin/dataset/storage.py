"""Where a dataset lives: a local folder, or any fsspec URL; and the lock that keeps one build per folder.

:class:`Folder` gives the builder, the reader and ``verify`` the few file
operations they need (list, read, write whole, remove, hash), so one code
path serves both kinds of place:

- **A local path** (``str`` or ``os.PathLike``) is read and written with
  ``os`` exactly as before fsspec was supported: a shard is written under
  ``NAME.partial-PID``, flushed, ``fsync``-ed and renamed (``os.replace``,
  atomic), the manifest is written with :func:`mazeplugin.formats.files.write_text`.
- **A URL** (``memory://...``, ``file://...``, ``s3://...``, anything
  fsspec knows; the ``remote`` extra: ``pip install "mazeplugin[remote]"``,
  plus the file system's own package such as ``s3fs``) goes through
  ``fsspec.core.url_to_fs``. A shard is written whole under
  ``NAME.partial-PID`` and then moved to ``NAME``. On a file system with
  rename (local, HDFS, most network file systems) that move is atomic; on an
  object store (S3, GCS, Azure) it is a server-side copy and a delete, and
  the copy makes the final object appear whole or not at all. Either way no
  partial shard is ever under its final name, and the manifest's SHA-256 of
  each shard is what ``verify``, ``open`` and a resumed build trust.

``memory://`` is a file system inside one Python process: a build there with
the process engine runs in this process (``workers=1``), since worker
processes would each write into their own memory.

**The build lock.** A build holds ``.mazeplugin-build.lock`` in its folder
from before it looks at the folder until it returns, so a second build into
the same folder fails at once with :class:`~mazeplugin.dataset.errors.DatasetError`
naming the folder and the holder's pid and host:

- On a local folder (and ``file://``) the lock is ``fcntl.flock`` on that
  file, with the holder's pid, host and start time written in it. The kernel
  drops the lock when its process dies however it dies (``kill -9``
  included), so the lock of a killed build is stale by definition and the
  next build takes it over (after checking the file it locked is still the
  one in the folder: a finishing build deletes the file while holding it).
  ``flock`` is advisory and local to one machine: over NFS it is as good as
  the server's lock support; two machines building into one shared folder
  should not rely on it.
- Elsewhere (object stores, ``memory://``, systems without ``fcntl``) there is
  no lock that dies with its process: the file is created write-once (mode
  ``"xb"``) holding the pid and host. A lock left by a dead build on *this*
  host (its pid no longer runs) is taken over; one from another host is
  reported with its pid, host and start time, and the message says to delete
  the lock file if that build is known to be gone.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import time
import weakref
from typing import Any, Dict, List, Optional, Union

from .errors import DatasetError

__all__ = ["Folder", "BuildLock", "LOCK_FILE", "is_url"]

LOCK_FILE = ".mazeplugin-build.lock"
"""The lock file a running build holds in its folder (deleted when the build returns)."""

PathLike = Union[str, "os.PathLike[str]"]


def is_url(out: PathLike) -> bool:
    """True when ``out`` names a place by URL (``protocol://...``), for fsspec."""
    return isinstance(out, str) and "://" in out


def _fsspec_of(url: str) -> Any:
    try:
        from fsspec.core import url_to_fs
    except ImportError:
        raise DatasetError(f'{url}: a dataset at a URL needs fsspec: pip install "mazeplugin[remote]"') from None
    try:
        return url_to_fs(url)
    except (ImportError, ValueError) as error:
        raise DatasetError(f"{url}: fsspec cannot open this URL ({error})") from None


def _holder_text() -> str:
    return json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                       "since": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})


def _describe_holder(text: bytes) -> str:
    try:
        holder = json.loads(text.decode("utf-8"))
        return f"pid {holder['pid']} on host {holder['host']} since {holder['since']}"
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError):
        return "a build that has not written its pid yet"


def _pid_runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # it exists (or we cannot tell): never take a live build's lock
    return True


_HELD: "weakref.WeakSet[BuildLock]" = weakref.WeakSet()
"""The locks this process holds: a forked child (a pool worker) lets go of its copies at once."""


def _forget_locks_in_child() -> None:
    """After ``fork``: close the child's copies of the lock descriptors (the parent still holds the lock).

    ``flock`` belongs to the open file, which a forked child shares: a pool
    worker outliving a killed build would otherwise keep its folder locked.
    """
    for lock in list(_HELD):
        lock._forget()
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_locks_in_child)


class BuildLock:
    """The lock of one build on its folder; :meth:`release` (or leaving the ``with``) lets it go.

    ``previous`` describes the dead build whose lock was taken over, or is None.
    """

    folder: "Folder"
    previous: Optional[str]

    def __init__(self, folder: "Folder", fd: Optional[int], previous: Optional[str]) -> None:
        self.folder, self._fd, self.previous = folder, fd, previous
        self._held = True
        if fd is not None:
            _HELD.add(self)

    def _forget(self) -> None:
        """In a forked child: close this copy of the descriptor and never release the parent's lock."""
        self._held = False
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None

    def release(self) -> None:
        """Delete the lock file and let the lock go (the file first, while still held)."""
        if not self._held:
            return
        self._held = False
        _HELD.discard(self)
        try:
            if self._fd is not None:
                os.unlink(self.folder.local_path(LOCK_FILE))
            else:
                self.folder.remove(LOCK_FILE)
        except FileNotFoundError:
            pass  # removed by hand meanwhile: nothing left to let go of but the descriptor
        finally:
            if self._fd is not None:
                os.close(self._fd)  # closing drops the flock

    def __enter__(self) -> "BuildLock":
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class Folder:
    """A dataset folder: a local path, or an fsspec URL (see the module docstring).

    >>> import os, tempfile
    >>> folder = Folder(os.path.join(tempfile.mkdtemp(), "levels"))
    >>> folder.makedirs(); folder.write_atomic("a.npz", b"shard"); folder.listdir()
    ['a.npz']
    >>> with folder.lock() as lock:
    ...     sorted(folder.listdir())
    ['.mazeplugin-build.lock', 'a.npz']
    >>> folder.listdir(), folder.read_bytes("a.npz")
    (['a.npz'], b'shard')
    """

    out: str
    fs: Any
    root: str

    def __init__(self, out: PathLike) -> None:
        self.out = os.fspath(out)
        if is_url(self.out):
            self.fs, root = _fsspec_of(self.out)
            self.root = root.rstrip("/") or "/"
        else:
            self.fs, self.root = None, self.out

    @property
    def is_local(self) -> bool:
        """True for a plain local path (read and written with ``os``)."""
        return self.fs is None

    def _on_local_disk(self) -> bool:
        return self.fs is None or "file" in _protocols(self.fs)

    def is_memory(self) -> bool:
        """True for ``memory://``, a file system that lives in one process."""
        return self.fs is not None and "memory" in _protocols(self.fs)

    def name(self, name: str) -> str:
        """A file of the folder as a user would write it (for messages)."""
        return os.path.join(self.out, name) if self.is_local else self.out.rstrip("/") + "/" + name

    def _path(self, name: str) -> str:
        return os.path.join(self.root, name) if self.is_local else self.root.rstrip("/") + "/" + name

    def local_path(self, name: str) -> str:
        """The local file system path of a file of a folder on local disk (a path or ``file://``)."""
        return self._path(name)  # url_to_fs gave file:// URLs as plain paths

    # -- the folder itself ---------------------------------------------------------

    def exists(self) -> bool:
        return os.path.exists(self.root) if self.is_local else bool(self.fs.exists(self.root))

    def isdir(self) -> bool:
        return os.path.isdir(self.root) if self.is_local else bool(self.fs.isdir(self.root))

    def makedirs(self) -> None:
        """Make the folder (and its parents); :class:`DatasetError` when it cannot be made."""
        try:
            if self.is_local:
                os.makedirs(self.root, exist_ok=True)
            else:
                self.fs.makedirs(self.root, exist_ok=True)
        except OSError as error:
            raise DatasetError(f"cannot create {self.out}: {error.strerror or error}") from None

    def listdir(self) -> List[str]:
        """The names in the folder."""
        if self.is_local:
            return os.listdir(self.root)
        try:
            paths = self.fs.ls(self.root, detail=False)
        except FileNotFoundError:
            return []  # an object store has no empty folders: a new prefix is not there yet
        return [str(path).rstrip("/").rsplit("/", 1)[-1] for path in paths]

    # -- its files -------------------------------------------------------------------

    def isfile(self, name: str) -> bool:
        return os.path.isfile(self._path(name)) if self.is_local else bool(self.fs.isfile(self._path(name)))

    def size(self, name: str) -> int:
        return os.path.getsize(self._path(name)) if self.is_local else int(self.fs.size(self._path(name)))

    def _open_read(self, name: str) -> Any:
        """A file of the folder opened for reading; a local one must be a regular file (a FIFO would block)."""
        if not self.is_local:
            return self.fs.open(self._path(name), "rb")
        from mazeplugin.errors import LevelFormatError
        from mazeplugin.formats.files import open_regular

        try:
            return open_regular(self._path(name), what="a dataset file")
        except LevelFormatError as error:
            raise DatasetError(str(error)) from None

    def read_bytes(self, name: str, limit: Optional[int] = None) -> bytes:
        """The bytes of a file (at most ``limit`` of them); ``OSError`` (e.g. ``FileNotFoundError``) otherwise.

        A local name that is not a regular file (a FIFO, a device, a folder) is a
        :class:`DatasetError`, before anything could block on it.
        """
        with self._open_read(name) as f:
            if limit is None:
                return bytes(f.read())
            pieces = []  # a megabyte at a time: f.read(limit) would set aside all of limit at once
            while limit > 0:
                piece = f.read(min(limit, 1 << 20))
                if not piece:
                    break
                pieces.append(piece)
                limit -= len(piece)
            return b"".join(pieces)

    def sha256(self, name: str) -> str:
        """The SHA-256 of a file, read a megabyte at a time."""
        import hashlib

        h = hashlib.sha256()
        with self._open_read(name) as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()

    def remove(self, name: str) -> None:
        if self.is_local:
            os.remove(self._path(name))
        else:
            self.fs.rm(self._path(name))

    def write_atomic(self, name: str, data: bytes) -> None:
        """Write ``data`` as ``name``: whole under ``name.partial-PID``, then renamed or moved to ``name``.

        A write that fails (the disk full, the folder read-only) is a
        :class:`DatasetError` naming the file and why, its partial file removed.
        """
        path = self._path(name)
        partial = f"{path}.partial-{os.getpid()}"
        try:
            if self.is_local:
                with open(partial, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(partial, path)
                return
            with self.fs.open(partial, "wb") as f:
                f.write(data)
            self.fs.mv(partial, path)
        except OSError as error:
            try:
                os.remove(partial) if self.is_local else self.fs.rm(partial)
            except OSError:
                pass  # never made, or cannot be removed either: the next build deletes it
            raise self.cannot_write(name, error) from None

    def write_text(self, name: str, text: str) -> None:
        """Write a small text file (the manifest) safely: never half-written under ``name``."""
        if self.is_local:
            from mazeplugin.formats.files import write_text

            try:
                write_text(self._path(name), text)
            except OSError as error:
                raise self.cannot_write(name, error) from None
        else:
            self.write_atomic(name, text.encode("utf-8"))

    def cannot_write(self, name: str, error: OSError) -> DatasetError:
        """The one-line error for a file of the folder that could not be written."""
        why = error.strerror or str(error) or type(error).__name__
        hint = {errno.ENOSPC: "; free some space and build again to resume (finished shards are kept)",
                errno.EFBIG: "; the file size limit (ulimit -f) was reached",
                errno.EROFS: "; the folder is on a read-only file system: build into another folder",
                errno.EACCES: "; build into a folder you may write to",
                errno.EDQUOT: "; the disk quota is used up: free some space and build again to resume"}
        return DatasetError(f"cannot write {self.name(name)}: {why}{hint.get(error.errno or 0, '')}")

    # -- the build lock -------------------------------------------------------------

    def lock(self) -> BuildLock:
        """Take the build lock of this folder (which must exist), or raise :class:`DatasetError` naming its holder."""
        if self._on_local_disk():
            try:
                import fcntl
            except ImportError:  # pragma: no cover - Windows
                return self._write_once_lock()
            return self._flock(fcntl)
        return self._write_once_lock()

    def _busy(self, holder: str, hint: str = "") -> DatasetError:
        return DatasetError(f"{self.out} is being built by another build ({holder}); wait for it to finish or "
                            f"build into another folder{hint} (nothing was changed)")

    def _flock(self, fcntl: Any) -> BuildLock:
        path = self.local_path(LOCK_FILE)
        while True:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as error:
                raise self.cannot_write(LOCK_FILE, error) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.read(fd, 4096)
                os.close(fd)
                raise self._busy(_describe_holder(holder)) from None
            try:
                same = os.stat(path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if not same:  # the holder deleted it as it finished: lock the file that is there now
                os.close(fd)
                continue
            previous = os.read(fd, 4096)
            try:
                os.lseek(fd, 0, os.SEEK_SET)
                os.ftruncate(fd, 0)
                os.write(fd, _holder_text().encode("utf-8"))
            except OSError as error:
                os.close(fd)
                raise self.cannot_write(LOCK_FILE, error) from None
            return BuildLock(self, fd, _describe_holder(previous) if previous else None)

    def _write_once_lock(self) -> BuildLock:
        path = self._path(LOCK_FILE)
        previous = None
        for _ in range(2):
            try:
                opened = open(path, "xb") if self.is_local else self.fs.open(path, "xb")
                with opened as f:
                    f.write(_holder_text().encode("utf-8"))
                return BuildLock(self, None, previous)
            except FileExistsError:
                pass
            except OSError as error:
                raise self.cannot_write(LOCK_FILE, error) from None
            try:
                text = self.read_bytes(LOCK_FILE, 4096)
            except FileNotFoundError:
                continue  # let go meanwhile: try again
            try:
                holder = json.loads(text.decode("utf-8"))
                stale = holder["host"] == socket.gethostname() and not _pid_runs(int(holder["pid"]))
            except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError):
                stale = False
            if not stale:
                raise self._busy(_describe_holder(text), f", or delete {self.name(LOCK_FILE)} if that build is "
                                 "known to be gone")
            previous = _describe_holder(text)
            self.remove(LOCK_FILE)
        raise self._busy("another build took the lock as this one took over a stale one")


def _protocols(fs: Any) -> Dict[str, bool]:
    protocol = fs.protocol
    return {p: True for p in ((protocol,) if isinstance(protocol, str) else protocol)}
