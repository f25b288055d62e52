"""Level codes: a short text that names a level exactly, for players to share.

A code is ``algorithm-WIDTHxHEIGHT-seed``: the generator's name, the size in
cells, and the seed (an int, or any text). Typed back in, it gives the same
level on any machine, so two players can race the same maze.

A level with rooms or content (see :mod:`mazeplugin.rooms` and
:mod:`mazeplugin.content`) adds ``+`` and the counts: ``r`` random rooms
(``rooms=N``), ``k`` keys, ``t`` treasure, ``e`` enemies, e.g.
``backtracker-30x20-7+k2t5e3`` or ``wilson-24x18-5+r4k1``. A weave level
(``weave=``, see :mod:`mazeplugin.weave`) adds ``w`` (``weave=True``) or
``w`` and a percentage (``weave=0.25``: ``w25``): ``backtracker-20x15-7+w``.
Whatever follows a ``+`` must be such counts, so a
text seed holding ``+`` has no code (:func:`level_code` says so), and text
that :func:`looks_like_level_code` but does not parse is an error, not a seed.

A level on another grid (``generate(..., grid=...)``) names it before its
size: ``wilson-hex12x8-7``, ``kruskal-triangle20x10-1``,
``backtracker-polar8x10-3`` (for polar, innermost ring's cells x rings),
with content counts as on the square (``wilson-hex12x8-7+k2t3``; rooms are
square-only). A square level that wraps round (``wrap=``, a topology of the
square grid, not another grid) ends its ``+`` part with ``wrap`` and the axes
it wraps on, ``wrapx``, ``wrapy`` or ``wrapxy``: ``wilson-12x8-7+wrapxy``,
``kruskal-10x10-3+k1wrapx`` (after any counts, as ``w`` for weave; ``wrap``
is read before ``w``, so the two never mix up).

A dungeon (``generate("dungeon", ...)``, :mod:`mazeplugin.dungeon`) has the
code ``dungeon-PATTERN-WxH-seed+rNkM`` (``r`` rooms, ``k`` locks), and ``d``
after them when its one-way edges are carved as drops (``drops=True``):
``dungeon-valve-30x30-7+r10k1d``.

Every level ``generate`` makes with default generator options has a code
(:func:`level_code`), and :func:`mazeplugin.level_from_code` makes it again,
byte for byte, whatever its grid.

>>> import mazeplugin as mp
>>> level = mp.generate("union-find", 12, 9, seed=42)
>>> level_code(level)
'union-find-12x9-42'
>>> algorithm, width, height, seed = parse_level_code("union-find-12x9-42")
>>> mp.generate(algorithm, width, height, seed=seed).tiles.tobytes() == level.tiles.tobytes()
True
>>> code = level_code(mp.generate("backtracker", 30, 20, seed=7, keys=2, treasure=5, enemies=3))
>>> code
'backtracker-30x20-7+k2t5e3'
>>> parse_level_code(code).content
{'keys': 2, 'treasure': 5, 'enemies': 3}
>>> mp.level_from_code(code).things == mp.generate("backtracker", 30, 20, seed=7, keys=2, treasure=5, enemies=3).things
True
>>> level_code(mp.generate("wilson", 24, 18, seed=5, rooms=4, keys=1))
'wilson-24x18-5+r4k1'
>>> level_code(mp.generate("wilson", 12, 8, grid="hex", seed=7))
'wilson-hex12x8-7'
>>> parse_level_code("backtracker-polar8x10-3").grid
'polar'
>>> level_code(mp.generate("backtracker", 20, 15, seed=7, weave=0.5))
'backtracker-20x15-7+w50'
>>> parse_level_code("backtracker-20x15-7+w").content
{'weave': True}
>>> level_code(mp.generate("wilson", 12, 8, grid="hex", seed=7, keys=2, treasure=3))
'wilson-hex12x8-7+k2t3'
>>> level_code(mp.generate("wilson", 12, 8, wrap="xy", seed=7, keys=1))
'wilson-12x8-7+k1wrapxy'
>>> parse_level_code("wilson-12x8-7+k1wrapxy").content
{'keys': 1, 'wrap': 'xy'}
"""

from __future__ import annotations

import re
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

from . import seam
from .level_protocol import AnyLevel
from .seeds import Seed, resolve_seed

