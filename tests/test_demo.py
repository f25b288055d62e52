"""The demo game, driven by posted pygame events under SDL's dummy drivers."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples

import pytest

pygame = pytest.importorskip("pygame")

import mazeplugin as mp  # noqa: E402
from demo.app import MOVE_KEYS, App, build_parser, main  # noqa: E402
from demo.game import GROW, next_seed  # noqa: E402
from demo.levels import harder_level  # noqa: E402

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
    assert game.ahead is not None and game.ahead.ready(game.next_request())  # made in the worker meanwhile
    for _ in range(300):
        app.tick(FRAME)
        if game.level_number == 2:
            break
    assert game.level_number == 2
    assert (game.algorithm, game.width, game.height) == ("backtracker", 6 + GROW[0], 5 + GROW[1])
    # The next seed (4), asked for more difficulty (demo/levels.py): the level keeps its own seed and code.
    assert game.level.tiles.tobytes() == harder_level("backtracker", 8, 6, 4, 2).tiles.tobytes()
    assert game.seed == game.level.seed and game.code.startswith(f"backtracker-8x6-{game.seed}")
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
    from demo.minimap import Minimap

    panel = app.addon(Minimap).side_panel((800, 600 - 34 - 26), app.camera.world_size)
    assert 0 < panel < 800 // 3 and app.camera.view_size[0] == 800 - panel  # the minimap's column is not map
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
        if app.game.completed and app.game.ahead is not None:  # the worker makes the next level meanwhile:
            app.game.ahead.ready(app.game.next_request())  # wait for it (a hang guard), not for frames
    assert app.game.level_number == 3


def test_next_seed():
    assert next_seed(7) == 8
    assert next_seed("castle") == "castle#2"
    assert next_seed("castle#2") == "castle#3"


# -- the command line ---------------------------------------------------------------


def run_demo(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
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


# -- the clock: fair times --------------------------------------------------------


def hold(app: App, key_code: int, frames: int, dt: float = FRAME) -> None:
    key(app, key_code)
    for _ in range(frames):
        app.tick(dt)
    key(app, key_code, down=False)
    app.tick(dt)


def test_the_clock_starts_at_the_first_move_not_when_the_level_loads():
    app = make_app("--code", "kruskal-8x6-3")  # opens east from the entrance
    for _ in range(120):
        app.tick(FRAME)
    assert app.game.elapsed == 0.0 and not app.game.started
    hold(app, pygame.K_RIGHT, 30)
    assert app.game.moves > 0
    assert app.game.elapsed == pytest.approx(31 * FRAME, abs=2 * FRAME)  # the frames since the first move


def test_the_clock_and_the_player_stop_while_a_code_is_typed():
    app = make_app("--code", "kruskal-8x6-3")
    hold(app, pygame.K_RIGHT, 10)
    elapsed, rect = app.game.elapsed, tuple(app.game.rect)
    press(app, pygame.K_RETURN)
    key(app, pygame.K_RIGHT)  # held while typing: no effect
    for _ in range(120):
        app.tick(FRAME)
    assert app.game.elapsed == elapsed and tuple(app.game.rect) == rect
    press(app, pygame.K_ESCAPE)
    hold(app, pygame.K_RIGHT, 10)
    assert app.game.elapsed > elapsed


def test_p_pauses_the_game_and_its_clock():
    app = make_app("--code", "kruskal-8x6-3")
    hold(app, pygame.K_RIGHT, 5)
    elapsed, rect = app.game.elapsed, tuple(app.game.rect)
    press(app, pygame.K_p)
    assert app.paused and "PAUSED" in app.flags()
    hold(app, pygame.K_RIGHT, 60)
    assert app.game.elapsed == elapsed and tuple(app.game.rect) == rect
    assert any(text == "Paused" for text, _ in app.hud.placed)
    press(app, pygame.K_p)
    assert not app.paused
    hold(app, pygame.K_RIGHT, 20)
    assert tuple(app.game.rect) != rect and app.game.elapsed > elapsed


def test_autoplay_times_count_only_from_the_first_step():
    app = make_app("--code", "eller-5x4-9", "--autoplay")
    for _ in range(600):
        app.tick(FRAME)
        if app.game.completed:
            break
    seconds, moves = app.game.last_complete
    # 7.5 tiles a second: the time is the walk, with no load time in it.
    assert seconds == pytest.approx(moves / 7.5, rel=0.15)


# -- fog and the solution --------------------------------------------------------


def test_under_fog_the_solution_overlay_never_draws_an_unseen_tile():
    from demo.view import PALETTE

    app = make_app("--code", "backtracker-30x30-4", "--fog", "--solution", "--tile", "10", "--no-map")
    game = app.game
    hold(app, pygame.K_RIGHT, 8)
    hint = game.hint()
    assert hint and hint[0] == game.player_tile
    assert all(game.seen[y, x] for x, y in hint)
    assert game.level.exit not in hint  # not seen yet on this level
    # Consecutive hint tiles are neighbours on the shortest way to the exit.
    distance = game.level.distances(game.level.exit)
    assert all(distance[y1, x1] == distance[y0, x0] - 1 for (x0, y0), (x1, y1) in zip(hint, hint[1:]))
    # On screen: solution-coloured pixels only over seen tiles.
    app.tick(FRAME)
    pixels = pygame.surfarray.array3d(app.screen).swapaxes(0, 1)
    ys, xs = np.nonzero((pixels == PALETTE.solution).all(axis=2))
    assert len(xs) > 0
    ox, oy = app.camera.offset
    tiles_x, tiles_y = (xs - ox) // app.tile, (ys - 34 - oy) // app.tile
    assert game.seen[tiles_y, tiles_x].all()
    press(app, pygame.K_f)  # fog off: the whole solution, entrance to exit
    pixels = pygame.surfarray.array3d(app.screen).swapaxes(0, 1)
    assert (pixels == PALETTE.solution).all(axis=2).sum() > len(xs)


def test_the_fog_hint_reaches_the_exit_once_it_is_seen():
    app = make_app("--code", "kruskal-3x2-1", "--fog", "--solution")
    game = app.game
    game.seen[:] = True
    assert game.hint() == game.level.solution()


# -- what the player sees -------------------------------------------------------------


@pytest.mark.parametrize("tile", [6, 10, 28, 64])
@pytest.mark.parametrize("fog", [False, True])
def test_at_the_start_the_player_and_the_entrance_ring_both_show(tile, fog):
    from demo.view import PALETTE, PLAYER

    app = make_app("--code", "kruskal-4x4-1", "--tile", str(tile), *(["--fog"] if fog else []))
    app.tick(FRAME)
    pixels = pygame.surfarray.array3d(app.screen).swapaxes(0, 1)
    centre = app.camera.to_screen(app.game.rect.center)
    y, x = centre[1] + 34, centre[0]
    near = pixels[max(0, y - tile) : y + tile, max(0, x - tile) : x + tile]
    assert (near == PLAYER).all(axis=2).sum() > 0
    assert (near == PALETTE.entrance).all(axis=2).sum() >= tile  # a ring, not a speck


WINDOWS = [(320, 240), (400, 300), (520, 400), (640, 480), (960, 720), (1400, 400)]


@pytest.mark.parametrize("size", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_hud_is_readable_at_every_window_size(size):
    app = make_app("--code", "growing-tree-40x30-castle-of-the-long-name", "--fog", "--solution", "--mute")
    app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    screen = app.screen.get_rect()
    states = {
        "plain": lambda: None,
        "toast": lambda: app.game.say("Generator: binary-tree — Binary tree: each cell opens north or east "
                                      "(or toward another bias corner). 25% dead ends, strong diagonal bias. Perfect."),
        "keys": lambda: press(app, pygame.K_SLASH),
        "paused": lambda: (press(app, pygame.K_SLASH), press(app, pygame.K_p)),
        "prompt": lambda: (press(app, pygame.K_p), press(app, pygame.K_RETURN), type_text(app, "kruskal-20x15-" + "7" * 40)),
    }
    for name, setup in states.items():
        setup()
        app.tick(FRAME)
        placed = app.hud.placed
        assert placed, name
        for text, rect in placed:
            assert screen.contains(rect), f"{name}: {text!r} at {rect} is cut off in a {size} window"
        top = [rect for text, rect in placed if rect.bottom <= 34]
        assert all(not a.colliderect(b) for i, a in enumerate(top) for b in top[i + 1 :]), f"{name}: top bar overlaps"
        bottom = [text for text, rect in placed if rect.top >= size[1] - 26]
        assert any("Esc quit" in text and "? keys" in text for text in bottom), f"{name}: key line {bottom}"
    assert any(text.startswith("growing-tree-40x30") for text, _ in app.hud.placed)
    top = " ".join(text for text, rect in app.hud.placed if rect.bottom <= 34)
    assert "L1" in top or "Level 1" in top, top  # the level and its size survive a crowded bar
    assert "81x61" in top, top


@pytest.mark.parametrize("size", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_crowded_top_bar_keeps_the_level_number_and_size_and_moves_flags_below(size):
    from demo.content import LevelContent

    app = make_app("--code", "backtracker-30x20-7+k2t5e3", "--fog", "--solution", "--mute")
    app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    press(app, pygame.K_p)
    app.tick(FRAME)
    assert app.addon(LevelContent) is not None and any(flag.startswith("TREASURE") for flag in app.flags())
    top = [text for text, rect in app.hud.placed if rect.bottom <= 34]
    assert any(t in ("Level 1", "L1") or t.startswith("L1 ") for t in top), top
    assert any("61x41" in t for t in top), top
    if size[0] >= 640:
        assert "Level 1" in top and "61x41 tiles" in top  # room enough: the long words
    if size[0] >= 960:
        shown = " ".join(text for text, _ in app.hud.placed)
        assert sum(flag in shown for flag in app.flags()) >= 4  # in the top bar, or beside the key line


def test_hud_letters_are_evenly_spaced():
    """The cause of "for ks" / "TR EASURE": hinted advances; a word is as wide as its letters' advances, kerned."""
    from demo.view import TextFont

    font = TextFont(17)
    for word in ("forks", "TREASURE", "KEYS"):
        whole = font.size(word)[0]
        parts = font.size(word[:2])[0] + font.size(word[2:])[0]
        assert abs(whole - parts) <= 3, (word, whole, parts)  # no gap opens inside the word


