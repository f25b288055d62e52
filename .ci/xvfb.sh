#!/usr/bin/env bash
# Install Xvfb and xdotool (Debian packages) for tests/test_xvfb.py, which runs the
# demo in a real X window and presses real keys. Never fails the CI run: without
# these tools that one test is skipped, and says why.
set -u
if command -v Xvfb >/dev/null 2>&1 && command -v xdotool >/dev/null 2>&1; then
    echo "xvfb.sh: Xvfb and xdotool are already installed"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "xvfb.sh: no apt-get on this machine; tests/test_xvfb.py will be skipped" >&2
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo -n"; else
        echo "xvfb.sh: not root and no sudo; tests/test_xvfb.py will be skipped" >&2
        exit 0
    fi
fi
export DEBIAN_FRONTEND=noninteractive
if timeout 300 $sudo apt-get update -q >/tmp/xvfb-apt.log 2>&1 &&
    timeout 600 $sudo apt-get install -y -q xvfb xdotool >>/tmp/xvfb-apt.log 2>&1; then
    echo "xvfb.sh: installed $(command -v Xvfb) and $(command -v xdotool)"
else
    echo "xvfb.sh: could not install xvfb and xdotool (log: /tmp/xvfb-apt.log);" \
        "tests/test_xvfb.py will be skipped" >&2
    tail -n 5 /tmp/xvfb-apt.log >&2 || true
fi
exit 0
