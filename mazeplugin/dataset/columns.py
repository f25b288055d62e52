"""Opt-in shard columns: what a learning system reads beside the level (solutions, distance maps, expert actions).

A spec entry's ``"columns"`` list asks for them; an entry without it makes
the very shards it always made (the same bytes, the same spec checksum).
Entries with markers; a square entry's ``.npz`` arrays, after every other
column, in this order:

- ``"solution"``: ``solution`` int32 ``(total, 2)``: every level's
  :meth:`~mazeplugin.Level.solution` tiles ``(x, y)`` end to end (detours to
  keys included), cut at ``solution_offsets`` int64 ``(levels + 1)``; and
  ``solution_length`` int32 ``(levels,)``: its tiles, both ends included
  (the steps are one fewer).
- ``"distances"``: ``distances`` int32 ``(levels, rows, columns)``: steps
  from the entrance to every tile (:meth:`~mazeplugin.Level.distances`, doors
  ignored), -1 on walls and unreachable tiles.
- ``"moves"``: ``moves`` uint8 cut at ``moves_offsets`` int64: the simple
  mode's moves along the solution (``mazeplugin.gym.Moves`` ids: 0 north,
  1 east, 2 south, 3 west); see :mod:`mazeplugin.dataset.expert`.
- ``"actions"``: ``actions`` uint8 cut at ``actions_offsets`` int64: the
  MiniGrid mode's actions along the solution (``mazeplugin.gym.Actions``
  ids: 0 left, 1 right, 2 forward, 3 pickup, 4 drop, 5 toggle), keys picked
  up and doors toggled open, one key carried at a time.
- ``"tokens"``: ``tokens`` int32 cut at ``tokens_offsets`` int64: each
  level's text (:func:`mazeplugin.dataset.tokens.encode` with the entry's
  ``"tokenizer"`` options: ``format``, ``coordinates``, ``path``,
  ``openings``, ``solution``) as ids in ``vocabulary(format, height, width,
  coordinates=...)`` (:func:`vocabulary_of` gives it for an entry).
- ``"images"``: ``images`` uint8 ``(levels, 2, rows * s, columns * s, 3)``:
  each level's input and target pictures (:mod:`mazeplugin.dataset.images`),
  ``s`` the entry's ``"image_scale"`` (default 1), made for the whole shard
  in one numpy step.

``moves`` and ``actions`` are refused for weave entries. A ``grid=`` (hex,
triangle, polar) or ``wrap=`` entry's levels have cells, not tiles: they take
``"solution"`` (``solution`` int32 ``(total,)``: the cells of
:meth:`~mazeplugin.Level.solution`, cut at
``solution_offsets``, and ``solution_length``: its cells) and
``"distances"`` (int32 ``(levels, cells)``: passages walked from the
entrance to each cell, -1 unreached); the other columns are refused naming
the column and the grid (:func:`check_grid_columns`). A Parquet shard has
one column each: ``solution`` (list of int32, ``x0, y0, x1, y1, ...``),
``solution_length`` (int32), ``distances`` (list of int32, row by row),
``moves`` and ``actions`` (lists of uint8), ``tokens`` (list of int32),
``images`` (list of uint8, the pair's pixels in the ``.npz`` order).

:func:`mazeplugin.dataset.open` puts them on each level as a dict,
``level.columns["actions"]`` (``solution`` as an ``(n, 2)`` array).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, cast

import numpy as np
from numpy.typing import NDArray

import mazeplugin as mp
from mazeplugin import paths
from mazeplugin._compiled import twin
from mazeplugin.level import Level
from mazeplugin.limits import MAX_SOLVE_STEPS, MAX_SOLVE_TILE_STEPS
from mazeplugin.pipeline_batch import LevelBatch

from . import expert, images

__all__ = ["COLUMNS", "RAGGED", "check_columns", "level_columns", "tile_columns", "column_arrays", "columns_at", "batch_columns", "names_in",
           "check_tokenizer", "check_image_scale", "vocabulary_of", "TOKENIZER_DEFAULTS"]

COLUMNS = ("solution", "distances", "moves", "actions", "tokens", "images")
"""The names a spec entry's ``"columns"`` list takes, in the order a shard holds them."""

