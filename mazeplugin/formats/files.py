"""Reading and writing level files safely, and the error a bad level file raises.

**Writing.** What a destination path names decides how it is written:

- a regular file, or nothing yet: a temporary file is written beside it and
  renamed over it (``os.replace``, atomic on POSIX and Windows), so an
  interrupted run never leaves a half-written level under the real name:
  there is either the old file, the new one, or none. An existing file keeps
  its permission bits. (No ``fsync``: this protects against a killed
  process, not against a power cut.)
- a symbolic link: followed (through any chain); its target is written as above,
  the link itself is left in place.
- this process's standard output or standard error (``/dev/stdout``,
  ``/dev/fd/1``, ...): the bytes are written to that descriptor.
- a character device or a FIFO: opened and written *through* (no rename,
  nothing replaced). Writing to a FIFO waits for a reader, like any program.
- a directory, a block device (a disk) or a socket: refused before anything
  is written — an ``IsADirectoryError`` for a directory, a
  :class:`UnsafeDestinationError` (a ``ValueError``) naming the path for the
  others.

Nothing is ever renamed over anything but a regular file.

**Reading.** :func:`read_limited` reads at most ``limit + 1`` bytes and only
from a regular file: a FIFO, a device such as ``/dev/zero``, a directory or a
file over the limit is refused with a :class:`LevelFormatError` naming it,
before it can hang or exhaust memory. Every loader in mazeplugin reads
through it.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> target = os.path.join(folder, "level.txt")
>>> write_text(target, "#####")
>>> open(target).read(), sorted(os.listdir(folder))
('#####', ['level.txt'])
>>> os.symlink(target, os.path.join(folder, "link.txt"))
>>> write_text(os.path.join(folder, "link.txt"), "S...E")
>>> open(target).read(), os.path.islink(os.path.join(folder, "link.txt"))
('S...E', True)
>>> read_limited(target, 5, what="a level")
b'S...E'
>>> try:
...     read_limited(target, 4, what="a level")
... except LevelFormatError as error:
...     print(str(error).replace(folder, "FOLDER"))
FOLDER/level.txt: 5 bytes is too large for a level (at most 4 bytes)
"""

from __future__ import annotations

import os
import secrets
import stat
import sys
import tempfile
from contextlib import contextmanager
from typing import BinaryIO, Iterator, NamedTuple, Optional, Union

from ..errors import LevelFormatError

__all__ = [
    "LevelFormatError",
    "UnsafeDestinationError",
    "PathLike",
    "Destination",
    "destination",
    "atomic_path",
    "write_bytes",
    "write_text",
    "open_regular",
    "read_limited",
]

PathLike = Union[str, "os.PathLike[str]"]


class UnsafeDestinationError(ValueError):
    """A destination mazeplugin refuses to write to: a block device or a socket.

    The message names the path and says what it is.
    """


class Destination(NamedTuple):
    """Where a write goes, as :func:`destination` decides.

    Attributes:
        kind: ``"file"`` (a regular file, or nothing yet: atomic rename at
            ``path``), ``"descriptor"`` (write to file descriptor ``fd``) or
            ``"through"`` (open ``path`` and write into it: a character
            device or a FIFO).
        path: the path to rename onto or open (a symlink's final target for ``"file"``).
        fd: for ``"descriptor"``, 1 (standard output) or 2 (standard error).
    """

    kind: str
    path: str
    fd: Optional[int] = None


