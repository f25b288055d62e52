"""The benchmarks page, made from the results under ``benchmarks/results/*.json``.

Each result file holds one table and what made it: ``title``, ``command``, ``date``,
``machine``, ``note``, ``columns``, ``rows``. Re-run a command and update its file;
the page follows. A result file without ``rows`` (raw measurements, such as
``checkouts.json``) is not a table and stays off the page. The dated measurement history is in ``benchmarks/HISTORY.md``,
outside the site.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Dict

ROOT = Path(__file__).resolve().parents[2]
ORDER = ["generation", "compiled-vs-plain", "startup", "mazelib", "c", "labmaze", "memory",
         "grids", "gym", "gym-duplicates", "vector-modes", "compiled-switch", "ppo", "ppo-sizes", "sb3",
         "datasets", "dataset-columns", "dungeon", "dungeon-polygons", "dungeon-mazes"]


def page() -> str:
    folder = ROOT / "benchmarks" / "results"
    results = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in folder.glob("*.json")}
    results = {name: r for name, r in results.items() if isinstance(r, dict) and "rows" in r}  # tables only
    names = [n for n in ORDER if n in results] + sorted(set(results) - set(ORDER))
    out = ["---", "hide:", "  - navigation", "---", "", "# Benchmarks", "",
           "Today's figures, each with the command that remakes it. The results live as JSON in",
           "`benchmarks/results/` (one file a table: the command, the date, the machine); this page is made",
           "from them while the site is built. All were measured on a shared 2-core machine, so treat",
           "absolute times as rough and ratios (timed alternately in one loop) as the figures to compare.", ""]
    for name in names:
        r = results[name]
        out += [f"## {r['title']}", "", r["note"], "",
                f"```sh\n{r['command']}\n```", "",
                f"*{r['date']}, {r['machine']}; `benchmarks/results/{name}.json`.*", "",
                "| " + " | ".join(r["columns"]) + " |", "|" + "---|" * len(r["columns"])]
        out += ["| " + " | ".join(row) + " |" for row in r["rows"]]
        out.append("")
    return "\n".join(out)


def pages() -> Dict[str, object]:
    return {"benchmarks.md": page()}