RAGGED: Dict[str, "np.dtype[Any]"] = {"solution": np.dtype("<i4"), "moves": np.dtype("u1"), "actions": np.dtype("u1"),
                                      "tokens": np.dtype("<i4")}

"""The columns of one sequence a level, end to end and cut at ``<name>_offsets``, and their dtypes."""

TOKENIZER_DEFAULTS: Dict[str, Any] = {"format": "maze-dataset", "coordinates": "unique", "path": "coordinates",
                                      "openings": True, "solution": True}
"""A spec entry's ``"tokenizer"`` options and their defaults (:func:`mazeplugin.dataset.tokens.encode`'s)."""

Tile = Tuple[int, int]

_ROUTES = twin("routes")  # every level's solution, moves, actions and distances of a batch in one call


def check_columns(raw: object, where: str) -> Tuple[str, ...]:
    """A spec entry's ``"columns"`` value checked: a list of distinct names of :data:`COLUMNS`, in shard order."""
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise ValueError(f"{where}: columns must be a list of names from {', '.join(COLUMNS)}, got {raw!r:.80}")
    unknown = [name for name in raw if name not in COLUMNS]
    if unknown:
        raise ValueError(f"{where}: unknown column {unknown[0]!r}; columns are {', '.join(COLUMNS)}")
    if len(set(raw)) != len(raw):
        raise ValueError(f"{where}: columns names {raw!r:.80} more than once; give each column once")
    return tuple(name for name in COLUMNS if name in raw)


GRID_COLUMNS = ("solution", "distances")
"""The columns of a ``grid=`` or ``wrap=`` entry's levels (cells, not tiles: see the module docstring)."""

_NOT_ON_GRIDS = {
    "moves": "the four moves step north, east, south and west between square tiles",
    "actions": "MiniGrid's turns and forward steps are for square tiles",
    "tokens": "the tokenisers write square lattices of (row, column) coordinates",
    "images": "the pictures are drawn from a square tilemap",
}


def check_grid_columns(names: Sequence[str], grid: str, where: str) -> None:
    """Refuse the columns a ``grid`` (``"hex"``, ``"triangle"``, ``"polar"`` or ``"wrap"``) entry's levels do not
    have, naming the column and the grid; they have :data:`GRID_COLUMNS`."""
    for name in names:
        if name not in GRID_COLUMNS:
            what = "wrapping square" if grid == "wrap" else grid
            reason = ("a step through a wrap passage leaves the map" if grid == "wrap" and name in ("moves", "actions")
                      else _NOT_ON_GRIDS[name])
            raise ValueError(f"{where}: column {name!r} is not defined on {what} levels ({reason}); "
                             f"{what} entries take the columns {', '.join(GRID_COLUMNS)}")


def grid_level_columns(level: Level, names: Sequence[str]) -> Dict[str, NDArray[Any]]:
    """The asked columns of a grid level (``grid=`` or ``wrap=``): ``solution`` an int32 array of the cells of
    :meth:`~mazeplugin.Level.solution_cells`, ``distances`` its
    :meth:`~mazeplugin.Level.distances_cells` (passages walked to each cell, -1 unreached)."""
    check_grid_columns(names, "wrap" if level.options.get("wrap") is not None else level.grid, "columns")
    out: Dict[str, NDArray[Any]] = {}
    if "solution" in names:
        cells = level.solution_cells()
        if not cells:
            raise ValueError("the exit cannot be reached from the entrance")
        out["solution"] = np.array(cells, dtype="<i4")
    if "distances" in names:
        out["distances"] = level.distances_cells().astype("<i4")
    return out


