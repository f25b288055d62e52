"""One protocol for every level (issue 29): mp.AnyLevel, and answers by cell and by tile on every grid."""

from __future__ import annotations

import numpy as np
import pytest

import mazeplugin as mp

KINDS = [{}, {"weave": True}, {"corridor": 2}, {"wrap": "xy"}, {"wrap": "x"}, {"grid": "hex"},
         {"grid": "triangle"}, {"grid": "polar"}, {"keys": 1, "treasure": 1}, {"grid": "hex", "keys": 1}]


@pytest.mark.parametrize("kw", KINDS, ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()) or "square")
def test_every_level_answers_the_protocol_the_same_way(kw):
    level = mp.generate("backtracker", 7, 5, seed=4, **kw)
    assert isinstance(level, mp.AnyLevel)
    assert level.grid == kw.get("grid", "square")
    assert level.mission is None  # not a dungeon
    assert level.cells == (35 if level.kind == "square" else level.maze.grid.cells)
    assert level.kind == ("wrap" if "wrap" in kw else level.grid) and level.weave == bool(kw.get("weave"))
    cells = level.solution_cells()
    assert cells[0] == level.cell_of(level.entrance) and cells[-1] == level.cell_of(level.exit)
    assert all(0 <= c < level.cells for c in cells)
    assert all(a != b for a, b in zip(cells, cells[1:]))
    # distances from the entrance by default; a cell number as the source is the same as its place
    assert np.array_equal(level.distances(), level.distances(level.entrance))
    middle = cells[len(cells) // 2]
    by_cell = level.distances(middle)
    if level.kind == "square":
        assert np.array_equal(by_cell, level.distances(level.layout.cell_tile((middle % 7, middle // 7))))
    else:
        assert np.array_equal(by_cell, level.distances(int(middle)))


def test_a_wrapping_level_takes_tiles_where_a_square_level_does():
    level = mp.generate("wilson", 6, 4, seed=3, wrap="xy")
    assert np.array_equal(level.distances((1, 1)), level.distances(0))
    assert np.array_equal(level.distances((3, 1)), level.distances(1))
    # every tile of the solution is on the cell it walks through, or beside it
    way = level.solution()
    assert way == level.solution_tiles()
    assert [level.cell_of(t) for t in way if t[0] % 2 and t[1] % 2] == level.solution_cells()
    with pytest.raises(ValueError, match="wall tile"):
        level.distances((0, 0))
    with pytest.raises(ValueError, match="cell number from 0 to 23"):
        level.distances(24)


def test_a_hex_level_maps_every_cell_tile_and_passage_tile_to_its_cell():
    level = mp.generate("kruskal", 6, 5, seed=2, grid="hex")
    for cell in range(level.cells):
        assert level.cell_of(level.cell_tile(cell)) == cell
    way = level.solution()
    cells = level.solution_cells()
    assert level.cell_of(way[0]) == cells[0] and level.cell_of(way[-1]) == cells[-1]
    walked = [level.cell_of(t) for t in way]
    assert set(walked) == set(cells)
    assert np.array_equal(level.distances(way[1]), level.distances(cells[0]))
    with pytest.raises(ValueError, match="wall tile"):
        level.cell_of((0, 0))


TILED = [{}, {"weave": True}, {"corridor": 2}, {"wrap": "xy"}, {"wrap": "x"}, {"grid": "hex"},
         {"grid": "hex", "keys": 1}, {"wrap": "x", "treasure": 2}, {"keys": 1}]


@pytest.mark.parametrize("kw", TILED, ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()) or "square")
def test_wherever_a_level_has_tiles_its_places_are_tiles(kw):
    level = mp.generate("backtracker", 7, 5, seed=4, **kw)
    assert level.tiled
    marked = level.marked()
    x, y = level.entrance
    assert marked[y, x] == mp.ENTRANCE and marked[level.exit[1], level.exit[0]] == mp.EXIT
    assert level.cell_of(level.entrance) == level.entrance_cell and level.cell_of(level.exit) == level.exit_cell
    way = level.solution()
    assert way[0] == level.entrance and way[-1] == level.exit
    assert all(level.tiles[ty, tx] == mp.FLOOR for tx, ty in way)
    cells = level.solution_cells()
    assert cells[0] == level.entrance_cell and cells[-1] == level.exit_cell
    assert {level.cell_of(t) for t in way} == set(cells)
    steps = level.distances()  # tile steps, a map shaped like the tiles, on every level that has tiles
    assert steps.shape == level.tiles.shape and np.array_equal(steps, level.distances(level.entrance))
    assert (steps[level.tiles == mp.WALL] == -1).all() and (steps[level.tiles == mp.FLOOR] >= 0).all()
    if not any(t.kind == "door" for t in level.things):  # (a locked door's detour makes the solution longer)
        # (the hex solution walks through each cell's tile; a step on the hex tiles may cut past it)
        assert steps[level.exit[1], level.exit[0]] == len(way) - 1 or (
            level.grid == "hex" and 0 < steps[level.exit[1], level.exit[0]] < len(way) - 1)
    by_cell = level.distances_cells()  # passages walked, one per cell, from the entrance's cell
    assert by_cell.shape == (level.cells,) and np.array_equal(by_cell, level.distances_cells(level.entrance))
    assert np.array_equal(by_cell, level.distances_cells(level.entrance_cell))
    if not any(t.kind == "door" for t in level.things):
        assert by_cell[level.exit_cell] == len(level.solution_cells()) - 1  # passages walked
    assert level.dead_end_cells() == sorted(level.dead_end_cells()) and len(level.dead_end_cells()) == level.stats().dead_ends
    assert all(all(0 <= c < n for c, n in zip(t.tiles()[0], marked.shape[::-1])) for t in level.tile_things())
    again = mp.from_json(level.to_json())
    assert (again.entrance, again.exit, again.solution()) == (level.entrance, level.exit, way)


@pytest.mark.parametrize("grid", ["triangle", "polar"])
def test_graph_levels_answer_by_cell_and_refuse_tiles_clearly(grid):
    level = mp.generate("kruskal", 6, 5, seed=2, grid=grid)
    assert not level.tiled and level.kind == grid
    assert (level.entrance, level.exit) == (level.entrance_cell, level.exit_cell)
    assert level.solution() == level.solution_cells()
    with pytest.raises(ValueError, match="no rectangular tilemap"):
        level.tile_things()
    assert level.cell_of(3) == 3
    with pytest.raises(ValueError, match="no rectangular tilemap"):
        level.cell_of((1, 1))
    with pytest.raises(ValueError, match="no rectangular tilemap"):
        level.distances((1, 1))


def test_square_cell_numbers_are_row_major_and_checked():
    level = mp.generate("kruskal", 4, 3, seed=7, corridor=2, wall=1)
    assert level.cell_of(level.layout.cell_tile((2, 1))) == 6
    for bad in (-1, 12):
        with pytest.raises(ValueError, match="0 to 11"):
            level.cell_of(bad)
    with pytest.raises(TypeError, match="tile must be an"):
        level.cell_of(True)  # type: ignore[arg-type]
    assert level.distances(6)[level.layout.cell_tile((2, 1))[::-1]] == 0


def test_a_dungeon_answers_the_protocol_with_its_mission_and_a_maze_without_one():
    dungeon = mp.generate("dungeon", 24, 24, seed=5, rooms=8, locks=1, pattern="lock-and-key")
    assert isinstance(dungeon, mp.AnyLevel) and len(dungeon.mission.nodes) == 8
    assert [room.node.kind for room in dungeon.mission.nodes].count("start") == 1

    class NoMission:  # a level-like object without mission is not an AnyLevel: the protocol lists it
        pass

    members = ["algorithm", "options", "seed"] + [n for n in dir(mp.AnyLevel) if not n.startswith("_")]
    for name in [n for n in members if n != "mission"]:
        setattr(NoMission, name, lambda self, *args, **kwargs: None)
    assert not isinstance(NoMission(), mp.AnyLevel)
    NoMission.mission = None
    assert isinstance(NoMission(), mp.AnyLevel)


def test_a_hex_level_works_out_its_tile_tables_once_not_at_every_step(monkeypatch):
    import mazeplugin.grids.hextiles as hextiles

    calls = []
    real = hextiles.cell_tiles
    monkeypatch.setattr(hextiles, "cell_tiles", lambda grid: calls.append(grid) or real(grid))
    level = mp.generate("backtracker", 12, 10, grid="hex", seed=1, keys=1)
    way, tiles = level.solution(), level.tiles
    first = len(calls)  # the tilemap and the tables of the cells', passages' and openings' tiles
    assert len(way) > 2 * len(level.solution_cells()) - 2 and level.solution() == way and level.tile_things()
    assert (level.entrance_tile, level.exit_tile) == (way[0], way[-1]) and level.marked()[way[1][::-1]] == 0 and level.tiles is tiles
    assert len(calls) == first  # the solution's walk again, the things' tiles, the markers: no new table
    assert [level.cell_of(t) for t in (way[1], way[-2])] == [level.entrance_cell, level.exit_cell]
    level.cell_of(way[2])
    assert len(calls) == first + 1  # the tile -> cell table, once


def test_no_caller_asks_which_level_class_it_holds():
    """Callers ask the level (kind, tiled, weave, entrance_cell, tile_things(), ...), not its class:
    everywhere in mazeplugin/ and demo/ but the two modules that define the classes."""
    import pathlib
    import re

    root = pathlib.Path(mp.__file__).parent
    asks = re.compile(r"isinstance\([^)]*\b(Level|GridLevel)\b")
    found = []
    for path in sorted([*root.rglob("*.py"), *(root.parent / "demo").rglob("*.py")]):
        relative = path.relative_to(root.parent).as_posix()
        if relative in ("mazeplugin/level.py", "mazeplugin/grid_level.py"):
            continue
        found += [f"{relative}:{n}" for n, line in enumerate(path.read_text().splitlines(), 1) if asks.search(line)]
    assert found == []


@pytest.mark.parametrize("grid", ["triangle", "polar"])
def test_levels_without_tiles_answer_distances_by_cell(grid):
    level = mp.generate("kruskal", 6, 5, seed=2, grid=grid)
    assert np.array_equal(level.distances(), level.distances_cells()) and level.distances().shape == (level.cells,)
    assert level.distances_cells(level.exit_cell)[level.entrance_cell] == len(level.solution_cells()) - 1
    assert level.dead_end_cells() == level.dead_ends()
    with pytest.raises(ValueError, match="no rectangular tilemap"):
        level.distances_cells((1, 1))
    with pytest.raises(ValueError, match="cell number from 0"):
        level.distances_cells(level.cells)
