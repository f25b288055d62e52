"""The one writer of ``benchmarks/results/*.json``: a table in the format the site's benchmarks page is made
from (``docs/_hooks/benchmarks_page.py``; ``tests/test_bench_results.py`` checks every file).

Every benchmark script that keeps its figures (``--json``, ``--write``, ``--results``) writes them here::

    write_table(path, title=..., command=..., note=..., columns=[...], rows=[[...], ...],
                machine=machine(loads, "gymnasium 1.0"))
"""

from __future__ import annotations

import json
import os
import platform
import time
from typing import Any, Sequence


def machine(loads: "Sequence[float] | str | None" = None, *extra: str) -> str:
    """This machine as a results table states it: its cores (shared, with the load average at the start and
    the end of the run when ``loads`` holds them, or ``loads`` when it says the load in words), system, Python
    and numpy, then each of ``extra``."""
    import numpy

    if isinstance(loads, str):
        load = f" ({loads})"
    else:
        load = f" (load {loads[0]:.1f} at the start, {loads[-1]:.1f} at the end)" if loads else ""
    return ", ".join([f"{os.cpu_count()} cores, shared{load}; {platform.system()}; Python "
                      f"{platform.python_version()}", f"numpy {numpy.__version__}", *extra])


def write_table(path: "str | os.PathLike[str]", *, title: str, command: str, note: str, columns: Sequence[str],
                rows: Sequence[Sequence[Any]], machine: str, **more: Any) -> None:
    """Write one table to ``path`` (today's UTC date; ``more``: further keys kept beside the table)."""
    if any(len(row) != len(columns) for row in rows):
        raise ValueError(f"every row must have one cell per column ({len(columns)}): {rows!r}")
    result = {"title": title, "command": command, "date": time.strftime("%Y-%m-%d", time.gmtime()),
              "machine": machine, "note": note, "columns": list(columns), "rows": [list(row) for row in rows], **more}
    with open(path, "w", encoding="utf-8") as out:
        json.dump(result, out, indent=1, ensure_ascii=False)
        out.write("\n")
