"""The columns of a batch of levels from one compiled call (``_compiled.routes``) are the per-level code's bytes."""

from __future__ import annotations

import os
from typing import Any, Dict, Iterator, List, Sequence

import numpy as np
import pytest

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
