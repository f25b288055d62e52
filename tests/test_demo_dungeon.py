"""The demo plays dungeons (``--dungeon PATTERN``, demo/levels.py and demo.rules.DungeonMaker), headless (SDL's
dummy drivers): the level is a dungeon with its keys and doors, autoplay finishes it, the next level is a larger
dungeon of the same pattern made in the worker, and R makes the same dungeon again."""

from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")

import mazeplugin as mp  # noqa: E402
from demo.rules import DungeonMaker, dungeon_size  # noqa: E402

import mazeplugin.pg as mpg  # noqa: E402
from test_demo_levels import FRAME, finish, make_app, run_demo  # noqa: E402


def test_the_demo_plays_a_dungeon_to_its_exit_and_the_next_level_is_one_too():
    app = make_app("--dungeon", "lock-and-key", "--seed", "4", "--autoplay")
    game = app.game
    first = game.level
    assert first.algorithm == "dungeon" and game.code == "dungeon-lock-and-key-24x24-4+r8k1"  # the real level code
    assert first.tiles.tobytes() == mp.level_from_code(game.code).tiles.tobytes()
    assert sorted(t.kind for t in first.things) == ["door", "key"]
    finish(app)  # autoplay walks the key-aware solution: the door opens with its key
    assert game.level_number == 2 and game.level.algorithm == "dungeon" and game.code.startswith("dungeon-lock-and-key-")
    assert mp.level_from_code(game.code).tiles.tobytes() == game.level.tiles.tobytes()
    rooms, locks = dungeon_size("lock-and-key", 2)
    assert len(game.level.options["mission"]["nodes"]) == rooms and [t.kind for t in game.level.things].count("door") == locks
    made = game.level
    game.regenerate()
    assert game.level.tiles.tobytes() == made.tiles.tobytes() and game.level.things == made.things


def test_dungeon_makers_are_values_the_worker_can_be_asked_for_again():
    assert DungeonMaker("valve") == DungeonMaker("valve") != DungeonMaker("gauntlet")
    import pickle

    assert pickle.loads(pickle.dumps(DungeonMaker("valve"))) == DungeonMaker("valve")


def test_a_wrong_pattern_is_one_line_and_status_2():
    done = run_demo("--dungeon", "maze")
    assert done.returncode == 2 and "--dungeon" in done.stderr and "lock-and-key" in done.stderr


CODE = "dungeon-lock-and-key-40x40-7+r20k4"


def same_level(level, code):
    made = mp.level_from_code(code)
    return level.tiles.tobytes() == made.tiles.tobytes() and level.things == made.things


def test_a_dungeon_code_on_the_command_line_plays_exactly_that_level_and_r_replays_it():
    app = make_app("--code", CODE)
    game = app.game
    assert game.code == CODE and same_level(game.level, CODE)
    assert game.dungeon == "lock-and-key"  # the next levels are dungeons of its pattern
    rooms, locks = dungeon_size("lock-and-key", game.level_number)
    assert (rooms, locks) != (20, 4)  # so R replaying by the level's number would make another dungeon
    game.regenerate()
    assert game.code == CODE and same_level(game.level, CODE)
    assert game.next_request()[5] == DungeonMaker("lock-and-key")


def test_the_code_box_takes_dungeon_codes_and_a_maze_code_leaves_dungeons():
    app = make_app("--dungeon", "valve", "--seed", "3")
    game = app.game
    assert game.enter_code(CODE) and game.code == CODE and same_level(game.level, CODE)
    game.regenerate()
    assert game.code == CODE and same_level(game.level, CODE)
    assert not game.enter_code("dungeon-lock-and-key-6x6-7+r20k4")  # twenty rooms do not fit: one line, level kept
    assert "width=" in game.message and game.code == CODE and game.dungeon == "lock-and-key"
    assert not game.enter_code("dungeon-maze-40x40-7")
    assert "not a dungeon pattern" in game.message and game.code == CODE
    assert game.enter_code("kruskal-12x9-5") and game.dungeon is None
    assert game.level.tiles.tobytes() == mp.level_from_code("kruskal-12x9-5").tiles.tobytes()


