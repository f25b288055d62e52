"""The README runs as written: every example alone, as a reader copies it.

The rules for finding and running blocks are in tests/blockrun.py (shared with the site's pages,
tests/test_docs_pages.py, and the site's strict build). In short: every ```python block runs alone in
a fresh process and an empty folder; a block that imports an optional extra not installed here is
skipped, saying which; a game loop (``pygame.key.get_pressed()``) is played to its exit by the
harness; every ```sh command except the two install commands (which CI runs as they are) runs in a
copy of the checkout, in order, and must succeed.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from blockrun import (
    DOCS_PATH,
    blocks,
    checkout_copy,
    install_commands,
    missing_modules,
    python_blocks,
    run_block,
    run_command,
    sh_commands,
)

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def test_readme_has_python_and_sh_examples():
    text = README.read_text(encoding="utf-8")
    found = blocks(text)
    assert sum(language == "python" for _, language, _ in found) >= 3
    assert sum(language == "sh" for _, language, _ in found) >= 3
    assert len(install_commands(text)) == 2


def test_readme_fits_on_a_screen_and_links_into_the_site():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    for page in ("docs/getting-started.md", "docs/tutorials/training-an-agent.md", "docs/tutorials/dataset.md",
                 "docs/how-to/files-and-formats.md", "python -m mkdocs build --strict"):
        assert page in text, page
    for link in re.findall(r"\]\(([^)#]+)", text):
        if "://" not in link:
            assert (ROOT / link).exists(), f"README links to {link}, which the checkout does not have"


def test_the_block_rules_find_what_they_should():
    text = "a\n```python\nimport os\nopen('docs/x.png')\n```\n```toml\nk = 1\n```\n```sh\nls \\\n  -l\n# note\n```\n"
    assert python_blocks(text) == [(3, "import os\nopen('docs/x.png')\n")]
    assert sh_commands(text) == [(10, "ls    -l")]
    assert missing_modules("import os, no_such_module_here") == ["no_such_module_here"]
    no_pygame = [] if importlib.util.find_spec("pygame") else ["pygame"]
    for code in ("import mazeplugin.pg as mpg", "from mazeplugin import pg", "from mazeplugin.pg import render"):
        assert missing_modules(code) == no_pygame, code
    needs = missing_modules("x = 1  # needs pygame: pip install ...")
    assert needs == ([] if importlib.util.find_spec("pygame") else ["pygame"])
    assert DOCS_PATH.findall("open('docs/x.png'); mask='docs/heart.txt'") == ["docs/x.png", "docs/heart.txt"]


@pytest.mark.parametrize(
    "first_line, code", python_blocks(README.read_text(encoding="utf-8")), ids=lambda v: f"line{v}" if isinstance(v, int) else ""
)
def test_every_python_block_runs_alone_in_an_empty_folder(tmp_path, first_line, code):
    missing = missing_modules(code)
    if missing:
        pytest.skip(f"README.md:{first_line} needs {', '.join(missing)}, not installed here")
    failure = run_block("README.md", first_line, code, tmp_path)
    assert failure is None, failure


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("readme-sh") / "mazeplugin"
    checkout_copy(target)
    return target


def test_every_command_example_runs_in_order(checkout):
    """The commands run one after another in one checkout, as a reader types them (later ones read
    what earlier ones wrote, so they are one test: test workers never split them)."""
    pytest.importorskip("pygame")  # the examples write PNGs: the README's installs include pygame
    commands = sh_commands(README.read_text(encoding="utf-8"))
    assert len(commands) >= 3
    for line, command in commands:
        failure = run_command(checkout, f"README.md:{line}", command)
        assert failure is None, failure
