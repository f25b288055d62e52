"""``import mazeplugin`` loads what a first square level needs; rooms, grids, level codes, require= and worlds load on first use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import mazeplugin as mp

ROOT = Path(__file__).resolve().parent.parent

LOADED = "import json, sys, mazeplugin; print(json.dumps(sorted(m for m in sys.modules if m.startswith('mazeplugin'))))"

LAZY_MODULES = ("mazeplugin.rooms", "mazeplugin.grids", "mazeplugin.grid_level", "mazeplugin.codes", "mazeplugin.difficulty", "mazeplugin.world")


def _loaded(code: str) -> list:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), MAZEPLUGIN_COMPILED="0"))
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_import_mazeplugin_leaves_grids_codes_require_and_worlds_unloaded():
    loaded = _loaded(LOADED)
    assert "mazeplugin.api" in loaded and "mazeplugin.pipeline" in loaded
    assert not [m for m in loaded if m.startswith(LAZY_MODULES)]


def test_a_first_square_level_loads_none_of_them_either():
    code = LOADED.replace("print(", "mazeplugin.generate('kruskal', 6, 6, seed=1, keys=1); print(")
    assert not [m for m in _loaded(code) if m.startswith(LAZY_MODULES)]


def test_every_public_name_imports_and_is_listed():
    from mazeplugin import GridLevel, World, level_code, looks_like_level_code, parse_level_code  # noqa: F401
    from mazeplugin.codes import level_code as the_level_code
    from mazeplugin.grid_level import GridLevel as the_grid_level

    assert level_code is the_level_code and GridLevel is the_grid_level
    for name in mp.__all__:
        assert getattr(mp, name) is not None, name
        assert name in dir(mp), name
    assert level_code(mp.generate("kruskal", 4, 4, seed=3)) == "kruskal-4x4-3"
    assert isinstance(mp.generate("backtracker", 3, 3, grid="hex", seed=1), GridLevel)


def test_an_unknown_name_is_still_an_attribute_error():
    try:
        mp.no_such_name  # noqa: B018
    except AttributeError as error:
        assert "no_such_name" in str(error)
    else:
        raise AssertionError("mp.no_such_name did not raise AttributeError")


def test_import_mazeplugin_leaves_error_message_and_random_seed_helpers_unloaded():
    """difflib (the "did you mean" of an unknown name) and secrets (a seed for seed=None) load when needed."""
    code = LOADED.replace("m.startswith('mazeplugin')", "m in ('difflib', 'secrets', 'mazeplugin')")
    assert _loaded(code) == ["mazeplugin"]
    assert isinstance(mp.generate("kruskal", 3, 3).seed, int)
    try:
        mp.generate("kruskall", 3, 3)
    except ValueError as error:
        assert "did you mean 'kruskal'" in str(error)
    else:
        raise AssertionError("an unknown generator name was accepted")
