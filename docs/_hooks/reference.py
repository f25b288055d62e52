"""The reference pages made from the code: the API (one page per public module), the command line
(from its argparse parsers), the generators (from the registry) and the limits (from ``mazeplugin.limits``)."""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import inspect
import numbers
import os
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parents[2]

API: List[Tuple[str, str, str]] = [  # (page, module, what it is)
    ("mazeplugin", "mazeplugin", "The package: `generate`, `Level`, codes, the registry and the tile values."),
    ("pg", "mazeplugin.pg", "Drawing, sprites, collision and cameras with pygame (the `pygame` extra)."),
    ("gym", "mazeplugin.gym", "Gymnasium environments (the `gym` extra)."),
    ("dataset", "mazeplugin.dataset", "Datasets of levels: build, open, verify (Parquet: the `parquet` extra)."),
    ("content", "mazeplugin.content", "Keys, doors, treasure, enemies and the proof a level is solvable."),
    ("formats", "mazeplugin.formats", "Loading and writing level files safely."),
    ("world", "mazeplugin.world", "Endless worlds, made chunk by chunk."),
    ("compiled", "mazeplugin.compiled", "The compiled path (the `fast` extra: numba)."),
    ("limits", "mazeplugin.limits", "Every bound and the checks that enforce them."),
    ("seeds", "mazeplugin.seeds", "Seeds and their random streams."),
]


def public_names(module: str) -> List[str]:
    """A module's public names: its ``__all__``, less the subpackages in it (each has its own page)."""
    found = importlib.import_module(module)
    return [name for name in found.__all__ if not inspect.ismodule(getattr(found, name))]


def shadowed(module: str, name: str) -> bool:
    """Whether ``module.name`` is a function or class that shares its name with a submodule (``pg.render``).

    The reference tool lists the submodule there, so such a name gets an entry of its own,
    ``module.name.name``.
    """
    return importlib.util.find_spec(f"{module}.{name}") is not None if hasattr(
        importlib.import_module(module), "__path__") else False


def anchors(module: str, name: str) -> List[str]:
    """The anchors a public name's entry may have."""
    return [f"{module}.{name}.{name}"] if shadowed(module, name) else [f"{module}.{name}"]


def api_pages() -> Dict[str, object]:
    files: Dict[str, object] = {}
    for page, module, about in API:
        names = public_names(module)
        members = "\n".join(f"        - {name}" for name in names if not shadowed(module, name))
        text = (f"# `{module}`\n\n{about}\n\n"
                f"::: {module}\n    options:\n      show_root_heading: false\n      show_root_toc_entry: false\n"
                f"      members:\n{members}\n")
        for name in names:
            if shadowed(module, name):
                text += f"\n::: {module}.{name}.{name}\n    options:\n      show_root_full_path: false\n"
        files[f"reference/api/{page}.md"] = text
    return files


def _subcommands(parser: argparse.ArgumentParser) -> Dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps its subcommands on a private action: no public way
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_page() -> str:
    os.environ["COLUMNS"] = "100"  # argparse wraps its help to the terminal's width: one width for the page
    from mazeplugin import cli
    from mazeplugin.dataset import cli as dataset_cli

    out = ["# Command line", "",
           "Generated from the argument parsers while the site was built. `mazeplugin` (or `python -m mazeplugin`)",
           "and `mazeplugin-demo` (or `python -m demo` in a checkout); `--help` on every command says the same.",
           "Wrong arguments exit with status 2 and a one-line reason; a file that cannot be written exits",
           "with 1; Ctrl-C exits with 130.", ""]
    parser = cli.build_parser()
    out += ["## `mazeplugin`", "", "```text", parser.format_help().rstrip(), "```", ""]
    for name, sub in _subcommands(parser).items():
        if name == "dataset":
            continue
        out += [f"### `mazeplugin {name}`", "", "```text", sub.format_help().rstrip(), "```", ""]
    data = dataset_cli.build_parser()
    out += ["## `mazeplugin dataset`", "",
            "The same as `python -m mazeplugin.dataset` (needs nothing beyond numpy; Parquet needs the `parquet` extra).",
            "", "```text", data.format_help().rstrip(), "```", ""]
    for name, sub in _subcommands(data).items():
        out += [f"### `mazeplugin dataset {name}`", "", "```text", sub.format_help().rstrip(), "```", ""]
    try:
        demo_options = importlib.import_module("demo.options")
    except ImportError:
        demo_options = importlib.import_module("mazeplugin_demo.options")
    out += ["## `mazeplugin-demo`", "", "The demo game (the `demo` extra installs pygame-ce).", "",
            "```text", demo_options.build_parser().format_help().rstrip(), "```", ""]
    return "\n".join(out)


