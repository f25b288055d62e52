"""The demo's module structure (issue 20): imports run one way, modules stay small, add-ons see only their API."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Dict, Set

import pytest

import test_architecture as architecture

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "demo"
ADDON_MODULES = ("content", "endless", "levels", "minimap")


def graph() -> Dict[str, Set[str]]:
    """``{demo module: the demo modules it imports}``, short names, from the scan of tests/test_architecture.py."""
    edges = architecture.graph("demo")
    short = {name: name.split(".", 1)[1] if "." in name else name for name in edges}
    return {short[name]: {short.get(target, target) for target, _, _ in imports} for name, imports in edges.items()}


# The circle, private-name and 500-line rules for demo/ are in tests/test_architecture.py; here what only the demo has.


def test_add_ons_never_import_the_app_or_the_registry():
    edges = graph()
    assert "app" in edges and "addons" in edges["app"]  # the scan sees the demo's imports
    for name in ADDON_MODULES:
        assert not edges[name] & {"app", "addons", "modes"}, name
        assert "addon_api" in edges[name], name


def test_the_command_line_and_rules_import_no_pygame():
    code = (
        "import sys; sys.modules['pygame'] = None\n"
        "import demo.options, demo.rules\n"
        "print(demo.options.build_parser(check_keys=False).format_help())"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "--script" in done.stdout


def test_the_built_in_add_ons_options_are_the_ones_help_lists_without_pygame():
    pytest.importorskip("pygame")
    from demo import addons, options

    assert [cls.add_arguments for cls in addons.addon_classes()] == list(options.BUILT_IN_ADDON_OPTIONS)
