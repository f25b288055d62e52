"""Which levels an environment plays: generator, size and options, checked once; a level per seed.

:class:`LevelSpec` is what the environments' constructors and
``reset(options=...)`` take. A level depends only on (seed, spec): the
environments make it with :func:`mazeplugin.generate`, and a seed whose level
cannot hold the content asked for (a maze with too few choke points for
``keys=3``) moves on to candidates derived from it by SHA-256, so every seed
still gives one level, the same in every process.

>>> spec = LevelSpec("kruskal", 4, 3)
>>> spec.shape          # tilemap rows, columns of the largest level
(7, 9)
>>> level = spec.make(7)
>>> level.seed, level.tiles.shape
(7, (7, 9))
>>> spec.replace({"width": 9})
Traceback (most recent call last):
...
ValueError: options width=9 makes levels of 19 columns, more than the environment's 9 (its width and height are the largest a reset may ask for)
"""

from __future__ import annotations

import hashlib
import numbers
from dataclasses import dataclass, field, replace
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, cast

import numpy as np
from numpy.typing import NDArray

from .. import Level, algorithms, generate, level_code, level_from_code
from ..codes import code_of
from ..content.lockbatch import LockPlan, place_locks_batch
from ..content.placing import with_content
from ..difficulty import check_require
from ..limits import check_size
from ..pipeline import Build
from ..pipeline_batch import LevelBatch, make_batch, why_not
from ..seeds import Seed, resolve_seed
from ..tiles import open_markers, passage_tiles
from .dungeons import DUNGEON, check_dungeon, moves_on
from .engine import DOOR, KEY, LOCK_COLOURS, LOCKED, MAX_LOCKS, Batch, Mark

__all__ = ["LevelSpec", "LevelArrays", "OPTION_NAMES", "NO_WEAVE", "candidate_seeds", "level_digest"]

OPTION_NAMES = ("generator", "width", "height", "braid", "rooms", "keys", "mask", "require", "corridor", "wall", "options")
"""What ``reset(options=...)`` may change, besides ``level_code``."""

NO_WEAVE = ("the environments cannot play weave levels yet: their engine has no bridges, so every crossing "
            "would be a junction and the agent would find shorter ways than the level allows; "
            "leave weave out (play weave levels with mazeplugin.Level.step)")
"""Why a weave level is refused, in every error that refuses one."""

CANDIDATES = 64
"""How many seeds a level seed tries before its content is declared impossible."""


def candidate_seeds(seed: int) -> Sequence[int]:
    """The level seeds tried for ``seed``, in order: ``seed`` itself, then SHA-256-derived ones.

    >>> candidate_seeds(7)[:1], len(candidate_seeds(7))
    ([7], 64)
    """
    return list(_candidates(seed))


def _candidates(seed: int) -> Iterator[int]:
    """:func:`candidate_seeds`, one at a time: most seeds need only the first, so the hashes are made only when needed."""
    yield seed
    for k in range(1, CANDIDATES):
        yield int.from_bytes(hashlib.sha256(f"mazeplugin.gym/{seed}/{k}".encode()).digest()[:8], "big") >> 1


def level_digest(level: Level) -> str:
    """A digest of what a player meets: tiles, entrance, exit and things (not the seed or generator).

    Two seeds that make the same maze have the same digest: a test set whose
    digests are not among the training set's shares no level with it.

    >>> import mazeplugin as mp
    >>> a, b = mp.generate("kruskal", 3, 3, seed=1), mp.generate("kruskal", 3, 3, seed=2)
    >>> len(level_digest(a)), level_digest(a) == level_digest(mp.generate("kruskal", 3, 3, seed=1))
    (32, True)
    """
    h = hashlib.blake2b(digest_size=16)
    h.update(repr((level.tiles.shape, level.entrance, level.exit)).encode())
    h.update(level.tiles.tobytes())
    h.update(repr([(t.kind, t.x, t.y, sorted(t.props.items())) for t in level.things]).encode())
    return h.hexdigest()


def _generator_options(options: Mapping[str, Any]) -> Dict[str, Any]:
    """``options`` as keywords for the generator, refusing generate()'s own argument names (``{"seed": 3}``)."""
    import inspect

    arguments = set(inspect.signature(generate).parameters) - {"options"}  # generate()'s own keywords
    own = sorted(name for name in options if name in arguments and name != "weave")  # weave: refused on its own
    if own:
        where = "reset(seed=...)" if own[0] == "seed" else f"the environment's {own[0]}= argument"
        raise ValueError(f"options holds the generator's own options; {own[0]!r} is not one of them (use {where})")
    return dict(options)


