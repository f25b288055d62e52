"""The byte corpus: digests of a wide sweep of what the library makes, recorded before the one-model refactor.

Every group below makes levels (square, wrapping, weave, hex, triangle,
polar; braid, masks, rooms, corridors, content, require), their files and
codes, the batched lane, the gym's observations, dataset shards, worlds and
streams, and reduces each case to a short SHA-256. ``tests/data/corpus.json``
holds the digests recorded from main before any change of issue 29;
``tests/test_corpus.py`` recomputes them, so a refactor that moves one byte of
any level fails by name.

Record again only on purpose (a deliberate change, noted in CHANGELOG.md)::

    python tests/corpus.py --record
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from typing import Any, Callable, Dict, Iterator, List, Tuple

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "data", "corpus.json")

HEART = [".##...##.", "####.####", "#########", ".#######.", "..#####..", "...###...", "....#...."]
PERFECT = ["aldous-broder", "backtracker", "binary-tree", "eller", "growing-tree", "hunt-and-kill",
           "kruskal", "prim", "prim-simplified", "sidewinder", "union-find", "wilson"]
ALL = PERFECT + ["division", "rooms"]
NEIGHBOUR_ONLY = ["aldous-broder", "backtracker", "growing-tree", "hunt-and-kill", "kruskal", "prim",
                  "prim-simplified", "union-find", "wilson"]


def _h(*parts: Any) -> str:
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, np.ndarray):
            h.update(repr((part.dtype.str, part.shape)).encode())
            h.update(np.ascontiguousarray(part).tobytes())
        elif isinstance(part, bytes):
            h.update(part)
        else:
            h.update(repr(part).encode())
        h.update(b"\x00")
    return h.hexdigest()[:20]


def _things(level: Any) -> List[Any]:
    out = []
    for t in level.things:
        fields = {k: v for k, v in sorted(vars(t).items())} if hasattr(t, "__dict__") else repr(t)
        out.append(repr(fields) if isinstance(fields, dict) else fields)
    if not out:
        out = [repr(t) for t in level.things]
    return out


def level_digest(level: Any) -> str:
    """Everything a level holds that a player, a file or an agent could see."""
    import mazeplugin as mp

    if level.kind == "square":
        bridges = level.bridges if level.weave else None
        return _h("square", level.tiles, level.entrance, level.exit, bridges, _things(level),
                  repr(level.seed), level.algorithm)
    tiles = None
    try:
        tiles = level.tiles
    except (AttributeError, ValueError, TypeError):
        tiles = None
    # A grid level's markers as cells (level.entrance is a tile on hex and wrapping levels since 0.4):
    # the digest recorded from the cells stays the proof that they did not move.
    return _h(level.grid, level.maze.open, level.entrance_cell, level.exit_cell, level.openings, _things(level),
              tiles, repr(level.seed), level.algorithm, level.width, level.height)


# -- the groups: each yields (case name, thunk giving the digest)
Case = Tuple[str, Callable[[], str]]


def _gen(algorithm: str, w: int, h: int, **kw: Any) -> Callable[[], str]:
    def run() -> str:
        import mazeplugin as mp

        return level_digest(mp.generate(algorithm, w, h, **kw))
    return run


def square_cases() -> Iterator[Case]:
    for algorithm in ALL:
        for (w, h) in ((1, 1), (2, 7), (9, 9), (20, 15), (33, 17)):
            for seed in (0, 7, "level-1"):
                yield f"square/{algorithm}/{w}x{h}/{seed}", _gen(algorithm, w, h, seed=seed)
        for markers in ("farthest", "random", "none"):
            yield f"square/{algorithm}/markers={markers}", _gen(algorithm, 12, 9, seed=3, markers=markers)
        yield f"square/{algorithm}/braid", _gen(algorithm, 14, 10, seed=5, braid=0.6)
        yield f"square/{algorithm}/corridor", _gen(algorithm, 8, 6, seed=5, corridor=2, wall=3)
        yield f"square/{algorithm}/big", _gen(algorithm, 64, 48, seed=11)
        if algorithm not in ("eller", "sidewinder", "binary-tree", "division"):
            yield f"square/{algorithm}/mask", _gen(algorithm, 9, 7, seed=4, mask=HEART)
        if algorithm != "rooms":
            yield f"square/{algorithm}/rooms", _gen(algorithm, 30, 20, seed=6, rooms=3)
        yield f"square/{algorithm}/weave", _gen(algorithm, 12, 12, seed=8, weave=True)
        yield f"square/{algorithm}/weave-half-braid", _gen(algorithm, 12, 12, seed=9, weave=0.5, braid=0.5)
        yield f"square/{algorithm}/content", _gen(algorithm, 15, 15, seed=2, keys=2, treasure=3, enemies=2)
    yield "square/growing-tree/oldest", _gen("growing-tree", 16, 10, seed=1, strategy="oldest")
    yield "square/growing-tree/mixed", _gen("growing-tree", 16, 10, seed=1, strategy="newest:0.75")
    yield "square/binary-tree/bias", _gen("binary-tree", 12, 8, seed=5, bias="southwest")
    yield "square/rooms/opts", _gen("rooms", 30, 20, seed="dungeon", room_size=(3, 7), prune=0.5,
                                    extra_doors=0.1)
    yield "square/require", _gen("backtracker", 20, 15, seed=7, require={"decision_points": (20, None)})
    yield "square/keys3-braid", _gen("wilson", 20, 20, seed=12, keys=3, braid=0.3)
    yield "square/doors-float", _gen("prim", 24, 16, seed=3, rooms=4, doors=0.3, room_size=(2, 4))


def grid_cases() -> Iterator[Case]:
    for grid in ("hex", "triangle", "polar"):
        for algorithm in NEIGHBOUR_ONLY:
            for (w, h) in ((1, 1), (4, 3), (9, 7), (24, 18)):
                for seed in (0, 7):
                    yield f"{grid}/{algorithm}/{w}x{h}/{seed}", _gen(algorithm, w, h, seed=seed, grid=grid)
            yield f"{grid}/{algorithm}/braid", _gen(algorithm, 10, 8, seed=3, grid=grid, braid=0.5)
            yield f"{grid}/{algorithm}/content", _gen(algorithm, 12, 10, seed=4, grid=grid, keys=2, treasure=2,
                                                      enemies=1)
            yield f"{grid}/{algorithm}/nomarkers", _gen(algorithm, 8, 6, seed=5, grid=grid, markers="none")
    for wrap in ("x", "y", "xy"):
        for algorithm in NEIGHBOUR_ONLY:
            for seed in (0, 7):
                yield f"wrap-{wrap}/{algorithm}/{seed}", _gen(algorithm, 10, 8, seed=seed, wrap=wrap)
            yield f"wrap-{wrap}/{algorithm}/content", _gen(algorithm, 12, 10, seed=4, wrap=wrap, keys=1,
                                                           treasure=1)
            yield f"wrap-{wrap}/{algorithm}/braid", _gen(algorithm, 10, 8, seed=3, wrap=wrap, braid=0.5)
    yield "growing-tree/hex/oldest", _gen("growing-tree", 10, 8, seed=1, grid="hex", strategy="oldest")


def format_cases() -> Iterator[Case]:
    def square_files(kw: Dict[str, Any]) -> Callable[[], str]:
        def run() -> str:
            import mazeplugin as mp

            level = mp.generate(**kw)
            code = None
            try:
                code = mp.level_code(level)
            except ValueError:
                pass
            with tempfile.TemporaryDirectory() as tmp:
                level.save(os.path.join(tmp, "a.tmx"))
                level.save(os.path.join(tmp, "a.tmj"))
                files = [open(os.path.join(tmp, n), "rb").read() for n in ("a.tmx", "a.tmj")]
            return _h(level.to_json(), level.to_svg(), str(level), level.to_text(), code, *files)
        return run

    def grid_files(kw: Dict[str, Any]) -> Callable[[], str]:
        def run() -> str:
            import mazeplugin as mp

            level = mp.generate(**kw)
            code = None
            try:  # a wrapping level had no code when the corpus was recorded; its new code (+wrapxy, issue 29)
                # is proved by tests/test_codes_every_level.py, and its level and files stay in this digest
                code = mp.level_code(level) if "wrap" not in level.options else None
            except ValueError:
                pass
            text = None
            try:
                text = str(level)
            except Exception:  # noqa: BLE001 - recorded as absent
                text = None
            return _h(level.to_json(), level.to_svg(), text, code)
        return run

    for algorithm in ALL:
        yield f"files/square/{algorithm}", square_files(dict(algorithm=algorithm, width=10, height=8, seed=3))
    yield "files/square/content", square_files(dict(algorithm="backtracker", width=12, height=12, seed=3, keys=2,
                                                    treasure=1, enemies=1))
    yield "files/square/weave", square_files(dict(algorithm="backtracker", width=9, height=9, seed=0, weave=True))
    yield "files/square/rooms", square_files(dict(algorithm="kruskal", width=20, height=14, seed=1, rooms=3))
    for grid in ("hex", "triangle", "polar"):
        yield f"files/{grid}", grid_files(dict(algorithm="wilson", width=8, height=6, seed=9, grid=grid))
        yield f"files/{grid}/content", grid_files(dict(algorithm="kruskal", width=8, height=6, seed=9, grid=grid,
                                                       keys=1, treasure=1))
    yield "files/wrap", grid_files(dict(algorithm="prim", width=8, height=6, seed=9, wrap="xy"))

    def codes() -> str:
        import mazeplugin as mp

        out = []
        for code in ("backtracker-9x9-0", "kruskal-20x15-7", "backtracker-9x9-1+k2", "wilson-12x12-3+k1t2e1",
                     "backtracker-9x9-0+w", "prim-10x10-5"):
            try:
                out.append(level_digest(mp.level_from_code(code)))
            except ValueError as e:
                out.append(("refused", str(e)[:40]))
        for code in ("wilson-hex8x6-9", "kruskal-tri6x4-2", "backtracker-polar4x5-1"):
            try:
                out.append(level_digest(mp.level_from_code(code)))
            except ValueError as e:
                out.append(("refused", str(e)[:40]))
        return _h(out)
    yield "codes", codes


def lane_cases() -> Iterator[Case]:
    def stream() -> str:
        import mazeplugin as mp

        rows = []
        it = mp.stream("eller", 30, seed=5)
        for _ in range(41):
            rows.append(next(it))
        return _h(np.array(rows))
    yield "stream/eller", stream

    def world(algorithm: str) -> Callable[[], str]:
        def run() -> str:
            import mazeplugin as mp

            w = mp.World(algorithm, seed=7, chunk=(6, 5))
            return _h(w.tiles(-30, -20, 50, 40), [repr(t) for t in w.things(-30, -20, 50, 40)])
        return run
    for algorithm in ("backtracker", "kruskal", "wilson", "eller"):
        yield f"world/{algorithm}", world(algorithm)

    def world_content() -> str:
        import mazeplugin as mp

        w = mp.World("backtracker", seed=3, chunk=(8, 8), treasure=2)
        return _h(w.tiles(0, 0, 64, 64), [repr(t) for t in w.things(0, 0, 64, 64)])
    yield "world/content", world_content


def gym_cases() -> Iterator[Case]:
    try:
        import gymnasium  # noqa: F401
    except ImportError:  # pragma: no cover
        return

    def env_case(env_id: str, kwargs: Dict[str, Any]) -> Callable[[], str]:
        def run() -> str:
            import gymnasium

            import mazeplugin.gym  # noqa: F401

            env = gymnasium.make(env_id, **kwargs)
            out: List[Any] = []
            rng = np.random.default_rng(1)
            for seed in (0, 1, 5):
                obs, info = env.reset(seed=seed)
                out.append((_obs(obs), info.get("level_code")))
                for _ in range(40):
                    obs, r, term, trunc, info = env.step(int(rng.integers(env.action_space.n)))
                    out.append((_obs(obs), float(r), term, trunc))
                    if term or trunc:
                        break
            env.close()
            return _h(out)
        return run

    for env_id in ("mazeplugin/Maze-v0", "mazeplugin/MazeKeys-v0", "mazeplugin/MazeRooms-v0",
                   "mazeplugin/MazeSimple-v0", "mazeplugin/MazeSimpleKeys-v0"):
        yield f"gym/{env_id}", env_case(env_id, {})
    yield "gym/wilson-braid", env_case("mazeplugin/Maze-v0", dict(generator="wilson", width=7, height=7, braid=0.3))

    def vector_case(keys: int) -> Callable[[], str]:
        def run() -> str:
            from mazeplugin.gym import MazeVectorEnv

            env = MazeVectorEnv(16, width=6, height=6, keys=keys, max_steps=30)
            obs, info = env.reset(seed=3)
            out: List[Any] = [_obs(obs)]
            rng = np.random.default_rng(2)
            for _ in range(70):
                obs, r, term, trunc, info = env.step(rng.integers(0, 3, size=16))
                out.append((_obs(obs), np.asarray(r), np.asarray(term), np.asarray(trunc)))
            return _h(out)
        return run
    yield "gym/vector", vector_case(0)
    yield "gym/vector-keys", vector_case(1)

    def make_many() -> str:
        from mazeplugin.gym import LevelSpec

        out = []
        for spec in (LevelSpec("backtracker", 9, 9), LevelSpec("backtracker", 9, 9, keys=2),
                     LevelSpec("wilson", 7, 5, keys=1)):
            for level in spec.make_many(list(range(20))):
                out.append(level_digest(level))
        return _h(out)
    yield "gym/make_many", make_many


def _obs(obs: Any) -> Any:
    if isinstance(obs, dict):
        return [(k, _obs(v)) for k, v in sorted(obs.items())]
    if isinstance(obs, np.ndarray):
        return _h(obs)
    if isinstance(obs, (tuple, list)):
        return [_obs(o) for o in obs]
    return repr(obs)


def dataset_cases() -> Iterator[Case]:
    def build(spec: Dict[str, Any], file_format: str = "npz") -> Callable[[], str]:
        def run() -> str:
            import mazeplugin.dataset as ds

            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "d")
                manifest = ds.build(spec, out, workers=1, file_format=file_format)
                shards = [(s.get("file") or s.get("name") or s.get("path"), s.get("sha256"))
                          for s in manifest["shards"]]
                levels = [ds.digest(level) for level in ds.open(out)]
            return _h(shards, levels)
        return run
    yield "dataset/npz", build({"generator": "backtracker", "width": 9, "height": 9, "count": 40, "shard_size": 16,
                                "keys": 1})
    yield "dataset/npz-kruskal", build({"generator": "kruskal", "width": 12, "height": 8, "count": 30,
                                        "shard_size": 30, "braid": 0.3})
    try:
        import pyarrow  # noqa: F401
    except ImportError:  # pragma: no cover
        pass
    else:
        yield "dataset/parquet", build({"generator": "wilson", "width": 9, "height": 9, "count": 20,
                                        "shard_size": 10}, "parquet")
    yield "dataset/hex", build({"generator": "wilson", "width": 6, "height": 5, "count": 12, "shard_size": 6,
                                "grid": "hex"})
    yield "dataset/weave", build({"generator": "backtracker", "width": 7, "height": 7, "count": 12, "shard_size": 6,
                                  "weave": True})


GROUPS: Dict[str, Callable[[], Iterator[Case]]] = {
    "square": square_cases,
    "grid": grid_cases,
    "format": format_cases,
    "lane": lane_cases,
    "gym": gym_cases,
    "dataset": dataset_cases,
}


def compute(group: str) -> Dict[str, str]:
    out = {}
    for name, thunk in GROUPS[group]():
        try:
            out[name] = thunk()
        except Exception as e:  # noqa: BLE001 - a refusal is recorded too, and must stay one
            out[name] = "error:" + type(e).__name__
    return out


def load() -> Dict[str, Dict[str, str]]:
    with open(CORPUS, encoding="utf-8") as f:
        return json.load(f)  # type: ignore[no-any-return]


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/corpus.py --record")
    sys.path.insert(0, os.path.dirname(HERE))
    data = {}
    for group in GROUPS:
        data[group] = compute(group)
        errors = sum(v.startswith("error:") for v in data[group].values())
        print(f"{group}: {len(data[group])} cases, {errors} refused")
    with open(CORPUS, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=0, sort_keys=True)
        f.write("\n")
