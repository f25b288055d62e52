"""numba's ``njit`` and ``types`` for the kernels, typed whether or not numba is installed.

numba ships no type information, so to mypy ``@njit(...)`` is an untyped
decorator that would erase each kernel's signature; where numba is missing
(the ``fast`` extra not installed) mypy cannot see it at all. Here the type
checker sees ``njit`` as a decorator that keeps the function's own type
(which is what numba promises: the compiled function takes and returns the
same things), and at run time the kernels get numba's own objects. Only
kernel modules import this, and only after :mod:`mazeplugin._compiled` has
decided to load numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, TypeVar

__all__ = ["njit", "types"]

Function = TypeVar("Function", bound=Callable[..., Any])

if TYPE_CHECKING:

    def njit(*signature: Any, **options: Any) -> Callable[[Function], Function]:
        """numba.njit with explicit signatures: returns a decorator that compiles the function."""
        ...

    types: Any
    """numba.types: the scalar and array types of kernel signatures."""
else:
    from numba import njit, types
