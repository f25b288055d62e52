"""``python -m mazeplugin.dataset build|verify|info ...``: see :mod:`mazeplugin.dataset.cli`."""

import sys

from .cli import main

sys.exit(main(sys.argv[1:]))
