"""Content on the demo's grid levels (demo/gridcontent.py) and its drawing (mazeplugin.pg.draw_things, cell=):
keys picked up, doors blocking until their key is held, treasure collected, enemies sending the player back."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples

pygame = pytest.importorskip("pygame")

import mazeplugin as mp  # noqa: E402
import mazeplugin.pg as mpg  # noqa: E402
from demo.app import App, build_parser  # noqa: E402
from demo.gridplay import ANGLES, DIRECTIONS, STEPS_PER_SECOND, GridGame, prepare_grid_level  # noqa: E402

FRAME = 1 / 60
KEYPAD = dict(zip(DIRECTIONS, (pygame.K_KP6, pygame.K_KP3, pygame.K_KP2, pygame.K_KP1,
                               pygame.K_KP4, pygame.K_KP7, pygame.K_KP8, pygame.K_KP9)))
CODE = "wilson-hex12x8-7+k2"


def make_app(*args: str) -> App:
    app = App(build_parser().parse_args(["--window", "640x480", *args]))
    pygame.event.clear()
    return app


def post(code: int, *, down: bool = True) -> None:
    kind = pygame.KEYDOWN if down else pygame.KEYUP
    pygame.event.post(pygame.event.Event(kind, key=code, mod=0, unicode="", scancode=0))


def index_to(level: mp.Level, here: int, there: int) -> int:
    steps = mpg.grid_key_steps(level, here, ANGLES)
    assert there in steps, f"no key steps from {here} to {there}"
    return steps.index(there)


def test_walking_the_solution_on_a_hex_level_with_two_keys_picks_them_up_opens_the_doors_and_wins():
    app = make_app("--code", CODE)
    game = app.grid_game
    assert game is not None and game.stuff is not None
    level = game.level
    assert level.things == mp.generate("wilson", 12, 8, grid="hex", seed=7, keys=2).things
    keys = {t.id for t in level.things if t.kind == "key"}
    doors = {t.id for t in level.things if t.kind == "door"}
    assert len(keys) == 2 and len(doors) == 2
    path = level.solution_cells()
    for here, there in zip(path, path[1:]):
        assert game.cell == here
        key = KEYPAD[DIRECTIONS[index_to(level, here, there)]]
        post(key)
        for _ in range(60):
            app.tick(FRAME)
            if game.cell != here or game.completed:
                break
        post(key, down=False)
        assert game.cell == there, f"stuck at {game.cell} on the way from {here} to {there}"
    assert game.completed
    assert game.stuff.held == keys and game.stuff.opened == doors
    assert "KEYS 2/2" in app.flags()
    # The next level is made in the worker meanwhile (demo/ahead.py), as square levels are: wait for it, not frames.
    request = game.next_request()
    assert game.ahead is not None and game.ahead.ready(request)
    for _ in range(200):
        app.tick(FRAME)
        if game.level_number == 2:
            break
    assert game.level_number == 2 and not game.waiting
    expected = prepare_grid_level(request)
    assert game.level.maze.open.tobytes() == expected.maze.open.tobytes() and game.level.things == expected.things
    assert len([t for t in game.level.things if t.kind == "key"]) == 2  # a code's content on every level


def test_a_door_blocks_its_passage_until_its_key_is_held():
    game = GridGame("wilson", 12, 8, 7, ("hex", None), exact=True, content={"keys": 2})
    door = next(t for t in game.level.things if t.kind == "door")
    a, b = door.props["cells"]
    game.cell = a
    direction = index_to(game.level, a, b)
    for _ in range(30):
        game.update(FRAME, direction)
    assert game.cell == a and game.target is None and "Locked" in game.message
    game.stuff.held.add(door.props["key"])
    for _ in range(round(60 / STEPS_PER_SECOND) + 2):
        game.update(FRAME, direction)
    assert game.cell == b and door.id in game.stuff.opened


def test_treasure_is_collected_and_an_enemy_sends_the_player_back():
    game = GridGame("backtracker", 10, 8, 3, ("hex", None), exact=True, content={"treasure": 2, "enemies": 1})
    treasure = next(t for t in game.level.things if t.kind == "treasure")
    enemy = next(t for t in game.level.things if t.kind == "enemy")
    game.events += game.stuff.arrive(game.cell, treasure.cell, game.say)
    assert treasure.id in game.stuff.found
    game.cell = enemy.cell  # standing where the enemy starts: it meets the player at once
    game.update(FRAME, None)
    assert game.cell == game.level.entrance_cell and game.stuff.caught == 1 and treasure.id in game.stuff.found


def test_grid_levels_get_content_by_level_number_unless_no_content():
    app = make_app("--grid", "hex", "--size", "12x9", "--seed", "4")
    game = app.grid_game
    assert game is not None and not game.level.things  # level 1: none, as on square levels
    assert game.ahead is not None and game.ahead.ready(game.next_request())
    game.next_level()
    assert game.level_number == 2 and any(t.kind == "key" for t in game.level.things)
    plain = make_app("--grid", "hex", "--size", "12x9", "--seed", "4", "--no-content").grid_game
    assert plain is not None and plain.ahead is not None and plain.ahead.ready(plain.next_request())
    plain.next_level()
    assert plain.level_number == 2
    assert not plain.level.things


@settings(max_examples=examples(12), deadline=None)
@given(st.sampled_from(["hex", "triangle", "polar"]), st.integers(3, 8), st.integers(3, 7), st.integers(0, 2**31))
def test_render_by_cells_draws_things_and_is_unchanged_without_them(grid: str, width: int, height: int, seed: int):
    level = mp.generate("backtracker", width, height, grid=grid, seed=seed)
    bare = pygame.image.tobytes(mpg.render(level, cell=12), "RGB")
    assert pygame.image.tobytes(mpg.render(level, cell=12, things=True), "RGB") == bare
    furnished = mp.generate("backtracker", width, height, grid=grid, seed=seed, treasure=1)
    picture = mpg.render(furnished, cell=12, things=True)
    treasure = next(t for t in furnished.things if t.kind == "treasure")
    point = mpg.grid_to_pixel(furnished.maze.grid.centre(treasure.cell), 12)
    assert tuple(picture.get_at(point)[:3]) == mpg.THING_COLOURS["treasure"]


def test_a_door_is_drawn_across_its_passage():
    level = mp.generate("wilson", 12, 8, grid="hex", seed=7, keys=1)
    door = next(t for t in level.things if t.kind == "door")
    a, b = (level.maze.grid.centre(c) for c in door.props["cells"])
    middle = mpg.grid_to_pixel(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), 20)
    assert tuple(mpg.render(level, cell=20, things=True).get_at(middle)[:3]) == mpg.THING_COLOURS["door"]
    assert tuple(mpg.render(level, cell=20).get_at(middle)[:3]) != mpg.THING_COLOURS["door"]
