"""mazeplugin.pg: drawing, collision, coordinates, camera and files, under SDL's dummy drivers."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from processes import child_env

pygame = pytest.importorskip("pygame")

import mazeplugin as mp  # noqa: E402
import mazeplugin.pg as mpg  # noqa: E402

P = mpg.DEFAULT_PALETTE
ALGORITHMS = ["kruskal", "backtracker", "prim", "eller"]

levels = st.builds(
    lambda algorithm, width, height, seed: mp.generate(algorithm, width, height, seed=seed),
    st.sampled_from(ALGORITHMS),
    st.integers(1, 7),
    st.integers(1, 6),
    st.integers(0, 2**32),
)


def pixels(surface: "pygame.Surface") -> np.ndarray:
    """A surface's RGB pixels indexed [y, x]."""
    return pygame.surfarray.array3d(surface).swapaxes(0, 1)


def expected_tile_colours(level: mp.Level, *, path=()) -> dict:
    """Each tile's colour worked out one tile at a time (the slow, obvious way)."""
    rows, columns = level.tiles.shape
    out = {}
    for y in range(rows):
        for x in range(columns):
            colour = P.wall if level.tiles[y, x] == mp.WALL else P.floor
            if (x, y) in path:
                colour = P.solution
            if (x, y) == level.entrance:
                colour = P.entrance
            if (x, y) == level.exit:
                colour = P.exit
            out[(x, y)] = colour
    return out


# -- drawing --------------------------------------------------------------------


def test_render_colours_every_pixel_of_a_known_level():
    level = mp.generate("kruskal", 3, 2, seed=1)
    assert str(level).splitlines()[1] == "S #   #"
    image = pixels(mpg.render(level, tile=5))
    assert image.shape == (25, 35, 3)
    assert tuple(image[7, 2]) == P.entrance  # tile (0, 1)
    assert tuple(image[7, 12]) == P.wall  # tile (2, 1)
    assert tuple(image[7, 7]) == P.floor  # tile (1, 1)
    assert tuple(image[17, 32]) == P.exit  # tile (6, 3)
    for (x, y), colour in expected_tile_colours(level).items():
        block = image[y * 5 : y * 5 + 5, x * 5 : x * 5 + 5].reshape(-1, 3)
        assert (block == colour).all(), (x, y)


@given(level=levels, tile=st.integers(1, 9))
@settings(max_examples=25)
def test_render_fills_each_tile_block_with_its_colour(level, tile):
    image = pixels(mpg.render(level, tile=tile))
    rows, columns = level.tiles.shape
    assert image.shape == (rows * tile, columns * tile, 3)
    for (x, y), colour in expected_tile_colours(level).items():
        assert (image[y * tile : (y + 1) * tile, x * tile : (x + 1) * tile] == colour).all()


@given(level=levels)
@settings(max_examples=20)
def test_solution_overlay_colours_exactly_the_path(level):
    path = set(level.solution())
    image = pixels(mpg.render(level, tile=2, show_solution=True))
    for (x, y), colour in expected_tile_colours(level, path=path).items():
        assert tuple(image[y * 2, x * 2]) == colour


@given(level=levels, data=st.data())
@settings(max_examples=20)
def test_fog_covers_every_unseen_tile_and_only_those(level, data):
    rows, columns = level.tiles.shape
    seen = np.array(data.draw(st.lists(st.booleans(), min_size=rows * columns, max_size=rows * columns)))
    seen = seen.reshape(rows, columns)
    image = pixels(mpg.render(level, tile=1, seen=seen))
    expected = expected_tile_colours(level)
    for (x, y), colour in expected.items():
        assert tuple(image[y, x]) == (colour if seen[y, x] else P.fog)


def solid(colour, size=4):
    surface = pygame.Surface((size, size))
    surface.fill(colour)
    return surface


WALL_SET = [solid((10 * i + 5, 200 - 10 * i, 7)) for i in range(16)]
FLOOR = solid((250, 250, 250))


