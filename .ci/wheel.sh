#!/usr/bin/env bash
# What a user gets from `pip install mazeplugin`: build the sdist and, from it, the
# wheel (python -m build; build and twine are installed here, in a venv of their own),
# check both with `twine check --strict` and the registry metadata (Markdown README,
# project links, classifiers), install the wheel into fresh virtual environments
# outside the checkout and run the installed commands:
#   - without pygame: `mazeplugin` works; `mazeplugin-demo` prints one line on how to
#     install the extra and exits 1; no top-level package `demo` exists;
#   - with the [demo] extra (pygame-ce): `mazeplugin-demo --version` and a short
#     headless run, also as `python -m mazeplugin_demo`.
# Run from anywhere; exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mazeplugin-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
timeout 300 python3 -m venv "$work/build-venv"
timeout 600 "$work/build-venv/bin/python" -m pip install -q build twine
timeout 600 "$work/build-venv/bin/python" -m build -q --outdir "$work/dist" "$root" >/dev/null
wheel=$(ls "$work"/dist/mazeplugin-*.whl)
sdist=$(ls "$work"/dist/mazeplugin-*.tar.gz)
echo "wheel.sh: built $(basename "$wheel") and $(basename "$sdist")"
# Ready for the package index: twine's own checks (metadata, long description renders)...
timeout 300 "$work/build-venv/bin/python" -m twine check --strict "$wheel" "$sdist"
# ...and what a registry page shows: the README as Markdown, project links, classifiers.
"$work/build-venv/bin/python" - "$wheel" "$root/README.md" <<'PY'
import email, sys, zipfile
wheel = zipfile.ZipFile(sys.argv[1])
readme = open(sys.argv[2], encoding="utf-8").read()
name = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
meta = email.message_from_bytes(wheel.read(name))
problems = []
if meta.get("Description-Content-Type", "").split(";")[0] != "text/markdown":
    problems.append(f"long description is {meta.get('Description-Content-Type')!r}, not text/markdown")
if (meta.get_payload(decode=True) or b"").decode("utf-8").strip() != readme.strip():
    problems.append("the long description is not the README")
links = {value.split(",")[0].strip() for value in meta.get_all("Project-URL") or []}
for wanted in ("Homepage", "Source", "Issues", "Changelog"):
    if wanted not in links:
        problems.append(f"no Project-URL {wanted}")
if len(meta.get_all("Classifier") or []) < 10:
    problems.append("fewer than 10 classifiers")
if problems:
    sys.exit("wheel.sh: metadata: " + "; ".join(problems))
print(f"wheel.sh: metadata ready for the index: {len(meta.get_all('Classifier'))} classifiers, links {sorted(links)}")
PY
cd "$work"  # away from the checkout, so nothing is imported from it

timeout 300 python3 -m venv core
timeout 900 core/bin/python -m pip install -q "$wheel"
core/bin/mazeplugin --version
core/bin/mazeplugin generate kruskal --size 4x3 --seed 7 >/dev/null
status=0
core/bin/mazeplugin-demo --frames 1 >out.txt 2>err.txt || status=$?
if [ "$status" -ne 1 ] || [ -s out.txt ] || [ "$(wc -l <err.txt)" -ne 1 ] || ! grep -q 'pip install "mazeplugin\[demo\]"' err.txt; then
    echo "wheel.sh: mazeplugin-demo without pygame should print one install line and exit 1; got $status:" >&2
    cat out.txt err.txt >&2
    exit 1
fi
echo "wheel.sh: without pygame, mazeplugin-demo says: $(cat err.txt)"
if core/bin/python -c 'import demo' 2>/dev/null; then
    echo "wheel.sh: the wheel installed a top-level package named demo" >&2
    exit 1
fi

timeout 300 python3 -m venv game
timeout 900 game/bin/python -m pip install -q "$wheel[demo]"
game/bin/mazeplugin-demo --version
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy timeout 120 game/bin/mazeplugin-demo \
    --code kruskal-6x5-3 --autoplay --frames 30 --screenshot shot.png
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy timeout 120 game/bin/python -m mazeplugin_demo --version
test -s shot.png
echo "wheel.sh: the installed wheel runs"
