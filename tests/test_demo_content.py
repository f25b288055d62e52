"""Level content in the demo (demo/content.py), driven headless by posted key events."""

from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")

import mazeplugin as mp  # noqa: E402
from demo.app import MOVE_KEYS, App, build_parser  # noqa: E402
from demo.content import LevelContent, counts, rooms  # noqa: E402

FRAME = 1 / 60
KEY_FOR = {step: key for key, step in MOVE_KEYS.items() if key in (pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT)}


def make_app(*args: str) -> App:
    app = App(build_parser().parse_args(["--window", "640x480", *args]))
    pygame.event.clear()
    return app


def post(key_code: int, down: bool = True) -> None:
    kind = pygame.KEYDOWN if down else pygame.KEYUP
    pygame.event.post(pygame.event.Event(kind, key=key_code, mod=0, unicode="", scancode=0))


def step(app: App, here, there) -> None:
    """Hold the arrow key from ``here`` towards ``there`` until the player's tile changes."""
    game = app.game
    code = KEY_FOR[(there[0] - here[0], there[1] - here[1])]
    post(code)
    for _ in range(60):
        app.tick(FRAME)
        if game.player_tile != here:
            break
    post(code, down=False)
    app.tick(FRAME)


def two_lock_code(size=(12, 9)) -> str:
    """A code of a backtracker level holding two locks (no enemies)."""
    for seed in range(100):
        try:
            level = mp.generate("backtracker", *size, seed=seed, keys=2)
        except ValueError:
            continue
        return mp.level_code(level)
    raise AssertionError("no seed with two locks")  # pragma: no cover


def test_scripted_keys_walk_a_level_with_two_locks_to_the_exit():
    app = make_app("--code", two_lock_code())
    game, content = app.game, app.addon(LevelContent)
    level = game.level
    assert [t.kind for t in level.things] == ["key", "door", "key", "door"]
    walk = level.solution()  # the key-aware walk: each key before its door
    for here, there in zip(walk, walk[1:]):
        assert game.player_tile == here
        step(app, here, there)
        assert game.player_tile == there, f"stuck at {here} on the way to {there}"
    assert game.completed
    assert content.status()["keys"] == 2 and content.opened == {2, 4}
    assert "KEYS 2/2" in app.flags()


def test_a_locked_door_stops_the_player_until_its_key_is_held():
    app = make_app("--code", two_lock_code())
    game, content = app.game, app.addon(LevelContent)
    walk = game.level.solution()
    door = game.level.things[1]
    at = walk.index(door.tile)
    before = walk[at - 1]
    game.rect.center = mp.pg.tile_to_pixel(before, game.tile)
    game.player_tile = before
    for _ in range(30):  # push into the locked door
        post(KEY_FOR[(door.x - before[0], door.y - before[1])])
        app.tick(FRAME)
    post(KEY_FOR[(door.x - before[0], door.y - before[1])], down=False)
    app.tick(FRAME)
    assert game.player_tile == before
    content.held.add(door.props["key"])  # as if its key were picked up
    content._unlock()
    step(app, before, door.tile)
    assert game.player_tile == door.tile


def test_touching_an_enemy_sends_the_player_back_with_its_keys():
    code = next(
        mp.level_code(level) for seed in range(200)
        for level in [_try("backtracker", 16, 12, seed, keys=1, enemies=2)] if level is not None
    )
    app = make_app("--code", code)
    game, content = app.game, app.addon(LevelContent)
    content.held.add(game.level.things[0].id)
    enemy, (ex, ey) = content.enemies()[0]
    game.rect.center = (round((ex + 0.5) * game.tile), round((ey + 0.5) * game.tile))
    game.player_tile = (round(ex), round(ey))
    app.tick(FRAME)
    assert game.player_tile == game.level.entrance
    assert content.status() == {"keys": 1, "treasure": 0, "caught": 1}
    assert "Caught" in game.message


def _try(*args, **kw):
    try:
        return mp.generate(*args[:3], seed=args[3], **kw)
    except ValueError:
        return None


def test_enemies_walk_their_patrols():
    app = make_app("--code", "backtracker-30x20-7+e3")
    content = app.addon(LevelContent)
    start = [where for _, where in content.enemies()]
    for _ in range(30):
        app.tick(FRAME)
    moved = [where for _, where in content.enemies()]
    assert start != moved
    for thing, (x, y) in content.enemies():
        assert any(abs(x - px) + abs(y - py) < 1 for px, py in thing.props["patrol"])


