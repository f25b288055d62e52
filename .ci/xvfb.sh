#!/usr/bin/env bash
# Install Xvfb and xdotool (Debian packages) for tests/test_xvfb.py, which runs the
# demo in a real X window and presses real keys. Never fails the CI run: without
# these tools that one test is skipped, and says why.
set -u
if command -v Xvfb >/dev/null 2>&1 && command -v xdotool >/dev/null 2>&1; then
    echo "xvfb.sh: Xvfb and xdotool are already installed"
    exit 0
fi
bash "$(dirname "$0")/apt.sh" xvfb "tests/test_xvfb.py will be skipped" xvfb xdotool
