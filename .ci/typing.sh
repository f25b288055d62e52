#!/usr/bin/env bash
# Typing: `mypy --strict mazeplugin` must be clean, with numba installed (mypy is pinned
# in the `test` extra, so the README's test command installs it into .venv) and without
# it (a second venv, made here); pyright's type completeness of
# the public API (`pyright --verifytypes mazeplugin`) must be at least 95%. pyright is
# fetched from PyPI (it downloads its Node package on first run); where it cannot be
# installed or started, that one check is skipped with a message. Run after the test
# command has made .venv.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
py="$root/.venv/bin/python"
[ -x "$py" ] || { echo "typing.sh: no .venv; run the README's test command first" >&2; exit 1; }
echo "typing.sh: $("$py" -m mypy --version), with numba $("$py" -c 'import numba; print(numba.__version__)')"
timeout 900 "$py" -m mypy --strict mazeplugin

work=$(mktemp -d "${TMPDIR:-/tmp}/mazeplugin-typing.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The same check where the `fast` extra (numba) is not installed: a second venv with
# numpy, pygame-ce, gymnasium (mazeplugin.gym subclasses its classes) and the pinned mypy only. The kernels' @njit is typed by
# mazeplugin/_compiled/jit.py, so both runs must be clean.
mypy_pin=$(grep -o '"mypy==[^"]*"' pyproject.toml | tr -d '"')
timeout 300 python3 -m venv "$work/no-numba"
timeout 900 "$work/no-numba/bin/python" -m pip install -q "numpy>=1.22" "pygame-ce>=2.4" "gymnasium>=1.0" "$mypy_pin"
if "$work/no-numba/bin/python" -c 'import numba' 2>/dev/null; then
    echo "typing.sh: numba is importable in the venv meant to be without it" >&2
    exit 1
fi
echo "typing.sh: $("$work/no-numba/bin/python" -m mypy --version), without numba"
timeout 900 "$work/no-numba/bin/python" -m mypy --strict --cache-dir "$work/mypy-cache" mazeplugin

if ! { timeout 300 python3 -m venv "$work/venv" && timeout 600 "$work/venv/bin/python" -m pip install -q "pyright==1.1.414" &&
       timeout 600 "$work/venv/bin/pyright" --version >/dev/null 2>&1; }; then
    echo "typing.sh: pyright could not be installed or started here; the completeness check is skipped" >&2
    exit 0
fi
# Run from outside the checkout with the checkout on PYTHONPATH: pyright reads the package's
# files (an editable install is an import hook, which a static checker cannot follow).
cd "$work"
PYTHONPATH="$root" timeout 900 "$work/venv/bin/pyright" --pythonpath "$py" --verifytypes mazeplugin --ignoreexternal \
    --outputjson >"$work/verify.json" || true
"$py" - "$work/verify.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
completeness = report["typeCompleteness"]
score = completeness["completenessScore"]
counts = completeness["exportedSymbolCounts"]
print(f"typing.sh: pyright type completeness {score:.1%} "
      f"({counts['withKnownType']} known, {counts['withAmbiguousType']} ambiguous, {counts['withUnknownType']} unknown)")
if completeness.get("pyTypedPath") is None and completeness.get("packageRootDirectory") in (None, ""):
    sys.exit("typing.sh: pyright did not find the package")
if score < 0.95:
    sys.exit("typing.sh: pyright type completeness is below 95%")
PY
