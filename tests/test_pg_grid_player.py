"""A player on grid levels (mazeplugin.pg.grid_player): steps only through open passages, every passage
reachable, wrap steps arrive across the map, the glide and the disc land where the cells are."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples

pygame = pytest.importorskip("pygame")

import mazeplugin as mp  # noqa: E402
import mazeplugin.pg as mpg  # noqa: E402
from mazeplugin.grids import HEX_DIRECTIONS, SquareGrid  # noqa: E402

TOPOLOGIES = [{"grid": "hex"}, {"grid": "triangle"}, {"grid": "polar"}, {"wrap": "x"}, {"wrap": "y"}, {"wrap": "xy"}]
HEX_ANGLES = dict(zip(HEX_DIRECTIONS, (300.0, 0.0, 60.0, 120.0, 180.0, 240.0)))


def level_for(topology, width, height, seed, braid):
    return mp.generate("wilson", width, height, seed=seed, braid=braid, **topology)


@settings(max_examples=examples(90), deadline=None)
@given(topology=st.sampled_from(TOPOLOGIES), width=st.integers(3, 7), height=st.integers(3, 6),
       seed=st.integers(0, 10**6), braid=st.sampled_from([0.0, 0.5, 1.0]))
def test_steps_go_only_through_open_passages_and_every_passage_has_a_direction(topology, width, height, seed, braid):
    level = level_for(topology, width, height, seed, braid)
    maze = level.maze
    for cell in range(maze.grid.cells):
        linked = {int(c) for c in maze.linked(cell)}
        exits = mpg.grid_exits(level, cell)
        assert {n for _, n in exits} == linked
        for angle, neighbour in exits:
            assert mpg.grid_step(level, cell, angle) == neighbour
        for angle in range(0, 360, 10):
            there = mpg.grid_step(level, cell, angle)
            assert there == cell or there in linked  # a wall stops the player; it never jumps one


def test_a_walled_direction_stops_the_player():
    level = mp.generate("backtracker", 6, 5, grid="hex", seed=4)
    grid = level.maze.grid
    stopped = 0
    for cell in range(grid.cells):
        for index, name in enumerate(HEX_DIRECTIONS):
            other = grid.step(cell, index)
            there = mpg.grid_step(level, cell, HEX_ANGLES[name])
            if other >= 0 and other in level.maze.linked(cell):
                assert there == other  # the six hex directions are exact
            elif all(abs((a - HEX_ANGLES[name] + 180) % 360 - 180) >= 90 - 1e-6 for a, _ in mpg.grid_exits(level, cell)):
                assert there == cell
                stopped += 1
    assert stopped > 0


def test_the_four_arrows_walk_a_square_wrap_level_like_its_grid():
    level = mp.generate("kruskal", 5, 4, wrap="xy", seed=11)
    grid = level.maze.grid
    assert isinstance(grid, SquareGrid)
    for cell in range(grid.cells):
        for side, name in enumerate(("north", "east", "south", "west")):
            other = grid.step(cell, side)
            expected = other if other in level.maze.linked(cell) else cell
            assert mpg.grid_step(level, cell, name) == expected


@pytest.mark.parametrize("wrap, side", [("x", 1), ("x", 3), ("y", 0), ("y", 2)])
def test_stepping_off_an_edge_through_a_wrap_passage_arrives_on_the_far_edge(wrap, side):
    name = ("north", "east", "south", "west")[side]
    crossed = 0
    for seed in range(40):
        level = mp.generate("wilson", 5, 5, wrap=wrap, seed=seed, braid=1.0)
        grid = level.maze.grid
        for cell in range(grid.cells):
            x, y = grid.xy(cell)
            on_edge = {0: y == 0, 1: x == grid.width - 1, 2: y == grid.height - 1, 3: x == 0}[side]
            there = mpg.grid_step(level, cell, name)
            if not on_edge or there == cell:
                continue
            tx, ty = grid.xy(there)
            far = {0: (x, grid.height - 1), 1: (0, y), 2: (x, 0), 3: (grid.width - 1, y)}[side]
            assert (tx, ty) == far
            crossed += 1
            # The glide leaves by this edge and arrives by the far one, never sweeping across the map.
            out, back = mpg.glide(level, cell, there, 0.49), mpg.glide(level, cell, there, 0.51)
            assert math.dist(out, grid.centre(cell)) < 0.5 and math.dist(back, grid.centre(there)) < 0.5
    assert crossed > 0


def test_glide_runs_from_centre_through_the_shared_side_to_centre():
    level = mp.generate("kruskal", 6, 4, grid="polar", seed=3)
    grid = level.maze.grid
    way = level.solution_cells()
    for a, b in zip(way, way[1:]):
        assert mpg.glide(level, a, b, 0) == grid.centre(a)
        assert mpg.glide(level, a, b, 1) == pytest.approx(grid.centre(b))
        middle_out, middle_in = mpg.glide(level, a, b, 0.5 - 1e-12), mpg.glide(level, a, b, 0.5)
        assert math.dist(middle_out, middle_in) < 1e-6  # neighbours meet at their common side
        previous = mpg.glide(level, a, b, 0)
        for k in range(1, 11):  # no jumps on the way
            point = mpg.glide(level, a, b, k / 10)
            assert math.dist(point, previous) < 0.5 * math.dist(grid.centre(a), grid.centre(b)) + 1e-9
            previous = point


def test_the_player_disc_is_drawn_on_its_cell_in_render_coordinates():
    level = mp.generate("backtracker", 5, 4, grid="hex", seed=9)
    picture = mpg.render(level, cell=16)
    for cell in (0, level.maze.grid.cells // 2, level.maze.grid.cells - 1):
        surface = picture.copy()
        centre = mpg.draw_grid_player(surface, level, cell, cell=16, colour=(1, 2, 3))
        assert centre == mpg.grid_to_pixel(level.maze.grid.centre(cell), 16)
        assert tuple(surface.get_at(centre)[:3]) == (1, 2, 3)
    shifted = pygame.Surface((200, 200))
    centre = mpg.draw_grid_player(shifted, level, 0, cell=16, offset=(7, 9))
    x, y = mpg.grid_to_pixel(level.maze.grid.centre(0), 16)
    assert centre == (x + 7, y + 9)


@pytest.mark.parametrize("call, message", [
    (lambda level: mpg.grid_step(mp.generate("kruskal", 4, 4, seed=1), 0, 0), "wrap=), not a square level"),
    (lambda level: mpg.grid_step(level, -1, 0), "cell must be a cell number from 0 to 11"),
    (lambda level: mpg.grid_step(level, 12, 0), "cell must be a cell number from 0 to 11"),
    (lambda level: mpg.grid_step(level, True, 0), "cell must be"),
    (lambda level: mpg.grid_step(level, 0, "upwards"), "direction must be an angle in degrees or one of east"),
    (lambda level: mpg.grid_step(level, 0, float("nan")), "direction must be an angle in degrees (a finite number)"),
    (lambda level: mpg.glide(level, 0, 1, 1.5), "progress must be a number from 0 to 1"),
    (lambda level: mpg.glide(level, 0, 11, 0.25), "are not neighbours"),
])
def test_bad_arguments_name_what_is_allowed(call, message):
    level = mp.generate("kruskal", 4, 3, grid="hex", seed=2)
    with pytest.raises((TypeError, ValueError)) as caught:
        call(level)
    assert message in str(caught.value)


def test_compass_names_are_the_eight_screen_directions():
    level = mp.generate("kruskal", 5, 5, wrap="xy", seed=2)
    for name, angle in mpg.COMPASS.items():
        for cell in range(level.maze.grid.cells):
            assert mpg.grid_step(level, cell, name) == mpg.grid_step(level, cell, angle)
            assert mpg.grid_step(level, cell, name.upper().replace("-", " ")) == mpg.grid_step(level, cell, angle)
