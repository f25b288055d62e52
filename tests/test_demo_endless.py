"""The demo's endless mode (issue 10): walk a World from its spawn, E switches, headless runs report frame times."""

from __future__ import annotations

import re

import pytest

pygame = pytest.importorskip("pygame")

import mazeplugin as mp  # noqa: E402
import mazeplugin.pg as mpg  # noqa: E402
from demo.app import build_parser, main  # noqa: E402
from demo.endless import Endless  # noqa: E402
from demo.frametimes import FrameTimes  # noqa: E402

FRAME = 1 / 60
STATUS = re.compile(r"frame median (\d+\.\d\d) ms worst (\d+\.\d\d) ms$")


def make(*args: str) -> Endless:
    app = Endless(build_parser().parse_args(["--endless", "--window", "640x480", "--seed", "7", *args]))
    pygame.event.clear()
    return app


def hold(app: Endless, key: int, frames: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    for _ in range(frames):
        app.tick(FRAME)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0))
    app.tick(FRAME)


def under(app: Endless) -> set:
    r = app.player
    x0, y0 = mpg.pixel_to_tile(r.topleft, app.tile)
    x1, y1 = mpg.pixel_to_tile((r.right - 1, r.bottom - 1), app.tile)
    return set(app.world.tiles(x0, y0, x1 + 1, y1 + 1).ravel().tolist())


def test_the_endless_demo_runs_headless_and_its_exit_line_reports_frame_times(capsys):
    assert main(["--endless", "--seed", "7", "--frames", "40", "--keys", "right*10,down*10,left*10", "--window", "480x360"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert line.startswith("endless backtracker seed 7 player ") and " chunk " in line and " frames 40 " in line
    median, worst = (float(v) for v in STATUS.search(line).groups())
    assert 0 < median <= worst


def test_the_player_starts_at_the_spawn_and_never_stands_in_a_wall():
    app = make("--chunk", "6x6", "--tile", "12")
    assert app.player_tile == app.world.spawn
    for key in (pygame.K_RIGHT, pygame.K_DOWN, pygame.K_LEFT, pygame.K_UP, pygame.K_d, pygame.K_s):
        hold(app, key, 25)
        assert under(app) == {mp.FLOOR}


def test_walking_is_the_same_for_the_same_seed_and_keys():
    ends = []
    for _ in range(2):
        app = make("--chunk", "5x5")
        for key in (pygame.K_RIGHT, pygame.K_DOWN, pygame.K_RIGHT, pygame.K_UP):
            hold(app, key, 30)
        ends.append((app.player.x, app.player.y))
    assert ends[0] == ends[1]


def test_walking_onto_treasure_collects_it_once():
    app = make("--chunk", "6x6")
    thing = next(t for t in app.world.chunk_things((0, 0)) if t.kind == "treasure")
    app.player.center = mpg.tile_to_pixel(thing.tile, app.tile)
    app.tick(FRAME)
    app.tick(FRAME)
    assert app.taken == {((0, 0), thing.id)}
    assert "treasure 1" in app.status()


def test_the_camera_follows_into_negative_chunks_without_clamping():
    app = make("--chunk", "3x3", "--tile", "8")
    app.player.center = (-500, -300)
    for _ in range(120):
        app.tick(FRAME)
    assert app.camera.to_screen(app.player.center) == pytest.approx((320, (480 - 34 - 26) / 2), abs=2)
    assert app.world.chunk_of(app.player_tile)[0] < 0


def test_e_switches_from_the_maze_game_to_the_endless_world_and_back(capsys):
    assert main(["--seed", "7", "--frames", "30", "--keys", "wait*5,e,wait*5", "--window", "480x360"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("endless ")
    assert main(["--seed", "7", "--frames", "40", "--keys", "wait*5,e,wait*5,e,wait*5", "--window", "480x360"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert line.startswith("level ") and STATUS.search(line)


def test_a_bad_chunk_is_one_line_and_exit_2(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["--endless", "--chunk", "1x4", "--frames", "1"])
    assert exit.value.code == 2
    assert "chunk" in capsys.readouterr().err


def test_a_generator_that_cannot_make_a_world_is_one_line_and_exit_2(capsys):
    assert main(["--endless", "--algorithm", "union-find", "--frames", "1", "--window", "480x360"]) == 2
    assert "sealed pockets" in capsys.readouterr().err


def test_frame_times_keep_bounded_memory_and_give_the_median_and_worst():
    times = FrameTimes()
    for k in range(1001):
        times.add(k / 1e5)  # 0 to 10 ms
    assert times.median() == pytest.approx(0.005, abs=1e-5)
    assert times.worst == pytest.approx(0.01)
    times.add(5.0)  # a frame longer than the histogram
    assert times.worst == 5.0 and times.median() == pytest.approx(0.005, abs=2e-5)


def test_endless_walls_are_joined_sprites_like_the_maze_game():
    import numpy as np

    app = make()
    assert app.view.wall_set is not None and app.view.floor is not None  # autotiled, not flat colour
    flat = mpg.WorldView(app.world, tile=app.tile, palette=app.view.palette)
    colours = {}
    for name, view in (("sprites", app.view), ("flat", flat)):
        pixels = pygame.surfarray.array3d(view.chunk_surface((0, 0))).reshape(-1, 3)
        colours[name] = len(np.unique(pixels, axis=0))
    assert colours["flat"] <= 3 < colours["sprites"]  # edges and rims where walls meet floor, seams on the floor


def test_f_fogs_the_endless_world_except_what_the_player_has_seen():
    app = make()
    assert not app.fog
    hold(app, pygame.K_f, 1)
    assert app.fog
    app.tick(FRAME)
    x, y = app.world.spawn
    assert app.fogged.is_seen((x, y))
    far = (x + 200, y + 200)
    assert not app.fogged.is_seen(far)
    seen_pixel = app.screen.get_at(app.camera.to_screen(mpg.tile_to_pixel((x, y), app.tile)))
    assert tuple(seen_pixel)[:3] != (22, 25, 34)  # the player's tile is drawn, not fog
    hold(app, pygame.K_RIGHT, 30)
    assert len(app.fogged.seen) >= 1 and sum(int(s.sum()) for s in app.fogged.seen.values()) > 9


def test_question_mark_lists_the_endless_keys_and_esc_closes_it_then_asks_before_quitting():
    app = make()
    hold(app, pygame.K_SLASH, 1)
    assert app.show_keys
    texts = [text for text, _ in app.hud.placed]
    assert any(text.startswith("F") and "fog" in text for text in texts)
    hold(app, pygame.K_ESCAPE, 1)
    assert not app.show_keys and app.running
    hold(app, pygame.K_ESCAPE, 1)
    assert app.running and any("Esc again" in text for text, _ in app.hud.placed)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    app.tick(FRAME)
    assert not app.running
