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
``mazeplugin.generators`` (see :func:`load_plugins`; a function named there runs on every grid
if it takes ``(grid, rng, start, goal)``, the neighbour interface below, else on the square grid)::

    # the plugin's pyproject.toml
    [project.entry-points."mazeplugin.generators"]
    spiral = "my_package.spiral:spiral"     # a generator function, registered as "spiral"

A generator written against the neighbour interface — a function over a
:class:`~mazeplugin.grids.Grid` that returns one bool per edge, as the
built-ins are — runs on every grid (``generate(..., grid=...)``) and wraps
(``wrap=``), the square grid included::

    @register("spiral", grids=GRIDS)
    def spiral(grid: Grid, rng: Random, start: int, goal: int, *, turns: int = 3) -> NDArray[np.bool_]:
        '''Its texture.'''
        ...  # grid.offsets, grid.neighbours, grid.edge_ids: each cell's neighbours and the edges to them

``algorithms(grid="hex")`` lists the generators that run on a grid.

They are loaded lazily, the first time a generator is looked up or listed.
The built-in generators are lazy too: the registry knows their names and
modules from :data:`mazeplugin.generators.BUILTIN_MODULES` and imports a
built-in's module the first time it is looked up (:func:`get_generator`,
``generate``), so :func:`algorithms` lists them all without importing any.
**Loading a plugin runs its code** (it is an ordinary import, with every
right your program has): install only plugins you trust, and set the
environment variable ``MAZEPLUGIN_NO_PLUGINS=1`` to load none.

A plugin that fails to load — any exception on import, ``SystemExit``
included (not ``KeyboardInterrupt``) — is reported with a
:class:`PluginWarning` and skipped; the others still load. The built-in
generators are protected, so a level code keeps meaning one level: a plugin
that replaces or removes one (``register(..., replace=True)``,
:func:`unregister`, or by editing the registry) is skipped with a
:class:`PluginWarning` and the built-in restored. An application may still
replace or remove a built-in itself; that works, with a ``RuntimeWarning``.

>>> "kruskal" in algorithms()
True
>>> "kruskal" in algorithms(grid="hex"), "eller" in algorithms(grid="hex")
(True, False)
>>> get_generator("kruskall")
Traceback (most recent call last):
...
ValueError: unknown algorithm 'kruskall'; did you mean 'kruskal'? Known: ...
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
import warnings
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Tuple, TypeVar, Union, cast

from .generator_info import (GRIDS, GeneratorFunction, GeneratorInfo, GraphFunction, OptionCheck, RowFunction,
                             check_plugin_maze, neighbour_interface, on_square)
from .generators import BUILTIN_MODULES
from .limits import DEFAULT_BYTES_PER_CELL, GENERATOR_BYTES_PER_CELL, GENERATOR_BYTES_PER_COLUMN, check_number

if TYPE_CHECKING:  # pragma: no cover - imported where used, so `import mazeplugin` stays quick
    from importlib import metadata

__all__ = [
    "GeneratorInfo",
    "GRIDS",
    "PluginWarning",
    "register",
    "unregister",
    "algorithms",
    "get_generator",
    "check_grid_generator",
    "generator_infos",
    "check_plugin_maze",
    "builtin_generator",
    "load_plugins",
    "ENTRY_POINT_GROUP",
    "NAME_CHARACTERS",
    "NO_PLUGINS_VARIABLE",
]

ENTRY_POINT_GROUP = "mazeplugin.generators"
"""The entry-point group other packages add generators through."""

NO_PLUGINS_VARIABLE = "MAZEPLUGIN_NO_PLUGINS"
"""Set this environment variable to ``1`` (or any value but ``0`` or empty) to load no plugins."""


class _NotImported:
    """A built-in generator whose module is not imported yet: :func:`_resolved` imports it on first use."""

    __slots__ = ("name",)
    builtin = True  # protected from plugins like the GeneratorInfo it stands for

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<built-in generator {self.name!r}, not imported yet>"


