"""The chunk cache: least recently used chunks are dropped, and any thread may ask.

Games render on one thread and make chunks on another, so every look-up and
insertion holds a lock; making a chunk does not (it is the slow part, and
two threads making the same chunk make the same bytes: the first one stored
wins, so a chunk is one array object while it stays cached).

>>> cache = ChunkCache(2)
>>> cache.get((0, 0)) is None
True
>>> cache.put((0, 0), "a"), cache.put((1, 0), "b"), cache.get((0, 0)), cache.put((2, 0), "c")
('a', 'b', 'a', 'c')
>>> cache.get((1, 0)) is None, cache.info()      # (1, 0) was the least recently used
(True, CacheInfo(hits=1, misses=2, size=2, maxsize=2))
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, NamedTuple, Optional, TypeVar

from .geometry import Chunk

__all__ = ["CacheInfo", "ChunkCache"]

V = TypeVar("V")


class CacheInfo(NamedTuple):
    """How the chunk cache has done: like :func:`functools.lru_cache`'s ``cache_info()``."""

    hits: int
    misses: int
    size: int
    maxsize: int


class ChunkCache(Generic[V]):
    """At most ``maxsize`` values by chunk, least recently used dropped first; thread-safe."""

    hits: int
    misses: int

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._items: "OrderedDict[Chunk, V]" = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, chunk: Chunk) -> Optional[V]:
        """The value held for ``chunk`` (now the most recently used), or None (counted as a miss)."""
        with self._lock:
            value = self._items.get(chunk)
            if value is None:
                self.misses += 1
                return None
            self.hits += 1
            self._items.move_to_end(chunk)
            return value

    def put(self, chunk: Chunk, value: V) -> V:
        """Keep ``value`` for ``chunk`` unless another thread stored one first; the value kept."""
        with self._lock:
            kept = self._items.setdefault(chunk, value)
            self._items.move_to_end(chunk)
            while len(self._items) > self.maxsize:
                self._items.popitem(last=False)
            return kept

    def __contains__(self, chunk: object) -> bool:
        with self._lock:
            return chunk in self._items

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        """Drop every value (the counts stay)."""
        with self._lock:
            self._items.clear()

    def info(self) -> CacheInfo:
        """Hits, misses, values held and the most it holds."""
        with self._lock:
            return CacheInfo(self.hits, self.misses, len(self._items), self.maxsize)
