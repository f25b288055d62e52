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

Other installed packages add generators through the entry-point group
``mazeplugin.generators`` (see :func:`load_plugins`)::

    # the plugin's pyproject.toml
    [project.entry-points."mazeplugin.generators"]
    spiral = "my_package.spiral:spiral"     # a generator function, registered as "spiral"

They are loaded lazily, the first time a generator is looked up or listed.
A plugin that fails to load is reported with a :class:`PluginWarning` and
skipped; the others still load. Set the environment variable
``MAZEPLUGIN_NO_PLUGINS=1`` to load none.

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
import os
import sys
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple

from .maze import Maze
from .seeds import Random

__all__ = [
    "GeneratorInfo",
    "PluginWarning",
    "register",
    "unregister",
    "algorithms",
    "get_generator",
    "load_plugins",
    "ENTRY_POINT_GROUP",
    "NO_PLUGINS_VARIABLE",
]

ENTRY_POINT_GROUP = "mazeplugin.generators"
"""The entry-point group other packages add generators through."""

NO_PLUGINS_VARIABLE = "MAZEPLUGIN_NO_PLUGINS"
"""Set this environment variable to ``1`` (or any value but ``0`` or empty) to load no plugins."""

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
        fills: whether it joins every cell of each part of its mask (False
            for generators that leave sealed pockets, like ``union-find``);
            ``rooms=`` needs it, so every room can be joined to the maze.
    """

    name: str
    function: GeneratorFunction
    description: str
    perfect: bool = True
    options: Mapping[str, Any] = field(default_factory=dict)
    rows: Optional[RowFunction] = None
    masks: bool = True
    fills: bool = True

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
    fills: bool = True,
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
            fills=fills,
        )
        return function

    return decorate


def unregister(name: str) -> None:
    """Remove the generator registered as ``name`` (``KeyError`` if there is none)."""
    del _REGISTRY[name]


def algorithms() -> List[str]:
    """Sorted names of every registered generator (plugins included)."""
    _load_plugins_once()
    return sorted(_REGISTRY)


def get_generator(name: object) -> GeneratorInfo:
    """The generator registered as ``name``; ``ValueError`` listing the known ones if none."""
    if not isinstance(name, str):
        raise TypeError(f"algorithm must be a str, not {type(name).__name__}")
    try:
        return _REGISTRY[name]
    except KeyError:
        pass
    if _load_plugins_once():
        try:
            return _REGISTRY[name]
        except KeyError:
            pass
    close = difflib.get_close_matches(name, _REGISTRY, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else "."
    raise ValueError(f"unknown algorithm {name!r}{hint} Known: {', '.join(algorithms())}")


# -- plugins -------------------------------------------------------------------


class PluginWarning(RuntimeWarning):
    """A generator plugin could not be loaded (it is skipped; the others still work)."""


_plugins_loaded = False


def _load_plugins_once() -> bool:
    """Load the entry-point plugins unless done or disabled; True if this call loaded them."""
    global _plugins_loaded
    if _plugins_loaded:
        return False
    _plugins_loaded = True  # first, so a plugin that lists generators while loading cannot recurse
    if os.environ.get(NO_PLUGINS_VARIABLE, "") not in ("", "0"):
        return False
    load_plugins()
    return True


def load_plugins() -> List[str]:
    """Load every generator plugin in the ``mazeplugin.generators`` entry-point group.

    This happens by itself on the first :func:`get_generator` or
    :func:`algorithms` call (unless ``MAZEPLUGIN_NO_PLUGINS`` is set); call it
    yourself only to load plugins installed after that. Returns the names of
    the generators it added.

    An entry point names either a generator function, which is registered
    under the entry point's name (its description from the docstring's first
    line, its options from its keyword-only parameters), or a module (or a
    function already registered) that registers its generators with
    :func:`register` when imported. A plugin that fails to import, is not
    callable, or takes a name already in use is reported with a
    :class:`PluginWarning` and skipped. Loading a plugin runs its code: only
    installed packages are loaded, never files.

    >>> isinstance(load_plugins(), list)
    True
    """
    added: List[str] = []
    for entry_point in _entry_points():
        label = f"{entry_point.name} = {entry_point.value}"
        before = set(_REGISTRY)
        try:
            loaded = entry_point.load()
            new = set(_REGISTRY) - before
            if inspect.ismodule(loaded) or any(_REGISTRY[n].function is loaded for n in new):
                pass  # it registered itself with @register
            elif callable(loaded):
                if entry_point.name in _REGISTRY:
                    if _REGISTRY[entry_point.name].function is loaded:
                        continue  # the same function again (say, a second path entry)
                    raise ValueError(f"the name {entry_point.name!r} is already taken by another generator")
                register(entry_point.name)(loaded)
            else:
                raise TypeError(f"it is a {type(loaded).__name__}, not a generator function or a module")
        except Exception as error:  # a broken plugin must not break the others
            for name in set(_REGISTRY) - before:
                del _REGISTRY[name]
            warnings.warn(
                f"mazeplugin: skipped the generator plugin {label!r}: {type(error).__name__}: {error}",
                PluginWarning,
                stacklevel=2,
            )
            continue
        added += sorted(set(_REGISTRY) - before)
    return added


def _entry_points() -> list:
    from importlib import metadata

    if sys.version_info >= (3, 10):
        found = metadata.entry_points(group=ENTRY_POINT_GROUP)
    else:  # pragma: no cover - Python 3.9's entry_points() returns a dict of groups
        found = metadata.entry_points().get(ENTRY_POINT_GROUP, [])
    # The same distribution can be seen twice (two sys.path entries); keep the first.
    unique = {}
    for entry_point in found:
        unique.setdefault((entry_point.name, entry_point.value), entry_point)
    return sorted(unique.values(), key=lambda e: e.name)
