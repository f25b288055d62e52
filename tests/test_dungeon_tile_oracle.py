"""Dungeons proven over their tiles by a solver written here, sharing nothing with the library's (neither the
content engine's proof nor the mission solver): issue 33's quality promise, checked on ``mp.generate("dungeon",
...)`` levels of every pattern over many seeds. benchmarks/bench_dungeon.py runs it over 1,000 seeds per pattern.

The solver's states are (tile, keys held). A key is picked up by stepping on its tile, and a door tile is
passable once its key is held; keys are never lost and every step can be walked back, so the states with one set
of keys fall into flood-filled *regions*, and the states of the whole dungeon form a graph of (keys held, region)
whose edges each pick one key up. On that graph:

- **solvable**: the exit is reached from the entrance with no keys;
- **no soft lock**: from every region reachable, the exit stays reachable (the graph's regions that can finish,
  worked out backwards from the most keys to the fewest, include every region reached);
- **every lock necessary**: with that door made a wall and every other door open, the exit is out of reach.
"""

from __future__ import annotations

from collections import deque
from typing import Dict, List, Optional, Set, Tuple

import numpy as np
import pytest

import mazeplugin as mp
from mazeplugin.dungeon import PATTERNS, least_rooms

Region = Tuple[int, int]  # (keys held as a bit mask, the region's first tile found)


class TileOracle:
    """The dungeon's keys and doors read from its things, and floods of its floor tiles."""

    def __init__(self, level: mp.Level) -> None:
        rows, columns = level.tiles.shape
        self.columns = columns
        self.floor: List[bool] = (np.asarray(level.tiles) == 0).reshape(-1).tolist()
        keys = [t for t in level.things if t.kind == "key"]
        bit = {key.id: 1 << n for n, key in enumerate(keys)}
        self.key_at: Dict[int, int] = {key.y * columns + key.x: bit[key.id] for key in keys}
        self.door_at: Dict[int, int] = {}  # door tile -> the bit of the key that opens it
        for door in (t for t in level.things if t.kind == "door"):
            self.door_at[door.y * columns + door.x] = bit[door.props["key"]]
        self.all_keys = sum(bit.values())
        self.start = level.entrance[1] * columns + level.entrance[0]
        self.exit = level.exit[1] * columns + level.exit[0]

    def flood(self, origin: int, held: int, wall: Optional[int] = None) -> Set[int]:
        """The tiles reached from ``origin`` holding keys ``held`` without picking any up (``wall``: a tile
        taken as wall)."""
        floor, doors, columns = self.floor, self.door_at, self.columns
        seen, todo = {origin}, deque([origin])
        while todo:
            at = todo.popleft()
            for step in (at - columns, at + 1, at + columns, at - 1):
                if step in seen or not floor[step] or step == wall:
                    continue
                if step in doors and not held & doors[step]:
                    continue
                seen.add(step)
                todo.append(step)
        return seen

    def regions(self) -> Tuple[Region, Dict[Region, Set[Region]], Dict[Region, Set[int]]]:
        """The start region, each reachable region's next regions (one key more) and its tiles."""
        def enter(origin: int, held: int) -> Region:
            if origin in self.key_at:
                held |= self.key_at[origin]
            for (mask, first), tiles in made.items():
                if mask == held and origin in tiles:
                    return mask, first
            made[(held, origin)] = self.flood(origin, held)
            return held, origin

        made: Dict[Region, Set[int]] = {}
        start = enter(self.start, 0)
        nexts: Dict[Region, Set[Region]] = {}
        todo = [start]
        while todo:
            region = todo.pop()
            if region in nexts:
                continue
            held, _ = region
            nexts[region] = {enter(tile, held) for tile in made[region]
                             if tile in self.key_at and not held & self.key_at[tile]}
            todo.extend(nexts[region])
        return start, nexts, made

    def verdict(self) -> Dict[str, object]:
        """``solvable``, ``stranded`` (regions reached from which the exit is out of reach), ``needless`` (door
        tiles the exit is reachable without), ``regions`` (how many were reached)."""
        start, nexts, tiles = self.regions()
        finishes: Dict[Region, bool] = {}
        for region in sorted(nexts, key=lambda r: -bin(r[0]).count("1")):  # more keys first: a DAG's order
            finishes[region] = self.exit in tiles[region] or any(finishes[n] for n in nexts[region])
        needless = [door for door in self.door_at
                    if self.exit in self.flood(self.start, self.all_keys, wall=door)]
        return {"solvable": finishes[start], "stranded": [r for r in nexts if not finishes[r]],
                "needless": needless, "regions": len(nexts)}


def dungeon(pattern: str, seed: int) -> mp.Level:
    rooms, locks = [(10, 1), (12, 2), (14, 3)][seed % 3]
    return mp.generate("dungeon", 34, 34, seed=seed, rooms=max(rooms, least_rooms(pattern, locks)), locks=locks,
                       pattern=pattern)


@pytest.mark.parametrize("pattern", PATTERNS)
def test_every_dungeon_is_solvable_without_soft_locks_and_needs_every_lock(pattern):
    for seed in range(12):
        level = dungeon(pattern, seed)
        verdict = TileOracle(level).verdict()
        assert verdict["solvable"], (pattern, seed)
        assert verdict["stranded"] == [], (pattern, seed)
        assert verdict["needless"] == [], (pattern, seed)
        doors = sum(t.kind == "door" for t in level.things)
        assert verdict["regions"] > doors  # at least one region more per key picked up than doors


def test_the_oracle_finds_what_it_is_for():
    """Levels made wrong by hand: each fault is found (so a pass above means something)."""
    level = dungeon("lock-and-key", 1)
    door = next(t for t in level.things if t.kind == "door")
    key = next(t for t in level.things if t.id == door.props["key"])
    others = [t for t in level.things if t is not key]
    behind = mp.Level(level.maze, entrance=level.entrance, exit=level.exit, things=others + [
        mp.Thing("key", level.exit[0], level.exit[1], key.id, dict(key.props))])  # its key behind its own door
    assert not TileOracle(behind).verdict()["solvable"]
    walled = TileOracle(level)
    tile = door.y * walled.columns + door.x
    walled.door_at[tile] = 1 << 30  # a door no key opens: every region reached is stranded
    assert not walled.verdict()["solvable"] and walled.verdict()["stranded"]
    start = level.mission.room("start")
    plain = TileOracle(level)
    spare = next(t for t in start.tiles if t != level.entrance  # a room tile that cuts no way (not at a door)
                 and plain.exit in plain.flood(plain.start, plain.all_keys, wall=t[1] * plain.columns + t[0]))
    extra = max(t.id for t in level.things) + 1
    needless = mp.Level(level.maze, entrance=level.entrance, exit=level.exit, things=list(level.things) + [
        mp.Thing("key", level.entrance[0], level.entrance[1], extra, {"door": extra + 1}),
        mp.Thing("door", spare[0], spare[1], extra + 1, {"key": extra})])
    verdict = TileOracle(needless).verdict()
    assert verdict["solvable"] and verdict["needless"] == [spare[1] * walled.columns + spare[0]]
