"""Every example on the documentation site runs: the hand-written pages under docs/.

Each ```python block runs alone in a fresh process and an empty folder, by the rules of
tests/blockrun.py (the same runner the site's strict build uses); the ```sh commands of each page run
in order in a copy of the checkout. The generated pages (gallery, environments, reference) run their
code while the site is built. Also here: the facts the README used to state, now on the site.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Tuple

import pytest

from blockrun import checkout_copy, missing_modules, python_blocks, run_block, run_command, sh_commands

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_hooks" not in p.parts)


def _examples() -> List[Tuple[str, int, str]]:
    found = []
    for page in PAGES:
        for line, code in python_blocks(page.read_text(encoding="utf-8")):
            found.append((str(page.relative_to(ROOT)), line, code))
    return found


EXAMPLES = _examples()


def test_the_site_has_its_pages_and_examples():
    names = {str(p.relative_to(DOCS)) for p in PAGES}
    for page in ("index.md", "getting-started.md", "tutorials/pygame-game.md", "tutorials/training-an-agent.md",
                 "tutorials/dataset.md", "tutorials/tiled.md", "how-to/files-and-formats.md", "how-to/grids.md",
                 "explanations/seeds.md", "reference/level-codes.md", "architecture.md"):
        assert page in names, page
    assert len(EXAMPLES) >= 30


@pytest.mark.skipif(os.environ.get("MAZEPLUGIN_SUITE_DOCS_EXAMPLES") != "1",
                    reason="the site's build runs every example of its pages, each alone (.ci/docs.sh, strict); "
                           "MAZEPLUGIN_SUITE_DOCS_EXAMPLES=1 runs them here too")
@pytest.mark.parametrize("source, first_line, code", EXAMPLES, ids=[f"{s}:{n}" for s, n, _ in EXAMPLES])
def test_every_python_example_runs_alone(tmp_path, source, first_line, code):
    missing = missing_modules(code)
    if missing:
        pytest.skip(f"{source}:{first_line} needs {', '.join(missing)}, not installed here")
    failure = run_block(source, first_line, code, tmp_path)
    assert failure is None, failure


def test_every_command_example_runs_in_order(tmp_path_factory):
    pytest.importorskip("pygame")
    commands = [(page, line, command) for page in PAGES if page.name != "architecture.md"  # contributors': the suite
                for line, command in sh_commands(page.read_text(encoding="utf-8"))]
    assert len(commands) >= 4
    checkout = tmp_path_factory.mktemp("docs-sh") / "mazeplugin"
    checkout_copy(checkout)
    for page, line, command in commands:
        failure = run_command(checkout, f"{page.relative_to(ROOT)}:{line}", command)
        assert failure is None, failure


DEPRECATED = ("save_json(", "save_tmx(", "save_tmj(", "save_npy(", ".save_png(", "load_json(", "load_tmx(",
              "load_tmj(", "load_npy(", "Level.from_json(", "load_level(", "load_tiled(", "grid_level_from_code(")


def test_no_example_uses_a_deprecated_name():
    """The README and the site show only the one way: level.save, mp.load, mp.from_json, mp.level_from_code."""
    for page in [*PAGES, ROOT / "README.md"]:
        for _, code in python_blocks(page.read_text(encoding="utf-8")):
            for name in DEPRECATED:
                assert name not in code, f"{page.relative_to(ROOT)} uses {name} (deprecated): show the one way"


def test_the_parquet_recipe_reads_with_the_unified_schema_first():
    """A mixed Parquet folder loses columns without ds.parquet_schema: the tutorial shows it before any other reader."""
    text = (DOCS / "tutorials" / "dataset.md").read_text(encoding="utf-8")
    section = text.split("## Parquet", 1)[1]
    assert section.index("parquet_schema") < section.index("load_dataset")


def test_level_codes_say_what_they_cannot_hold():
    text = (DOCS / "reference" / "level-codes.md").read_text(encoding="utf-8")
    assert "braid=" in text.split("## What a code cannot hold", 1)[1]


def test_the_hex_print_example_shows_what_print_prints(capsys):
    import mazeplugin as mp

    text = (DOCS / "how-to" / "grids.md").read_text(encoding="utf-8")
    shown = text.split("prints (odd rows shifted half a tile, as on the hex lattice):\n\n```text\n", 1)[1].split("```", 1)[0]
    print(mp.generate("backtracker", 3, 2, grid="hex", seed=1))
    assert capsys.readouterr().out == shown


def test_no_page_states_a_stale_kernel_count():
    """A count of kernels goes stale with every kernel added or merged: a page that gives one gives today's."""
    import re

    import mazeplugin.compiled as compiled
    from mazeplugin import _compiled

    for page in [*PAGES, ROOT / "README.md"]:
        text = " ".join(page.read_text(encoding="utf-8").split())
        for number in re.findall(r"\b(\d+) (?:compiled )?kernels\b|kernels? \((\d+) today\)", text):
            stated = int(next(n for n in number if n))
            assert stated == len(_compiled.KERNELS), f"{page.relative_to(ROOT)} says {stated} kernels"
    assert callable(compiled.compile_kernels)  # what `mazeplugin compile` runs, over every kernel
