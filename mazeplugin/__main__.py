"""``python -m mazeplugin``: the command line (see :mod:`mazeplugin.cli`)."""

from __future__ import annotations

from .cli import main

if __name__ == "__main__":  # pragma: no branch
    raise SystemExit(main())
