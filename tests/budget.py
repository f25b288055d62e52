"""How hard the property tests try: full strength in CI, lighter in a local run.

A property test names its full example count, ``@settings(max_examples=examples(150))``:
with ``HYPOTHESIS_PROFILE=ci`` (what ``.ci/run`` sets) it runs all 150; otherwise a
third of them (at least :data:`LOCAL_MINIMUM`), so the suite a developer runs stays
within minutes on a 2-core machine while CI keeps proving the full count. Tests
without their own count follow the profiles in ``conftest.py`` (60 locally, 100 in CI).
Budgets are counts, never times: nothing here depends on how loaded the machine is.
"""

from __future__ import annotations

import os

FULL = os.environ.get("HYPOTHESIS_PROFILE", "default") == "ci"
LOCAL_SHARE = 3
LOCAL_MINIMUM = 20


def examples(full: int) -> int:
    """``full`` under ``HYPOTHESIS_PROFILE=ci``; otherwise ``full // 3``, but at least 20 (and never above ``full``)."""
    if FULL:
        return full
    return min(full, max(LOCAL_MINIMUM, full // LOCAL_SHARE))