def _positive(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or int(value) < 1:
        raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
    return int(value)


@dataclass(frozen=True)
class LevelSpec:
    """The levels an environment makes: :func:`mazeplugin.generate`'s arguments, checked.

    Args:
        generator: a registered generator name (``mp.algorithms()``), or ``"dungeon"``: a dungeon laid
            out from a mission, ``rooms`` its rooms and ``options`` its ``locks``, ``pattern``, ... (see
            :mod:`mazeplugin.gym.dungeons`).
        width, height: the size in cells; per-reset options may ask for up to this size.
        braid, rooms, keys, mask, require, corridor, wall: as for :func:`mazeplugin.generate`
            (``keys`` at most :data:`~mazeplugin.gym.engine.MAX_LOCKS`, one MiniGrid colour each).
        options: the generator's own options (``{"bias": "northwest"}``).
    """

    generator: str = "backtracker"
    width: int = 9
    height: int = 9
    braid: float = 0.0
    rooms: Any = None
    keys: int = 0
    mask: Any = None
    require: Optional[Mapping[str, Any]] = None
    corridor: int = 1
    wall: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.generator, str) or self.generator not in (*algorithms(), DUNGEON):
            raise ValueError(f"generator must be one of {', '.join((*algorithms(), DUNGEON))}; got {self.generator!r}")
        if self.generator == DUNGEON:
            self._check_dungeon()
            return
        for name in ("width", "height", "corridor", "wall"):
            object.__setattr__(self, name, _positive(name, getattr(self, name)))
        if isinstance(self.keys, bool) or not isinstance(self.keys, numbers.Integral) or not 0 <= self.keys <= MAX_LOCKS:
            raise ValueError(f"keys must be a whole number from 0 to {MAX_LOCKS} (MiniGrid has six colours), got {self.keys!r}")
        if not isinstance(self.options, Mapping):
            raise TypeError(f"options must be a dict of generator options, not {type(self.options).__name__}")
        if self.options.get("weave", False) not in (False, 0):
            raise ValueError(f"options={{'weave': {self.options['weave']!r}}}: {NO_WEAVE}")
        # The rest as generate checks them, once here: make() moves on to other candidates when a level
        # cannot hold its content, and must not take a bad argument (braid=2) for that.
        Build.checked(self.generator, self.width, self.height, seed=0, corridor=self.corridor, wall=self.wall,
                      braid=self.braid, mask=self.mask, rooms=self.rooms, keys=self.keys, **_generator_options(self.options))
        if self.require is not None:
            check_require(self.require)

    def _check_dungeon(self) -> None:
        """:meth:`__post_init__` of a dungeon spec (:func:`mazeplugin.gym.dungeons.check_dungeon`)."""
        for name in ("width", "height"):
            object.__setattr__(self, name, _positive(name, getattr(self, name)))
        if not isinstance(self.options, Mapping):
            raise TypeError(f"options must be a dict of the dungeon's options, not {type(self.options).__name__}")
        refused: Dict[str, Any] = {name: value for name, value, default in (
            ("keys", self.keys, 0), ("braid", self.braid, 0), ("corridor", self.corridor, 1), ("wall", self.wall, 1))
            if isinstance(value, bool) or value != default}
        refused.update({name: value for name, value in (("mask", self.mask), ("require", self.require))
                        if value is not None})
        check_dungeon(self.rooms, self.options, refused)
        check_size(self.width, self.height)  # as generate("dungeon", ...) checks it

    @property
    def shape(self) -> Tuple[int, int]:
        """``(rows, columns)`` of this spec's tilemaps."""
        step = self.corridor + self.wall
        return (self.height * step + self.wall, self.width * step + self.wall)

    def replace(self, changes: Mapping[str, Any], *, within: Optional[Tuple[int, int]] = None) -> "LevelSpec":
        """This spec with ``changes`` (``reset(options=...)``): unknown names and levels larger than ``within`` refused."""
        unknown = sorted(set(changes) - set(OPTION_NAMES))
        if unknown:
            raise ValueError(
                f"unknown reset option {unknown[0]!r}; allowed: {', '.join(OPTION_NAMES)}, level_code"
            )
        spec = replace(self, **dict(changes)) if changes else self
        rows, columns = spec.shape
        limit = within if within is not None else self.shape
        if rows > limit[0] or columns > limit[1]:
            asked = ", ".join(f"{k}={v!r}" for k, v in changes.items())
            what, have, cap = ("rows", rows, limit[0]) if rows > limit[0] else ("columns", columns, limit[1])
            raise ValueError(
                f"options {asked} makes levels of {have} {what}, more than the environment's {cap} "
                "(its width and height are the largest a reset may ask for)"
            )
        return spec

    def make(self, seed: int) -> Level:
        """The level of ``seed``: the first of :func:`candidate_seeds` whose level holds the content asked for.

        Its ``level.seed`` is the candidate used, so ``generate`` with that
        seed (or its level code) makes it again. A seed ``generate`` refuses is
        refused here too (not taken for a level whose content does not fit).
        """
        resolve_seed(seed)  # TypeError/ValueError naming the seed (-1, 1.5, ...)
        last: Optional[ValueError] = None
        for candidate in _candidates(seed):
            try:
                level: Level = generate(  # a square level (no grid= here): a Level
                    self.generator, self.width, self.height, seed=candidate, braid=self.braid,
                    rooms=self.rooms, keys=self.keys, mask=self.mask, require=self.require,
                    corridor=self.corridor, wall=self.wall, **dict(self.options),
                )
                return level
            except ValueError as error:  # content that does not fit this maze: the next candidate
                if not moves_on(error) if self.generator == DUNGEON else self.keys == 0 and self.rooms is None:
                    raise
                last = error
        assert last is not None
        raise ValueError(f"no level for seed {seed} among {CANDIDATES} candidates: {last}") from last

    def make_many(self, seeds: Sequence[int]) -> List[Level]:
        """``[self.make(seed) for seed in seeds]``, the levels made in batches where the batched lane takes them.

        See :meth:`make_arrays`, which this wraps (an environment loads its arrays without ``Level`` objects).

        >>> spec = LevelSpec("backtracker", 7, 7, keys=2)
        >>> [level_digest(level) for level in spec.make_many([5, 6])] == [level_digest(spec.make(s)) for s in (5, 6)]
        True
        """
        made = self.make_arrays(seeds)
        return [made.level(i) for i in range(len(made))]

    def make_arrays(self, seeds: Sequence[int]) -> "LevelArrays":
        """The levels of ``seeds`` (those :meth:`make` makes), as arrays where they were made in a batch.

        A spec without mask, rooms, braid, ``require`` or generator options, of a
        generator with a batch kernel (:data:`mazeplugin.pipeline_batch.BATCH_GENERATORS`),
        on the compiled path: every seed's maze is carved in one call
        (:func:`mazeplugin.pipeline_batch.make_batch`) and its keys placed in one
        more (:func:`mazeplugin.content.lockbatch.place_locks_batch`); the seeds
        whose maze cannot hold the keys move on to their next candidate together,
        a batch again. Any other spec, or seeds beyond ``0 … 2**63 - 1``, are made one by one.
        """
        seeds = list(seeds)
        made = LevelArrays(self, seeds)
        build = self._batch_build() if seeds and all(type(s) is int and 0 <= s < 2**63 for s in seeds) else None
        tries = [_candidates(seed) for seed in seeds]
        current = [next(t) for t in tries]
        pending = list(range(len(seeds))) if build is not None else []
        for _ in range(CANDIDATES):
            if build is None or not pending:
                break
            batch = make_batch(build, [current[i] for i in pending])
            plan = None
            if self.keys:
                assert batch.entrance is not None and batch.exit is not None  # border markers
                base = batch.tiles if batch.layout.is_unit else open_markers(passage_tiles(batch.east, batch.south),
                                                                             batch.openings)
                plan = place_locks_batch(base, batch.layout, batch.entrance, batch.exit, batch.seeds, self.keys)
                if plan is None:  # the locks kernel is not loaded (yet): one by one below, the same levels
                    break
            placed = [True] * len(pending) if plan is None else plan.placed.tolist()
            made.add(batch, plan, [i for i, ok in zip(pending, placed) if ok], [j for j, ok in enumerate(placed) if ok])
            failed = [i for i, ok in zip(pending, placed) if not ok]
            for i in failed:
                current[i] = next(tries[i], -1)
            pending = [i for i in failed if current[i] >= 0]  # (a seed out of candidates: its error below)
        for i in range(len(seeds)):  # what the batches did not make, and the errors of seeds without a level
            if not made.batched[i]:
                level = made.levels[i] = self.make(seeds[i])
                if level.seed is not None:  # (generate records every seed)
                    made.seeds[i] = level.seed
        return made

    def __getstate__(self) -> Dict[str, Any]:
        """The fields (a pickled spec leaves its kept batch request and code pattern behind: made again when first needed)."""
        return {name: value for name, value in self.__dict__.items() if name not in ("_build", "_code")}

    def _batch_build(self) -> Optional[Build]:
        """The checked request of this spec's levels when the batched lane takes it (kept), else None."""
        if (self.mask is not None or self.rooms is not None or self.braid or self.require is not None or self.options
                or self.generator == DUNGEON):  # (a dungeon: made one by one)
            return None
        cached: Optional[Tuple[Build]] = self.__dict__.get("_build")
        if cached is None:
            build = Build.checked(self.generator, self.width, self.height, seed=0, corridor=self.corridor,
                                  wall=self.wall)
            cached = (build,)
            object.__setattr__(self, "_build", cached)  # frozen: a cache beside the fields, not one of them
        build = cached[0]
        return build if why_not(build) is None else None


