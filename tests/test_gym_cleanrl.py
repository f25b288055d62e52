"""examples/cleanrl_ppo.py: it compiles without torch, and with torch a tiny run trains and reports."""

from __future__ import annotations

import importlib.util
import py_compile
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "cleanrl_ppo.py"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("cleanrl_ppo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_compiles_and_imports_without_torch(example, tmp_path):
    py_compile.compile(str(EXAMPLE), cfile=str(tmp_path / "cleanrl_ppo.pyc"), doraise=True)
    assert callable(example.main) and example.parse([]).total_timesteps == 200_000


def test_a_tiny_run_trains_and_reports(example, capsys):
    pytest.importorskip("torch")
    assert example.main(["--total-timesteps", "256", "--num-envs", "8", "--num-steps", "16", "--size", "3",
                         "--test-levels", "8", "--train-levels", "20", "--max-steps", "24"]) == 0
    out = capsys.readouterr().out
    assert "trained 256 steps" in out and "held-out levels" in out
