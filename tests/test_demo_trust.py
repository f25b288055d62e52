"""The demo keeps what the player chose (issue 34, item 16): the solution toggle on a grid level typed as a code,
and the endless world E returns to when no --seed was given."""

from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")

from demo.app import App, build_parser, make_mode  # noqa: E402

FRAME = 1 / 60


def press(app: App, key: int) -> None:
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))
    app.tick(FRAME)


def type_code(app: App, code: str) -> None:
    press(app, pygame.K_RETURN)
    for char in code:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
    app.tick(FRAME)
    press(app, pygame.K_RETURN)


def test_the_solution_stays_shown_on_a_hex_level_typed_as_a_code():
    app = App(build_parser().parse_args(["--window", "640x480", "--seed", "3", "--solution"]))
    pygame.event.clear()
    assert app.game.show_solution
    type_code(app, "wilson-hex8x6-7")  # from the square game onto a grid
    assert app.grid_game is not None and app.grid_game.code == "wilson-hex8x6-7" and app.grid_game.show_solution
    type_code(app, "kruskal-polar3x4-11")  # and from one grid level to another
    assert app.grid_game.code == "kruskal-polar3x4-11" and app.grid_game.show_solution
    press(app, pygame.K_h)  # H hides it, and the next code keeps it hidden
    type_code(app, "wilson-hex8x6-7")
    assert app.grid_game.code == "wilson-hex8x6-7" and not app.grid_game.show_solution
    coded = App(build_parser().parse_args(["--window", "640x480", "--code", "wilson-hex8x6-7", "--solution"]))
    assert coded.grid_game is not None and coded.grid_game.show_solution  # --code with --solution


def test_e_back_to_the_endless_world_without_a_seed_finds_the_same_world():
    make = make_mode(build_parser().parse_args(["--window", "480x360", "--endless"]))
    first = make("endless")
    make("maze")
    again = make("endless")
    assert again.world.seed == first.world.seed
    other = make_mode(build_parser().parse_args(["--window", "480x360", "--endless"]))("endless")
    assert other.world.seed != first.world.seed  # a new run without --seed: a fresh world, as before