class LevelArrays:
    """The levels of one :class:`LevelSpec` for many seeds (:meth:`LevelSpec.make_arrays`).

    Level ``i`` was made either in a batch (``batched[i]``): its tiles are
    ``tiles[i]``, its markers ``entrance`` and ``exit`` (one pair for the
    batch), its keys on ``key_tiles[i]`` and its doors on the blocks
    ``door_blocks[i]`` (``(x0, y0, x1, y1)``, lock ``k + 1`` at ``[i, k]``); or
    one by one (``levels[i]``, a :class:`~mazeplugin.level.Level`).
    ``seeds[i]`` is the level seed used (a candidate of the seed asked for).
    :meth:`level` gives either as the ``Level`` that :meth:`LevelSpec.make` makes.
    """

    def __init__(self, spec: LevelSpec, seeds: Sequence[int]) -> None:
        n = len(seeds)
        self.spec = spec
        self.keys: int = spec.keys
        self.seeds: List[Seed] = list(seeds)
        self.batched: List[bool] = [False] * n
        self.levels: List[Optional[Level]] = [None] * n
        self.tiles: NDArray[np.uint8] = np.zeros((n, *spec.shape), dtype=np.uint8)
        self.entrance: Tuple[int, int] = (0, 0)
        self.exit: Tuple[int, int] = (0, 0)
        self.key_tiles: NDArray[np.int64] = np.zeros((n, spec.keys, 2), dtype=np.int64)
        self.door_blocks: NDArray[np.int64] = np.zeros((n, spec.keys, 4), dtype=np.int64)
        self._made_by: Dict[int, Tuple[LevelBatch, Optional[LockPlan], int]] = {}

    def __len__(self) -> int:
        return len(self.seeds)

    def add(self, batch: LevelBatch, plan: Optional[LockPlan], which: List[int], rows: List[int]) -> None:
        """Levels ``which`` are rows ``rows`` of ``batch`` (and of ``plan``, their locks)."""
        if not which:
            return
        assert batch.entrance is not None and batch.exit is not None
        self.entrance, self.exit = batch.entrance, batch.exit
        at, picked = np.asarray(which), np.asarray(rows)
        self.tiles[at] = batch.tiles[picked]
        if plan is not None:
            self.key_tiles[at] = plan.key_tiles()[picked]
            self.door_blocks[at] = plan.door_blocks()[picked]
        for i, j in zip(which, rows):
            self.batched[i] = True
            self.seeds[i] = int(batch.seeds[j])  # (the lane takes int seeds only)
            self._made_by[i] = (batch, plan, j)

    def has_keys(self, index: int) -> bool:
        """Whether level ``index`` holds keys (its mission names them), without making its ``Level``."""
        level = self.levels[index]
        return self.keys > 0 if level is None else any(t.kind == "key" for t in level.things)

    def level(self, index: int) -> Level:
        """Level ``index`` as the :class:`~mazeplugin.level.Level` :meth:`LevelSpec.make` makes."""
        made = self.levels[index]
        if made is not None:
            return made
        batch, plan, row = self._made_by[index]
        level = batch.level(row)
        if plan is None:
            return level
        return with_content(level, plan.things(row), self.keys, 0, 0, ())

    def code(self, index: int) -> Optional[str]:
        """Level ``index``'s level code, ``mazeplugin.level_code(self.level(index))``, or None where it has none.

        A level made in a batch gets it without its ``Level``: the levels of one
        spec's batches differ only in their int seed (their algorithm, size and
        recorded options are the spec's, their things ``keys`` keys and doors), and
        ``code_of`` writes the seed in one place, so the spec keeps the text on
        either side of the seed, taken once from a level's own code (the argument
        :meth:`LevelBatch.codes <mazeplugin.pipeline_batch.LevelBatch.codes>` makes).

        >>> spec = LevelSpec("backtracker", 7, 7, keys=2)
        >>> made = spec.make_arrays([5, 6])
        >>> [made.code(i) for i in range(2)] == [level_code(spec.make(seed)) for seed in (5, 6)]
        True
        >>> made.code(0).endswith("+k2")
        True
        """
        made = self.levels[index]
        if made is not None:
            try:
                return level_code(made)
            except ValueError:
                return None
        seed = self.seeds[index]
        pattern: Optional[Tuple[Optional[Tuple[str, str]]]] = self.spec.__dict__.get("_code")
        if pattern is None:
            batch, plan, row = self._made_by[index]
            options = dict(batch.options, keys=self.keys) if self.keys else batch.options
            things = plan.things(row) if plan is not None else ()
            try:
                code = code_of(batch.algorithm, batch.layout.width, batch.layout.height, seed, options, things)
            except ValueError:
                try:  # no code for this seed (cannot happen for an int) or for none (options a code cannot hold)?
                    code_of(batch.algorithm, batch.layout.width, batch.layout.height, 0, options, things)
                except ValueError:
                    object.__setattr__(self.spec, "_code", (None,))
                return None
            head = f"{batch.algorithm}-{batch.layout.width}x{batch.layout.height}-{seed}"
            if not code.startswith(head):  # a code written otherwise than this reads it: no pattern, this code
                return code
            pattern = ((head[:len(head) - len(str(seed))], code[len(head):]),)
            object.__setattr__(self.spec, "_code", pattern)  # frozen: a cache beside the fields, as _build
        if pattern[0] is None:
            return None
        return f"{pattern[0][0]}{seed}{pattern[0][1]}"

    def load_into(self, batch: Batch, slots: Sequence[int]) -> None:
        """Level ``j`` into slot ``slots[j]`` of ``batch``, as ``batch.load(slots[j], self.level(j))`` puts it.

        A level made in a batch goes in by :meth:`Batch.place <mazeplugin.gym.engine.Batch.place>`, the
        work of ``load``, from the arrays (no ``Level`` made); the others by ``load``.
        """
        keys, blocks = self.key_tiles.tolist(), self.door_blocks.tolist()
        for j, slot in enumerate(slots):
            level = self.levels[j]
            if level is not None:
                batch.load(slot, level)
                continue
            marks: List[Mark] = []
            for k, ((x, y), (x0, y0, x1, y1)) in enumerate(zip(keys[j], blocks[j])):
                colour = LOCK_COLOURS[k]  # lock k + 1
                marks.append(((KEY, colour, 0, 0), ((x, y),)))
                marks.append(((DOOR, colour, LOCKED, 0), [(u, v) for v in range(y0, y1) for u in range(x0, x1)]))
            batch.place(slot, self.tiles[j], self.entrance, self.exit, marks)


