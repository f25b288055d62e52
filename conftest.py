"""Root pytest configuration: the core's tests run without pygame too.

``mazeplugin/pg.py`` (the only module importing pygame) is collected for its
doctests only when pygame is installed; the pygame test modules skip
themselves with ``pytest.importorskip``.
"""

import importlib.util

collect_ignore = []
if importlib.util.find_spec("pygame") is None:
    collect_ignore.append("mazeplugin/pg.py")
