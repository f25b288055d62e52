"""Generators from elsewhere: @mp.register in-process, and entry-point plugins from installed packages."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mazeplugin as mp
from mazeplugin import cli, registry

import mazecheck
from processes import child_env

TIMEOUT = 600  # a hang guard for subprocesses, never a speed bound
PLUGINS = Path(__file__).parent / "data" / "plugins"  # a module and the .dist-info pip would install


def python(code: str, *args: str, no_plugins: bool = False) -> subprocess.CompletedProcess:
    """Run Python in a fresh process that has the example plugin package installed on its path."""
    env = child_env()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PLUGINS), env.get("PYTHONPATH")]))
    env.pop(registry.NO_PLUGINS_VARIABLE, None)
    if no_plugins:
        env[registry.NO_PLUGINS_VARIABLE] = "1"
    command = [sys.executable, "-c", code, *args] if code else [sys.executable, *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=TIMEOUT)


# -- entry points, in a process with the plugin installed -------------------------

PROBE = """
import json, sys, warnings
warnings.simplefilter("always")
import mazeplugin as mp
loaded_at_import = "mazeplugin_example_plugin" in sys.modules
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    names = mp.algorithms()
level = mp.generate("example-comb", 7, 5, seed=11, markers="farthest", braid=0.2, corridor=2)
print(json.dumps({
    "loaded_at_import": loaded_at_import,
    "names": names,
    "warnings": [(w.category.__name__, str(w.message)) for w in caught],
    "level": level.to_json(),
    "info": [mp.get_generator("example-comb").description, sorted(mp.get_generator("example-comb").options)],
}))
"""


def test_an_installed_plugin_generates_through_mp_generate():
    done = python(PROBE)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert not result["loaded_at_import"]  # lazy: loaded on first use, not by `import mazeplugin`
    assert "example-comb" in result["names"]
    assert set(mp.algorithms()) <= set(result["names"])  # the built-ins are all still there
    assert result["info"] == [
        "Comb: every row one long corridor, joined to the row above through one random gap. Perfect.",
        ["teeth"],
    ]
    level = mp.from_json(result["level"])
    assert (level.algorithm, level.seed, level.layout.corridor) == ("example-comb", 11, 2)
    assert level.solution()[0] == level.entrance and level.solution()[-1] == level.exit


def test_broken_plugins_are_skipped_with_a_warning_each():
    result = json.loads(python(PROBE).stdout)
    messages = {message for category, message in result["warnings"] if category == "PluginWarning"}
    assert len(messages) == 3
    for name, reason in [
        ("example-missing-function", "AttributeError"),
        ("example-not-callable", "not a generator function"),
        ("example-missing-module", "ModuleNotFoundError"),
    ]:
        assert any(name in m and reason in m for m in messages), (name, messages)
    assert not {n for n in result["names"] if n.startswith("example-") and n != "example-comb"}


def test_the_plugin_level_is_the_same_in_every_process():
    first, second = (json.loads(python(PROBE).stdout)["level"] for _ in range(2))
    assert first == second


def test_the_command_line_uses_installed_plugins():
    listing = python("", "-m", "mazeplugin", "list")
    assert listing.returncode == 0
    listed = dict(line.split(None, 1) for line in listing.stdout.splitlines())
    assert listed["example-comb"].startswith("Comb: every row one long corridor")
    assert "example-missing-module" in listing.stderr  # the warning reaches the user
    done = python("", "-m", "mazeplugin", "generate", "example-comb", "--size", "6x4", "--seed", "5",
                  "-O", "teeth=left", "--format", "json")
    assert done.returncode == 0, done.stderr
    level = mp.from_json(done.stdout)
    # teeth=left: every row joins the row above at its first cell.
    assert level.maze.south[:-1, 0].all() and not level.maze.south[:, 1:].any()


def test_an_environment_variable_turns_plugin_loading_off():
    done = python("import mazeplugin as mp; print(mp.algorithms())", no_plugins=True)
    assert done.returncode == 0 and done.stderr == ""
    assert "example-comb" not in done.stdout and "kruskal" in done.stdout
    refused = python("", "-m", "mazeplugin", "generate", "example-comb", no_plugins=True)
    assert refused.returncode == 2 and "unknown algorithm 'example-comb'" in refused.stderr


# -- load_plugins with stand-in entry points (in this process) --------------------


class EntryPoint:
    """The part of importlib.metadata.EntryPoint that load_plugins uses."""

    def __init__(self, name, load):
        self.name, self.value, self._load = name, f"stand_in:{name}", load

    def load(self):
        return self._load()


def _snake(maze, rng, *, turns: int = 0) -> None:
    """Snake: one corridor winding row by row. Perfect."""
    maze.east[:, :-1] = True
    maze.south[np.arange(maze.height - 1), np.where(np.arange(maze.height - 1) % 2 == 0, maze.width - 1, 0)] = True


@pytest.fixture
def stand_in_plugins(monkeypatch):
    """Replace the installed entry points with a list the test fills in; restore the registry after."""
    points = []
    monkeypatch.setattr(registry, "_entry_points", lambda: list(points))
    before = dict(registry._REGISTRY)
    yield points
    registry._REGISTRY.clear()
    registry._REGISTRY.update(before)


def test_a_failing_plugin_does_not_stop_the_others(stand_in_plugins):
    def explode():
        raise RuntimeError("plugin bug")

    stand_in_plugins += [EntryPoint("aa-broken", explode), EntryPoint("zz-snake", lambda: _snake)]
    with pytest.warns(registry.PluginWarning, match="aa-broken.*RuntimeError: plugin bug"):
        added = registry.load_plugins()
    assert added == ["zz-snake"]
    level = mp.generate("zz-snake", 5, 4, seed=1, markers="farthest")
    mazecheck.assert_perfect(level)
    assert len(level.solution()) == 2 * (5 * 4 - 1) + 1  # the snake's two ends, through every cell


def test_a_plugin_cannot_take_a_built_in_name(stand_in_plugins):
    kruskal = mp.get_generator("kruskal")
    stand_in_plugins.append(EntryPoint("kruskal", lambda: _snake))
    with pytest.warns(registry.PluginWarning, match="'kruskal' is already taken"):
        assert registry.load_plugins() == []
    assert mp.get_generator("kruskal") is kruskal


def test_a_module_plugin_that_fails_halfway_leaves_nothing_registered(stand_in_plugins):
    def half_module():
        mp.register("half-made")(_snake)
        raise ImportError("missing dependency")

    stand_in_plugins.append(EntryPoint("half", half_module))
    with pytest.warns(registry.PluginWarning, match="missing dependency"):
        registry.load_plugins()
    assert "half-made" not in registry._REGISTRY


def test_plugins_load_once_and_lazily(stand_in_plugins, monkeypatch):
    calls = []
    stand_in_plugins.append(EntryPoint("lazy-snake", lambda: calls.append(1) or _snake))
    monkeypatch.setattr(registry, "_plugins_loaded", False)
    monkeypatch.delenv(registry.NO_PLUGINS_VARIABLE, raising=False)
    assert calls == []
    assert "lazy-snake" in mp.algorithms()
    mp.get_generator("lazy-snake")
    mp.algorithms()
    assert calls == [1]


# -- @mp.register: the interface the built-ins use --------------------------------


@pytest.fixture
def snake_name():
    @mp.register("test-snake")
    def snake(maze: mp.Maze, rng: mp.Random, *, start_left: bool = True) -> None:
        """Snake: a single corridor through every row. Perfect; two dead ends."""
        _snake(maze, rng)

    yield "test-snake"
    mp.unregister("test-snake")


def test_a_registered_generator_gets_every_core_feature(snake_name, tmp_path, capsys):
    name = snake_name
    level = mp.generate(name, 6, 5, seed=3, markers="farthest", corridor=2, wall=1)
    assert level.stats().dead_ends == 2 and level.stats().loops == 0
    assert mp.get_generator(name).options == {"start_left": True}
    braided = mp.generate(name, 6, 5, seed=3, braid=1.0)
    assert braided.stats().dead_ends == 0
    assert np.array_equal(mp.from_json(level.to_json()).tiles, level.tiles)
    assert cli.main(["generate", name, "--size", "6x5", "--seed", "3", "-o", str(tmp_path / "s.json")]) == 0
    assert cli.main(["list"]) == 0
    listed = dict(line.split(None, 1) for line in capsys.readouterr().out.splitlines())
    assert listed[name] == "Snake: a single corridor through every row. Perfect; two dead ends."


def test_a_module_plugin_registers_its_own_generators(stand_in_plugins):
    import types

    def import_module():
        mp.register("module-snake", perfect=True, masks=False)(_snake)
        return types.ModuleType("my_mazes.snake")

    stand_in_plugins.append(EntryPoint("snakes", import_module))
    assert registry.load_plugins() == ["module-snake"]
    assert mp.get_generator("module-snake").masks is False
    assert "snakes" not in registry._REGISTRY  # the entry point's own name is not a generator here


# -- a plugin over the neighbour interface runs on every grid ---------------------


def _random_tree(grid, rng, start, goal, *, loops: int = 0):
    """A random spanning tree by a walk over the grid's own arrays (the neighbour interface)."""
    opened = np.zeros(grid.edge_count, dtype=bool)
    seen = np.zeros(grid.cells, dtype=bool)
    seen[start] = True
    stack = [start]
    while stack:
        cell = stack[-1]
        steps = [k for k in range(grid.offsets[cell], grid.offsets[cell + 1]) if not seen[grid.neighbours[k]]]
        if not steps:
            stack.pop()
            continue
        k = steps[int(rng.random(1)[0] * len(steps))]
        opened[grid.edge_ids[k]] = seen[grid.neighbours[k]] = True
        stack.append(int(grid.neighbours[k]))
    return opened


