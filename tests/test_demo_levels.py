"""The demo's level files (--level) and levels that ask for more difficulty as the number grows (demo/levels.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pygame = pytest.importorskip("pygame")

import mazeplugin as mp  # noqa: E402
from demo import levels  # noqa: E402
from demo.app import App, build_parser  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRAME = 1 / 60


def make_app(*args: str) -> App:
    app = App(build_parser().parse_args(["--window", "640x480", *args]))
    pygame.event.clear()
    return app


def run_demo(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run([sys.executable, "-m", "demo", *args], capture_output=True, text=True, timeout=600,
                          cwd=ROOT, env=env)


def finish(app: App, frames: int = 3000) -> None:
    number = app.game.level_number
    for _ in range(frames):
        app.tick(FRAME)
        if app.game.level_number > number:
            return
        if app.game.completed and app.game.ahead is not None:
            app.game.ahead.ready(app.game.next_request())  # the worker process makes it meanwhile
    raise AssertionError("the level was not finished")


@pytest.fixture
def level_files(tmp_path):
    level = mp.generate("kruskal", 9, 7, seed=5, markers="farthest")
    edited = level.tiles.copy()
    level.save(tmp_path / "level.tmx")
    level.save(tmp_path / "level.tmj")
    level.save(tmp_path / "level.json")
    level.save(tmp_path / "level.npy")
    return level, edited, tmp_path


@pytest.mark.parametrize("name", ["level.tmx", "level.tmj", "level.json", "level.npy"])
def test_level_file_is_played_and_finished(level_files, name):
    level, _, folder = level_files
    app = make_app("--level", str(folder / name), "--autoplay")
    game = app.game
    assert game.level.tiles.tobytes() == level.tiles.tobytes()
    assert (game.level.entrance, game.level.exit) == (level.entrance, level.exit)
    assert game.code == name and game.player_tile == level.entrance
    finish(app)
    # After the file: its generator (when it names one), a little larger, from its seed.
    assert game.level_number == 2 and game.level_file is None
    expected = "kruskal" if name != "level.npy" else "backtracker"
    assert game.algorithm == expected and (game.width, game.height) == (11, 8)


def test_r_restarts_the_files_level_not_a_generated_one(level_files):
    level, _, folder = level_files
    app = make_app("--level", str(folder / "level.tmx"))
    app.game.player_tile = (3, 3)
    app.game.regenerate()
    assert app.game.level is not None and app.game.level.tiles.tobytes() == level.tiles.tobytes()
    assert app.game.player_tile == level.entrance and app.game.level_file == str(folder / "level.tmx")


def test_a_map_edited_in_tiled_plays(tmp_path):
    """A designer's edit: a wall opened into a loop, saved as base64-zlib by Tiled's rules."""
    import base64
    import zlib

    level = mp.generate("backtracker", 8, 6, seed=2)
    tiles = level.tiles.astype("<u4") + 1
    y, x = next((y, x) for y in range(1, tiles.shape[0] - 1, 2) for x in range(2, tiles.shape[1] - 1, 2)
                if tiles[y, x] == 2)
    tiles[y, x] = 1
    level.save(tmp_path / "edited.tmx")
    text = (tmp_path / "edited.tmx").read_text()
    start, end = text.index('<data encoding="csv">'), text.index("</data>") + len("</data>")
    data = base64.b64encode(zlib.compress(tiles.tobytes())).decode()
    (tmp_path / "edited.tmx").write_text(text[:start] + f'<data encoding="base64" compression="zlib">{data}</data>'
                                         + text[end:])
    app = make_app("--level", str(tmp_path / "edited.tmx"), "--autoplay")
    assert app.game.level.stats().loops == 1
    finish(app)


@pytest.mark.parametrize("make, words", [
    (lambda d: (d / "bad.tmx").write_text("<map"), ["bad.tmx", "truncated"]),
    (lambda d: (d / "bad.tmj").write_text('{"type": "map"'), ["bad.tmj", "truncated"]),
    (lambda d: (d / "bad.json").write_text("{}"), ["bad.json", "not a mazeplugin level"]),
    (lambda d: (d / "bad.npy").write_bytes(b"\x93NUMPY garbage"), ["bad.npy"]),
    (lambda d: (d / "bad.png").write_bytes(b""), ["cannot play a .png file", ".tmx, .tmj, .json, .npy"]),
    (lambda d: None, ["missing.tmx", "No such file"]),
    (lambda d: mp.generate("kruskal", 4, 4, seed=1, markers="none").save(d / "nomarkers.tmx"),
     ["nomarkers.tmx", "no entrance and exit"]),
])
def test_bad_level_file_is_one_line_and_exit_2(tmp_path, capsys, make, words):
    # The demo's main() in this process (test_a_bad_level_file_in_a_real_process_prints_that_line_alone
    # runs one case as a command: nothing else reaches the terminal there either).
    from demo.app import main

    make(tmp_path)
    names = {"bad.tmx", "bad.tmj", "bad.json", "bad.npy", "bad.png", "nomarkers.tmx"}
    found = [p.name for p in tmp_path.iterdir() if p.name in names]
    path = tmp_path / (found[0] if found else "missing.tmx")
    try:
        status = main(["--level", str(path), "--frames", "5"])
    except SystemExit as exit:  # the option's own check (argparse) ends the run this way
        status = exit.code
    assert status == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0]


def test_a_bad_level_file_in_a_real_process_prints_that_line_alone(tmp_path):
    (tmp_path / "bad.tmx").write_text("<map")
    result = run_demo("--level", str(tmp_path / "bad.tmx"), "--frames", "5")
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "bad.tmx" in lines[0] and "truncated" in lines[0], result.stderr


def test_level_file_runs_headless_in_a_real_process(level_files):
    _, _, folder = level_files
    result = run_demo("--level", str(folder / "level.tmj"), "--frames", "30", "--autoplay")
    assert result.returncode == 0, result.stderr
    assert "code level.tmj" in result.stdout


# -- difficulty grows with the level number ------------------------------------------------


def test_challenge_climbs_with_the_level_number():
    samples = levels.calibrate("backtracker", 14, 10)
    asks = [levels.challenge(n, samples) for n in range(2, 16)]
    decisions = [ask["decision_points"][0] for ask in asks]
    detours = [ask["detour_ratio"][0] for ask in asks]
    assert decisions == sorted(decisions) and decisions[-1] > decisions[0]
    assert detours == sorted(detours) and detours[-1] > detours[0]
    assert levels.challenge(1, samples) == {}


@pytest.mark.parametrize("algorithm", ["backtracker", "wilson", "prim-simplified", "rooms"])
def test_later_levels_meet_harder_asks_than_plain_levels_of_their_seed(algorithm):
    """Level n asks require= for more forks and detour than most levels of its generator and size."""
    harder = plain = 0
    for number, (width, height) in zip(range(6, 12), [(16, 11), (18, 12), (20, 13), (22, 14), (24, 15), (26, 16)]):
        level = levels.harder_level(algorithm, width, height, number, number)
        ask = levels.challenge(number, levels.calibrate(algorithm, width, height))
        s = level.stats()
        if s.decision_points >= ask["decision_points"][0] and s.detour_ratio >= ask["detour_ratio"][0]:
            harder += 1
        plain_stats = mp.generate(algorithm, width, height, seed=number).stats()
        plain += s.decision_points >= plain_stats.decision_points
        # The level keeps its own seed: its code makes it again, without require.
        assert mp.generate(algorithm, width, height, seed=level.seed).tiles.tobytes() == level.tiles.tobytes()
    assert harder >= 5 and plain >= 4


def test_next_levels_are_asked_for_more_and_steady_turns_it_off():
    app = make_app("--code", "wilson-8x6-3", "--autoplay")
    finish(app)
    finish(app)
    game = app.game
    assert game.level_number == 3
    assert game.level.tiles.tobytes() == levels.harder_level("wilson", 12, 8, game.seed, 1).tiles.tobytes()
    ask = levels.challenge(3, levels.calibrate("wilson", 12, 8))
    stats = game.level.stats()
    met = stats.decision_points >= ask["decision_points"][0] and stats.detour_ratio >= ask["detour_ratio"][0]
    halved = levels.relaxed(ask)[1]
    assert met or (stats.decision_points >= halved["decision_points"][0])
    assert any(flag.endswith("forks") for addon in app.addons for flag in addon.hud_flags())
    steady = make_app("--code", "wilson-8x6-3", "--autoplay", "--steady")
    finish(steady)
    assert steady.game.seed == 4  # the plain next seed


def test_r_on_a_harder_level_is_the_identical_maze():
    app = make_app("--code", "backtracker-8x6-1", "--autoplay")
    finish(app)
    before = app.game.level.tiles.tobytes()
    app.game.regenerate()
    assert app.game.level.tiles.tobytes() == before and app.game.level_number == 2


def test_relaxing_an_impossible_ask_still_gives_a_level(monkeypatch):
    monkeypatch.setattr(levels, "challenge", lambda number, samples: {"decision_points": (10**6, None)})
    level = levels.harder_level("kruskal", 6, 5, 9, 4)
    assert level.tiles.tobytes() == mp.generate("kruskal", 6, 5, seed=9).tiles.tobytes()


def test_the_next_level_is_made_off_the_frame_loop_and_is_the_level_its_code_names(monkeypatch):
    import demo.game

    app = make_app("--code", "backtracker-10x8-5", "--autoplay")
    request = app.game.next_request()
    made_here = []
    real = demo.game.numbered_level
    monkeypatch.setattr(demo.game, "numbered_level", lambda *a, **k: made_here.append(a) or real(*a, **k))
    monkeypatch.setattr(mp, "generate", lambda *a, **k: made_here.append(a) or pytest.fail("generate on the frame loop"))
    finish(app)
    assert app.game.level_number == 2 and made_here == []  # the worker process made it, with its solution
    assert app.game.forks is not None and app.game.path == app.game.level.solution()
    monkeypatch.undo()
    # The same level as making it here, on the frame loop, would give; and its code replays it exactly.
    game = app.game
    here = demo.game.numbered_level(*request)
    assert here.tiles.tobytes() == game.level.tiles.tobytes() and here.things == game.level.things
    assert mp.level_from_code(game.code).tiles.tobytes() == game.level.tiles.tobytes()


def test_while_the_next_level_is_being_made_frames_go_on():
    class NeverReady:
        """A worker that never delivers: stands for a level that takes long to make."""

        def want(self, request):
            pass

        def take(self, request):
            return None

    app = make_app("--code", "backtracker-10x8-5", "--autoplay")
    game = app.game
    game.ahead = NeverReady()
    for _ in range(3000):
        app.tick(FRAME)
        if game.waiting:
            break
    assert game.completed and game.waiting and game.level_number == 1
    frames = app.frames
    for _ in range(30):
        app.tick(FRAME)
    assert app.frames == frames + 30 and game.waiting  # drawn and counted, the banner still up
    assert any("making the next level" in text for text, _ in app.hud.placed)


def test_counted_frames_wait_for_the_next_level_so_a_scripted_run_is_the_same_every_time():
    """In a run of ``--frames N`` (frames counted, not timed) the next level is taken as soon as it is
    asked for: the frame waits for the worker instead of showing the banner, so where a script's keys
    land does not depend on how loaded the machine is. Played live, ``take`` never waits."""
    import demo.game
    from demo import ahead

    app = make_app("--code", "backtracker-10x8-5")
    game = app.game
    request = game.next_request()
    ahead.count_frames(True)
    try:
        made = game.ahead.take(request)  # asked for the first time: the worker has only just been sent it
    finally:
        ahead.count_frames(False)
    assert made is not None and made[0]
    level, _, _ = made[1]  # (level, its solution, its decision points)
    assert level.tiles.tobytes() == demo.game.numbered_level(*request).tiles.tobytes()


# -- grid level files: a hex Tiled map, a polar or wrapping level's JSON ---------------------------------


def finish_grid(app: App, frames: int = 4000) -> None:
    grid_game = app.grid_game
    assert grid_game is not None
    number = grid_game.level_number
    for _ in range(frames):
        app.tick(FRAME)
        if grid_game.level_number > number:
            return
        if grid_game.completed and grid_game.ahead is not None:
            grid_game.ahead.ready(grid_game.next_request())
    raise AssertionError("the grid level was not finished")


@pytest.mark.parametrize("name, make", [
    ("hex.tmx", lambda: mp.generate("wilson", 8, 6, seed=5, grid="hex", keys=1)),
    ("hex.tmj", lambda: mp.generate("kruskal", 7, 5, seed=2, grid="hex")),
    ("polar.json", lambda: mp.generate("backtracker", 6, 4, seed=9, grid="polar")),
    ("wrap.json", lambda: mp.generate("prim", 7, 6, seed=4, wrap="xy")),
])
def test_a_grid_level_file_is_played_on_its_grid_and_then_the_game_goes_on_there(tmp_path, name, make):
    level = make()
    path = tmp_path / name
    level.save(path)
    app = make_app("--level", str(path), "--autoplay")
    grid_game = app.grid_game
    assert grid_game is not None and grid_game.level_file == str(path) and grid_game.code == name
    assert grid_game.level.maze.open.tobytes() == level.maze.open.tobytes()
    assert (grid_game.level.entrance, grid_game.level.exit) == (level.entrance, level.exit)
    assert [t.as_list() for t in grid_game.level.things] == [t.as_list() for t in level.things]
    assert app.grids.topology == (level.grid, level.options.get("wrap"))
    grid_game.cell = grid_game.level.exit_cell  # R: the file's level again, from its entrance
    grid_game.regenerate()
    assert grid_game.cell == level.entrance_cell and grid_game.level.maze.open.tobytes() == level.maze.open.tobytes()
    finish_grid(app)
    # Next: a generated level on the same grid, from the file's generator and seed, a little larger.
    assert grid_game.level_file is None and grid_game.level.grid == level.grid
    assert grid_game.level.options.get("wrap") == level.options.get("wrap")
    assert grid_game.algorithm == level.algorithm and grid_game.width == level.width + 2
    assert grid_game.furnished  # content by level number on the levels after the file, as on square levels


def test_a_grid_level_file_too_large_to_draw_or_not_a_level_is_one_line(tmp_path):
    mp.generate("wilson", 61, 4, seed=1, grid="hex").save(tmp_path / "wide.tmx")
    result = run_demo("--level", str(tmp_path / "wide.tmx"), "--frames", "5")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "61x4" in result.stderr and "at most 60 cells a side" in result.stderr
    (tmp_path / "deep.json").write_text("[" * 100_000)  # nesting too deep for Python's JSON reader
    result = run_demo("--level", str(tmp_path / "deep.json"), "--frames", "5")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "deep.json" in result.stderr and "nested too deep" in result.stderr
