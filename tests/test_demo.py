"""The demo game, driven by posted pygame events under SDL's dummy drivers."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc

import pytest

pygame = pytest.importorskip("pygame")

import mazeplugin as mp  # noqa: E402
from demo.app import MOVE_KEYS, App, build_parser, main  # noqa: E402
from demo.game import GROW, next_seed  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEY_FOR = {step: key for key, step in MOVE_KEYS.items() if key in (pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT)}
FRAME = 1 / 60


def make_app(*args: str) -> App:
    app = App(build_parser().parse_args(["--window", "640x480", *args]))
    pygame.event.clear()  # nothing left over from an earlier test
    return app


def key(app: App, key_code: int, *, down: bool = True) -> None:
    kind = pygame.KEYDOWN if down else pygame.KEYUP
    pygame.event.post(pygame.event.Event(kind, key=key_code, mod=0, unicode="", scancode=0))


def press(app: App, key_code: int) -> None:
    key(app, key_code)
    key(app, key_code, down=False)
    app.tick(FRAME)


def type_text(app: App, text: str) -> None:
    for char in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
    app.tick(FRAME)


def tiles_bytes(app: App) -> bytes:
    return app.game.level.tiles.tobytes()


def walk_solution(app: App) -> int:
    """Walk the level's solution with arrow-key events; returns the frames it took."""
    game = app.game
    path = game.level.solution()
    frames = 0
    for here, there in zip(path, path[1:]):
        assert game.player_tile == here
        code = KEY_FOR[(there[0] - here[0], there[1] - here[1])]
        key(app, code)
        for _ in range(60):
            app.tick(FRAME)
            frames += 1
            if game.player_tile != here:
                break
        key(app, code, down=False)
        assert game.player_tile == there, f"stuck at {game.player_tile} on the way from {here} to {there}"
    return frames


def test_walking_the_solution_with_arrow_keys_completes_the_level_and_starts_a_bigger_one():
    app = make_app("--code", "backtracker-6x5-3")
    game = app.game
    assert game.player_tile == game.level.entrance
    walk_solution(app)
    app.tick(FRAME)
    assert game.completed
    assert game.moves == len(game.level.solution()) - 1
    seconds, moves = game.last_complete
    assert moves == game.moves and seconds > 0
    for _ in range(300):
        app.tick(FRAME)
        if game.level_number == 2:
            break
    assert game.level_number == 2
    assert (game.algorithm, game.width, game.height, game.seed) == ("backtracker", 6 + GROW[0], 5 + GROW[1], 4)
    assert game.player_tile == game.level.entrance and game.moves == 0


def test_wasd_moves_like_the_arrows():
    app = make_app("--code", "kruskal-4x4-1")
    start = app.game.player_tile
    key(app, pygame.K_d)
    for _ in range(20):
        app.tick(FRAME)
    assert app.game.player_tile[0] > start[0]


def test_walls_stop_the_player():
    app = make_app("--code", "kruskal-4x4-1")
    game = app.game
    key(app, pygame.K_UP)  # the entrance is in the west wall: up is wall
    for _ in range(30):
        app.tick(FRAME)
    assert game.player_tile == game.level.entrance


def test_r_restarts_with_the_identical_maze():
    app = make_app("--code", "prim-9x7-12")
    before = tiles_bytes(app)
    key(app, pygame.K_RIGHT)
    for _ in range(30):
        app.tick(FRAME)
    assert app.game.moves > 0
    old_level = app.game.level
    press(app, pygame.K_r)
    assert app.game.level is not old_level  # made afresh from the code
    assert tiles_bytes(app) == before
    assert app.game.code == "prim-9x7-12"
    assert app.game.moves == 0 and app.game.player_tile == app.game.level.entrance


def test_a_typed_level_code_reproduces_that_level():
    app = make_app("--code", "kruskal-5x5-1")
    press(app, pygame.K_RETURN)
    assert app.prompt == ""
    type_text(app, "prim-7x5-castel")
    press(app, pygame.K_BACKSPACE)
    press(app, pygame.K_BACKSPACE)
    type_text(app, "le")
    press(app, pygame.K_RETURN)
    assert app.prompt is None
    assert app.game.code == "prim-7x5-castle"
    assert tiles_bytes(app) == mp.generate("prim", 7, 5, seed="castle").tiles.tobytes()