def test_at_520_pixels_the_key_line_keeps_more_than_the_essentials():
    app = make_app("--code", "kruskal-8x6-3")
    app.screen = pygame.display.set_mode((520, 400), pygame.RESIZABLE)
    app.tick(FRAME)
    (line,) = [text for text, rect in app.hud.placed if rect.top >= 400 - 26 and "Esc" in text]
    assert "Esc quit" in line and "R restart" in line and "H path" in line


def test_the_keys_overlay_opens_with_question_mark_and_esc_closes_it_without_quitting():
    app = make_app("--code", "kruskal-8x6-3")
    press(app, pygame.K_SLASH)
    assert app.show_keys
    texts = [text for text, _ in app.hud.placed]
    assert any(text.startswith("Tab") for text in texts) and any(text.startswith("Esc") for text in texts)
    press(app, pygame.K_ESCAPE)
    assert not app.show_keys and app.running
    press(app, pygame.K_ESCAPE)  # in play: the first Esc asks
    assert app.running and app.game.message == "Esc again to quit"
    press(app, pygame.K_ESCAPE)
    assert not app.running


def test_esc_after_a_bad_typed_code_closes_the_message_and_quits_only_when_pressed_twice():
    app = make_app("--code", "kruskal-8x6-3")
    press(app, pygame.K_RETURN)
    type_text(app, "kruskal 20 15")
    press(app, pygame.K_RETURN)  # a bad code: the prompt closes, a message says why
    assert app.prompt is None and "not of the form" in app.game.message
    press(app, pygame.K_ESCAPE)
    assert app.running, "one Esc after a bad code must not quit the game"
    assert app.game.message == "Esc again to quit"
    press(app, pygame.K_RIGHT)  # any other key: the question lapses
    press(app, pygame.K_ESCAPE)
    assert app.running
    for _ in range(int(2.0 * 60) + 1):  # nor does a second Esc long after the first
        app.tick(FRAME)
    press(app, pygame.K_ESCAPE)
    assert app.running
    press(app, pygame.K_ESCAPE)
    assert not app.running


