"""The demo's command line: every option, its checks, and the built-in add-ons' options.

This module imports no pygame (key names in ``--script`` are looked up in
pygame only when a script is given), so ``mazeplugin-demo --help`` and
``--version`` answer where pygame is not installed. A wrong argument is one
line on standard error with a hint to ``--help``, and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from typing import Any, Callable, Dict, List, NoReturn, Optional, Sequence, Tuple

import mazeplugin as mp
from mazeplugin.codes import LevelCode, parse_size
from mazeplugin.dungeon import PATTERNS as DUNGEON_PATTERNS
from mazeplugin.seeds import Seed, resolve_seed

from .rules import MAX_GRID_SIDE, MAX_SIDE, MIN_SIDE, SIDE_REASON, check_seed, parse_code

GRIDS = ("square", "hex", "triangle", "polar")
"""``--grid``: the grids the demo plays (``demo.gridplay`` plays all but the square)."""
WRAPS = ("x", "y", "xy")
"""``--wrap``: which edges of a square level join."""

ArgumentAdder = Callable[[argparse.ArgumentParser], None]
Script = List[Tuple[Optional[int], int]]
"""A key script: (pygame key or None for ``wait``, frames held), in turn."""

SCRIPT_ALIASES: Dict[str, Optional[str]] = {
    "up": "up",
    "down": "down",
    "left": "left",
    "right": "right",
    "plus": "+",
    "minus": "-",
    "enter": "return",
    "escape": "escape",
    "question": "/",
    "wait": None,
}
"""Names ``--script`` takes besides pygame's own key names (``tab``, ``p``, ``f1``, ...), as pygame names; ``wait`` presses nothing."""

LEVEL_FILE_TYPES = (".tmx", ".tmj", ".json", ".npy")
"""Level files ``--level`` plays, by extension."""

SCREENSHOT_TYPES = (".png", ".bmp")
"""File types ``--screenshot`` writes (pygame picks the format from the extension)."""


def script_key(name: str) -> Optional[int]:
    """The pygame key ``--script`` presses for ``name`` (None for ``wait``); ValueError for an unknown name."""
    import pygame  # only here: the rest of the command line works without pygame

    pygame_name = SCRIPT_ALIASES.get(name, name)
    if pygame_name is None:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pygame 2.6 warns that pygame.init() was not called; names need no init
        try:
            return int(pygame.key.key_code(pygame_name))
        except (ValueError, pygame.error):
            raise ValueError(
                f"unknown key {name!r} in --script; use pygame's key names (a, p, tab, space, f1, ...) "
                f"or {', '.join(SCRIPT_ALIASES)}"
            ) from None


def key_script(text: str) -> Script:
    """``--script``: ``NAME[*FRAMES],...``: each key held down for FRAMES frames (default 1), in turn."""
    script: Script = []
    for entry in text.split(","):
        name, _, count = entry.strip().lower().partition("*")
        try:
            key = script_key(name)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        try:
            frames = int(count) if count else 1
        except ValueError:
            raise argparse.ArgumentTypeError(f"{entry.strip()!r}: frames after '*' must be a whole number") from None
        if frames < 1:
            raise argparse.ArgumentTypeError(f"{entry.strip()!r}: frames after '*' must be at least 1")
        script.append((key, frames))
    return script


def size_argument(text: str) -> Tuple[int, int]:
    """``--size``: ``WxH`` or ``N`` (square), in cells."""
    size = parse_size(text)
    if size is None:
        raise argparse.ArgumentTypeError(f"size must be WIDTHxHEIGHT in cells, like 20x15, not {text!r}")
    if not all(MIN_SIDE <= side <= MAX_SIDE for side in size):
        raise argparse.ArgumentTypeError(f"size {text!r}: {SIDE_REASON}")
    return size


def pixels_argument(text: str) -> Tuple[int, int]:
    """``--window``: ``WxH`` pixels, at least 320x240."""
    size = parse_size(text, square=False)
    if size is None:
        raise argparse.ArgumentTypeError(f"window must be WIDTHxHEIGHT in pixels, like 960x720, not {text!r}")
    if size[0] < 320 or size[1] < 240:
        raise argparse.ArgumentTypeError(f"window must be at least 320x240, not {text!r}")
    return size


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low}..{high}, not {value}")
        return value

    return parse


def seed_argument(text: str) -> Seed:
    """``--seed``: a whole number >= 0 or a word; a negative number is refused, not taken as text."""
    try:
        return check_seed(resolve_seed(text))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def screenshot_argument(text: str) -> str:
    """``--screenshot``: a path ending in .png or .bmp (anything else would silently be a TGA image)."""
    if os.path.splitext(text)[1].lower() not in SCREENSHOT_TYPES:
        raise argparse.ArgumentTypeError(f"screenshot must be a .png or .bmp file, not {text!r}")
    return text


