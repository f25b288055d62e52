"""Compiled :meth:`mazeplugin.seeds.Random.keyed` streams for many seeds at once: the same raw words.

``Random.keyed(seed, (key,)).raw(count)`` builds a numpy ``SeedSequence``
and a ``PCG64`` per seed, about 8 µs, more than carving a 9 × 9 maze. Here
both algorithms run in one loop over a batch of seeds, as numpy defines them:

- ``SeedSequence`` (numpy ``bit_generator.pyx``, after M. E. O'Neill's
  ``seed_seq_fe``): the seed's 128-bit entropy as four 32-bit words, then the
  spawn key's word, mixed into a pool of four words (``hashmix``/``mix``),
  then ``generate_state(4, uint64)`` drawn from the pool.
- ``PCG64`` (numpy ``pcg64.h``): state and increment from those four words
  (high word first), ``srandom``'s two steps, then per word one step of the
  128-bit LCG and the XSL-RR output of the new state.

128-bit arithmetic is done in pairs of uint64 words. ``tests/test_seeds.py``
compares the words with numpy's own for many seeds and keys.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .jit import njit, types

_M32 = np.uint64(0xFFFFFFFF)
_INIT_A = np.uint64(0x43B0D7E5)
_MULT_A = np.uint64(0x931E8875)
_INIT_B = np.uint64(0x8B51F9DD)
_MULT_B = np.uint64(0x58F38DED)
_MIX_MULT_L = np.uint64(0xCA01F9DD)
_MIX_MULT_R = np.uint64(0x4973F715)
_XSHIFT = np.uint64(16)
_PCG_HIGH = np.uint64(0x2360ED051FC65DA4)  # numpy's PCG_DEFAULT_MULTIPLIER_128
_PCG_LOW = np.uint64(0x4385DF649FCCF645)


@njit(types.UniTuple(types.uint64, 2)(types.uint64, types.uint64), cache=True, nogil=True, inline="always")
def mul_wide(a: Any, b: Any) -> Any:
    """The 128-bit product of two uint64 words as ``(high, low)``."""
    a_lo, a_hi = a & _M32, a >> np.uint64(32)
    b_lo, b_hi = b & _M32, b >> np.uint64(32)
    lo_lo = a_lo * b_lo
    hi_lo = a_hi * b_lo
    lo_hi = a_lo * b_hi
    middle = (lo_lo >> np.uint64(32)) + (hi_lo & _M32) + lo_hi
    high = a_hi * b_hi + (hi_lo >> np.uint64(32)) + (middle >> np.uint64(32))
    return high, (middle << np.uint64(32)) | (lo_lo & _M32)


@njit(types.void(types.uint64[::1]), cache=True, nogil=True, inline="always")
def step(state: Any) -> None:
    """One step of PCG64's LCG on ``state`` = [state high, state low, inc high, inc low]."""
    high, low = mul_wide(state[1], _PCG_LOW)
    high += state[0] * _PCG_LOW + state[1] * _PCG_HIGH
    low2 = low + state[3]
    high += state[2] + (np.uint64(1) if low2 < low else np.uint64(0))
    state[0], state[1] = high, low2


@njit(types.void(types.uint32[:, ::1], types.uint32, types.uint64[:, ::1]), cache=True, nogil=True)
def keyed_words(entropy: Any, key: int, out: Any) -> None:
    """``out[i]``: the first ``out.shape[1]`` raw words of ``Random.keyed(seed_i, (key,))``,
    where ``entropy[i]`` is ``seed_entropy(seed_i)`` as four little-endian 32-bit words."""
    assembled = np.empty(5, dtype=np.uint64)
    pool = np.empty(4, dtype=np.uint64)
    words = np.empty(8, dtype=np.uint64)
    state = np.empty(4, dtype=np.uint64)
    for i in range(entropy.shape[0]):
        for k in range(4):
            assembled[k] = entropy[i, k]
        assembled[4] = np.uint64(key)
        # mix_entropy: every value is a uint32 kept in a uint64 (masked after each product)
        hash_const = _INIT_A
        for k in range(4):
            value = assembled[k] ^ hash_const
            hash_const = (hash_const * _MULT_A) & _M32
            value = (value * hash_const) & _M32
            pool[k] = value ^ (value >> _XSHIFT)
        for src in range(5):
            for dst in range(4):
                if src == dst:
                    continue
                if src < 4:
                    value = pool[src] ^ hash_const
                else:
                    value = assembled[src] ^ hash_const
                hash_const = (hash_const * _MULT_A) & _M32
                value = (value * hash_const) & _M32
                value ^= value >> _XSHIFT
                mixed = ((_MIX_MULT_L * pool[dst]) - (_MIX_MULT_R * value)) & _M32
                pool[dst] = mixed ^ (mixed >> _XSHIFT)
        # generate_state(4, uint64): eight uint32 words, cycling through the pool
        hash_const = _INIT_B
        for k in range(8):
            value = pool[k % 4] ^ hash_const
            hash_const = (hash_const * _MULT_B) & _M32
            value = (value * hash_const) & _M32
            words[k] = value ^ (value >> _XSHIFT)
        seed_high = words[0] | (words[1] << np.uint64(32))
        seed_low = words[2] | (words[3] << np.uint64(32))
        inc_high = words[4] | (words[5] << np.uint64(32))
        inc_low = words[6] | (words[7] << np.uint64(32))
        # srandom: state 0, inc (initseq << 1) | 1, step, state += initstate, step
        state[0], state[1] = np.uint64(0), np.uint64(0)
        state[2] = (inc_high << np.uint64(1)) | (inc_low >> np.uint64(63))
        state[3] = (inc_low << np.uint64(1)) | np.uint64(1)
        step(state)
        low = state[1] + seed_low
        state[0] = state[0] + seed_high + (np.uint64(1) if low < state[1] else np.uint64(0))
        state[1] = low
        step(state)
        for k in range(out.shape[1]):
            step(state)
            value = state[0] ^ state[1]
            rot = state[0] >> np.uint64(58)
            out[i, k] = (value >> rot) | (value << ((np.uint64(64) - rot) & np.uint64(63)))
