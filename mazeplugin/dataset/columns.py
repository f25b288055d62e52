"""Opt-in shard columns: what a learning system reads beside the level (solutions, distance maps, expert actions).

A spec entry's ``"columns"`` list asks for them; an entry without it makes
the very shards it always made (the same bytes, the same spec checksum).
Square tilemap entries only (not ``grid=`` or ``wrap=``), with markers; the
``.npz`` arrays, after every other column, in this order:

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

``moves`` and ``actions`` are refused for weave entries. A Parquet shard has
one column each: ``solution`` (list of int32, ``x0, y0, x1, y1, ...``),
``solution_length`` (int32), ``distances`` (list of int32, row by row),
``moves`` and ``actions`` (lists of uint8), ``tokens`` (list of int32),
``images`` (list of uint8, the pair's pixels in the ``.npz`` order).

:func:`mazeplugin.dataset.open` puts them on each level as a dict,
``level.columns["actions"]`` (``solution`` as an ``(n, 2)`` array).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

import mazeplugin as mp
from mazeplugin import paths
from mazeplugin._compiled import twin
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


def column_arrays(per_level: Sequence[Mapping[str, NDArray[Any]]], names: Sequence[str],
                  shape: Tuple[int, int], image_scale: int = 1) -> Dict[str, NDArray[Any]]:
    """The shard arrays (see the module docstring) of every level's :func:`level_columns`."""
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
        width = (2,) if name == "solution" else ()
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
