"""Curricula by measured difficulty, and train/test splits by seed that share no level.

:class:`Curriculum` holds stages of level options, easiest first, and moves
to the next stage when the agent's success rate over the last episodes
reaches ``promote_at`` (and back when it falls under ``demote_at``).
:class:`CurriculumWrapper` plays it on any :class:`~mazeplugin.gym.MazeEnv`.

:class:`SeedSplit` splits level seeds into disjoint training and test
ranges; since two seeds may make the same small maze, ``test_seeds`` drops
every test seed whose level (by :func:`~mazeplugin.gym.level_digest`) also
appears in training, and :func:`duplicate_rate` says how often that happens.

>>> curriculum = Curriculum.by_difficulty(sizes=(4, 6), keys=(0, 1), window=4)
>>> curriculum.options
{'width': 4, 'height': 4, 'keys': 0}
>>> for success in (True, True, True, True):
...     moved = curriculum.record(success)
>>> curriculum.stage, curriculum.options
(1, {'width': 4, 'height': 4, 'keys': 1})
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections import deque
from typing import Any, Deque, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import gymnasium

from ..limits import MAX_SPLIT_LEVELS, check_level_count
from .levels import LevelSpec, level_digest, level_from_options

__all__ = ["Curriculum", "CurriculumWrapper", "SeedSplit", "duplicate_rate"]


class Curriculum:
    """Stages of ``reset`` options, easiest first, moved along by the agent's success rate.

    Args:
        stages: one dict of reset options per stage (see :class:`~mazeplugin.gym.MazeEnv`).
        promote_at: move on once the success rate over the last ``window`` episodes reaches this.
        demote_at: move back when it falls below this (None: never back).
        window: episodes the rate is measured over; it restarts at each move.
    """

    def __init__(self, stages: Sequence[Mapping[str, Any]], *, promote_at: float = 0.8, demote_at: Optional[float] = None, window: int = 100) -> None:
        if not stages:
            raise ValueError("stages must hold at least one dict of reset options")
        if not all(isinstance(stage, Mapping) for stage in stages):
            raise TypeError("every stage must be a dict of reset options")
        if not 0 < promote_at <= 1:
            raise ValueError(f"promote_at must be a success rate in (0, 1], got {promote_at!r}")
        if demote_at is not None and not 0 <= demote_at < promote_at:
            raise ValueError(f"demote_at must be a success rate below promote_at, got {demote_at!r}")
        if isinstance(window, bool) or not isinstance(window, numbers.Integral) or window < 1:
            raise ValueError(f"window must be a whole number of episodes >= 1, got {window!r}")
        self.stages: List[Dict[str, Any]] = [dict(stage) for stage in stages]
        self.promote_at: float = promote_at
        self.demote_at: Optional[float] = demote_at
        self.window: int = int(window)
        self.stage: int = 0
        self._results: Deque[bool] = deque(maxlen=self.window)

    @classmethod
    def by_difficulty(
        cls,
        *,
        sizes: Sequence[int] = (5, 7, 9, 11, 13),
        keys: Sequence[int] = (0, 1, 2),
        decision_points: Optional[Sequence[Optional[int]]] = None,
        detour_ratio: Optional[Sequence[Optional[float]]] = None,
        **kwargs: Any,
    ) -> "Curriculum":
        """Stages of growing size, then locks within each size; optionally asking for measured difficulty.

        ``decision_points`` and ``detour_ratio``, when given, hold one lower
        bound per size (None for none): the stage's levels are made with
        ``require=`` so each has at least that many decision points, at least
        that detour (see :meth:`mazeplugin.Level.stats`).
        """
        stages: List[Dict[str, Any]] = []
        for i, size in enumerate(sizes):
            require: Dict[str, Tuple[Any, Any]] = {}
            for name, lows in (("decision_points", decision_points), ("detour_ratio", detour_ratio)):
                if lows is not None:
                    if len(lows) != len(sizes):
                        raise ValueError(f"{name} must hold one bound per size ({len(sizes)}), got {len(lows)}")
                    if lows[i] is not None:
                        require[name] = (lows[i], None)
            for k in keys:
                stage: Dict[str, Any] = {"width": size, "height": size, "keys": k}
                if require:
                    stage["require"] = dict(require)
                stages.append(stage)
        return cls(stages, **kwargs)

    def __repr__(self) -> str:
        rate = self.success_rate
        shown = "no episode yet" if rate is None else f"success rate {rate:.2f} over {len(self._results)}"
        return (f"<Curriculum stage {self.stage} of {len(self.stages)} {self.options!r}: {shown} "
                f"(promote_at={self.promote_at!r}, demote_at={self.demote_at!r}, window={self.window})>")

    @property
    def options(self) -> Dict[str, Any]:
        """The reset options of the current stage."""
        return dict(self.stages[self.stage])

    @property
    def success_rate(self) -> Optional[float]:
        """Over the episodes recorded since the last move (None before the first)."""
        return sum(self._results) / len(self._results) if self._results else None

    def record(self, success: bool) -> bool:
        """Record an episode's outcome; True when this moved the curriculum to another stage."""
        self._results.append(bool(success))
        if len(self._results) < self.window:
            return False
        rate = sum(self._results) / len(self._results)
        if rate >= self.promote_at and self.stage < len(self.stages) - 1:
            self.stage += 1
        elif self.demote_at is not None and rate < self.demote_at and self.stage > 0:
            self.stage -= 1
        else:
            return False
        self._results.clear()
        return True