_Entry = Union[GeneratorInfo, _NotImported]

_REGISTRY: Dict[str, _Entry] = {name: _NotImported(name) for name in BUILTIN_MODULES}
_IMPORTED: Dict[str, GeneratorInfo] = {}
"""What each built-in module registered when it was imported (an import runs once; a placeholder put back
into :data:`_REGISTRY`, as a plugin that failed is undone, resolves to this)."""

_BUILTIN_PACKAGE = __name__.rpartition(".")[0] + ".generators."


def _resolved(name: str) -> Optional[GeneratorInfo]:
    """The generator registered as ``name`` (its built-in module imported first if need be), or None."""
    entry = _REGISTRY.get(name)
    if entry is None or isinstance(entry, GeneratorInfo):
        return entry
    info = _IMPORTED.get(entry.name)
    if info is None:
        module = _BUILTIN_PACKAGE + BUILTIN_MODULES[entry.name]
        importlib.import_module(module)  # its @register line fills in _IMPORTED (and the placeholder)
        info = _IMPORTED.get(entry.name)
        if info is None:
            raise RuntimeError(f"{module} did not register the built-in generator {entry.name!r} "
                               "(mazeplugin.generators.BUILTIN_MODULES is out of date)")
    if _REGISTRY.get(name) is entry:
        _REGISTRY[name] = info
    return info


class _BuiltinTouched(Exception):
    """A plugin tried to replace or remove a built-in generator."""


_loading_plugin: Optional[str] = None  # the entry point being loaded, while it loads
_plugin_touched: Optional[str] = None  # what the plugin being loaded tried to do to a built-in


def _touch_builtin(name: str, action: str) -> None:
    """Refuse (in a plugin) or warn about (in the application) replacing or removing a built-in."""
    global _plugin_touched
    if _loading_plugin is not None:
        # Remembered too, so a plugin that catches the exception is still skipped.
        _plugin_touched = f"it tried {action} the built-in generator {name!r}"
        raise _BuiltinTouched(_plugin_touched)
    warnings.warn(
        f"mazeplugin: {action} the built-in generator {name!r}: levels and level codes made with it "
        "will differ from everyone else's",
        RuntimeWarning,
        stacklevel=3,
    )


_Function = TypeVar("_Function", bound=Callable[..., Any])
"""A generator function: over a :class:`~mazeplugin.maze.Maze` or over the neighbour interface."""

NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")
"""What a generator name is made of; it starts with a letter or digit (it names files and level codes)."""


