"""Root pytest configuration: the core's tests run without pygame too.

``mazeplugin/pg/`` (the only package importing pygame) and
``mazeplugin/formats/picture.py`` (whose doctest writes a PNG through it) are
collected for their doctests only when pygame is installed; the pygame test
modules skip themselves with ``pytest.importorskip``.
"""

import importlib.util

collect_ignore = []
if importlib.util.find_spec("pygame") is None:
    collect_ignore += ["mazeplugin/pg", "mazeplugin/formats/picture.py"]
