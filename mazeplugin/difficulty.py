"""Levels chosen by their figures: ``generate(..., require={...}, attempts=...)``.

``require`` maps fields of :class:`~mazeplugin.analysis.Stats` to
``(low, high)`` bounds, either end ``None`` for open (``(120, None)``: at
least 120). Candidate levels are made from seeds derived from the given seed
in a fixed order (random stream 5 of the seed, drawn as ints below 2**32),
and the first candidate whose ``stats()`` meet every bound is returned. Its
``level.seed`` is that derived seed, so its level code makes it again without
``require``. The k-th candidate does not depend on ``attempts``: asking for
more attempts only looks further along the same order.

When no candidate meets the bounds within ``attempts``, a ``ValueError``
reports the *closest* one: the candidate with the smallest total shortfall,
each field's shortfall being how far its value lies outside its bounds
divided by the bound it missed (at least 1), so misses on different fields
add up on one scale; a field with no value (no solution) misses by 1. Ties
go to the earlier candidate.

The difficulty figures (``decision_points``, ``detour_ratio``, ``turns``)
and their source are described in :mod:`mazeplugin.analysis`.

>>> import mazeplugin as mp
>>> level = mp.generate("backtracker", 12, 8, seed=7, require={"solution_length": (40, None)})
>>> level.stats().solution_length >= 40
True
>>> again = mp.generate(*mp.parse_level_code(mp.level_code(level))[:3], seed=level.seed)
>>> again.tiles.tobytes() == level.tiles.tobytes()
True
>>> mp.generate("kruskal", 8, 8, seed=1, require={"dead_ends": (0, 0)}, attempts=5)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: no candidate among 5 met require={'dead_ends': (0, 0)}; closest: seed 2405993409 (level code kruskal-8x8-2405993409) with dead_ends=17 (wanted exactly 0); searched 5 candidates in ... s
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import time
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, Protocol, Tuple, TypeVar

from .analysis import Stats
from .codes import level_code
from .level_protocol import AnyLevel
from .limits import check_require_work
from .seeds import Random, Seed

__all__ = [
    "FIELDS", "MAX_ATTEMPTS", "DEFAULT_ATTEMPTS", "Bounds",
    "check_require", "check_attempts", "search_attempts", "check_markers", "candidate_seeds", "shortfall", "choose",
]

Bounds = Tuple[Optional[float], Optional[float]]

FIELDS: Tuple[str, ...] = tuple(field.name for field in dataclasses.fields(Stats))
"""The :class:`~mazeplugin.analysis.Stats` fields ``require`` may bound."""

NEEDS_MARKERS = ("solution_length", "decision_points", "detour_ratio", "turns")
"""Fields that have a value only when the level has an entrance and an exit."""

MAX_ATTEMPTS = 10_000
"""Most candidates one ``generate(..., require=...)`` call may try."""

DEFAULT_ATTEMPTS = 200

_CANDIDATE_STREAM = 5  # reserved for require= candidates (see api.py)
_SEED_LIMIT = 1 << 32  # candidate seeds are ints in [0, 2**32): short level codes


def check_require(require: object) -> Dict[str, Bounds]:
    """``require`` as ``{field: (low, high)}`` with float-or-None ends, or a clear error.

    >>> check_require({"solution_length": (120, None), "dead_end_fraction": [None, 0.12]})
    {'solution_length': (120, None), 'dead_end_fraction': (None, 0.12)}
    >>> check_require({"length": (1, 2)})
    Traceback (most recent call last):
    ...
    ValueError: require: unknown field 'length'; fields of stats() that can be required: cells, passages, dead_ends, dead_end_fraction, junctions, loops, longest_path, solution_length, decision_points, detour_ratio, turns
    """
    if not isinstance(require, Mapping):
        raise TypeError(
            f"require must be a dict of stats() fields to (low, high) bounds, not {type(require).__name__}"
        )
    if not require:
        raise ValueError("require is empty: give at least one stats() field and its (low, high) bounds")
    checked: Dict[str, Bounds] = {}
    for name, bounds in require.items():
        if name not in FIELDS:
            raise ValueError(
                f"require: unknown field {name!r}; fields of stats() that can be required: {', '.join(FIELDS)}"
            )
        if isinstance(bounds, (str, bytes)) or not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
            raise TypeError(
                f"require[{name!r}] must be a (low, high) pair, None for an open end, e.g. (120, None); "
                f"got {bounds!r}"
            )
        ends: list[Optional[float]] = []
        for end in bounds:
            if end is not None and (isinstance(end, bool) or not isinstance(end, numbers.Real)):
                raise TypeError(f"require[{name!r}]: bounds must be numbers or None, got {end!r}")
            if end is not None and not math.isfinite(end):
                raise ValueError(f"require[{name!r}]: bounds must be finite numbers or None, got {end!r}")
            ends.append(None if end is None else int(end) if isinstance(end, numbers.Integral) else float(end))
        low, high = ends
        if low is not None and high is not None and low > high:
            raise ValueError(f"require[{name!r}]: low {low!r} is above high {high!r}; nothing can meet it")
        checked[name] = (low, high)
    return checked


def check_attempts(attempts: object) -> int:
    """``attempts`` as an int in ``1..MAX_ATTEMPTS``, or a clear error."""
    if isinstance(attempts, bool) or not isinstance(attempts, numbers.Integral):
        raise TypeError(f"attempts must be an int, not {type(attempts).__name__}")
    count = int(attempts)
    if not 1 <= count <= MAX_ATTEMPTS:
        raise ValueError(f"attempts must be 1..{MAX_ATTEMPTS:,} (candidate levels to try), got {count}")
    return count


def search_attempts(attempts: object, width: object, height: object) -> int:
    """The candidates a ``require=`` search tries: ``attempts`` checked (None: the default) and bounded by the
    cells they would make (:func:`mazeplugin.limits.check_require_work`), before the first is made."""
    given = None if attempts is None else check_attempts(attempts)
    sizes = [int(n) for n in (width, height) if isinstance(n, numbers.Integral) and not isinstance(n, bool) and int(n) >= 1]
    if len(sizes) < 2:
        return DEFAULT_ATTEMPTS if given is None else given  # a bad size: generate's own check names it
    return check_require_work(given, sizes[0] * sizes[1], DEFAULT_ATTEMPTS)


def candidate_seeds(seed: Seed) -> Iterator[int]:
    """The derived seeds ``require=`` tries, in order, forever: ints in ``[0, 2**32)``.

    >>> from itertools import islice
    >>> list(islice(candidate_seeds(7), 3)) == list(islice(candidate_seeds(7), 3))
    True
    """
    rng = Random.streams(seed, _CANDIDATE_STREAM + 1)[_CANDIDATE_STREAM]
    while True:
        yield from rng.integers(_SEED_LIMIT, 64).tolist()


def shortfall(stats: Stats, require: Mapping[str, Bounds]) -> float:
    """How far ``stats`` lies outside ``require``: 0 when every bound is met (see the module docstring).

    >>> s = Stats(4, 3, 2, 0.5, 0, 0, 3, 3)
    >>> shortfall(s, {"dead_ends": (None, 1)}), shortfall(s, {"solution_length": (6, None)})
    (1.0, 0.5)
    """
    total = 0.0
    for name, (low, high) in require.items():
        value = getattr(stats, name)
        if value is None:
            total += 1.0
        elif low is not None and value < low:
            total += (low - value) / max(abs(low), 1)
        elif high is not None and value > high:
            total += (value - high) / max(abs(high), 1)
    return total


class Candidate(Protocol):
    """What :func:`choose` asks of a level: its seed and its stats (any ``Level``)."""

    @property
    def seed(self) -> Optional[Seed]: ...

    def stats(self) -> Stats: ...


L = TypeVar("L", bound=Candidate)


def choose(
    make: Callable[[int], L],
    seed: Seed,
    require: Mapping[str, Bounds],
    attempts: int,
    *,
    progress: Optional[Callable[[int, int], None]] = None,
    unfit: bool = False,
) -> L:
    """The first level ``make(candidate seed)`` whose stats meet ``require``, or a ValueError naming the closest.

    ``progress``, when given, is called as ``progress(tried, attempts)`` after
    each candidate is measured (``tried`` counts from 1), so a long search can
    show how far it is; it does not change which level is chosen. The error
    says how many candidates were tried and how long the search took. With
    ``unfit=True`` a candidate whose ``make`` raises ``ValueError`` (its level
    cannot hold the content asked for) counts as one that missed, and the error
    says how many did (the arguments themselves must be checked before).

    >>> import mazeplugin as mp
    >>> seen = []
    >>> level = choose(lambda s: mp.generate("kruskal", 6, 5, seed=s), 3,
    ...                {"dead_ends": (0, 100)}, 10, progress=lambda done, total: seen.append((done, total)))
    >>> seen
    [(1, 10)]
    """
    started = time.perf_counter()  # reported in the error only; never decides anything
    best: Optional[Tuple[float, L, Stats]] = None
    unmade: Optional[ValueError] = None
    failed = 0
    for tried, candidate in zip(range(1, attempts + 1), candidate_seeds(seed)):
        try:
            level = make(candidate)
        except ValueError as error:
            if not unfit:
                raise
            failed += 1  # its level cannot hold the content (keys, treasure, ...): a candidate that missed
            unmade = unmade or error
            if progress is not None:
                progress(tried, attempts)
            continue
        stats = level.stats()
        miss = shortfall(stats, require)
        if progress is not None:
            progress(tried, attempts)
        if miss == 0:
            return level
        if best is None or miss < best[0]:
            best = (miss, level, stats)
    took = f"searched {attempts} candidates in {time.perf_counter() - started:.2f} s"
    if best is None:
        raise ValueError(f"no candidate among {attempts} met require={dict(require)!r}: none of them could be made "
                         f"with these options (the first: {unmade}); {took}")
    unmade_text = (f"; {failed} of the candidates could not be made with these options (the first: {unmade})"
                   if failed else "")
    _, level, stats = best
    wanted = "; ".join(_miss_text(name, bounds, getattr(stats, name)) for name, bounds in require.items()
                       if shortfall(stats, {name: bounds}))
    name = "with the same options"
    if isinstance(level, AnyLevel):  # any grid's level (a stand-in a caller made has no code)
        try:
            name = f"level code {level_code(level)}"
        except ValueError:  # options, markers or widths a code cannot hold
            pass
    raise ValueError(
        f"no candidate among {attempts} met require={dict(require)!r}; closest: seed {level.seed} "
        f"({name}) with {wanted}{unmade_text}; {took}"
    )


def _miss_text(name: str, bounds: Bounds, value: Any) -> str:
    low, high = bounds
    if low is not None and low == high:
        want = f"exactly {low}"
    elif low is not None and high is not None:
        want = f"{low}..{high}"
    elif low is not None:
        want = f"at least {low}"
    else:
        want = f"at most {high}"
    shown = f"{value:.3g}" if isinstance(value, float) else repr(value)
    return f"{name}={shown} (wanted {want})"


def check_markers(require: Mapping[str, Bounds], markers: object) -> None:
    """A clear error when ``require`` bounds a solution figure of a level without markers."""
    if isinstance(markers, str) and markers == "none":
        needed = [name for name in require if name in NEEDS_MARKERS]
        if needed:
            raise ValueError(
                f"require bounds {', '.join(needed)}, which need an entrance and an exit, "
                "but markers='none'; use markers='border', 'farthest', 'random' or two tiles"
            )



