"""Dataset specs: which levels a dataset holds, read from JSON or TOML and checked before any work.

A spec is one entry or ``{"levels": [entry, ...]}``. An entry names a
generator (or ``"dungeon"``: ``mp.generate("dungeon", ...)``'s levels, with
``rooms``, ``locks``, ``pattern``), a size, how many levels (``count`` seeds from ``first_seed``) and
how many go in each shard (``shard_size``, default 10,000), and whether
shards keep each level's ``stats()`` figures (``stats``, default true); every other key
is a keyword of :func:`mazeplugin.generate` (``keys``, ``treasure``,
``braid``, ``markers``, ``require``, a generator's own options, ...), given
as JSON values: lists stand for tuples, ``place`` is a list of
:class:`~mazeplugin.Place` fields as objects, ``mask`` a list of strings.

``reserve_seed`` (default ``2**63 + first_seed``) starts the entry's reserved
seed range: under ``unique=True`` a repeated level is replaced by the next
seed of that range.

>>> spec = parse_spec('{"generator": "backtracker", "width": 9, "height": 9, "count": 25, "shard_size": 10}')
>>> entry = spec.entries[0]
>>> entry.generator, entry.count, entry.shards, entry.first_seed, entry.reserve_seed == 2**63
('backtracker', 25, 3, 0, True)
>>> parse_spec('{"generator": "backtracker", "width": 9, "height": 9, "count": 25, "shard_size": 0}')
Traceback (most recent call last):
...
mazeplugin.dataset.spec.SpecError: <spec>: levels[0]: shard_size must be an int from 1 to 1,000,000, got 0
"""

from __future__ import annotations

import hashlib
import json
import math
import numbers
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional, Tuple, Union, cast

import mazeplugin as mp
from mazeplugin.formats.jsontext import parse_json
from mazeplugin.level import Level
from mazeplugin.limits import check_dataset_shards

__all__ = [
    "Entry",
    "Spec",
    "SpecError",
    "parse_spec",
    "load_spec",
    "MAX_LEVELS",
    "MAX_SHARD_SIZE",
    "MAX_SHARD_TILES",
    "MAX_SPEC_BYTES",
    "SEED_RANGE",
    "PER_LEVEL_OPTIONS",
    "level_options",
]

MAX_LEVELS = 1 << 40
"""Most levels one dataset holds (all entries together)."""

MAX_SHARD_SIZE = 1_000_000
"""Most levels in one shard."""

MAX_SHARD_TILES = 1 << 30
"""Most tiles (levels × tiles per level) in one shard: a shard is built in memory, so this bounds a worker's memory."""

MAX_SPEC_BYTES = 1 << 20
"""Largest spec file read."""

MAX_ENTRIES = 10_000
"""Most entries in one spec."""

SEED_RANGE = 1 << 64
"""Every seed of a dataset (its ranges and reserved ranges) is below this: seeds are stored as uint64."""

DEFAULT_SHARD_SIZE = 10_000

# Keys of an entry that are the dataset's own; every other key goes to generate().
_OWN_KEYS = ("generator", "width", "height", "count", "first_seed", "shard_size", "reserve_seed", "stats")


class SpecError(ValueError):
    """A spec that cannot be built: the message names the spec, the entry and what is allowed."""


PathLike = Union[str, "os.PathLike[str]"]


