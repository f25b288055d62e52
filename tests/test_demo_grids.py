"""The demo on grid levels (demo/gridplay.py): T cycles the grid, levels are deterministic, a player walks
hex and polar solutions to a win (posted keys and a --script run), square-only keys say so."""

from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")

import mazeplugin as mp  # noqa: E402
import mazeplugin.pg as mpg  # noqa: E402
from demo.app import App, build_parser, main  # noqa: E402
from demo.gridplay import ANGLES, CYCLE, DIRECTIONS, STEPS_PER_SECOND, GridGame, make_grid_level, push  # noqa: E402

FRAME = 1 / 60
KEYPAD = dict(zip(DIRECTIONS, (pygame.K_KP6, pygame.K_KP3, pygame.K_KP2, pygame.K_KP1,
                               pygame.K_KP4, pygame.K_KP7, pygame.K_KP8, pygame.K_KP9)))
KEYPAD_NAMES = dict(zip(DIRECTIONS, ("[6]", "[3]", "[2]", "[1]", "[4]", "[7]", "[8]", "[9]")))
FRAMES_PER_STEP = round(60 / STEPS_PER_SECOND)


def make_app(*args: str) -> App:
    app = App(build_parser().parse_args(["--window", "640x480", *args]))
    pygame.event.clear()
    return app


def post(key_code: int, *, down: bool = True) -> None:
    kind = pygame.KEYDOWN if down else pygame.KEYUP
    pygame.event.post(pygame.event.Event(kind, key=key_code, mod=0, unicode="", scancode=0))


def press(app: App, key_code: int) -> None:
    post(key_code)
    post(key_code, down=False)
    app.tick(FRAME)


def passages(level: mp.Level) -> bytes:
    return level.maze.open.tobytes()


def direction_to(level: mp.Level, here: int, there: int) -> int:
    """The index into DIRECTIONS of a key that steps from ``here`` to ``there`` (one must exist)."""
    steps = mpg.grid_key_steps(level, here, ANGLES)
    assert there in steps, f"no key steps from {here} to {there}: {steps}"
    return steps.index(there)


def test_t_cycles_square_hex_triangle_polar_wrap_and_back_to_the_same_square_level():
    app = make_app("--seed", "5", "--size", "8x6")
    square = app.game.level.tiles.tobytes()
    seen = []
    for _ in range(len(CYCLE)):
        press(app, pygame.K_t)
        grid_game = app.grid_game
        if grid_game is None:
            seen.append(("square", None))
            continue
        level = grid_game.level
        seen.append((level.grid, level.options.get("wrap")))
        assert grid_game.cell == level.entrance_cell and grid_game.moves == 0
        assert passages(level) == passages(make_grid_level(app.game.algorithm, 8, 6, 5, app.grids.topology))
    assert seen == list(CYCLE[1:]) + [CYCLE[0]]
    assert app.grid_game is None and app.game.level.tiles.tobytes() == square  # square exactly as before
    assert app.status().startswith("level 1 code backtracker-8x6-5 player")


def test_a_grid_level_is_the_same_for_the_same_grid_and_seed_and_r_and_n_behave_as_on_squares():
    first = make_app("--grid", "hex", "--seed", "9")
    second = make_app("--grid", "hex", "--seed", "9")
    assert first.grid_game is not None and second.grid_game is not None
    level = first.grid_game.level
    assert passages(level) == passages(second.grid_game.level)
    assert first.grid_game.code == mp.level_code(level) == "backtracker-hex12x9-9"
    press(first, pygame.K_RIGHT)  # walk a little, then R: the same level, the player back at the entrance
    for _ in range(20):
        first.tick(FRAME)
    press(first, pygame.K_r)
    assert passages(first.grid_game.level) == passages(level) and first.grid_game.cell == level.entrance_cell
    assert first.grid_game.moves == 0
    press(first, pygame.K_n)
    assert first.grid_game.seed != 9 and first.grid_game.level.grid == "hex"


