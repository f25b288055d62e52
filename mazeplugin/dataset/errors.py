"""The dataset's own error (a ``ValueError``), where every module of the package can raise it."""

from __future__ import annotations

__all__ = ["DatasetError"]


class DatasetError(ValueError):
    """A dataset folder or build request that cannot be used: the message says what and why."""
