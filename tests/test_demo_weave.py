"""The demo on weave levels (demo/weaveplay.py): V and --weave toggle weave, the player steps over and under
bridges with level.step, is drawn under a bridge behind its railings, and wins at the exit."""

from __future__ import annotations

import numpy as np
import pytest

pygame = pytest.importorskip("pygame")

import mazeplugin as mp  # noqa: E402
from demo.app import MOVE_KEYS, App, build_parser  # noqa: E402
from demo.view import PALETTE, PLAYER  # noqa: E402
from demo.weaveplay import FALLBACK, WeaveWalk, dimmed, weave_level  # noqa: E402

FRAME = 1 / 60
KEY_FOR = {step: key for key, step in MOVE_KEYS.items() if key in (pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT)}


def make_app(*args: str) -> App:
    app = App(build_parser().parse_args(["--window", "640x480", *args]))
    pygame.event.clear()
    return app


def post(code: int, *, down: bool = True) -> None:
    kind = pygame.KEYDOWN if down else pygame.KEYUP
    pygame.event.post(pygame.event.Event(kind, key=code, mod=0, unicode="", scancode=0))


def press(app: App, code: int) -> None:
    post(code)
    post(code, down=False)
    app.tick(FRAME)


def step_with_key(app: App, here: tuple, there: tuple) -> None:
    """Hold the arrow from ``here`` to ``there`` until the walker has arrived there."""
    game = app.game
    code = KEY_FOR[(there[0] - here[0], there[1] - here[1])]
    post(code)
    for _ in range(60):
        app.tick(FRAME)
        if game.walker.tile == there and game.walker.target is None:
            break
    post(code, down=False)
    assert game.walker.tile == there, f"stuck at {game.walker.tile} on the way from {here} to {there}"


def test_v_toggles_weave_on_the_same_generator_size_and_seed_and_back():
    app = make_app("--code", "backtracker-12x9-4")
    plain = app.game.level.tiles.tobytes()
    press(app, pygame.K_v)
    level = app.game.level
    assert level.weave and app.game.walker is not None
    expected = mp.generate("backtracker", 12, 9, seed=4, weave=True)
    assert level.tiles.tobytes() == expected.tiles.tobytes()
    assert level.bridges.tobytes() == expected.bridges.tobytes()
    assert "WEAVE" in app.flags()
    press(app, pygame.K_v)
    assert not app.game.level.weave and app.game.walker is None
    assert app.game.level.tiles.tobytes() == plain


def test_the_weave_option_and_key_are_listed():
    app = make_app("--weave", "--code", "kruskal-10x8-2")
    assert app.game.level.weave
    assert any(b.label == "V" and "weave" in b.help for b in app.bindings())
    assert any("V weave" in line for line in app.help_lines())


def test_a_generator_that_cannot_weave_gives_way_and_says_so():
    app = make_app("--code", "rooms-10x8-2")
    press(app, pygame.K_v)
    game = app.game
    assert game.level.weave and game.level.algorithm == FALLBACK
    assert "rooms cannot weave" in game.message
    with pytest.raises(ValueError):
        weave_level("backtracker", 0, 8, 1)  # a bad size is not hidden by the fallback


def test_walking_the_weave_solution_with_arrow_keys_goes_under_bridges_and_wins():
    app = make_app("--code", "backtracker-12x9-4", "--weave")
    game = app.game
    path = game.level.solution()
    bridges = game.level.bridges
    went_under = False
    for here, there in zip(path, path[1:]):
        step_with_key(app, here, there)
        went_under |= game.walker.under
        if game.walker.under:
            assert bridges[there[1], there[0]]  # under only ever on a bridge tile
    assert went_under, "the solution of this level passes under a bridge"
    assert game.completed and game.player_tile == game.level.exit
    request = game.next_request()
    algorithm, width, height, seed = request[:4]
    assert game.ahead is not None and game.ahead.ready(request)  # made in the worker meanwhile, as other levels
    for _ in range(200):
        app.tick(FRAME)
        if game.level_number == 2:
            break
    assert game.level_number == 2 and game.level.weave  # the next level weaves too
    assert game.level.tiles.tobytes() == mp.generate(algorithm, width, height, seed=seed, weave=True).tiles.tobytes()


