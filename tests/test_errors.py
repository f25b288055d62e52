"""Every wrong argument: a clear ValueError or TypeError naming it, before any work."""

from __future__ import annotations

import pytest

import mazeplugin as mp


def test_unknown_algorithm_lists_known_and_suggests():
    with pytest.raises(ValueError) as info:
        mp.generate("kruskall", 5, 5)
    message = str(info.value)
    assert "'kruskall'" in message and "did you mean 'kruskal'" in message
    for name in mp.algorithms():
        assert name in message


def test_algorithm_must_be_str():
    with pytest.raises(TypeError, match="algorithm must be a str"):
        mp.generate(None, 5, 5)


@pytest.mark.parametrize("name", ["width", "height"])
@pytest.mark.parametrize("value,error", [(0, ValueError), (-3, ValueError), (2.5, TypeError),
                                         ("10", TypeError), (True, TypeError), (None, TypeError)])
def test_size_must_be_positive_int(name, value, error):
    kwargs = {"width": 5, "height": 5, name: value}
    with pytest.raises(error, match=name):
        mp.generate("kruskal", **kwargs)


def test_numpy_ints_are_fine_sizes():
    import numpy as np

    assert mp.generate("kruskal", np.int64(3), np.int32(2), seed=np.uint8(4)).tiles.shape == (5, 7)


def test_huge_sizes_are_refused_with_the_limit():
    with pytest.raises(ValueError, match="too large.*16,777,216 cells"):
        mp.generate("kruskal", 100_000, 100_000)
    with pytest.raises(ValueError, match="tilemap would be"):
        mp.generate("kruskal", 4096, 4096, corridor=4)


@pytest.mark.parametrize("seed,error", [(1.5, TypeError), (b"abc", TypeError), ([1], TypeError),
                                        (True, TypeError), (-1, ValueError)])
def test_bad_seed(seed, error):
    with pytest.raises(error, match="seed"):
        mp.generate("kruskal", 4, 4, seed=seed)


def test_unknown_generator_option():
    with pytest.raises(TypeError, match="unknown option 'bias' for 'kruskal'"):
        mp.generate("kruskal", 4, 4, bias="north")


@pytest.mark.parametrize("name", ["corridor", "wall"])
def test_corridor_and_wall_must_be_positive_ints(name):
    with pytest.raises(ValueError, match=name):
        mp.generate("kruskal", 4, 4, **{name: 0})
    with pytest.raises(TypeError, match=name):
        mp.generate("kruskal", 4, 4, **{name: 1.5})


def test_register_refuses_duplicate_names():
    with pytest.raises(ValueError, match="already registered"):
        mp.register("kruskal")(lambda maze, rng: None)


def test_faulty_generator_is_caught_where_it_goes_wrong():
    @mp.register("test-faulty-leaks-off-grid", replace=True)
    def faulty(maze, rng):
        maze.east[0, -1] = True  # a passage through the outer wall

    try:
        with pytest.raises(ValueError, match="off the grid"):
            mp.generate("test-faulty-leaks-off-grid", 3, 3, seed=1)
    finally:
        mp.unregister("test-faulty-leaks-off-grid")
    assert "test-faulty-leaks-off-grid" not in mp.algorithms()