@pytest.fixture
def grid_plugin():
    mp.register("test-grid-walk", grids=mp.GRIDS)(_random_tree)
    yield "test-grid-walk"
    mp.unregister("test-grid-walk")


@pytest.mark.parametrize("where", [dict(grid="hex"), dict(grid="triangle"), dict(grid="polar"), dict(wrap="xy"),
                                   dict(wrap="x"), dict(grid="square")])
def test_a_plugin_over_the_neighbour_interface_runs_on_every_grid(grid_plugin, where):
    level = mp.generate(grid_plugin, 5, 4, seed=2, **where)
    again = mp.generate(grid_plugin, 5, 4, seed=2, **where)
    stats = level.stats()
    assert stats.passages == stats.cells - 1 and len(level.solution()) > 1  # a spanning tree: all joined
    assert level.solution() == again.solution() and level.stats() == again.stats()
    assert grid_plugin in mp.algorithms(grid=where.get("grid", "square"))
    assert mp.get_generator(grid_plugin).wraps and mp.get_generator(grid_plugin).grid_options == {"loops": 0}


def test_a_plugin_over_the_neighbour_interface_fills_a_square_mask_part(grid_plugin):
    mask = np.ones((5, 6), dtype=bool)
    mask[1:4, 2:4] = False  # a ring
    level = mp.generate(grid_plugin, 6, 5, seed=4, mask=mask)
    assert level.stats().dead_ends >= 1 and level.stats().loops == 0


