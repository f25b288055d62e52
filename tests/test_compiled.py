"""The compiled path (numba) makes the very same levels as the plain Python path.

The suite runs compiled when numba is installed (see conftest.py); these
tests switch between the two paths with ``MAZEPLUGIN_COMPILED`` and compare.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

pytest.importorskip("numba")

import mazeplugin as mp  # noqa: E402
import mazeplugin.compiled as compiled  # noqa: E402
from mazeplugin import _compiled  # noqa: E402
from mazeplugin._compiled import rand, sort, unionfind  # noqa: E402
from mazeplugin.unionfind import DisjointSets  # noqa: E402
from mazecheck import digest, on_path, outcome  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL_GENERATORS = [n for n in _compiled.KERNELS if n in mp.algorithms()]


def test_unit_and_below_are_seeds_arithmetic():
    words = mp.Random.from_seed(5).raw(4000)
    edges = np.array([0, 1, 2**11 - 1, 2**11, 2**63, 2**64 - 1, 2**64 - 2**11], dtype=np.uint64)
    words = np.concatenate([words, edges])
    floats = (words >> np.uint64(11)).astype(np.float64) * 2.0**-53  # Random.random's arithmetic
    assert [rand.unit(w) for w in words] == floats.tolist()
    for high in (1, 2, 3, 4, 7, 1000, 999_983, 2**24 + 1):
        expected = np.floor(floats * high).astype(np.int64).tolist()  # Random.integers's
        assert [rand.below(w, high) for w in words] == expected


def test_words_give_the_numbers_random_gives():
    # Kernels take raw words where the plain loops take random()/integers(): the same stream.
    a, b = mp.Random.from_seed("castle"), mp.Random.from_seed("castle")
    words = a.raw(500)
    assert [rand.unit(w) for w in words[:250]] == b.random(250).tolist()
    assert [rand.below(w, 4) for w in words[250:]] == b.integers(4, 250).tolist()


@given(keys=st.lists(st.integers(0, 2**64 - 1) | st.sampled_from([0, 5, 2**40, 2**64 - 1]), max_size=300),
       shift=st.sampled_from([0, 11, 40, 61]))
def test_stable_argsort_is_numpys_stable_argsort(keys, shift):
    array = np.array(keys, dtype=np.uint64) >> np.uint64(shift)  # few bits: many ties
    assert sort.stable_argsort(array).tolist() == np.argsort(array, kind="stable").tolist()


@pytest.mark.parametrize("n", [3000, 150_000, 600_000])
@pytest.mark.parametrize("shift", [0, 11, 30, 50])
def test_stable_argsort_of_many_keys_is_numpys(n, shift):
    # Enough keys that buckets are dealt a second time (and, shifted, tie in many ways).
    keys = mp.Random.from_seed(n + shift).raw(n) >> np.uint64(shift)
    order, ranked = sort.sort_keys(keys)
    expected = np.argsort(keys, kind="stable")
    assert np.array_equal(order, expected) and np.array_equal(ranked, keys[expected])


def test_permutation_is_random_permutation():
    for n in (0, 1, 2, 10, 100_000):
        words = mp.Random.from_seed(n).raw(n)
        assert sort.stable_argsort(words).tolist() == mp.Random.from_seed(n).permutation(n).tolist()


@given(n=st.integers(1, 40), data=st.data())
def test_rem_union_find_joins_the_pairs_disjoint_sets_joins(n, data):
    # kruskal, prim and union-find's kernels keep a Rem forest; which pairs merge two
    # sets, and which cells end up connected, must be DisjointSets' answers.
    pairs = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=120))
    rem, sets = unionfind.self_parents(n), DisjointSets(n)
    for a, b in pairs:
        assert unionfind.rem_join(rem, a, b) == sets.union(a, b)
    for a in range(n):
        for b in range(n):
            assert unionfind.rem_connected(rem, a, b) == sets.connected(a, b)


@st.composite
def level_requests(draw):
    """A generate() call: any generator, size, seed, options, mask, braid, markers and layout."""
    algorithm = draw(st.sampled_from(mp.algorithms()))
    info = mp.get_generator(algorithm)
    width, height = draw(st.integers(1, 28)), draw(st.integers(1, 28))
    kwargs = {
        "seed": draw(st.integers(0, 2**64) | st.text(min_size=1, max_size=6)),
        "markers": draw(st.sampled_from(["border", "farthest", "random", "none"])),
        "braid": draw(st.sampled_from([0, 0, 0.5, 1.0])),
    }
    if draw(st.booleans()):
        kwargs["corridor"] = draw(st.integers(1, 3))
        kwargs["wall"] = draw(st.integers(1, 2))
    if algorithm == "growing-tree":
        kwargs["strategy"] = draw(st.sampled_from(
            ["newest", "oldest", "middle", "random", "newest:0.75", "oldest:0.3", "middle:0.5"]))
    if info.masks and draw(st.booleans()):
        density = draw(st.sampled_from([0.5, 0.7, 0.9]))
        mask = np.array(draw(st.lists(st.floats(0, 1), min_size=width * height,
                                      max_size=width * height))).reshape(height, width) < density
        mask[draw(st.integers(0, height - 1)), draw(st.integers(0, width - 1))] = True
        kwargs["mask"] = mask
    return algorithm, width, height, kwargs


@given(request=level_requests())
@example(request=("union-find", 4, 3, {"seed": 1, "markers": "farthest", "mask": ["##..", "....", "..##"]}))
@example(request=("aldous-broder", 5, 4, {"seed": 2, "markers": "none", "mask": ["#.#.#", ".#.#.", "#.#.#", "....."]}))
@example(request=("hunt-and-kill", 5, 4, {"seed": 3, "markers": "none", "mask": ["##.##", "##.##", ".....", "##.##"]}))
@example(request=("prim", 5, 4, {"seed": 4, "markers": "none", "mask": ["#.#.#", ".#.#.", "#.#.#", ".#.#."]}))
@example(request=("kruskal", 5, 4, {"seed": 4, "markers": "none", "mask": ["#.#.#", ".#.#.", "#.#.#", ".#.#."]}))
@example(request=("rooms", 25, 18, {"seed": 5, "markers": "farthest", "extra_doors": 0.1, "prune": 0.5}))
@example(request=("kruskal", 20, 16, {"seed": 6, "markers": "border", "rooms": 4}))
def test_compiled_and_plain_paths_make_the_same_level(request):
    algorithm, width, height, kwargs = request

    def make():
        return mp.generate(algorithm, width, height, **kwargs)

    with on_path("1"):
        fast = outcome(make)
    with on_path("0"):
        plain = outcome(make)
    assert fast == plain


@pytest.mark.parametrize("algorithm", KERNEL_GENERATORS)
def test_same_level_on_both_paths_when_batches_refill(algorithm):
    # Big enough that the walks refill their batches of draws several times,
    # union-find's batches double and eller draws its rows in several chunks.
    width, height = (1000, 400) if algorithm == "eller" else (150, 120)
    results = []
    for mode in ("1", "0"):
        with on_path(mode):
            level = mp.generate(algorithm, width, height, seed=11, markers="farthest")
            results.append((level.tiles.tobytes(), level.entrance, level.exit, level.stats()))
    assert results[0] == results[1]


def test_streamed_eller_rows_are_the_same_on_both_paths():
    rows = []
    for mode in ("1", "0"):
        with on_path(mode):
            stream = mp.stream("eller", width=37, seed="row")
            rows.append([next(stream).tobytes() for _ in range(101)])
    assert rows[0] == rows[1]


def test_golden_digests_hold_on_the_plain_path_too():
    # The suite runs compiled; the golden digests run once more here, plain, in a fresh process.
    env = dict(os.environ, MAZEPLUGIN_COMPILED="0", PYTHONPATH=ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",  # one process, no -n
         "tests/test_seeds.py", "tests/test_golden_catalogue.py", "tests/test_grids.py::test_golden_grid_levels",
         "tests/test_grids.py::test_braided_grid_levels_have_loops_and_a_golden_digest"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout


def test_off_means_plain(monkeypatch):
    monkeypatch.setenv(compiled.MODE_VARIABLE, "0")
    assert not compiled.available()
    assert _compiled.kernel("backtracker", 10**6) is None
    assert compiled.warm_up(background=True) is None


def test_auto_mode_makes_a_small_first_level_plain_and_loads_its_kernel_meanwhile():
    # In a fresh process, the first small level does not wait for numba; it
    # starts loading its kernel (and bfs) in the background, and once that is
    # done the next small levels run compiled. A large level loads and waits.
    code = (
        "import sys, mazeplugin as mp\n"
        "from mazeplugin import compiled, _compiled\n"
        "first = mp.generate('backtracker', 64, 64, seed=1)\n"
        "loading = _compiled._STATE.thread\n"
        "assert loading is not None\n"
        "loading.join(600)\n"
        "assert not loading.is_alive()\n"
        "print(compiled.loaded())\n"
        "again = mp.generate('backtracker', 64, 64, seed=1)\n"
        "assert again.tiles.tobytes() == first.tiles.tobytes()\n"
        "mp.generate('wilson', 300, 300, seed=1)\n"
        "print(compiled.loaded())\n"
    )
    env = dict(os.environ, MAZEPLUGIN_COMPILED="auto", PYTHONPATH=ROOT)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["['backtracker', 'bfs']", "['backtracker', 'bfs', 'wilson']"]


def fresh_loader(monkeypatch):
    """As in a process that has loaded no kernel and built nothing yet (the modules stay imported)."""
    running = _compiled._STATE.thread
    if running is not None:  # a warm-up an earlier test started: let it finish first
        running.join(600)
    for name, value in (("loaded", {}), ("built", set()), ("queue", [])):
        monkeypatch.setattr(_compiled._STATE, name, value)


def gate_kernel_imports(monkeypatch):
    """Kernel modules load only once the returned event is set (other imports pass straight through)."""
    import threading

    gate = threading.Event()
    real = _compiled.importlib.import_module

    def gated(name, *args, **kwargs):
        if name.startswith("mazeplugin._compiled."):
            assert gate.wait(600), "the gate was never opened"
        return real(name, *args, **kwargs)

    monkeypatch.setattr(_compiled.importlib, "import_module", gated)
    return gate


def test_small_levels_never_wait_for_a_kernel_that_is_loading(monkeypatch):
    monkeypatch.setenv(compiled.MODE_VARIABLE, "auto")
    fresh_loader(monkeypatch)
    monkeypatch.setattr(_compiled._STATE, "thread", None)
    gate = gate_kernel_imports(monkeypatch)
    try:
        first = mp.generate("kruskal", 40, 30, seed=2)  # starts the loading, which cannot finish yet
        loading = _compiled._STATE.thread
        assert loading is not None and loading.is_alive()
        levels = [mp.generate("kruskal", 40, 30, seed=2) for _ in range(3)]  # made, not waiting on the gate
        assert loading.is_alive() and compiled.loaded() == []
    finally:
        gate.set()
    loading.join(600)
    assert compiled.loaded() == ["bfs", "kruskal"]
    compiled_level = mp.generate("kruskal", 40, 30, seed=2)
    assert {digest(level) for level in levels + [compiled_level]} == {digest(first)}


def wait_until_importing():
    """Until the loader thread holds the load lock (its import waits on the gate)."""
    import time

    for _ in range(60_000):
        if _compiled._STATE.lock.locked():
            return
        time.sleep(0.01)
    raise AssertionError("the loader never started importing")


def fork_and_ask(question):
    """Fork; the child answers ``question()`` (a string) through a pipe under a hang guard; (status, answer)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            import signal

            signal.alarm(600)  # a hang guard: the child is killed rather than hang the suite
            os.write(write, question().encode())
        finally:
            os._exit(0)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    with os.fdopen(read) as pipe:
        return status, pipe.read()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_fork_waits_for_the_kernel_being_loaded_and_the_child_has_it_whole(monkeypatch):
    # The loading thread does not survive a fork: the fork waits until the kernel it imports is whole,
    # and the child has it (and loads the rest of the queue itself when asked).
    import threading

    monkeypatch.setenv(compiled.MODE_VARIABLE, "auto")
    fresh_loader(monkeypatch)
    monkeypatch.setattr(_compiled._STATE, "thread", None)
    gate = gate_kernel_imports(monkeypatch)
    try:
        first = mp.generate("wilson", 30, 20, seed=9)  # queues wilson, then bfs: the import waits on the gate
        loading = _compiled._STATE.thread
        assert loading is not None and loading.is_alive() and compiled.loaded() == []
        wait_until_importing()
        threading.Timer(0.3, gate.set).start()  # the import finishes while the fork below waits for it

        def question():
            small = mp.generate("wilson", 30, 20, seed=9)
            return f"{_compiled.forked_mid_load()} {digest(small) == digest(first)} {'wilson' in compiled.loaded()}"

        status, answer = fork_and_ask(question)
    finally:
        gate.set()
    loading.join(600)
    assert (status, answer) == (0, "False True True")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_process_forked_when_the_wait_runs_out_makes_its_levels_plain(monkeypatch):
    # A load longer than FORK_WAIT (a cold-cache compile, say): the fork goes ahead and the child, whose
    # kernel module is half imported and whose locks are held by a thread it does not have, never
    # waits for them (it would hang): it stays plain.
    monkeypatch.setenv(compiled.MODE_VARIABLE, "auto")
    fresh_loader(monkeypatch)
    monkeypatch.setattr(_compiled._STATE, "thread", None)
    monkeypatch.setattr(_compiled, "FORK_WAIT", 0.05)
    gate = gate_kernel_imports(monkeypatch)
    try:
        first = mp.generate("wilson", 30, 20, seed=9)
        loading = _compiled._STATE.thread
        assert loading is not None and loading.is_alive()
        wait_until_importing()

        def question():
            small = mp.generate("wilson", 30, 20, seed=9)
            mp.generate("wilson", 210, 210, seed=9)  # large: elsewhere it would load its kernel and wait
            return f"{_compiled.forked_mid_load()} {digest(small) == digest(first)} {compiled.loaded()}"

        status, answer = fork_and_ask(question)
    finally:
        gate.set()
    loading.join(600)
    assert (status, answer) == (0, "True True []")
    assert not _compiled.forked_mid_load()  # the parent goes on loading


