"""The benchmark results the site's benchmarks page is made from: every file in ``benchmarks/results/``
holds one table in the page's format, and ``benchmarks/bench.py --results`` writes files in it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
KEYS = {"title", "command", "date", "machine", "note", "columns", "rows"}


def check_table(result: dict, name: str) -> None:
    assert KEYS <= set(result), f"{name}: missing {sorted(KEYS - set(result))}"
    assert result["columns"] and all(isinstance(c, str) for c in result["columns"]), name
    assert result["rows"], f"{name}: no rows"
    for row in result["rows"]:
        assert len(row) == len(result["columns"]), f"{name}: row {row} against columns {result['columns']}"


@pytest.mark.parametrize("path", sorted((ROOT / "benchmarks" / "results").glob("*.json")), ids=lambda p: p.stem)
def test_every_result_file_is_one_table_in_the_page_format(path: Path) -> None:
    check_table(json.loads(path.read_text(encoding="utf-8")), path.name)


def test_bench_writes_its_tables_as_result_files(tmp_path: Path) -> None:
    env = dict(os.environ, MAZEPLUGIN_COMPILED="0")
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--sizes", "8", "12", "--algorithms", "kruskal",
         "eller", "--quick", "--no-tiles", "--no-memory", "--results", str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads((tmp_path / "generation.json").read_text(encoding="utf-8"))
    check_table(result, "generation.json")
    assert result["columns"][:3] == ["generator", "8x8", "12x12"]
    assert [row[0] for row in result["rows"]] == ["`kruskal`", "`eller`"]
    assert "--results" in result["command"] and "plain path" in result["note"]
