"""``import mazeplugin`` loads what a first square level needs; rooms, grids, level codes, require= and worlds load on first use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import mazeplugin as mp
from mazeplugin import limits
from mazeplugin.generators import BUILTIN_MODULES

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


# -- built-in generators: known by name, imported on first use (generators.BUILTIN_MODULES) ----------------

GENERATOR_MODULES = sorted(p.stem for p in (ROOT / "mazeplugin" / "generators").glob("*.py")
                           if p.stem not in ("__init__", "graph"))  # graph: the grid versions, no registration


def test_import_mazeplugin_loads_no_generator_module_and_still_lists_all_fourteen():
    code = LOADED.replace("print(", "print(json.dumps(mazeplugin.algorithms())); print(")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), MAZEPLUGIN_COMPILED="0"))
    assert done.returncode == 0, done.stderr[-2000:]
    names, loaded = (json.loads(line) for line in done.stdout.strip().splitlines()[-2:])
    assert names == sorted(BUILTIN_MODULES) and len(names) == 14
    assert [m for m in loaded if m.startswith("mazeplugin.generators")] == ["mazeplugin.generators"]


def test_a_level_imports_its_own_generator_module_only():
    code = LOADED.replace("print(", "mazeplugin.generate('wilson', 5, 4, seed=2); print(")
    # (and generators.graph: the neighbour interface's shared parts)
    assert [m for m in _loaded(code) if m.startswith("mazeplugin.generators.")] == [
        "mazeplugin.generators.graph", "mazeplugin.generators.wilson"]
    code = LOADED.replace("print(", "mazeplugin.get_generator('rooms'); print(")
    assert [m for m in _loaded(code) if m.startswith("mazeplugin.generators.")] == [
        "mazeplugin.generators.backtracker", "mazeplugin.generators.graph",
        "mazeplugin.generators.rooms"]  # rooms carves its corridors with the backtracker


def test_the_table_of_built_ins_matches_what_each_module_registers():
    import importlib

    from mazeplugin import registry

    assert sorted(set(BUILTIN_MODULES.values())) == GENERATOR_MODULES  # every generator file is listed, once
    for module in GENERATOR_MODULES:
        importlib.import_module(f"mazeplugin.generators.{module}")
    registered = {info.name: info.function.__module__ for info in registry.generator_infos()
                  if info.function.__module__.startswith("mazeplugin.generators.")}
    assert registered == {name: f"mazeplugin.generators.{module}" for name, module in BUILTIN_MODULES.items()}
    for name in BUILTIN_MODULES:
        info = mp.get_generator(name)
        assert info.name == name and info.builtin and info is registry.builtin_generator(name)
        assert info.bytes_per_cell == limits.GENERATOR_BYTES_PER_CELL[name]
    assert [info.name for info in registry.generator_infos() if info.builtin] == sorted(BUILTIN_MODULES)


def test_the_built_ins_flags_are_those_their_modules_give():
    """perfect, masks, fills, rows and options as the @register lines say (they were read at import before)."""
    infos = {name: mp.get_generator(name) for name in BUILTIN_MODULES}
    assert sorted(n for n, i in infos.items() if not i.perfect) == ["rooms", "union-find"]
    assert sorted(n for n, i in infos.items() if not i.masks) == ["binary-tree", "division", "eller", "sidewinder"]
    assert sorted(n for n, i in infos.items() if not i.fills) == ["union-find"]
    assert sorted(n for n, i in infos.items() if i.rows is not None) == ["eller"]
    assert infos["growing-tree"].options == {"strategy": "newest"}
    assert infos["rooms"].options == {"room_size": (2, 5), "attempts": None, "extra_doors": 0.02, "prune": 1.0}


def _run(code: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), MAZEPLUGIN_COMPILED="0",
                                   MAZEPLUGIN_NO_PLUGINS="1"))
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_a_plugin_may_use_a_built_in_not_imported_yet():
    """Its first use fills in the built-in's placeholder while the plugin loads: that is not tampering."""
    done = _run(
        "import warnings; from mazeplugin import registry; import mazeplugin as mp\n"
        "def mine(maze, rng):\n"
        "    maze.east[:, :-1] = True; maze.south[:-1, 0] = True\n"
        "class EntryPoint:\n"
        "    name, value = 'uses-kruskal', 'test:uses_kruskal'\n"
        "    def load(self):\n"
        "        mp.generate('kruskal', 4, 4, seed=1)\n"
        "        return mine\n"
        "registry._entry_points = lambda: [EntryPoint()]\n"
        "with warnings.catch_warnings():\n"
        "    warnings.simplefilter('error')  # a PluginWarning would stop the program\n"
        "    print(registry.load_plugins(), mp.get_generator('kruskal').builtin)\n")
    assert done.stdout.split() == ["['uses-kruskal']", "True"]


