"""The columns of a batch of levels from one compiled call (``_compiled.routes``) are the per-level code's bytes."""

from __future__ import annotations

import os
from typing import Any, Dict, Iterator, List, Sequence

import numpy as np
import pytest

import mazeplugin as mp
from mazeplugin import pipeline, pipeline_batch
from mazeplugin.dataset import columns as C

pytest.importorskip("numba")

ROUTE_COLUMNS = ["solution", "distances", "moves", "actions", "images"]


@pytest.fixture
def compiled_mode() -> Iterator[None]:
    old = os.environ.get("MAZEPLUGIN_COMPILED")
    os.environ["MAZEPLUGIN_COMPILED"] = "1"
    yield
    if old is None:
        del os.environ["MAZEPLUGIN_COMPILED"]
    else:
        os.environ["MAZEPLUGIN_COMPILED"] = old


def _same(a: Dict[str, np.ndarray], b: Dict[str, np.ndarray]) -> None:
    assert list(a) == list(b)
    for name in a:
        assert (a[name].dtype.str, a[name].shape) == (b[name].dtype.str, b[name].shape), name
        assert a[name].tobytes() == b[name].tobytes(), name


def _batch(generator: str, width: int, height: int, seeds: Sequence[int], **options: Any) -> Any:
    build = pipeline.Build.checked(generator, width, height, seed=seeds[0], **options)
    assert pipeline_batch.why_not(build) is None
    return pipeline_batch.make_batch(build, list(seeds))


@pytest.mark.parametrize("generator, width, height, options", [
    ("backtracker", 9, 9, {}), ("kruskal", 32, 32, {}), ("hunt-and-kill", 5, 3, {}), ("backtracker", 1, 1, {}),
    ("kruskal", 12, 7, {"corridor": 2}), ("backtracker", 6, 6, {"markers": "none"}),
])
def test_compiled_columns_are_the_per_level_columns(compiled_mode: None, generator: str, width: int, height: int,
                                                      options: Dict[str, Any]) -> None:
    seeds = list(range(40 if width < 20 else 8))
    if options.get("markers") == "none":
        with pytest.raises(ValueError, match="entrance and an exit"):
            C.batch_columns(_batch(generator, width, height, seeds, **options), ["solution"])
        return
    batch = _batch(generator, width, height, seeds, **options)
    levels = [batch.level(i) for i in range(len(batch))]
    shape = levels[0].tiles.shape
    for names in (ROUTE_COLUMNS, ["actions"], ["moves"], ["images"], ["distances", "solution"]):
        os.environ["MAZEPLUGIN_COMPILED"] = "1"
        fast = C.batch_columns(batch, names, image_scale=2)
        os.environ["MAZEPLUGIN_COMPILED"] = "0"
        plain = C.batch_columns(batch, names, image_scale=2)
        reference = C.column_arrays([C.level_columns(level, names) for level in levels], names, shape, 2)
        _same(fast, plain)
        _same(fast, reference)


def test_routes_kernel_reports_an_unreached_exit(compiled_mode: None) -> None:
    from mazeplugin._compiled import routes

    tiles = np.zeros((3, 3, 5), dtype=np.uint8)
    tiles[1, :, 2] = 1  # level 1: a wall cuts the exit off
    ends = np.array([[0, 0]] * 3), np.array([[4, 2]] * 3)
    with pytest.raises(ValueError, match="level 1 of the batch"):
        routes.batch_routes(tiles, ends[0], ends[1], ["solution"])
    tiles[1, 0, 2] = 0
    out = routes.batch_routes(tiles, ends[0], ends[1], ["solution", "moves", "actions", "distances"])
    assert out["solution_offsets"].tolist() == [0, 7, 14, 21]
    assert out["distances"][1, 2, 4] == 6 and out["distances"][1, 2, 2] == -1


def test_a_build_with_columns_makes_the_same_shards_either_path(tmp_path: Any, compiled_mode: None) -> None:
    import mazeplugin.dataset as ds

    spec = {"generator": "backtracker", "width": 7, "height": 6, "count": 30, "shard_size": 16,
            "columns": ["solution", "distances", "moves", "actions", "images"]}
    digests: List[List[str]] = []
    for mode in ("1", "0"):
        os.environ["MAZEPLUGIN_COMPILED"] = mode
        manifest = ds.build(spec, tmp_path / mode, workers=1)
        digests.append([s["sha256"] for s in manifest["shards"]])
    assert digests[0] == digests[1]


def _plan_compiled(tiles: np.ndarray, route: List[Any], keys: Dict[Any, int], doors: Dict[Any, int],
                   goal: Any) -> Any:
    """The compiled planner's actions for one route (None where it refuses)."""
    from mazeplugin._compiled import routes

    free, pitch = routes.framed(tiles[None])

    def flat(tiles_: Any) -> np.ndarray:
        return np.array([(y + 1) * pitch + x + 1 for x, y in tiles_], dtype=np.int64)

    made, cuts, failed = routes.keyed_actions(
        free, pitch, np.array(route, dtype=np.int32).reshape(-1, 2), np.array([0, len(route)], dtype=np.int64),
        flat([goal]), np.array([0, len(keys)], dtype=np.int64), flat(keys), np.array(list(keys.values()), dtype=np.int64),
        np.array([0, len(doors)], dtype=np.int64), flat(doors), np.array(list(doors.values()), dtype=np.int64))
    return None if failed[0] else made.tolist()


