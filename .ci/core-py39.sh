#!/usr/bin/env bash
# The core without pygame, on the oldest Python the package supports (3.9):
# generating levels needs numpy only. Skipped, with a message, where no
# Python 3.9 is installed; fails if a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
py39=""
if command -v pyenv >/dev/null 2>&1; then
    version=$(pyenv versions --bare 2>/dev/null | grep -E '^3\.9(\.|$)' | tail -n 1 || true)
    [ -n "$version" ] && py39="$(pyenv root)/versions/$version/bin/python3.9"
fi
[ -n "$py39" ] && [ -x "$py39" ] || py39=$(command -v python3.9 || true)
if [ -z "$py39" ] || ! "$py39" -c 'import sys; assert sys.version_info[:2] == (3, 9)' 2>/dev/null; then
    echo "core-py39.sh: no Python 3.9 on this machine; the core-without-pygame run is skipped"
    exit 0
fi
. .ci/venv.sh core-py39 "$py39"
timeout 900 "$venv/bin/python" -m pip install -q -e . "pytest>=7" "pytest-xdist>=3.0" "hypothesis>=6.80"
if "$venv/bin/python" -c 'import pygame' 2>/dev/null; then
    echo "core-py39.sh: pygame is importable in the core-only venv" >&2
    exit 1
fi
echo "core-py39.sh: the core on $("$venv/bin/python" --version) with numpy $("$venv/bin/python" -c 'import numpy; print(numpy.__version__)'), no pygame"
# Property tests at their local strength here (tests/budget.py): this pass checks that the
# core runs on 3.9 without pygame; the full example counts run in the main pass.
HYPOTHESIS_PROFILE=default timeout 1200 "$venv/bin/python" -m pytest -q -p no:cacheprovider tests mazeplugin