def level_from_options(spec: LevelSpec, options: Optional[Mapping[str, Any]], within: Tuple[int, int]) -> Tuple[LevelSpec, Optional[Level]]:
    """The spec a reset plays and, for ``options={"level_code": ...}``, the level itself."""
    if options is None:
        return spec, None
    if not isinstance(options, Mapping):
        raise TypeError(f"reset options must be a dict, not {type(options).__name__}")
    changes: Dict[str, Any] = dict(options)
    code = changes.pop("level_code", None)
    spec = spec.replace(changes, within=within)
    if code is None:
        return spec, None
    if not isinstance(code, str):
        raise TypeError(f"level_code must be a str such as 'kruskal-9x9-7', not {type(code).__name__}")
    level = level_from_code(code)
    if level.kind != "square":  # hex, triangle, polar and wrapping codes: the environments play square levels
        raise ValueError(f"level_code {code!r} names a {level.grid} level{' that wraps' * ('wrap' in level.options)}; "
                         "the environments play square levels")
    if level.weave:
        raise ValueError(f"level_code {code!r} is a weave level ('+w'): {NO_WEAVE}")
    if any(t.kind == "drop" and "direction" in t.props for t in level.things):
        raise ValueError(f"level_code {code!r} has one-way drops ('d'), which the environments do not play yet (their "
                         "agent would walk back up a drop): give the dungeon's code without 'd'")
    rows, columns = level.tiles.shape
    if rows > within[0] or columns > within[1]:
        raise ValueError(f"level_code {code!r} makes a level of {columns} x {rows} tiles, larger than the environment's {within[1]} x {within[0]}")
    if len([t for t in level.things if t.kind == "door"]) > MAX_LOCKS:
        raise ValueError(f"level_code {code!r} has more than {MAX_LOCKS} locks")
    return spec, cast(Level, level)
