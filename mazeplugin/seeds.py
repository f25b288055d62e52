"""Seeds and the random numbers every generator draws.

Levels are shared by seed ("level codes"), so the numbers a seed produces must
never change: not between processes, machines, or numpy versions. numpy only
promises that for the raw output of its bit generators, not for
``numpy.random.Generator`` methods (which may change between releases; see
numpy's "Compatibility policy"). So :class:`Random` reads raw 64-bit words from
``PCG64`` and turns them into floats and integers with its own fixed
arithmetic, and seeds go through ``SeedSequence``, whose algorithm is fixed too.

No global random state is read or written anywhere in mazeplugin.

>>> rng = Random.from_seed(7)
>>> rng.integers(10, 5).tolist()
[6, 8, 7, 2, 3]
>>> Random.from_seed(7).integers(10, 5).tolist() == [6, 8, 7, 2, 3]
True
"""

from __future__ import annotations

import numbers
from typing import MutableSequence, Sequence, TypeVar, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._compiled import twin

__all__ = ["Random", "Seed", "resolve_seed", "seed_entropy", "keyed_words", "MAX_SEED", "MAX_SEED_CHARS"]

_STREAMS = twin("streams")  # keyed streams for many seeds at once, compiled (the lookup loads nothing until asked)

T = TypeVar("T")

Seed = Union[int, str]
"""A level seed: a non-negative int, or a str level code typed by a player."""

_DOUBLE_UNIT = 2.0**-53

MAX_SEED = 2**128 - 1
"""Largest int seed (and largest value of a seed text of plain digits)."""

MAX_SEED_CHARS = 1024
"""Longest seed text."""


def resolve_seed(seed: object) -> Seed:
    """Check ``seed`` and return the seed a level records.

    ``None`` draws a fresh seed from the operating system (not from any global
    random state), so the level can always be made again from ``level.seed``.
    A str that is a plain decimal number (``"42"``) means the same as that int,
    so a level code typed back in gives the same level.

    >>> resolve_seed(42), resolve_seed("42"), resolve_seed("castle")
    (42, 42, 'castle')
    """
    if seed is None:
        import secrets  # (here: import mazeplugin need not load it)

        return secrets.randbits(32)
    if isinstance(seed, bool) or not isinstance(seed, (numbers.Integral, str)):
        raise TypeError(
            f"seed must be an int, a str or None, not {type(seed).__name__}"
        )
    if isinstance(seed, str):
        if len(seed) > MAX_SEED_CHARS:
            raise ValueError(f"seed text must be at most {MAX_SEED_CHARS:,} characters, got {len(seed):,}")
        try:
            seed.encode("utf-8")
        except UnicodeEncodeError as error:
            raise ValueError(
                f"seed must be text that UTF-8 can hold; {seed[error.start]!r} at position "
                f"{error.start} is a lone surrogate"
            ) from None
        if seed.isascii() and seed.isdigit() and (seed == "0" or seed[0] != "0"):
            return _check_int_seed(int(seed))
        return seed
    return _check_int_seed(int(seed))


def _check_int_seed(value: int) -> int:
    if not 0 <= value <= MAX_SEED:
        raise ValueError(f"seed must be an int from 0 to 2**128 - 1 or a str, got {value}")
    return value


def seed_entropy(seed: Seed) -> int:
    """The integer entropy a (resolved) seed feeds into ``SeedSequence``.

    A str goes through SHA-256, never ``hash()``, which changes per process.

    >>> seed_entropy(5)
    5
    >>> seed_entropy("castle") == seed_entropy("castle")
    True
    """
    if isinstance(seed, str):
        import hashlib  # (here: import mazeplugin need not load it)

        digest = hashlib.sha256(b"mazeplugin-seed:" + seed.encode("utf-8")).digest()
        return int.from_bytes(digest[:16], "big")
    return int(seed)


