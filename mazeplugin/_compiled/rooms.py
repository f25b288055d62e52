"""Compiled loops of the ``rooms`` generator and of the rooms layer (``rooms=`` in any generator).

The generator: Nystrom's room placement and filling in dead ends (its
corridors are the backtracker kernel). The layer
(:mod:`mazeplugin.rooms.layer`), on a table of rooms (``layer.RoomTable``:
arrays, no Python object per room): covering and carving the rooms, listing
the possible doors, the Kruskal that chooses the doors joining the pieces,
and the pieces of the level (``unionfind.component_roots``). ``Maze.check``'s
test that each room is one piece is the ground layer's kernel
:mod:`mazeplugin._compiled.roomcheck`, whose union-find forest these share.

The doors are chosen by a union-find in one pass: the pieces the passages
make, then each door in the random order, kept when it joins two pieces.
That is the minimum spanning forest the plain path finds with Borůvka
(passages weigh least, then doors in their order; distinct weights make
the forest unique), so both paths open the same doors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Tuple

import numpy as np
from .jit import njit, types
from numpy.typing import NDArray

from ..maze import Maze
from ..seeds import Random
from .grid import i32, i64, u8, u64
from .rand import below, unit
from .roomcheck import piece_forest, root_of
from .sort import stable_argsort

if TYPE_CHECKING:
    from ..rooms.layer import RoomTable


@njit(i64(u8, types.int64, types.int64, types.int64, types.int64, u64), cache=True, nogil=True)
def place(mask: Any, height: int, width: int, low: int, high: int, words: Any) -> Any:
    """Rooms thrown at random, four words per attempt (width, height, x, y); each kept
    when inside the mask and one cell clear of the rooms kept before. ``(kept, 4)``
    rows ``x, y, room width, room height``, as ``layer.scatter_rooms`` keeps them."""
    near = np.zeros(height * width, dtype=np.uint8)
    kept = np.empty((words.size // 4, 4), dtype=np.int64)
    count = 0
    for a in range(words.size // 4):
        rw = min(low + below(words[4 * a], high - low + 1), width)
        rh = min(low + below(words[4 * a + 1], high - low + 1), height)
        x = below(words[4 * a + 2], width - rw + 1)
        y = below(words[4 * a + 3], height - rh + 1)
        fits = True
        for yy in range(y, y + rh):
            row = yy * width
            for xx in range(x, x + rw):
                if near[row + xx] or not mask[row + xx]:
                    fits = False
                    break
            if not fits:
                break
        if not fits:
            continue
        for yy in range(max(y - 1, 0), min(y + rh + 1, height)):
            for xx in range(max(x - 1, 0), min(x + rw + 1, width)):
                near[yy * width + xx] = 1
        kept[count, 0], kept[count, 1], kept[count, 2], kept[count, 3] = x, y, rw, rh
        count += 1
    return kept[:count].ravel().copy()


def scatter(mask: Any, rng: Random, room_size: Tuple[int, int], attempts: int) -> NDArray[np.int64]:
    """``(kept, 4)`` rows ``x, y, width, height`` of the rooms ``layer.scatter_rooms`` keeps, on the same draws."""
    h, w = mask.shape
    words = rng.raw(4 * attempts)  # the plain loop's rng.random(4 * attempts)
    flat = np.ascontiguousarray(mask, dtype=bool).reshape(-1).view(np.uint8)
    rows: NDArray[np.int64] = place(flat, h, w, int(room_size[0]), int(room_size[1]), words).reshape(-1, 4)
    return rows


@njit(types.void(u8, u8, u8, u8, u8, i64, u64, types.float64, types.int64), cache=True, nogil=True)
def fill(east: Any, south: Any, inside: Any, degree: Any, keep: Any, dead: Any, words: Any,
         prune: float, width: int) -> None:
    """Fill in each dead end whose word's ``unit`` is below ``prune``, back to a junction,
    a room or a kept cell (the plain ``_fill_dead_ends`` loop)."""
    for k in range(dead.size):
        if unit(words[k]) >= prune:
            continue
        cell = dead[k]
        while degree[cell] == 1 and not keep[cell]:
            if east[cell]:
                east[cell] = 0
                nxt = cell + 1
            elif south[cell]:
                south[cell] = 0
                nxt = cell + width
            elif east[cell - 1]:
                east[cell - 1] = 0
                nxt = cell - 1
            else:
                south[cell - width] = 0
                nxt = cell - width
            inside[cell] = 0
            degree[cell] = 0
            degree[nxt] -= 1
            cell = nxt


def fill_dead_ends(maze: Maze, rng: Random, prune: float) -> None:
    """``rooms._fill_dead_ends`` with its loop compiled."""
    degree_map = maze.degree()
    dead = np.flatnonzero(degree_map == 1).astype(np.int64)
    words = rng.raw(len(dead))  # the plain loop's rng.random(len(dead))
    keep = (maze.rooms > 0).reshape(-1).astype(np.uint8)
    keep[maze.cell_id(*maze.start)] = keep[maze.cell_id(*maze.goal)] = 1
    east, south, inside = (a.reshape(-1).view(np.uint8) for a in (maze.east, maze.south, maze.mask))
    fill(east, south, inside, degree_map.reshape(-1).view(np.uint8), keep, dead, words, float(prune), maze.width)


# -- the rooms layer (mazeplugin/rooms/layer.py): covering, carving, doors, pieces ---------------
#
# Rooms come as a table (``layer.RoomTable``): top-left cells ``xs``, ``ys``, ``numbers`` and
# ``kinds``, an index into the distinct prefabs, whose arrays are packed one after another
# (``layer.PackedPrefabs``): room kind ``j`` is ``pw[j]`` × ``ph[j]`` cells, its cells at
# ``cell_start[j]`` in ``floor``/``east``/``south`` (row-major), its corners at
# ``corner_start[j]`` and its door marks ``door_start[j]`` to ``door_start[j + 1]`` in
# ``cx, cy, dx, dy`` (``Prefab.door_offsets`` order).

NORTH_MARK, SOUTH_MARK, WEST_MARK, EAST_MARK = 1, 2, 4, 8


@njit(types.void(u8, types.int64, i64, i64, i64, i64, i64), cache=True, nogil=True)
def cover(cells: Any, width: int, xs: Any, ys: Any, kinds: Any, pw: Any, ph: Any) -> None:
    """Mark every cell inside a room's rectangle (``layer.room_cells``)."""
    for k in range(xs.size):
        j = kinds[k]
        for y in range(ys[k], ys[k] + ph[j]):
            for x in range(xs[k], xs[k] + pw[j]):
                cells[y * width + x] = 1