def register(
    name: str,
    *,
    description: Optional[str] = None,
    perfect: bool = True,
    rows: Optional[RowFunction] = None,
    masks: bool = True,
    fills: bool = True,
    replace: bool = False,
    check: Optional[OptionCheck] = None,
    bytes_per_cell: Optional[float] = None,
    bytes_per_column: float = 0.0,
    grids: Tuple[str, ...] = ("square",),
    graph: Optional[GraphFunction] = None,
) -> Callable[[_Function], _Function]:
    """Decorator: register a generator function under ``name``.

    ``description`` defaults to the first line of the function's docstring.
    A name is lowercase letters, digits, ``-`` and ``_``, starting with a
    letter or digit (:data:`NAME_CHARACTERS`; it becomes part of file names
    and level codes); any other raises ``ValueError``.
    Registering a taken name raises ``ValueError`` unless ``replace=True``.
    ``check(options, width, height)``, if given, checks the options' types and
    upper bounds before any work (raise ``TypeError``/``ValueError`` naming
    the option). ``bytes_per_cell`` (default
    ``limits.DEFAULT_BYTES_PER_CELL``) is the generator's peak working memory
    per cell and ``bytes_per_column`` what grows with the width alone; the
    size limits follow from them so that no request needs more than about
    2 GiB (the built-ins' are measured: see :mod:`mazeplugin.limits`). Replacing a built-in generator is refused in
    a plugin and warned about elsewhere (see the module docstring).

    ``grids`` names the grids it runs on (from :data:`GRIDS`). With only
    ``"square"`` (the default) the function is ``(maze, rng, **options)``
    over a :class:`~mazeplugin.maze.Maze`. With any other grid it is written
    against the neighbour interface, ``(grid, rng, start, goal, **options)``
    returning one bool per edge of the :class:`~mazeplugin.grids.Grid`, and
    it runs on the square grid too (there the grid is the mask's cells, each
    cell's neighbours north, east, south, west) and wraps. ``graph``, when
    given, is that neighbour-interface function and the decorated one the
    square grid's own (the same algorithm, for speed or a texture only the
    square grid has). A plugin's passages are checked as its maze is.
    """
    if not isinstance(name, str) or not name:
        raise TypeError("name must be a non-empty str")
    if not set(name) <= NAME_CHARACTERS or name[0] in "-_":
        raise ValueError(
            f"generator name {name!r} is not allowed: use lowercase letters, digits, '-' and '_', "
            "starting with a letter or digit (names become file names and level codes)"
        )
    for label, bound in (("bytes_per_cell", bytes_per_cell), ("bytes_per_column", bytes_per_column)):
        if bound is not None:
            check_number(label, bound, low=0, high=1e12)
    grids = tuple(grids) if isinstance(grids, (tuple, list)) else grids
    if not isinstance(grids, tuple) or not grids or not set(grids) <= set(GRIDS) or len(set(grids)) < len(grids):
        raise ValueError(f"grids must be a tuple of distinct grid names from {GRIDS}, got {grids!r}")
    if graph is not None and not callable(graph):
        raise TypeError(f"graph must be a function over the neighbour interface, not {type(graph).__name__}")
    if graph is not None and grids == ("square",):
        raise ValueError("graph= runs a generator on grids beyond the square: name them in grids=")

    def decorate(function: _Function) -> _Function:
        current = _REGISTRY.get(name)
        # A built-in module registering itself on its (first) import fills in its placeholder.
        own = name in BUILTIN_MODULES and name not in _IMPORTED and (
            getattr(function, "__module__", "") == _BUILTIN_PACKAGE + BUILTIN_MODULES[name])
        if current is not None and not own:
            if not replace:
                raise ValueError(f"a generator named {name!r} is already registered")
            if current.builtin:
                _touch_builtin(name, "replacing")
        on_grids = graph if graph is not None else function if grids != ("square",) else None
        options = _keyword_options(function)
        doc = inspect.getdoc(function) or ""
        # A built-in's name stays protected even after the application replaced it.
        builtin = own or (current is not None and current.builtin) or (
            _loading_plugin is None and getattr(function, "__module__", "").startswith(_BUILTIN_PACKAGE)
        )
        square = function if graph is not None or on_grids is None else on_square(name, on_grids, checked=not builtin)
        measured = GENERATOR_BYTES_PER_CELL.get(name) if builtin else None
        info = GeneratorInfo(
            name=name,
            function=square,
            description=description or (doc.splitlines()[0] if doc else name),
            perfect=perfect,
            options=options,
            rows=rows,
            masks=masks,
            fills=fills,
            check=check,
            builtin=builtin,
            bytes_per_cell=float(
                bytes_per_cell if bytes_per_cell is not None
                else measured if measured is not None else DEFAULT_BYTES_PER_CELL
            ),
            bytes_per_column=float(bytes_per_column or (GENERATOR_BYTES_PER_COLUMN.get(name, 0.0) if builtin else 0.0)),
            grids=grids,
            graph=on_grids,
            grid_options=_keyword_options(on_grids) if on_grids is not None else {},
        )
        if not own:
            _REGISTRY[name] = info
            return function
        _IMPORTED[name] = info
        if isinstance(current, _NotImported) and current.name == name:
            _REGISTRY[name] = info  # (an application that replaced or removed it keeps its choice)
        return function

    return decorate