def check_image_scale(raw: object, where: str) -> int:
    """A spec entry's ``"image_scale"`` checked: pixels a tile side, 1 to :data:`~mazeplugin.dataset.images.MAX_SCALE`."""
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= images.MAX_SCALE:
        raise ValueError(f"{where}: image_scale must be an int from 1 to {images.MAX_SCALE}, got {raw!r:.80}")
    return raw


def check_tokenizer(raw: object, where: str) -> Dict[str, Any]:
    """A spec entry's ``"tokenizer"`` value checked, every default filled in."""
    from . import tokens

    if not isinstance(raw, dict):
        raise ValueError(f"{where}: tokenizer must be an object of {', '.join(TOKENIZER_DEFAULTS)}, got {raw!r:.80}")
    unknown = sorted(set(raw) - set(TOKENIZER_DEFAULTS))
    if unknown:
        raise ValueError(f"{where}: tokenizer has unknown option {unknown[0]!r}; options are "
                         f"{', '.join(TOKENIZER_DEFAULTS)}")
    options = {**TOKENIZER_DEFAULTS, **raw}
    for name, allowed in (("format", tokens.FORMATS), ("coordinates", tokens.COORDINATES), ("path", tokens.PATHS)):
        if options[name] not in allowed:
            raise ValueError(f"{where}: tokenizer {name} must be one of {', '.join(map(repr, allowed))}, "
                             f"got {options[name]!r:.80}")
    for name in ("openings", "solution"):
        if not isinstance(options[name], bool):
            raise ValueError(f"{where}: tokenizer {name} must be true or false, got {options[name]!r:.80}")
    return options


def vocabulary_of(width: int, height: int, tokenizer: Mapping[str, Any]) -> Tuple[str, ...]:
    """The vocabulary a ``"tokens"`` column's ids index, for an entry of ``width`` x ``height`` cells."""
    from . import tokens

    return tokens.vocabulary(tokenizer["format"], height, width, coordinates=tokenizer["coordinates"])


def level_columns(level: mp.Level, names: Sequence[str],
                  tokenizer: Optional[Mapping[str, Any]] = None) -> Dict[str, NDArray[Any]]:
    """The asked columns of one level (``solution`` an ``(n, 2)`` int32 array of ``(x, y)`` tiles)."""
    out: Dict[str, NDArray[Any]] = {}
    path = level.solution() if {"solution", "moves", "actions", "images"} & set(names) else []
    if "solution" in names:
        out["solution"] = np.array(path, dtype="<i4").reshape(-1, 2)
    if "distances" in names:
        out["distances"] = level.distances().astype("<i4")
    if "moves" in names:
        out["moves"] = np.array(expert.moves(path), dtype=np.uint8)
    if "actions" in names:
        out["actions"] = np.array(expert.actions(level, path), dtype=np.uint8)
    if "tokens" in names:
        from . import tokens

        options = {**TOKENIZER_DEFAULTS, **(tokenizer or {})}
        vocab = vocabulary_of(level.maze.width, level.maze.height, options)
        out["tokens"] = tokens.ids(tokens.encode(level, **options), vocab)
    if "images" in names:
        assert level.entrance is not None and level.exit is not None
        keys = [t.tile for t in level.things if t.kind == "key"]
        doors = [tile for t in level.things if t.kind == "door" for tile in t.tiles()]
        out["images"] = images.codes(level.tiles, level.entrance, level.exit, path, keys, doors)
    return out