def test_a_square_only_generator_is_listed_for_the_square_grid_alone(snake_name):
    assert snake_name in mp.algorithms(grid="square") and snake_name not in mp.algorithms(grid="hex")
    assert snake_name in mp.algorithms()
    with pytest.raises(ValueError, match="runs only on the square grid, not grid='polar'"):
        mp.generate(snake_name, 4, 4, grid="polar")
    with pytest.raises(ValueError, match="cannot wrap"):
        mp.generate(snake_name, 4, 4, wrap="x")
    with pytest.raises(ValueError, match="grid must be None or one of"):
        mp.algorithms(grid="hexagon")


@pytest.mark.parametrize("answer", [lambda g: [True] * 2, lambda g: np.ones(g.edge_count, dtype=np.int64),
                                    lambda g: np.ones(g.edge_count + 1, dtype=bool)])
@pytest.mark.parametrize("where", [dict(grid="hex"), dict(wrap="y"), dict(grid="square")])
def test_a_plugin_whose_passages_do_not_fit_the_grid_is_named(answer, where):
    mp.register("test-grid-sloppy", grids=("square", "hex"))(lambda grid, rng, start, goal: answer(grid))
    try:
        with pytest.raises(ValueError, match="generator 'test-grid-sloppy' broke the maze: it must return one bool "
                                             "per edge"):
            mp.generate("test-grid-sloppy", 4, 3, seed=1, **where)
        with pytest.raises(ValueError, match="runs only on grid='square' / 'hex', not grid='polar'"):
            mp.generate("test-grid-sloppy", 4, 3, grid="polar")
    finally:
        mp.unregister("test-grid-sloppy")


