"""examples/cleanrl_ppo.py: it compiles without torch, and with torch a tiny run trains and reports."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")

import example_scripts  # noqa: E402


@pytest.fixture(scope="module")
def example():
    return example_scripts.load("cleanrl_ppo")


def test_the_example_compiles_and_imports_without_torch(example, tmp_path):
    example_scripts.compiles("cleanrl_ppo", tmp_path)
    assert callable(example.main) and example.parse([]).total_timesteps == 200_000


def test_a_tiny_run_trains_and_reports(example, capsys):
    example_scripts.require_torch()
    assert example.main(["--total-timesteps", "256", "--num-envs", "8", "--num-steps", "16", "--size", "3",
                         "--test-levels", "8", "--train-levels", "20", "--max-steps", "24"]) == 0
    out = capsys.readouterr().out
    assert "trained 256 steps" in out and "held-out levels" in out


def test_a_curriculum_is_sizes_in_turn_tested_on_the_last(example):
    args = example.parse(["--curriculum", "3,5,7"])
    assert args.sizes == [3, 5, 7] and args.size == 7
    assert example.parse(["--size", "4"]).sizes == [4]
    with pytest.raises(SystemExit):
        example.parse(["--curriculum", "5;7"])


def test_a_tiny_curriculum_run_moves_on(example, capsys):
    example_scripts.require_torch()
    assert example.main(["--total-timesteps", "4096", "--num-envs", "8", "--num-steps", "64", "--curriculum", "2,3",
                         "--promote-at", "0.05", "--test-levels", "8", "--train-levels", "100", "--max-steps", "40"]) == 0
    out = capsys.readouterr().out  # 100 episodes and more, some reaching the exit of a 2 x 2 maze (seeded: always)
    assert "3 x 3 cells from here" in out and "trained 4,096 steps" in out
