"""``python -m demo`` (from a checkout) or ``python -m mazeplugin_demo``: run the demo game."""

from . import main

raise SystemExit(main())
