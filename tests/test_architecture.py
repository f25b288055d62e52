"""The layers of docs/architecture.md, enforced: read every import with ``ast`` and check them.

Rules (see docs/architecture.md for why):

1. Every module of ``mazeplugin`` belongs to a layer (:data:`LAYERS`); a new module
   must be given one here and in docs/architecture.md.
2. No module imports from a layer above its own, at module level or inside a
   function — except :mod:`mazeplugin.seam`, the one documented seam, whose
   functions reach the formats and pygame for ``Level``'s conveniences.
   Imports under ``if TYPE_CHECKING:`` are for types only and are not counted.
3. No circle of imports, in ``mazeplugin`` or in ``demo``.
4. No private name (``_name``) is imported from another module.
5. No module is longer than 500 lines unless it says why near its top,
   in a comment that starts ``# Long module:``.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Set, Tuple

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Lowest first. A module's layer is that of the longest prefix listed; "=name" matches only name itself.
LAYERS: List[Tuple[str, List[str]]] = [
    ("ground", ["limits", "errors", "interrupt", "seeds", "unionfind", "rows", "maze", "tiles", "seam", "compiled",
                "=_compiled", "_compiled.grid", "_compiled.rand", "_compiled.sort", "_compiled.unionfind",
                "_compiled.bfs", "_compiled.jit", "_compiled.draws", "_compiled.gridrows", "_compiled.streams",
                "_compiled.lattice", "_compiled.diskcache", "_compiled.roomcheck", "grids"]),
    ("analysis", ["paths", "bridges", "analysis", "text", "content.things", "content.graph",
                  "content.proof", "content.locks", "content.choosing", "content.cells",
                  "content.drops", "_compiled.content", "_compiled.locks", "_compiled.routes"]),
    ("level", ["level", "level_tiles", "level_views", "grid_level", "level_protocol"]),
    ("layers on a maze", ["shaping", "weave", "markers", "rooms", "=content", "content.placing",
                          "content.request", "content.lockbatch", "_compiled.rooms"]),
    ("generators", ["registry", "generator_info", "generators", "_compiled"]),
    ("pipeline", ["pipeline", "pipeline_batch", "codes", "difficulty", "api"]),
    ("formats", ["formats", "content.tiled"]),
    ("worlds", ["world"]),
    ("dungeons", ["dungeon"]),
    ("pygame", ["pg"]),
    ("applications", ["cli", "gym", "dataset", "__main__", "="]),
]
SEAM = "mazeplugin.seam"
LONG_LINES = 500


def layer_of(module: str) -> Optional[int]:
    """The layer index of ``mazeplugin.…`` module ``module``, or None if it has none."""
    name = module[len("mazeplugin."):] if module != "mazeplugin" else ""
    best: Tuple[int, int] = (-1, -1)
    for index, (_, patterns) in enumerate(LAYERS):
        for pattern in patterns:
            if pattern.startswith("="):
                if name == pattern[1:]:
                    best = max(best, (len(pattern) + 1000, index))  # exact names beat prefixes
            elif name == pattern or name.startswith(pattern + "."):
                best = max(best, (len(pattern), index))
    return None if best[0] < 0 else best[1]


def modules(package: str) -> Dict[str, Path]:
    """``{dotted name: path}`` for every module of ``package`` (a folder under the repository root)."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``node`` except the bodies of ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _type_checking_only(child):
            for other in child.orelse:
                yield other
                yield from _walk(other)
            continue
        yield child
        yield from _walk(child)