def test_compiling_in_the_callers_thread_says_so_once(monkeypatch):
    monkeypatch.setenv(compiled.MODE_VARIABLE, "1")
    fresh_loader(monkeypatch)
    monkeypatch.setattr(_compiled._STATE, "said", set())
    monkeypatch.setattr(_compiled, "cached", lambda name: False)  # as with an empty cache
    with pytest.warns(compiled.CompileWarning, match="python -m mazeplugin.compiled") as caught:
        level = mp.generate("prim", 12, 9, seed=4, markers="farthest")
    assert len([w for w in caught if issubclass(w.category, compiled.CompileWarning)]) == 1
    fresh_loader(monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once per process, not per kernel
        assert digest(mp.generate("prim", 12, 9, seed=4, markers="farthest")) == digest(level)
    # Silenced like any warning category.
    monkeypatch.setattr(_compiled._STATE, "said", set())
    fresh_loader(monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", compiled.CompileWarning)
        mp.generate("prim", 12, 9, seed=4)


def test_the_cache_check_looks_where_numba_caches(monkeypatch, tmp_path):
    if "NUMBA_CACHE_DIR" not in os.environ:
        compiled.warm_up(["bfs"])
        assert _compiled.cached("bfs")  # beside the kernels, in __pycache__
    # With NUMBA_CACHE_DIR, numba caches only there, in a folder named after the kernels' folder.
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not any(_compiled.cached(name) for name in _compiled.KERNELS)
    import hashlib

    here = os.path.dirname(os.path.abspath(_compiled.__file__))
    folder = tmp_path / f"_compiled_{hashlib.sha1(here.encode()).hexdigest()}"
    folder.mkdir()
    (folder / "bfs.distances-30.py311.nbi").write_bytes(b"")
    assert [name for name in _compiled.KERNELS if _compiled.cached(name)] == ["bfs"]
    with pytest.raises(KeyError):
        _compiled.cached("nosuch")


def test_asking_for_the_compiled_path_without_numba_warns_once_and_runs_plain(monkeypatch):
    monkeypatch.setenv(compiled.MODE_VARIABLE, "1")
    fresh_loader(monkeypatch)
    monkeypatch.setattr(_compiled._STATE, "numba", False)  # as where numba is not installed
    monkeypatch.setattr(_compiled._STATE, "said", set())
    with pytest.warns(RuntimeWarning, match="MAZEPLUGIN_COMPILED=1 asks for the compiled path, but numba is not installed"):
        level = mp.generate("wilson", 12, 9, seed=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = mp.generate("wilson", 12, 9, seed=4)
    assert compiled.loaded() == [] and digest(again) == digest(level)
    with pytest.raises(RuntimeError, match="numba is not installed"):
        compiled.compile_kernels(["bfs"])


def test_python_dash_m_mazeplugin_compiled_builds_the_kernels_it_is_given(capsys):
    assert compiled.main(["bfs", "kruskal"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out[:2]] == ["bfs", "kruskal"]
    assert out[2].startswith("2 kernels ready in ")
    assert {"bfs", "kruskal"} <= set(compiled.loaded())
    assert compiled.main(["kruskall"]) == 2
    assert "unknown kernel 'kruskall'" in capsys.readouterr().err
    with pytest.raises(ValueError, match="unknown kernel 'kruskall'"):
        compiled.compile_kernels(["kruskall"])


def test_python_dash_m_mazeplugin_compiled_runs_as_a_command():
    env = dict(os.environ, PYTHONPATH=ROOT, MAZEPLUGIN_COMPILED="0")
    done = subprocess.run([sys.executable, "-m", "mazeplugin.compiled", "bfs"], env=env,
                          capture_output=True, text=True, timeout=600)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.strip() == ("python -m mazeplugin.compiled: the compiled path cannot run here: "
                                   "MAZEPLUGIN_COMPILED=0 turns it off")
    done = subprocess.run([sys.executable, "-m", "mazeplugin.compiled", "--help"], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "bfs" in done.stdout


def test_background_warm_up_never_makes_a_level_wait(monkeypatch):
    monkeypatch.setenv(compiled.MODE_VARIABLE, "auto")
    fresh_loader(monkeypatch)
    monkeypatch.setattr(_compiled._STATE, "thread", None)
    thread = compiled.warm_up(["backtracker", "wilson"], background=True)
    assert thread is not None
    level = mp.generate("backtracker", 300, 300, seed=3)  # plain or compiled: the same level
    thread.join(timeout=300)
    assert compiled.loaded() == ["backtracker", "wilson"]
    with on_path("0"):
        assert digest(mp.generate("backtracker", 300, 300, seed=3)) == digest(level)


def test_warm_up_names_are_checked():
    with pytest.raises(ValueError, match="unknown kernel 'kruskall'"):
        compiled.warm_up(["kruskall"])


def test_a_kernel_that_fails_to_compile_falls_back_to_plain(monkeypatch):
    fresh_loader(monkeypatch)
    monkeypatch.setattr(_compiled._STATE, "failed", set())

    def broken(name):
        raise RuntimeError("no LLVM today")

    monkeypatch.setattr(_compiled.importlib, "import_module", broken)
    with pytest.warns(RuntimeWarning, match="'kruskal' kernel failed to compile"):
        level = mp.generate("kruskal", 12, 9, seed=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # warned once, not per level
        assert digest(mp.generate("kruskal", 12, 9, seed=4)) == digest(level)
    with on_path("0"):
        assert digest(mp.generate("kruskal", 12, 9, seed=4)) == digest(level)


def test_cache_goes_to_a_user_directory_when_the_package_is_read_only(monkeypatch, tmp_path):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delitem(sys.modules, "numba")  # as before numba is first imported
    monkeypatch.setattr(_compiled.os, "access", lambda path, mode: False)
    _compiled.prepare_numba()
    chosen = os.environ["NUMBA_CACHE_DIR"]
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    if sys.platform.startswith("linux"):
        assert chosen == str(tmp_path / "mazeplugin" / "numba")
    assert chosen == _compiled.user_cache_dir()


def test_a_cache_directory_the_user_chose_is_kept(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.delitem(sys.modules, "numba")
    monkeypatch.setattr(_compiled.os, "access", lambda path, mode: False)
    _compiled.prepare_numba()
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path)


def test_cede_hands_the_gil_to_the_loader_only_while_it_runs_and_only_for_a_while(monkeypatch):
    # A caller's hot loop waiting for a kernel (a single gym env stepping plain) cedes each turn, so that
    # the loader is not held to half the time; never when nothing loads, and not beyond CEDE_SECONDS.
    import threading

    slept = []
    monkeypatch.setattr(_compiled.time, "sleep", slept.append)
    monkeypatch.setattr(_compiled._STATE, "thread", None)
    monkeypatch.setattr(_compiled._STATE, "ceding", None)
    _compiled.cede()
    assert slept == []
    release = threading.Event()
    loader = threading.Thread(target=release.wait, daemon=True)
    loader.start()
    try:
        monkeypatch.setattr(_compiled._STATE, "thread", loader)
        _compiled.cede()
        _compiled.cede()
        assert slept == [0, 0]
        _compiled._STATE.ceding -= _compiled.CEDE_SECONDS + 1  # as if it had ceded for longer than that
        _compiled.cede()
        assert slept == [0, 0]
    finally:
        release.set()
        loader.join()


def test_a_twin_is_bound_once_and_chooses_at_each_pick():
    # Bound at module level (the name checked there), chosen at each pick: MAZEPLUGIN_COMPILED is read then.
    with pytest.raises(ValueError, match="unknown kernel 'bfss'"):
        _compiled.twin("bfss")
    bfs = _compiled.twin("bfs")
    compiled.warm_up(["bfs"])
    with on_path("0"):
        assert bfs.pick(10**6) is None and bfs.ready() is None
    with on_path("1"):
        assert bfs.pick(10) is sys.modules["mazeplugin._compiled.bfs"] is bfs.ready()
    assert repr(bfs) == "twin('bfs')"


def test_the_rooms_check_of_the_ground_kernel_finds_what_the_plain_check_finds():
    # Maze.check's "each room is one piece" runs the ground layer's room-check kernel (not the rooms layer's).
    level = mp.generate("backtracker", 14, 10, seed=5, rooms=3)
    maze = level.maze.copy()
    numbers = [n for n in np.unique(maze.rooms) if n > 0]
    assert numbers
    ys, xs = np.nonzero(maze.rooms == numbers[0])
    maze.east[ys, xs] = False  # the first room cut into columns: not one piece any more
    maze.south[ys, xs] = False
    maze.corners[:] = False  # (an open corner needs its four cells joined round it: closed, none is checked)
    errors = []
    for mode in ("0", "1"):
        with on_path(mode):
            level.maze.check()  # whole: no error on either path
            with pytest.raises(ValueError) as caught:
                maze.check()
            errors.append(str(caught.value))
    assert errors[0] == errors[1] == f"room {numbers[0]}'s cells are not all joined to each other"
    assert "room-check" in compiled.loaded()