def test_a_bad_typed_code_keeps_the_level_and_says_why():
    app = make_app("--code", "kruskal-5x5-1")
    before = tiles_bytes(app)
    for text in ("not a code", "nosuchmaze-5x5-1", "kruskal-900x5-1"):
        press(app, pygame.K_RETURN)
        type_text(app, text)
        press(app, pygame.K_RETURN)
        assert app.game.code == "kruskal-5x5-1"
        assert tiles_bytes(app) == before
        assert app.game.message_left > 0 and app.game.message
    press(app, pygame.K_RETURN)
    type_text(app, "nosuchmaze-5x5-1")
    press(app, pygame.K_RETURN)
    assert "nosuchmaze" in app.game.message


def test_escape_cancels_typing_without_quitting():
    app = make_app("--code", "kruskal-5x5-1")
    press(app, pygame.K_RETURN)
    type_text(app, "prim")
    press(app, pygame.K_ESCAPE)
    assert app.prompt is None and app.running
    assert app.game.code == "kruskal-5x5-1"


def test_n_g_plus_minus_h_f_keys():
    app = make_app("--code", "kruskal-10x8-5")
    press(app, pygame.K_n)
    assert app.game.seed != 5 and app.game.algorithm == "kruskal"
    names = mp.algorithms()
    press(app, pygame.K_g)
    assert app.game.algorithm == names[(names.index("kruskal") + 1) % len(names)]
    press(app, pygame.K_EQUALS)
    assert (app.game.width, app.game.height) == (12, 10)
    press(app, pygame.K_MINUS)
    press(app, pygame.K_MINUS)
    assert (app.game.width, app.game.height) == (8, 6)
    press(app, pygame.K_h)
    assert app.game.show_solution
    press(app, pygame.K_f)
    assert app.game.fog
    press(app, pygame.K_f)
    press(app, pygame.K_h)
    assert not app.game.fog and not app.game.show_solution


def fog_share(app: App) -> float:
    """The share of the window's pixels in the fog colour."""
    from demo.view import PALETTE

    return float((pygame.surfarray.array3d(app.screen) == PALETTE.fog).all(axis=2).mean())


def test_fog_hides_the_unseen_map_and_reveals_as_the_player_walks():
    app = make_app("--code", "backtracker-30x30-2", "--fog", "--tile", "8")
    game = app.game
    seen_at_start = int(game.seen.sum())
    assert 0 < seen_at_start < game.seen.size
    app.tick(FRAME)
    fogged = fog_share(app)
    assert fogged > 0.5  # most of the window is fog
    press(app, pygame.K_f)
    assert fog_share(app) < fogged - 0.3  # fog off: the map shows (the margins stay dark)
    press(app, pygame.K_f)
    key(app, pygame.K_RIGHT)
    for _ in range(40):
        app.tick(FRAME)
    assert game.seen.sum() > seen_at_start


def test_holding_n_regenerates_every_frame_without_leaking():
    app = make_app("--code", "backtracker-12x9-1")
    key(app, pygame.K_n)
    for _ in range(60):  # past the repeat delay, caches warm
        app.tick(FRAME)
    tracemalloc.start()
    try:
        start_version = app.game.version
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(300):
            app.tick(FRAME)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert app.game.version - start_version == 300  # one new level a frame
    assert grown < 2 * 2**20, f"{grown} bytes more after 300 regenerations"
    key(app, pygame.K_n, down=False)
    app.tick(FRAME)
    version = app.game.version
    app.tick(FRAME)
    assert app.game.version == version  # stops when N is released


def test_big_levels_scroll_and_the_window_resizes():
    app = make_app("--code", "kruskal-60x50-3", "--tile", "20")
    world = app.camera.world_size
    assert world == (121 * 20, 101 * 20)
    assert app.camera.view_rect.topleft == (0, 0)
    key(app, pygame.K_RIGHT)
    for _ in range(120):
        app.tick(FRAME)
    app.screen = pygame.display.set_mode((800, 600), pygame.RESIZABLE)
    app.tick(FRAME)
    assert app.camera.view_size[0] == 800
    assert app.camera.view_rect.collidepoint(app.game.rect.center)


def test_closing_the_window_stops_the_loop():
    app = make_app("--code", "kruskal-5x5-1")
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run(frames=1000)
    assert not app.running and app.frames < 5


