"""One level class for every grid (issue 29): every public member answers on every kind of level, tile methods
on the tiles wherever there are tiles, and one clear ValueError where there are none."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

import mazeplugin as mp
from mazeplugin.grids import GridMaze
from mazeplugin.grids.square import SquareGrid

KINDS = {
    "square": dict(), "weave": dict(weave=True), "wide": dict(corridor=2, wall=1), "keys": dict(keys=1, treasure=1),
    "wrap-x": dict(wrap="x"), "wrap-y": dict(wrap="y"), "wrap-xy": dict(wrap="xy", treasure=2),
    "hex": dict(grid="hex", keys=1), "triangle": dict(grid="triangle", keys=1), "polar": dict(grid="polar"),
}
# The members a level without tiles refuses (with the ValueError ``tiles`` raises), and their arguments.
TILE_MEMBERS = {"tiles": None, "bridges": None, "shape": None, "base_tiles": None, "entrance_tile": None,
                "exit_tile": None, "marked": (), "to_text": (), "solution_tiles": (), "tile_things": (),
                "is_floor": ((1, 1),), "step": ("floor", (1, 0)), "can_step": ("floor", (1, 2)), "cell_tile": (0,)}
CALLS = {"cell_of": (0,), "distances": (), "to_svg": (4,), "save": None, "check": (), "walls": (), "stats": (),
         "dead_ends": (), "solution": (), "solution_cells": (), "to_json": ()}
ALIASES = {"save_png", "save_tmx", "save_tmj", "save_json", "save_npy", "load_tmx", "load_tmj", "load_json",
           "load_npy", "from_json"}


def _levels():
    for name, kw in KINDS.items():
        yield name, mp.generate("backtracker", 7, 5, seed=4, **kw)
    yield "dungeon", mp.generate("dungeon", 24, 24, seed=5, rooms=8, locks=1, pattern="lock-and-key")


LEVELS = dict(_levels())


def _public(cls):
    return sorted(n for n in dir(cls) if not n.startswith("_"))


def test_the_protocol_lists_only_members_the_one_class_has():
    for level in LEVELS.values():
        assert set(_public(mp.AnyLevel)) | {"algorithm", "seed", "options", "maze"} <= set(_public(level))


@pytest.mark.parametrize("name", list(LEVELS))
def test_every_public_member_answers_on_every_kind_of_level(name):
    level = LEVELS[name]
    assert type(level) is mp.Level and isinstance(level, mp.AnyLevel)
    refusal = None
    if not level.tiled:
        with pytest.raises(ValueError, match=f"tiles is for levels with a tilemap .*a {level.grid} level") as refused:
            level.tiles  # noqa: B018
        refusal = str(refused.value).partition(" ")[2]  # what every tile member says after its own name
    for member in _public(mp.Level):
        if member in ALIASES:  # the deprecated per-format methods: there, and callable
            assert callable(getattr(level, member)), member
            continue
        args = TILE_MEMBERS.get(member, CALLS.get(member))
        if args and args[0] == "floor":  # a floor tile where the level has tiles
            args = (level.solution()[1] if level.tiled else (1, 1),) + args[1:]
        try:
            value = getattr(level, member)
            if args is not None:
                value = value(*args)
        except ValueError as error:
            if member == "stagger_index" and level.grid != "hex":
                assert "for hex levels" in str(error)
            elif member == "layout" and level.grid != "square":
                assert f"not a {level.grid} level" in str(error)
            else:
                assert member in TILE_MEMBERS and refusal is not None, f"{member}: {error}"
                assert str(error).partition(" ")[2] == refusal, member  # the same words as tiles says
            continue
        assert member not in TILE_MEMBERS or level.tiled, member
        assert value is not None or member in ("mission", "check", "save", "entrance", "exit") or "tile" in member
    again = pickle.loads(pickle.dumps(level))  # with every table it worked out (a worker process sends levels)
    assert again.to_json() == level.to_json() and str(again) == str(level)


@pytest.mark.parametrize("name", [n for n, level in LEVELS.items() if level.tiled])
def test_wherever_there_are_tiles_the_solution_walks_them_step_by_step(name):
    level = LEVELS[name]
    way = level.solution_tiles()
    assert way == level.solution() and (way[0], way[-1]) == (level.entrance_tile, level.exit_tile)
    assert all(level.is_floor(tile) for tile in way)
    from mazeplugin.level_tiles import steps_of

    under = False  # on a weave: walking in a tunnel
    for a, b in zip(way, way[1:]):
        if a == b:
            continue
        assert level.can_step(a, b), (a, b)
        steps = [level.step(a, d, under) for d in steps_of(level)]
        assert [tile for tile, _ in steps].count(b) == 1, (a, b)
        under = next(below for tile, below in steps if tile == b)
    for cell in range(level.cells):
        tile = level.cell_tile(cell)
        if level.is_floor(tile):
            assert level.cell_of(tile) == cell
    assert level.shape == level.tiles.shape and len(level.to_text().splitlines()) == level.shape[0]
    base = (2 * level.height + 1, 2 * level.width + 1) if level.kind == "square" else level.shape
    assert level.base_tiles.shape == base


def test_a_wrapping_level_steps_off_one_edge_onto_the_other():
    level = LEVELS["wrap-x"]
    rows, columns = level.shape
    edge = next((0, y) for y in range(rows) if level.is_floor((0, y)) and y % 2)
    assert level.is_floor((columns - 1, edge[1]))
    assert level.step(edge, (-1, 0)) == ((columns - 1, edge[1]), False)
    assert level.can_step((columns - 1, edge[1]), edge) and not level.can_step(edge, (2, edge[1]))
    with pytest.raises(ValueError, match=r"direction must be one of .* on a wrap level's tiles"):
        level.step(edge, (1, 1))


def test_a_hex_level_steps_six_ways():
    level = LEVELS["hex"]
    with pytest.raises(ValueError, match=r"direction must be one of \(1, -1\), \(1, 0\), .* on a hex level's tiles"):
        level.step(level.entrance, (0, 1))
    assert level.step(level.entrance, (-1, 0)) == (level.entrance, False)  # the margin: a wall
    with pytest.raises(ValueError, match="not a floor tile"):
        level.step((0, 0), (1, 0))


@pytest.mark.parametrize("kw", [dict(), dict(braid=1.0), dict(markers="none")])
def test_a_square_level_answers_as_the_same_maze_on_the_square_grid_would(kw):
    """A square level's tiles, walls, marker tiles and way, and the same passages as a GridMaze on a (not wrapping)
    SquareGrid: one answer, whichever model holds the maze."""
    level = mp.generate("kruskal", 6, 4, seed=9, **kw)
    grid = SquareGrid(6, 4)
    a, b = grid.edges[:, 0], grid.edges[:, 1]
    ay, ax = np.divmod(a, 6)
    east = b == a + 1
    passages = np.where(east, level.maze.east[ay, ax], level.maze.south[ay, ax])
    entrance, exit = (None, None) if not level.openings else (level.openings[0][0], level.openings[1][0])
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        graph = mp.Level(GridMaze(grid, passages), entrance=entrance, exit=exit, openings=level.openings)
    assert np.array_equal(graph.tiles, level.tiles)
    assert sorted(map(tuple, graph.walls())) == sorted(map(tuple, level.walls()))
    assert [graph.cell_tile(c) for c in range(24)] == [level.cell_tile(c) for c in range(24)]
    assert (graph.entrance_tile, graph.exit_tile) == (level.entrance_tile, level.exit_tile)
    if level.entrance is not None:
        assert graph.solution_cells() == level.solution_cells() and graph.solution() == level.solution()
        assert np.array_equal(graph.marked(), level.marked()) and graph.to_text() == level.to_text()


def test_grid_level_is_a_warning_alias_that_still_makes_and_tells_levels():
    from mazeplugin.grids import HexGrid

    with pytest.deprecated_call(match=r"mazeplugin\.GridLevel is deprecated; use mazeplugin\.Level"):
        alias = mp.GridLevel
    with pytest.deprecated_call(match=r"GridLevel\(maze, \.\.\.\) is deprecated"):
        level = alias(GridMaze(HexGrid(3, 2)), width=3, height=2, entrance=0, exit=5, openings=((0, None), (5, None)))
    assert type(level) is mp.Level and level.kind == "hex" and level.tiles.shape == (5, 8)
    assert isinstance(LEVELS["polar"], alias) and not isinstance(LEVELS["square"], alias)
    assert not isinstance("a level", alias)