MAX_CODE_CHARS = 1200
"""Longest level code read: a 1,024-character seed text with room for the name, size and content."""

__all__ = ["level_code", "code_of", "parse_level_code", "looks_like_level_code", "LevelCode", "parse_size"]

# The algorithm is the shortest prefix followed by "-WxH-": names may hold
# dashes ("union-find") and seeds any text, but the size sits between them.
_CODE = re.compile(
    r"(?P<algorithm>.+?)-(?P<grid>hex|triangle|polar)?(?P<width>[0-9]+)[xX](?P<height>[0-9]+)-(?P<seed>.+?)"
    r"(?:\+(?P<content>(?:[rkte][0-9]+|wrap(?:xy|x|y)|w[0-9]*|d)+))?",
    re.DOTALL,
)
# What a code looks like, read loosely: "-WxH-" anywhere (sizes of 0 and bad suffixes included).
# A search, not a match of ".*-WxH-.*": linear however long and however many dashes the text has.
_CODE_SHAPE = re.compile(r"-(?:hex|triangle|polar)?[0-9]+[xX][0-9]+-")
_CONTENT = {"r": "rooms", "k": "keys", "t": "treasure", "e": "enemies"}
_COUNTS = tuple(_CONTENT.values())


class LevelCode(Tuple[str, int, int, Seed]):
    """``(algorithm, width, height, seed)`` read from a code, ``content``: the counts after ``+``, and ``grid``.

    A 4-tuple, so ``algorithm, width, height, seed = parse_level_code(text)``
    reads every code; ``content`` is ``{}`` or e.g. ``{'rooms': 4, 'keys': 2}``
    (and ``'weave'``: True or a fraction; ``'wrap'``: ``'x'``, ``'y'`` or ``'xy'``),
    the arguments to pass on to :func:`mazeplugin.generate`, and ``grid`` its
    ``grid=`` (``"square"`` unless the code names another).
    """

    content: Dict[str, Any]
    grid: str

    def __new__(cls, algorithm: str, width: int, height: int, seed: Seed, content: Optional[Dict[str, Any]] = None,
                grid: str = "square") -> "LevelCode":
        code = super().__new__(cls, (algorithm, width, height, seed))
        code.content = dict(content or {})
        code.grid = grid
        return code

    def __repr__(self) -> str:
        extra = f", content={self.content!r}" if self.content else ""
        extra += f", grid={self.grid!r}" if self.grid != "square" else ""
        return f"LevelCode{tuple(self)!r}"[:-1] + extra + ")"


def level_code(level: AnyLevel) -> str:
    """The level code of a generated level: ``algorithm-WIDTHxHEIGHT-seed``.

    Only levels made by :func:`mazeplugin.generate` with default options
    (and, at most, a count of ``rooms`` and ``keys``, ``treasure`` and
    ``enemies``, ``grid=``, ``wrap=`` and ``weave=``) have one (a code holds no generator options, corridor or
    wall widths, marker modes, rooms given as rectangles or prefabs,
    ``doors``, ``room_size`` or ``place`` requests); anything else raises
    ``ValueError``, since its code would make a different level.

    >>> import mazeplugin as mp
    >>> level_code(mp.generate("kruskal", 20, 15, seed=7))
    'kruskal-20x15-7'
    >>> level_code(mp.generate("prim", 5, 5, seed="castle"))
    'prim-5x5-castle'
    """
    if not isinstance(level, AnyLevel):
        raise TypeError(f"level must be a mazeplugin level (mp.AnyLevel), not {type(level).__name__}")
    if level.algorithm is None or level.seed is None:
        raise ValueError("only a generated level (with an algorithm and a seed) has a level code")
    if level.algorithm == "dungeon" and level.kind == "square":  # dungeon-PATTERN-WxH-seed+rNkM
        code: str = seam.dungeons().dungeon_code(level)
        return code
    return code_of(level.algorithm, level.width, level.height, level.seed, level.options, level.things, level.grid)


