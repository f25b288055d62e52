#!/usr/bin/env bash
# Run the pygame tests once more against pygame 2.6 (the original pygame, not
# pygame-ce; both use the import name `pygame`) in a second virtual environment.
# That venv also holds numpy 1.26 (the main one has numpy 2), so the golden
# level digests are checked on both numpy lines: same seed, same level.
# Run from anywhere; exits non-zero if a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/venv.sh pygame26
# The package without extras (numpy only), then pygame 2.6 and the test tools.
timeout 900 "$py" -m pip install -q -e . "numpy==1.26.*" "pygame==2.6.*" "pytest>=7" "pytest-xdist>=3.0" "hypothesis>=6.80"
"$py" - <<'PY'
import sys
import pygame
if getattr(pygame, "IS_CE", False) or not pygame.version.ver.startswith("2.6"):
    sys.exit(f"expected pygame 2.6 in this venv, found {pygame.version.ver} (IS_CE={getattr(pygame, 'IS_CE', False)})")
import numpy
if not numpy.__version__.startswith("1.26"):
    sys.exit(f"expected numpy 1.26 in this venv, found {numpy.__version__}")
print("pygame26.sh: testing against pygame", pygame.version.ver, "SDL", ".".join(map(str, pygame.get_sdl_version())),
      "with numpy", numpy.__version__)
PY
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
timeout 1200 "$py" -m pytest -q -p no:cacheprovider \
    tests/test_pg.py tests/test_demo.py tests/test_xvfb.py mazeplugin/pg \
    tests/test_seeds.py tests/test_golden_catalogue.py tests/test_stream.py
