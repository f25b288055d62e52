"""One-way drops on a dungeon's tiles (``drops=True``), proven by a solver written here over explicit states
(tile, keys held), sharing nothing with the library's (neither :mod:`mazeplugin.content.drops` nor the mission
solver): solvable, no soft lock, every lock necessary, each drop walked one way only; the library's walk as short
as the oracle's; a level whose drops are ignored fails; and every dungeon made without ``drops`` is byte for byte
what it was. benchmarks/bench_dungeon.py ``--drops`` runs the oracle over 1,000 seeds per pattern.

The oracle's rule for a step from tile ``a`` to ``b``: ``b`` is floor, a door's tile only with its key held, and
where ``a`` or ``b`` holds a drop the step goes the drop's way. A key is picked up by stepping onto its tile.
"""

from __future__ import annotations

import hashlib
from collections import deque
from typing import Dict, List, Optional, Set, Tuple

import numpy as np
import pytest

import mazeplugin as mp
from mazeplugin.content import ContentError, check, solve
from mazeplugin.dungeon import PATTERNS, Edge, Mission, MissionError, Node, least_rooms

WAYS = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
DROPPING = ("lock-and-key", "shortcut", "valve", "mixed")  # the patterns that make one-way edges


class DropOracle:
    """Every state (tile, keys held) reached from the entrance, the steps between them, and what they show."""

    def __init__(self, level: mp.Level, *, ignore_drops: bool = False) -> None:
        self.columns = level.tiles.shape[1]
        self.floor: List[bool] = (np.asarray(level.tiles) == 0).reshape(-1).tolist()
        keys = [t for t in level.things if t.kind == "key"]
        self.bit = {key.id: 1 << n for n, key in enumerate(keys)}
        self.all_keys = sum(self.bit.values())
        self.key_at = {key.y * self.columns + key.x: self.bit[key.id] for key in keys}
        self.door_at = {d.y * self.columns + d.x: self.bit[d.props["key"]] for d in level.things if d.kind == "door"}
        self.drop_at: Dict[int, int] = {}  # drop tile -> the one step (in flat tiles) it is walked
        if not ignore_drops:
            for drop in (t for t in level.things if t.kind == "drop"):
                dx, dy = WAYS[drop.props["direction"]]
                self.drop_at[drop.y * self.columns + drop.x] = dy * self.columns + dx
        self.start = level.entrance[1] * self.columns + level.entrance[0]
        self.exit = level.exit[1] * self.columns + level.exit[0]

    def steps(self, at: int, held: int, wall: Optional[int] = None) -> List[int]:
        out = []
        for step in (-self.columns, 1, self.columns, -1):
            to = at + step
            if not self.floor[to] or to == wall or (to in self.door_at and not held & self.door_at[to]):
                continue
            if self.drop_at.get(at, step) != step or self.drop_at.get(to, step) != step:
                continue
            out.append(to)
        return out

    def explore(self) -> Tuple[Dict[Tuple[int, int], int], Dict[Tuple[int, int], List[Tuple[int, int]]]]:
        """Each state reached with its distance in steps, and the states stepped into it from."""
        first = (self.start, self.key_at.get(self.start, 0))
        dist = {first: 0}
        came: Dict[Tuple[int, int], List[Tuple[int, int]]] = {first: []}
        todo = deque([first])
        while todo:
            state = todo.popleft()
            at, held = state
            for to in self.steps(at, held):
                following = (to, held | self.key_at.get(to, 0))
                if following not in dist:
                    dist[following] = dist[state] + 1
                    came[following] = []
                    todo.append(following)
                came[following].append(state)
        return dist, came

    def reached(self, held: int, wall: Optional[int] = None) -> Set[int]:
        """The tiles reached from the entrance holding ``held`` (keys picked up do not count)."""
        seen, todo = {self.start}, [self.start]
        while todo:
            for to in self.steps(todo.pop(), held, wall):
                if to not in seen:
                    seen.add(to)
                    todo.append(to)
        return seen

    def verdict(self) -> Dict[str, object]:
        dist, came = self.explore()
        finishing = [state for state in dist if state[0] == self.exit]
        finishes = set(finishing)
        todo = list(finishing)
        while todo:
            for before in came[todo.pop()]:
                if before not in finishes:
                    finishes.add(before)
                    todo.append(before)
        return {"solvable": bool(finishing), "shortest": min((dist[s] for s in finishing), default=None),
                "stranded": [s for s in dist if s not in finishes],
                "needless": [door for door in self.door_at if self.exit in self.reached(self.all_keys, wall=door)],
                "states": len(dist)}


def dropped(pattern: str, seed: int, **more: object) -> mp.Level:
    rooms, locks = [(10, 1), (12, 2)][seed % 2]
    return mp.generate("dungeon", 34, 34, seed=seed, rooms=max(rooms, least_rooms(pattern, locks)), locks=locks,
                       pattern=pattern, drops=True, **more)


