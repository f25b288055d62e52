#!/usr/bin/env bash
# Run the trainer tests once more with Stable-Baselines3 and torch installed, in a
# virtual environment of their own: tests/test_gym_sb3.py (the SB3 VecEnv adapter
# against DummyVecEnv, a tiny PPO run) and the examples' torch tests
# (tests/test_gym_example*.py), which skip in the main venv. torch is pinned to
# 2.13.0: a CPU wheel (plain `torch` may fetch a multi-GB CUDA build).
# Run from anywhere; exits non-zero if a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/venv.sh sb3
timeout 1800 "$py" -m pip install -q "torch==2.13.0"
timeout 900 "$py" -m pip install -q stable-baselines3 -e ".[gym]" "minigrid>=3.0" "pytest>=7" "pytest-xdist>=3.0" "hypothesis>=6.80"
"$py" - <<'PY'
import stable_baselines3, torch
print("sb3.sh: testing with stable-baselines3", stable_baselines3.__version__, "and torch", torch.__version__)
PY
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
timeout 1200 "$py" -m pytest -q -p no:cacheprovider -n 0 tests/test_gym_sb3.py tests/test_gym_example.py tests/test_gym_cleanrl.py \
    tests/test_dataset_training.py  # the last: ds.torch_dataset against real torch
