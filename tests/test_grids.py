"""Grids beyond the square (issue 21): hex, triangle and polar topologies, their generators and levels.

Properties checked on every grid: a perfect generator's maze is a spanning
tree (cells − 1 passages, one piece); Wilson and Aldous–Broder draw every
spanning tree equally often (χ² over all of them, as tests/test_uniformity.py
does for the square) while the backtracker does not; a seed gives the same
maze forever (golden digests); each grid's geometry agrees with its
neighbours; a hex level's tilemap joins exactly the cells its passages join.
"""

from __future__ import annotations

import collections
import hashlib
import itertools
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.analysis import grid_distances
from mazeplugin._compiled import kernel
from mazeplugin.pipeline import run_on_grid
from mazeplugin.grids import GridMaze, HexGrid, PolarGrid, TriangleGrid, make_grid
from mazeplugin.grids.hextiles import hex_neighbour_tiles
from mazeplugin.seeds import Random
from mazeplugin.unionfind import DisjointSets
from test_uniformity import chi_square, chi_square_critical

GRID_GENERATORS = mp.algorithms(grid="hex")  # every generator over the neighbour interface


def grid_kernel(algorithm: str) -> str:
    """The kernel that runs ``algorithm`` on a grid: its own (one for every grid), or its grid twin."""
    from mazeplugin._compiled import KERNELS

    return f"graph-{algorithm}" if f"graph-{algorithm}" in KERNELS else algorithm
PERFECT = [name for name in GRID_GENERATORS if mp.get_generator(name).perfect]

GRIDS = ["hex", "triangle", "polar"]


def pieces(grid, open_) -> int:
    sets = DisjointSets(grid.cells)
    ends = grid.edges[np.asarray(open_, dtype=bool)]
    sets.union_each(ends[:, 0].tolist(), ends[:, 1].tolist())
    return sets.count


def grid_digest(level) -> str:
    h = hashlib.sha256(repr((level.grid, level.maze.grid.cells, level.entrance_cell, level.exit_cell)).encode())
    h.update(level.maze.open.tobytes())
    return h.hexdigest()[:16]


sizes = st.tuples(st.sampled_from(GRIDS), st.integers(2, 9), st.integers(1, 6))


@settings(max_examples=60, deadline=None)
@given(size=sizes, algorithm=st.sampled_from(sorted(PERFECT)), seed=st.integers(0, 2**64))
def test_perfect_generators_make_spanning_trees_on_every_grid(size, algorithm, seed):
    grid = make_grid(*size)
    open_ = run_on_grid(algorithm, grid, Random.from_seed(seed))
    assert int(open_.sum()) == grid.cells - 1
    assert pieces(grid, open_) == 1


@settings(max_examples=30, deadline=None)
@given(size=sizes, seed=st.integers(0, 2**32))
def test_union_find_web_joins_entrance_and_exit_without_loops(size, seed):
    level = mp.generate("union-find", size[1], size[2], grid=size[0], seed=seed)
    assert level.solution_cells()[0] == level.entrance_cell and level.solution_cells()[-1] == level.exit_cell
    assert level.stats().loops == 0  # a forest: every opened passage joined two pieces


@settings(max_examples=40, deadline=None)
@given(size=sizes, algorithm=st.sampled_from(sorted(GRID_GENERATORS)), seed=st.integers(0, 2**32))
def test_same_seed_same_maze_and_the_level_answers_agree(size, algorithm, seed):
    grid, width, height = size
    level = mp.generate(algorithm, width, height, grid=grid, seed=seed)
    again = mp.generate(algorithm, width, height, grid=grid, seed=seed)
    assert np.array_equal(level.maze.open, again.maze.open)
    way = level.solution_cells()
    assert way[0] == level.entrance_cell and way[-1] == level.exit_cell
    assert all(b in level.maze.linked(a).tolist() for a, b in zip(way, way[1:]))
    distances = level.distances_cells()
    assert distances[level.exit_cell] == len(way) - 1
    stats = level.stats()
    assert stats.solution_length == len(way) and stats.passages == int(level.maze.open.sum())
    assert stats.dead_ends == len(level.dead_ends())


def test_different_seeds_give_different_mazes():
    mazes = {mp.generate("wilson", 8, 6, grid="hex", seed=s).maze.open.tobytes() for s in range(10)}
    assert len(mazes) == 10


# -- uniformity --------------------------------------------------------------------


