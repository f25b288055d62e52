"""``mazeplugin dataset ...``: handed whole to :func:`mazeplugin.dataset.cli.main` (its own options and help).

The ``mazeplugin.dataset`` package and its dependencies are imported only
when this subcommand runs. Where it is not installed, the command says so in
one line and exits with status 2.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, List, Sequence

__all__ = ["add_parser", "run", "MODULE"]

MODULE = "mazeplugin.dataset.cli"
"""The module whose ``main(argv) -> int`` runs ``mazeplugin dataset``."""


def add_parser(commands: Any) -> None:
    """Add ``dataset`` to the subcommands, for ``mazeplugin --help`` (its arguments are never parsed here)."""
    commands.add_parser("dataset", help="build level datasets (its options: 'mazeplugin dataset --help')",
                        add_help=False)


def run(argv: Sequence[str]) -> int:
    """Run ``mazeplugin dataset ARGV...``: the exit status of ``mazeplugin.dataset.cli.main(ARGV)``."""
    try:
        module = importlib.import_module(MODULE)
    except ModuleNotFoundError as error:
        if error.name in ("mazeplugin.dataset", MODULE):  # the subpackage itself is missing, not a dependency
            print("mazeplugin dataset: not available: this installation of mazeplugin has no "
                  f"{MODULE} module", file=sys.stderr)
            return 2
        print(f"mazeplugin dataset: cannot load it: {error}", file=sys.stderr)
        return 1
    except ImportError as error:
        print(f"mazeplugin dataset: cannot load it: {error}", file=sys.stderr)
        return 1
    rest: List[str] = list(argv)
    status = module.main(rest)
    return int(status or 0)