def test_a_bridge_blocks_turns_and_a_step_is_finished_once_begun():
    level = mp.generate("backtracker", 12, 9, seed=4, weave=True)
    y, x = (int(v) for v in np.argwhere(level.bridges == mp.UNDER_EAST_WEST)[0])
    walk = WeaveWalk((x - 1, y))  # west of a bridge whose tunnel runs east-west
    solid = level.tiles
    assert walk.advance(level, solid, (1, 0), 0.5) == 0 and walk.target == (x, y) and walk.target_under
    assert walk.advance(level, solid, None, 0.5) == 1 and walk.tile == (x, y) and walk.under
    assert walk.advance(level, solid, (0, 1), 1.0) == 0 and walk.tile == (x, y)  # no turning in the tunnel
    assert walk.advance(level, solid, (1, 0), 1.0) == 1 and walk.tile == (x + 1, y) and not walk.under
    blocked = solid.copy()
    blocked[y, x] = 1  # a locked door there
    walk = WeaveWalk((x - 1, y))
    assert walk.advance(level, blocked, (1, 0), 1.0) == 0 and walk.tile == (x - 1, y)


def test_under_a_bridge_the_player_is_dimmed_behind_its_railings():
    app = make_app("--code", "backtracker-12x9-4", "--weave", "--tile", "24")
    game = app.game
    level = game.level
    y, x = (int(v) for v in np.argwhere(level.bridges == mp.UNDER_EAST_WEST)[0])
    surface = pygame.Surface((level.width * 24 + 48, level.height * 24 + 48))
    cy = y * 24 + 12
    # Gliding east into the tunnel, past half way: the disc straddles the bridge's west railing.
    walker = WeaveWalk((x - 1, y))
    walker.target, walker.target_under, walker.progress = (x, y), True, 0.6
    game.walker = walker
    app.view.draw_player(surface, game, (0, 0))
    assert tuple(surface.get_at((x * 24 + 1, cy))[:3]) == PALETTE.wall  # the railing over the player
    assert tuple(surface.get_at((x * 24 + 6, cy))[:3]) == dimmed(PLAYER, PALETTE.wall)
    # The same place walked on top (a level's other tiles): the disc in full colour, no railing over it.
    surface.fill((0, 0, 0))
    walker.target_under = False
    app.view.draw_player(surface, game, (0, 0))
    assert tuple(surface.get_at((x * 24 + 1, cy))[:3]) == PLAYER


def test_square_play_without_weave_has_no_walker():
    app = make_app("--code", "backtracker-6x5-3")
    assert app.game.walker is None and not app.game.weave


def test_the_fog_hint_on_a_weave_level_follows_the_solution_over_seen_tiles():
    app = make_app("--code", "backtracker-12x9-4", "--weave", "--fog")
    game = app.game
    game.seen[:] = True
    assert game.hint() == game.level.solution()  # never a turn on a bridge
    game.seen[:] = False
    game.reveal()
    hint = game.hint()
    assert hint and hint == game.level.solution()[:len(hint)] and all(game.seen[y, x] for x, y in hint)


def test_a_typed_weave_code_plays_exactly_its_level_with_its_content():
    code = mp.level_code(mp.generate("backtracker", 10, 8, seed=3, weave=True, keys=1, treasure=2))
    app = make_app("--code", code)
    level, expected = app.game.level, mp.level_from_code(code)
    assert level.weave and app.game.walker is not None
    assert level.tiles.tobytes() == expected.tiles.tobytes()
    assert sorted(t.kind for t in level.things) == ["door", "key", "treasure", "treasure"]
    assert level.things == expected.things
    assert mp.level_code(level) == code