@njit(types.void(u8, u8, u8, u8, i32, types.int64, i64, i64, i64, i64, i64, i64, i64, i64,
                 u8, u8, u8, u8), cache=True, nogil=True)
def carve(mask: Any, east: Any, south: Any, corners: Any, rooms: Any, width: int,
          xs: Any, ys: Any, numbers: Any, kinds: Any, pw: Any, ph: Any, cell_start: Any, corner_start: Any,
          floor: Any, room_east: Any, room_south: Any, room_corners: Any) -> None:
    """Write each room's inside into the maze (the ``layer.carve_rooms`` loop)."""
    for k in range(xs.size):
        j = kinds[k]
        w, h = pw[j], ph[j]
        for r in range(h):
            for c in range(w):
                cell = (ys[k] + r) * width + xs[k] + c
                p = cell_start[j] + r * w + c
                mask[cell] = floor[p]
                east[cell] = room_east[p]
                south[cell] = room_south[p]
                rooms[cell] = numbers[k] if floor[p] else 0
        for r in range(h - 1):
            for c in range(w - 1):
                corners[(ys[k] + r) * (width - 1) + xs[k] + c] = room_corners[corner_start[j] + r * (w - 1) + c]


@njit(types.UniTuple(i64, 2)(types.int64, types.int64, i64, i64, i64, i64, i64, i64, i64, i64,  # type: ignore[no-untyped-call, unused-ignore]
                             u8, i32, u8), cache=True, nogil=True)
