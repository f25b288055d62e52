"""Opt-in shard columns: solutions, distance maps, moves and MiniGrid actions, replayed to the exit in the env."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import numpy as np
import pytest

import mazeplugin as mp
import mazeplugin.dataset as ds
from mazeplugin.dataset import expert
from mazeplugin.dataset.columns import COLUMNS

ALL = ["solution", "distances", "moves", "actions"]


def replay(level: mp.Level, sequence: List[int], mode: str) -> None:
    """Play ``sequence`` in a ``mode`` env loaded with ``level``: it ends at the exit, rewarded, on its last action.

    The env gets the level by its level code, or (options a code cannot hold: braid, corridor) made by an env of
    the same options from the level's seed, checked to be the very level.
    """
    pytest.importorskip("gymnasium")
    import mazeplugin.gym as gym_env
    rows, columns = level.tiles.shape
    options = {k: v for k, v in level.options.items() if k in ("braid", "keys")}
    env = gym_env.MazeEnv(level.algorithm, level.maze.width, level.maze.height, mode=mode,
                          corridor=level.layout.corridor, wall=level.layout.wall, max_steps=10 * rows * columns,
                          **options)
    try:
        env.reset(options={"level_code": mp.level_code(level)})
    except ValueError:
        env.reset(seed=level.seed)
    played = env.level
    assert played is not None and played.tiles.tobytes() == level.tiles.tobytes() and played.things == level.things
    for k, action in enumerate(sequence):
        _, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
    assert terminated and float(reward) > 0 and k == len(sequence) - 1, (level.seed, mode, k, len(sequence))


def test_expert_ids_are_the_envs() -> None:
    pytest.importorskip("gymnasium")
    import mazeplugin.gym as gym_env
    A, M = gym_env.Actions, gym_env.Moves
    assert (expert.LEFT, expert.RIGHT, expert.FORWARD, expert.PICKUP, expert.DROP, expert.TOGGLE) == (
        A.left, A.right, A.forward, A.pickup, A.drop, A.toggle)
    assert (expert.NORTH, expert.EAST, expert.SOUTH, expert.WEST) == (M.north, M.east, M.south, M.west)


@pytest.mark.parametrize("keys", [0, 1, 2])
def test_moves_and_actions_replay_to_the_exit(keys: int) -> None:
    played = 0
    for generator, width, height, braid in (("backtracker", 6, 5, 0.0), ("kruskal", 5, 5, 0.5), ("wilson", 7, 4, 0.0)):
        for seed in range(12):
            try:
                level = mp.generate(generator, width, height, seed=seed, keys=keys, braid=braid)
            except ValueError:
                continue  # no room for that many locks
            replay(level, expert.moves(level.solution()), "simple")
            replay(level, expert.actions(level), "minigrid")
            played += 1
    assert played >= 20


def test_the_plain_lane_is_the_general_one() -> None:
    """Routes without keys take a numpy shortcut; with a key lying off the route they take the step-by-step
    planner: both give the same actions."""
    for seed in range(10):
        level = mp.generate("kruskal", 7, 6, seed=seed, braid=0.3)
        route = level.solution()
        off = next((x, y) for y, x in zip(*np.nonzero(level.tiles == mp.FLOOR)) if (int(x), int(y)) not in route)
        general = expert.plan_actions(level.tiles, route, {(int(off[0]), int(off[1])): 1}, {}, level.exit)
        assert expert.plan_actions(level.tiles, route, {}, {}, level.exit) == general == expert.actions(level)


def test_wide_corridors_replay() -> None:
    for seed in range(4):
        level = mp.generate("backtracker", 4, 4, seed=seed, keys=1, corridor=2)
        replay(level, expert.actions(level), "minigrid")
        replay(level, expert.moves(level.solution()), "simple")


def _corridor(length: int, alcove: bool) -> np.ndarray:
    tiles = np.ones((3 if alcove else 1, length), dtype=np.uint8)
    tiles[0] = 0
    if alcove:
        tiles[1, 3] = 0  # a dead end below (3, 0)
    return tiles


def test_a_used_key_is_dropped_off_the_route() -> None:
    tiles = _corridor(9, alcove=True)
    route = [(x, 0) for x in range(9)]
    # key 1 at x=1 opens the door at x=2; key 2 at x=5 opens the door at x=6: key 1 is dropped behind (x=1),
    # off the rest of the route, once its door is open; key 2 is kept (no key after it)
    plan = expert.plan_actions(tiles, route, {(1, 0): 1, (5, 0): 2}, {(2, 0): 1, (6, 0): 2}, (8, 0))
    assert plan.count(expert.PICKUP) == 2 and plan.count(expert.TOGGLE) == 2 and plan.count(expert.DROP) == 1
    assert plan.count(expert.FORWARD) == 8
    drop = plan.index(expert.DROP)
    assert plan[drop - 2:drop] == [expert.RIGHT, expert.RIGHT] and plan[drop + 1:drop + 3] == [expert.RIGHT, expert.RIGHT]
    assert plan[:drop].count(expert.FORWARD) == 2  # on the door tile, facing back west


def test_a_key_swap_or_no_room_is_refused() -> None:
    route = [(x, 0) for x in range(9)]
    with pytest.raises(expert.ExpertError, match="key swap"):  # key 2 picked up while key 1's door is ahead
        expert.plan_actions(_corridor(9, alcove=True), route, {(1, 0): 1, (3, 0): 2}, {(5, 0): 1, (6, 0): 2}, (8, 0))
    # the route comes back past its start: no tile beside it is off the rest of the route to drop key 1 on
    back = [(0, 0), (1, 0), (2, 0), (3, 0), (2, 0), (1, 0), (0, 0)]
    with pytest.raises(expert.ExpertError, match="no free tile"):
        expert.plan_actions(_corridor(4, alcove=False), back, {(1, 0): 1, (3, 0): 2}, {(2, 0): 1}, (0, 0))
    with pytest.raises(expert.ExpertError, match="weave"):
        expert.actions(mp.generate("backtracker", 10, 8, seed=2, weave=True))


def test_spec_columns_are_checked_and_hashed_only_when_given() -> None:
    plain = {"generator": "kruskal", "width": 5, "height": 5, "count": 4}
    spec = ds.parse_spec(plain)
    assert "columns" not in spec.entries[0].as_dict()
    with_columns = ds.parse_spec({**plain, "columns": ["actions", "solution"]})
    assert with_columns.entries[0].columns == ("solution", "actions")  # shard order
    assert with_columns.entries[0].as_dict()["columns"] == ["solution", "actions"]
    assert with_columns.sha256() != spec.sha256()
    assert ds.parse_spec({**plain, "columns": []}).sha256() == spec.sha256()
    assert "columns" not in with_columns.entries[0].kwargs()
    for bad, message in ((["path"], "unknown column 'path'"), ("solution", "must be a list"),
                         (["moves", "moves"], "more than once")):
        with pytest.raises(ds.SpecError, match=message):
            ds.parse_spec({**plain, "columns": bad})
    with pytest.raises(ds.SpecError, match="column 'actions' is not defined on hex levels"):
        ds.parse_spec({**plain, "grid": "hex", "columns": ["solution", "actions"]})
    assert ds.parse_spec({**plain, "grid": "hex", "columns": ["solution"]}).entries[0].columns == ("solution",)
    with pytest.raises(ds.SpecError, match="without weave"):
        ds.parse_spec({**plain, "weave": True, "columns": ["actions"]})
    ds.parse_spec({**plain, "weave": True, "columns": ["solution", "distances"]})
    with pytest.raises(ds.SpecError, match="entrance and an exit"):
        ds.parse_spec({**plain, "markers": "none", "columns": ["solution"]})


SPEC: Dict[str, Any] = {"levels": [
    {"generator": "backtracker", "width": 7, "height": 6, "count": 9, "shard_size": 5, "keys": keys, "columns": ALL}
    for keys in (0, 1, 2)
] + [{"generator": "kruskal", "width": 5, "height": 4, "count": 4, "stats": False, "columns": ["moves", "solution"]}]}


@pytest.mark.parametrize("file_format", ["npz", "parquet"])
def test_built_columns_read_back_and_replay(tmp_path: Path, file_format: str) -> None:
    if file_format == "parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / "with"
    manifest = ds.build(SPEC, out, workers=1, file_format=file_format)
    assert manifest["entries"][0]["columns"] == ALL and manifest["entries"][3]["columns"] == ["solution", "moves"]
    assert ds.verify(out) == []
    levels = list(ds.open(out))
    raws = list(ds.open(out, raw=True))
    assert len(levels) == 31
    for level, raw in zip(levels, raws):
        columns = level.columns  # type: ignore[attr-defined]
        assert [tuple(t) for t in columns["solution"].tolist()] == level.solution()
        assert [tuple(t) for t in raw["columns"]["solution"].tolist()] == level.solution()
        assert set(columns) == set(raw["columns"])
        if "distances" in columns:
            assert columns["distances"].dtype == np.int32 and (columns["distances"] == level.distances()).all()
        replay(level, columns["moves"].tolist(), "simple")
        if "actions" in columns:
            replay(level, columns["actions"].tolist(), "minigrid")


def test_columns_only_add_arrays(tmp_path: Path) -> None:
    """A shard with columns holds the very arrays of the shard without them, then the new ones (batched lane too)."""
    entries = [{"generator": "kruskal", "width": 5, "height": 4, "count": 6, "shard_size": 6},
               {"generator": "backtracker", "width": 5, "height": 5, "count": 6, "shard_size": 6, "keys": 1}]
    ds.build({"levels": entries}, tmp_path / "plain", workers=1)
    ds.build({"levels": [{**e, "columns": ALL} for e in entries]}, tmp_path / "cols", workers=1)
    for name in sorted(p.name for p in (tmp_path / "plain").glob("*.npz")):
        with np.load(tmp_path / "plain" / name) as a, np.load(tmp_path / "cols" / name) as b:
            assert b.files[:len(a.files)] == a.files
            assert all(a[k].tobytes() == b[k].tobytes() and a[k].dtype == b[k].dtype for k in a.files)
            extra = b.files[len(a.files):]
            assert extra == ["solution", "solution_offsets", "solution_length", "distances", "moves", "moves_offsets",
                             "actions", "actions_offsets"]
            assert (np.diff(b["solution_offsets"]) == b["solution_length"]).all()
            assert (np.diff(b["moves_offsets"]) == b["solution_length"] - 1).all()
    assert tuple(ALL) == COLUMNS[:4]


def test_manifest_with_edited_columns_is_refused(tmp_path: Path) -> None:
    import json

    out = tmp_path / "d"
    ds.build({"generator": "kruskal", "width": 4, "height": 4, "count": 3, "columns": ["moves"]}, out, workers=1)
    path = out / ds.MANIFEST
    data = json.loads(path.read_text())
    data["entries"][0]["columns"] = ["actions"]
    path.write_text(json.dumps(data))
    with pytest.raises(ds.DatasetError, match="columns"):
        ds.read_manifest(out)


@pytest.mark.parametrize("file_format", ["npz", "parquet"])
def test_images_match_the_tiles_and_solution(tmp_path: Path, file_format: str) -> None:
    from mazeplugin.dataset import images

    if file_format == "parquet":
        pytest.importorskip("pyarrow")
    entries = [{"generator": "kruskal", "width": 5, "height": 4, "count": 4, "columns": ["images"], "image_scale": 3},
               {"generator": "backtracker", "width": 5, "height": 5, "count": 4, "keys": 1, "columns": ["images"]}]
    assert ds.parse_spec({"levels": entries}).entries[1].as_dict()["image_scale"] == 1
    out = tmp_path / file_format
    ds.build({"levels": entries}, out, workers=1, file_format=file_format)
    for k, level in enumerate(ds.open(out)):
        scale = 3 if k < 4 else 1
        pair = level.columns["images"]  # type: ignore[attr-defined]
        rows, columns = level.tiles.shape
        assert pair.shape == (2, rows * scale, columns * scale, 3) and pair.dtype == np.uint8
        small = pair[:, ::scale, ::scale]
        assert (pair == np.repeat(np.repeat(small, scale, axis=1), scale, axis=2)).all()
        colour = {tuple(c): i for i, c in enumerate(images.PALETTE.tolist())}
        code = np.array([[[colour[tuple(p)] for p in row] for row in layer] for layer in small.tolist()])
        assert ((code[0] == images.WALL_CODE) == (level.tiles == mp.WALL)).all()
        path = set(level.solution()[1:-1])
        ys, xs = np.nonzero(code[1] == images.PATH_CODE)
        assert set(zip(xs.tolist(), ys.tolist())) == path
        assert code[0][level.entrance[1], level.entrance[0]] == images.ENTRANCE_CODE
        assert code[1][level.exit[1], level.exit[0]] == images.EXIT_CODE
        keys = {t.tile for t in level.things if t.kind == "key"}
        assert {(x, y) for y, x in zip(*np.nonzero(code[0] == images.KEY_CODE))} == keys
    with pytest.raises(ds.SpecError, match="image_scale must be an int from 1 to 32"):
        ds.parse_spec({**entries[0], "image_scale": 0})
    with pytest.raises(ds.SpecError, match="add \"images\" to columns"):
        ds.parse_spec({"generator": "kruskal", "width": 4, "height": 4, "count": 1, "image_scale": 2})


def test_padded_buffers(tmp_path: Path) -> None:
    entries = [{"generator": "backtracker", "width": 7, "height": 6, "count": 5, "keys": 2},
               {"generator": "kruskal", "width": 4, "height": 3, "count": 4}]
    ds.build({"levels": entries}, tmp_path / "d", workers=1)
    levels = list(ds.open(tmp_path / "d"))
    buffers = ds.padded(tmp_path / "d", out=tmp_path / "buffers.npz", max_keys=3)
    assert buffers["walls"].shape == (9, 13, 15) and buffers["keys"].shape == (9, 3, 3)
    for i, level in enumerate(levels):
        rows, columns = level.tiles.shape
        assert buffers["shape"][i].tolist() == [rows, columns]
        assert (buffers["walls"][i, :rows, :columns] == level.tiles).all()
        assert buffers["walls"][i, rows:].all() and buffers["walls"][i, :, columns:].all()
        assert tuple(buffers["start"][i]) == level.entrance and tuple(buffers["goal"][i]) == level.exit
        keys = [tuple(k) for k in buffers["keys"][i].tolist() if k[0] >= 0]
        assert keys == [(t.x, t.y, t.props["lock"]) for t in level.things if t.kind == "key"]
        assert (buffers["keys"][i, len(keys):] == -1).all()
        doors = {tuple(k) for k in buffers["doors"][i].tolist() if k[0] >= 0}
        assert doors == {(x, y, t.props["lock"]) for t in level.things if t.kind == "door" for x, y in t.tiles()}
        assert int(buffers["seed"][i]) == level.seed
    with np.load(tmp_path / "buffers.npz") as saved:  # the written file holds the same arrays
        assert saved.files == list(buffers) and all((saved[k] == buffers[k]).all() for k in saved.files)
    again = tmp_path / "again.npz"
    ds.padded(levels, out=again, max_keys=3)
    assert again.read_bytes() == (tmp_path / "buffers.npz").read_bytes()
    with pytest.raises(ValueError, match="rows=5 is less than the levels need"):
        ds.padded(levels, rows=5)
    with pytest.raises(ValueError, match="without weave"):
        ds.padded([mp.generate("backtracker", 10, 8, seed=2, weave=True)])


def test_filters_keep_levels_inside_their_ranges(tmp_path: Path) -> None:
    entry = {"generator": "backtracker", "width": 6, "height": 6, "count": 12, "shard_size": 12,
             "filters": {"solution_length": [16, None], "dead_ends": [None, 9]}}
    spec = ds.parse_spec(entry)
    assert spec.entries[0].as_dict()["filters"] == {"dead_ends": [None, 9], "solution_length": [16, None]}
    assert spec.sha256() != ds.parse_spec({k: v for k, v in entry.items() if k != "filters"}).sha256()
    manifest = ds.build(entry, tmp_path / "a", workers=1)
    assert manifest["entries"][0]["refitted"] > 0 and ds.verify(tmp_path / "a") == []
    raws = list(ds.open(tmp_path / "a", raw=True))
    for level in ds.open(tmp_path / "a"):
        figures = level.stats()
        assert figures.solution_length >= 16 and figures.dead_ends <= 9
    kept = [r["seed"] for r in raws]
    plain = [mp.generate("backtracker", 6, 6, seed=s) for s in range(12)]
    for slot, level in enumerate(plain):  # a level inside the ranges keeps its own seed
        inside = level.stats().solution_length >= 16 and level.stats().dead_ends <= 9
        assert (kept[slot] == slot) == inside
    ds.build(entry, tmp_path / "b", workers=1)
    assert [p.read_bytes() for p in sorted((tmp_path / "a").glob("*.npz"))] == \
        [p.read_bytes() for p in sorted((tmp_path / "b").glob("*.npz"))]
    for bad, message in (({"corridors": [1, 2]}, "unknown field 'corridors'"), ({"dead_ends": [5, 2]}, "low <= high"),
                         ({"dead_ends": 3}, "must be \\[low, high\\]"), ([], "must be an object")):
        with pytest.raises(ds.SpecError, match=message):
            ds.parse_spec({**entry, "filters": bad})


def test_padded_buffers_are_indexed_by_level_number_inside_jax_jit(tmp_path: Path) -> None:
    jax = pytest.importorskip("jax", reason="JAX is tested in .ci/jax.sh, in a venv of its own")
    jnp = pytest.importorskip("jax.numpy")
    ds.build({"generator": "backtracker", "width": 6, "height": 5, "count": 6, "keys": 1}, tmp_path / "d", workers=1)
    levels = list(ds.open(tmp_path / "d"))
    ds.padded(tmp_path / "d", out=tmp_path / "buffers.npz", max_keys=2)
    with np.load(tmp_path / "buffers.npz") as saved:
        walls, start, goal, keys = (jnp.asarray(saved[k]) for k in ("walls", "start", "goal", "keys"))

    @jax.jit
    def look(i):  # one level by number: static shapes, the level number a traced value
        x, y = start[i]
        gx, gy = goal[i]
        return walls[i], walls[i][y, x], walls[i][gy, gx], keys[i, 0]

    for i, level in enumerate(levels):
        tiles, at_start, at_goal, key = look(jnp.int32(i))
        rows, columns = level.tiles.shape
        assert (np.asarray(tiles)[:rows, :columns] == level.tiles).all()
        assert int(at_start) == 0 and int(at_goal) == 0  # the markers are on floor
        first = next(t for t in level.things if t.kind == "key")
        assert np.asarray(key).tolist() == [first.x, first.y, first.props["lock"]]
    per_level = jax.vmap(lambda i: walls[i].sum())(jnp.arange(len(levels)))  # every level at once
    assert np.asarray(per_level).tolist() == [int(np.asarray(walls[i]).sum()) for i in range(len(levels))]
