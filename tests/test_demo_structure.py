"""The demo's module structure (issue 20): imports run one way, modules stay small, add-ons see only their API."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Set

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "demo"
MAX_LINES = 500
ADDON_MODULES = ("content", "endless", "levels", "minimap")


def demo_imports(path: Path) -> Dict[str, List[str]]:
    """Every demo module ``path`` imports (module level, in functions, under TYPE_CHECKING), with the names taken."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: Dict[str, List[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names = [alias.name for alias in node.names]
            if node.level == 1 and node.module is None:  # from . import x, y
                for name in names:
                    found.setdefault(name, [])
            elif node.level == 1:
                found.setdefault(node.module.split(".")[0], []).extend(names)
            elif node.module and node.module.split(".")[0] in ("demo", "mazeplugin_demo"):
                parts = node.module.split(".")
                if len(parts) == 1:
                    for name in names:
                        found.setdefault(name, [])
                else:
                    found.setdefault(parts[1], []).extend(names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] in ("demo", "mazeplugin_demo") and len(parts) > 1:
                    found.setdefault(parts[1], [])
    modules = {p.stem for p in DEMO.glob("*.py")}
    return {name: taken for name, taken in found.items() if name in modules}


def graph() -> Dict[str, Set[str]]:
    return {p.stem: set(demo_imports(p)) - {p.stem} for p in DEMO.glob("*.py")}


def cycles(edges: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    out: List[List[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in edges.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return out


def test_the_scan_finds_a_circle_when_there_is_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_demo_has_no_import_circle():
    edges = graph()
    assert "app" in edges and "addons" in edges["app"]  # the scan sees the demo's imports
    assert cycles(edges) == []


def test_add_ons_never_import_the_app_or_the_registry():
    edges = graph()
    for name in ADDON_MODULES:
        assert not edges[name] & {"app", "addons", "modes"}, name
        assert "addon_api" in edges[name], name


def test_no_private_name_is_imported_across_demo_modules():
    for path in DEMO.glob("*.py"):
        for module, names in demo_imports(path).items():
            private = [name for name in names if name.startswith("_")]
            assert not private, f"{path.name} imports {private} from {module}"


def test_no_demo_module_is_over_500_lines():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in DEMO.glob("*.py")}
    assert sizes and max(sizes.values()) <= MAX_LINES, sizes


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