@pytest.mark.parametrize("pattern", PATTERNS)
def test_every_dungeon_with_drops_is_solvable_without_soft_locks_and_needs_every_lock(pattern):
    for seed in range(6 if pattern in DROPPING else 2):
        level = dropped(pattern, seed)
        level.check()
        verdict = DropOracle(level).verdict()
        assert verdict["solvable"], (pattern, seed)
        assert verdict["stranded"] == [], (pattern, seed)
        assert verdict["needless"] == [], (pattern, seed)
        walk = level.solution()
        assert len(walk) - 1 == verdict["shortest"], (pattern, seed)  # the library's walk is a shortest one
        assert all(level.can_step(a, b) for a, b in zip(walk, walk[1:]))
        drops = [t for t in level.things if t.kind == "drop"]
        one_way = [e for e in level.mission.edges if e.kind == "one-way"]
        assert len(drops) == len(one_way) and all(e.carved and e.drop is not None for e in one_way)


@pytest.mark.parametrize("pattern", DROPPING)
def test_a_drop_is_walked_one_way_only(pattern):
    level = dropped(pattern, 1)
    oracle = DropOracle(level)
    for drop in (t for t in level.things if t.kind == "drop"):
        dx, dy = WAYS[drop.props["direction"]]
        behind, ahead = (drop.x - dx, drop.y - dy), (drop.x + dx, drop.y + dy)
        assert level.is_floor(behind) and level.is_floor(ahead)
        assert level.can_step(behind, drop.tile) and level.can_step(drop.tile, ahead)
        assert not level.can_step(ahead, drop.tile) and not level.can_step(drop.tile, behind)
        assert not level.can_step(drop.tile, (drop.x + dy, drop.y + dx))  # the corridor's walls either side
        flat = drop.y * oracle.columns + drop.x
        assert oracle.steps(flat, oracle.all_keys) == [flat + dy * oracle.columns + dx]
        room = level.mission.room(drop.props["edge"].split("->")[0])  # the drop leaves a's room
        assert behind in room.tiles or (room.x <= behind[0] < room.x + room.width
                                        and room.y <= behind[1] < room.y + room.height)


def test_a_level_whose_drops_are_ignored_is_caught():
    """The lock-and-key cycle keeps its key at the bottom of a drop from the exit: walked both ways, the drop is a
    way round the lock. The proof, the oracle and the solver all see it."""
    level = dropped("lock-and-key", 0)
    assert DropOracle(level).verdict()["needless"] == []
    assert DropOracle(level, ignore_drops=True).verdict()["needless"]  # the drop as floor: the door is not needed
    flat = mp.Level(level.maze, entrance=level.entrance, exit=level.exit,
                    things=[t for t in level.things if t.kind != "drop"])
    with pytest.raises(ContentError, match="not needed"):
        flat.check()
    assert len(flat.solution()) < len(level.solution())  # round the lock, up the drop


def test_a_soft_lock_and_a_drop_the_wrong_way_are_refused():
    tiles = np.ones((3, 5), dtype=np.uint8)
    tiles[1, :] = 0  # a corridor west to east ...
    tiles[2, 2] = 0  # ... with a pit below x = 2
    into_pit = mp.Thing("drop", 2, 2, 1, {"direction": "south"})
    with pytest.raises(ContentError, match=r"soft lock: at \(2, 2\)"):
        check(tiles, (0, 1), (4, 1), [into_pit])
    check(tiles, (0, 1), (4, 1), [mp.Thing("drop", 2, 2, 1, {"direction": "north"})])  # a ledge up out of it: fine
    with pytest.raises(ContentError, match="cannot be reached from the entrance"):
        check(tiles, (0, 1), (4, 1), [mp.Thing("drop", 3, 1, 1, {"direction": "west"})])
    with pytest.raises(ContentError, match=r"props\['direction'\] must be one of north, east, south, west"):
        check(tiles, (0, 1), (4, 1), [mp.Thing("drop", 3, 1, 1, {"direction": "up"})])
    # a "drop" without a direction is a game's own kind, as before drops: it blocks nothing
    check(tiles, (0, 1), (4, 1), [mp.Thing("drop", 3, 1, 1)])
    shaft = np.zeros((5, 1), dtype=np.uint8)  # one tile wide: every passage runs south
    down = [mp.Thing("drop", 0, 2, 1, {"direction": "south"})]
    assert solve(shaft, (0, 0), (0, 4), down) == [(0, y) for y in range(5)] and solve(shaft, (0, 4), (0, 0), down) is None


def test_a_designers_mission_reached_only_through_a_drop_is_laid_out_with_drops():
    plan = Mission([Node("start", "start"), Node("ledge"), Node("goal", "goal")],
                   [Edge("start", "ledge", "one-way"), Edge("ledge", "goal")])
    with pytest.raises(MissionError, match="reached only through one-way"):
        mp.generate("dungeon", 24, 24, mission=plan, seed=3)
    level = mp.generate("dungeon", 24, 24, mission=plan, seed=3, drops=True)
    level.check()
    (drop,) = [t for t in level.things if t.kind == "drop"]
    assert drop.tile in level.solution() and drop.props["edge"] == "start->ledge"
    assert DropOracle(level).verdict()["stranded"] == []