def candidates(width: int, height: int, xs: Any, ys: Any, kinds: Any, door_start: Any,
               cx: Any, cy: Any, dx: Any, dy: Any, within: Any, rooms: Any, ours: Any) -> Any:
    """Every possible door ``(inside, outside)``, room by room in mark order (``layer.door_candidates``).

    A door into a cell of one of these rooms (``ours[number]``) is kept only where that
    room marks the same wall back, and listed once, from its lower cell.
    """
    marks = np.zeros(width * height, dtype=np.uint8)  # the marks of these rooms, by cell
    total = 0
    for k in range(xs.size):
        j = kinds[k]
        for m in range(door_start[j], door_start[j + 1]):
            x, y = xs[k] + cx[m], ys[k] + cy[m]
            ox, oy = x + dx[m], y + dy[m]
            if 0 <= ox < width and 0 <= oy < height:
                marks[y * width + x] |= NORTH_MARK if dy[m] < 0 else SOUTH_MARK if dy[m] > 0 else \
                    WEST_MARK if dx[m] < 0 else EAST_MARK
                total += 1
    inside = np.empty(total, dtype=np.int64)
    outside = np.empty(total, dtype=np.int64)
    count = 0
    for k in range(xs.size):
        j = kinds[k]
        for m in range(door_start[j], door_start[j + 1]):
            x, y = xs[k] + cx[m], ys[k] + cy[m]
            ox, oy = x + dx[m], y + dy[m]
            if not (0 <= ox < width and 0 <= oy < height):
                continue
            a, b = y * width + x, oy * width + ox
            if not within[b]:
                continue
            other = rooms[b]
            if other > 0 and other < ours.size and ours[other]:
                back = SOUTH_MARK if dy[m] < 0 else NORTH_MARK if dy[m] > 0 else EAST_MARK if dx[m] < 0 else WEST_MARK
                if not marks[b] & back or a > b:
                    continue
            inside[count], outside[count] = a, b
            count += 1
    return inside[:count].copy(), outside[:count].copy()


@njit(i64(i32, u8, i64, types.int64), cache=True, nogil=True)
def shut(owner: Any, faces_maze: Any, outside: Any, numbers: int) -> Any:
    """For each room none of whose possible doors ``(owner, outside)`` faces a maze cell, the
    cell beyond its first door (``layer.open_doors`` gives those cells back to the maze)."""
    first = np.full(numbers, -1, dtype=np.int64)
    faces = np.zeros(numbers, dtype=np.uint8)
    for k in range(owner.size):
        if first[owner[k]] < 0:
            first[owner[k]] = k
        if faces_maze[k]:
            faces[owner[k]] = 1
    cells = np.empty(numbers, dtype=np.int64)
    count = 0
    for number in range(numbers):
        if first[number] >= 0 and not faces[number]:
            cells[count] = outside[first[number]]
            count += 1
    return cells[:count].copy()


@njit(u8(i32, i64, i64, types.int64), cache=True, nogil=True)
def touched(rooms: Any, inside: Any, outside: Any, numbers: int) -> Any:
    """For each room number below ``numbers``, whether a door ``(inside, outside)`` has an end in it."""
    has = np.zeros(numbers, dtype=np.uint8)
    for k in range(inside.size):
        has[rooms[inside[k]]] = 1
        has[rooms[outside[k]]] = 1
    return has


@njit(types.Tuple((u8, types.int64))(u8, u8, u8, types.int64, i64, i64), cache=True, nogil=True)  # type: ignore[no-untyped-call, unused-ignore]
def kruskal_doors(east: Any, south: Any, cells: Any, width: int, inside: Any, outside: Any) -> Any:
    """Kruskal over the pieces: the pieces the open passages make, then each door in turn;
    a door is chosen when it joins two pieces not yet joined. Also how many pieces hold a
    ``cells`` cell once every door is open."""
    parent = piece_forest(east, south, width, np.zeros(1, dtype=np.int32), False)
    chosen = np.zeros(inside.size, dtype=np.uint8)
    for k in range(inside.size):
        a, b = root_of(parent, inside[k]), root_of(parent, outside[k])
        if a != b:
            parent[max(a, b)] = min(a, b)  # roots stay the smallest cells
            chosen[k] = 1
    seen = np.zeros(east.size, dtype=np.uint8)
    count = 0
    for cell in range(east.size):
        if cells[cell]:
            root = root_of(parent, cell)
            if not seen[root]:
                seen[root] = 1
                count += 1
    return chosen, count