# -- wrapping -----------------------------------------------------------------------

words = st.text(alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyz-.,%—()0123456789"), min_size=1, max_size=30)


@given(message=st.lists(words, min_size=1, max_size=25), width=st.integers(60, 900))
@settings(max_examples=examples(80))
def test_wrapping_keeps_words_whole_and_lines_inside_the_width(message, width):
    from demo.view import wrap

    pygame.font.init()
    font = pygame.font.Font(None, 26)
    text = " ".join(message)
    lines = wrap(text, font, width)
    for line in lines:
        assert line == line.strip() and "  " not in line
        assert font.size(line)[0] <= width or len(line) == 1
    # Words that fit are never split: the lines' words are the message's words.
    if all(font.size(word)[0] <= width for word in message):
        assert " ".join(lines).split(" ") == message
    else:
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_wrapping_breaks_a_long_code_after_its_hyphens():
    from demo.view import wrap

    pygame.font.init()
    font = pygame.font.Font(None, 26)
    lines = wrap("Playing backtracker-250x250-castle", font, font.size("backtracker-250x250-")[0])
    assert lines == ["Playing", "backtracker-250x250-", "castle"]


# -- the minimap and the exit pointer -----------------------------------------------


def test_the_minimap_and_exit_pointer_show_on_big_levels_and_tab_toggles_them():
    from demo.minimap import Minimap

    app = make_app("--code", "backtracker-40x30-2", "--tile", "20")
    minimap = app.addon(Minimap)
    assert minimap is not None and minimap.needed()
    app.tick(FRAME)
    placed = minimap.pointer(app.view_rect())
    assert placed is not None
    (x, y), angle = placed
    assert app.view_rect().collidepoint(x, y)
    # The exit is to the south-east of the player at the start.
    assert 0 < angle < 3.1416 / 2
    map_rect = minimap.map_rect(app.view_rect())
    before = pygame.surfarray.array3d(app.screen.subsurface(map_rect)).copy()
    press(app, pygame.K_TAB)
    assert not minimap.needed()
    after = pygame.surfarray.array3d(app.screen.subsurface(map_rect))
    assert (before != after).any()
    press(app, pygame.K_TAB)
    assert minimap.needed()


def test_no_minimap_when_the_level_fits_and_no_exit_under_fog_until_seen():
    from demo.minimap import Minimap

    small = make_app("--code", "kruskal-4x4-1")
    assert not small.addon(Minimap).needed()
    fogged = make_app("--code", "backtracker-40x30-2", "--tile", "20", "--fog")
    assert fogged.addon(Minimap).needed() and not fogged.addon(Minimap).exit_known()
    hidden = make_app("--code", "backtracker-40x30-2", "--tile", "20", "--no-map")
    assert not hidden.addon(Minimap).needed()


# -- camera ------------------------------------------------------------------------------


def test_the_camera_eases_the_same_way_at_any_frame_rate():
    positions = []
    for fps in (30, 60, 144):
        app = make_app("--code", "kruskal-60x50-3", "--tile", "20")
        app.game.rect.center = (2000, 1500)  # far from where the camera looks
        for _ in range(fps // 2):  # half a second
            app._follow(1 / fps)
        positions.append((app.camera.x, app.camera.y))
    for x, y in positions[1:]:
        assert x == pytest.approx(positions[0][0], abs=1.0) and y == pytest.approx(positions[0][1], abs=1.0)
    assert positions[0] != (0.0, 0.0)


# -- sound ---------------------------------------------------------------------------------


def test_every_effect_is_short_audible_and_free_of_clicks():
    from demo.sound import EFFECTS, RATE

    for name, make in EFFECTS.items():
        samples = make(RATE)
        assert 0.02 <= len(samples) / RATE <= 1.0, name
        assert np.abs(samples).max() <= 1.0, name
        assert np.sqrt(np.mean(samples**2)) > 0.01, name
        assert abs(samples[0]) < 0.01 and abs(samples[-1]) < 0.01, f"{name} starts or ends with a click"
    assert len({make(RATE).tobytes() for make in EFFECTS.values()}) == len(EFFECTS)


def test_effects_fit_any_mixer_format():
    from demo.sound import step, to_mixer_format

    samples = step(22050)
    for size, dtype in ((-16, np.int16), (16, np.uint16), (-8, np.int8), (8, np.uint8), (32, np.float32)):
        for channels in (1, 2):
            data = to_mixer_format(samples, size, channels)
            assert data.dtype == dtype and data.shape[0] == len(samples)
            assert data.ndim == (1 if channels == 1 else 2)
    assert to_mixer_format(samples, 24, 2) is None


def test_walking_plays_steps_and_the_exit_plays_its_tune_and_m_mutes(monkeypatch):
    app = make_app("--code", "backtracker-6x5-3")
    assert app.sounds.enabled  # SDL's dummy audio driver opens: silent, harmless
    played = []
    real_play = app.sounds.play
    monkeypatch.setattr(app.sounds, "play", lambda name: played.append(name) or real_play(name))
    walk_solution(app)
    app.tick(FRAME)
    assert played.count("step") == len(app.game.level.solution()) - 1
    assert played[-1] == "exit"
    press(app, pygame.K_m)
    assert app.sounds.muted and "MUTED" in app.flags() and app.game.message == "Sound off"
    assert real_play("step") is False
    press(app, pygame.K_m)
    assert real_play("step") is True


def test_without_an_audio_device_the_game_is_silent_and_runs(monkeypatch):
    from demo import sound

    def no_device(*args, **kwargs):
        raise pygame.error("no available audio device")

    monkeypatch.setattr(sound.pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(sound.pygame.mixer, "init", no_device)
    app = make_app("--code", "kruskal-8x6-3")
    assert not app.sounds.enabled and "audio device" in app.sounds.error
    hold(app, pygame.K_RIGHT, 20)
    assert app.game.moves > 0 and app.sounds.play("step") is False


# -- extending the demo ------------------------------------------------------------------


def test_an_addon_gets_its_option_keys_updates_and_drawing(monkeypatch):
    from demo import addons, app as app_module

    calls = []

    class Recorder(addons.Addon):
        def __init__(self, app):
            super().__init__(app)
            self.bindings = (addons.Binding((pygame.K_k,), "K", "knock", lambda: calls.append("knock"), short="knock"),)

        @staticmethod
        def add_arguments(parser):
            parser.add_argument("--record", action="store_true")

        @classmethod
        def create(cls, app, options):
            return cls(app) if options.record else None

        def on_level(self):
            calls.append("level")

        def update(self, dt):
            calls.append("update")

        def draw_world(self, surface, offset):
            calls.append("world")

        def draw_overlay(self, surface, view):
            calls.append("overlay")

        def hud_flags(self):
            return ["REC"]

    monkeypatch.setattr(app_module, "addon_classes", lambda: [*addons.addon_classes(), Recorder])
    app = make_app("--code", "kruskal-8x6-3", "--record")
    assert app.addon(Recorder) is not None and "REC" in app.flags()
    assert any("K knock" in line for line in app.help_lines())
    app.tick(FRAME)
    press(app, pygame.K_k)
    press(app, pygame.K_n)
    assert {"level", "update", "world", "overlay", "knock"} <= set(calls)
    assert calls.count("level") == 2  # the first level, and N's
    press(app, pygame.K_p)
    calls.clear()
    app.tick(FRAME)
    assert "update" not in calls and "world" in calls  # paused: drawn, not updated
    assert make_app("--code", "kruskal-8x6-3").addon(Recorder) is None


def test_keys_scripts_take_pygame_key_names():
    done = run_demo("--code", "backtracker-40x30-2", "--keys", "right*10,p,tab,f1,question,m,wait*3", "--frames", "20")
    assert done.returncode == 0, done.stderr
    assert "time 0.17" in done.stdout  # ten frames of walking, then paused


def test_the_minimap_never_covers_the_maze():
    from demo.minimap import Minimap

    for window in ("960x720", "320x240", "1600x400"):
        app = make_app("--code", "backtracker-40x30-2", "--window", window)
        app.tick(FRAME)
        minimap = app.addon(Minimap)
        assert minimap.needed()
        view = app.view_rect()
        rect = minimap.map_rect(view).inflate(6, 6)  # with its frame
        assert not rect.colliderect(view), (window, rect, view)
        assert app.screen.get_rect().contains(rect)
        assert app.camera.view_size == view.size  # the camera scrolls only the maze's part of the window
    press(app, pygame.K_TAB)  # hidden: the maze gets the whole width back
    assert app.view_rect().width == app.screen.get_width()
