"""Compiled twin of :class:`mazeplugin.content.graph.FloorGraph`: the floor graph in one pass.

The plain class builds its arrays with a dozen numpy passes (a breadth-first
search, the tree's parents, pointer jumping to each branch's seed, the loop
edges and a union-find over them), each cheap but each paying numpy's fixed
cost, which is most of the time on the small levels an environment resets
to. Here the same arrays come out of one kernel, computed the same way:

- degrees: floor neighbours of each floor tile;
- distances: breadth-first from the entrance over the padded floor (every
  distance is unique, so the order of the search does not matter);
- parents: a tile's first neighbour, north, east, south, west, one step nearer;
- the route: the exit's ancestors; a tile off it hangs below its *seed*, the
  topmost tile off the route on its way up (tiles are visited in the order
  found, so a parent's seed is known first);
- loop edges (floor neighbours the tree does not join, not both on the
  route) join branches with a union-find; a part's touch span is the least
  and greatest route index over its branches and edges, which no order of
  joining changes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .bfs import spread
from .grid import f64, i32, i64, u8
from .jit import njit, types


@njit(types.int64(i64, types.int64), cache=True, nogil=True)
def find(links: Any, x: int) -> int:
    """The root of ``x`` (path halving)."""
    while links[x] != x:
        links[x] = links[links[x]]
        x = links[x]
    return x


@njit(
    types.Tuple((types.int8[::1], i32, i64, i64, i64, i32, i64, i64, i64))(u8, types.int64, types.int64, types.int64),  # type: ignore[no-untyped-call, unused-ignore]
    cache=True,
    nogil=True,
)
def floor_graph(floor: Any, stride: int, entrance: int, goal: int) -> Any:
    """``(degree, dist, parent, route, index, dist_path, touch_high, span_lo, span_hi)`` over padded flat ``floor``.

    ``route`` is empty when ``goal`` is not reached (the caller raises);
    ``span_lo``/``span_hi`` are the touch spans of the parts loops join (one
    per part, possibly repeated).
    """
    n = floor.size
    step = np.array([-stride, 1, stride, -1], dtype=np.int64)
    degree = np.zeros(n, dtype=np.int8)
    for i in range(stride, n - stride):
        if floor[i]:
            degree[i] = floor[i - stride] + floor[i + 1] + floor[i + stride] + floor[i - 1]
    dist = np.full(n, -1, dtype=np.int32)
    parent = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    tail = spread(floor, stride, entrance, -1, dist, queue)
    for q in range(1, tail):
        i = queue[q]
        for k in range(4):
            j = i + step[k]
            if dist[j] == dist[i] - 1:
                parent[i] = j
                break
    index = np.full(n, -1, dtype=np.int64)
    dist_path = np.full(n, -1, dtype=np.int32)
    touch_high = np.full(n, -1, dtype=np.int64)
    if dist[goal] < 0:
        return degree, dist, parent, np.empty(0, dtype=np.int64), index, dist_path, touch_high, \
            np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    length = dist[goal] + 1
    route = np.empty(length, dtype=np.int64)
    i = goal
    for k in range(length - 1, -1, -1):
        route[k] = i
        index[i] = k
        dist_path[i] = 0
        i = parent[i]
    # Seeds, in the order found: a parent's seed is known before its children's.
    seed = np.full(n, -1, dtype=np.int64)
    lo = np.full(n, -1, dtype=np.int64)  # per seed: its part's least and greatest route index
    hi = np.full(n, -1, dtype=np.int64)
    for q in range(1, tail):
        i = queue[q]
        if index[i] >= 0:
            continue
        p = parent[i]
        if index[p] >= 0:
            seed[i] = i
            lo[i] = hi[i] = index[p]
        else:
            seed[i] = seed[p]
        dist_path[i] = dist[i] - dist[seed[i]] + 1
    # Loop edges join branches (the union-find is over seeds).
    links = np.arange(n, dtype=np.int64)
    involved = np.zeros(n, dtype=np.uint8)
    for a in range(n):
        if not floor[a] or dist[a] < 0:
            continue
        for b in (a + 1, a + stride):
            if not floor[b] or parent[a] == b or parent[b] == a:
                continue
            if index[a] >= 0 and index[b] >= 0:
                continue
            if index[a] >= 0:
                r = find(links, seed[b])
                involved[seed[b]] = 1
                lo[r] = min(lo[r], index[a])
                hi[r] = max(hi[r], index[a])
                continue
            r = find(links, seed[a])
            involved[seed[a]] = 1
            if index[b] >= 0:
                lo[r] = min(lo[r], index[b])
                hi[r] = max(hi[r], index[b])
                continue
            s = find(links, seed[b])
            involved[seed[b]] = 1
            if s != r:
                links[s] = r
                lo[r] = min(lo[r], lo[s])
                hi[r] = max(hi[r], hi[s])
    roots = 0
    for x in range(n):
        if involved[x] and links[x] == x:
            roots += 1
    span_lo = np.empty(roots, dtype=np.int64)
    span_hi = np.empty(roots, dtype=np.int64)
    roots = 0
    for x in range(n):
        if involved[x] and links[x] == x:
            span_lo[roots] = lo[x]
            span_hi[roots] = hi[x]
            roots += 1
    for q in range(1, tail):
        i = queue[q]
        if index[i] < 0:
            touch_high[i] = hi[find(links, seed[i])]
    return degree, dist, parent, route, index, dist_path, touch_high, span_lo, span_hi


@njit(
    types.Tuple((i64, i64, i64, f64))(i64, i64, types.int8[::1], types.int64, i64, i64, i64, f64, i64),  # type: ignore[no-untyped-call, unused-ignore]
    cache=True,
    nogil=True,
)
def lock_candidates(route: Any, cuts: Any, degree: Any, stride: int, touch_high: Any, cells_flat: Any,
                    dist_path: Any, noise: Any, cell_degree: Any) -> Any:
    """``(doors, highs, order, score)`` for :func:`mazeplugin.content.locks.plan_locks`, as ``placing`` makes them.

    ``doors``: the separators ``cuts`` (route indices) that are doorways (two
    floor neighbours, exactly one odd base coordinate); key candidates: cells
    off the route whose part touches it, in a stable sort by the last route
    index touched (a counting sort: those are route indices), each scored
    ``(dist_path + noise) + (1e9 for a dead end, else 0)``, numpy's sums.
    """
    doors = np.empty(cuts.size, dtype=np.int64)
    count = 0
    for c in cuts:
        at = route[c]
        row, column = at // stride - 1, at % stride - 1
        if degree[at] == 2 and row % 2 != column % 2:
            doors[count] = c
            count += 1
    m = cells_flat.size
    off = np.empty(m, dtype=np.int64)
    starts = np.zeros(route.size + 1, dtype=np.int64)
    k = 0
    for n in range(m):
        t = touch_high[cells_flat[n]]
        if dist_path[n] > 0 and t >= 0:
            off[k] = n
            k += 1
            starts[t + 1] += 1
    for t in range(route.size):
        starts[t + 1] += starts[t]
    order = np.empty(k, dtype=np.int64)
    for j in range(k):
        n = off[j]
        t = touch_high[cells_flat[n]]
        order[starts[t]] = n
        starts[t] += 1
    highs = np.empty(k, dtype=np.int64)
    score = np.empty(k, dtype=np.float64)
    for j in range(k):
        n = order[j]
        highs[j] = touch_high[cells_flat[n]]
        score[j] = (np.float64(dist_path[n]) + noise[n]) + (1e9 if cell_degree[n] == 1 else 0.0)
    return doors[:count].copy(), highs, order, score