def spanning_trees(grid):
    """Every spanning tree of a small grid, as the bytes of its ``open`` array."""
    found = []
    for subset in itertools.combinations(range(len(grid.edges)), grid.cells - 1):
        open_ = np.zeros(len(grid.edges), dtype=bool)
        open_[list(subset)] = True
        if pieces(grid, open_) == 1:
            found.append(open_.tobytes())
    return found


def tree_counts(algorithm, grid, samples):
    counts: collections.Counter = collections.Counter()
    for seed in range(samples):
        counts[run_on_grid(algorithm, grid, Random.from_seed(seed)).tobytes()] += 1
    return counts


@pytest.mark.parametrize("grid,per_tree", [(HexGrid(3, 2), 200), (TriangleGrid(4, 3), 300)])
@pytest.mark.parametrize("algorithm", ["wilson", "aldous-broder"])
def test_uniform_generators_draw_every_spanning_tree_equally(algorithm, grid, per_tree):
    trees = spanning_trees(grid)
    assert len(trees) == {"hex": 55, "triangle": 35}[grid.name]
    counts = tree_counts(algorithm, grid, per_tree * len(trees))
    assert set(counts) == set(trees)  # only spanning trees, and every one of them
    assert chi_square(counts, len(trees)) < chi_square_critical(len(trees) - 1)


def test_the_uniformity_check_rejects_a_biased_generator():
    grid = HexGrid(3, 2)
    trees = spanning_trees(grid)
    counts = tree_counts("backtracker", grid, 200 * len(trees))
    assert chi_square(counts, len(trees)) > chi_square_critical(len(trees) - 1)


# -- golden digests: these levels must never change -------------------------------------

GOLDEN = {
    ("aldous-broder", "triangle", 8, 5, 11): "64af7e398d4cdc0b",
    ("backtracker", "hex", 12, 8, 7): "8c9f8e108a7cc9ef",
    ("growing-tree", "hex", 10, 4, 5): "a022ef0e6b6682d5",
    ("hunt-and-kill", "polar", 1, 6, 2): "ec260db1ebb53495",
    ("kruskal", "triangle", 14, 6, 3): "ca745fc159cc897b",
    ("prim", "polar", 6, 5, 7): "a98de5d56c89329c",
    ("prim-simplified", "triangle", 9, 4, 8): "707d6a3110bb9bd8",
    ("union-find", "hex", 8, 8, 1): "a91201346efd4bbf",
    ("wilson", "hex", 9, 6, "castle"): "2861ef4bd97357ea",
    ("backtracker", "square", 10, 7, 3, "x"): "d9edced746524336",
    ("wilson", "square", 8, 8, 5, "xy"): "1784b9f0f98d3707",
    ("kruskal", "square", 6, 9, 1, "y"): "8dde292bd73db4b1",
}


GOLDEN_BRAIDED = "85a93e9166c38b2f"  # backtracker, hex, 10 x 7, seed 11, braid=0.6


@pytest.mark.parametrize("key", sorted(GOLDEN, key=repr))
def test_golden_grid_levels(key):
    algorithm, grid, width, height, seed, *wrap = key
    level = mp.generate(algorithm, width, height, grid=grid, seed=seed, **({"wrap": wrap[0]} if wrap else {}))
    assert grid_digest(level) == GOLDEN[key]


# -- geometry: each grid's outlines agree with its neighbours --------------------------


@pytest.mark.parametrize("grid", [HexGrid(5, 4), HexGrid(1, 3), TriangleGrid(6, 3), TriangleGrid(3, 1),
                                  PolarGrid(1, 4), PolarGrid(6, 4), PolarGrid(2, 3), PolarGrid(3, 1)],
                         ids=repr)
def test_every_edge_is_one_side_of_each_of_its_two_cells(grid):
    seen = collections.Counter()
    for cell in range(grid.cells):
        for other, line in grid.sides(cell):
            assert len(line) >= 2
            if other >= 0:
                seen[(min(cell, other), max(cell, other))] += 1
                assert other in grid.neighbours_of(cell).tolist()
    assert sorted(seen) == sorted(map(tuple, grid.edges.tolist()))
    assert set(seen.values()) == {2}
    width, height = grid.extent()
    points = np.array([p for c in range(grid.cells) for _, line in grid.sides(c) for p in line])
    assert points.min() >= -1e-9 and points[:, 0].max() <= width + 1e-9 and points[:, 1].max() <= height + 1e-9


