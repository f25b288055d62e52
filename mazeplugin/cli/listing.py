"""``mazeplugin list``: the generators, one line each (plugins included).

>>> from mazeplugin.cli import main
>>> main(["list"]) == 0  # doctest: +ELLIPSIS
aldous-broder    ...
kruskal          Randomized Kruskal: ...
True
"""

from __future__ import annotations

import argparse
from typing import Any

from ..registry import algorithms, get_generator

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Add ``list`` to the subcommands."""
    lst = commands.add_parser("list", help="the generators, one line each",
                              description="List the generators with a one-line description each.")
    lst.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print each generator's name and description; the exit status."""
    names = algorithms()
    width = max(map(len, names), default=0)
    for name in names:
        print(f"{name:<{width}}  {get_generator(name).description}")
    return 0
