"""The built-in generators. Each module is one algorithm, registered by name."""

from . import backtracker, eller, kruskal, prim, union_find  # noqa: F401  (registration)
