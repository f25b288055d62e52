"""The built-in generators. Each module is one algorithm, registered by name when it is imported.

:data:`BUILTIN_MODULES` says which module registers which name, so the
registry knows all fourteen without importing them: ``import mazeplugin`` and
``mp.algorithms()`` load none, and ``mp.generate("kruskal", ...)`` (or
``mp.get_generator("kruskal")``) imports ``generators.kruskal`` alone, whose
``@register("kruskal")`` line then fills in the generator. A new built-in
generator is one new file and one line here; ``tests/test_lazy_import.py``
imports every module and checks each registers exactly the names listed for
it.

>>> BUILTIN_MODULES["prim-simplified"]
'prim_simplified'
"""

from __future__ import annotations

from typing import Dict

__all__ = ["BUILTIN_MODULES"]

BUILTIN_MODULES: Dict[str, str] = {
    "aldous-broder": "aldous_broder",
    "backtracker": "backtracker",
    "binary-tree": "binary_tree",
    "division": "division",
    "eller": "eller",
    "growing-tree": "growing_tree",
    "hunt-and-kill": "hunt_and_kill",
    "kruskal": "kruskal",
    "prim": "prim",
    "prim-simplified": "prim_simplified",
    "rooms": "rooms",
    "sidewinder": "sidewinder",
    "union-find": "union_find",
    "wilson": "wilson",
}
"""Built-in generator name → its module in this package (imported on the generator's first use)."""