def test_drops_keep_their_way_through_json_and_tiled_files(tmp_path):
    level = dropped("shortcut", 3)
    for name in ("level.json", "level.tmx", "level.tmj"):
        level.save(tmp_path / name)
        again = mp.load(tmp_path / name)
        assert [t for t in again.things if t.kind == "drop"] == [t for t in level.things if t.kind == "drop"], name
        again.check()
        assert again.solution() == level.solution(), name
    drops = [t for t in level.things if t.kind == "drop"]
    assert level.to_svg().count('<polygon class="thing drop"') == len(drops) > 0  # an arrow each


def test_a_drop_is_drawn_as_an_arrow_its_way():
    pygame = pytest.importorskip("pygame")
    import mazeplugin.pg as mpg

    level = dropped("valve", 0)
    surface = mpg.render(level, tile=16)
    mpg.draw_things(surface, level, tile=16)
    for drop in (t for t in level.things if t.kind == "drop"):
        dx, dy = WAYS[drop.props["direction"]]
        tip = (drop.x * 16 + 8 + 6 * dx, drop.y * 16 + 8 + 6 * dy)
        tail = (drop.x * 16 + 8 - 7 * dx, drop.y * 16 + 8 - 7 * dy)
        assert tuple(surface.get_at(tip))[:3] == mpg.DROP_COLOUR and tuple(surface.get_at(tail))[:3] != mpg.DROP_COLOUR
    own = pygame.Surface((16, 16))
    own.fill((1, 2, 3))
    mpg.draw_things(surface, level, tile=16, images={"drop": own})  # a game's own image for the kind wins
    drop = next(t for t in level.things if t.kind == "drop")
    assert tuple(surface.get_at((drop.x * 16 + 8, drop.y * 16 + 8)))[:3] == (1, 2, 3)


def test_drops_are_in_the_level_code_and_asked_for_clearly():
    level = dropped("valve", 2)
    code = mp.level_code(level)
    assert code == "dungeon-valve-34x34-2+r10k1d"
    again = mp.level_from_code(code)
    assert again.tiles.tobytes() == level.tiles.tobytes() and again.things == level.things
    assert mp.parse_level_code(code).content == {"rooms": 10, "keys": 1, "drops": True}
    with pytest.raises(ValueError, match="d \\(one-way drops\\) belongs to dungeon codes only"):
        mp.level_from_code("kruskal-10x10-1+d")
    with pytest.raises(TypeError, match="drops must be True or False"):
        mp.generate("dungeon", 34, 34, seed=2, rooms=12, locks=2, pattern="valve", drops="yes")


def test_drops_change_nothing_where_the_mission_has_no_one_way_edge():
    plain = mp.generate("dungeon", 34, 34, seed=4, rooms=12, locks=2, pattern="two-paths")
    dropping = mp.generate("dungeon", 34, 34, seed=4, rooms=12, locks=2, pattern="two-paths", drops=True)
    assert dropping.tiles.tobytes() == plain.tiles.tobytes() and dropping.things == plain.things
    assert mp.level_code(dropping) == mp.level_code(plain) + "d"


# sha256 of level.to_json(), first 16 hex digits, made before drops existed: without drops= a dungeon is the same.
BEFORE_DROPS = {
    ("lock-and-key", 0): "e8300131433cccd0",
    ("shortcut", 1): "53cde8fbddbc2f5e",
    ("valve", 2): "c25fc465469f7784",
    ("mixed", 3): "b6cef76bc976b43c",
}


@pytest.mark.parametrize("pattern, seed", sorted(BEFORE_DROPS))
def test_dungeons_without_drops_are_byte_for_byte_what_they_were(pattern, seed):
    level = mp.generate("dungeon", 40, 40, seed=seed, rooms=14, locks=2, pattern=pattern)
    assert hashlib.sha256(level.to_json().encode()).hexdigest()[:16] == BEFORE_DROPS[(pattern, seed)]
    assert not any(t.kind == "drop" for t in level.things)
    explicit = mp.generate("dungeon", 40, 40, seed=seed, rooms=14, locks=2, pattern=pattern, drops=False)
    assert explicit.to_json() == level.to_json()


def test_the_environments_refuse_a_level_with_drops_by_name():
    pytest.importorskip("gymnasium")
    import mazeplugin.gym as mg

    env = mg.MazeEnv("backtracker", 24, 24)
    with pytest.raises(ValueError, match="one-way drops.*do not play yet"):
        env.reset(options={"level_code": "dungeon-valve-24x24-0+r8k1d"})
    _, info = env.reset(options={"level_code": "dungeon-valve-24x24-0+r8k1"})  # the same dungeon without drops
    assert info["level_code"] == "dungeon-valve-24x24-0+r8k1"


def test_a_proof_over_too_many_states_is_refused_by_the_bound(monkeypatch):
    import mazeplugin.content.drops as drops

    level = dropped("lock-and-key", 1)
    monkeypatch.setattr(drops, "MAX_SOLVE_STEPS", 2)
    with pytest.raises(ValueError, match="MAX_SOLVE_STEPS"):
        level.check()