def test_compiled_planner_is_the_plain_planner(compiled_mode: None) -> None:
    """Keys and doors strewn along and beside routes (drops, swaps, doors without keys): the compiled
    planner gives the plain one's actions, and refuses exactly where it raises."""
    from mazeplugin import paths
    from mazeplugin.dataset import expert

    rng = np.random.default_rng(5)
    outcomes = {"planned": 0, "refused": 0, "dropped": 0}
    for trial in range(400):
        rows, columns = int(rng.integers(2, 7)), int(rng.integers(3, 10))
        tiles = (rng.random((rows, columns)) < 0.25).astype(np.uint8)
        tiles[0, 0] = tiles[rows - 1, columns - 1] = 0
        route = paths.shortest_path(tiles, (0, 0), (columns - 1, rows - 1))
        if route is None or len(route) < 3:
            continue
        floor = [(int(x), int(y)) for y, x in zip(*np.nonzero(tiles == 0)) if (x, y) not in ((0, 0), route[-1])]
        picks = rng.permutation(len(floor))[:int(rng.integers(1, 6))]
        keys: Dict[Any, int] = {}
        doors: Dict[Any, int] = {}
        for n, k in enumerate(picks):
            (keys if rng.random() < 0.5 else doors)[floor[k]] = int(rng.integers(1, 4))
        try:
            plain = expert.plan_actions(tiles, route, dict(keys), doors, route[-1])
        except expert.ExpertError:
            plain = None
        assert _plan_compiled(tiles, route, keys, doors, route[-1]) == plain, (trial, tiles.tolist(), keys, doors)
        outcomes["planned" if plain is not None else "refused"] += 1
        outcomes["dropped"] += plain is not None and expert.DROP in plain
    assert min(outcomes.values()) >= 5, outcomes


def test_compiled_planner_cases(compiled_mode: None) -> None:
    from mazeplugin.dataset import expert

    tiles = np.ones((3, 9), dtype=np.uint8)
    tiles[0] = 0
    tiles[1, 3] = 0
    route = [(x, 0) for x in range(9)]
    for keys, doors in (({(1, 0): 1, (5, 0): 2}, {(2, 0): 1, (6, 0): 2}), ({(1, 0): 1, (3, 0): 2}, {(5, 0): 1, (6, 0): 2})):
        try:
            plain = expert.plan_actions(tiles, route, dict(keys), doors, (8, 0))
        except expert.ExpertError:
            plain = None
        assert _plan_compiled(tiles, route, keys, doors, (8, 0)) == plain


@pytest.mark.parametrize("generator, width, height, options", [
    ("backtracker", 9, 9, {"keys": 2}), ("kruskal", 9, 7, {"keys": 1, "braid": 0.5}), ("wilson", 12, 8, {"keys": 3}),
    ("backtracker", 6, 6, {"keys": 2, "corridor": 2}), ("rooms", 16, 12, {"keys": 2, "treasure": 1}),
    ("prim", 7, 7, {"braid": 1.0}), ("backtracker", 8, 8, {"weave": True, "keys": 1}),
])
def test_compiled_columns_of_levels_with_keys(compiled_mode: None, generator: str, width: int, height: int,
                                              options: Dict[str, Any]) -> None:
    """Every level's columns from the compiled calls are its per-level columns (the key-aware solver's walk,
    the planner's pickups, toggles and drops); weave levels are left to the per-level code."""
    levels = []
    for seed in range(40):
        try:
            levels.append(mp.generate(generator, width, height, seed=seed, **options))
        except ValueError:
            continue  # no room for that many locks
    assert len(levels) >= 10
    found = C.levels_columns(levels, ROUTE_COLUMNS)
    assert found is not None
    for level, columns in zip(levels, found):
        if level.weave:
            assert columns is None
            continue
        assert columns is not None
        reference = C.level_columns(level, ROUTE_COLUMNS)
        for name in ROUTE_COLUMNS:
            assert (columns[name].dtype.str, columns[name].shape) == (reference[name].dtype.str, reference[name].shape)
            assert columns[name].tobytes() == reference[name].tobytes(), (level.seed, name)
    os.environ["MAZEPLUGIN_COMPILED"] = "0"
    assert C.levels_columns(levels, ROUTE_COLUMNS) is None


def test_a_build_with_keys_makes_the_same_shards_either_path(tmp_path: Any, compiled_mode: None) -> None:
    import mazeplugin.dataset as ds

    spec = {"levels": [{"generator": "backtracker", "width": 7, "height": 6, "count": 24, "shard_size": 12,
                        "keys": 2, "columns": ["solution", "distances", "moves", "actions", "images"]},
                       {"generator": "kruskal", "width": 6, "height": 6, "count": 12, "braid": 0.5, "keys": 1,
                        "columns": ["actions"]}]}
    digests: List[List[str]] = []
    for mode in ("1", "0"):
        os.environ["MAZEPLUGIN_COMPILED"] = mode
        manifest = ds.build(spec, tmp_path / mode, workers=1)
        digests.append([s["sha256"] for s in manifest["shards"]])
        assert manifest["entries"][0]["refitted"] > 0  # seeds whose level holds no second lock, made again
    assert digests[0] == digests[1]