def test_dungeon_and_a_dungeon_code_together_play_the_code():
    game = make_app("--dungeon", "gauntlet", "--code", CODE).game
    assert game.code == CODE and same_level(game.level, CODE) and game.dungeon == "gauntlet"


@pytest.mark.parametrize("start", [["--code", "kruskal-5x5-1"], ["--grid", "hex", "--size", "8x6"]])
def test_a_dungeon_code_typed_in_the_code_box_plays_that_dungeon(start):
    from test_demo import press, type_text

    app = make_app(*start)
    press(app, pygame.K_RETURN)
    type_text(app, CODE)
    press(app, pygame.K_RETURN)
    assert app.grid_game is None and app.game.code == CODE and same_level(app.game.level, CODE)
    press(app, pygame.K_r)
    assert app.game.code == CODE and same_level(app.game.level, CODE)


def test_a_wrong_dungeon_code_on_the_command_line_is_one_line_and_status_2():
    done = run_demo("--code", "dungeon-maze-40x40-7", "--levels", "1")
    assert done.returncode == 2 and "not a dungeon pattern" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


# -- the minimap shows a dungeon's rooms as they are found; G, + and - make dungeons -----------------------------


def entered(mission, tile):
    """The room whose rectangle (walls included) holds ``tile``, found here from the rectangles themselves."""
    x, y = tile
    inside = [room.id for room in mission.nodes
              if room.x <= x < room.x + room.width and room.y <= y < room.y + room.height]
    assert len(inside) <= 1
    return inside[0] if inside else None


def test_the_minimap_shows_each_room_from_the_first_step_into_it_and_forgets_them_on_restart():
    from demo.minimap import Minimap

    app = make_app("--dungeon", "lock-and-key", "--seed", "4", "--autoplay")
    game, minimap = app.game, app.addon(Minimap)
    mission, level = game.level.mission, game.level
    visited = set()
    for _ in range(3000):
        app.tick(1 / 60)
        if game.level is not level:
            break
        room = entered(mission, game.player_tile)
        if room is not None:
            visited.add(room)
        assert minimap.rooms_found() == visited  # a room appears at the first step into it, not before
        shown = minimap.rooms_shown()
        for node in mission.nodes:  # its rectangle shows exactly when it was found
            assert shown[node.y:node.y + node.height, node.x:node.x + node.width].all() == (node.id in visited)
        for edge in mission.edges:  # a corridor shows once both its rooms have
            if edge.tiles and {edge.edge.a, edge.edge.b} <= visited:
                assert all(shown[y, x] for x, y in edge.tiles)
        if game.completed:
            break
    assert {"start", "goal"} <= visited < {node.id for node in mission.nodes}  # the walk leaves some rooms out
    import mazeplugin.pg as mpg
    from demo.view import PALETTE

    rows, columns = level.tiles.shape  # the picture at one pixel a tile: the level's colours where shown, else fog
    drawn = pygame.surfarray.array3d(minimap._picture((columns, rows))).swapaxes(0, 1)
    assert (drawn == mpg.tile_colours(level, palette=PALETTE, seen=shown)).all()
    assert (drawn != mpg.tile_colours(level, palette=PALETTE)).any()
    game.restart()
    app.tick(1 / 60)
    assert minimap.rooms_found() == {"start"}


def test_the_minimap_of_a_maze_shows_the_level_as_before():
    from demo.minimap import Minimap

    app = make_app("--seed", "4")
    app.tick(1 / 60)
    assert app.addon(Minimap).rooms_shown() is None and app.addon(Minimap).rooms_found() == set()