class CurriculumWrapper(gymnasium.Wrapper[Any, Any, Any, Any]):
    """Plays a :class:`Curriculum` on a maze env: each reset uses the current stage's options.

    An episode counts as a success when it terminated at the goal; the stage
    is in ``info["curriculum_stage"]`` after every reset.
    """

    def __init__(self, env: gymnasium.Env[Any, Any], curriculum: Curriculum) -> None:
        super().__init__(env)
        if not isinstance(curriculum, Curriculum):
            raise TypeError(f"curriculum must be a Curriculum, not {type(curriculum).__name__}")
        settings = getattr(env.unwrapped, "settings", None)
        if settings is not None:  # a maze env: every stage checked now, not when training reaches it
            for number, stage in enumerate(curriculum.stages):
                try:
                    level_from_options(settings.levels, stage, (settings.rows, settings.columns))
                except (TypeError, ValueError) as error:
                    raise type(error)(f"curriculum stage {number} ({stage!r}): {error}") from None
        self.curriculum = curriculum
        self._running = False

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Any, Dict[str, Any]]:
        merged = {**self.curriculum.options, **(options or {})}
        obs, info = self.env.reset(seed=seed, options=merged)
        self._running = True
        info["curriculum_stage"] = self.curriculum.stage
        return obs, info

    def step(self, action: Any) -> Tuple[Any, Any, bool, bool, Dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if (terminated or truncated) and self._running:
            self.curriculum.record(bool(terminated))
            self._running = False
        return obs, reward, terminated, truncated, info


SEED_LIMIT = 1 << 64
"""Seeds of a split are below this (what a level seed of a dataset or an env can be)."""


def _ascending(name: str, seeds: object) -> range:
    """``seeds`` as a non-empty range of whole numbers below :data:`SEED_LIMIT`, rising (O(1): never iterated)."""
    if not isinstance(seeds, range):
        raise TypeError(f"{name} must be a range of level seeds, not {type(seeds).__name__}")
    if not seeds:
        raise ValueError(f"{name} must hold seeds, got the empty {seeds}")
    rising = seeds if seeds.step > 0 else seeds[::-1]
    if rising.start < 0 or rising[-1] >= SEED_LIMIT:
        raise ValueError(f"{name}: level seeds are whole numbers from 0 to 2**64 - 1, got {seeds}")
    return rising


def _meet(a: range, b: range) -> bool:
    """Whether two rising ranges share a number: arithmetic (the Chinese remainder theorem), not their members."""
    low, high = max(a.start, b.start), min(a[-1], b[-1])
    if low > high:
        return False
    common = math.gcd(a.step, b.step)
    if (b.start - a.start) % common:
        return False
    period = a.step // common * b.step
    # x = a.start + a.step * k with a.step * k = b.start - a.start (mod b.step)
    k = (b.start - a.start) // common * pow(a.step // common, -1, b.step // common) if b.step // common > 1 else 0
    first = a.start + a.step * k
    first += -((first - low) // period) * period  # the smallest one at or above low
    return first <= high


def _disjoint(train: range, test: range) -> Tuple[range, range]:
    rising = _ascending("train", train), _ascending("test", test)
    if _meet(*rising):
        raise ValueError(f"train {train} and test {test} overlap: a split needs disjoint seed ranges")
    return rising


class SeedSplit:
    """Disjoint level seed ranges for training and testing.

    Pass ``split.train`` as ``seeds=`` to the training env and
    ``split.test_seeds(spec)`` to the test env: those are the test seeds
    whose level is not also a training level (small mazes repeat).

    >>> split = SeedSplit(train=range(0, 200), test=range(10_000, 10_050))
    >>> clean = split.test_seeds(LevelSpec("kruskal", 2, 2))
    >>> len(clean) < 50     # a 2 x 2 maze has only 4 layouts: every test level was seen in training
    True
    >>> SeedSplit(train=range(0, 10), test=range(5, 20))
    Traceback (most recent call last):
    ...
    ValueError: train range(0, 10) and test range(5, 20) overlap: a split needs disjoint seed ranges
    """

    train: range
    test: range

    def __init__(self, train: range, test: range) -> None:
        _disjoint(train, test)
        self.train, self.test = train, test

    def __repr__(self) -> str:
        return f"SeedSplit(train={self.train!r}, test={self.test!r})"

    def test_seeds(self, spec: LevelSpec) -> List[int]:
        """The test seeds whose level differs from every training level.

        It makes every level of both ranges, so together they may hold at most
        :data:`mazeplugin.limits.MAX_SPLIT_LEVELS` seeds (a ``ValueError`` before any level is made).
        """
        check_level_count("train and test", _count(self.train) + _count(self.test))
        seen = {level_digest(spec.make(seed)) for seed in self.train}
        return [seed for seed in self.test if level_digest(spec.make(seed)) not in seen]


def _count(seeds: range) -> int:
    """How many seeds a range holds, however many (``len`` fails past ``sys.maxsize``)."""
    return max(0, (seeds.stop - seeds.start + seeds.step - (1 if seeds.step > 0 else -1)) // seeds.step)


def duplicate_rate(spec: LevelSpec, seeds: Iterable[int]) -> float:
    """The fraction of ``seeds`` whose level (by digest) an earlier seed of them already made.

    At most :data:`mazeplugin.limits.MAX_SPLIT_LEVELS` seeds (a range is refused before any level is made).

    >>> duplicate_rate(LevelSpec("kruskal", 1, 2), range(10))   # one layout only: all but the first repeat
    0.9
    """
    if isinstance(seeds, range):
        check_level_count("seeds", _count(seeds))
    seen = set()
    total = repeats = 0
    for seed in itertools.islice(seeds, MAX_SPLIT_LEVELS + 1):
        if total == MAX_SPLIT_LEVELS:
            check_level_count("seeds", total + 1)
        digest = level_digest(spec.make(seed))
        repeats += digest in seen
        seen.add(digest)
        total += 1
    if total == 0:
        raise ValueError("seeds must hold at least one seed")
    return repeats / total