def keyed_words(seeds: Sequence[Seed], key: int, count: int) -> NDArray[np.uint64]:
    """The first ``count`` raw words of stream ``key`` of each of ``seeds`` (resolved seeds), one row a seed:
    row ``i`` is ``Random.keyed(seeds[i], (key,)).raw(count)``.

    With the compiled path (:mod:`mazeplugin._compiled.streams`) the streams
    of the whole batch are made in one loop, numpy's ``SeedSequence`` and
    ``PCG64`` arithmetic written out; without it, ``Random.keyed`` seed by
    seed. The words are the same.

    >>> words = keyed_words([3, "castle"], 0, 4)
    >>> words[1].tolist() == Random.keyed("castle", (0,)).raw(4).tolist()
    True
    """
    if not 0 <= int(key) < 2**32:
        raise ValueError(f"key must be an int in [0, 2**32), got {key!r}")
    if count < 0:
        raise ValueError(f"count must be at least 0, got {count!r}")
    out = np.empty((len(seeds), count), dtype=np.uint64)
    fast = _STREAMS.pick(len(seeds) * (count + 64))
    if fast is None or not len(seeds):
        for i, seed in enumerate(seeds):
            out[i] = Random.keyed(seed, (key,)).raw(count)
        return out
    entropy = np.zeros((len(seeds), 4), dtype=np.uint32)
    if all(type(seed) is int and 0 <= seed < 2**64 for seed in seeds):  # a dataset's seeds: two words each
        small = np.array(seeds, dtype=np.uint64)
        entropy[:, 0] = small & np.uint64(0xFFFFFFFF)
        entropy[:, 1] = small >> np.uint64(32)
    else:
        for i, seed in enumerate(seeds):  # (a seed's entropy is below 2**128: four words, low first)
            value = seed_entropy(seed)
            entropy[i] = (value & 0xFFFFFFFF, (value >> 32) & 0xFFFFFFFF, (value >> 64) & 0xFFFFFFFF, value >> 96)
    fast.keyed_words(entropy, np.uint32(key), out)
    return out


class Random:
    """Version-stable random numbers from PCG64's raw output.

    Generators receive one of these. Draw numbers in bulk (``random(n)``,
    ``integers(high, n)``) in hot loops: each call costs about a microsecond.
    """

    __slots__ = ("_bits",)

    def __init__(self, seed_sequence: np.random.SeedSequence) -> None:
        self._bits = np.random.PCG64(seed_sequence)

    @classmethod
    def from_seed(cls, seed: Seed) -> Random:
        """A stream for a resolved seed (see :func:`resolve_seed`)."""
        return cls(np.random.SeedSequence(seed_entropy(seed)))

    @classmethod
    def streams(cls, seed: Seed, count: int) -> list[Random]:
        """``count`` independent streams for one seed (maze, markers, ...)."""
        root = np.random.SeedSequence(seed_entropy(seed))
        return [cls(child) for child in root.spawn(count)]

    @classmethod
    def keyed(cls, seed: Seed, key: Sequence[int]) -> Random:
        """The stream at ``key`` in a seed's tree of streams, found without making the others.

        ``key`` is a path of ints in ``[0, 2**32)``: ``keyed(seed, (k,))`` is
        ``streams(seed, n)[k]`` for any ``n > k``, and ``keyed(seed, (k, a, b))``
        is a stream below that one (``SeedSequence`` spawn keys, so streams
        never overlap). Endless worlds draw each chunk's stream from stream 6
        this way, keyed by the chunk's coordinates alone.

        >>> Random.keyed(7, (2,)).raw(2).tolist() == Random.streams(7, 3)[2].raw(2).tolist()
        True
        """
        words = tuple(int(k) for k in key)
        # One 32-bit word per entry: SeedSequence splits a larger int into
        # several words, so (2**32,) and (0, 1) would name the same stream.
        if not words or any(not 0 <= k < 2**32 for k in words):
            raise ValueError(f"key must be a non-empty sequence of ints in [0, 2**32), got {key!r}")
        return cls(np.random.SeedSequence(seed_entropy(seed), spawn_key=words))

    def raw(self, size: int) -> NDArray[np.uint64]:
        """``size`` raw 64-bit words."""
        return np.asarray(self._bits.random_raw(size), dtype=np.uint64)

    def random(self, size: int) -> NDArray[np.float64]:
        """``size`` floats uniform in [0, 1), 53 bits each."""
        return (self.raw(size) >> np.uint64(11)).astype(np.float64) * _DOUBLE_UNIT

    def integers(self, high: ArrayLike, size: int | None = None) -> NDArray[np.int64]:
        """Integers uniform in ``[0, high)``; ``high`` may be an array (one bound each).

        With an array ``high``, ``size`` defaults to its length.
        """
        bound = np.asarray(high, dtype=np.int64)
        if size is None:
            size = bound.size if bound.ndim else 1
        if np.any(bound <= 0):
            raise ValueError("high must be positive")
        return np.floor(self.random(size) * bound).astype(np.int64)

    def below(self, high: int) -> int:
        """One integer uniform in ``[0, high)``."""
        return int(((self._bits.random_raw() >> 11) * _DOUBLE_UNIT) * high)

    def permutation(self, n: int) -> NDArray[np.int64]:
        """A uniformly random permutation of ``range(n)`` (sort by random keys)."""
        return np.argsort(self.raw(n), kind="stable").astype(np.int64)

    def choice(self, items: Sequence[T]) -> T:
        """One item, uniformly."""
        if not items:
            raise ValueError("cannot choose from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place, uniformly."""
        order = self.permutation(len(items)).tolist()
        items[:] = [items[i] for i in order]
