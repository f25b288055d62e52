"""MkDocs hooks: the pages made from the code, and every example run, while the site is built.

- ``on_files`` adds the generated pages: the gallery, one page per environment id and the
  wrapper table, the API reference (one page per public module), the command line, the
  generators, the limits, the benchmarks (from ``benchmarks/results/``) and the changelog.
  Nothing generated is written into ``docs/``.
- ``on_files`` also runs every ```python block of the hand-written pages, each alone in a fresh
  process and an empty folder (``tests/blockrun.py``, the runner tests/test_docs_pages.py uses):
  a failing example fails the build. ``MAZEPLUGIN_DOCS_EXAMPLES=0`` skips them while writing.
- ``on_post_build`` checks that every public name has its entry in the API reference.
"""

from __future__ import annotations

import html
import logging
import os
import re
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, Tuple

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
HOOKS = Path(__file__).resolve().parent


def _paths() -> None:
    """The checkout, tests/ (the example runner) and this folder on sys.path (MkDocs resets it after loading a hook)."""
    for folder in (ROOT, ROOT / "tests", HOOKS):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("MAZEPLUGIN_NO_PLUGINS", "1")

log = logging.getLogger("mkdocs.hooks.mazeplugin")


def generated() -> Dict[str, object]:
    import benchmarks_page
    import environments
    import gallery
    import reference

    files: Dict[str, object] = {}
    for module in (gallery, environments, reference, benchmarks_page):
        files.update(module.pages())
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    files["changelog.md"] = changelog
    return files


def examples(files: Files) -> List[Tuple[str, int, str]]:
    import blockrun

    found = []
    for file in files.documentation_pages():
        if file.abs_src_path is None:
            continue  # generated: its code ran while it was made
        text = Path(file.abs_src_path).read_text(encoding="utf-8")
        for line, code in blockrun.python_blocks(text):
            found.append((f"docs/{file.src_uri}", line, code))
    return found


def run_examples(found: List[Tuple[str, int, str]]) -> None:
    import blockrun

    def one(example: Tuple[str, int, str]) -> str:
        source, line, code = example
        missing = blockrun.missing_modules(code)
        if missing:
            return f"{source}:{line} needs {', '.join(missing)}: not installed, so not run"
        with tempfile.TemporaryDirectory() as folder:
            failure = blockrun.run_block(source, line, code, Path(folder))
        if failure:
            raise PluginError(f"an example failed: {failure}")
        return ""

    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        for note in pool.map(one, found):
            if note:
                log.info(note)
    log.info("ran %d examples of the hand-written pages, each alone", len(found))


def on_files(files: Files, config: Any) -> Files:
    _paths()
    made = generated()
    for path, content in made.items():
        if files.get_file_from_path(path) is not None:
            raise PluginError(f"docs/{path} is generated while the site is built: remove the file from docs/")
        files.append(File.generated(config, path, content=content))
    if os.environ.get("MAZEPLUGIN_DOCS_EXAMPLES", "1") != "0":
        run_examples(examples(files))
    return files


def on_post_build(config: Any) -> None:
    """Every public name of every module in the API reference has its own entry (an anchor)."""
    _paths()
    import reference

    site = Path(config["site_dir"])
    missing = []
    for page, module, _ in reference.API:
        built = (site / "reference" / "api" / f"{page}.html").read_text(encoding="utf-8")
        anchors = set(re.findall(r'id="([^"]+)"', built))
        for name in reference.public_names(module):
            if not anchors & set(reference.anchors(module, name)):
                missing.append(f"{module}.{name}")
    if missing:
        raise PluginError("the API reference has no entry for: " + html.escape(", ".join(missing)))
