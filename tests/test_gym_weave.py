"""mazeplugin.gym refuses weave levels (issue 34, item 1): its engine has no bridges yet, so a crossing
would be a junction and the agent would have shorter ways than the level allows."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")

import mazeplugin as mp  # noqa: E402
import mazeplugin.gym as mg  # noqa: E402
from mazeplugin.gym.levels import LevelSpec  # noqa: E402


def test_the_reason_holds_a_crossing_played_as_a_junction_is_a_shorter_way():
    level = mp.generate("backtracker", 9, 9, seed=0, weave=True)
    flat = mp.paths.shortest_path(level.tiles, level.entrance, level.exit)
    assert len(flat) < len(level.solution())  # what the env would have played: 46 steps, not 58


@pytest.mark.parametrize("make", [
    lambda: mg.MazeEnv(options={"weave": True}),
    lambda: mg.MazeEnv(options={"weave": 0.5}),
    lambda: LevelSpec("kruskal", 5, 5, options={"weave": True}),
    lambda: mg.MazeEnv("kruskal", 5, 5).reset(options={"options": {"weave": True}}),
    lambda: mg.MazeEnv().reset(seed=1, options={"level_code": "backtracker-9x9-0+w"}),
])
def test_a_weave_level_is_refused_at_the_argument_naming_the_missing_bridges(make):
    with pytest.raises(ValueError, match="weave.*engine has no bridges"):
        make()


def test_weave_false_is_no_weave_and_is_taken():
    env = mg.MazeEnv("kruskal", 5, 5, options={"weave": False})
    env.reset(seed=3)
    env.close()
