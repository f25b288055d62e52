"""Text tokens: maze-dataset's and AlphaMaze's formats round-trip levels exactly; the "tokens" shard column."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import mazeplugin as mp
import mazeplugin.dataset as ds
from mazeplugin.dataset import tokens as T
from mazeplugin.dataset.columns import vocabulary_of


def content(level: mp.Level) -> Tuple[Dict[Tuple[int, int], int], Dict[Tuple[int, int], int]]:
    keys = {t.tile: t.props["lock"] for t in level.things if t.kind == "key"}
    doors = {t.tile: t.props["lock"] for t in level.things if t.kind == "door"}
    return keys, doors


def levels() -> List[mp.Level]:
    out = []
    for generator in ("backtracker", "kruskal", "wilson"):
        for seed in range(6):
            for options in ({}, {"keys": 1}, {"keys": 2}, {"braid": 0.5}, {"markers": "farthest"},
                            {"markers": "random"}):
                try:
                    out.append(mp.generate(generator, 6, 4, seed=seed, **options))
                except ValueError:
                    continue  # no room for two locks
    return out


LEVELS = levels()


@pytest.mark.parametrize("format", T.FORMATS)
@pytest.mark.parametrize("coordinates", T.COORDINATES)
@pytest.mark.parametrize("path", T.PATHS)
def test_round_trip_is_exact(format: str, coordinates: str, path: str) -> None:
    vocab = T.vocabulary(format, 4, 6, coordinates=coordinates)
    done = 0
    for level in LEVELS:
        keys, doors = content(level)
        if format == "alphamaze" and (keys or level.cell_of(level.entrance) == level.cell_of(level.exit)):
            with pytest.raises(ValueError, match="AlphaMaze"):
                T.encode(level, format, coordinates=coordinates, path=path)
            continue
        tokens = T.encode(level, format, coordinates=coordinates, path=path)
        decoded = T.decode(tokens, format)
        assert decoded.tiles.tobytes() == level.tiles.tobytes() and decoded.tiles.shape == level.tiles.shape
        assert (decoded.entrance, decoded.exit) == (level.entrance, level.exit)
        assert (decoded.keys, decoded.doors) == (keys, doors)
        width = level.maze.width
        assert decoded.path == [(n // width, n % width) for n in level.solution_cells()]
        assert T.tokens_of(T.ids(tokens, vocab), vocab) == tokens
        assert T.decode(T.encode(level, format, solution=False), format).path == []
        done += 1
    assert done >= 40
    rebuilt = T.decode(T.encode(LEVELS[0], format), format).level()
    assert rebuilt.tiles.tobytes() == LEVELS[0].tiles.tobytes() and rebuilt.solution() == LEVELS[0].solution()


def test_the_layouts_are_the_formats() -> None:
    level = mp.generate("kruskal", 2, 2, seed=3)
    text = " ".join(T.encode(level))
    assert text.startswith("<ADJLIST_START> (0,0) <--> (0,1) ; ") and " <ADJLIST_END> <ORIGIN_START> (0,0) " in text
    assert text.endswith("<TARGET_END> <PATH_START> (0,0) (0,1) (1,1) <PATH_END>")
    assert " ".join(T.encode(level, coordinates="tuple", openings=False)).startswith(
        "<ADJLIST_START> ( 0 , 0 ) <--> ( 0 , 1 ) ;")
    compass = T.encode(level, path="compass")
    assert compass[compass.index("<PATH_START>"):] == ["<PATH_START>", "(0,0)", "EAST", "SOUTH", "<PATH_END>"]
    relative = T.encode(level, path="relative")
    assert relative[relative.index("<PATH_START>"):] == ["<PATH_START>", "(0,0)", "FORWARD", "RIGHT", "<PATH_END>"]
    alpha = T.encode(level, format="alphamaze")
    # cell (0,0): walls up and down (its west wall is the entrance), the origin; moves right then down
    assert alpha[:3] == ["<|0-0|>", "<|up_down_wall|>", "<|origin|>"] and alpha[-2:] == ["<|right|>", "<|down|>"]
    assert alpha.count("\n") == 2 and set(alpha) <= set(T.vocabulary("alphamaze", 2, 2))
    # without openings (maze-dataset's own text) the markers decode onto their cells' tiles
    plain = T.decode(T.encode(level, openings=False))
    assert (plain.entrance, plain.exit) == ((1, 1), (3, 3))


def test_keys_and_doors_are_tokens() -> None:
    level = next(lv for lv in LEVELS if len(content(lv)[0]) == 2)
    tokens = T.encode(level)
    assert tokens.count("<LOCK_1>") >= 2 and tokens.count("<LOCK_2>") >= 2
    assert tokens.index("<DOORS_START>") < tokens.index("<KEYS_START>") < tokens.index("<ORIGIN_START>")


def test_bad_input_is_named() -> None:
    level = LEVELS[0]
    with pytest.raises(ValueError, match="format must be one of"):
        T.encode(level, "json")
    with pytest.raises(ValueError, match="coordinates must be one of"):
        T.encode(level, coordinates="pairs")
    with pytest.raises(ValueError, match="corridor=1, wall=1"):
        T.encode(mp.generate("kruskal", 3, 3, seed=1, corridor=2))
    with pytest.raises(ValueError, match="not in the vocabulary"):
        T.ids(T.encode(mp.generate("kruskal", 8, 8, seed=1)), T.vocabulary("maze-dataset", 4, 4))
    with pytest.raises(ValueError, match="expected <ADJLIST_START>"):
        T.decode(["<PATH_START>"])
    with pytest.raises(ValueError, match="after the end"):
        T.decode(T.encode(level) + ["(0,0)"])


def test_tokens_column(tmp_path: Path) -> None:
    entries: List[Dict[str, Any]] = [
        {"generator": "kruskal", "width": 5, "height": 4, "count": 5, "columns": ["tokens"]},  # the batched lane
        {"generator": "backtracker", "width": 5, "height": 5, "count": 5, "keys": 1, "columns": ["tokens", "solution"],
         "tokenizer": {"coordinates": "tuple", "path": "compass"}},
        {"generator": "wilson", "width": 4, "height": 4, "count": 5, "columns": ["tokens"],
         "tokenizer": {"format": "alphamaze"}},
    ]
    spec = ds.parse_spec({"levels": entries})
    assert spec.entries[0].as_dict()["tokenizer"] == {"format": "maze-dataset", "coordinates": "unique",
                                                      "path": "coordinates", "openings": True, "solution": True}
    for file_format in ("npz", "parquet"):
        if file_format == "parquet":
            pytest.importorskip("pyarrow")
        out = tmp_path / file_format
        ds.build({"levels": entries}, out, workers=1, file_format=file_format)
        assert ds.verify(out) == []
        for level, entry in zip(ds.open(out), [e for e in spec.entries for _ in range(e.count)]):
            assert entry.tokenizer is not None
            vocab = vocabulary_of(entry.width, entry.height, entry.tokenizer)
            ids = level.columns["tokens"]  # type: ignore[attr-defined]
            assert ids.dtype == np.int32
            text = T.tokens_of(ids, vocab)
            decoded = T.decode(text, entry.tokenizer["format"])
            assert decoded.tiles.tobytes() == level.tiles.tobytes()
            assert (decoded.entrance, decoded.exit) == (level.entrance, level.exit)
            assert (decoded.keys, decoded.doors) == content(level)


def test_tokenizer_is_checked() -> None:
    plain = {"generator": "kruskal", "width": 4, "height": 4, "count": 2}
    for tokenizer, message in (({"format": "json"}, "tokenizer format must be one of"),
                               ({"colour": 1}, "unknown option 'colour'"), ([], "must be an object"),
                               ({"openings": 1}, "openings must be true or false")):
        with pytest.raises(ds.SpecError, match=message):
            ds.parse_spec({**plain, "columns": ["tokens"], "tokenizer": tokenizer})
    with pytest.raises(ds.SpecError, match="add \"tokens\" to columns"):
        ds.parse_spec({**plain, "tokenizer": {}})
    with pytest.raises(ds.SpecError, match="corridor=1, wall=1"):
        ds.parse_spec({**plain, "corridor": 2, "columns": ["tokens"]})
    with pytest.raises(ds.SpecError, match="AlphaMaze format has no tokens for keys"):
        ds.parse_spec({**plain, "keys": 1, "columns": ["tokens"], "tokenizer": {"format": "alphamaze"}})


def _pairs(tokens: List[str]) -> set:
    inside = tokens[tokens.index("<ADJLIST_START>") + 1:tokens.index("<ADJLIST_END>")]
    text = " ".join(inside).split(" ; ")
    return {frozenset(part.replace(" ;", "").split(" <--> ")) for part in text if part.strip()}


def test_maze_dataset_interchange() -> None:
    """Our levels as maze-dataset's SolvedMaze: its own tokeniser says the same passages, origin, target and path
    as ours; its mazes come back as our levels."""
    md = pytest.importorskip("maze_dataset")
    from maze_dataset.tokenization import MazeTokenizerModular

    from mazeplugin.dataset import from_maze_dataset, to_maze_dataset

    tokenizer = MazeTokenizerModular()
    for level in [lv for lv in LEVELS if not lv.things][:12]:
        solved = to_maze_dataset(level)
        theirs = list(solved.as_tokens(tokenizer))
        ours = T.encode(level, openings=False)
        assert _pairs(theirs) == _pairs(ours)
        for start, end in (("<ORIGIN_START>", "<ORIGIN_END>"), ("<TARGET_START>", "<TARGET_END>"),
                           ("<PATH_START>", "<PATH_END>")):
            assert theirs[theirs.index(start):theirs.index(end)] == ours[ours.index(start):ours.index(end)]
        back = from_maze_dataset(solved)
        closed = T.decode(ours)  # our own decoding of the text without openings: markers on their cells
        assert back.tiles.tobytes() == closed.tiles.tobytes()
        assert (back.entrance, back.exit) == (closed.entrance, closed.exit)
    maze = md.LatticeMazeGenerators.gen_dfs(np.array([4, 5]))
    level = from_maze_dataset(maze)
    assert level.tiles.shape == (9, 11) and level.entrance is None
    assert ["".join("#" if t else " " for t in row) for row in level.tiles] == maze.as_ascii().splitlines()
    with pytest.raises(ValueError, match="connection_list"):
        from_maze_dataset(object())
