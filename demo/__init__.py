"""The mazeplugin demo game: walk seeded mazes drawn with ``mazeplugin.pg``.

Run it with ``python -m demo`` or ``mazeplugin-demo``; ``--help`` lists the
options. Modules: ``game`` (rules: level, player, fog, level codes), ``view``
(drawing) and ``app`` (window, events, command line).
"""

import os

# Keep the console clean: pygame prints a greeting on import unless told not to.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