def tile_columns(tiles: NDArray[np.uint8], entrance: Tile, exit: Tile, names: Sequence[str]) -> Dict[str, NDArray[Any]]:
    """:func:`level_columns` of a level without content or bridges, from its tiles and markers (the batched lane)."""
    out: Dict[str, NDArray[Any]] = {}
    path: List[Tile] = []
    if {"solution", "moves", "actions", "images"} & set(names):
        found = paths.shortest_path(tiles, entrance, exit)
        if found is None:  # pragma: no cover - generate() always joins the markers
            raise ValueError("the exit cannot be reached from the entrance")
        path = found
    if "solution" in names:
        out["solution"] = np.array(path, dtype="<i4").reshape(-1, 2)
    if "distances" in names:
        out["distances"] = paths.distance_map(tiles, entrance).astype("<i4")
    if "moves" in names:
        out["moves"] = np.array(expert.moves(path), dtype=np.uint8)
    if "actions" in names:
        out["actions"] = np.array(expert.plan_actions(tiles, path, {}, {}, exit), dtype=np.uint8)
    if "images" in names:
        out["images"] = images.codes(tiles, entrance, exit, path)
    return out


def batch_columns(batch: LevelBatch, names: Sequence[str], tokenizer: Optional[Mapping[str, Any]] = None,
                  image_scale: int = 1) -> Dict[str, NDArray[Any]]:
    """The shard arrays of the columns of a :class:`~mazeplugin.pipeline_batch.LevelBatch`'s levels (made from
    its tiles; a ``Level`` each only for ``"tokens"``)."""
    tiles, entrance, exit = batch.tiles, batch.entrance, batch.exit
    if entrance is None or exit is None:
        raise ValueError("columns need levels with an entrance and an exit")
    if "tokens" not in names:
        fast = _ROUTES.pick(int(tiles.size))
        if fast is not None:  # every level's routes in one call (mazeplugin/_compiled/routes.py)
            return _routes_columns(fast, tiles, entrance, exit, names, image_scale)
    per_level = []  # the plain code: level by level
    for i in range(len(batch)):
        if "tokens" in names:
            per_level.append(level_columns(batch.level(i), names, tokenizer))
        else:
            per_level.append(tile_columns(tiles[i], entrance, exit, names))
    return column_arrays(per_level, names, (int(tiles.shape[1]), int(tiles.shape[2])), image_scale)


def _routes_columns(fast: Any, tiles: NDArray[np.uint8], entrance: Tile, exit: Tile, names: Sequence[str],
                    image_scale: int) -> Dict[str, NDArray[Any]]:
    """:func:`batch_columns` from the compiled routes of every level at once: the same arrays, in the same order,
    as :func:`column_arrays` of each level's :func:`tile_columns`."""
    count = int(tiles.shape[0])
    ends = np.empty((2, count, 2), dtype=np.int64)
    ends[0], ends[1] = entrance, exit
    asked = set(names) | ({"solution"} if "images" in names else set())
    routes = fast.batch_routes(tiles, ends[0], ends[1], sorted(asked))
    arrays: Dict[str, NDArray[Any]] = {}
    for name in COLUMNS:
        if name not in names:
            continue
        if name == "distances":
            arrays[name] = routes[name].astype("<i4", copy=False)
        elif name == "images":
            offsets = routes["solution_offsets"]
            walked = routes["solution"]
            maps = np.empty((count, 2) + tiles.shape[1:], dtype=np.uint8)
            maps[:, 0] = tiles  # as images.codes, every level at once
            maps[:, 1] = tiles
            level_of = np.repeat(np.arange(count), np.diff(offsets))
            maps[level_of, 1, walked[:, 1], walked[:, 0]] = images.PATH_CODE
            maps[:, :, entrance[1], entrance[0]] = images.ENTRANCE_CODE
            maps[:, :, exit[1], exit[0]] = images.EXIT_CODE
            arrays[name] = images.pixels(maps, image_scale)
        else:
            arrays[name] = routes[name].astype(RAGGED[name], copy=False)
            arrays[name + "_offsets"] = routes[name + "_offsets"].astype("<i8", copy=False)
            if name == "solution":
                arrays["solution_length"] = np.diff(arrays["solution_offsets"]).astype("<i4")
    return arrays


