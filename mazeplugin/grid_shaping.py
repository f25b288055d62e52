"""Braiding a grid maze: :func:`mazeplugin.shaping.braid_grid`, by its old module path."""

from __future__ import annotations

from .shaping import braid_grid

__all__ = ["braid_grid"]