def test_content_grows_from_level_2_and_autoplay_collects_keys_on_the_way():
    app = make_app("--code", "backtracker-8x6-3", "--autoplay")
    game, content = app.game, app.addon(LevelContent)
    assert game.level.things == ()
    for _ in range(4000):
        app.tick(FRAME)
        if game.level_number == 3:
            break
        if game.completed and game.ahead is not None:  # the worker makes the next level meanwhile:
            game.ahead.ready(game.next_request())  # wait for it (a hang guard), not for frames
    assert game.level_number == 3
    assert game.level.things and "+" in game.code
    got, wanted = mp.parse_level_code(game.code).content, counts(3)
    got.pop("rooms", None)  # (rooms: demo.content.rooms; none at this size)
    assert got and all(0 < got[name] <= wanted[name] for name in got)  # as much as fits
    for _ in range(6000):
        if game.completed:
            break
        app.tick(FRAME)
    assert game.completed
    assert content.status()["keys"] == sum(t.kind == "key" for t in game.level.things)


def test_h_shows_the_key_respecting_solution():
    app = make_app("--code", two_lock_code(), "--solution")
    game = app.game
    walk = game.path
    key, door = game.level.things[:2]
    assert walk.index(key.tile) < walk.index(door.tile)
    app.tick(FRAME)  # draws without error


def test_a_typed_code_with_content_plays_that_content():
    app = make_app("--code", "kruskal-6x5-1")
    code = "backtracker-30x20-7+k2t5e3"
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    app.tick(FRAME)
    for char in code:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
    app.tick(FRAME)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    app.tick(FRAME)
    assert app.game.code == code
    assert app.game.level.things == mp.level_from_code(code).things
    app.game.regenerate()  # R keeps the typed content
    assert app.game.code == code


def test_no_content_leaves_levels_plain():
    app = make_app("--code", "backtracker-6x5-3", "--no-content", "--autoplay")
    game = app.game
    for _ in range(2000):
        app.tick(FRAME)
        if game.level_number == 2:
            break
        if game.completed and game.ahead is not None:  # the worker makes the next level meanwhile:
            game.ahead.ready(game.next_request())  # wait for it (a hang guard), not for frames
    assert game.level_number == 2 and game.level.things == ()


def test_under_fog_the_hint_follows_the_key_walk_over_seen_tiles_only():
    app = make_app("--code", two_lock_code(), "--fog", "--solution")
    game = app.game
    walk = game.level.solution()
    steps = 0
    for here, there in zip(walk, walk[1:]):
        hint = game.hint()
        expected = []
        for x, y in walk[steps:]:  # the walk from here on, up to the first tile not yet seen
            if not game.seen[y, x]:
                break
            expected.append((x, y))
        assert hint == expected and hint[0] == game.player_tile
        step(app, here, there)
        steps += 1
        if steps > 40:
            break


def test_a_typed_code_with_rooms_plays_that_level_and_r_makes_it_again():
    code = "wilson-24x18-5+r4k1"
    app = make_app("--code", code)
    game = app.game
    expected = mp.level_from_code(code)
    assert game.code == code and int(game.level.maze.rooms.max()) == 4
    assert game.level.tiles.tobytes() == expected.tiles.tobytes() and game.level.things == expected.things
    game.regenerate()  # R: the same level again, rooms and all
    assert game.code == code and game.level.tiles.tobytes() == expected.tiles.tobytes()


def test_rooms_come_from_level_3_where_they_fit_and_r_replays_them():
    app = make_app("--code", "backtracker-16x12-4")
    game = app.game
    made = []
    while game.level_number < 6:
        game.next_level()
        made.append((game.level_number, int(game.level.maze.rooms.max()), game.code))
    for number, count, code in made:
        wanted = rooms("backtracker", game.width, game.height, number) if number == game.level_number else None
        assert (count == 0) if number < 3 else (count >= 1), made
        assert (f"+r{count}" in code) == (count > 0)  # the code names the rooms, so it replays them
        if wanted is not None:
            assert count <= wanted
    before = game.level
    game.regenerate()  # R: the identical level, rooms, content and all
    assert game.level.tiles.tobytes() == before.tiles.tobytes() and game.level.things == before.things
    assert game.level.maze.rooms.tobytes() == before.maze.rooms.tobytes()


def test_no_content_means_no_rooms_either():
    app = make_app("--code", "backtracker-16x12-4", "--no-content")
    game = app.game
    while game.level_number < 5:
        game.next_level()
    assert game.level.maze.rooms.max() == 0 and game.level.things == ()