def test_register_checks_grids_and_graph():
    with pytest.raises(ValueError, match="grids must be a tuple of distinct grid names"):
        mp.register("test-bad-grids", grids=("hexagon",))
    with pytest.raises(ValueError, match="graph= runs a generator on grids beyond the square"):
        mp.register("test-bad-graph", graph=_random_tree)
    assert "test-bad-grids" not in mp.algorithms() and "test-bad-graph" not in mp.algorithms()


def test_the_built_in_neighbour_only_generators_run_on_every_grid():
    neighbour_only = {"aldous-broder", "backtracker", "growing-tree", "hunt-and-kill", "kruskal", "prim",
                      "prim-simplified", "union-find", "wilson"}
    for grid in ("hex", "triangle", "polar"):
        assert set(mp.algorithms(grid=grid)) == neighbour_only
    assert set(mp.algorithms(grid="square")) == set(mp.algorithms())
    assert {name for name in mp.algorithms() if mp.get_generator(name).wraps} == neighbour_only


def test_a_plugin_for_some_grids_only_is_refused_elsewhere():
    mp.register("test-hex-only", grids=("hex", "triangle"))(_random_tree)
    try:
        assert mp.generate("test-hex-only", 4, 3, grid="triangle", seed=1).stats().loops == 0
        assert mp.algorithms(grid="triangle").count("test-hex-only") == 1
        assert "test-hex-only" not in mp.algorithms(grid="square") + mp.algorithms(grid="polar")
        with pytest.raises(ValueError, match="runs only on grid='hex' / 'triangle', not the square grid"):
            mp.generate("test-hex-only", 4, 3, seed=1)
        with pytest.raises(ValueError, match="runs only on grid='hex' / 'triangle', not grid='polar'"):
            mp.generate("test-hex-only", 4, 3, grid="polar")
        with pytest.raises(ValueError, match="runs only on grid='hex' / 'triangle', not grid='square'"):
            mp.generate("test-hex-only", 4, 3, wrap="x")
    finally:
        mp.unregister("test-hex-only")


# -- an entry point naming a bare function: registered on the grids its signature supports ----------------


def test_an_entry_point_function_over_the_neighbour_interface_runs_on_every_grid(stand_in_plugins):
    # Before: every bare function was registered for the square grid alone, so this one was refused on hex.
    stand_in_plugins.append(EntryPoint("walk-plugin", lambda: _random_tree))
    assert registry.load_plugins() == ["walk-plugin"]
    assert mp.get_generator("walk-plugin").grids == mp.GRIDS
    for where in (dict(grid="hex"), dict(grid="polar"), dict(wrap="xy"), {}):
        stats = mp.generate("walk-plugin", 5, 4, seed=3, **where).stats()
        assert stats.passages == stats.cells - 1


def test_an_entry_point_function_over_the_maze_is_the_square_grids(stand_in_plugins):
    stand_in_plugins.append(EntryPoint("snake-plugin", lambda: _snake))
    assert registry.load_plugins() == ["snake-plugin"]
    assert mp.get_generator("snake-plugin").grids == ("square",)
    assert mp.generate("snake-plugin", 5, 4, seed=1).stats().dead_ends == 2
    with pytest.raises(ValueError, match="snake-plugin"):
        mp.generate("snake-plugin", 5, 4, seed=1, grid="hex")
