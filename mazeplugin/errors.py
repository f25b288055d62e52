"""The library's own exception classes, in the ground layer so that any layer can raise them.

>>> from mazeplugin.errors import LevelFormatError
>>> issubclass(LevelFormatError, ValueError)
True
"""

from __future__ import annotations

__all__ = ["LevelFormatError"]


class LevelFormatError(ValueError):
    """A level file or text that cannot be loaded: truncated, corrupted, oversized or not a level.

    The message starts with the file name (or ``<json text>`` / ``<array>``)
    and says what is wrong. Also importable as ``mazeplugin.LevelFormatError``
    and ``mazeplugin.formats.files.LevelFormatError``.
    """
