"""mazeplugin.pg draws a weave level's bridges: railings along each bridge's sides, nothing on other levels."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples

pygame = pytest.importorskip("pygame")

import mazeplugin as mp  # noqa: E402
import mazeplugin.pg as mpg  # noqa: E402

P = mpg.DEFAULT_PALETTE


def pixels(surface: "pygame.Surface") -> np.ndarray:
    return pygame.surfarray.array3d(surface).swapaxes(0, 1)  # [y, x, rgb]


def plain_render(level: mp.Level, tile: int) -> np.ndarray:
    """What render drew before bridges had railings: the tile colours, scaled up."""
    rgb = mpg.tile_colours(level)
    return np.repeat(np.repeat(rgb, tile, axis=0), tile, axis=1)


def woven(seed: int) -> mp.Level:
    level = mp.generate("backtracker", 12, 9, seed=seed, weave=True)
    assert level.weave
    return level


def test_railings_drawn_where_a_bridge_is_and_differ_from_floor() -> None:
    level, tile = woven(3), 10
    got = pixels(mpg.render(level, tile=tile))
    before = plain_render(level, tile)
    ys, xs = np.nonzero(level.bridges)
    assert len(ys) > 0
    for y, x, kind in zip(ys.tolist(), xs.tolist(), level.bridges[ys, xs].tolist()):
        square = got[y * tile:(y + 1) * tile, x * tile:(x + 1) * tile]
        assert (before[y * tile, x * tile] == P.floor).all()  # a bridge tile is floor in the tiles
        if kind == mp.UNDER_EAST_WEST:  # bridge runs north-south: railings on its west and east edges
            edges, middle = (square[:, 0], square[:, -1]), square[:, tile // 2]
        else:
            edges, middle = (square[0, :], square[-1, :]), square[tile // 2, :]
        for edge in edges:
            assert (edge == P.wall).all()
        assert (middle == P.floor).all()  # the deck between the railings stays floor


def test_render_changes_only_railing_pixels() -> None:
    level, tile = woven(8), 6
    got = pixels(mpg.render(level, tile=tile))
    expected = plain_render(level, tile)
    railings = np.zeros(got.shape[:2], dtype=bool)
    for rect in mpg.railing_rects(level, tile=tile):
        railings[rect.top:rect.bottom, rect.left:rect.right] = True
    assert railings.any()
    assert (got[~railings] == expected[~railings]).all()
    assert (got[railings] == P.wall).all()


@settings(max_examples=examples(20), deadline=None)
@given(st.sampled_from(["kruskal", "prim", "backtracker", "eller", "wilson"]), st.integers(1, 9), st.integers(1, 9),
       st.integers(0, 2**32 - 1), st.sampled_from([1, 3, 8]))
def test_levels_without_bridges_render_as_before(algorithm: str, width: int, height: int, seed: int, tile: int) -> None:
    level = mp.generate(algorithm, width, height, seed=seed)
    assert not level.weave
    assert (pixels(mpg.render(level, tile=tile)) == plain_render(level, tile)).all()
    floor, wall_set = pygame.Surface((tile, tile)), mpg.simple_wall_set(tile)
    array = mpg.render_images(level.tiles, floor=floor, wall_set=wall_set)  # a bare array has no bridges
    assert (pixels(mpg.render_images(level, floor=floor, wall_set=wall_set)) == pixels(array)).all()


def test_render_images_draws_railings_in_chunks_and_not_over_fog() -> None:
    level, tile = woven(5), 8
    floor, wall_set = pygame.Surface((tile, tile)), mpg.simple_wall_set(tile)
    whole = pixels(mpg.render_images(level, floor=floor, wall_set=wall_set))
    bare = pixels(mpg.render_images(level.tiles, floor=floor, wall_set=wall_set))
    y, x = (int(v) for v in np.argwhere(level.bridges > 0)[0])
    assert not (whole[y * tile:(y + 1) * tile, x * tile:(x + 1) * tile] ==
                bare[y * tile:(y + 1) * tile, x * tile:(x + 1) * tile]).all()
    # A chunk starting at the bridge draws the same pixels there as the whole picture.
    chunk = pixels(mpg.render_images(level, floor=floor, wall_set=wall_set, area=(x, y, 3, 3)))
    assert (chunk[:tile, :tile] == whole[y * tile:(y + 1) * tile, x * tile:(x + 1) * tile]).all()
    seen = np.ones(level.tiles.shape, dtype=bool)
    seen[y, x] = False
    fogged = pixels(mpg.render_images(level, floor=floor, wall_set=wall_set, seen=seen, fog=(1, 2, 3)))
    assert (fogged[y * tile:(y + 1) * tile, x * tile:(x + 1) * tile] == (1, 2, 3)).all()


def test_tiny_tiles_draw_no_railings() -> None:
    level = woven(3)
    for tile in (1, 2):
        assert mpg.railing_rects(level, tile=tile) == []
        assert (pixels(mpg.render(level, tile=tile)) == plain_render(level, tile)).all()


def test_save_png_shows_the_bridges(tmp_path: "os.PathLike[str]") -> None:
    level, tile = woven(3), 8
    path = os.path.join(tmp_path, "weave.png")
    mpg.save_png(level, path, tile=tile)
    saved = pixels(pygame.image.load(path))
    assert (saved == pixels(mpg.render(level, tile=tile))).all()
    y, x = (int(v) for v in np.argwhere(level.bridges > 0)[0])
    assert not (saved[y * tile:(y + 1) * tile, x * tile:(x + 1) * tile] == P.floor).all()


def test_draw_bridges_only_one_and_bad_input() -> None:
    level, tile = woven(3), 10
    ys, xs = np.nonzero(level.bridges)
    assert len(mpg.railing_rects(level, tile=tile, only=(int(xs[0]), int(ys[0])))) == 2
    assert mpg.railing_rects(level, tile=tile, only=(0, 0)) == []
    with pytest.raises(TypeError, match="level must be a mazeplugin level"):
        mpg.railing_rects(level.tiles, tile=tile)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="railing colour"):
        mpg.draw_bridges(pygame.Surface((4, 4)), level, tile=tile, colour=(300, 0, 0))