def test_an_application_that_replaced_a_built_in_before_its_first_use_keeps_it():
    done = _run(
        "import warnings, importlib; import mazeplugin as mp\n"
        "def mine(maze, rng):\n"
        "    '''Mine.'''\n"
        "    maze.east[:, :-1] = True; maze.south[:-1, 0] = True\n"
        "with warnings.catch_warnings(record=True) as said:\n"
        "    warnings.simplefilter('always')\n"
        "    mp.register('kruskal', replace=True)(mine)\n"
        "    mp.unregister('prim')\n"
        "importlib.import_module('mazeplugin.generators.kruskal')  # its own @register must not undo the choice\n"
        "importlib.import_module('mazeplugin.generators.prim')\n"
        "print(mp.get_generator('kruskal').function is mine, 'prim' in mp.algorithms(), len(said))\n")
    assert done.stdout.split() == ["True", "False", "2"]


def test_import_mazeplugin_leaves_placement_analysis_grids_pipeline_and_logging_unloaded():
    code = LOADED.replace("m.startswith('mazeplugin')", "m.startswith(('mazeplugin', 'logging', 'hashlib', 'glob'))")
    loaded = _loaded(code)
    assert not [m for m in loaded if m in ("logging", "hashlib", "glob") or m.startswith((
        "mazeplugin.content.placing", "mazeplugin.content.proof", "mazeplugin.analysis", "mazeplugin.grids"))]
    code = LOADED.replace("print(", "mazeplugin.generate('kruskal', 6, 6, seed=1); print(")
    assert "mazeplugin.content.placing" not in _loaded(code)  # a level without content needs no placement


def test_lazy_names_of_the_content_package_and_the_kernels_resolve():
    import logging

    from mazeplugin import _compiled, content
    from mazeplugin.content import ContentError, furnish
    from mazeplugin.content.placing import furnish as placing_furnish
    from mazeplugin.content.proof import ContentError as proof_error

    assert furnish is placing_furnish and ContentError is proof_error
    for name in content.__all__:
        assert getattr(content, name) is not None and name in dir(content), name
    assert _compiled.LOG is logging.getLogger("mazeplugin.compiled")
    level = mp.generate("kruskal", 8, 8, seed=4)
    assert level.stats().cells == 64 and len(level.dead_ends()) == level.stats().dead_ends


def test_a_plugin_that_re_registers_a_built_ins_own_function_is_still_refused():
    """Only the module's own first import fills in a placeholder; registering its function again is a replacement."""
    done = _run(
        "import warnings; from mazeplugin import registry; import mazeplugin as mp\n"
        "class EntryPoint:\n"
        "    name, value = 'sly', 'test:sly'\n"
        "    def load(self):\n"
        "        import mazeplugin.generators.kruskal as k\n"
        "        mp.register('kruskal', replace=True, perfect=False)(k.kruskal)\n"
        "registry._entry_points = lambda: [EntryPoint()]\n"
        "with warnings.catch_warnings(record=True) as said:\n"
        "    warnings.simplefilter('always')\n"
        "    print(registry.load_plugins(), mp.get_generator('kruskal').perfect,\n"
        "          [type(w.message).__name__ for w in said])\n")
    assert done.stdout.split() == ["[]", "True", "['PluginWarning']"]
