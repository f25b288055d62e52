"""``np.argsort(keys, kind="stable")`` for uint64 keys, compiled: the same permutation.

``Random.permutation`` is the stable argsort of raw words, and ``prim`` sorts
walls by weight; numpy's stable sort of 64-bit keys is a merge sort. Here: a
most-significant-digit radix sort. One pass over all keys deals them into
2048 buckets by their top 11 used bits (2048 sequential write streams); each
bucket, a thousand keys or so that stay in the caches, is then dealt by the
next bits (up to 11, fewer for fewer keys; a bucket of fewer than 64 keys is
left as it is); a stable
insertion sort on the whole key finishes, moving only the few keys that agree
in the bits dealt or share a small bucket. Each deal keeps index order, so
ties keep index order, as numpy's stable sort does. (It replaced a
least-significant-digit sort of four 8-bit passes over all keys: about a
third less time at 2 million keys.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from .jit import njit, types

from .grid import i32, u64

_HIGH = 11  # bits dealt in the pass over all keys
_LOW = 11  # at most this many bits dealt inside each bucket
_SMALL = 64  # a bucket with fewer keys is left to the insertion sort (a deal costs 2 * 2**low steps)


@njit(types.Tuple((i32, u64))(u64), cache=True, nogil=True)  # type: ignore[no-untyped-call, unused-ignore]
def sort_keys(keys: Any) -> Any:
    """``(order, keys[order])``: the stable ascending order (int32: mazes have at most
    2**25 walls) and the sorted keys."""
    n = keys.size
    used = np.uint64(0)  # the bits in use: prim's keys have 53
    for i in range(n):
        used |= keys[i]
    top_bit = 0
    while top_bit < 64 and (used >> np.uint64(top_bit)) != np.uint64(0):
        top_bit += 1
    # The second deal takes about two bits per key of an average bucket, at most _LOW:
    # its 2**low counters are cleared and summed for every bucket dealt.
    low = 1
    while low < _LOW and (1 << low) < 2 * (n >> _HIGH):
        low += 1
    shift_high = np.uint64(max(top_bit - _HIGH, 0))
    shift_low = np.uint64(max(top_bit - _HIGH - low, 0))
    low_mask = np.uint64((1 << low) - 1)
    # Deal every key into its bucket by the top bits, in index order.
    start = np.zeros((1 << _HIGH) + 1, dtype=np.int64)  # bucket b: start[b] to start[b + 1]
    for i in range(n):
        start[(keys[i] >> shift_high) + np.uint64(1)] += 1
    for b in range(1 << _HIGH):
        start[b + 1] += start[b]
    fill = start[:-1].copy()
    dealt_order = np.empty(n, dtype=np.int32)  # n < 2**31: mazes have at most 2**25 walls
    dealt_key = np.empty(n, dtype=np.uint64)
    for i in range(n):
        b = keys[i] >> shift_high
        j = fill[b]
        fill[b] = j + 1
        dealt_order[j] = i
        dealt_key[j] = keys[i]
    # Deal each bucket by the next bits, in place order (stable again).
    order = np.empty(n, dtype=np.int32)
    key = np.empty(n, dtype=np.uint64)
    count = np.zeros(1 << low, dtype=np.int64)
    for b in range(1 << _HIGH):
        first, end = start[b], start[b + 1]
        if end - first < _SMALL:  # the insertion sort below is cheaper than a deal
            for i in range(first, end):
                order[i], key[i] = dealt_order[i], dealt_key[i]
            continue
        count[:] = 0
        for i in range(first, end):
            count[(dealt_key[i] >> shift_low) & low_mask] += 1
        total = first
        for r in range(1 << low):
            c = count[r]
            count[r] = total
            total += c
        for i in range(first, end):
            r = (dealt_key[i] >> shift_low) & low_mask
            j = count[r]
            count[r] = j + 1
            order[j] = dealt_order[i]
            key[j] = dealt_key[i]
    for j in range(1, n):  # finish on the whole key: almost always already in place
        if key[j - 1] > key[j]:
            item, k = order[j], key[j]
            i = j - 1
            while i >= 0 and key[i] > k:
                order[i + 1] = order[i]
                key[i + 1] = key[i]
                i -= 1
            order[i + 1] = item
            key[i + 1] = k
    return order, key


@njit(i32(u64), cache=True, nogil=True)
def stable_argsort(keys: Any) -> Any:
    """The stable ascending order of ``keys`` (equal to numpy's ``kind="stable"``)."""
    return sort_keys(keys)[0]