@njit(types.int64(u8, u8, u8, types.int64, i64, i64, u64, u64, types.float64), cache=True, nogil=True)
def open_by_chance(east: Any, south: Any, cells: Any, width: int, inside: Any, outside: Any,
                   order_words: Any, chance_words: Any, chance: float) -> int:
    """``layer.open_doors`` with ``doors`` a chance, in one pass: the doors in the order of
    ``rng.permutation`` (the stable sort of ``order_words``); door ``k`` of that order opens
    when it joins two pieces not yet joined (Kruskal over the pieces, as ``kruskal_doors``)
    or when ``unit(chance_words[k]) < chance`` (``rng.random``). How many pieces hold a
    ``cells`` cell once the doors are open.

    The union-find runs over the pieces, numbered 0, 1, ... (a few per room), not over the
    cells: the doors' ends are looked up once, room by room, and the forest the random order
    walks is small enough to stay in the cache.
    """
    size = east.size
    root = piece_forest(east, south, width, np.zeros(1, dtype=np.int32), False)  # flat: cell -> root
    piece = np.full(size, -1, dtype=np.int32)  # root -> piece number
    count = 0  # pieces holding a `cells` cell: numbered first
    for cell in range(size):
        if cells[cell] and piece[root[cell]] < 0:
            piece[root[cell]] = count
            count += 1
    n = inside.size
    pieces = count
    ends = np.empty((n, 2), dtype=np.int32)  # each door's two pieces, in the listed order
    for door in range(n):
        for side in range(2):
            r = root[inside[door] if side == 0 else outside[door]]
            if piece[r] < 0:  # (a door's ends are maze cells: never, but stay exact)
                piece[r] = pieces
                pieces += 1
            ends[door, side] = piece[r]
    order = stable_argsort(order_words)
    parent = np.arange(pieces).astype(np.int32)
    holds = np.zeros(pieces, dtype=np.uint8)  # the piece holds a `cells` cell
    holds[:count] = 1
    for k in range(n):
        door = order[k]
        a, b = ends[door, 0], ends[door, 1]
        while parent[a] != a:  # roots, halving the paths
            parent[a] = parent[parent[a]]
            a = parent[a]
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        joins = a != b
        if joins:
            parent[max(a, b)] = min(a, b)
            if holds[a] and holds[b]:
                count -= 1
            holds[min(a, b)] |= holds[max(a, b)]
        if joins or unit(chance_words[k]) < chance:
            low, high = min(inside[door], outside[door]), max(inside[door], outside[door])
            if high - low == width:  # (Maze.open_many: a width-1 maze has only south passages)
                south[low] = 1
            else:
                east[low] = 1
    return count


@njit(types.Tuple((i64, types.int64))(u8, u8, u8, types.int64), cache=True, nogil=True)  # type: ignore[no-untyped-call, unused-ignore]
def piece_roots(east: Any, south: Any, cells: Any, width: int) -> Any:
    """Each cell's piece as its smallest cell id, and how many pieces hold a ``cells`` cell."""
    label = piece_forest(east, south, width, np.zeros(1, dtype=np.int32), False).astype(np.int64)
    seen = np.zeros(east.size, dtype=np.uint8)
    count = 0
    for cell in range(east.size):
        if cells[cell] and not seen[label[cell]]:
            seen[label[cell]] = 1
            count += 1
    return label, count


# -- the Python side of the layer kernels ----------------------------------------------------------


def _flat(array: NDArray[Any]) -> NDArray[np.uint8]:
    """A flat uint8 view of a C-contiguous bool array, for a kernel to read or write."""
    if not array.flags.c_contiguous:  # never for a Maze made here; be safe for plugins
        raise ValueError("maze arrays must be C-contiguous")
    return array.reshape(-1).view(np.uint8)


def room_cells(table: RoomTable, shape: Tuple[int, int]) -> NDArray[np.bool_]:
    """``layer.room_cells`` on a room table."""
    cells = np.zeros(shape, dtype=bool)
    packed = table.packed()
    cover(_flat(cells), shape[1], table.xs, table.ys, table.kinds, packed.width, packed.height)
    return cells