def levels_columns(levels: Sequence[mp.Level], names: Sequence[str]) -> Optional[List[Optional[Dict[str, NDArray[Any]]]]]:
    """Every level's :func:`level_columns` from compiled calls over all of them (keys and doors too), or None
    when the compiled path is off or a column needs the level itself (``"tokens"``). A level the kernels do not
    take (a weave, no markers, things that do not pair keys with doors, too many keys) or whose route the
    planner refuses (a key swap) gets None in the list: ask :func:`level_columns` for it."""
    if not levels or "tokens" in names or not {"solution", "distances", "moves", "actions", "images"} & set(names):
        return None
    fast = _ROUTES.pick(int(levels[0].tiles.size) * len(levels))
    if fast is None:
        return None
    out: List[Optional[Dict[str, NDArray[Any]]]] = [None] * len(levels)
    shapes: Dict[Tuple[int, int], List[int]] = {}
    for i, level in enumerate(levels):
        if not level.weave and level.entrance is not None and level.exit is not None:
            shapes.setdefault(level.tiles.shape, []).append(i)
    for group in shapes.values():
        for i, columns in zip(group, _group_columns(fast, [levels[i] for i in group], names)):
            out[i] = columns
    return out


def _group_columns(fast: Any, levels: Sequence[mp.Level], names: Sequence[str]) -> List[Optional[Dict[str, NDArray[Any]]]]:
    """:func:`levels_columns` of levels of one tile shape, each with markers and no bridges."""
    count = len(levels)
    tiles = np.stack([level.tiles for level in levels])
    pitch = tiles.shape[2] + 2
    ends = np.array([[level.entrance, level.exit] for level in levels], dtype=np.int64).reshape(count, 2, 2)
    locks = [_locks(level, pitch) for level in levels]
    routes: Dict[str, NDArray[Any]] = {}
    paths_of: List[Optional[NDArray[np.int32]]] = [None] * count
    failed = np.zeros(count, dtype=bool)
    failed[[i for i, found in enumerate(locks) if found is None]] = True
    if "distances" in names:
        routes = fast.batch_routes(tiles, ends[:, 0], ends[:, 1], ["distances"])
    if {"solution", "moves", "actions", "images"} & set(names):
        plain = [i for i, found in enumerate(locks) if found is not None and not found[0]]
        if plain:
            found = fast.batch_routes(tiles[plain], ends[plain, 0], ends[plain, 1], ["solution"])
            cuts = found["solution_offsets"]
            for k, i in enumerate(plain):
                paths_of[i] = found["solution"][cuts[k]:cuts[k + 1]]
        keyed = [i for i, found in enumerate(locks) if found is not None and found[0]]
        if keyed:
            free, _ = fast.framed(tiles[keyed])
            key_cuts, key_tiles, door_cuts, door_tiles = _lock_arrays([locks[i] for i in keyed], "solve")
            starts, goals = ((ends[keyed, side, 1] + 1) * pitch + ends[keyed, side, 0] + 1 for side in (0, 1))
            walked, cuts, missing = fast.keyed_solutions(free, pitch, starts, goals, key_cuts, key_tiles, door_cuts,
                                                       door_tiles)
            for k, i in enumerate(keyed):
                if missing[k]:
                    failed[i] = True
                else:
                    paths_of[i] = walked[cuts[k]:cuts[k + 1]]
    actions: List[Optional[NDArray[np.uint8]]] = [None] * count
    if "actions" in names:
        todo = [i for i in range(count) if not failed[i]]
        if todo:
            free, _ = fast.framed(tiles[todo])
            walks = [paths_of[i] for i in todo]
            cuts = np.zeros(len(todo) + 1, dtype=np.int64)
            np.cumsum([len(w) for w in walks], out=cuts[1:])  # type: ignore[arg-type]
            key_cuts, key_tiles, key_locks, door_cuts, door_tiles, door_locks = _lock_arrays(
                [locks[i] for i in todo], "plan")
            goals = (ends[todo, 1, 1] + 1) * pitch + ends[todo, 1, 0] + 1
            made, made_cuts, refused = fast.keyed_actions(free, pitch, np.concatenate(walks).astype(np.int32),  # type: ignore[arg-type]
                                                          cuts, goals, key_cuts, key_tiles, key_locks, door_cuts,
                                                          door_tiles, door_locks)
            for k, i in enumerate(todo):
                if refused[k]:
                    failed[i] = True
                else:
                    actions[i] = made[made_cuts[k]:made_cuts[k + 1]]
    out: List[Optional[Dict[str, NDArray[Any]]]] = []
    for i, level in enumerate(levels):
        if failed[i]:
            out.append(None)
            continue
        columns: Dict[str, NDArray[Any]] = {}
        found_walk = paths_of[i]
        walk: NDArray[np.int32] = found_walk if found_walk is not None else np.empty((0, 2), dtype=np.int32)
        if "solution" in names:
            columns["solution"] = walk
        if "distances" in names:
            columns["distances"] = routes["distances"][i]
        if "moves" in names:
            steps = np.diff(walk, axis=0)
            columns["moves"] = _MOVE_IDS[steps[:, 0] + 1, steps[:, 1] + 1]
        if "actions" in names:
            found_actions = actions[i]
            assert found_actions is not None
            columns["actions"] = found_actions
        if "images" in names:
            assert level.entrance is not None and level.exit is not None
            keys = [t.tile for t in level.things if t.kind == "key"]
            doors = [tile for t in level.things if t.kind == "door" for tile in t.tiles()]
            columns["images"] = images.codes(level.tiles, level.entrance, level.exit, cast(Sequence[Tile], walk),
                                             keys, doors)
        out.append(columns)
    return out