def walk(app: App) -> int:
    """Walk the grid level's solution with keypad keys; returns the steps taken."""
    grid_game = app.grid_game
    assert grid_game is not None
    way = grid_game.level.solution_cells()
    assert grid_game.cell == way[0]
    for here, there in zip(way, way[1:]):
        code = KEYPAD[DIRECTIONS[direction_to(grid_game.level, here, there)]]
        post(code)
        for _ in range(4 * FRAMES_PER_STEP):
            app.tick(FRAME)
            if grid_game.cell != here:
                break
        post(code, down=False)
        assert grid_game.cell == there, f"stuck at {grid_game.cell} on the way from {here} to {there}"
    return len(way) - 1


@pytest.mark.parametrize("grid", ["hex", "polar", "triangle", "wrap"])
def test_walking_the_solution_reaches_the_exit_and_wins(grid):
    topology = ("--wrap", "xy") if grid == "wrap" else ("--grid", grid)
    app = make_app(*topology, "--seed", "3", "--size", "8x7")
    grid_game = app.grid_game
    level = grid_game.level
    steps = walk(app)
    assert grid_game.completed and grid_game.moves == steps and grid_game.cell == level.exit_cell
    for _ in range(200):  # the banner, then the next level: made in the worker process, so wait for it (not time)
        if grid_game.ahead is not None:
            grid_game.ahead.ready(grid_game.next_request())
        app.tick(FRAME)
        if grid_game.level_number == 2:
            break
    assert grid_game.level_number == 2 and grid_game.level.grid == level.grid  # the next, larger level
    assert grid_game.level.options.get("wrap") == level.options.get("wrap")
    assert grid_game.level.maze.grid.cells > level.maze.grid.cells and grid_game.cell == grid_game.level.entrance_cell


def test_walls_stop_the_player_on_a_grid_level():
    app = make_app("--grid", "hex", "--seed", "4")
    grid_game = app.grid_game
    here = grid_game.cell
    blocked = [d for d, there in zip(DIRECTIONS, grid_game.steps()) if there == here]
    assert blocked  # the entrance cell sits on the rim: some ways are walls
    for direction in blocked:
        post(KEYPAD[direction])
        for _ in range(2 * FRAMES_PER_STEP):
            app.tick(FRAME)
        post(KEYPAD[direction], down=False)
        app.tick(FRAME)
        assert grid_game.cell == here and grid_game.moves == 0 and grid_game.target is None