def _keyword_options(function: Callable[..., object]) -> Dict[str, object]:
    """A generator function's options: its keyword-only parameters and their defaults."""
    params = inspect.signature(function).parameters.values()
    return {p.name: p.default for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY}


def unregister(name: str) -> None:
    """Remove the generator registered as ``name`` (``KeyError`` if there is none).

    Removing a built-in is refused in a plugin and warned about elsewhere.
    """
    if name in _REGISTRY and _REGISTRY[name].builtin:
        _touch_builtin(name, "removing")
    del _REGISTRY[name]


def algorithms(grid: Optional[str] = None) -> List[str]:
    """Sorted names of every registered generator (plugins included); with ``grid``, of those that run on it.

    ``grid`` is one of :data:`GRIDS`; listing by grid imports the built-in generators' modules.
    """
    _load_plugins_once()
    if grid is None:
        return sorted(_REGISTRY)
    if not isinstance(grid, str) or grid not in GRIDS:
        raise ValueError(f"grid must be None or one of {', '.join(map(repr, GRIDS))}; got {grid!r}")
    return [info.name for info in generator_infos()
            if grid in info.grids and (grid == "square" or info.graph is not None)]


def generator_infos() -> List[GeneratorInfo]:
    """Every registered generator (plugins included), sorted by name: for lists such as
    "generators that take a mask" (``[g.name for g in generator_infos() if g.masks]``).

    This imports every built-in generator's module; :func:`algorithms` lists the names without.
    """
    _load_plugins_once()
    found = (_resolved(name) for name in sorted(_REGISTRY))
    return [info for info in found if info is not None]


def builtin_generator(name: object) -> Optional[GeneratorInfo]:
    """The built-in generator named ``name``, or None (a plugin's name, an unknown name, not a str).

    Loads no plugin: for checking what a level file records, where only the
    built-ins' options are known.
    """
    info = _resolved(name) if isinstance(name, str) else None
    return info if info is not None and info.builtin else None


def check_grid_generator(algorithm: str, grid: str, options: Mapping[str, Any]) -> GeneratorInfo:
    """Generator ``algorithm``, after a clear error when it cannot run on ``grid`` over the neighbour
    interface (on ``"square"``: wrapping round), or takes none of ``options`` there.

    >>> check_grid_generator("eller", "hex", {})
    Traceback (most recent call last):
    ...
    ValueError: algorithm 'eller' runs only on the square grid, not grid='hex'; generators for grid='hex': ...
    """
    info = get_generator(algorithm)

    def listed(wrap: bool) -> str:
        return ", ".join(g.name for g in generator_infos()
                         if grid in g.grids and g.graph is not None and (g.wraps or not wrap))

    if info.graph is None and grid == "square":
        raise ValueError(f"algorithm {algorithm!r} cannot wrap (it is not written over the neighbour interface); "
                         f"generators that take wrap=: {listed(True)}")
    if info.graph is None or grid not in info.grids:
        where = "the square grid" if info.grids == ("square",) else "grid=" + " / ".join(map(repr, info.grids))
        raise ValueError(f"algorithm {algorithm!r} runs only on {where}, not grid={grid!r}; "
                         f"generators for grid={grid!r}: {listed(False)}")
    unknown = sorted(set(options) - set(info.grid_options))
    if unknown:
        takes = ", ".join(info.grid_options) or "no options"
        raise TypeError(f"algorithm {algorithm!r} on grid={grid!r} takes {takes}; got {', '.join(unknown)}")
    if info.check is not None:
        info.check(options, None, None)
    return info