@given(level=levels)
@settings(max_examples=20)
def test_wall_set_picks_the_image_for_each_walls_neighbour_mask(level):
    image = pixels(mpg.render_images(level, floor=FLOOR, wall_set=WALL_SET))
    tiles = level.tiles
    rows, columns = tiles.shape
    for y in range(rows):
        for x in range(columns):
            if tiles[y, x] == mp.FLOOR:
                want = (250, 250, 250)
            else:
                # The neighbour mask worked out by hand: N=1, E=2, S=4, W=8, off the map = floor.
                mask = 0
                for bit, (dx, dy) in ((1, (0, -1)), (2, (1, 0)), (4, (0, 1)), (8, (-1, 0))):
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < columns and 0 <= ny < rows and tiles[ny, nx] == mp.WALL:
                        mask |= bit
                want = (10 * mask + 5, 200 - 10 * mask, 7)
            assert (image[y * 4 : y * 4 + 4, x * 4 : x * 4 + 4] == want).all(), (x, y)


@given(level=levels, data=st.data())
@settings(max_examples=25)
def test_an_area_renders_as_the_same_pixels_as_the_whole_map(level, data):
    rows, columns = level.tiles.shape
    x = data.draw(st.integers(0, columns - 1))
    y = data.draw(st.integers(0, rows - 1))
    w = data.draw(st.integers(1, columns - x))
    h = data.draw(st.integers(1, rows - y))
    seen = np.zeros((rows, columns), dtype=bool)
    seen[:, : columns // 2] = True
    whole = pixels(mpg.render_images(level, floor=FLOOR, wall_set=WALL_SET, seen=seen))
    part = pixels(mpg.render_images(level, floor=FLOOR, wall_set=WALL_SET, seen=seen, area=(x, y, w, h)))
    assert (part == whole[y * 4 : (y + h) * 4, x * 4 : (x + w) * 4]).all()


def test_single_wall_image_and_floor_image():
    level = mp.generate("prim", 4, 3, seed=2)
    image = pixels(mpg.render_images(level, floor=solid((1, 2, 3), 3), wall=solid((9, 8, 7), 3)))
    want = np.where((level.tiles == mp.WALL)[..., None], (9, 8, 7), (1, 2, 3))
    assert (image[::3, ::3] == want).all()


def test_autotile_is_the_cores_wall_neighbours():
    level = mp.generate("kruskal", 6, 5, seed=4)
    assert (mpg.autotile(level) == mp.wall_neighbours(level.tiles)).all()


def test_simple_wall_set_differs_by_mask():
    sprites = mpg.simple_wall_set(8)
    assert len({pygame.image.tobytes(s, "RGB") if hasattr(pygame.image, "tobytes") else pygame.image.tostring(s, "RGB") for s in sprites}) == 16


def test_markers_and_solution_drawn_in_their_colours():
    level = mp.generate("kruskal", 4, 3, seed=7)
    surface = mpg.render(level, tile=20)
    surface.fill(P.floor)
    mpg.draw_markers(surface, level, tile=20)
    ex, ey = level.exit
    assert tuple(surface.get_at((ex * 20 + 6, ey * 20 + 3))[:3]) == P.exit
    ring = pixels(surface)[level.entrance[1] * 20 : level.entrance[1] * 20 + 20, 0:20]
    assert (ring == P.entrance).all(axis=2).any()
    surface.fill(P.floor)
    mpg.draw_solution(surface, level, tile=20)
    for x, y in level.solution():
        assert tuple(surface.get_at((x * 20 + 10, y * 20 + 10))[:3]) == P.solution


def test_markers_can_be_left_out():
    level = mp.generate("kruskal", 4, 3, seed=7)
    surface = pygame.Surface((180, 140))
    surface.fill(P.floor)
    mpg.draw_markers(surface, level, tile=20, entrance=False, exit=False)
    assert (pixels(surface) == P.floor).all()


def test_drawing_rejects_bad_arguments():
    level = mp.generate("kruskal", 2, 2, seed=1)
    with pytest.raises(ValueError, match="tile"):
        mpg.render(level, tile=0)
    with pytest.raises(TypeError, match="tile"):
        mpg.render(level, tile=2.5)
    with pytest.raises(ValueError, match="seen"):
        mpg.render(level, seen=np.ones((2, 2), dtype=bool))
    with pytest.raises(ValueError, match="16 images"):
        mpg.render_images(level, floor=FLOOR, wall_set=WALL_SET[:15])
    with pytest.raises(ValueError, match="exactly one"):
        mpg.render_images(level, floor=FLOOR)
    with pytest.raises(ValueError, match="same size"):
        mpg.render_images(level, floor=FLOOR, wall=solid((0, 0, 0), 5))
    with pytest.raises(ValueError, match="overlap"):
        mpg.render_images(level, floor=FLOOR, wall=solid((0, 0, 0)), area=(50, 50, 2, 2))
    with pytest.raises(ValueError, match="0..255"):
        mpg.Palette(wall=(0, 0, 300))
    with pytest.raises(ValueError, match="needs a level"):
        mpg.render(level.tiles, show_solution=True)


def test_render_takes_a_bare_tile_array():
    tiles = np.array([[1, 0], [0, 1]], dtype=np.uint8)
    image = pixels(mpg.render(tiles, tile=1))
    assert tuple(image[0, 0]) == P.wall and tuple(image[0, 1]) == P.floor


# -- collision ------------------------------------------------------------------


def overlaps_wall(tiles, rect, tile):
    """Whether a rect touches a wall tile or leaves the map (checked tile by tile)."""
    rows, columns = tiles.shape
    for ty in range(rect.top // tile, (rect.bottom - 1) // tile + 1):
        for tx in range(rect.left // tile, (rect.right - 1) // tile + 1):
            if not (0 <= tx < columns and 0 <= ty < rows) or tiles[ty, tx] != mp.FLOOR:
                return True
    return False


def step_by_pixels(tiles, rect, dx, dy, tile):
    """The obvious oracle: move one pixel at a time, x then y, stopping before a wall."""
    rect = pygame.Rect(rect)
    for axis, d in ((0, dx), (1, dy)):
        unit = (1 if d > 0 else -1, 0) if axis == 0 else (0, 1 if d > 0 else -1)
        for _ in range(abs(d)):
            nxt = rect.move(unit)
            if overlaps_wall(tiles, nxt, tile):
                break
            rect = nxt
    return rect


@given(
    level=levels,
    tile=st.integers(2, 12),
    size=st.floats(0.1, 1.0),
    moves=st.lists(st.tuples(st.integers(-30, 30), st.integers(-30, 30)), min_size=1, max_size=40),
)
@settings(max_examples=examples(60))
def test_move_rect_never_enters_a_wall_and_never_tunnels(level, tile, size, moves):
    side = max(1, int(tile * size))
    rect = pygame.Rect(0, 0, side, side)
    rect.center = mpg.tile_to_pixel(level.entrance, tile)
    assert not overlaps_wall(level.tiles, rect, tile)
    for dx, dy in moves:
        # Speeds up to a tile per frame (the promise), and beyond it in the oracle's range.
        dx, dy = max(-2 * tile, min(2 * tile, dx)), max(-2 * tile, min(2 * tile, dy))
        moved = mpg.move_rect(level, rect, dx, dy, tile=tile)
        assert moved.size == rect.size
        assert not overlaps_wall(level.tiles, moved, tile)
        # Exactly where stepping pixel by pixel stops: never through a wall, never short of one.
        assert tuple(moved) == tuple(step_by_pixels(level.tiles, rect, dx, dy, tile))
        rect = moved


def test_move_rect_stops_flush_against_a_wall():
    level = mp.generate("kruskal", 3, 2, seed=1)
    moved = mpg.move_rect(level, pygame.Rect(10, 10, 8, 8), 10, 0, tile=10)
    assert moved.right == 20  # tile (2, 1) is wall


def test_move_rect_does_not_change_its_argument():
    level = mp.generate("kruskal", 3, 2, seed=1)
    rect = pygame.Rect(10, 10, 8, 8)
    mpg.move_rect(level, rect, -5, 0, tile=10)
    assert tuple(rect) == (10, 10, 8, 8)


def test_move_rect_rounds_float_motion_for_a_rect():
    level = mp.generate("kruskal", 3, 2, seed=1)
    rect = pygame.Rect(10, 10, 8, 8)
    for dx, dy in ((1.4, 0.0), (1.6, 0.0), (-2.6, 0.4), (0.49, -0.2), (30.7, 12.2)):
        moved = mpg.move_rect(level, rect, dx, dy, tile=10)
        assert type(moved) is pygame.Rect
        assert tuple(moved) == tuple(mpg.move_rect(level, rect, round(dx), round(dy), tile=10))


def test_move_rect_takes_the_motion_as_a_vector2_or_a_pair():
    level = mp.generate("kruskal", 3, 2, seed=1)
    rect = pygame.Rect(10, 10, 8, 8)
    expected = tuple(mpg.move_rect(level, rect, 3, 0, tile=10))
    assert tuple(mpg.move_rect(level, rect, pygame.Vector2(3, 0), tile=10)) == expected
    assert tuple(mpg.move_rect(level, rect, (3, 0), tile=10)) == expected
    assert tuple(mpg.move_rect(level, rect, np.array([3.0, 0.0]), tile=10)) == expected


@pytest.mark.parametrize(
    "motion, error, match",
    [
        (("1", 0), TypeError, "dx"),
        ((0, None), TypeError, "motion"),
        ((True, 0), TypeError, "dx"),
        ((float("nan"), 0), ValueError, "finite"),
        ((0, float("inf")), ValueError, "dy"),
        (((1, 2, 3), None), TypeError, "motion"),
        (("ab", None), TypeError, "motion"),
    ],
)
def test_move_rect_rejects_motion_that_is_not_pixels(motion, error, match):
    level = mp.generate("kruskal", 3, 2, seed=1)
    with pytest.raises(error, match=match):
        mpg.move_rect(level, pygame.Rect(10, 10, 8, 8), *motion, tile=10)


def overlaps_wall_exact(tiles, x, y, w, h, tile):
    """Whether the real-valued box [x, x+w) x [y, y+h) shares area with a wall tile or leaves the map."""
    rows, columns = tiles.shape
    for ty in range(int(np.floor(y / tile)) - 1, int(np.ceil((y + h) / tile)) + 1):
        for tx in range(int(np.floor(x / tile)) - 1, int(np.ceil((x + w) / tile)) + 1):
            if tx * tile < x + w and (tx + 1) * tile > x and ty * tile < y + h and (ty + 1) * tile > y:
                if not (0 <= tx < columns and 0 <= ty < rows) or tiles[ty, tx] != mp.FLOOR:
                    return True
    return False


FRect = getattr(pygame, "FRect", None)


@pytest.mark.skipif(FRect is None, reason="pygame.FRect is pygame-ce's (this is pygame without it)")
@given(
    level=levels,
    tile=st.integers(2, 24),
    size=st.floats(0.05, 1.0),
    place=st.tuples(st.floats(0, 1), st.floats(0, 1)),
    moves=st.lists(
        st.tuples(st.floats(-10, 10), st.floats(-10, 10)).map(lambda m: (m[0] * abs(m[0]), m[1] * abs(m[1]))),
        min_size=1,
        max_size=30,
    ),
)
@settings(max_examples=examples(80))
def test_an_frect_keeps_its_sub_pixel_position_and_never_crosses_a_wall(level, tile, size, place, moves):
    """FRect in, FRect out; moves up to 100 px (many tiles) a frame never tunnel, and stop flush."""
    side = max(0.5, tile * size)
    ex, ey = level.entrance
    room = (tile - side) * 0.99  # inside the entrance tile, whatever float32 rounding does
    rect = FRect(ex * tile + place[0] * room, ey * tile + place[1] * room, side, side)
    tiles = level.tiles
    assert not overlaps_wall_exact(tiles, rect.x, rect.y, rect.w, rect.h, tile)
    for dx, dy in moves:
        across = mpg.move_rect(level, rect, dx, 0, tile=tile)
        moved = mpg.move_rect(level, across, 0, dy, tile=tile)
        assert tuple(mpg.move_rect(level, rect, dx, dy, tile=tile)) == tuple(moved)  # x first, then y
        assert tuple(mpg.move_rect(level, rect, pygame.Vector2(dx, dy), tile=tile)) == tuple(moved)
        assert type(moved) is FRect and (moved.w, moved.h) == (rect.w, rect.h)
        for before, after, d, axis in ((rect, across, dx, 0), (across, moved, dy, 1)):
            a0, a1 = (before.x, after.x) if axis == 0 else (before.y, after.y)
            length = before.w if axis == 0 else before.h
            # Never into a wall, and nothing in the swept band between start and end.
            low, high = min(a0, a1), max(a0, a1) + length
            band = (low, after.y, high - low, after.h) if axis == 0 else (after.x, low, after.w, high - low)
            assert not overlaps_wall_exact(tiles, *band, tile)
            travelled = a1 - a0
            assert travelled * d >= 0 and abs(travelled) <= abs(d) + 1e-3
            if abs(travelled) < abs(d) - 1e-3:  # stopped short: flush against a wall
                nudge = 1e-2 if d > 0 else -1e-2
                pushed = (a1 + nudge, after.y, after.w, after.h) if axis == 0 else (after.x, a1 + nudge, after.w, after.h)
                assert overlaps_wall_exact(tiles, *pushed, tile)
        rect = moved


@pytest.mark.skipif(FRect is None, reason="pygame.FRect is pygame-ce's (this is pygame without it)")
def test_an_frect_creeps_by_fractions_of_a_pixel():
    level = mp.generate("kruskal", 3, 2, seed=1)  # tile (2, 1), east of the player's tile (1, 1), is wall
    rect = FRect(10.0, 10.0, 8.0, 8.0)
    for _ in range(10):
        rect = mpg.move_rect(level, rect, 0.15, 0, tile=10)
    assert type(rect) is FRect and rect.x == pytest.approx(11.5, abs=1e-4)
    rect = mpg.move_rect(level, rect, 100.0, 0, tile=10)
    assert rect.right == pytest.approx(20.0) and rect.right <= 20.0  # flush against the wall tile (2, 1)


@given(level=levels, data=st.data())
@settings(max_examples=40)
def test_can_move_matches_the_neighbouring_tile(level, data):
    rows, columns = level.tiles.shape
    x = data.draw(st.integers(0, columns - 1))
    y = data.draw(st.integers(0, rows - 1))
    name = data.draw(st.sampled_from(sorted(mpg.DIRECTIONS)))
    dx, dy = mpg.DIRECTIONS[name]
    inside = 0 <= x + dx < columns and 0 <= y + dy < rows
    expected = inside and level.tiles[y + dy, x + dx] == mp.FLOOR
    assert mpg.can_move(level, (x, y), name) == expected
    assert mpg.can_move(level, (x, y), (dx, dy)) == expected


def test_can_move_rejects_unknown_directions():
    level = mp.generate("kruskal", 2, 2, seed=1)
    with pytest.raises(ValueError, match="direction"):
        mpg.can_move(level, (1, 1), "northeast")
    with pytest.raises(ValueError, match="one grid step"):
        mpg.can_move(level, (1, 1), (1, 1))


def test_solution_path_is_walkable_with_can_move():
    level = mp.generate("backtracker", 8, 6, seed=11)
    path = level.solution()
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        assert mpg.can_move(level, (x0, y0), (x1 - x0, y1 - y0))


# -- coordinates and camera ------------------------------------------------------


@given(x=st.integers(-50, 50), y=st.integers(-50, 50), tile=st.integers(1, 40))
def test_tile_and_pixel_helpers_agree(x, y, tile):
    rect = mpg.tile_rect((x, y), tile)
    assert mpg.pixel_to_tile(mpg.tile_to_pixel((x, y), tile), tile) == (x, y)
    assert mpg.pixel_to_tile(rect.topleft, tile) == (x, y)
    assert mpg.pixel_to_tile((rect.right - 1, rect.bottom - 1), tile) == (x, y)
    assert mpg.pixel_to_tile(rect.bottomright, tile) == (x + 1, y + 1)


@given(
    view=st.tuples(st.integers(1, 500), st.integers(1, 500)),
    world=st.tuples(st.integers(1, 2000), st.integers(1, 2000)),
    point=st.tuples(st.integers(-100, 2100), st.integers(-100, 2100)),
)
def test_camera_follows_and_clamps_to_the_map(view, world, point):
    camera = mpg.Camera(view, world)
    camera.follow(point)
    shown = camera.view_rect
    for axis in (0, 1):
        start, size = shown[axis], view[axis]
        if world[axis] >= view[axis]:
            assert 0 <= start <= world[axis] - size  # never past the map's edges
            centred = min(max(point[axis] - size / 2, 0), world[axis] - size)
            assert abs(start - centred) <= 1
        else:
            assert abs((-start) - (size - world[axis]) / 2) <= 1  # small map: centred
    assert camera.to_world(camera.to_screen(point)) == point


def test_camera_resize_keeps_the_centre_in_view():
    camera = mpg.Camera((200, 100), (1000, 1000))
    camera.follow((500, 500))
    camera.resize((400, 300))
    assert camera.view_rect.center == (500, 500)
    with pytest.raises(ValueError, match="view_size"):
        camera.resize((0, 10))


# -- files ------------------------------------------------------------------------


def test_save_png_writes_the_rendered_level(tmp_path):
    level = mp.generate("kruskal", 5, 4, seed=3)
    path = tmp_path / "level.png"
    mpg.save_png(level, path, tile=3, show_solution=True)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    loaded = pixels(pygame.image.load(str(path)))
    assert (loaded == pixels(mpg.render(level, tile=3, show_solution=True))).all()


def test_save_png_is_png_whatever_the_extension(tmp_path):
    path = tmp_path / "level.bmp"
    mpg.save_png(mp.generate("kruskal", 2, 2, seed=3), path)
    assert path.read_bytes()[:4] == b"\x89PNG"


@given(rgb=st.integers(0, 2**32).map(lambda s: np.random.default_rng(s).integers(0, 256, (3, 5, 3), dtype=np.uint8)))
@settings(max_examples=10)
def test_save_rgb_png_round_trips_exactly(tmp_path_factory, rgb):
    path = tmp_path_factory.mktemp("png") / "rgb.png"
    mpg.save_rgb_png(rgb, path)
    assert (pixels(pygame.image.load(str(path))) == rgb).all()


def test_save_rgb_png_rejects_bad_arrays(tmp_path):
    with pytest.raises(TypeError, match="uint8"):
        mpg.save_rgb_png(np.zeros((2, 2, 3), dtype=np.int64), tmp_path / "x.png")
    with pytest.raises(ValueError, match="shape"):
        mpg.save_rgb_png(np.zeros((2, 2), dtype=np.uint8), tmp_path / "x.png")


def test_mask_from_image_light_pixels_are_cells(tmp_path):
    rgb = np.array(
        [[[255, 255, 255], [0, 0, 0], [128, 128, 128]], [[127, 127, 127], [255, 0, 0], [0, 255, 0]]],
        dtype=np.uint8,
    )
    path = tmp_path / "mask.png"
    mpg.save_rgb_png(rgb, path)
    assert mpg.mask_from_image(path).tolist() == [[True, False, True], [False, False, True]]
    assert mpg.mask_from_image(path, threshold=0).all()
    assert not mpg.mask_from_image(path, threshold=256).any()
    assert mpg.mask_from_image(path).dtype == np.bool_


def test_mask_from_image_transparent_pixels_are_not_cells(tmp_path):
    surface = pygame.Surface((2, 1), pygame.SRCALPHA)
    surface.fill((255, 255, 255, 255))
    surface.set_at((1, 0), (255, 255, 255, 0))
    path = tmp_path / "alpha.png"
    pygame.image.save(surface, str(path))
    assert mpg.mask_from_image(path).tolist() == [[True, False]]


def test_mask_from_image_errors(tmp_path):
    (tmp_path / "not.png").write_bytes(b"not an image")
    with pytest.raises(ValueError, match="cannot read"):
        mpg.mask_from_image(tmp_path / "not.png")
    with pytest.raises(ValueError, match="threshold"):
        mpg.mask_from_image(tmp_path / "not.png", threshold=300)


# -- pygame is optional for the core ------------------------------------------------

BLOCK_PYGAME = "import sys; sys.modules['pygame'] = None\n"


def test_core_imports_without_pygame():
    code = BLOCK_PYGAME + "import mazeplugin as mp; mp.generate('kruskal', 3, 3, seed=1); print('ok')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=child_env())
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_pg_without_pygame_says_which_extra_to_install():
    code = BLOCK_PYGAME + "import mazeplugin.pg"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=child_env())
    assert done.returncode != 0
    assert "ImportError" in done.stderr
    assert 'pip install "mazeplugin[pygame]"' in done.stderr


def test_pygame_is_imported_only_inside_the_pg_package():
    package = os.path.dirname(mp.__file__)
    importers = []
    for folder, _, files in os.walk(package):
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(folder, name), encoding="utf-8") as file:
                    text = file.read()
                if re.search(r"^\s*(?:import|from)\s+pygame\b", text, re.MULTILINE):
                    importers.append(os.path.relpath(os.path.join(folder, name), package))
    # The pygame package mazeplugin.pg: every importer lives inside it.
    assert importers and all(path.startswith("pg" + os.sep) for path in importers), importers


# -- one drawing of any level: by tiles (tile=) or by cells' outlines (cell=) --------------------------------

ONE_OF_EACH = {
    "square": lambda: mp.generate("kruskal", 5, 4, seed=2, keys=1),
    "weave": lambda: mp.generate("backtracker", 8, 6, seed=3, weave=True),
    "wrap": lambda: mp.generate("kruskal", 5, 4, seed=2, wrap="xy"),
    "hex": lambda: mp.generate("wilson", 6, 5, grid="hex", seed=7, keys=1),
    "triangle": lambda: mp.generate("kruskal", 6, 4, grid="triangle", seed=2, treasure=1),
    "polar": lambda: mp.generate("backtracker", 5, 3, grid="polar", seed=1),
}


@pytest.mark.parametrize("kind", sorted(ONE_OF_EACH))
def test_every_level_draws_with_the_same_calls(kind, tmp_path):
    level = ONE_OF_EACH[kind]()
    picture = mpg.render(level, show_solution=True, things=True)
    if level.tiled:  # by its tiles, 8 pixels each
        assert picture.get_size() == (level.tiles.shape[1] * 8, level.tiles.shape[0] * 8)
        tiles = pygame.image.tobytes(mpg.render(level, tile=8, show_solution=True, things=True), "RGB")
        assert pygame.image.tobytes(picture, "RGB") == tiles
    else:  # by its cells, 20 pixels a grid unit
        assert pygame.image.tobytes(picture, "RGB") == pygame.image.tobytes(
            mpg.render(level, cell=20, show_solution=True, things=True), "RGB")
    mpg.save_png(level, tmp_path / "a.png")
    assert pygame.image.load(str(tmp_path / "a.png")).get_size() == picture.get_size()
    mpg.draw_things(picture, level, **({"tile": 8} if level.tiled else {"cell": 20}))


@pytest.mark.parametrize("kind", ["wrap", "hex", "triangle", "polar"])
def test_a_graph_level_saved_as_png_is_its_picture_by_cells(kind, tmp_path):
    level = ONE_OF_EACH[kind]()
    level.save(tmp_path / "saved.png", show_solution=True)
    mpg.save_png(level, tmp_path / "drawn.png", cell=20, show_solution=True)
    assert (tmp_path / "saved.png").read_bytes() == (tmp_path / "drawn.png").read_bytes()
    entrance = mpg.grid_to_pixel(level.maze.grid.centre(level.entrance_cell), 20)
    assert tuple(pygame.image.load(str(tmp_path / "saved.png")).get_at(entrance))[:3] == P.entrance


@pytest.mark.parametrize("call, message", [
    (lambda: mpg.render(ONE_OF_EACH["hex"](), tile=8, cell=20), "not both"),
    (lambda: mpg.render(ONE_OF_EACH["square"](), cell=20), "cell= draws a level on a graph grid"),
    (lambda: mpg.render(np.zeros((3, 3), np.uint8), cell=20), "not ndarray"),
    (lambda: mpg.render(ONE_OF_EACH["polar"](), cell=1), "cell must be an int from 2 to 256"),
    (lambda: mpg.render(ONE_OF_EACH["hex"](), cell=10, seen=np.ones((3, 3), bool)), "seen= fogs tiles"),
    (lambda: mpg.draw_things(pygame.Surface((9, 9)), ONE_OF_EACH["hex"]()), "give tile="),
    (lambda: mpg.draw_markers(pygame.Surface((9, 9)), ONE_OF_EACH["triangle"]()), "give cell="),
    (lambda: mpg.draw_things(pygame.Surface((9, 9)), ONE_OF_EACH["hex"](), cell=9, patrols=True), "patrols="),
])
def test_a_picture_asked_for_wrongly_is_refused_by_name(call, message):
    with pytest.raises((TypeError, ValueError), match=re.escape(message)):
        call()


def test_markers_and_solution_by_cells_land_on_cell_centres():
    level = ONE_OF_EACH["triangle"]()
    surface = pygame.Surface((300, 300))
    mpg.draw_solution(surface, level, cell=20, offset=(3, 4), colour=(1, 2, 3), width=3)
    mpg.draw_markers(surface, level, cell=20, offset=(3, 4), exit=False)
    x, y = mpg.grid_to_pixel(level.maze.grid.centre(level.entrance_cell), 20)
    assert tuple(surface.get_at((x + 3, y + 4)))[:3] == P.entrance
    x, y = mpg.grid_to_pixel(level.maze.grid.centre(level.exit_cell), 20)
    assert tuple(surface.get_at((x + 3, y + 4)))[:3] == (1, 2, 3)