@pytest.mark.parametrize("grid", ["hex", "polar"])
def test_a_scripted_run_walks_the_solution_to_a_win(grid, capsys):
    level = make_grid_level("backtracker", 6, 5, 11, (grid, None))
    way = level.solution_cells()
    script = []
    for here, there in zip(way, way[1:]):
        script += [f"{KEYPAD_NAMES[DIRECTIONS[direction_to(level, here, there)]]}*1", f"wait*{FRAMES_PER_STEP}"]
    frames = len(way) * (FRAMES_PER_STEP + 1) + 150  # every step, then the banner and the next level
    args = ["--grid", grid, "--size", "6x5", "--seed", "11", "--frames", str(frames), "--window", "480x360",
            "--script", ",".join(script)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("level 2 code backtracker-" + grid), out  # won level 1, playing level 2


def test_two_arrows_held_push_diagonally():
    assert push([(0, -1), (1, 0)]) == DIRECTIONS.index((1, -1))
    assert push([(0, 1), (-1, 0)]) == DIRECTIONS.index((-1, 1))
    assert push([(1, 0)]) == DIRECTIONS.index((1, 0))
    app = make_app("--grid", "polar", "--seed", "2")
    grid_game = app.grid_game
    target = dict(zip(DIRECTIONS, grid_game.steps()))[(1, -1)]
    post(pygame.K_UP)
    post(pygame.K_RIGHT)
    for _ in range(FRAMES_PER_STEP):
        app.tick(FRAME)
    assert grid_game.cell == target


def test_q_e_a_d_z_c_are_the_six_sides_of_a_hex_cell():
    app = make_app("--grid", "hex", "--seed", "6", "--size", "6x5")
    grid_game = app.grid_game
    grid = grid_game.level.maze.grid
    sides = {pygame.K_e: 0, pygame.K_d: 1, pygame.K_c: 2, pygame.K_z: 3, pygame.K_a: 4, pygame.K_q: 5}  # HEX_DIRECTIONS
    tried = 0
    for _ in range(60):  # wander: at each cell, take the first open side by its letter
        here = grid_game.cell
        for key_code, side in sides.items():
            there = grid.step(here, side)
            if there >= 0 and there in grid_game.level.maze.linked(here):
                post(key_code)
                for _ in range(FRAMES_PER_STEP):
                    app.tick(FRAME)
                post(key_code, down=False)
                app.tick(FRAME)
                assert grid_game.cell == there and app.switch_to is None  # E steps north-east, not to the endless world
                tried += 1
                break
        if grid_game.completed:
            break
    assert tried >= 10


def test_stepping_off_a_wrapping_edge_arrives_on_the_other():
    for seed in range(30):
        app = make_app("--wrap", "x", "--seed", str(seed), "--size", "6x4")
        grid_game = app.grid_game
        grid = grid_game.level.maze.grid
        entrance = grid_game.cell
        x, y = grid.xy(entrance)
        west = dict(zip(DIRECTIONS, grid_game.steps()))[(-1, 0)]
        if x == 0 and west != entrance:
            post(pygame.K_LEFT)
            for _ in range(FRAMES_PER_STEP):
                app.tick(FRAME)
            post(pygame.K_LEFT, down=False)
            assert grid.xy(grid_game.cell) == (grid.width - 1, y)
            return
    pytest.fail("no wrap passage west of an entrance in 30 seeds")


@pytest.mark.parametrize("key_code", [pygame.K_f, pygame.K_TAB])
def test_square_only_keys_say_so_on_a_grid_level(key_code):
    app = make_app("--grid", "triangle", "--seed", "1")
    press(app, key_code)
    assert app.running and app.switch_to is None and app.prompt is None and not app.game.fog
    assert "square levels" in app.grid_game.message and app.grid_game.message_left > 0


def type_code(app: App, text: str) -> None:
    press(app, pygame.K_RETURN)
    for char in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
    app.tick(FRAME)
    press(app, pygame.K_RETURN)


def test_a_grid_level_code_plays_exactly_its_level_from_the_command_line_and_typed():
    app = make_app("--code", "wilson-hex8x6-7")
    assert app.grid_game is not None and app.grid_game.code == "wilson-hex8x6-7"
    assert passages(app.grid_game.level) == passages(mp.generate("wilson", 8, 6, grid="hex", seed=7))
    type_code(app, "kruskal-polar3x4-11")  # another grid's code, typed on a grid level
    assert app.grid_game.code == "kruskal-polar3x4-11" and app.grids.topology == ("polar", None)
    assert passages(app.grid_game.level) == passages(mp.generate("kruskal", 3, 4, grid="polar", seed=11))
    type_code(app, "prim-7x5-2")  # a square code: back to the square game, playing it
    assert app.grid_game is None and app.game.code == "prim-7x5-2"
    assert app.game.level.tiles.tobytes() == mp.generate("prim", 7, 5, seed=2).tiles.tobytes()
    type_code(app, "backtracker-triangle9x4-1")  # and from the square game onto a grid again
    assert app.grid_game is not None and app.grid_game.level.grid == "triangle"
    type_code(app, "sidewinder-hex5x5-1")  # a generator that takes no hex grid: a message, the level stays
    assert app.grid_game.level.grid == "triangle" and "sidewinder" in app.grid_game.message


def test_the_help_names_the_grid_key_and_grid_options_are_checked(capsys):
    app = make_app("--grid", "polar")
    assert any("T grid" in line for line in app.help_lines())
    assert any(b.label == "T" for b in app.bindings())
    press(app, pygame.K_SLASH)  # the ? overlay names the grid levels' diagonal keys
    assert app.show_keys and any("Q E Z C" in text for text, _ in app.hud.placed)
    assert "T grid" in build_parser().epilog
    assert main(["--grid", "hex", "--wrap", "x", "--frames", "1"]) == 2
    assert "--wrap is for square levels" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--grid", "octagon"])
    assert "invalid choice" in capsys.readouterr().err


def test_the_grid_game_alone_is_deterministic():
    a = GridGame("kruskal", 7, 5, "castle", ("triangle", None))
    b = GridGame("kruskal", 7, 5, "castle", ("triangle", None))
    assert passages(a.level) == passages(b.level) and a.code == b.code == "kruskal-triangle14x5-castle"
    a.cycle_algorithm()
    assert a.algorithm != "kruskal" and a.level.grid == "triangle"
