"""``np.argsort(keys, kind="stable")`` for uint64 keys, compiled: the same permutation.

``Random.permutation`` is the stable argsort of raw words, and ``prim`` sorts
walls by weight; numpy's stable sort of 64-bit keys is a merge sort. Here: a
least-significant-digit radix sort (stable) on the top 32 of the bits the keys use, four
8-bit digits (few enough destinations per pass for the caches and the TLB), then a stable insertion sort on
the whole key, which only moves the rare keys that agree in their top 32
bits. Ties keep index order, as numpy's stable sort does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types

from .grid import i64, u64

_DIGIT = 8
_DIGITS = 4


@njit(types.Tuple((i64, u64))(u64), cache=True, nogil=True)  # type: ignore[no-untyped-call, unused-ignore]
def sort_keys(keys: Any) -> Any:
    """``(order, keys[order])``: the stable ascending order and the sorted keys."""
    n = keys.size
    radix = 1 << _DIGIT
    mask = np.uint64(radix - 1)
    used = np.uint64(0)  # the bits in use: prim's keys have 53
    for i in range(n):
        used |= keys[i]
    top_bit = 0
    while top_bit < 64 and (used >> np.uint64(top_bit)) != np.uint64(0):
        top_bit += 1
    low = np.uint64(max(top_bit - _DIGIT * _DIGITS, 0))
    count = np.zeros((_DIGITS, radix), dtype=np.int64)
    for i in range(n):
        top = keys[i] >> low
        for d in range(_DIGITS):
            count[d, (top >> np.uint64(_DIGIT * d)) & mask] += 1
    for d in range(_DIGITS):
        total = 0
        for r in range(radix):
            c = count[d, r]
            count[d, r] = total
            total += c
    order = np.arange(n).astype(np.int32)  # n < 2**31: mazes have at most 2**25 walls
    key = keys.copy()
    other_order = np.empty_like(order)
    other_key = np.empty(n, dtype=np.uint64)
    for d in range(_DIGITS):
        shift = low + np.uint64(_DIGIT * d)
        for i in range(n):
            r = (key[i] >> shift) & mask
            j = count[d, r]
            count[d, r] = j + 1
            other_order[j] = order[i]
            other_key[j] = key[i]
        order, other_order = other_order, order
        key, other_key = other_key, key
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
    return order.astype(np.int64), key


@njit(i64(u64), cache=True, nogil=True)
def stable_argsort(keys: Any) -> Any:
    """The stable ascending order of ``keys`` (equal to numpy's ``kind="stable"``)."""
    return sort_keys(keys)[0]
