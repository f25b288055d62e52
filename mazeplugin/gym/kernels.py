"""The batched view compiled with numba (the optional ``fast`` extra): the same pixels as :meth:`Batch.view`'s arrays.

One loop per env over its ``V × V`` view: gather, MiniGrid's visibility
spread, blank what is unseen, show what is carried. Used by
:class:`~mazeplugin.gym.engine.Batch` when :func:`mazeplugin.compiled.available`
(numba installed, not turned off): batches of 64 envs and more wait for it
once; smaller ones (a single env) use it once a background :func:`warm_up`
has built it, and the plain path until then. :func:`view_kernel` is None
without numba and the plain paths run. A test checks the paths give the same views.

:func:`step_kernel` is the batched MiniGrid step fused with the view after
it (:meth:`Batch.step_minigrid_view`, 64 envs or more; and
:meth:`Batch.step_one_view`, a single env once the kernel is built): the
rules of :meth:`Batch.step_minigrid`, door toggles included, then each view.
It reads a byte-per-tile copy of each level with one tile of wall around it
(all the agent can see) and the level's sight as bit lines (by row, by column,
both reversed), so a view row's sight is one shift and MiniGrid's
``process_vis`` runs on bits a row at a time (sideways by table for views up
to 7 wide), stopping at the first row sight does not reach; only the tiles seen
are read. It keeps each level's last view as tile codes (a byte per cell) with
the tile, direction and key it was seen from: a step that changes none of them
nor the level keeps it (most random actions bump a wall or do nothing); the
image is then made from the kept codes of every level in one vectorised pass.
Tests check it against the numpy rules and views, and the single env against
the Python step.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Tuple

import numpy
from numpy.typing import NDArray

from .._compiled import forked_mid_load, loading, prepare_numba, register_builder, resume, start_background
from .sight import sideways_table

__all__ = ["view_kernel", "step_kernel", "step_levels", "warm_up", "TILE_WORDS", "TILE_PASSES"]

# The compiled step keeps a byte per tile, code = object + 11 * (colour + 6 * state) in MiniGrid's encoding.
_CODES = numpy.arange(256)
TILE_WORDS: NDArray[numpy.uint32] = (
    (_CODES % 11) | ((_CODES // 11 % 6) << 8) | ((_CODES // 66) << 16)
).astype(numpy.uint32)
"""The tile (object, colour, state and a 0 byte as one little-endian word) of each code."""
TILE_PASSES: NDArray[numpy.bool_] = ((_CODES % 11) != 2) & (((_CODES % 11) != 4) | (_CODES // 66 == 0))
"""Whether sight passes a tile of each code: not a wall (2), not a door (4) unless open (state 0)."""


def step_levels(grid: NDArray[numpy.uint8], coded: NDArray[numpy.bool_], rows: int, columns: int, pad: int,
                view_size: int) -> Tuple[Any, ...]:
    """:func:`step_kernel`'s arguments about a batch's levels (its first thirteen), made once per batch.

    ``grid`` is :attr:`Batch.grid <mazeplugin.gym.engine.Batch.grid>` (levels of at most ``rows`` ×
    ``columns`` tiles at ``(pad, pad)``); ``coded`` its per-level flags (False: the kernel codes the
    level again). Made here: the codes, a byte per tile of each level and of one tile of wall around it
    (all the agent can see: sight stops at the level's outer wall, its entrance and exit tiles); each
    level's sight as bit lines (a bit per tile of the level by row, by column, by row reversed and by
    column reversed, so a view row's sight is one shift): 16-bit lines for levels up to 16 tiles wide
    and tall, 32-bit up to 32, 64-bit up to 64, none beyond (sight is read tile by tile then; the
    narrower the lines, the less a large batch reads from memory per step); the sideways table for
    views up to 7 wide (:func:`~mazeplugin.gym.sight.sideways_table`); the last view of each level as
    codes, a byte per view cell (0 where unseen; the image is made from them), and
    what it was seen from (the agent's tile, direction and key carried; -1: none yet), so that a step
    that changes none of these, nor the level, keeps the codes instead of looking again.
    """
    codes = numpy.zeros((grid.shape[0], rows + 2, columns + 2), dtype=numpy.uint8)
    widest = max(rows, columns)
    kind = numpy.uint16 if widest <= 16 else numpy.uint32 if widest <= 32 else numpy.int64
    lines = numpy.zeros((grid.shape[0], 2 * (rows + columns) if widest <= 64 else 0), dtype=kind)
    sideways = sideways_table(view_size) if view_size <= 7 else numpy.zeros(0, dtype=numpy.uint8)
    views = numpy.zeros(grid.shape[0] * view_size * view_size, dtype=numpy.uint8)
    keys = numpy.full(grid.shape[0], -1, dtype=numpy.int64)
    return (codes.reshape(-1), grid.view(numpy.uint32).reshape(-1), coded, TILE_PASSES, sideways, lines,
            views, keys, grid.shape[1] * grid.shape[2], grid.shape[2], pad, rows, columns)


def _build() -> Optional[Callable[..., None]]:
    from .. import compiled

    if not compiled.available() or forked_mid_load():
        return None  # (forked while the core's kernels loaded: numba's locks may be held by a thread that is gone)
    prepare_numba()  # numba's cache folder, as the core's kernels have it
    import numba

    def views(words: Any, here: Any, direction: Any, offsets: Any, carrying: Any, out: Any) -> None:  # pragma: no cover - compiled
        n, size = out.shape[0], out.shape[1]
        see = numpy.empty((size, size), numpy.bool_)
        mask = numpy.empty((size, size), numpy.bool_)
        last = size - 1
        for k in range(n):
            off = offsets[direction[k]]
            base = here[k]
            for j in range(size):
                for i in range(size):
                    w = words[base + off[j, i]]
                    out[k, j, i] = w
                    kind = w & 255
                    see[j, i] = kind != 2 and (kind != 4 or ((w >> 16) & 255) == 0)
                    mask[j, i] = False
            mask[last, size // 2] = True
            for j in range(last, -1, -1):
                for i in range(last):
                    if mask[j, i] and see[j, i]:
                        mask[j, i + 1] = True
                for i in range(last, 0, -1):
                    if mask[j, i] and see[j, i]:
                        mask[j, i - 1] = True
                if j > 0:
                    for i in range(size):
                        if mask[j, i] and see[j, i]:
                            mask[j - 1, i] = True
                            if i > 0:
                                mask[j - 1, i - 1] = True
                            if i < last:
                                mask[j - 1, i + 1] = True
            for j in range(size):
                for i in range(size):
                    if not mask[j, i]:
                        out[k, j, i] = 0
            c = carrying[k]
            out[k, last, size // 2] = (5 | (c << 8)) if c >= 0 else 1

    return _jit(numba, views)


def _jit(numba: Any, function: Callable[..., Any]) -> Callable[..., Any]:
    try:
        kernel: Callable[..., Any] = numba.njit(cache=True, nogil=True)(function)
        return kernel
    except Exception:  # pragma: no cover - an unwritable cache folder: compile each run instead
        plain: Callable[..., Any] = numba.njit(nogil=True)(function)
        return plain


def _build_step() -> Optional[Callable[..., int]]:
    from .. import compiled

    if not compiled.available() or forked_mid_load():
        return None
    prepare_numba()
    import numba

    from numba.cpython.unsafe import numbers as unsafe_numbers

    # The count of trailing 0 bits (LLVM's cttz), in compiled code. A module global, not a variable of this
    # function: numba keys its disk cache of a closure on its cells' pickled contents, which for this
    # intrinsic differ in every process, so the step was compiled afresh each time (about 30 s of CPU).
    global _trailing_zeros
    _trailing_zeros = unsafe_numbers.trailing_zeros

    def step_views(codes: Any, words: Any, coded: Any, passes: Any, sideways: Any, lines: Any,
                   views: Any, keys: Any, plane: Any, width: Any, pad: Any, rows: Any, columns: Any, position: Any, direction: Any,
                   carrying: Any, steps: Any, action: Any, max_steps: Any,
                   reward: Any, terminated: Any, truncated: Any, image: Any) -> int:  # pragma: no cover - compiled
        # One MiniGrid step (Batch.step_minigrid's rules) and the view after it (Batch.view), env by env.
        # `words` is Batch.grid (a level of rows x columns tiles at (pad, pad) in a plane `width` wide);
        # `codes` holds each level with one tile of wall around it, a byte per tile (TILE_WORDS[code] is the
        # tile, passes[code] whether sight passes it): a fifth of the memory or less, read by the
        # rules and the view; `words` is written only where a tile changes. A level whose codes are stale
        # (coded[k] False) is coded first. `lines` holds each level's sight as bits (see step_levels), so
        # a view row's "sight passes" is one shift, and only the tiles seen are read (all within a tile
        # of the level); levels over 64 tiles wide or tall (`lines` has no columns then) read sight from
        # `words` tile by tile. For views up to 7 wide, `sideways` is a view row's sideways spread by
        # table (sight.sideways_table); else it is computed.
        n, size = image.shape[0], image.shape[1]
        ended = 0  # returned: how many levels ended (terminated or truncated)
        last, middle = size - 1, size // 2
        bits = lines.shape[1] > 0
        table_sideways = sideways.shape[0] == 1 << (2 * size)
        lit_rows = numpy.empty(size, numpy.int64)  # per view row j: bit i set where view cell [i, j] is seen
        full = (numpy.int64(1) << size) - 1
        flat = image.reshape(-1)  # [k, x, y, 3] as MiniGrid's images
        area = size * size
        across, tall = columns + 2, rows + 2  # a level's codes: its tiles and one of wall around them
        ahead = (1, across, -1, -across)  # a step east, south, west, north in the codes
        step = (1, width, -1, -width)  # and in the grid
        edge = pad - 1  # grid row or column of codes row or column 0
        for k in range(n):
            start, first = k * plane, k * tall * across
            fresh = not coded[k]
            if fresh:
                for ty in range(tall):
                    for tx in range(across):
                        w = words[start + (ty + edge) * width + tx + edge]
                        codes[first + ty * across + tx] = (w & 255) + 11 * (((w >> 8) & 255) + 6 * ((w >> 16) & 255))
            a = action[k]
            count = steps[k]
            if a >= 0:  # a negative action: no step, only the view (of a level just loaded)
                count += 1
                steps[k] = count
            taken = False  # a key taken or dropped (the level changed where sight is not concerned)
            d = direction[k]
            y, x = position[k, 0], position[k, 1]
            here = first + (y - edge) * across + x - edge
            at = here + ahead[d]
            tile = start + y * width + x + step[d]  # the same tile in the grid
            c = codes[at]
            kind, colour, state = c % 11, c // 11 % 6, c // 66
            done = False
            if a == 0:
                d = (d + 3) % 4
                direction[k] = d
            elif a == 1:
                d = (d + 1) % 4
                direction[k] = d
            elif a == 2:
                if kind == 1 or kind == 8 or (kind == 4 and state == 0):
                    y += 1 if d == 1 else -1 if d == 3 else 0
                    x += 1 if d == 0 else -1 if d == 2 else 0
                    position[k, 0], position[k, 1] = y, x
                    here = at
                done = kind == 8
            elif a == 3:
                if kind == 5 and carrying[k] < 0:
                    carrying[k] = colour
                    words[tile] = 1
                    codes[at] = 1
                    taken = True
            elif a == 4:
                if kind == 1 and carrying[k] >= 0:
                    words[tile] = 5 | (carrying[k] << 8)
                    codes[at] = 5 + 11 * carrying[k]
                    carrying[k] = -1
                    taken = True
            elif a == 5 and kind == 4:
                new = -1
                if state == 2:
                    if carrying[k] == colour:
                        new = 0
                else:
                    new = 1 if state == 0 else 0
                if new >= 0:  # every tile of the door (a wide corridor's is several): those of its colour
                    door = 4 + 11 * colour
                    for ty in range(tall):
                        for tx in range(across):
                            c = codes[first + ty * across + tx]
                            if c == door or c == door + 66 or c == door + 132:
                                codes[first + ty * across + tx] = door + 66 * new
                                t = start + (ty + edge) * width + tx + edge
                                words[t] = (words[t] & 0xFF00FFFF) | (new << 16)
                    fresh = True  # sight through the door changed
            if fresh and bits:  # the level's sight lines: a bit per tile by row, by column, and both reversed
                line = lines[k]
                line[:] = 0
                for ty in range(rows):
                    for tx in range(columns):
                        if passes[codes[first + (ty + 1) * across + tx + 1]]:
                            line[ty] |= numpy.int64(1) << tx
                            line[rows + tx] |= numpy.int64(1) << ty
                            line[rows + columns + ty] |= numpy.int64(1) << (columns - 1 - tx)
                            line[2 * rows + columns + tx] |= numpy.int64(1) << (rows - 1 - ty)
            coded[k] = True
            terminated[k] = done
            reward[k] = 1.0 - 0.9 * (count / max_steps) if done else 0.0
            over = count >= max_steps
            truncated[k] = over
            ended += done | over
            # A step that changed neither the level (no key taken or dropped, no door toggled, not just loaded)
            # nor where the agent looks from sees what it saw: the last view's codes, kept (most random actions
            # bump a wall or do nothing; half the work of a step is the view).
            o = k * area
            key = ((here * 4 + d) * 8) + carrying[k] + 1
            if not (fresh or taken) and keys[k] == key:
                continue
            keys[k] = key
            # The view: view cell [x=i, y=j] is (size - 1 - j) tiles ahead and (i - middle) to the right.
            forward, right = ahead[d], ahead[(d + 1) % 4]
            corner = here + last * forward - middle * right  # view cell [0, 0] (perhaps outside the codes: never read)
            # View row j's sight bits, bit i for view column i, from the line across the view at that row: the
            # line at distance a ahead is lines[k, base + q + along * a] when 0 <= q + along * a < limit (else
            # outside the level: wall), shifted right by `shift` (left when negative).
            ly, lx = y - pad, x - pad
            if d == 0:  # the column `a` tiles east, from north to south
                base, q, along, limit, shift = rows, lx, 1, columns, ly - middle
            elif d == 1:  # the row south, from east to west
                base, q, along, limit, shift = rows + columns, ly, 1, rows, columns - 1 - lx - middle
            elif d == 2:  # the column west, from south to north
                base, q, along, limit, shift = 2 * rows + columns, lx, -1, columns, rows - 1 - ly - middle
            else:  # the row north, from west to east
                base, q, along, limit, shift = 0, ly, -1, rows, lx - middle
            # MiniGrid's process_vis on the rows as bits, from the agent's row up: sideways along a row through
            # the cells sight passes (right by a carry through each run of them, left by a doubling fill),
            # then up into the row above beside every lit cell sight passes.
            lit = numpy.int64(1) << middle
            top = 0  # the rows above it are all unseen
            for j in range(last, -1, -1):
                run = numpy.int64(0)
                if bits:
                    line_at = q + along * (last - j)
                    if 0 <= line_at < limit:
                        run = numpy.int64(lines[k, base + line_at])
                        run = (run >> shift if shift >= 0 else run << -shift) & full
                else:  # from the grid, whose wall reaches as far as a view
                    t = start + y * width + x + (last - j) * step[d] - middle * step[(d + 1) % 4]
                    for i in range(size):
                        w = words[t]
                        run |= numpy.int64((w & 255) != 2 and ((w & 255) != 4 or ((w >> 16) & 255) == 0)) << i
                        t += step[(d + 1) % 4]
                if table_sideways:  # small views: the row's sideways spread looked up
                    lit = sideways[(lit << size) | run]
                else:
                    lit = (lit | (((lit & run) + run) ^ run)) & full
                    fill, through = lit & run, run
                    s = 1
                    while s < size:
                        fill |= through & (fill >> s)
                        through &= through >> s
                        s *= 2
                    lit |= fill | (fill >> 1)
                lit_rows[j] = lit
                lit &= run
                if lit == 0:  # no lit cell lets sight through to the row above: it and those beyond are unseen
                    top = j
                    break
                lit = (lit | (lit << 1) | (lit >> 1)) & full
            # Unseen cells are code 0 (MiniGrid's (0, 0, 0)); read only the tiles seen.
            views[o:o + area] = 0
            for j in range(top, size):
                seen = lit_rows[j]
                row = corner - j * forward
                while seen:
                    i = _trailing_zeros(seen)
                    seen &= seen - 1
                    views[o + i * size + j] = codes[row + i * right]
            held = carrying[k]
            views[o + middle * size + last] = 5 + 11 * held if held >= 0 else 1  # the agent's cell: what it carries
        # The image: (object, colour, state) of each kept code, in one pass over all the views (TILE_WORDS'
        # arithmetic rather than a table: it vectorises).
        for i in range(n * area):
            code = views[i]
            flat[3 * i] = code % 11
            flat[3 * i + 1] = code // 11 % 6
            flat[3 * i + 2] = code // 66
        return ended

    return _jit(numba, step_views)


_KERNEL: Any = False
_STEP: Any = None
_trailing_zeros: Any = None  # numba's cttz intrinsic, set by _build_step before the step is compiled


def _ready() -> Optional[Callable[..., None]]:
    global _KERNEL, _STEP
    with loading():  # the compiled path's load lock: a fork waits for a build half done (mazeplugin._compiled)
        if _KERNEL is False:
            kernel = _build()
            if kernel is not None:  # compile (or load from the disk cache) now, on a view of one
                out = numpy.zeros((1, 3, 3), dtype=numpy.uint32)
                kernel(numpy.zeros(64, numpy.uint32), numpy.array([30], numpy.int32), numpy.zeros(1, numpy.intp),
                       numpy.zeros((4, 3, 3), numpy.int32), numpy.full(1, -1, numpy.intp), out)
                step = _build_step()
                if step is not None:  # and the fused step, on a step of one
                    one = numpy.ones(1, numpy.intp)
                    for kind in (numpy.uint16, numpy.uint32, numpy.int64):  # every kind of sight lines
                        lines = numpy.zeros((1, 16), kind)
                        step(numpy.zeros(36, numpy.uint8), numpy.zeros(64, numpy.uint32), numpy.zeros(1, numpy.bool_),
                             numpy.zeros(256, numpy.bool_), numpy.zeros(64, numpy.uint8),
                             lines, numpy.zeros(9, numpy.uint8), numpy.full(1, -1, numpy.int64), 64, 8, 2, 4, 4, numpy.full((1, 2), 3, numpy.intp), one.copy(), -one, one.copy(),
                             one.copy(), 10, numpy.zeros(1), numpy.zeros(1, numpy.bool_), numpy.zeros(1, numpy.bool_),
                             numpy.zeros((1, 3, 3, 3), numpy.uint8))
                _STEP = step
            _KERNEL = kernel
    return _KERNEL  # type: ignore[no-any-return]


def view_kernel(wait: bool = True) -> Optional[Callable[..., None]]:
    """The compiled view; None without numba (or with ``MAZEPLUGIN_COMPILED=0``).

    ``wait=True`` builds it now if need be (numba's import and the kernel's
    compilation or cache load: a second or so, once per process);
    ``wait=False`` returns it only when already built (see :func:`warm_up`).
    """
    if _KERNEL is False:
        return _ready() if wait else None
    return _KERNEL  # type: ignore[no-any-return]


def step_kernel(wait: bool = True) -> Optional[Callable[..., int]]:
    """The compiled MiniGrid step fused with the view after it (built with :func:`view_kernel`); None without numba.

    It writes each level's reward, ends and view (into a uint8 ``(n, V, V, 3)`` array, MiniGrid's
    images) and returns how many levels ended (terminated or truncated), so that a batch where none did
    skips the work of autoresets.
    """
    if _KERNEL is False:
        if not wait:
            resume()  # (a process forked while the build was queued builds it now)
            return None
        _ready()
    return _STEP  # type: ignore[no-any-return]


def warm_up() -> None:
    """Build the compiled kernels in the background loader (mazeplugin._compiled), first in its queue,
    so that views switch to them when ready; nothing when they are built (or cannot be)."""
    if _KERNEL is False:
        start_background(["gym"], first=True)


register_builder("gym", _ready)