def carve_rooms(maze: Maze, table: RoomTable) -> None:
    """``layer.carve_rooms`` on a room table."""
    p = table.packed()
    if maze.rooms.dtype != np.int32 or not maze.rooms.flags.c_contiguous:
        raise ValueError("maze.rooms must be a C-contiguous int32 array")
    carve(_flat(maze.mask), _flat(maze.east), _flat(maze.south), _flat(maze.corners), maze.rooms.reshape(-1),
          maze.width, table.xs, table.ys, table.numbers, table.kinds, p.width, p.height, p.cell_start,
          p.corner_start, p.floor, p.east, p.south, p.corners)


def door_candidates(maze: Maze, table: RoomTable, within: NDArray[np.bool_]) -> Tuple[NDArray[np.int64], NDArray[np.int64]]:
    """``layer.door_candidates`` on a room table."""
    p = table.packed()
    ours = np.zeros(int(table.numbers.max(initial=0)) + 1, dtype=np.uint8)
    ours[table.numbers] = 1
    within = np.ascontiguousarray(within, dtype=bool)
    rooms = np.ascontiguousarray(maze.rooms, dtype=np.int32).reshape(-1)
    inside, outside = candidates(maze.width, maze.height, table.xs, table.ys, table.kinds, p.door_start,
                                 p.cx, p.cy, p.dx, p.dy, _flat(within), rooms, ours)
    return inside, outside


def shut_rooms(owner: NDArray[np.int32], faces_maze: NDArray[np.bool_], outside: NDArray[np.int64],
               numbers: int) -> NDArray[np.int64]:
    """The cells ``layer.open_doors`` gives back to rooms whose every possible door faces filled-in cells."""
    cells: NDArray[np.int64] = shut(np.ascontiguousarray(owner, dtype=np.int32), _flat(np.ascontiguousarray(faces_maze)),
                                    outside, numbers)
    return cells


def rooms_with_doors(rooms: NDArray[np.int32], inside: NDArray[np.int64], outside: NDArray[np.int64],
                     numbers: int) -> NDArray[np.bool_]:
    """Which room numbers (below ``numbers``) a door has an end in (``layer.open_doors``'s ``has``)."""
    has: NDArray[np.bool_] = touched(np.ascontiguousarray(rooms, dtype=np.int32), inside, outside, numbers).view(np.bool_)
    return has


def permutation(rng: Random, n: int) -> NDArray[np.int32]:
    """``rng.permutation(n)``: the same stable sort of the same raw words, compiled."""
    order: NDArray[np.int32] = stable_argsort(rng.raw(n))
    return order


def chosen_doors(maze: Maze, inside: NDArray[np.int64], outside: NDArray[np.int64]) -> Tuple[NDArray[np.bool_], int]:
    """The doors in the minimum spanning forest of passages then doors (``layer.open_doors``),
    and how many pieces the maze's cells make once every door is open."""
    chosen, count = kruskal_doors(_flat(maze.east), _flat(maze.south), _flat(np.ascontiguousarray(maze.mask)),
                                  maze.width, np.ascontiguousarray(inside, dtype=np.int64),
                                  np.ascontiguousarray(outside, dtype=np.int64))
    return chosen.view(np.bool_), int(count)


def open_doors_by_chance(maze: Maze, inside: NDArray[np.int64], outside: NDArray[np.int64], rng: Random,
                         chance: float) -> int:
    """``layer.open_doors``'s random order, Kruskal and doors by chance, on the same draws
    (``rng.permutation(n)`` then ``rng.random(n)``); how many pieces the maze's cells make then."""
    n = len(inside)
    order_words = rng.raw(n)  # rng.permutation(n)'s words
    chance_words = rng.raw(n)  # then rng.random(n)'s
    return int(open_by_chance(_flat(maze.east), _flat(maze.south), _flat(np.ascontiguousarray(maze.mask)), maze.width,
                              np.ascontiguousarray(inside, dtype=np.int64), np.ascontiguousarray(outside, dtype=np.int64),
                              order_words, chance_words, float(chance)))


def pieces(east: NDArray[np.bool_], south: NDArray[np.bool_], cells: NDArray[np.bool_]) -> Tuple[NDArray[np.int64], int]:
    """Each cell's piece as its smallest cell id, and how many pieces hold a ``cells`` cell."""
    label, count = piece_roots(_flat(np.ascontiguousarray(east)), _flat(np.ascontiguousarray(south)),
                               _flat(np.ascontiguousarray(cells)), east.shape[1])
    return label, int(count)
