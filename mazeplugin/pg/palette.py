"""Colours: the palette a level is drawn in, from the one table of colours the SVG pictures use too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Tuple, cast

from ..formats.svg import COLOURS

Colour = Tuple[int, int, int]


def rgb(name: str) -> Colour:
    """The colour ``name`` of the one table every picture draws in (:data:`mazeplugin.formats.svg.COLOURS`).

    >>> rgb("wall")
    (46, 52, 64)
    """
    value = COLOURS[name]
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def check_colour(name: str, colour: object) -> Colour:
    try:
        values = tuple(int(v) for v in cast(Iterable[Any], colour))
    except (TypeError, ValueError):
        raise TypeError(f"{name} colour must be an (r, g, b) tuple of ints, got {colour!r}") from None
    if len(values) != 3 or not all(0 <= v <= 255 for v in values):
        raise ValueError(f"{name} colour must be three ints in 0..255, got {colour!r}")
    return (values[0], values[1], values[2])


@dataclass(frozen=True)
class Palette:
    """The colours a level is drawn in: ``(r, g, b)`` tuples of 0..255.

    ``fog`` is drawn over tiles the player has not seen (see ``seen=`` in
    :func:`render`). Make your own with ``dataclasses.replace(DEFAULT_PALETTE, wall=...)``.
    """

    wall: Colour = rgb("wall")
    floor: Colour = rgb("floor")
    entrance: Colour = rgb("entrance")
    exit: Colour = rgb("exit")
    solution: Colour = rgb("solution")
    fog: Colour = (18, 20, 26)

    def __post_init__(self) -> None:
        for name in ("wall", "floor", "entrance", "exit", "solution", "fog"):
            check_colour(name, getattr(self, name))


DEFAULT_PALETTE = Palette()
"""Dark slate walls on a warm paper floor; green entrance, red exit, amber solution."""