def test_polar_rings_split_outward_and_every_cell_has_one_parent():
    grid = PolarGrid(6, 6)
    sizes = grid.ring_sizes
    assert sizes[0] == 6 and all(b % a == 0 and b >= a for a, b in zip(sizes, sizes[1:]))
    for ring in range(1, len(sizes)):
        for index in range(sizes[ring]):
            cell = grid.cell_at(ring, index)
            inward = [n for n in grid.neighbours_of(cell).tolist() if grid.ring_of(n)[0] == ring - 1]
            assert len(inward) == 1


@settings(max_examples=25, deadline=None)
@given(grid=st.sampled_from(GRIDS), width=st.integers(2, 7), height=st.integers(1, 5), seed=st.integers(0, 999))
def test_the_picture_draws_a_wall_on_every_closed_side_and_nowhere_else(grid, width, height, seed):
    level = mp.generate("kruskal", width, height, grid=grid, seed=seed)
    g = level.maze.grid
    rim = sum(1 for c in range(g.cells) for other, _ in g.sides(c) if other < 0)
    openings = sum(1 for _, side in level.openings if side is not None)
    closed = len(g.edges) - int(level.maze.open.sum())
    assert len(level.walls()) == rim - openings + closed
    svg = ET.fromstring(level.to_svg(12, show_solution=True))
    assert {e.get("class") for e in svg} >= {"walls", "solution", "entrance", "exit"}


# -- hex levels are tilemaps -------------------------------------------------------------


def floor_reached(tiles, start):
    rows, cols = tiles.shape
    seen, todo = {start}, [start]
    while todo:
        col, row = todo.pop()
        for c, r in hex_neighbour_tiles(col, row):
            if 0 <= r < rows and 0 <= c < cols and tiles[r, c] == 0 and (c, r) not in seen:
                seen.add((c, r))
                todo.append((c, r))
    return seen


@settings(max_examples=40, deadline=None)
@given(width=st.integers(1, 9), height=st.integers(1, 7), seed=st.integers(0, 2**32),
       algorithm=st.sampled_from(sorted(GRID_GENERATORS)))
def test_hex_tiles_join_exactly_the_cells_the_passages_join(width, height, seed, algorithm):
    level = mp.generate(algorithm, width, height, grid="hex", seed=seed)
    tiles = level.tiles
    assert tiles.shape == (2 * height + 1, 2 * width + 2) and tiles.dtype == np.uint8
    assert int((tiles == 0).sum()) == level.maze.grid.cells + int(level.maze.open.sum()) + 2
    assert tiles[0].all() and tiles[-1].all()  # a wall margin above and below
    reached = floor_reached(tiles, level.entrance_tile)
    assert level.exit_tile in reached
    cell_of_tile = {level.cell_tile(c): c for c in range(level.maze.grid.cells)}
    reached_cells = {cell_of_tile[t] for t in reached if t in cell_of_tile}
    assert reached_cells == set(np.flatnonzero(level.distances_cells() >= 0).tolist())
    assert reached == {(int(x), int(y)) for y, x in zip(*np.nonzero(level.distances() >= 0))}  # tile steps
    way = level.solution_tiles()
    assert way[0] == level.entrance_tile and way[-1] == level.exit_tile
    assert all(tiles[r, c] == 0 for c, r in way)
    assert all(b in hex_neighbour_tiles(*a) for a, b in zip(way, way[1:]))
    assert len(way) == 2 * len(level.solution_cells()) + 1


def test_hex_level_text_shows_odd_rows_shifted():
    text = str(mp.generate("backtracker", 3, 2, grid="hex", seed=1)).splitlines()
    assert len(text) == 5 and text[1].startswith(" ") and not text[0].startswith(" ")


@pytest.mark.parametrize("grid", ["triangle", "polar"])
def test_triangle_and_polar_levels_say_they_have_no_tilemap(grid, tmp_path):
    level = mp.generate("wilson", 4, 3, grid=grid, seed=1)
    with pytest.raises(ValueError, match="no rectangular tilemap"):
        level.tiles
    with pytest.raises(ValueError, match=rf"a {grid} level cannot be saved as \.tmx \(a Tiled map holds square and hex"):
        level.save(tmp_path / "never-written.tmx")
    assert list(tmp_path.iterdir()) == []