def code_of(algorithm: str, width: int, height: int, seed: Seed, options: Mapping[str, Any],
            things: Sequence[Any] = (), grid: str = "square") -> str:
    """The level code of the level ``generate`` made with these (its ``algorithm``, size, ``seed``,
    recorded ``options`` and ``things``): :func:`level_code` without the level, for code that has the
    parts (``ValueError`` where the level has no code).

    >>> code_of("kruskal", 20, 15, 7, {})
    'kruskal-20x15-7'
    """
    others = sorted(set(options) - set(_COUNTS) - {"grid", "weave", "wrap"})
    rooms = options.get("rooms")
    if rooms is not None and (isinstance(rooms, bool) or not isinstance(rooms, int)):
        others.append("rooms (rectangles or prefabs)")
    if others:
        raise ValueError(
            f"a level code holds no options, so this level (options {others}) has none; "
            "codes are for levels generated with default options (and a count of rooms, keys, treasure, enemies)"
        )
    if "+" in str(seed):
        raise ValueError(
            f"seed {seed!r} holds '+', which in a level code starts the content counts: "
            "this level has no unambiguous code"
        )
    content: Dict[str, Any] = {name: int(options[name]) for name in _COUNTS if options.get(name)}
    _check_things(things, content)
    code = f"{algorithm}-{grid if grid != 'square' else ''}{width}x{height}-{seed}"
    weave, wrap = options.get("weave"), options.get("wrap")
    if content or weave or wrap:
        code += "+" + "".join(f"{letter}{content[name]}" for letter, name in _CONTENT.items() if name in content)
    if weave:
        percent = 100 if weave is True else round(float(weave) * 100)
        if percent == 100:
            code += "w"
        elif percent / 100 == weave:
            code += f"w{percent}"
        else:
            raise ValueError(f"weave={weave!r} is not a whole percentage, so this level has no level code")
        content["weave"] = True if percent == 100 else weave
    if wrap:
        code += f"wrap{wrap}"
        content["wrap"] = wrap
    parsed = parse_level_code(code)
    if (parsed != (algorithm, width, height, seed) or parsed.content != content
            or parsed.grid != grid):
        raise ValueError(f"algorithm {algorithm!r} and seed {seed!r} do not make an unambiguous code")
    return code


def _check_things(things: Sequence[Any], content: Dict[str, Any]) -> None:
    """Refuse a level whose things are not what its content counts make (things set or edited after
    :func:`~mazeplugin.generate`): its code would make the level without them."""
    counts: Dict[str, int] = {}
    for thing in things:
        counts[thing.kind] = counts.get(thing.kind, 0) + 1
    keys = content.get("keys", 0)
    made = {"key": keys, "door": keys, "treasure": content.get("treasure", 0), "enemy": content.get("enemies", 0)}
    if counts != {kind: n for kind, n in made.items() if n}:
        held = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items())) or "none"
        raise ValueError(f"this level's things ({held}) are not the ones its content counts make "
                         "(were they set after generate?), so its code would make it without them: "
                         "save it as JSON or a Tiled map instead")


def parse_size(text: str, *, square: bool = True) -> Optional[Tuple[int, int]]:
    """``(width, height)`` from ``"WxH"`` (an ``X`` too; or ``"N"`` for ``N x N`` when ``square``),
    or None when ``text`` is not of that form. Bounds are the caller's to check.

    The one reader of sizes for the command line and the demo (``--size``,
    ``--chunk``, ``--window``), each of which checks its own bounds.

    >>> parse_size("20x15"), parse_size("12"), parse_size("12", square=False), parse_size("20 by 15")
    ((20, 15), (12, 12), None, None)
    """
    parts = text.lower().split("x")
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        return None
    if len(numbers) == 1 and square:
        numbers *= 2
    if len(numbers) != 2:
        return None
    return numbers[0], numbers[1]