def imports(module: str, path: Path, known: Dict[str, Path],
            lookups: bool = True) -> Iterator[Tuple[str, Optional[str], int]]:
    """``(imported module, imported name or None, line)`` for each import in ``path`` of a known module
    (with ``lookups``, each kernel looked up by name too: ``kernel("bfs", n)``, ``twin("bfs")``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in _walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source not in known:
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in known:
                    yield submodule, None, node.lineno
                else:
                    yield source, alias.name, node.lineno
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and node.args[0].value in known):
            yield node.args[0].value, None, node.lineno
        elif lookups and isinstance(node, ast.Call) and lookup_name(node) in KERNEL_LOOKUPS:
            target = kernel_module(node)
            if target is not None and target in known:
                yield target, None, node.lineno


KERNEL_LOOKUPS = ("kernel", "twin")
"""Calls that load a compiled kernel by name (``kernel("bfs", n)``, ``twin("bfs")``): read as imports of its module."""


def lookup_name(call: ast.Call) -> Optional[str]:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def kernel_names() -> Dict[str, str]:
    """``_compiled.KERNELS`` (kernel name -> module under ``mazeplugin._compiled``), read with ``ast``."""
    tree = ast.parse((ROOT / "mazeplugin" / "_compiled" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "KERNELS":
            return dict(ast.literal_eval(node.value))  # type: ignore[arg-type]
    raise AssertionError("mazeplugin/_compiled/__init__.py has no KERNELS table")


def kernel_module(call: ast.Call) -> Optional[str]:
    """The module a ``kernel("name", ...)``/``twin("name")`` call loads, or None (no literal name)."""
    if not call.args or not isinstance(call.args[0], ast.Constant) or not isinstance(call.args[0].value, str):
        return None
    stem = kernel_names().get(call.args[0].value)
    return None if stem is None else f"mazeplugin._compiled.{stem}"


def graph(package: str, lookups: bool = True) -> Dict[str, List[Tuple[str, Optional[str], int]]]:
    known = modules(package)
    return {name: [edge for edge in imports(name, path, known, lookups) if edge[0] != name]
            for name, path in known.items()}


def cycles(edges: Dict[str, List[Tuple[str, Optional[str], int]]]) -> List[List[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[List[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target, _, _ in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_every_module_has_a_layer():
    assert [name for name in modules("mazeplugin") if layer_of(name) is None] == []


def test_no_module_imports_from_a_layer_above_it():
    upward = []
    for module, edges in graph("mazeplugin").items():
        if module == SEAM:
            continue
        mine = layer_of(module)
        for target, name, line in edges:
            theirs = layer_of(target)
            if theirs is not None and mine is not None and theirs > mine:
                what = f"{target}.{name}" if name else target
                upward.append(f"{module} ({LAYERS[mine][0]}) line {line} imports {what} ({LAYERS[theirs][0]})")
    assert upward == []


@pytest.mark.parametrize("package", ["mazeplugin", "demo"])
def test_no_import_circles(package):
    """No circle, the seam's lazy imports and kernel lookups aside (loaded when first asked, like the
    registry's generators: ``maze`` looks up ``_compiled.roomcheck``, which reads ``Maze``)."""
    edges = graph(package, lookups=False)
    edges.pop(SEAM, None)
    assert cycles(edges) == []


@pytest.mark.parametrize("package", ["mazeplugin", "demo"])
def test_no_private_name_is_imported_from_another_module(package):
    private = [f"{module} line {line} imports {name} from {target}"
               for module, edges in graph(package).items()
               for target, name, line in edges if name is not None and name.startswith("_")
               and not (name.startswith("__") and name.endswith("__"))]
    assert private == []


@pytest.mark.parametrize("package", ["mazeplugin", "demo"])
def test_long_modules_say_why(package):
    long = []
    for module, path in modules(package).items():
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) > LONG_LINES and not any(line.startswith("# Long module:") for line in lines[:60]):
            long.append(f"{path.relative_to(ROOT)}: {len(lines)} lines")
    assert long == []


def test_the_seam_imports_only_inside_functions():
    """The seam is lazy: at module level it imports nothing above the ground layer."""
    known = modules("mazeplugin")
    tree = ast.parse(known[SEAM].read_text(encoding="utf-8"))
    top_level = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    for node in top_level:
        if isinstance(node, ast.ImportFrom) and node.level:
            target = f"mazeplugin.{node.module}" if node.module else "mazeplugin"
            assert layer_of(target) == 0, ast.dump(node)


