"""The mazeplugin demo game: walk seeded mazes drawn with ``mazeplugin.pg``.

Run it with ``python -m demo`` from a checkout, or ``mazeplugin-demo`` (also
``python -m mazeplugin_demo``) once installed: the repository's ``demo/``
folder installs as the package ``mazeplugin_demo``. ``--help`` lists the
options. Modules, from the bottom up: ``rules`` (sizes, seeds, codes; no
pygame), ``options`` (the command line; no pygame), ``ahead`` (the next level
made in a worker thread), ``game`` (level, player, fog), ``view`` (drawing),
``gridplay`` (hex, triangle, polar and wrapping levels: the player steps cell
to cell), ``sound``, ``keys`` and ``script`` (input), ``addon_api`` (what an add-on sees
of the app), the add-ons (``levels``, ``content``, ``minimap``, ``endless``),
``addons`` (their list), ``modes`` (the frame loop) and ``app`` (the maze
game's window and events, and :func:`demo.app.main`).

This module imports neither pygame nor the game, so :func:`main` can say
how to install pygame when it is missing, and answer ``--help`` and
``--version`` without it.
"""

from __future__ import annotations

import os
import sys
from typing import Optional, Sequence

# Keep the console clean: pygame prints a greeting on import unless told not to.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

INSTALL_HINT = (
    'mazeplugin-demo needs pygame: pip install "mazeplugin[demo]" '
    "(or pip install pygame-ce, or pip install pygame)"
)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the demo and return its exit status; without pygame, say how to get it and return 1."""
    try:
        import pygame  # noqa: F401
    except ImportError:
        from .options import build_parser

        # --help and --version answer (exit 0); any other command line is checked, then needs pygame.
        build_parser(check_keys=False).parse_args(argv)
        print(INSTALL_HINT, file=sys.stderr)
        return 1
    from .app import main as run

    return run(argv)
