#!/usr/bin/env bash
# Install Debian packages for tests that skip without them; never fails the CI run.
#   bash .ci/apt.sh NAME "WHAT IS SKIPPED WITHOUT THEM" [apt-get install options and packages...]
# NAME labels the messages and the log (/tmp/NAME-apt.log); every apt-get runs under a timeout.
set -u
name=$1
skipped=$2
shift 2
if ! command -v apt-get >/dev/null 2>&1; then
    echo "$name.sh: no apt-get on this machine; $skipped" >&2
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo -n"; else
        echo "$name.sh: not root and no sudo; $skipped" >&2
        exit 0
    fi
fi
log="/tmp/$name-apt.log"
export DEBIAN_FRONTEND=noninteractive
if timeout 300 $sudo apt-get update -q >"$log" 2>&1 &&
    timeout 900 $sudo apt-get install -y -q "$@" >>"$log" 2>&1; then
    echo "$name.sh: installed $*"
else
    echo "$name.sh: could not install $* (log: $log); $skipped" >&2
    tail -n 5 "$log" >&2 || true
fi
exit 0