def test_the_layer_table_matches_docs_architecture():
    """docs/architecture.md names every layer of the table, in the same order."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    positions = [text.find(f"**{name}**") for name, _ in LAYERS]
    assert -1 not in positions, [name for (name, _), at in zip(LAYERS, positions) if at == -1]
    assert positions == sorted(positions)


def test_import_mazeplugin_loads_no_formats_world_or_heavy_extras():
    """``import mazeplugin`` stays cheap: formats, worlds, pygame and numba load when first used."""
    import subprocess
    import sys

    code = ("import sys, mazeplugin; print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('pygame', 'numba', 'gymnasium', 'ray', 'pyarrow') or m.startswith(('mazeplugin.formats', "
            "'mazeplugin.world', 'mazeplugin.pg', 'mazeplugin.cli'))))")
    env = {k: v for k, v in __import__("os").environ.items() if k != "MAZEPLUGIN_COMPILED"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env,
                         cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_checks_catch_what_they_are_for(tmp_path):
    """The scanner finds an upward import inside a function, a circle, and a private import."""
    edges = {"a": [("b", None, 1)], "b": [("c", None, 1)], "c": [("a", None, 1)], "d": [("a", None, 1)]}
    assert cycles(edges) == [["a", "b", "c"]]
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "low.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .high import X\n"
        "def f():\n    from .high import _secret\n")
    (tmp_path / "pkg" / "high.py").write_text("import importlib\nimportlib.import_module('pkg.low')\n")
    known = {"pkg": tmp_path / "pkg" / "__init__.py", "pkg.low": tmp_path / "pkg" / "low.py",
             "pkg.high": tmp_path / "pkg" / "high.py"}
    assert list(imports("pkg.low", known["pkg.low"], known)) == [("pkg.high", "_secret", 5)]
    assert list(imports("pkg.high", known["pkg.high"], known)) == [("pkg.low", None, 2)]
    # A kernel looked up by name is read as an import of its module (here, one layer above ground).
    (tmp_path / "pkg" / "ground.py").write_text("from mazeplugin._compiled import kernel, twin\n"
                                                "FAST = twin('rooms')\ndef f():\n    return kernel('bfs', 10)\n")
    known["pkg.ground"] = tmp_path / "pkg" / "ground.py"
    known["mazeplugin._compiled.rooms"] = ROOT / "mazeplugin" / "_compiled" / "rooms.py"
    known["mazeplugin._compiled.bfs"] = ROOT / "mazeplugin" / "_compiled" / "bfs.py"
    assert [edge for edge in imports("pkg.ground", known["pkg.ground"], known) if edge[0].startswith("mazeplugin")] == [
        ("mazeplugin._compiled.rooms", None, 2), ("mazeplugin._compiled.bfs", None, 4)]
    assert layer_of("mazeplugin._compiled.rooms") > layer_of("mazeplugin._compiled.bfs") == 0
    assert layer_of("mazeplugin.maze") == 0 and layer_of("mazeplugin") == len(LAYERS) - 1
    assert layer_of("mazeplugin._compiled") == 0 and layer_of("mazeplugin._compiled.kruskal") == 4
    assert layer_of("mazeplugin.content") == 3 and layer_of("mazeplugin.content.proof") == 1


FIRST_IMPORT = r'''
import importlib, json, sys
bad = {}
for name in json.loads(sys.argv[1]):
    for loaded in [m for m in sys.modules if m == "mazeplugin" or m.startswith("mazeplugin.")]:
        del sys.modules[loaded]  # numpy, pygame, numba stay loaded: only mazeplugin is imported afresh
    try:
        importlib.import_module(name)
    except Exception as error:
        chain, seen = error, []
        while chain is not None and chain not in seen:  # an optional extra not installed here: not a fault
            seen.append(chain)
            if isinstance(chain, ModuleNotFoundError) and (chain.name or "mazeplugin").split(".")[0] != "mazeplugin":
                break
            chain = chain.__cause__ or chain.__context__
        else:
            bad[name] = repr(error)[:300]
print(json.dumps(bad))
'''


def test_every_module_imports_first_in_a_fresh_interpreter():
    """Any module can be the first one imported: the static circle check cannot see a circle that runs through a
    package's ``__init__`` (importing ``formats.files`` runs ``formats/__init__``). ``content.tiled`` imported first
    failed that way (``formats/__init__`` loaded the Tiled readers, which import ``content.tiled``)."""
    import json
    import subprocess
    import sys

    names = [name for name in modules("mazeplugin") if not name.endswith("__main__")
             and not name.startswith(("mazeplugin.gym", "mazeplugin.dataset.ray"))]  # their extras register globally
    result = subprocess.run([sys.executable, "-c", FIRST_IMPORT, json.dumps(names)], capture_output=True, text=True,
                            timeout=600, cwd=ROOT, env=dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1"))
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {}
    assert len(names) > 150


def test_docs_architecture_lists_every_module_in_its_layer():
    """docs/architecture.md's "Every module" section names each module of mazeplugin/, in its layer, and no other."""
    import re

    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert "\n## Every module\n" in text, "docs/architecture.md has no '## Every module' section"
    section = text.split("\n## Every module\n", 1)[1].split("\n## ", 1)[0]
    listed: Dict[str, str] = {}
    layer = None
    names = [name for name, _ in LAYERS]
    for line in section.splitlines():
        heading = re.match(r"- (.+):$", line)
        if heading:
            layer = heading.group(1)
            assert layer in names, f"docs/architecture.md lists a layer {layer!r} the table does not have"
            continue
        for module in re.findall(r"`([^`]+)`", line if line.startswith("  ") else ""):
            listed[module] = str(layer)
    actual = {("mazeplugin" if name == "mazeplugin" else name[len("mazeplugin."):]): LAYERS[layer_of(name) or 0][0]
              for name in modules("mazeplugin")}
    missing = sorted(f"{module} (under '- {where}:')" for module, where in actual.items() if module not in listed)
    gone = sorted(module for module in listed if module not in actual)
    misplaced = sorted(f"{module}: listed under {listed[module]}, is in {where}" for module, where in actual.items()
                       if module in listed and listed[module] != where)
    assert (missing, gone, misplaced) == ([], [], []), "update docs/architecture.md's 'Every module' section"
