#!/usr/bin/env bash
# The interchange with maze-dataset, against maze-dataset itself: tests/test_dataset_tokens.py's
# test_maze_dataset_interchange (skipped in the main venv, where maze-dataset is not installed: it
# brings jupyter and matplotlib, never a dependency of mazeplugin), in a virtual environment of its own.
# muutils<0.9 is what maze-dataset works with today.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/venv.sh maze-dataset
timeout 1800 "$py" -m pip install -q maze-dataset "muutils<0.9" -e . "pytest>=7" "hypothesis>=6.80"
"$py" -c 'import maze_dataset, importlib.metadata as m; print("maze-dataset.sh: testing with maze-dataset", m.version("maze-dataset"))'
timeout 900 "$py" -m pytest -q -p no:cacheprovider -p no:xdist -o addopts="" tests/test_dataset_tokens.py -k maze_dataset