def parse_level_code(text: str) -> LevelCode:
    """``(algorithm, width, height, seed)`` from a level code; surrounding spaces are ignored.

    Content counts after ``+`` are on the result's ``.content``.

    A seed of plain decimal digits is an int (as :func:`mazeplugin.seeds.resolve_seed`
    reads it); any other seed stays text. The algorithm is not looked up
    here: ``mazeplugin.generate`` says if it is unknown. Unreadable text
    raises ``ValueError`` saying what a code looks like.

    >>> parse_level_code("kruskal-20x15-7") == ("kruskal", 20, 15, 7)
    True
    >>> parse_level_code("  union-find-8x6-my castle ")
    LevelCode('union-find', 8, 6, 'my castle')
    >>> parse_level_code("backtracker-30x20-7+k2e3")
    LevelCode('backtracker', 30, 20, 7, content={'keys': 2, 'enemies': 3})
    >>> parse_level_code("kruskal 20 15")
    Traceback (most recent call last):
    ...
    ValueError: level code 'kruskal 20 15' is not of the form algorithm-WIDTHxHEIGHT-seed, e.g. 'kruskal-20x15-7'
    >>> parse_level_code("wilson-24x18-5+zz")
    Traceback (most recent call last):
    ...
    ValueError: level code 'wilson-24x18-5+zz': '+zz' is not content; after '+' come counts r (rooms), k (keys), t (treasure), e (enemies), each once, e.g. '+r4k1', and w (weave) or w and a percentage, and wrapx, wrapy or wrapxy (a level that wraps)
    """
    if not isinstance(text, str):
        raise TypeError(f"level code must be a str, not {type(text).__name__}")
    stripped = text.strip()
    if len(stripped) > MAX_CODE_CHARS:  # before any parsing: a seed text is at most 1,024 characters
        raise ValueError(f"level code is {len(stripped):,} characters long; at most {MAX_CODE_CHARS:,}")
    match = _CODE.fullmatch(stripped)
    if match is None:
        raise ValueError(
            f"level code {stripped!r} is not of the form algorithm-WIDTHxHEIGHT-seed, e.g. 'kruskal-20x15-7'"
        )
    if "+" in match["seed"]:
        suffix = match["seed"][match["seed"].index("+"):] + ("+" + match["content"] if match["content"] else "")
        raise ValueError(
            f"level code {stripped!r}: {suffix!r} is not content; after '+' come counts r (rooms), "
            "k (keys), t (treasure), e (enemies), each once, e.g. '+r4k1', and w (weave) or w and a percentage, "
            "and wrapx, wrapy or wrapxy (a level that wraps)"
        )
    width, height = int(match["width"]), int(match["height"])
    if width < 1 or height < 1:
        raise ValueError(f"level code {stripped!r}: width and height must be at least 1, got {width}x{height}")
    content: Dict[str, Any] = {}
    for letter, digits in re.findall(r"(wrap|[rktewd])(xy|x|y|[0-9]*)", match["content"] or ""):
        name = _CONTENT.get(letter, {"wrap": "wrap", "d": "drops"}.get(letter, "weave"))
        if name in content:
            raise ValueError(f"level code {stripped!r} gives {name} twice")
        if name == "drops":
            if not (match["algorithm"] == "dungeon" or match["algorithm"].startswith("dungeon-")):
                raise ValueError(f"level code {stripped!r}: d (one-way drops) belongs to dungeon codes only, "
                                 "dungeon-PATTERN-WxH-seed+rNkMd")
            content[name] = True
        elif name == "wrap":
            content[name] = digits
        elif name != "weave":
            content[name] = int(digits)
        elif digits and not 1 <= int(digits) <= 100:
            raise ValueError(f"level code {stripped!r}: weave w{digits} must be a percentage from 1 to 100 "
                             "(or 'w' alone for all)")
        else:
            content[name] = True if not digits or int(digits) == 100 else int(digits) / 100
    return LevelCode(match["algorithm"], width, height, resolve_seed(match["seed"]), content,
                     match["grid"] or "square")


def looks_like_level_code(text: str) -> bool:
    """Whether ``text`` has the shape of a level code, ``algorithm-WIDTHxHEIGHT-seed[+...]``, read loosely.

    For a program that takes a seed or a code in one field (the command
    line's ``--seed``, the demo's code box): text of this shape is meant as a
    code, so when :func:`parse_level_code` refuses it, or its algorithm is
    unknown, say so rather than quietly using the text as a seed. A seed that
    merely holds dashes (``"my-castle"``) does not look like a code; a text
    seed that does can still be given inside a code, whose seed part may
    hold anything but ``+``: ``kruskal-20x15-my-2x2-castle``.

    >>> looks_like_level_code("kruskal-20x15-7"), looks_like_level_code("kruskal-0x0-1")
    (True, True)
    >>> looks_like_level_code("wilson-24x18-5+zz"), looks_like_level_code(" nosuchgen-24x18-5 ")
    (True, True)
    >>> looks_like_level_code("castle"), looks_like_level_code("my-castle"), looks_like_level_code("7+1")
    (False, False, False)
    """
    if not isinstance(text, str):
        raise TypeError(f"level code must be a str, not {type(text).__name__}")
    return _CODE_SHAPE.search(text) is not None

