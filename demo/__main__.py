"""``python -m demo``: run the demo game."""

from demo.app import main

raise SystemExit(main())