# Moves ids by a step's (dx + 1, dy + 1): 0 north, 1 east, 2 south, 3 west (a solution's steps are 4-adjacent).
_MOVE_IDS = np.array([[0, 3, 0], [0, 0, 2], [0, 1, 0]], dtype=np.uint8)

Locks = Tuple[bool, List[int], List[int], List[List[int]], List[int], List[int], List[int]]


def _locks(level: mp.Level, pitch: int) -> Optional[Locks]:
    """A level's keys and doors as the kernels take them (framed flat tiles): ``(any doors, key tiles in key id
    order, their locks, each one's door tiles, the locks of those doors, every door tile, its lock)``; None for
    things the kernels do not take (a door and key not paired both ways, locks that are not small ints, too many
    keys to search), which go to the plain code."""
    doors = {t.id: t for t in level.things if t.kind == "door"}
    keys = {t.id: t for t in level.things if t.kind == "key"}
    if not doors and not keys:
        return (False, [], [], [], [], [], [])
    if len(doors) != len(keys) or len(keys) > _MAX_KEYS:
        return None
    key_tiles, key_locks, their_doors, their_locks = [], [], [], []
    for key_id in sorted(keys):
        key = keys[key_id]
        door = doors.get(key.props.get("door", -1))
        if door is None or door.props.get("key") != key.id:
            return None
        for lock in (key.props.get("lock"), door.props.get("lock")):
            if isinstance(lock, bool) or not isinstance(lock, int) or not 0 <= lock < 1 << 20:
                return None
        key_tiles.append((key.y + 1) * pitch + key.x + 1)
        key_locks.append(int(key.props["lock"]))
        their_doors.append([(y + 1) * pitch + x + 1 for x, y in door.tiles()])
        their_locks.append(int(door.props["lock"]))
    count, tile_count = len(keys), int(level.tiles.size)
    # content.proof.solve refuses, before searching, levels whose keys open too many ways; these keys are
    # few enough that it never can (its counts are bounded by these), so the kernel solves exactly the same.
    if ((1 + count * 2 ** count) * count > MAX_SOLVE_STEPS
            or (count + 1) * 2 ** count > max(count + 1, MAX_SOLVE_TILE_STEPS // max(tile_count, 1))):
        return None
    every_door, every_lock = [], []
    for door in doors.values():
        for x, y in door.tiles():
            every_door.append((y + 1) * pitch + x + 1)
            every_lock.append(int(door.props["lock"]))
    return (True, key_tiles, key_locks, their_doors, their_locks, every_door, every_lock)


_MAX_KEYS = 12


def _lock_arrays(found: Sequence[Optional[Locks]], use: str) -> Tuple[NDArray[np.int64], ...]:
    """The kernels' flat arrays of levels' :func:`_locks`: for ``"solve"`` ``(key offsets, key tiles, door
    offsets, door tiles)`` (a door per key); for ``"plan"`` ``(key offsets, key tiles, key locks, door offsets,
    door tiles, door locks)`` (every door tile)."""
    locks = [f for f in found if f is not None]
    def cut(sizes: Sequence[int]) -> NDArray[np.int64]:
        offsets = np.zeros(len(sizes) + 1, dtype=np.int64)
        np.cumsum(sizes, out=offsets[1:])
        return offsets

    def flat(values: Sequence[Sequence[int]]) -> NDArray[np.int64]:
        return np.array([v for part in values for v in part], dtype=np.int64)

    key_cuts = cut([len(f[1]) for f in locks])
    key_tiles = flat([f[1] for f in locks])
    if use == "solve":
        per_key = [door for f in locks for door in f[3]]
        return key_cuts, key_tiles, cut([len(d) for d in per_key]), flat(per_key)
    return (key_cuts, key_tiles, flat([f[2] for f in locks]), cut([len(f[5]) for f in locks]),
            flat([f[5] for f in locks]), flat([f[6] for f in locks]))


def column_arrays(per_level: Sequence[Mapping[str, NDArray[Any]]], names: Sequence[str],
                  shape: Tuple[int, ...], image_scale: int = 1) -> Dict[str, NDArray[Any]]:
    """The shard arrays (see the module docstring) of every level's :func:`level_columns` (``shape`` the tiles'),
    or of every grid level's :func:`grid_level_columns` (``shape`` ``(cells,)``)."""
    arrays: Dict[str, NDArray[Any]] = {}
    for name in COLUMNS:
        if name not in names:
            continue
        if name == "images":  # the whole shard's pictures in one step
            maps = (np.stack([c[name] for c in per_level]) if per_level
                    else np.empty((0, 2) + shape, dtype=np.uint8))
            arrays[name] = images.pixels(maps, image_scale)
            continue
        if name == "distances":
            arrays[name] = (np.stack([c[name] for c in per_level]).astype("<i4") if per_level
                            else np.empty((0,) + shape, dtype="<i4"))
            continue
        parts = [c[name] for c in per_level]
        offsets = np.zeros(len(parts) + 1, dtype="<i8")
        np.cumsum([len(p) for p in parts], out=offsets[1:])
        width = (2,) if name == "solution" and len(shape) == 2 else ()
        arrays[name] = (np.concatenate(parts).astype(RAGGED[name]) if parts
                        else np.empty((0,) + width, dtype=RAGGED[name]))
        arrays[name + "_offsets"] = offsets
        if name == "solution":
            arrays["solution_length"] = np.diff(offsets).astype("<i4")
    return arrays


def names_in(arrays: Mapping[str, NDArray[Any]]) -> Tuple[str, ...]:
    """The opt-in columns a shard's arrays hold."""
    return tuple(name for name in COLUMNS if name in arrays)


def columns_at(arrays: Mapping[str, NDArray[Any]], index: int,
               names: Optional[Sequence[str]] = None) -> Dict[str, NDArray[Any]]:
    """Level ``index``'s opt-in columns from a shard's arrays (all it holds, or ``names``)."""
    out: Dict[str, NDArray[Any]] = {}
    for name in (names_in(arrays) if names is None else names):
        if name in ("distances", "images"):
            out[name] = arrays[name][index]
        else:
            offsets = arrays[name + "_offsets"]
            out[name] = arrays[name][int(offsets[index]):int(offsets[index + 1])]
    return out