def test_a_level_without_columns_is_refitted_as_before(tmp_path: Any, compiled_mode: None,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A level whose columns fail (a key swap, say) is replaced by the level fit_level makes with its columns
    level by level (today's order of seeds), whichever path computed the others."""
    import mazeplugin.dataset as ds
    from mazeplugin.dataset import expert, shards
    from mazeplugin.dataset.spec import parse_spec

    real = C.level_columns
    real_many = C.levels_columns

    def refuse(level: mp.Level, names: Sequence[str], tokenizer: Any = None) -> Dict[str, np.ndarray]:
        if level.seed % 3 == 1:
            raise expert.ExpertError("refused for the test")
        return real(level, names, tokenizer)

    def refuse_many(levels: Sequence[mp.Level], names: Sequence[str]) -> Any:
        found = real_many(levels, names)
        return found and [None if level.seed % 3 == 1 else columns for level, columns in zip(levels, found)]

    monkeypatch.setattr(C, "level_columns", refuse)
    monkeypatch.setattr(C, "levels_columns", refuse_many)
    raw = {"generator": "backtracker", "width": 6, "height": 5, "count": 10, "keys": 1, "columns": ["actions"]}
    entry = parse_spec(raw).entries[0]
    maker = shards.LevelMaker(entry)
    expected = [shards.fit_level(entry, maker, seed)[0] for seed in range(10)]
    assert sum(used != seed for seed, used in enumerate(expected)) >= 3
    for mode in ("1", "0"):
        os.environ["MAZEPLUGIN_COMPILED"] = mode
        ds.build(raw, tmp_path / mode, workers=1)
        with np.load(next((tmp_path / mode).glob("*.npz"))) as shard:
            assert shard["seed"].tolist() == expected


def test_compiled_solver_is_the_key_aware_solver(compiled_mode: None) -> None:
    """Keys and doors strewn over small open tilemaps (keys that can be picked up in several orders, doors that
    need not be opened, exits no walk reaches): the compiled walk is content.solve's, tie for tie."""
    from mazeplugin._compiled import routes
    from mazeplugin.content import Thing
    from mazeplugin.content.proof import solve

    rng = np.random.default_rng(11)
    outcomes = {"solved": 0, "unsolvable": 0, "detour": 0}
    for trial in range(300):
        rows, columns = int(rng.integers(3, 8)), int(rng.integers(3, 9))
        tiles = (rng.random((rows, columns)) < 0.3).astype(np.uint8)
        floor = [(int(x), int(y)) for y, x in zip(*np.nonzero(tiles == 0))]
        if len(floor) < 6:
            continue
        picks = [floor[k] for k in rng.permutation(len(floor))]
        entrance, exit, spots = picks[0], picks[1], picks[2:]
        keys = int(rng.integers(1, min(4, len(spots) // 2) + 1))
        things = []
        for n in range(keys):
            door_tiles = [spots[2 * n]] + ([spots[2 * keys + n]] if rng.random() < 0.2 and len(spots) > 2 * keys + n
                                           else [])
            things.append(Thing("key", *spots[2 * n + 1], 2 * n + 1, {"door": 2 * n + 2, "lock": n + 1}))
            things.append(Thing("door", *door_tiles[0], 2 * n + 2,
                                {"key": 2 * n + 1, "lock": n + 1, "tiles": [list(t) for t in door_tiles]}))
        things.sort(key=lambda t: t.id)
        expected = solve(tiles, entrance, exit, things)
        free, pitch = routes.framed(tiles[None])
        key_things = [t for t in things if t.kind == "key"]
        doors = {t.id: t for t in things if t.kind == "door"}
        door_tiles_of = [[(y + 1) * pitch + x + 1 for x, y in doors[k.props["door"]].tiles()] for k in key_things]
        walk, cuts, missing = routes.keyed_solutions(
            free, pitch, np.array([(entrance[1] + 1) * pitch + entrance[0] + 1]),
            np.array([(exit[1] + 1) * pitch + exit[0] + 1]), np.array([0, keys]),
            np.array([(k.y + 1) * pitch + k.x + 1 for k in key_things]),
            np.concatenate([[0], np.cumsum([len(d) for d in door_tiles_of])]).astype(np.int64),
            np.array([t for d in door_tiles_of for t in d], dtype=np.int64))
        if expected is None:
            assert missing[0] == 1
            outcomes["unsolvable"] += 1
            continue
        assert missing[0] == 0 and [tuple(t) for t in walk.tolist()] == expected, (trial, tiles.tolist(), things)
        outcomes["solved"] += 1
        outcomes["detour"] += len(set(expected)) < len(expected)
    assert min(outcomes.values()) >= 10, outcomes
