"""Level codes: a short text that names a level exactly, for players to share.

A code is ``algorithm-WIDTHxHEIGHT-seed``: the generator's name, the size in
cells, and the seed (an int, or any text). Typed back in, it gives the same
level on any machine, so two players can race the same maze.

>>> import mazeplugin as mp
>>> level = mp.generate("union-find", 12, 9, seed=42)
>>> level_code(level)
'union-find-12x9-42'
>>> algorithm, width, height, seed = parse_level_code("union-find-12x9-42")
>>> mp.generate(algorithm, width, height, seed=seed).tiles.tobytes() == level.tiles.tobytes()
True
"""

from __future__ import annotations

import re
from typing import Tuple

from .level import Level
from .seeds import Seed, resolve_seed

__all__ = ["level_code", "parse_level_code"]

# The algorithm is the shortest prefix followed by "-WxH-": names may hold
# dashes ("union-find") and seeds any text, but the size sits between them.
_CODE = re.compile(r"(?P<algorithm>.+?)-(?P<width>[0-9]+)[xX](?P<height>[0-9]+)-(?P<seed>.+)", re.DOTALL)


def level_code(level: Level) -> str:
    """The level code of a generated level: ``algorithm-WIDTHxHEIGHT-seed``.

    Only levels made by :func:`mazeplugin.generate` with default options have
    one (a code holds no generator options, corridor or wall widths or marker
    modes); anything else raises ``ValueError``, since its code would make a
    different level.

    >>> import mazeplugin as mp
    >>> level_code(mp.generate("kruskal", 20, 15, seed=7))
    'kruskal-20x15-7'
    >>> level_code(mp.generate("prim", 5, 5, seed="castle"))
    'prim-5x5-castle'
    """
    if not isinstance(level, Level):
        raise TypeError(f"level must be a mazeplugin Level, not {type(level).__name__}")
    if level.algorithm is None or level.seed is None:
        raise ValueError("only a generated level (with an algorithm and a seed) has a level code")
    if level.options:
        raise ValueError(
            f"a level code holds no options, so this level (options {sorted(level.options)}) has none; "
            "codes are for levels generated with default options"
        )
    code = f"{level.algorithm}-{level.width}x{level.height}-{level.seed}"
    if parse_level_code(code) != (level.algorithm, level.width, level.height, level.seed):
        raise ValueError(f"algorithm {level.algorithm!r} and seed {level.seed!r} do not make an unambiguous code")
    return code


def parse_level_code(text: str) -> Tuple[str, int, int, Seed]:
    """``(algorithm, width, height, seed)`` from a level code; surrounding spaces are ignored.

    A seed of plain decimal digits is an int (as :func:`mazeplugin.seeds.resolve_seed`
    reads it); any other seed stays text. The algorithm is not looked up
    here: ``mazeplugin.generate`` says if it is unknown. Unreadable text
    raises ``ValueError`` saying what a code looks like.

    >>> parse_level_code("kruskal-20x15-7")
    ('kruskal', 20, 15, 7)
    >>> parse_level_code("  union-find-8x6-my castle ")
    ('union-find', 8, 6, 'my castle')
    >>> parse_level_code("kruskal 20 15")
    Traceback (most recent call last):
    ...
    ValueError: level code 'kruskal 20 15' is not of the form algorithm-WIDTHxHEIGHT-seed, e.g. 'kruskal-20x15-7'
    """
    if not isinstance(text, str):
        raise TypeError(f"level code must be a str, not {type(text).__name__}")
    stripped = text.strip()
    match = _CODE.fullmatch(stripped)
    if match is None:
        raise ValueError(
            f"level code {stripped!r} is not of the form algorithm-WIDTHxHEIGHT-seed, e.g. 'kruskal-20x15-7'"
        )
    width, height = int(match["width"]), int(match["height"])
    if width < 1 or height < 1:
        raise ValueError(f"level code {stripped!r}: width and height must be at least 1, got {width}x{height}")
    return match["algorithm"], width, height, resolve_seed(match["seed"])