def test_g_plus_and_minus_make_dungeons_of_this_seed_and_say_which():
    from demo.rules import DungeonMaker, dungeon_pattern
    from mazeplugin.dungeon import least_rooms
    from test_demo import press

    app = make_app("--dungeon", "two-paths", "--seed", "4")
    game = app.game
    press(app, pygame.K_g)  # the next pattern, not the next maze generator
    rooms, locks = DungeonMaker("lock-and-key").size(1)
    assert game.level.algorithm == "dungeon" and dungeon_pattern(game.level) == "lock-and-key"
    assert game.code == f"dungeon-lock-and-key-24x24-4+r{rooms}k{locks}" and same_level(game.level, game.code)
    assert game.message == f"Dungeon: lock-and-key, {rooms} rooms, {locks} lock"
    press(app, pygame.K_EQUALS)  # +: two rooms more, the same pattern and seed
    assert game.code.startswith("dungeon-lock-and-key-") and game.code.endswith(f"-4+r{rooms + 2}k{locks}")
    assert same_level(game.level, game.code) and game.message == f"Dungeon: lock-and-key, {rooms + 2} rooms, 1 lock"
    assert game.next_request()[5] == DungeonMaker("lock-and-key", 2)  # the next levels keep the rooms asked for
    fewest = least_rooms("lock-and-key", locks)
    for _ in range(rooms + 2 - fewest):
        press(app, pygame.K_MINUS)
    assert game.code.endswith(f"-4+r{fewest}k{locks}") and same_level(game.level, game.code)
    code, extra = game.code, game.dungeon_extra
    press(app, pygame.K_MINUS)  # already the fewest rooms the pattern takes: the level is kept
    assert game.code == code and game.dungeon_extra == extra == fewest - rooms
    for _ in range(7):
        press(app, pygame.K_g)
    assert dungeon_pattern(game.level) == "lock-and-key"  # round the seven patterns


DROPS = "dungeon-valve-24x24-0+r8k1d"  # both its drops on the way to the exit


def test_a_dungeon_with_drops_is_played_to_its_exit_and_its_drops_are_never_climbed():
    app = make_app("--code", DROPS, "--autoplay")
    game = app.game
    assert game.code == DROPS and same_level(game.level, DROPS) and game.drops
    level = game.level
    drops = [t for t in level.things if t.kind == "drop"]
    walked = []
    number = game.level_number
    for _ in range(3000):  # autoplay: the key-aware solution, down both drops
        app.tick(FRAME)
        if game.level_number > number:
            break
        walked.append(game.player_tile)
    else:
        raise AssertionError("the level was not finished")
    tiles = [t for n, t in enumerate(walked) if n == 0 or t != walked[n - 1]]
    assert len(drops) == 2 and all(d.tile in tiles for d in drops) and all(level.can_step(a, b) for a, b in zip(tiles, tiles[1:]))


def test_the_player_cannot_walk_back_up_a_drop():
    app = make_app("--code", DROPS)
    game = app.game
    level = game.level
    drop = next(t for t in level.things if t.kind == "drop")
    dx, dy = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}[drop.props["direction"]]
    behind, ahead = (drop.x - dx, drop.y - dy), (drop.x + dx, drop.y + dy)

    def stand(tile):
        game.rect.center = mpg.tile_to_pixel(tile, game.tile)
        game.player_tile = tile

    def push(direction, frames=40):
        seen = []
        for _ in range(frames):
            game.update(FRAME, direction)
            seen.append(game.player_tile)
        return seen

    stand(behind)
    assert drop.tile in push((dx, dy), 12)  # down the drop: allowed, and on past it
    assert game.player_tile in (drop.tile, ahead)
    stand(ahead)
    assert drop.tile not in push((-dx, -dy)) and game.player_tile == ahead  # back up: refused
    stand(drop.tile)
    assert behind not in push((-dx, -dy)) and game.player_tile == drop.tile  # from on the ledge: refused too
    for _ in range(3):  # half a step in, then back: never out of the drop the wrong way
        push((dx, dy), 1)
        assert behind not in push((-dx, -dy), 6)


def test_dungeon_mode_with_drops_makes_every_level_with_drops_and_a_drop_code_carries_them_on():
    app = make_app("--dungeon", "valve", "--drops", "--seed", "4")
    game = app.game
    assert game.code.endswith("d") and any(t.kind == "drop" for t in game.level.things)
    assert game.next_request()[5] == DungeonMaker("valve", drops=True)  # the next level: the worker's maker
    app = make_app("--code", DROPS)  # a drop dungeon's code: the levels after it are drop dungeons of its pattern
    assert app.game.dungeon == "valve" and app.game.dungeon_drops
    done = run_demo("--drops")
    assert done.returncode == 2 and "--drops is for dungeons" in done.stderr
