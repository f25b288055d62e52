"""Writing level files atomically, and the error a bad level file raises.

A level file is written to a temporary file beside its destination and then
renamed over it (``os.replace``, atomic on POSIX and Windows), so an
interrupted run never leaves a half-written level under the real name: there
is either the old file, the new one, or none. (No ``fsync``: this protects
against a killed process, not against a power cut.)

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> target = os.path.join(folder, "level.txt")
>>> write_text(target, "#####")
>>> open(target).read(), sorted(os.listdir(folder))
('#####', ['level.txt'])
"""

from __future__ import annotations

import os
import secrets
from contextlib import contextmanager
from typing import Iterator, Union

__all__ = ["LevelFormatError", "PathLike", "atomic_path", "write_bytes", "write_text"]

PathLike = Union[str, "os.PathLike[str]"]


class LevelFormatError(ValueError):
    """A level file or text that cannot be loaded: truncated, corrupted, oversized or not a level.

    The message starts with the file name (or ``<json text>`` / ``<array>``)
    and says what is wrong.
    """


@contextmanager
def atomic_path(path: PathLike) -> Iterator[str]:
    """Yield a temporary path beside ``path``; on success rename it over ``path``.

    The temporary name keeps ``path``'s extension (some writers, like
    pygame's, choose the format by it) and starts with a dot. On any error
    the temporary file is removed and ``path`` is left as it was.
    """
    path = os.fspath(path)
    directory, name = os.path.split(os.path.abspath(path))
    extension = os.path.splitext(name)[1]
    # Short enough for any file system's name limit, unique per process and call.
    temporary = os.path.join(directory, f".{name[:100]}.{os.getpid()}-{secrets.token_hex(4)}.tmp{extension}")
    # Created with the usual permissions (0o666 less the umask), unlike mkstemp's 0o600.
    os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    try:
        yield temporary
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise


def write_bytes(path: PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_path(path) as temporary:
        with open(temporary, "wb") as f:
            f.write(data)


def write_text(path: PathLike, text: str) -> None:
    """Write ``text`` to ``path`` atomically, as UTF-8 with ``\\n`` line ends."""
    write_bytes(path, text.encode("utf-8"))