def test_autoplay_finishes_levels():
    app = make_app("--code", "eller-5x4-9", "--autoplay")
    for _ in range(1200):
        app.tick(FRAME)
        if app.game.level_number == 3:
            break
    assert app.game.level_number == 3


def test_next_seed():
    assert next_seed(7) == 8
    assert next_seed("castle") == "castle#2"
    assert next_seed("castle#2") == "castle#3"


# -- the command line ---------------------------------------------------------------


def run_demo(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run(
        [sys.executable, "-m", "demo", *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env
    )


def test_frames_and_screenshot_run_headless(tmp_path):
    shot = tmp_path / "shot.png"
    done = run_demo("--seed", "7", "--frames", "30", "--autoplay", "--screenshot", str(shot), "--window", "640x480")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "code backtracker-12x9-7" in done.stdout
    assert pygame.image.load(str(shot)).get_size() == (640, 480)


def test_scripted_keys_drive_a_headless_run(tmp_path):
    shot = tmp_path / "scripted.png"
    done = run_demo(
        "--code", "kruskal-8x6-3", "--keys", "right*40,h,wait*5", "--frames", "60",
        "--screenshot", str(shot), "--window", "640x480",
    )
    assert done.returncode == 0, done.stderr
    # kruskal-8x6-3 opens east from the entrance (0, 1): the corridor runs to x = 5.
    assert "player 5,1 moves 5 frames 60" in done.stdout
    assert shot.exists()


@pytest.mark.parametrize(
    "args",
    [
        ["--bogus"],
        ["--size", "0x5"],
        ["--size", "big"],
        ["--algorithm", "nope"],
        ["--code", "nonsense"],
        ["--code", "kruskal-900x900-1"],
        ["--frames", "-1"],
        ["--window", "10x10"],
        ["--keys", "jump*3"],
        ["--keys", "right*0"],
        ["--seed", "-5"],
        ["--seed", ""],
        ["--code", "kruskal-5x5--5"],
        ["--screenshot", "x.txt"],
        ["--screenshot", "shot"],
    ],
)
def test_bad_options_are_one_line_with_a_hint_and_exit_2(args, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mazeplugin-demo: error: ")
    assert "see 'mazeplugin-demo --help'" in err and "usage:" not in err


def test_a_negative_seed_is_refused_not_read_as_text(capsys):
    with pytest.raises(SystemExit):
        main(["--seed", "-5"])
    assert "not -5" in capsys.readouterr().err


def test_a_typed_code_with_a_negative_seed_is_refused():
    app = make_app("--code", "kruskal-5x5-1")
    press(app, pygame.K_RETURN)
    type_text(app, "kruskal-5x5--5")
    press(app, pygame.K_RETURN)
    assert app.game.code == "kruskal-5x5-1" and "not -5" in app.game.message


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"mazeplugin-demo {mp.__version__}"


@pytest.mark.parametrize("name", ["shot.png", "SHOT.BMP"])
def test_screenshots_are_written_in_the_format_their_extension_names(tmp_path, name):
    shot = tmp_path / name
    assert main(["--code", "kruskal-4x4-1", "--frames", "1", "--window", "400x300", "--screenshot", str(shot)]) == 0
    assert shot.read_bytes().startswith(b"\x89PNG" if name.endswith(".png") else b"BM")
    assert pygame.image.load(str(shot)).get_size() == (400, 300)


def test_an_unknown_generator_in_a_code_is_a_message_not_a_traceback(capsys):
    assert main(["--code", "nosuchmaze-5x5-1", "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert "unknown algorithm 'nosuchmaze'" in err and "Traceback" not in err


def test_an_unwritable_screenshot_path_is_a_message(tmp_path, capsys):
    target = tmp_path / "no" / "such" / "folder" / "shot.png"
    assert main(["--code", "kruskal-4x4-1", "--frames", "1", "--screenshot", str(target)]) == 1
    assert "cannot save the screenshot" in capsys.readouterr().err


def test_bad_options_in_a_real_process_are_one_line():
    done = run_demo("--size", "banana")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--help" in done.stderr and "Traceback" not in done.stderr


def test_main_runs_frames_in_process(tmp_path, capsys):
    shot = tmp_path / "main.png"
    assert main(["--code", "kruskal-6x6-2", "--frames", "5", "--screenshot", str(shot), "--window", "400x300"]) == 0
    assert "code kruskal-6x6-2" in capsys.readouterr().out
    assert shot.exists()
