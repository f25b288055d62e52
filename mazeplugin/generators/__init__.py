"""The built-in generators. Each module is one algorithm, registered by name."""

from . import backtracker, eller, kruskal, prim, union_find  # noqa: F401  (registration)
from . import (  # noqa: F401  (registration)
    aldous_broder,
    binary_tree,
    division,
    growing_tree,
    hunt_and_kill,
    prim_simplified,
    rooms,
    sidewinder,
    wilson,
)
