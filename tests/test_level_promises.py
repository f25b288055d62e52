"""A Level keeps its promises: what it holds is checked, what the library writes it reads back."""

from __future__ import annotations

import os

import pytest

import mazeplugin as mp

from processes import child_env


def test_things_assigned_must_be_things():
    level = mp.generate("backtracker", 10, 8, seed=3, keys=2, treasure=2)
    before = level.things
    for bad in (5, "door", [1, 2], [None], [{"kind": "key"}]):
        with pytest.raises(TypeError, match="things"):
            level.things = bad
    assert level.things == before  # a refused assignment leaves the level as it was
    level.check()


def test_things_assigned_keep_ids_distinct_and_on_the_map():
    level = mp.generate("backtracker", 10, 8, seed=3, keys=1)
    door = next(t for t in level.things if t.kind == "door")
    with pytest.raises(ValueError, match="id"):
        level.things = (door, door)
    rows, columns = level.tiles.shape
    with pytest.raises(ValueError, match="outside the map"):
        level.things = (mp.Thing("treasure", columns, 1, 9),)
    level.things = tuple(reversed(level.things))  # accepted, and kept sorted by id
    assert [t.id for t in level.things] == sorted(t.id for t in level.things)


def test_a_world_window_with_open_edges_is_refused_by_every_writer(tmp_path):
    window = mp.World("backtracker", seed=4).level(0, 0, 20, 20, open_edges=True)
    for name in ("level.json", "level.tmx", "level.tmj", "level.npy"):
        with pytest.raises(ValueError, match="would not load back"):
            window.save(str(tmp_path / name))
    with pytest.raises(ValueError, match="would not load back"):
        window.to_json()
    assert os.listdir(tmp_path) == []  # nothing half-written


def test_a_closed_world_window_round_trips(tmp_path):
    window = mp.World("backtracker", seed=4).level(0, 0, 20, 20)
    window.save(str(tmp_path / "w.json"))
    again = mp.load(str(tmp_path / "w.json"))
    assert again.tiles.tobytes() == window.tiles.tobytes()


def test_a_world_window_says_it_has_no_markers_in_its_own_words():
    window = mp.World("backtracker", seed=4).level(0, 0, 10, 10)
    with pytest.raises(ValueError) as caught:
        window.solution()
    assert "World" in str(caught.value) and "markers='border'" not in str(caught.value)
    with pytest.raises(ValueError, match="markers='border'"):
        mp.generate("kruskal", 4, 4, seed=1, markers="none").solution()


def _plugin(name, body):
    import mazeplugin as mp

    @mp.register(name, perfect=False)
    def carve(maze, rng):
        body(maze)

    return carve


@pytest.mark.parametrize("name,body,match", [
    ("test-int-east", lambda maze: setattr(maze, "east", maze.east.astype(int)), "maze.east must stay a bool"),
    ("test-new-mask", lambda maze: setattr(maze, "mask", None), "maze.mask must stay"),
    ("test-grows-mask", lambda maze: maze.mask.__setitem__((0, 0), True), "added cell"),
    ("test-drops-start", lambda maze: maze.mask.__setitem__((maze.start[1], maze.start[0]), False), "start cell"),
    ("test-carves-nothing", lambda maze: None, "unjoined"),
    ("test-far-start", lambda maze: setattr(maze, "start", (999, 999)),
     r"maze.start must stay a cell \(x, y\) of its 6 × 4 grid, got \(999, 999\)"),
    ("test-odd-goal", lambda maze: setattr(maze, "goal", [0, 0]), "maze.goal must stay a cell"),
    ("test-negative-goal", lambda maze: setattr(maze, "goal", (-1, 0)), "maze.goal must stay a cell"),
])
def test_a_plugin_that_breaks_the_maze_is_named(name, body, match):
    _plugin(name, body)
    try:
        mask = ["#" * 6] * 4
        mask[0] = "." + "#" * 5
        with pytest.raises(ValueError, match=match) as caught:
            mp.generate(name, 6, 4, seed=1, mask=mask if name == "test-grows-mask" else None)
        assert repr(name) in str(caught.value)
    finally:
        mp.unregister(name)


def test_a_plugin_level_without_markers_need_not_join_anything():
    _plugin("test-carves-nothing-2", lambda maze: None)
    try:
        level = mp.generate("test-carves-nothing-2", 4, 3, seed=1, markers="none")
        assert level.stats().passages == 0
    finally:
        mp.unregister("test-carves-nothing-2")


def test_a_saved_world_window_loads_in_a_fresh_process(tmp_path):
    """The ``world`` option is known to the loader without the World ever being imported."""
    import subprocess
    import sys

    path = tmp_path / "window.json"
    mp.World("kruskal", seed=3, treasure=1).level(0, 0, 40, 40).save(str(path))
    code = ("import sys, mazeplugin as mp; level = mp.load(sys.argv[1]); "
            "print(sorted(level.options['world']), 'mazeplugin.world' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120,
                         env=child_env())
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("]")[0].startswith("['chunk'") and out.stdout.strip().endswith("False")


def test_require_reports_progress_and_says_how_long_it_searched():
    seen = []
    with pytest.raises(ValueError, match=r"searched 5 candidates in [0-9.]+ s"):
        mp.generate("kruskal", 6, 5, seed=1, require={"dead_ends": (1000, None)}, attempts=5,
                    progress=lambda tried, attempts: seen.append((tried, attempts)))
    assert seen == [(k, 5) for k in range(1, 6)]
    with pytest.raises(ValueError, match="progress= reports on a require= search"):
        mp.generate("kruskal", 6, 5, seed=1, progress=print)
    with pytest.raises(TypeError, match="progress must be callable"):
        mp.generate("kruskal", 6, 5, seed=1, require={"dead_ends": (0, None)}, progress=5)


def test_reading_a_small_file_reserves_no_more_than_it_holds(tmp_path):
    """read_limited asks for the file's size, not its limit (a 1 GiB limit once reserved 1 GiB per load)."""
    import tracemalloc

    from mazeplugin.formats.files import read_limited

    path = tmp_path / "small.bin"
    path.write_bytes(b"x" * 1000)
    tracemalloc.start()
    try:
        data = read_limited(path, 1 << 30, what="a test file")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert data == b"x" * 1000 and peak < 1 << 20
    with pytest.raises(mp.LevelFormatError, match="too large"):
        read_limited(path, 999, what="a test file")
