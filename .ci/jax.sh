#!/usr/bin/env bash
# The dataset's fixed-shape level buffers (mazeplugin.dataset.padded) indexed inside jax.jit on the CPU:
# tests/test_dataset_columns.py's JAX test (skipped in the main venv, where JAX is not installed: it is
# never a dependency of mazeplugin), in a virtual environment of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/venv.sh jax
timeout 1800 "$py" -m pip install -q jax -e . "pytest>=7" "hypothesis>=6.80"
"$py" -c 'import jax; print("jax.sh: testing with jax", jax.__version__, "on", jax.devices()[0].platform)'
timeout 900 "$py" -m pytest -q -p no:cacheprovider -p no:xdist -o addopts="" tests/test_dataset_columns.py -k "padded"
