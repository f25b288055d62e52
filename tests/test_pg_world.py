"""Drawing and walking an endless world with pygame (issue 10)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples

pygame = pytest.importorskip("pygame")

import mazeplugin as mp  # noqa: E402
import mazeplugin.pg as mpg  # noqa: E402


def pixels(surface):
    return pygame.surfarray.array3d(surface).swapaxes(0, 1)


@given(ox=st.integers(-300, 300), oy=st.integers(-300, 300), tile=st.integers(1, 3))
@settings(max_examples=25)
def test_the_view_draws_exactly_the_world_tiles_under_the_camera(ox, oy, tile):
    world = mp.World("kruskal", seed=3, chunk=(5, 4))
    view = mpg.WorldView(world, tile=tile, cache=4)
    screen = pygame.Surface((61, 47))
    screen.fill((1, 2, 3))
    view.draw(screen, (ox, oy))
    # Expected: each screen pixel shows the tile under it.
    xs = (np.arange(61) - ox) // tile
    ys = (np.arange(47) - oy) // tile
    tiles = world.tiles(int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)
    under = tiles[np.ix_(ys - ys.min(), xs - xs.min())]
    lut = np.array([mpg.DEFAULT_PALETTE.floor, mpg.DEFAULT_PALETTE.wall], dtype=np.uint8)
    assert (pixels(screen) == lut[under]).all()
    assert view.cache_info()[0] <= 4


def test_autotiled_walls_join_across_chunk_borders():
    world = mp.World("backtracker", seed=5, chunk=(3, 3))
    floor = pygame.Surface((4, 4))
    floor.fill((10, 10, 10))
    walls = mpg.simple_wall_set(4)
    view = mpg.WorldView(world, tile=4, floor=floor, wall_set=walls)
    screen = pygame.Surface((48, 48))
    view.draw(screen, (0, 0))  # chunks (0, 0), (1, 0), (0, 1), (1, 1): 12 × 12 tiles
    tiles = world.tiles(-1, -1, 13, 13)
    whole = mpg.render_images(tiles, floor=floor, wall_set=walls, area=(1, 1, 12, 12))
    assert (pixels(screen) == pixels(whole)).all()


@given(
    x=st.integers(-200, 200), y=st.integers(-200, 200),
    dx=st.integers(-40, 40), dy=st.integers(-40, 40), size=st.integers(2, 7),
)
@settings(max_examples=examples(60))
def test_walking_the_world_is_move_rect_on_the_world_tiles(x, y, dx, dy, size):
    world = mp.World("prim", seed=2, chunk=(4, 4))
    view = mpg.WorldView(world, tile=8)
    rect = pygame.Rect(x, y, size, size)
    moved = view.move_rect(rect, dx, dy)
    # The same move on one big window of the world (far larger than the move).
    ox, oy = -40, -40
    tiles = world.tiles(ox, oy, 40, 40)
    expected = mpg.move_rect(tiles, rect.move(-ox * 8, -oy * 8), dx, dy, tile=8).move(ox * 8, oy * 8)
    assert moved == expected


def test_the_view_checks_its_arguments():
    world = mp.World("kruskal", seed=1, chunk=(4, 4))
    with pytest.raises(TypeError, match="world"):
        mpg.WorldView(mp.generate("kruskal", 4, 4, seed=1))
    with pytest.raises(ValueError, match="tile"):
        mpg.WorldView(world, tile=0)
    with pytest.raises(ValueError, match="cache"):
        mpg.WorldView(world, cache=0)
    with pytest.raises(ValueError, match="wall_set"):
        mpg.WorldView(world, floor=pygame.Surface((8, 8)))
    with pytest.raises(ValueError, match="floor"):
        mpg.WorldView(world, tile=8, floor=pygame.Surface((4, 4)), wall_set=mpg.simple_wall_set(4))


def test_the_endless_camera_follows_anywhere_without_clamping():
    camera = mpg.EndlessCamera((200, 100))
    camera.follow((-1000, -3000))
    assert camera.to_screen((-1000, -3000)) == (100, 50)
    assert camera.to_world((100, 50)) == (-1000, -3000)
    camera.resize((400, 300))
    assert camera.to_screen((-1000, -3000)) == (200, 150)
    with pytest.raises(ValueError, match="smoothing"):
        camera.follow((0, 0), smoothing=0)


def test_things_in_view_are_drawn_unless_taken():
    world = mp.World("backtracker", seed=4, chunk=(6, 6), treasure=2)
    view = mpg.WorldView(world, tile=4)
    screen = pygame.Surface((100, 100))
    shown = view.draw_things(screen, (0, 0))
    inside = world.things(0, 0, 25, 25)
    assert shown == len(inside) > 0
    taken = {(inside[0].props["chunk"], inside[0].id)}
    assert view.draw_things(screen, (0, 0), taken=taken) == len(inside) - 1


@pytest.mark.skipif(not hasattr(pygame, "FRect"), reason="FRect is pygame-ce's")
def test_walking_the_world_keeps_an_frect_and_its_sub_pixel_position():
    world = mp.World("prim", seed=2, chunk=(4, 4))
    view = mpg.WorldView(world, tile=8)
    start = pygame.FRect(0, 0, 4, 4)
    start.center = mpg.tile_to_pixel(world.spawn, 8)
    moved = view.move_rect(start, pygame.Vector2(0.25, 0))
    assert isinstance(moved, pygame.FRect)
    tiles = world.tiles(-40, -40, 40, 40)
    expected = mpg.move_rect(tiles, start.move(320, 320), 0.25, 0, tile=8).move(-320, -320)
    assert (moved.x, moved.y) == (expected.x, expected.y)
