#!/usr/bin/env bash
# The documentation site: install what it needs, build it strict, open every page in a real browser.
#
#   bash .ci/docs.sh
#
# 1. The docs and test extras into the checkout's .venv (made if missing): MkDocs, Material,
#    mkdocstrings, Playwright, and every optional stack the site's examples use.
# 2. Debian's chromium for the browser test (skipped, saying why, if it cannot be had).
# 3. python -m mkdocs build --strict: a broken link, a missing reference entry or a failing
#    example fails it (every example of the hand-written pages runs alone, docs/_hooks/build.py).
# 4. tests/test_docs_browser.py on the built site: every page offline without a console error or a
#    missing asset, the search, and screenshots (site-screenshots/) at desktop and phone widths.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
if [ ! -x .venv/bin/python ]; then
    timeout 300 python3 -m venv .venv
fi
timeout 1800 .venv/bin/python -m pip install --quiet -e ".[docs,test]"
if ! command -v chromium >/dev/null 2>&1; then
    bash .ci/apt.sh chromium "the browser test will be skipped" --no-install-recommends chromium || true
fi
export DOCS_SITE="$PWD/site"
echo "+ python -m mkdocs build --strict"
NO_MKDOCS_2_WARNING=1 timeout 1800 .venv/bin/python -m mkdocs build --strict
echo "+ python -m pytest tests/test_docs_browser.py (DOCS_SITE=$DOCS_SITE)"
timeout 1200 .venv/bin/python -m pytest -n 0 -p no:cacheprovider -q tests/test_docs_browser.py
echo "docs.sh: done in $(( $(date +%s) - started )) s"
