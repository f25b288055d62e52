"""``mazeplugin compile [KERNEL ...]``: build the compiled kernels now (see :func:`mazeplugin.compiled.main`).

Run once after installing ``mazeplugin[fast]``, so that no level waits for
numba to compile later. Its options are those of ``python -m mazeplugin.compiled``;
where gymnasium is installed it also builds ``gym`` (the environments' compiled step and view).
"""

from __future__ import annotations

from typing import Any, Sequence

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Add ``compile`` to the subcommands, for ``mazeplugin --help`` (its arguments are parsed by the compiled module)."""
    commands.add_parser("compile", help="compile the numba kernels now, so no level waits for them later",
                        add_help=False)


def run(argv: Sequence[str]) -> int:
    """Run ``mazeplugin compile ARGV...``: the exit status of :func:`mazeplugin.compiled.main`."""
    from ..compiled import main

    try:  # the environments' compiled step and view ("gym") too, where gymnasium is installed
        from ..gym import kernels  # noqa: F401  (registers the "gym" builder)
    except ImportError:
        pass
    return main(list(argv), prog="mazeplugin compile")
