"""``python -m demo`` (from a checkout) or ``python -m mazeplugin_demo``: run the demo game."""

from . import main

if __name__ == "__main__":  # not when the level worker (demo/ahead.py) re-imports the main module
    raise SystemExit(main())
