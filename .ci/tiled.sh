#!/usr/bin/env bash
# Install the Tiled map editor (Debian package "tiled") for tests/test_tiled_load.py, which
# round-trips levels through `tiled --export-map` (run with QT_QPA_PLATFORM=offscreen, no display).
# Never fails the CI run: without Tiled those tests are skipped, and say why.
set -u
if command -v tiled >/dev/null 2>&1; then
    echo "tiled.sh: Tiled is already installed ($(command -v tiled))"
    exit 0
fi
bash "$(dirname "$0")/apt.sh" tiled "the Tiled round-trip tests will be skipped" --no-install-recommends tiled
