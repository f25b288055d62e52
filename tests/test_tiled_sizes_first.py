"""A Tiled map's size is refused before its layers are decoded (issue 34 item 8).

A 1.4 MB zlib ``.tmx`` declaring 16384 × 16384 tiles (within ``MAX_TILES``,
but no maze: a maze's side is cells × 2 + 1 tiles) was inflated and looked up
for 28 s before the size was refused. Now the loader checks the size against
the level's layout (and ``MAX_CELLS``) right after the first layer's size is
matched with the map's, so nothing is decoded: the tests count the blocks
the decoders yield, never a clock. The lookup of ids in one table of codes
(ids below 65,536) agrees with the sorted search it stands in for.
"""

from __future__ import annotations

import base64
import json
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mazeplugin as mp
from mazeplugin.formats import LevelFormatError, tiled_layers, tiled_map
from mazeplugin.formats.tiled_layers import WallTable
from budget import examples

TILESET = {"firstgid": 1, "name": "m", "tilewidth": 16, "tileheight": 16, "tilecount": 2, "columns": 2,
           "image": "t.png", "imagewidth": 32, "imageheight": 16, "margin": 0, "spacing": 0,
           "tiles": [{"id": 1, "properties": [{"name": "wall", "type": "bool", "value": True}]}]}


def zlib_layer(columns: int, rows: int) -> str:
    """Base64 zlib data of a layer of wall tiles (gid 2): compresses about 1000 to 1."""
    return base64.b64encode(zlib.compress(np.full(columns * rows, 2, "<u4").tobytes(), 9)).decode()


def tmj_text(columns: int, rows: int, properties=()) -> str:
    return json.dumps({
        "type": "map", "orientation": "orthogonal", "infinite": False, "width": columns, "height": rows,
        "tilewidth": 16, "tileheight": 16, "tilesets": [TILESET], "properties": list(properties),
        "layers": [{"type": "tilelayer", "id": 1, "name": "maze", "width": columns, "height": rows,
                    "encoding": "base64", "compression": "zlib", "data": zlib_layer(columns, rows)}],
    })


def tmx_text(columns: int, rows: int) -> str:
    return (f'<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{columns}" '
            f'height="{rows}" tilewidth="16" tileheight="16" infinite="0">'
            '<tileset firstgid="1" name="m" tilewidth="16" tileheight="16" tilecount="2" columns="2">'
            '<image source="t.png" width="32" height="16"/><tile id="1"><properties>'
            '<property name="wall" type="bool" value="true"/></properties></tile></tileset>'
            f'<layer id="1" name="maze" width="{columns}" height="{rows}"><data encoding="base64" '
            f'compression="zlib">{zlib_layer(columns, rows)}</data></layer></map>')


@pytest.fixture
def decoded(monkeypatch):
    """How many blocks of ids the base64 decoder yielded, for either kind of map."""
    blocks = [0]
    decode = tiled_layers.base64_blocks

    def counting(*args, **kwargs):
        for block in decode(*args, **kwargs):
            blocks[0] += 1
            yield block

    monkeypatch.setattr(tiled_map, "base64_blocks", counting)
    return blocks


@pytest.mark.parametrize("kind", ["tmx", "tmj"])
def test_a_map_no_maze_has_is_refused_before_its_layer_is_inflated(tmp_path, decoded, kind):
    # 2048 x 2048 tiles (16 MiB of ids in 16 KiB of zlib): an even side is no maze's. Before: its
    # 16 blocks were inflated and looked up before the size was refused.
    path = tmp_path / f"even.{kind}"
    path.write_text(tmx_text(2048, 2048) if kind == "tmx" else tmj_text(2048, 2048))
    with pytest.raises(LevelFormatError, match=r"even\.\w+: a 2048 × 2048 tilemap is not a maze with corridor=1"):
        mp.load(path)
    assert decoded[0] == 0


def test_a_map_of_too_many_cells_is_refused_before_decoding(tmp_path, decoded, monkeypatch):
    # MAX_CELLS made small, so a small map has too many cells: 2049 x 2049 tiles are 1024 x 1024 cells.
    from mazeplugin.formats import rebuild

    monkeypatch.setattr(rebuild, "MAX_CELLS", 1000)
    path = tmp_path / "many.tmj"
    path.write_text(tmj_text(2049, 2049))
    with pytest.raises(LevelFormatError, match="many.tmj: 1024 × 1024 cells is too large; at most 1,000 cells"):
        mp.load(path)
    assert decoded[0] == 0


def test_the_corridor_given_decides_the_size_checked(tmp_path, decoded):
    # 2049 tiles fit corridor=1 (1024 cells) but not corridor=2 (cells × 3 + 1): refused undecoded.
    path = tmp_path / "wide.tmj"
    path.write_text(tmj_text(2049, 2049))
    with pytest.raises(LevelFormatError, match="not a maze with corridor=2, wall=1"):
        mp.load(path, corridor=2)
    assert decoded[0] == 0


def test_a_map_of_a_maze_size_still_loads(tmp_path, decoded):
    level = mp.generate("kruskal", 20, 9, seed=3, markers="border")
    path = tmp_path / "level.tmx"
    level.save(path)
    again = mp.load(path)
    assert again.tiles.tobytes() == level.tiles.tobytes()


def test_the_layers_own_size_is_named_before_the_maps(tmp_path):
    # A layer that does not cover the map is the problem named, not the map's size.
    text = tmx_text(9, 7).replace('<layer id="1" name="maze" width="9" height="7"',
                                  '<layer id="1" name="maze" width="9" height="6"', 1)
    path = tmp_path / "a.tmx"
    path.write_text(text)
    with pytest.raises(LevelFormatError, match="layer 'maze' is 9 × 6 tiles, the map 9 × 7"):
        mp.load(path)


@settings(max_examples=examples(60), deadline=None)
@given(firsts=st.lists(st.integers(1, 70_000), min_size=1, max_size=4, unique=True),
       counts=st.lists(st.one_of(st.none(), st.integers(0, 40)), min_size=4, max_size=4),
       marks=st.lists(st.tuples(st.integers(0, 50), st.booleans(), st.booleans(), st.integers(0, 2)), max_size=12),
       gids=st.lists(st.one_of(st.integers(0, 70_100), st.sampled_from([0, 1, 2, 65_535, 65_536])), min_size=1,
                     max_size=50))
def test_the_table_of_codes_agrees_with_the_sorted_search(firsts, counts, marks, gids):
    table = WallTable("m.tmx", columns=len(gids), rows=1)
    for index, first in enumerate(sorted(firsts)):
        flags = {local: (wall, door, tunnel) for local, wall, door, tunnel in marks if wall or door or tunnel}
        table.add(first, counts[index], flags, f"set{index}")
    ids = np.asarray(gids, dtype=np.int64)
    held, wall, door, tunnel = table._classify(ids)
    if held.all():
        got = table._flags(ids, "maze", 0)
        assert [a.tolist() for a in got] == [wall.tolist(), door.tolist(), tunnel.tolist()]
    else:
        with pytest.raises(LevelFormatError, match="which no tileset holds"):
            table._flags(ids, "maze", 0)
    small = ids[ids < tiled_layers._DENSE_GIDS]
    if small.size:
        code = table._dense()[small]
        expected = table._classify(small)
        assert (code & 1).astype(bool).tolist() == expected[0].tolist()
        assert (code & 2).astype(bool).tolist() == expected[1].tolist()
        assert (code & 4).astype(bool).tolist() == expected[2].tolist()
        assert (code >> 3).tolist() == expected[3].tolist()