def get_generator(name: object) -> GeneratorInfo:
    """The generator registered as ``name``; ``ValueError`` listing the known ones if none."""
    if not isinstance(name, str):
        raise TypeError(f"algorithm must be a str, not {type(name).__name__}")
    info = _resolved(name)
    if info is None and _load_plugins_once():
        info = _resolved(name)
    if info is not None:
        return info
    import difflib  # (only for this message: import mazeplugin need not load it)

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
    line, its options from its keyword-only parameters; on every grid if it
    takes ``(grid, rng, start, goal)``, else on the square grid), or a module (or a
    function already registered) that registers its generators with
    :func:`register` when imported. A plugin that fails to import, is not
    callable, takes a name already in use, touches a built-in generator or
    raises anything (``SystemExit`` included; ``KeyboardInterrupt`` still
    stops the program) is reported with a :class:`PluginWarning` and skipped,
    and whatever it registered is undone. Loading a plugin runs its code,
    with every right the program has: only installed packages are loaded,
    never files, and ``MAZEPLUGIN_NO_PLUGINS=1`` turns loading off.

    >>> isinstance(load_plugins(), list)
    True
    """
    global _loading_plugin, _plugin_touched
    added: List[str] = []
    for entry_point in _entry_points():
        label = f"{entry_point.name} = {entry_point.value}"
        before = dict(_REGISTRY)
        _loading_plugin, _plugin_touched = label, None
        try:
            loaded = entry_point.load()
            if _plugin_touched is not None:
                raise _BuiltinTouched(_plugin_touched)
            _check_builtins_kept(before)
            new = set(_REGISTRY) - set(before)
            if inspect.ismodule(loaded) or any(_registers(_REGISTRY[n], loaded) for n in new):
                pass  # it registered itself with @register
            elif callable(loaded):
                if entry_point.name in _REGISTRY:
                    if _registers(_REGISTRY[entry_point.name], loaded):
                        continue  # the same function again (say, a second path entry)
                    raise ValueError(f"the name {entry_point.name!r} is already taken by another generator")
                grids = GRIDS if neighbour_interface(loaded) else ("square",)
                register(entry_point.name, grids=grids)(cast(GeneratorFunction, loaded))
            else:
                raise TypeError(f"it is a {type(loaded).__name__}, not a generator function or a module")
        except KeyboardInterrupt:
            _REGISTRY.clear()
            _REGISTRY.update(before)
            raise
        except BaseException as error:  # a broken plugin must not break the others, nor exit the program
            _REGISTRY.clear()  # undo everything it did, built-ins included
            _REGISTRY.update(before)
            warnings.warn(
                f"mazeplugin: skipped the generator plugin {label!r}: {type(error).__name__}: {error}",
                PluginWarning,
                stacklevel=2,
            )
            continue
        finally:
            _loading_plugin = _plugin_touched = None
        added += sorted(set(_REGISTRY) - set(before))
    return added


def _registers(entry: _Entry, function: object) -> bool:
    """Whether registry entry ``entry`` runs ``function`` (on the square grid or over the neighbour interface)."""
    return function is getattr(entry, "function", None) or function is getattr(entry, "graph", None)


def _check_builtins_kept(before: Mapping[str, _Entry]) -> None:
    """Raise when a plugin changed a built-in by any means (even editing the registry directly).

    A built-in first used while the plugin loaded (its placeholder filled in by its own module) is kept.
    """
    for name, entry in before.items():
        now = _REGISTRY.get(name)
        imported = isinstance(entry, _NotImported) and now is not None and now is _IMPORTED.get(entry.name)
        if entry.builtin and now is not entry and not imported:
            raise _BuiltinTouched(f"it replaced or removed the built-in generator {name!r}")


def _entry_points() -> List["metadata.EntryPoint"]:
    from importlib import metadata

    if sys.version_info >= (3, 10):
        found = metadata.entry_points(group=ENTRY_POINT_GROUP)
    else:  # pragma: no cover - Python 3.9's entry_points() returns a dict of groups
        found = metadata.entry_points().get(ENTRY_POINT_GROUP, [])
    # The same distribution can be seen twice (two sys.path entries); keep the first.
    unique: Dict[Tuple[str, str], metadata.EntryPoint] = {}
    for entry_point in found:
        unique.setdefault((entry_point.name, entry_point.value), entry_point)
    return sorted(unique.values(), key=lambda e: e.name)