def _describe(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def _standard_descriptor(info: os.stat_result) -> Optional[int]:
    """1 or 2 when ``info`` is this process's standard output or error, else None."""
    for fd in (1, 2):
        try:
            if os.path.samestat(info, os.fstat(fd)):
                return fd
        except OSError:
            continue
    return None


def destination(path: PathLike) -> Destination:
    """Decide how a write to ``path`` is done (see the module docstring); refuse unsafe ones.

    Raises ``IsADirectoryError`` for a directory and
    :class:`UnsafeDestinationError` for a block device or a socket.
    """
    path = os.fspath(path)
    try:
        info = os.stat(path)  # follows symlinks (and /proc/self/fd magic links)
    except FileNotFoundError:
        # Nothing there yet, or a dangling symlink: create its final target.
        return Destination("file", os.path.realpath(path))
    mode = info.st_mode
    if stat.S_ISREG(mode):
        fd = _standard_descriptor(info) if os.path.realpath(path) != os.path.abspath(path) else None
        if fd is not None:
            return Destination("descriptor", path, fd)  # -o /dev/stdout redirected to a file
        return Destination("file", os.path.realpath(path))
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(21, "Is a directory", path)
    fd = _standard_descriptor(info)
    if fd is not None:
        return Destination("descriptor", path, fd)
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return Destination("through", path)
    raise UnsafeDestinationError(
        f"{path!r} is {_describe(mode)}; mazeplugin writes levels only to regular files, "
        "character devices, FIFOs and standard output"
    )


def _write_fd(fd: int, data: bytes) -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None and stream.fileno() == fd:
                stream.flush()  # keep the order with what was printed before
        except (AttributeError, OSError, ValueError):
            pass
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _write_through(path: str, data: bytes) -> None:
    with open(path, "wb", buffering=0) as f:  # no O_CREAT surprises: it exists and is not a regular file
        view = memoryview(data)
        while view:
            written = f.write(view)
            view = view[written or 0:]


@contextmanager
def _temporary_beside(target: str) -> Iterator[str]:
    """A new empty temporary file beside ``target`` (same extension, hidden); removed on any error."""
    directory, name = os.path.split(target)
    extension = os.path.splitext(name)[1]
    # Short enough for any file system's name limit, unique per process and call.
    temporary = os.path.join(directory, f".{name[:100]}.{os.getpid()}-{secrets.token_hex(4)}.tmp{extension}")
    created = False
    try:
        # Created with the usual permissions (0o666 less the umask), unlike mkstemp's 0o600.
        os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        created = True
        yield temporary
    except BaseException:
        if created:
            try:
                os.unlink(temporary)
            except FileNotFoundError:
                pass
        raise


def _replace(temporary: str, target: str) -> None:
    """Rename ``temporary`` over ``target``, but only over a regular file (or nothing)."""
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        pass
    else:
        if not stat.S_ISREG(info.st_mode):  # it changed since we looked: do not rename over it
            raise UnsafeDestinationError(f"{target!r} became {_describe(info.st_mode)} while it was being written")
        os.chmod(temporary, stat.S_IMODE(info.st_mode))
    os.replace(temporary, target)


@contextmanager
def atomic_path(path: PathLike) -> Iterator[str]:
    """Yield a temporary path to write to; on success it becomes ``path`` safely.

    For a regular file (or a new one) the temporary file lies beside the
    final target (symlinks followed) and is renamed over it. For a device,
    a FIFO or standard output the temporary file lies in the system's
    temporary folder and its bytes are written through, then it is removed.
    The temporary name keeps ``path``'s extension (some writers, like
    pygame's, choose the format by it). On any error the temporary file is
    removed and ``path`` is left as it was.
    """
    where = destination(path)
    if where.kind == "file":
        with _temporary_beside(where.path) as temporary:
            yield temporary
            _replace(temporary, where.path)
        return
    extension = os.path.splitext(where.path)[1]
    handle, temporary = tempfile.mkstemp(prefix=".mazeplugin-", suffix=extension)
    os.close(handle)
    try:
        yield temporary
        with open(temporary, "rb") as f:
            data = f.read()
        if where.kind == "descriptor":
            assert where.fd is not None
            _write_fd(where.fd, data)
        else:
            _write_through(where.path, data)
    finally:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass


def write_bytes(path: PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` safely (see the module docstring)."""
    where = destination(path)
    if where.kind == "descriptor":
        assert where.fd is not None
        _write_fd(where.fd, data)
    elif where.kind == "through":
        _write_through(where.path, data)
    else:
        with _temporary_beside(where.path) as temporary:
            with open(temporary, "wb") as f:
                f.write(data)
            _replace(temporary, where.path)


def write_text(path: PathLike, text: str) -> None:
    """Write ``text`` to ``path`` safely, as UTF-8 with ``\\n`` line ends."""
    write_bytes(path, text.encode("utf-8"))


def open_regular(path: PathLike, *, what: str) -> BinaryIO:
    """Open the regular file ``path`` for reading, refusing anything else before it can block.

    A directory, FIFO, socket or device is refused (:class:`LevelFormatError`
    naming the file) before it is opened, and the file is opened
    non-blocking, so a FIFO swapped in meanwhile cannot block either.
    ``what`` names the content for the message (``"a level"``, ``"a mask"``).
    ``OSError`` (e.g. ``FileNotFoundError``) when it cannot be opened.
    """
    source = os.fspath(path)
    info = os.stat(source)
    if not stat.S_ISREG(info.st_mode):
        raise LevelFormatError(f"{source}: is {_describe(info.st_mode)}; {what} is read only from a regular file")
    fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    f = open(fd, "rb", closefd=True)
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        f.close()
        raise LevelFormatError(f"{source}: is {_describe(info.st_mode)}; {what} is read only from a regular file")
    return f


def read_limited(path: PathLike, limit: int, *, what: str) -> bytes:
    """The bytes of the regular file ``path``, refusing anything else or more than ``limit`` bytes.

    At most ``limit + 1`` bytes are ever read, so a file that grows or lies
    about its size cannot make it read more. A directory, FIFO, socket or
    device (``/dev/zero``) is refused as :func:`open_regular` does. ``what``
    names the content for the message (``"a level"``, ``"a mask"``). Raises
    :class:`LevelFormatError` naming the file, or ``OSError`` (e.g.
    ``FileNotFoundError``) when it cannot be opened.
    """
    source = os.fspath(path)
    with open_regular(source, what=what) as f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise LevelFormatError(f"{source}: {size:,} bytes is too large for {what} (at most {limit:,} bytes)")
        # Ask for what fstat says is there (plus one byte to notice growth), not for ``limit``:
        # a read of ``limit + 1`` reserves that much memory up front, 1 GiB for a Tiled map.
        data = f.read(size + 1)
        while size < len(data) <= limit:  # the file grew while read: go on, a chunk at a time
            more = f.read(min(1 << 20, limit + 1 - len(data)))
            if not more:
                break
            data += more
    if len(data) > limit:
        raise LevelFormatError(f"{source}: more than {limit:,} bytes is too large for {what} (at most {limit:,} bytes)")
    return data
