"""Hex, triangle, polar and wrapping square levels as SVG pictures: :mod:`mazeplugin.formats.svg`'s
outline drawing by its old names (``to_svg`` here is :func:`~mazeplugin.formats.svg.to_grid_svg`)."""

from __future__ import annotations

from .svg import MARGIN, to_grid_svg as to_svg, wall_lines

__all__ = ["to_svg", "wall_lines", "MARGIN"]
