#!/usr/bin/env bash
# Run the pygame tests once more against pygame 2.6 (the original pygame, not
# pygame-ce; both use the import name `pygame`) in a second virtual environment.
# Run from anywhere; exits non-zero if a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${PYGAME26_VENV:-${TMPDIR:-/tmp}/mazeplugin-pygame26-venv}"
rm -rf "$venv"
timeout 300 python3 -m venv "$venv"
py="$venv/bin/python"
# The package without extras (numpy only), then pygame 2.6 and the test tools.
timeout 900 "$py" -m pip install -q -e . "pygame==2.6.*" "pytest>=7" "hypothesis>=6.80"
"$py" - <<'PY'
import sys
import pygame
if getattr(pygame, "IS_CE", False) or not pygame.version.ver.startswith("2.6"):
    sys.exit(f"expected pygame 2.6 in this venv, found {pygame.version.ver} (IS_CE={getattr(pygame, 'IS_CE', False)})")
print("pygame26.sh: testing against pygame", pygame.version.ver, "SDL", ".".join(map(str, pygame.get_sdl_version())))
PY
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
timeout 1200 "$py" -m pytest -q -p no:cacheprovider \
    tests/test_pg.py tests/test_demo.py tests/test_xvfb.py mazeplugin/pg.py