@dataclass(frozen=True)
class Entry:
    """One kind of level in a dataset: ``count`` levels of one generator, size and options.

    Attributes:
        generator, width, height: what :func:`mazeplugin.generate` is called with.
        count: levels, made from seeds ``first_seed .. first_seed + count - 1``.
        shard_size: levels per shard (the last shard may hold fewer).
        reserve_seed: the first seed of the reserved range that replaces repeats under ``unique``.
        stats: whether shards keep every level's ``stats()`` figures (default True;
            False makes a build several times faster, see ``benchmarks/bench_dataset.py``).
        options: the other :func:`mazeplugin.generate` keywords, as JSON values.
        columns: the opt-in shard columns asked for (``"columns"``, see :mod:`mazeplugin.dataset.columns`),
            in shard order; empty for none (then the entry's canonical form and checksum leave them out).
        tokenizer: the ``"tokens"`` column's options, every default filled in (None without that column).
        image_scale: the ``"images"`` column's pixels a tile side (None without that column).
        filters: ``{stats field: (low, high)}`` (``"filters"``): a slot's level outside a range (either end
            None for open) is replaced like a level that cannot hold the content (see
            :func:`mazeplugin.dataset.shards.make_level`); None for none.
    """

    generator: str
    width: int
    height: int
    count: int
    first_seed: int = 0
    shard_size: int = DEFAULT_SHARD_SIZE
    reserve_seed: int = 1 << 63
    options: Mapping[str, Any] = field(default_factory=dict)
    stats: bool = True
    columns: Tuple[str, ...] = ()
    tokenizer: Optional[Mapping[str, Any]] = None
    image_scale: Optional[int] = None
    filters: Optional[Mapping[str, Tuple[Optional[float], Optional[float]]]] = None

    @property
    def shards(self) -> int:
        """How many shards the entry fills."""
        return -(-self.count // self.shard_size)

    def shard_slots(self, shard: int) -> range:
        """The positions (0-based, within the entry) of the levels in shard ``shard``."""
        start = shard * self.shard_size
        return range(start, min(start + self.shard_size, self.count))

    def kwargs(self) -> Dict[str, Any]:
        """The keywords for :func:`mazeplugin.generate` (everything but the seed)."""
        kwargs = {name: _arguments(name, value) for name, value in self.options.items()}
        return kwargs

    def as_dict(self) -> Dict[str, Any]:
        """The entry as plain JSON values, every default filled in (what the manifest records)."""
        head: Dict[str, Any] = {name: getattr(self, name) for name in _OWN_KEYS}
        if self.columns:  # only when asked: every spec without columns keeps its canonical form and checksum
            head["columns"] = list(self.columns)
        if self.tokenizer is not None:
            head["tokenizer"] = dict(self.tokenizer)
        if self.image_scale is not None:
            head["image_scale"] = self.image_scale
        if self.filters is not None:
            head["filters"] = {name: list(bounds) for name, bounds in sorted(self.filters.items())}
        head.update(sorted(self.options.items()))
        return head


@dataclass(frozen=True)
class Spec:
    """A whole dataset spec: its entries, in order."""

    entries: Tuple[Entry, ...]

    @property
    def levels(self) -> int:
        """Levels in the dataset (every entry's ``count``)."""
        return sum(entry.count for entry in self.entries)

    def as_dict(self) -> Dict[str, Any]:
        """``{"levels": [entry, ...]}`` with every default filled in: the spec's canonical form."""
        return {"levels": [entry.as_dict() for entry in self.entries]}

    def sha256(self) -> str:
        """A checksum of the canonical form: two specs that make the same dataset have the same one."""
        text = json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return hashlib.sha256(text.encode("ascii")).hexdigest()


def _arguments(name: str, value: Any) -> Any:
    """A JSON value as the argument generate() takes: lists become tuples, ``place`` objects become Places."""
    if name == "place":
        return tuple(mp.Place(**item) for item in value)
    if name == "mask":
        return list(value)
    return _tuples(value)


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value


def _plain(value: Any, where: str) -> Any:
    """A spec value checked to be plain JSON (TOML dates and such are refused)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise SpecError(f"{where} must be a finite number, got {value!r}")
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v, where) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v, f"{where}.{k}") for k, v in value.items()}
    raise SpecError(f"{where} must be a JSON value (number, text, list, object), got {type(value).__name__}")


def _int(where: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise SpecError(f"{where} must be an int, not {type(value).__name__}")
    number = int(value)
    if not low <= number <= high:
        raise SpecError(f"{where} must be an int from {low:,} to {high:,}, got {number}")
    return number


def _entry(raw: object, where: str) -> Entry:
    if not isinstance(raw, dict):
        raise SpecError(f"{where} must be an object (a table), not {type(raw).__name__}")
    missing = [key for key in ("generator", "width", "height", "count") if key not in raw]
    if missing:
        raise SpecError(f"{where}: missing {missing[0]!r}; an entry needs generator, width, height and count")
    if "seed" in raw:
        raise SpecError(f"{where}: 'seed' is not a dataset key; give 'first_seed' (the levels use count seeds from it)")
    generator = raw["generator"]
    names = [*mp.algorithms(), "dungeon"]  # (a dungeon: mp.generate("dungeon", ...), rooms laid out from a mission)
    if not isinstance(generator, str) or generator not in names:
        raise SpecError(f"{where}: unknown generator {generator!r}; choose one of {', '.join(names)}")
    width = _int(f"{where}: width", raw["width"], 1, mp.MAX_CELLS)
    height = _int(f"{where}: height", raw["height"], 1, mp.MAX_CELLS)
    if width * height > mp.MAX_CELLS:
        raise SpecError(f"{where}: width × height must be at most {mp.MAX_CELLS:,} cells, got {width * height:,}")
    count = _int(f"{where}: count", raw["count"], 1, MAX_LEVELS)
    first_seed = _int(f"{where}: first_seed", raw.get("first_seed", 0), 0, SEED_RANGE - 1)
    if first_seed + count > SEED_RANGE:
        raise SpecError(f"{where}: first_seed + count must be at most 2**64 (seeds are stored as uint64)")
    shard_size = _int(f"{where}: shard_size", raw.get("shard_size", DEFAULT_SHARD_SIZE), 1, MAX_SHARD_SIZE)
    reserve_seed = _int(f"{where}: reserve_seed", raw.get("reserve_seed", ((1 << 63) + first_seed) % SEED_RANGE),
                        0, SEED_RANGE - 1)
    if first_seed <= reserve_seed < first_seed + count:
        raise SpecError(f"{where}: reserve_seed {reserve_seed} lies inside the entry's own seeds "
                        f"{first_seed}..{first_seed + count - 1}; reserve a range after them")
    stats = raw.get("stats", True)
    if not isinstance(stats, bool):
        raise SpecError(f"{where}: stats must be true or false, got {stats!r}")
    columns: Tuple[str, ...] = ()
    if "columns" in raw:
        from .columns import check_columns

        try:
            columns = check_columns(raw["columns"], where)
        except ValueError as error:
            raise SpecError(str(error)) from None
        if columns and is_grid_options(raw):
            from .columns import check_grid_columns

            try:
                check_grid_columns(columns, "wrap" if raw.get("wrap") is not None else str(raw.get("grid")), where)
            except ValueError as error:
                raise SpecError(str(error)) from None
        elif columns and is_weave_options(raw) and {"moves", "actions"} & set(columns):
            raise SpecError(f"{where}: columns {', '.join(columns)} are for square tile levels"
                            " without weave (moves and actions do not walk over and under bridges)")
    tokenizer: Optional[Dict[str, Any]] = None
    if "tokens" in columns:
        from .columns import check_tokenizer

        try:
            tokenizer = check_tokenizer(raw.get("tokenizer", {}), where)
        except ValueError as error:
            raise SpecError(str(error)) from None
    elif "tokenizer" in raw:
        raise SpecError(f"{where}: tokenizer is for the \"tokens\" column; add \"tokens\" to columns")
    image_scale: Optional[int] = None
    if "images" in columns:
        from .columns import check_image_scale

        try:
            image_scale = check_image_scale(raw.get("image_scale", 1), where)
        except ValueError as error:
            raise SpecError(str(error)) from None
    elif "image_scale" in raw:
        raise SpecError(f"{where}: image_scale is for the \"images\" column; add \"images\" to columns")
    filters = _filters(raw["filters"], where) if "filters" in raw else None
    options = {str(k): _plain(v, f"{where}.{k}") for k, v in raw.items()
               if k not in _OWN_KEYS and k not in ("columns", "tokenizer", "image_scale", "filters")}
    if isinstance(options.get("mask"), str):
        raise SpecError(f"{where}: mask must be a list of strings in a spec (a file could change under the dataset)")
    return Entry(generator, width, height, count, first_seed, shard_size, reserve_seed, options, stats, columns, tokenizer, image_scale,
                 filters)


def _filters(raw: object, where: str) -> Dict[str, Tuple[Optional[float], Optional[float]]]:
    """A spec entry's ``"filters"``: ``{stats field: [low, high]}``, each end a number or null."""
    from .figures import STATS_FIELDS

    if not isinstance(raw, dict) or not raw:
        raise SpecError(f"{where}: filters must be an object of stats fields and [low, high] ranges, got {raw!r:.80}")
    out: Dict[str, Tuple[Optional[float], Optional[float]]] = {}
    for name, bounds in raw.items():
        if name not in STATS_FIELDS:
            raise SpecError(f"{where}: filters: unknown field {name!r}; filter by {', '.join(STATS_FIELDS)}")
        ok = isinstance(bounds, list) and len(bounds) == 2 and all(
            b is None or (isinstance(b, (int, float)) and not isinstance(b, bool) and math.isfinite(b)) for b in bounds)
        if not ok or (bounds[0] is not None and bounds[1] is not None and bounds[0] > bounds[1]):
            raise SpecError(f"{where}: filters.{name} must be [low, high] (numbers or null, low <= high), "
                            f"got {bounds!r:.80}")
        out[str(name)] = (bounds[0], bounds[1])
    return out


def passes(entry: Entry, level: Any) -> bool:
    """Whether ``level``'s ``stats()`` figures are inside every range of the entry's ``filters`` (True without)."""
    if not entry.filters:
        return True
    figures = level.stats()
    for name, (low, high) in entry.filters.items():
        value = getattr(figures, name)
        if value is None or (low is not None and value < low) or (high is not None and value > high):
            return False
    return True


def parse_spec(text: Union[str, bytes, Mapping[str, Any]], *, source: str = "<spec>", kind: str = "json",
               trial: bool = True) -> Spec:
    """A :class:`Spec` from JSON or TOML text (``kind``), or from an already-read mapping.

    Every entry is checked before any work: its own keys, and (``trial=True``)
    its first level is made, so an unknown option, content that cannot fit or
    a size over the limits fails here with :class:`SpecError` naming the entry.
    """
    if isinstance(text, Mapping):
        raw: Any = dict(text)
    else:
        if len(text) > MAX_SPEC_BYTES:
            raise SpecError(f"{source}: a spec is at most {MAX_SPEC_BYTES:,} bytes, this is {len(text):,}")
        if kind == "json":
            raw = parse_json(text, source, what="a dataset spec", error=SpecError)
        elif kind == "toml":
            loads = _toml_loads()
            try:
                raw = loads(text.decode("utf-8") if isinstance(text, bytes) else text)
            except (ValueError, UnicodeDecodeError) as error:
                raise SpecError(f"{source}: not valid TOML: {error}") from None
            except RecursionError:
                raise SpecError(f"{source}: not a dataset spec: lists or tables nested too deep to read") from None
        else:
            raise SpecError(f"kind must be 'json' or 'toml', got {kind!r}")
    if not isinstance(raw, dict):
        raise SpecError(f"{source}: a spec is an object (one entry, or {{\"levels\": [...]}}), not {type(raw).__name__}")
    if "levels" in raw:
        extra = sorted(set(raw) - {"levels"})
        if extra:
            raise SpecError(f"{source}: unknown key {extra[0]!r} beside 'levels'; put level keys inside each entry")
        entries_raw = raw["levels"]
        if not isinstance(entries_raw, list) or not entries_raw:
            raise SpecError(f"{source}: 'levels' must be a non-empty list of entries")
        if len(entries_raw) > MAX_ENTRIES:
            raise SpecError(f"{source}: at most {MAX_ENTRIES:,} entries, got {len(entries_raw):,}")
    else:
        entries_raw = [raw]
    entries = tuple(_entry(item, f"{source}: levels[{i}]") for i, item in enumerate(entries_raw))
    spec = Spec(entries)
    if spec.levels > MAX_LEVELS:
        raise SpecError(f"{source}: a dataset holds at most {MAX_LEVELS:,} levels, this spec asks for {spec.levels:,}")
    try:  # the manifest holds a record a shard: it must stay readable (mazeplugin.limits)
        check_dataset_shards(sum(entry.shards for entry in entries), spec.levels, MAX_SHARD_SIZE)
    except ValueError as error:
        raise SpecError(f"{source}: {error}") from None
    if trial:
        for i, entry in enumerate(entries):
            check_entry(entry, f"{source}: levels[{i}]")
    return spec


def _check_shard_tiles(entry: Entry, rows: int, columns: int, where: str) -> None:
    if entry.shard_size * rows * columns > MAX_SHARD_TILES:
        most = max(1, MAX_SHARD_TILES // (rows * columns))
        raise SpecError(f"{where}: shard_size {entry.shard_size:,} levels of {rows} × {columns} tiles is over "
                        f"{MAX_SHARD_TILES:,} tiles a shard; at most {most:,} levels a shard at this size")


def is_grid(entry: Entry) -> bool:
    """Whether ``entry`` makes :class:`~mazeplugin.Level` s (``grid=`` not square, or ``wrap=``)."""
    return entry.options.get("grid", "square") != "square" or entry.options.get("wrap") is not None


def is_grid_options(raw: Mapping[str, Any]) -> bool:
    """:func:`is_grid` of a raw spec entry."""
    return raw.get("grid", "square") != "square" or raw.get("wrap") is not None


def is_weave_options(raw: Mapping[str, Any]) -> bool:
    """:func:`is_weave` of a raw spec entry."""
    weave = raw.get("weave", False)
    return weave is not False and weave is not None and weave != 0


def is_weave(entry: Entry) -> bool:
    """Whether ``entry`` makes weave levels (``weave`` true or a share above 0): its shards keep their bridges.

    >>> spec = parse_spec('{"generator": "kruskal", "width": 5, "height": 5, "count": 1, "weave": 0.5}')
    >>> is_weave(spec.entries[0])
    True
    """
    weave = entry.options.get("weave", False)
    return weave is not False and weave is not None and weave != 0


def check_entry(entry: Entry, where: str) -> mp.AnyLevel:
    """Make the entry's first level (the spec's trial), and check a shard fits in memory; the level."""
    corridor, wall = entry.options.get("corridor", 1), entry.options.get("wall", 1)
    if all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in (corridor, wall)):
        # Before the trial: a shard too big to hold is refused without making a level.
        _check_shard_tiles(entry, entry.height * (corridor + wall) + wall, entry.width * (corridor + wall) + wall, where)
    try:
        kwargs = entry.kwargs()
        level: mp.AnyLevel = mp.generate(entry.generator, entry.width, entry.height,
                                                        seed=entry.first_seed, **kwargs)
    except (TypeError, ValueError) as error:
        raise SpecError(f"{where}: {error}") from None
    if entry.columns and (level.entrance is None or level.exit is None):
        raise SpecError(f"{where}: columns {', '.join(entry.columns)} need an entrance and an exit; "
                        "markers='none' makes levels without them")
    if level.kind != "square":  # grid= hex, triangle, polar or wrap=: its passages, one bool an edge
        graph = cast(Level, level)
        _check_shard_tiles(entry, 1, int(graph.maze.open.size), where)
        if entry.columns:
            from .columns import grid_level_columns

            try:
                grid_level_columns(graph, entry.columns)
            except ValueError as error:
                raise SpecError(f"{where}: columns: {error}") from None
    else:
        if entry.columns:
            from .columns import level_columns

            try:
                level_columns(cast(mp.Level, level), entry.columns, entry.tokenizer)
            except ValueError as error:
                raise SpecError(f"{where}: columns: {error}") from None
        rows, columns = level.tiles.shape
        _check_shard_tiles(entry, rows, columns, where)
    from .digest import digest

    try:
        digest(level)
    except TypeError as error:
        raise SpecError(f"{where}: {error}") from None
    return level


PER_LEVEL_OPTIONS = ("mission", "layout")
"""A dungeon level's recorded options that differ from level to level (its mission on the tiles, its rooms'
places): left out of the options an entry's levels share (:func:`level_options`), so a level read back from a
shard has its tiles, markers, keys and doors and level code, and ``level.mission`` None."""


def level_options(level: mp.AnyLevel) -> Dict[str, Any]:
    """The options ``level``'s file records that every level of its entry shares (the manifest's
    ``level_options``, which levels read back from shards carry): all of them, but a dungeon's
    :data:`PER_LEVEL_OPTIONS`.

    >>> spec = parse_spec('{"generator": "dungeon", "width": 20, "height": 20, "count": 1, "rooms": 8}')
    >>> level_options(check_entry(spec.entries[0], "<spec>"))
    {'dungeon': {'rooms': 8, 'locks': 1, 'pattern': 'mixed'}}
    """
    options: Dict[str, Any] = json.loads(level.to_json())["options"]
    if level.algorithm == "dungeon":
        options = {name: value for name, value in options.items() if name not in PER_LEVEL_OPTIONS}
    return options


def _toml_loads() -> Any:
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib.loads
    try:
        import tomli
    except ImportError:
        raise SpecError("a TOML spec needs Python 3.11 or newer, or `pip install tomli`; "
                        "a JSON spec works everywhere") from None
    return tomli.loads


def load_spec(path: PathLike, *, trial: bool = True) -> Spec:
    """Read a spec file: ``.toml`` as TOML, anything else as JSON (see :func:`parse_spec`)."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as f:
            data = f.read(MAX_SPEC_BYTES + 1)
    except OSError as error:
        raise SpecError(f"cannot read the spec {name}: {error.strerror or error}") from None
    kind = "toml" if name.lower().endswith(".toml") else "json"
    return parse_spec(data, source=name, kind=kind, trial=trial)