def _attribute_docs(path: Path) -> Dict[str, str]:
    """``{NAME: its docstring}`` for module-level assignments followed by a string (attribute docstrings)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs: Dict[str, str] = {}
    body = tree.body
    for node, after in zip(body, body[1:]):
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        if isinstance(target, ast.Name) and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) \
                and isinstance(after.value.value, str):
            docs[target.id] = " ".join(after.value.value.split())
    return docs


def _number(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return f"`{value!r}`"
    if isinstance(value, numbers.Integral):
        text = f"{int(value):,}"
        power = int(value).bit_length() - 1
        if value > 1024 and value == 2 ** power:
            text += f" (2**{power})"
        return text
    return f"{float(value):,g}"


def limits_page() -> str:
    import mazeplugin as mp
    import mazeplugin.limits as limits

    docs = _attribute_docs(ROOT / "mazeplugin" / "limits.py")
    out = ["# Limits", "",
           "Every bound mazeplugin checks before any work, read from `mazeplugin.limits` while the site was built.",
           "A request over a bound is a `ValueError` or `TypeError` naming the argument (on the command line:",
           "exit status 2 and one line). Why they exist: [Limits and safety](../explanations/limits-and-safety.md).",
           "", "| name | value | what it bounds |", "|---|---|---|"]
    for name in limits.__all__:
        value = getattr(limits, name)
        if callable(value) or isinstance(value, dict):
            continue
        out.append(f"| `{name}` | {_number(value)} | {docs.get(name, '')} |")
    out += ["", "## Largest maze per generator", "",
            "The working-memory budget divided by each generator's measured bytes per cell "
            "(`mp.get_generator(name).max_cells`):", "", "| generator | max cells | about |", "|---|---|---|"]
    for name in mp.algorithms():
        cells = mp.get_generator(name).max_cells
        side = int(cells ** 0.5)
        out.append(f"| `{name}` | {cells:,} | {side:,} × {side:,} |")
    out += ["", "## Functions", "", "The checks are in the [API reference](api/limits.md).", ""]
    return "\n".join(out)


def generators_page() -> str:
    import mazeplugin as mp

    out = ["# Generators", "",
           "Every registered generator, read from the registry while the site was built (`mazeplugin list` prints",
           "the same). *Perfect*: exactly one path between any two cells. *Grids*: where it runs (tried on each).",
           "Pictures of each: the [gallery](../gallery/index.md).", "",
           "| name | description | perfect | masks | options | grids |", "|---|---|---|---|---|---|"]
    for name in mp.algorithms():
        info = mp.get_generator(name)
        grids = []
        for grid in ("square", "hex", "triangle", "polar"):
            try:
                mp.generate(name, 3, 3, grid=grid, seed=0)
                grids.append(grid)
            except ValueError:
                pass
        options = ", ".join(f"`{k}={v!r}`" for k, v in info.options.items()) or "—"
        out.append(f"| `{name}` | {info.description} | {'yes' if info.perfect else 'no'} | "
                   f"{'yes' if info.masks else 'no'} | {options} | {', '.join(grids)} |")
    out += ["", "Dead-end shares are means over 20 seeds at 100 × 100 cells; `tests/test_texture.py` checks them",
            "against the published figures (W. D. Pullen, *Think Labyrinth*; J. Buck, *Mazes for Programmers*).",
            "`aldous-broder` and `wilson` are uniform (every maze equally likely; `tests/test_uniformity.py`).",
            "Write your own: [Plugins](../how-to/plugins.md).", ""]
    return "\n".join(out)


def pages() -> Dict[str, object]:
    files = api_pages()
    files["reference/cli.md"] = cli_page()
    files["reference/limits.md"] = limits_page()
    files["reference/generators.md"] = generators_page()
    return files
