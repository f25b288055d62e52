"""The demo plays dungeons (``--dungeon PATTERN``, demo/levels.py and demo.rules.DungeonMaker), headless (SDL's
dummy drivers): the level is a dungeon with its keys and doors, autoplay finishes it, the next level is a larger
dungeon of the same pattern made in the worker, and R makes the same dungeon again."""

from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")

import mazeplugin as mp  # noqa: E402
from demo.rules import DungeonMaker, dungeon_size  # noqa: E402

from test_demo_levels import finish, make_app, run_demo  # noqa: E402


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
