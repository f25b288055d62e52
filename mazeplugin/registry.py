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
>>> get_generator("kruskall")
Traceback (most recent call last):
...
ValueError: unknown algorithm 'kruskall'; did you mean 'kruskal'? Known: ...
"""

from __future__ import annotations

import inspect
import os
import sys
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple, cast

import numpy as np
from numpy.typing import NDArray

from .limits import (
    BYTES_PER_TILE,
    DEFAULT_BYTES_PER_CELL,
    GENERATOR_BYTES_PER_CELL,
    GENERATOR_BYTES_PER_COLUMN,
    check_number,
    max_cells_for,
    max_width_for,
)
from .maze import Maze
from .seeds import Random

if TYPE_CHECKING:  # pragma: no cover - imported where used, so `import mazeplugin` stays quick
    from importlib import metadata

__all__ = [
    "GeneratorInfo",
    "PluginWarning",
    "register",
    "unregister",
    "algorithms",
    "get_generator",
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

GeneratorFunction = Callable[..., None]
RowFunction = Callable[..., Iterator[Tuple[Any, Any]]]
OptionCheck = Callable[[Mapping[str, Any], Optional[int], Optional[int]], None]


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
    check: Optional[OptionCheck] = None
    builtin: bool = False
    bytes_per_cell: float = DEFAULT_BYTES_PER_CELL
    bytes_per_column: float = 0.0

    @property
    def max_cells(self) -> int:
        """The most cells it may generate with no other options (see :mod:`mazeplugin.limits`)."""
        return max_cells_for(self.bytes_per_cell + 4 * BYTES_PER_TILE)  # four tiles per cell by default

    @property
    def max_width(self) -> Optional[int]:
        """The widest maze it may generate, when its memory grows with the width; else None."""
        return max_width_for(self.bytes_per_column)

    def check_options(self, options: Mapping[str, Any], width: Optional[int] = None,
                      height: Optional[int] = None) -> None:
        """Check options before any work: ``TypeError`` naming an unknown one, then the generator's own ``check``.

        ``check(options, width, height)`` (given to :func:`register`) checks
        types and upper bounds; ``width``/``height`` are the maze size when
        known (None when only the options are checked, as on loading a file).
        """
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            allowed = ", ".join(sorted(self.options)) or "none"
            raise TypeError(
                f"unknown option {unknown[0]!r} for {self.name!r}; its options: {allowed}"
            )
        if self.check is not None:
            self.check(options, width, height)

    def run(self, maze: Maze, rng: Random, options: Mapping[str, Any]) -> None:
        """Generate into ``maze``, then check the passages stay on the grid and in the mask.

        A plugin's maze is checked first for what the model promises (see
        :func:`check_plugin_maze`), so a faulty plugin fails here, naming
        itself, instead of handing back a level no one can solve.
        """
        mask = None if self.builtin else maze.mask.copy()
        self.function(maze, rng, **options)
        if mask is not None:
            check_plugin_maze(self.name, maze, mask)
        maze.check()


_REGISTRY: Dict[str, GeneratorInfo] = {}


def check_plugin_maze(name: str, maze: Maze, mask: NDArray[np.bool_]) -> None:
    """``ValueError`` naming generator ``name`` if it broke the model while carving ``maze``.

    The passage, corner and room arrays must still be arrays of their dtype
    and shape; the mask it was given (``mask``) may lose cells (as open
    rooms' solid cells do) but gain none; the start and goal cells stay in it.

    >>> import numpy as np
    >>> maze = Maze(3, 2)
    >>> maze.east = np.ones((2, 3), dtype=np.int64)
    >>> check_plugin_maze("sloppy", maze, np.ones((2, 3), dtype=bool))
    Traceback (most recent call last):
    ...
    ValueError: generator 'sloppy' broke the maze: maze.east must stay a bool array of shape (2, 3), got int64 (2, 3)
    """
    shape = (maze.height, maze.width)
    wanted = {
        "mask": (np.bool_, shape), "east": (np.bool_, shape), "south": (np.bool_, shape),
        "corners": (np.bool_, (max(maze.height - 1, 0), max(maze.width - 1, 0))), "rooms": (np.int32, shape),
    }
    for field_name, (dtype, field_shape) in wanted.items():
        value = getattr(maze, field_name, None)
        if not isinstance(value, np.ndarray) or value.dtype != dtype or value.shape != field_shape:
            got = f"{value.dtype} {value.shape}" if isinstance(value, np.ndarray) else type(value).__name__
            raise ValueError(
                f"generator {name!r} broke the maze: maze.{field_name} must stay a "
                f"{np.dtype(dtype).name} array of shape {field_shape}, got {got}"
            )
    gained = maze.mask & ~mask
    if gained.any():
        y, x = (int(v) for v in np.argwhere(gained)[0])
        raise ValueError(f"generator {name!r} broke the maze: it added cell ({x}, {y}) to the mask it was given; "
                         "a generator may only leave cells out")
    for what, (x, y) in (("start", maze.start), ("goal", maze.goal)):
        if mask[y, x] and not maze.mask[y, x]:
            raise ValueError(f"generator {name!r} broke the maze: it took the {what} cell ({x}, {y}) out of the mask")

_BUILTIN_PACKAGE = __name__.rpartition(".")[0] + ".generators."


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
) -> Callable[[GeneratorFunction], GeneratorFunction]:
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

    def decorate(function: GeneratorFunction) -> GeneratorFunction:
        if name in _REGISTRY and not replace:
            raise ValueError(f"a generator named {name!r} is already registered")
        if name in _REGISTRY and _REGISTRY[name].builtin:
            _touch_builtin(name, "replacing")
        params = inspect.signature(function).parameters.values()
        options = {
            p.name: p.default for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY
        }
        doc = inspect.getdoc(function) or ""
        # A built-in's name stays protected even after the application replaced it.
        builtin = (name in _REGISTRY and _REGISTRY[name].builtin) or (
            _loading_plugin is None and getattr(function, "__module__", "").startswith(_BUILTIN_PACKAGE)
        )
        measured = GENERATOR_BYTES_PER_CELL.get(name) if builtin else None
        _REGISTRY[name] = GeneratorInfo(
            name=name,
            function=function,
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
        )
        return function

    return decorate


def unregister(name: str) -> None:
    """Remove the generator registered as ``name`` (``KeyError`` if there is none).

    Removing a built-in is refused in a plugin and warned about elsewhere.
    """
    if name in _REGISTRY and _REGISTRY[name].builtin:
        _touch_builtin(name, "removing")
    del _REGISTRY[name]


def algorithms() -> List[str]:
    """Sorted names of every registered generator (plugins included)."""
    _load_plugins_once()
    return sorted(_REGISTRY)


def generator_infos() -> List[GeneratorInfo]:
    """Every registered generator (plugins included), sorted by name: for lists such as
    "generators that take a mask" (``[g.name for g in generator_infos() if g.masks]``)."""
    _load_plugins_once()
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]


def builtin_generator(name: object) -> Optional[GeneratorInfo]:
    """The built-in generator named ``name``, or None (a plugin's name, an unknown name, not a str).

    Loads no plugin: for checking what a level file records, where only the
    built-ins' options are known.
    """
    info = _REGISTRY.get(name) if isinstance(name, str) else None
    return info if info is not None and info.builtin else None


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
    line, its options from its keyword-only parameters), or a module (or a
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
            if inspect.ismodule(loaded) or any(_REGISTRY[n].function is loaded for n in new):
                pass  # it registered itself with @register
            elif callable(loaded):
                if entry_point.name in _REGISTRY:
                    if _REGISTRY[entry_point.name].function is loaded:
                        continue  # the same function again (say, a second path entry)
                    raise ValueError(f"the name {entry_point.name!r} is already taken by another generator")
                register(entry_point.name)(cast(GeneratorFunction, loaded))
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


def _check_builtins_kept(before: Mapping[str, GeneratorInfo]) -> None:
    """Raise when a plugin changed a built-in by any means (even editing the registry directly)."""
    for name, info in before.items():
        if info.builtin and _REGISTRY.get(name) is not info:
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
