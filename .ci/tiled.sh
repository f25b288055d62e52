#!/usr/bin/env bash
# Install the Tiled map editor (Debian package "tiled") for tests/test_tiled_load.py, which
# round-trips levels through `tiled --export-map` (run with QT_QPA_PLATFORM=offscreen, no display).
# Never fails the CI run: without Tiled those tests are skipped, and say why.
set -u
if command -v tiled >/dev/null 2>&1; then
    echo "tiled.sh: Tiled is already installed ($(command -v tiled))"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "tiled.sh: no apt-get on this machine; the Tiled round-trip tests will be skipped" >&2
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo -n"; else
        echo "tiled.sh: not root and no sudo; the Tiled round-trip tests will be skipped" >&2
        exit 0
    fi
fi
export DEBIAN_FRONTEND=noninteractive
if timeout 300 $sudo apt-get update -q >/tmp/tiled-apt.log 2>&1 &&
    timeout 900 $sudo apt-get install -y -q --no-install-recommends tiled >>/tmp/tiled-apt.log 2>&1; then
    echo "tiled.sh: installed $(command -v tiled)"
else
    echo "tiled.sh: could not install tiled (log: /tmp/tiled-apt.log);" \
        "the Tiled round-trip tests will be skipped" >&2
    tail -n 5 /tmp/tiled-apt.log >&2 || true
fi
exit 0
