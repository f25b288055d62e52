"""``mazeplugin generate ... --world``: a window of an endless world (:class:`mazeplugin.World`) as a level.

The World is imported only when ``--world`` is given.
"""

from __future__ import annotations

import argparse
from typing import Any, Dict, Tuple

from ..level import Level
from .common import Failure, size_type

__all__ = ["window_type", "add_world_options", "check_world", "world_window"]


def window_type(text: str) -> Tuple[int, int, int, int]:
    """``"X0,Y0,X1,Y1"`` (ints, negative too) → a window of world tiles."""
    try:
        numbers = [int(p) for p in text.split(",")]
    except ValueError:
        numbers = []
    if len(numbers) != 4:
        raise argparse.ArgumentTypeError(f"window must be X0,Y0,X1,Y1 in tiles, like 0,0,65,65; got {text!r}")
    return numbers[0], numbers[1], numbers[2], numbers[3]


def add_world_options(parser: Any) -> None:
    """``--world``, ``--window`` and ``--chunk`` on the ``generate`` parser."""
    parser.add_argument("--world", action="store_true",
                        help="write a window of an endless world (mazeplugin.World) instead of a level")
    parser.add_argument("--window", type=window_type, default=None, metavar="X0,Y0,X1,Y1",
                        help="with --world: the tiles [X0, X1) x [Y0, Y1), widened to whole cells "
                             "(default: chunk (0, 0)); negative numbers too, e.g. --window -8,-8,40,40")
    parser.add_argument("--chunk", type=size_type, default=None, metavar="WxH",
                        help="with --world: chunk size in cells (default 32x32)")


def check_world(args: argparse.Namespace) -> None:
    """``--world`` takes ``--window`` and ``--chunk`` instead of ``--size``, markers and ``--require``."""
    if not args.world:
        for name in ("window", "chunk"):
            if getattr(args, name) is not None:
                raise Failure(2, f"--{name} is for --world: give --world too")
        return
    if args.size is not None:
        raise Failure(2, "--size is a level's size; a world goes on forever: give --chunk WxH and --window X0,Y0,X1,Y1")
    if args.require:
        raise Failure(2, "--require picks among levels; a world window is what its seed makes")
    if args.markers == "border":  # the default: a world has no entrance or exit
        args.markers = "none"


def world_window(args: argparse.Namespace, seed: Any, kwargs: Dict[str, Any]) -> Level:
    """``--world``: the ``--window`` of an endless world as a level (the World checks every argument)."""
    from ..world import World

    chunk = args.chunk or (32, 32)
    try:
        world = World(args.algorithm, seed=seed, chunk=chunk, **kwargs)
        window = args.window or world.cell_window(*world.chunk_rect((0, 0))[:2], *world.chunk_span)
        return world.level(*window)
    except (TypeError, ValueError) as error:
        raise Failure(2, str(error)) from None
