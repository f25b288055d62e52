"""The generator registry: names → generator functions.

A generator is a function ``(maze, rng, **options) -> None`` that opens
passages in a :class:`~mazeplugin.maze.Maze` whose walls all stand, drawing
every random number from ``rng`` (a :class:`~mazeplugin.seeds.Random`). Its
keyword-only parameters are its options. The built-in generators use exactly
this interface::

    @register("my-maze")
    def my_maze(maze: Maze, rng: Random, *, twistiness: float = 0.5) -> None:
        '''One line that says what texture it makes.'''
        ...

>>> "kruskal" in algorithms()
True
>>> get_generator("kruskall")
Traceback (most recent call last):
...
ValueError: unknown algorithm 'kruskall'; did you mean 'kruskal'? Known: ...
"""

from __future__ import annotations

import difflib
import inspect
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple

from .maze import Maze
from .seeds import Random

__all__ = ["GeneratorInfo", "register", "unregister", "algorithms", "get_generator"]

GeneratorFunction = Callable[..., None]
RowFunction = Callable[..., Iterator[Tuple[Any, Any]]]


@dataclass(frozen=True)
class GeneratorInfo:
    """A registered generator.

    Attributes:
        name: the registered name.
        function: ``(maze, rng, **options) -> None``.
        description: one line about its texture.
        perfect: True if every maze it makes is a spanning tree of its cells
            (all cells joined, no loops).
        options: keyword-only option names and their defaults.
        rows: for row-by-row generators, ``(width, rng, height=None)`` yielding
            ``(east, south)`` bool rows; enables :func:`mazeplugin.stream`.
        masks: whether it can generate inside a mask.
    """

    name: str
    function: GeneratorFunction
    description: str
    perfect: bool = True
    options: Mapping[str, Any] = field(default_factory=dict)
    rows: Optional[RowFunction] = None
    masks: bool = True

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Raise ``TypeError`` naming any option this generator does not take."""
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            allowed = ", ".join(sorted(self.options)) or "none"
            raise TypeError(
                f"unknown option {unknown[0]!r} for {self.name!r}; its options: {allowed}"
            )

    def run(self, maze: Maze, rng: Random, options: Mapping[str, Any]) -> None:
        """Generate into ``maze``, then check the passages stay on the grid and in the mask."""
        self.function(maze, rng, **options)
        maze.check()


_REGISTRY: Dict[str, GeneratorInfo] = {}


def register(
    name: str,
    *,
    description: Optional[str] = None,
    perfect: bool = True,
    rows: Optional[RowFunction] = None,
    masks: bool = True,
    replace: bool = False,
) -> Callable[[GeneratorFunction], GeneratorFunction]:
    """Decorator: register a generator function under ``name``.

    ``description`` defaults to the first line of the function's docstring.
    Registering a taken name raises ``ValueError`` unless ``replace=True``.
    """
    if not isinstance(name, str) or not name:
        raise TypeError("name must be a non-empty str")

    def decorate(function: GeneratorFunction) -> GeneratorFunction:
        if name in _REGISTRY and not replace:
            raise ValueError(f"a generator named {name!r} is already registered")
        params = inspect.signature(function).parameters.values()
        options = {
            p.name: p.default for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY
        }
        doc = inspect.getdoc(function) or ""
        _REGISTRY[name] = GeneratorInfo(
            name=name,
            function=function,
            description=description or (doc.splitlines()[0] if doc else name),
            perfect=perfect,
            options=options,
            rows=rows,
            masks=masks,
        )
        return function

    return decorate


def unregister(name: str) -> None:
    """Remove the generator registered as ``name`` (``KeyError`` if there is none)."""
    del _REGISTRY[name]


def algorithms() -> List[str]:
    """Sorted names of every registered generator."""
    return sorted(_REGISTRY)


def get_generator(name: object) -> GeneratorInfo:
    """The generator registered as ``name``; ``ValueError`` listing the known ones if none."""
    if not isinstance(name, str):
        raise TypeError(f"algorithm must be a str, not {type(name).__name__}")
    try:
        return _REGISTRY[name]
    except KeyError:
        pass
    close = difflib.get_close_matches(name, _REGISTRY, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else "."
    raise ValueError(f"unknown algorithm {name!r}{hint} Known: {', '.join(algorithms())}")