def code_argument(text: str) -> LevelCode:
    """``--code``: a valid level code in the demo's sizes (:func:`demo.rules.parse_code`), else one line."""
    try:
        return parse_code(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def load_level_file(path: str) -> "mp.AnyLevel":
    """The level in ``path`` (square, or a grid level: hex, triangle, polar, wrapping), or a
    ``ValueError`` whose one line names the file and the problem.

    The level must have an entrance and an exit (the demo's start and goal); a grid level at most
    :data:`demo.rules.MAX_GRID_SIDE` cells a side (the demo draws it whole).
    """
    extension = os.path.splitext(path)[1].lower()
    if extension not in LEVEL_FILE_TYPES:
        raise ValueError(
            f"{path}: cannot play a {extension or 'extensionless'} file; level files are "
            + ", ".join(LEVEL_FILE_TYPES)
        )
    try:
        level = mp.load(path)  # the formats load with a level file only
    except OSError as error:
        raise ValueError(f"{path}: {error.strerror or error}") from None
    if level.entrance is None or level.exit is None:
        raise ValueError(f"{path}: the level has no entrance and exit to play between")
    if level.kind != "square" and max(level.width, level.height) > MAX_GRID_SIDE:
        raise ValueError(f"{path}: a {level.grid} level of {level.width}x{level.height} cells; the demo plays grid "
                         f"levels of at most {MAX_GRID_SIDE} cells a side")
    try:
        level.solution()
    except ValueError:
        raise ValueError(f"{path}: the exit cannot be reached from the entrance") from None
    return level


def level_file_argument(text: str) -> Tuple[str, "mp.AnyLevel"]:
    """``--level``: the file and its level, or a one-line reason (exit status 2)."""
    try:
        return text, load_level_file(text)
    except (ValueError, TypeError) as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def chunk_argument(text: str) -> Tuple[int, int]:
    """``--chunk``: ``WxH`` or ``N`` cells, each from 2 to 128."""
    size = parse_size(text)
    if size is None or not all(2 <= n <= 128 for n in size):
        raise argparse.ArgumentTypeError(f"chunk must be WxH cells, each from 2 to 128, like 16x16; got {text!r}")
    return size


# -- the built-in add-ons' options (their classes point here, so --help needs no pygame) -------------


def level_options(parser: argparse.ArgumentParser) -> None:
    """:class:`demo.levels.Levels`: ``--level FILE``, ``--steady``."""
    parser.add_argument(
        "--level", type=level_file_argument, metavar="FILE",
        help="play this level file: a Tiled map (.tmx, .tmj, also as edited in Tiled; a hexagonal map is a hex "
        "level), a .json level (square or grid) or an .npy tilemap",
    )
    parser.add_argument("--steady", action="store_true",
                        help="next levels only grow larger, without asking for more difficulty")
    parser.add_argument("--dungeon", choices=DUNGEON_PATTERNS, metavar="PATTERN",
                        help="play dungeons laid out from mission graphs (mp.generate('dungeon', ...)): rooms, corridors, keys "
                        "and locked doors where the mission says, one of: " + ", ".join(DUNGEON_PATTERNS))
    parser.add_argument("--drops", action="store_true",
                        help="with --dungeon: each dungeon's one-way edges carved as drops, walked one way only "
                        "(its code ends in d)")


def content_options(parser: argparse.ArgumentParser) -> None:
    """:class:`demo.content.LevelContent`: ``--no-content``."""
    parser.add_argument(
        "--no-content", action="store_true",
        help="no keys, doors, treasure, enemies or rooms from level 2 on (typed codes with +r2k2t5e3 still have them)",
    )


def map_options(parser: argparse.ArgumentParser) -> None:
    """:class:`demo.minimap.Minimap`: ``--no-map``."""
    parser.add_argument("--no-map", action="store_true", help="start with the minimap and exit pointer hidden (Tab shows them)")


def endless_options(parser: argparse.ArgumentParser) -> None:
    """:class:`demo.endless.EndlessSwitch`: ``--endless``, ``--chunk``."""
    parser.add_argument("--endless", action="store_true",
                        help="walk an endless world from its spawn (E switches between it and the maze game)")
    parser.add_argument("--chunk", type=chunk_argument, default=(16, 16), metavar="WxH",
                        help="endless world: chunk size in cells (default 16x16)")


def weave_options(parser: argparse.ArgumentParser) -> None:
    """:class:`demo.weaveplay.WeaveSwitch`: ``--weave``."""
    parser.add_argument("--weave", action="store_true",
                        help="square levels with bridges over tunnels (V toggles; generators that cannot weave "
                             "give way to backtracker)")


BUILT_IN_ADDON_OPTIONS: Tuple[ArgumentAdder, ...] = (
    level_options, content_options, map_options, endless_options, weave_options,
)
"""The options of the registry's add-ons, in its order (a test checks they agree)."""


# -- the parser --------------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse, but a wrong argument is one line on stderr (with a hint to --help) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        parsed, extra = super().parse_known_args(*args, **kwargs)
        if getattr(parsed, "drops", False) and getattr(parsed, "dungeon", None) is None:
            self.error("--drops is for dungeons: give --dungeon PATTERN too (a dungeon code ending in d plays its "
                       "drops without it)")
        return parsed, extra


class _DeprecatedKeys(argparse.Action):
    """``--keys``: the old name of ``--script``; still works, with a one-line notice on standard error."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: Optional[str] = None) -> None:
        print(
            "mazeplugin-demo: --keys is now --script (in the mazeplugin CLI --keys means locked doors); "
            "--keys still works for now",
            file=sys.stderr,
        )
        setattr(namespace, "script", values)


SCRIPT_HELP = (
    "scripted input, e.g. 'right*30,down*20,h,wait*10': each key held for that many frames, in turn "
    "(pygame key names such as a, p, tab, f1, or " + ", ".join(SCRIPT_ALIASES) + ")"
)


def build_parser(addon_options: Sequence[ArgumentAdder] = BUILT_IN_ADDON_OPTIONS, *,
                 check_keys: bool = True) -> argparse.ArgumentParser:
    """The demo's command line, with each add-on's options added by ``addon_options``.

    ``check_keys=False`` takes ``--script`` as plain text without looking its
    key names up in pygame (for ``--help`` where pygame is missing).
    """
    script_type: Callable[[str], Any] = key_script if check_keys else str
    parser = _Parser(
        prog="mazeplugin-demo",
        description="Walk from the green entrance to the red exit. Every level has a code "
        "(generator-WIDTHxHEIGHT-seed): give it to a friend to race the same maze.",
        epilog="Keys: arrows/WASD move, R restart, N new seed, G next generator, H solution, T grid, "
        "+/- size, F fog of war, Tab minimap, P pause, M mute, Enter type a level code, ? all keys, "
        "Esc closes what is open (in play: press twice to quit).",
    )
    parser.add_argument("--version", action="version", version=f"mazeplugin-demo {mp.__version__}")
    parser.add_argument(
        "--algorithm",
        "-a",
        choices=mp.algorithms(),
        default="backtracker",
        metavar="NAME",
        help="maze generator (default backtracker), one of: " + ", ".join(mp.algorithms()),
    )
    parser.add_argument("--size", type=size_argument, default=(12, 9), metavar="WxH",
                        help=f"level size in cells, each side {MIN_SIDE}..{MAX_SIDE} (default 12x9)")
    parser.add_argument("--grid", choices=GRIDS, default="square",
                        help="play on this grid (default square; T switches it in the game): hex, triangle and "
                        "polar levels are graphs of cells the player steps through")
    parser.add_argument("--wrap", choices=WRAPS, default=None,
                        help="a square level that wraps round: x (east and west edges joined), y, or xy (a torus)")
    parser.add_argument("--seed", type=seed_argument, help="level seed: a whole number >= 0 or a word (default: a random one)")
    parser.add_argument("--code", type=code_argument, metavar="CODE",
                        help="a level code, e.g. kruskal-20x15-7, kruskal-20x15-7+k2t5 or "
                             "dungeon-lock-and-key-40x40-7+r20k4 (overrides the three above)")
    parser.add_argument("--tile", type=whole_number(6, 64), default=28, metavar="PX", help="pixels per tile (default 28)")
    parser.add_argument("--window", type=pixels_argument, default=(960, 720), metavar="WxH",
                        help="window size in pixels (default 960x720)")
    parser.add_argument("--fog", action="store_true", help="start with fog of war on")
    parser.add_argument("--solution", action="store_true", help="start with the solution path shown")
    parser.add_argument("--autoplay", action="store_true", help="the player walks the solution by itself")
    parser.add_argument("--script", type=script_type, default=[], metavar="SCRIPT", help=SCRIPT_HELP)
    parser.add_argument("--keys", type=script_type, action=_DeprecatedKeys, metavar="SCRIPT",
                        help="the old name of --script (deprecated)")
    parser.add_argument("--frames", type=whole_number(1, 10**7), metavar="N",
                        help="run N frames, then stop (headless unless SDL_VIDEODRIVER is set)")
    parser.add_argument("--levels", type=whole_number(1, 10**4), metavar="N",
                        help="stop once N levels are finished (with --autoplay and --frames: a benchmark run)")
    parser.add_argument("--screenshot", type=screenshot_argument, metavar="FILE",
                        help="save the last frame to this .png or .bmp file on exit")
    parser.add_argument("--mute", action="store_true", help="start with the sound off (M switches it)")
    for add in addon_options:
        add(parser)
    return parser