def test_hex_tmx_loads_in_pytmx_as_the_same_hexagonal_map(tmp_path):
    pytmx = pytest.importorskip("pytmx")
    level = mp.generate("wilson", 7, 5, grid="hex", seed=4)
    path = tmp_path / "hex.tmx"
    level.save(path, tile=24)
    tiled = pytmx.TiledMap(str(path))
    assert (tiled.orientation, tiled.staggeraxis, tiled.staggerindex) == ("hexagonal", "y", "odd")
    assert int(tiled.hexsidelength) == 12 and (tiled.tileheight, tiled.tilewidth) == (24, 21)
    assert (tiled.height, tiled.width) == level.tiles.shape
    layer = tiled.get_layer_by_name("maze")
    walls = np.array([[bool(tiled.get_tile_properties_by_gid(gid)["wall"]) for gid in row] for row in layer.data])
    assert np.array_equal(walls, level.tiles == 1)
    markers = {obj.name: (obj.x, obj.y) for obj in tiled.get_layer_by_name("markers")}
    assert set(markers) == {"entrance", "exit"}
    assert tiled.properties["grid"] == "hex" and tiled.properties["generator"] == "wilson"
    assert (tmp_path / "mazeplugin-hex-24.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_hex_tmx_loads_in_pytiled_parser(tmp_path):
    pytiled_parser = pytest.importorskip("pytiled_parser")
    level = mp.generate("backtracker", 6, 4, grid="hex", seed=9)
    path = tmp_path / "hex.tmx"
    level.save(path)
    tiled = pytiled_parser.parse_map(path)
    assert (tiled.orientation, tiled.stagger_axis, tiled.stagger_index) == ("hexagonal", "y", "odd")
    assert tiled.hex_side_length == 16 and (tiled.map_size.height, tiled.map_size.width) == level.tiles.shape
    layer = next(layer for layer in tiled.layers if layer.name == "maze")
    assert np.array_equal(np.array(layer.data) - 1, level.tiles)  # gid 1 floor, 2 wall


# -- the square path is unchanged; bad requests get one clear error ---------------------------


@pytest.mark.parametrize("algorithm", ["kruskal", "backtracker", "eller", "division"])
def test_grid_square_is_todays_level_byte_for_byte(algorithm):
    today = mp.generate(algorithm, 12, 9, seed=5)
    square = mp.generate(algorithm, 12, 9, seed=5, grid="square")
    assert type(square) is mp.Level
    assert square.tiles.tobytes() == today.tiles.tobytes() and square.options == today.options


@pytest.mark.parametrize("kwargs,error,words", [
    (dict(algorithm="eller"), ValueError, "algorithm 'eller' runs only on the square grid"),
    (dict(algorithm="division"), ValueError, "generators for grid='hex'"),
    (dict(grid="cube"), ValueError, "grid must be one of"),
    (dict(grid=None), ValueError, "grid must be one of"),
    (dict(corridor=2), ValueError, "corridor= is for square levels only"),
    (dict(wall=3), ValueError, "wall= is for square levels only"),
    (dict(mask=["#"]), ValueError, "mask= is for square levels only"),
    (dict(rooms=2), ValueError, "rooms= is for square levels only"),
    (dict(braid=1.5), ValueError, "braid"),
    (dict(doors=2), ValueError, "doors= is for square levels only"),
    (dict(markers="farthest"), ValueError, "markers must be 'border' or 'none'"),
    (dict(grid="polar", height=0), ValueError, "height \\(the number of rings"),
    (dict(grid="polar", width=0), ValueError, "width \\(the cells of the innermost ring"),
    (dict(grid="triangle", width=1), ValueError, "width must be at least 2 for grid='triangle'"),
    (dict(width=5000, height=5000), ValueError, "a hex maze may have at most"),
    (dict(width="4"), TypeError, "width must be an int"),
    (dict(algorithm="growing-tree", strategy="sideways"), ValueError, "strategy"),
    (dict(bias="north"), TypeError, "takes no options; got bias"),
    (dict(algorithm="nope"), ValueError, "nope"),
])
def test_bad_grid_requests_get_one_clear_error(kwargs, error, words):
    request = dict(algorithm="kruskal", width=4, height=3, grid="hex", seed=1)
    request.update(kwargs)
    with pytest.raises(error, match=words):
        mp.generate(**request)


def test_markers_none_leaves_no_entrance_or_exit():
    level = mp.generate("kruskal", 5, 4, grid="hex", seed=2, markers="none")
    assert level.entrance is None and level.entrance_cell is None and level.entrance_tile is None
    assert int((level.tiles == 0).sum()) == level.maze.grid.cells + int(level.maze.open.sum())
    with pytest.raises(ValueError, match="no entrance and exit"):
        level.solution_cells()
    assert level.distances_cells(0)[0] == 0 and level.distances(0)[level.cell_tile(0)[::-1]] == 0


def test_require_works_on_grids():
    level = mp.generate("backtracker", 10, 8, grid="hex", seed=3, require={"dead_ends": (12, None)})
    assert level.stats().dead_ends >= 12 and level.grid == "hex"
    with pytest.raises(ValueError, match="no candidate"):
        mp.generate("backtracker", 4, 3, grid="triangle", seed=3, require={"dead_ends": (50, None)}, attempts=3)


def test_grid_distances_check_cell_numbers():
    maze = GridMaze(TriangleGrid(3, 1))
    with pytest.raises(ValueError, match="source must be a cell number from 0 to 2"):
        grid_distances(maze, 3)


COMPILED_CASES = [(algorithm, {}) for algorithm in sorted(GRID_GENERATORS) if algorithm != "growing-tree"] + [
    ("growing-tree", {"strategy": strategy})
    for strategy in ("newest", "oldest", "middle", "random", "newest:0.5", "oldest:0.25", "middle:0.75",
                     "random:0.5", "newest:0")
]
every_grid = st.one_of(sizes.map(lambda size: size + (None,)),
                       st.tuples(st.just("square"), st.integers(3, 9), st.integers(3, 7), st.sampled_from(["x", "y", "xy"])))


@pytest.mark.parametrize("algorithm, options", COMPILED_CASES, ids=lambda case: str(case))
@settings(max_examples=12, deadline=None)
@given(size=every_grid, seed=st.integers(0, 2**64), batch=st.sampled_from([1, 2, 5, 64, 1 << 16]), data=st.data())
def test_compiled_grid_generators_make_the_plain_loops_passages(algorithm, options, size, seed, batch, data):
    # Same grid, seed and options: the compiled kernel reads the plain loop's floats in order and
    # opens the same passages, whatever batches the raw words come in (a batch of 1 resumes every step).
    pytest.importorskip("numba")
    import os
    from unittest import mock

    from mazeplugin._compiled import draws

    grid = make_grid(*size)
    start = data.draw(st.integers(0, grid.cells - 1), label="start")
    goal = data.draw(st.integers(0, grid.cells - 1), label="goal")
    with mock.patch.dict(os.environ, {"MAZEPLUGIN_COMPILED": "0"}):
        plain = run_on_grid(algorithm, grid, Random.from_seed(seed), start, goal, options)
    with mock.patch.dict(os.environ, {"MAZEPLUGIN_COMPILED": "1"}), mock.patch.object(draws, "BATCH", batch):
        assert kernel(grid_kernel(algorithm), grid.cells) is not None  # the compiled loop does run
        compiled = run_on_grid(algorithm, grid, Random.from_seed(seed), start, goal, options)
    assert compiled.dtype == np.bool_ and compiled.shape == (len(grid.edges),)
    assert np.array_equal(plain, compiled)


@pytest.mark.parametrize("algorithm", ["aldous-broder", "wilson"])
@pytest.mark.parametrize("size, kinds", [(("hex", 30, 20), np.uint8), (("polar", 3, 30), np.int32)])
def test_compiled_walks_match_the_plain_ones_with_few_and_with_many_kinds_of_cell(algorithm, size, kinds):
    # The walks read a cell's steps from its kind: a dozen kinds on hex (one byte per cell),
    # one per cell on a large polar grid (the other code path): both must walk as the plain loop.
    pytest.importorskip("numba")
    import os
    from unittest import mock

    from mazeplugin._compiled.grid import graph_arrays, walk_steps

    grid = make_grid(*size)
    assert walk_steps(*graph_arrays(grid)[:2])[0].dtype == kinds
    for seed in range(3):
        with mock.patch.dict(os.environ, {"MAZEPLUGIN_COMPILED": "0"}):
            plain = run_on_grid(algorithm, grid, Random.from_seed(seed))
        with mock.patch.dict(os.environ, {"MAZEPLUGIN_COMPILED": "1"}):
            compiled = run_on_grid(algorithm, grid, Random.from_seed(seed))
        assert np.array_equal(plain, compiled)


@settings(max_examples=40, deadline=None)
@given(size=every_grid)
def test_compiled_grid_rows_are_the_numpy_rows(size):
    # Grid.__init__'s compressed neighbour rows: a counting sort when compiled, a stable argsort
    # in numpy; generators read them, so they must be the same arrays.
    pytest.importorskip("numba")
    import os
    from unittest import mock

    with mock.patch.dict(os.environ, {"MAZEPLUGIN_COMPILED": "0"}):
        plain = make_grid(*size)
    with mock.patch.dict(os.environ, {"MAZEPLUGIN_COMPILED": "1"}):
        assert kernel("grid-rows") is not None
        compiled = make_grid(*size)
    for name in ("edges", "offsets", "neighbours", "edge_ids"):
        a, b = getattr(plain, name), getattr(compiled, name)
        assert a.dtype == b.dtype == np.int64 and np.array_equal(a, b), name


@settings(max_examples=60, deadline=None)
@given(grid=st.sampled_from(["hex", "triangle", "square"]), width=st.integers(1, 12), height=st.integers(1, 12),
       wrap=st.sampled_from([None, "x", "y", "xy"]))
def test_compiled_lattice_pass_makes_the_numpy_edges_and_rows(grid, width, height, wrap):
    # Hex, triangle and (wrapping) square grids build edges and rows in one compiled pass; the numpy
    # path must give the same arrays at every size, thin strips and wraps too narrow to wrap included.
    pytest.importorskip("numba")
    import os
    from unittest import mock

    from mazeplugin.grids import HexGrid, SquareGrid, TriangleGrid

    build = {"hex": lambda: HexGrid(width, height), "triangle": lambda: TriangleGrid(width, height),
             "square": lambda: SquareGrid(width, height, wrap)}[grid]
    with mock.patch.dict(os.environ, {"MAZEPLUGIN_COMPILED": "0"}):
        plain = build()
    with mock.patch.dict(os.environ, {"MAZEPLUGIN_COMPILED": "1"}):
        compiled = build()
        assert kernel("grid-rows") is not None  # asked on the compiled path (the suite may run with "0")
    assert plain.cells == compiled.cells == width * height
    for name in ("edges", "offsets", "neighbours", "edge_ids"):
        a, b = getattr(plain, name), getattr(compiled, name)
        assert a.dtype == b.dtype == np.int64 and a.shape == b.shape and np.array_equal(a, b), name
    assert compiled.edges.shape[1:] == (2,) and compiled.edges.flags.c_contiguous


def test_every_grid_generator_has_a_compiled_kernel():
    from mazeplugin._compiled import KERNELS

    assert {grid_kernel(algorithm) for algorithm in GRID_GENERATORS} <= set(KERNELS)


@pytest.mark.parametrize("grid", GRIDS)
def test_png_pictures_of_grid_levels_show_walls_markers_and_solution(grid, tmp_path):
    pygame = pytest.importorskip("pygame")
    import mazeplugin.pg as mpg

    level = mp.generate("backtracker", 6, 4, grid=grid, seed=3)
    path = tmp_path / f"{grid}.png"
    level.save(path, cell=16, show_solution=True)
    picture = pygame.image.load(str(path))
    palette = mpg.DEFAULT_PALETTE
    assert picture.get_size() == mpg.render(level, cell=16).get_size()
    colours = {tuple(picture.get_at((x, y)))[:3] for x in range(picture.get_width())
               for y in range(picture.get_height())}
    assert {palette.wall, palette.floor, palette.entrance, palette.exit, palette.solution} <= colours
    entrance = mpg.grid_to_pixel(level.maze.grid.centre(level.entrance_cell), 16)
    assert tuple(picture.get_at(entrance))[:3] == palette.entrance
    with pytest.raises(ValueError, match="cell must be an int"):
        mpg.render(level, cell=0)


@settings(max_examples=20, deadline=None)
@given(size=sizes, algorithm=st.sampled_from(sorted(GRID_GENERATORS)),
       seed=st.one_of(st.integers(0, 2**64), st.text(min_size=1, max_size=12).filter(lambda t: "+" not in t)))
def test_level_codes_carry_the_grid(size, algorithm, seed):
    grid, width, height = size
    level = mp.generate(algorithm, width, height, grid=grid, seed=seed)
    try:
        code = mp.level_code(level)
    except ValueError:  # a text seed that reads as another code: level_code refuses it, as for squares
        return
    assert code.startswith(f"{algorithm}-{grid}{width}x{height}-")
    again = mp.level_from_code(code)
    assert again.grid == grid and np.array_equal(again.maze.open, level.maze.open)


def test_one_reader_reads_square_and_grid_codes_and_the_old_one_warns():
    assert mp.parse_level_code("kruskal-20x15-7").grid == "square"
    assert mp.level_from_code("wilson-hex12x8-7").grid == "hex"
    assert isinstance(mp.level_from_code("wilson-12x8-7"), mp.Level)
    with pytest.raises(ValueError, match="rooms= is for square levels only"):
        mp.level_from_code("wilson-hex12x8-7+r2")
    with pytest.deprecated_call(match=r"mp\.grid_level_from_code\(text\) is deprecated; use mp\.level_from_code"):
        assert mp.grid_level_from_code("wilson-hex12x8-7").to_json() == mp.level_from_code("wilson-hex12x8-7").to_json()
    with pytest.raises(ValueError, match="names a square level"), pytest.deprecated_call():
        mp.grid_level_from_code("wilson-12x8-7")



# -- wrap: cylinders and tori on the square grid ----------------------------------------------

wraps = st.tuples(st.sampled_from(["x", "y", "xy"]), st.integers(3, 9), st.integers(3, 7))


def wrapped_floor_reached(tiles, start, wrap):
    rows, cols = tiles.shape
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if "x" in wrap and nx in (-1, cols):  # the edge columns are one column, seen from both sides
                nx = cols - 1 if nx < 0 else 0
            if "y" in wrap and ny in (-1, rows):
                ny = rows - 1 if ny < 0 else 0
            if 0 <= ny < rows and 0 <= nx < cols and tiles[ny, nx] == 0 and (nx, ny) not in seen:
                seen.add((nx, ny))
                todo.append((nx, ny))
    return seen


@settings(max_examples=40, deadline=None)
@given(shape=wraps, algorithm=st.sampled_from(sorted(GRID_GENERATORS)), seed=st.integers(0, 2**32))
def test_wrapping_levels_open_each_wrap_passage_on_both_edges(shape, algorithm, seed):
    wrap, width, height = shape
    level = mp.generate(algorithm, width, height, seed=seed, wrap=wrap)
    grid, tiles = level.maze.grid, level.tiles
    assert tiles.shape == (2 * height + 1, 2 * width + 1) and level.grid == "square"
    if algorithm in PERFECT:
        assert int(level.maze.open.sum()) == width * height - 1 and pieces(grid, level.maze.open) == 1
    passages = level.maze.passages()
    across = np.abs(passages[:, 0] % width - passages[:, 1] % width) + np.abs(
        passages[:, 0] // width - passages[:, 1] // width) > 1
    openings = sum(1 for _, side in level.openings if side is not None)
    assert int((tiles == 0).sum()) == width * height + len(passages) + int(across.sum()) + openings
    if "x" not in wrap:
        assert not across[passages[:, 0] // width == passages[:, 1] // width].any()
    reached = wrapped_floor_reached(tiles, level.entrance_tile, wrap)
    assert level.exit_tile in reached
    way = level.solution_tiles()
    assert way[0] == level.entrance_tile and way[-1] == level.exit_tile
    for (ax, ay), (bx, by) in zip(way, way[1:]):
        assert tiles[by, bx] == 0
        step = abs(ax - bx) + abs(ay - by) == 1
        jump = (ay == by and {ax, bx} == {0, 2 * width}) or (ax == bx and {ay, by} == {0, 2 * height})
        assert step or jump


def test_a_wrap_passage_is_a_short_way_round():
    level = mp.generate("kruskal", 9, 3, seed=4, wrap="x")
    grid = level.maze.grid
    assert grid.cell_at(0, 1) in grid.neighbours_of(grid.cell_at(8, 1)).tolist()
    assert "wrap" in level.options and level.options["wrap"] == "x"
    assert mp.level_code(level) == "kruskal-9x3-4+wrapx"  # wrap is a topology a code holds (issue 29)


@pytest.mark.parametrize("kwargs,words", [
    (dict(wrap="z"), "wrap must be None, 'x', 'y' or 'xy'"),
    (dict(wrap="x", grid="hex"), "wrap= is for grid='square' only"),
    (dict(wrap="x", algorithm="eller"), "algorithm 'eller' cannot wrap"),
    (dict(wrap="x", width=2), "wrap='x' needs at least 3 cells across"),
    (dict(wrap="xy", height=2), "wrap='xy' needs at least 3 cells across"),
    (dict(wrap="y", mask=["#"]), "mask= cannot be combined with wrap="),
    (dict(wrap="x", rooms=2), "rooms= cannot be combined with wrap="),
])
def test_bad_wrap_requests_get_one_clear_error(kwargs, words):
    request = dict(algorithm="kruskal", width=5, height=4, seed=1)
    request.update(kwargs)
    with pytest.raises(ValueError, match=words):
        mp.generate(**request)


# -- JSON: the format every grid level round-trips through ------------------------------------


@settings(max_examples=40, deadline=None)
@given(size=st.one_of(sizes, wraps.map(lambda w: ("square",) + w[1:] + (w[0],))),
       algorithm=st.sampled_from(sorted(GRID_GENERATORS)), seed=st.one_of(st.integers(0, 2**64), st.text(max_size=8)),
       markers=st.sampled_from(["border", "none"]))
def test_every_grid_level_round_trips_through_json(size, algorithm, seed, markers, tmp_path_factory):
    grid, width, height, *wrap = size
    level = mp.generate(algorithm, width, height, grid=grid, seed=seed, markers=markers,
                        **({"wrap": wrap[0]} if wrap else {}))
    again = mp.from_json(level.to_json())
    assert (again.grid, again.width, again.height, again.algorithm, again.seed) == (
        level.grid, level.width, level.height, level.algorithm, level.seed)
    assert again.options == level.options and again.openings == level.openings
    assert (again.entrance_cell, again.exit_cell) == (level.entrance_cell, level.exit_cell)
    assert np.array_equal(again.maze.open, level.maze.open)
    assert grid_digest(again) == grid_digest(level)
    if grid in ("hex", "square"):
        assert np.array_equal(again.tiles, level.tiles)
    path = tmp_path_factory.mktemp("json") / "level.json"
    level.save(path)
    assert np.array_equal(mp.load(path).maze.open, level.maze.open)


@pytest.mark.parametrize("change,words", [
    (lambda d: d.update(format="other"), "not a mazeplugin level"),
    (lambda d: d.update(passages=d["passages"][:-1]), "passages must be a text of"),
    (lambda d: d.update(passages=d["passages"].replace("0", "2", 1)), "passages must be a text of"),
    (lambda d: d.update(grid="cube"), "expected hex, triangle or polar"),
    (lambda d: d.update(width=0), "width must be a whole number"),
    (lambda d: d.update(width=10**6, height=10**6), "larger than"),
    (lambda d: d.update(entrance=10**6), "entrance must be a cell number"),
    (lambda d: d.update(openings=[[0, 99]]), "openings must be a list"),
    (lambda d: d.update(version=7), "version 7"),
])
def test_damaged_grid_json_says_what_is_wrong(change, words):
    import json

    data = json.loads(mp.generate("kruskal", 5, 4, grid="hex", seed=1).to_json())
    change(data)
    with pytest.raises(mp.LevelFormatError, match=words):
        mp.from_json(json.dumps(data))



@settings(max_examples=30, deadline=None)
@given(size=st.one_of(sizes, wraps.map(lambda w: ("square",) + w[1:] + (w[0],))),
       algorithm=st.sampled_from(sorted(GRID_GENERATORS)), seed=st.integers(0, 2**32))
def test_braid_one_leaves_no_dead_end_with_a_closed_neighbour_and_only_adds_passages(size, algorithm, seed):
    grid, width, height, *wrap = size
    extra = {"wrap": wrap[0]} if wrap else {}
    plain = mp.generate(algorithm, width, height, grid=grid, seed=seed, **extra)
    braided = mp.generate(algorithm, width, height, grid=grid, seed=seed, braid=1.0, **extra)
    assert (braided.maze.open >= plain.maze.open).all()  # braiding only opens passages
    g = braided.maze.grid
    for cell in braided.dead_ends():  # what is left: dead ends with every neighbour open to them
        assert len(braided.maze.linked(cell)) == len(g.neighbours_of(cell))
    assert braided.options["braid"] == 1.0
    half = mp.generate(algorithm, width, height, grid=grid, seed=seed, braid=0.5, **extra)
    assert len(half.dead_ends()) <= len(plain.dead_ends())


def test_braided_grid_levels_have_loops_and_a_golden_digest():
    level = mp.generate("backtracker", 10, 7, grid="hex", seed=11, braid=0.6)
    assert level.stats().loops > 0 and level.stats().dead_ends < mp.generate(
        "backtracker", 10, 7, grid="hex", seed=11).stats().dead_ends
    assert grid_digest(level) == GOLDEN_BRAIDED


def test_grid_stats_count_the_cells_on_the_way_and_every_piece():
    from mazeplugin.analysis import grid_stats
    from mazeplugin.grids import GridMaze, TriangleGrid

    maze = GridMaze(TriangleGrid(6, 1))  # two pieces: 0-1, and 2-3-4-5
    for a, b in ((0, 1), (2, 3), (3, 4), (4, 5)):
        maze.link(a, b)
    stats = grid_stats(maze, 2, 5)
    assert (stats.solution_length, stats.passages, stats.loops) == (4, 4, 0)  # cells on the way; 6 - 2 pieces
    assert grid_stats(maze, 0, 5).solution_length is None and grid_stats(maze, 0, 0).solution_length == 1

