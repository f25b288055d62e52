"""The mazeplugin demo game: walk seeded mazes drawn with ``mazeplugin.pg``.

Run it with ``python -m demo`` from a checkout, or ``mazeplugin-demo`` (also
``python -m mazeplugin_demo``) once installed: the repository's ``demo/``
folder installs as the package ``mazeplugin_demo``. ``--help`` lists the
options. Modules: ``game`` (rules: level, player, fog, level codes), ``view``
(drawing) and ``app`` (window, events,
command line).

This module imports neither pygame nor the game, so :func:`main` can say
how to install pygame when it is missing.
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
        print(INSTALL_HINT, file=sys.stderr)
        return 1
    from .app import main as run

    return run(argv)
