"""Peak memory and CPU time of the level loaders on hostile files (issue 23), against file and level size.

    python benchmarks/hostile_load.py                     # every case, this checkout
    python benchmarks/hostile_load.py --code /tmp/old     # the same files, another copy of mazeplugin
    python benchmarks/hostile_load.py --cases tmx-door json-options --side 1024

Each case writes one file into a temporary folder, then loads it in a fresh
subprocess (run in that folder, so ``--code`` decides which mazeplugin loads) (``MAZEPLUGIN_NO_PLUGINS=1``, an address-space limit of
``--limit`` GiB and a CPU limit of ``--cpu`` seconds, so a bomb cannot take the
machine down) that records its peak resident set (``ru_maxrss``) after
importing mazeplugin and again after the load (or, with ``--traced``, the peak
of what the load allocated, from the file's bytes on). The difference is the load's
peak working memory, printed divided by the file's size and by the level's own
size (its tiles, one byte each, as the map declares them). The outcome is the
exception's type (``LevelFormatError`` is a refusal), ``MemoryError``/``killed``
when the limits stopped it, or ``Level``.

Not a test: nothing here asserts a figure.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile
import zlib
from typing import Callable, Dict, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

_CHILD = r"""
import json, resource, sys, time, tracemalloc
limit, cpu = int(sys.argv[3]), int(sys.argv[4])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
import mazeplugin as mp
from mazeplugin.formats import jsonio, tiled_read
traced = sys.argv[5] == "traced"
if traced:
    def read_limited(*args, _read=jsonio.read_limited, **kwargs):
        data = _read(*args, **kwargs)
        tracemalloc.reset_peak()  # f.read(limit + 1) asks for the largest file allowed, then shrinks to the file
        return data
    jsonio.read_limited = tiled_read.read_limited = read_limited
    tracemalloc.start()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
started = time.process_time()
loader = {"tmx": tiled_read.load_tmx, "tmj": tiled_read.load_tmj, "json": jsonio.load_json, "npy": jsonio.load_npy}
try:
    loader[sys.argv[2]](sys.argv[1])
    outcome = "Level"
except BaseException as error:
    outcome = type(error).__name__ + ": " + str(error).split(": ", 1)[-1][:70]
peak = tracemalloc.get_traced_memory()[1] + before if traced else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"extra": peak - before, "cpu": time.process_time() - started, "outcome": outcome}))
"""

_TILESET = ('<tileset firstgid="1" name="t" tilewidth="8" tileheight="8" tilecount="{count}" columns="1">'
            '{tiles}</tileset>')
_WALL_TILE = '<tile id="{id}"><properties><property name="wall" type="bool" value="true"/></properties></tile>'


def _tmx(side: Tuple[int, int], data: str, *, tileset: str = "", objects: str = "") -> str:
    w, h = side
    tileset = tileset or _TILESET.format(count=2, tiles=_WALL_TILE.format(id=1))
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" '
            f'renderorder="right-down" width="{w}" height="{h}" tilewidth="8" tileheight="8" infinite="0">'
            f'{tileset}<layer id="1" name="maze" width="{w}" height="{h}">{data}</layer>{objects}</map>\n')


def _zlib_layer(count: int, gid: int = 0) -> str:
    raw = zlib.compress(gid.to_bytes(4, "little") * count, 9)
    return f'<data encoding="base64" compression="zlib">{base64.b64encode(raw).decode()}</data>'


def _tmj(side: Tuple[int, int], layer: Dict[str, object], *, extra_layers: List[object] = ()) -> str:
    w, h = side
    return json.dumps({
        "type": "map", "orientation": "orthogonal", "width": w, "height": h, "tilewidth": 8, "tileheight": 8,
        "infinite": False, "tilesets": [{"firstgid": 1, "name": "t", "tilecount": 2, "tiles": [
            {"id": 1, "properties": [{"name": "wall", "type": "bool", "value": True}]}]}],
        "layers": [dict({"type": "tilelayer", "name": "maze", "width": w, "height": h}, **layer), *extra_layers],
    })


def _door(side: int) -> str:
    return (f'<objectgroup id="2" name="things"><object id="1" type="door" x="0" y="0" '
            f'width="{8 * side}" height="{8 * side}"/></objectgroup>')


def case_tmx_door(side: int) -> Tuple[str, str, int]:
    """A things door whose rectangle covers the whole map (was: a list of every tile)."""
    return "tmx", _tmx((side, side), _zlib_layer(side * side), objects=_door(side)), side * side


def case_tmx_gids(side: int) -> Tuple[str, str, int]:
    """20,000 wall tiles, all used (was: one full-map comparison each)."""
    n = 20_000
    tiles = "".join(_WALL_TILE.format(id=i) for i in range(n))
    count = side * side
    gids = (b"".join((1 + i % n).to_bytes(4, "little") for i in range(n)) * (count // n + 1))[:4 * count]
    data = f'<data encoding="base64" compression="zlib">{base64.b64encode(zlib.compress(gids, 9)).decode()}</data>'
    return "tmx", _tmx((side, side), data, tileset=_TILESET.format(count=n, tiles=tiles)), count


def case_tmx_large(side: int) -> Tuple[str, str, int]:
    """A large all-floor map in a few KiB of zlib (was: several int64 arrays of the map's size)."""
    return "tmx", _tmx((side, side), _zlib_layer(side * side)), side * side


def case_tmx_csv(side: int) -> Tuple[str, str, int]:
    """A 1 × 1 map whose CSV layer is many MB (was: parsed whole before its count was checked)."""
    return "tmx", _tmx((1, 1), '<data encoding="csv">' + "1," * (side * side) + "1</data>"), 1


def case_tmx_tile_elements(side: int) -> Tuple[str, str, int]:
    """A layer of <tile/> elements (was: an XML element each, about 150 bytes)."""
    return "tmx", _tmx((side, side), "<data>" + "<tile/>\n" * (side * side) + "</data>"), side * side


def case_tmx_elements(side: int) -> Tuple[str, str, int]:
    """Millions of elements that are not tiles (refused past the element budget while parsing)."""
    return "tmx", _tmx((1, 1), _zlib_layer(1), objects='<objectgroup name="o">' + '<object id="1"/>' * (side * side)
                       + "</objectgroup>"), 1


def case_tmj_large(side: int) -> Tuple[str, str, int]:
    """A large all-floor .tmj map in zlib."""
    raw = zlib.compress(bytes(4 * side * side), 9)
    layer = {"encoding": "base64", "compression": "zlib", "data": base64.b64encode(raw).decode()}
    return "tmj", _tmj((side, side), layer), side * side


def case_tmj_containers(side: int) -> Tuple[str, str, int]:
    """Many MB of empty lists in an object layer (was: parsed into a Python list each)."""
    raw = zlib.compress(bytes(4), 9)
    layer = {"encoding": "base64", "compression": "zlib", "data": base64.b64encode(raw).decode()}
    text = _tmj((1, 1), layer, extra_layers=["@@"])
    return "tmj", text.replace('"@@"', '{"type": "objectgroup", "objects": [' + "[]," * (side * side) + "[]]}"), 1


def case_tmj_strings(side: int) -> Tuple[str, str, int]:
    """Millions of two-letter strings in one list (one container: what the container count lets through)."""
    raw = zlib.compress(bytes(4), 9)
    layer = {"encoding": "base64", "compression": "zlib", "data": base64.b64encode(raw).decode()}
    text = _tmj((1, 1), layer, extra_layers=["@@"])
    return "tmj", text.replace('"@@"', '{"type": "objectgroup", "objects": [' + '"ab",' * (side * side) + '"ab"]}'), 1


def case_json_options(side: int) -> Tuple[str, str, int]:
    """A level whose recorded options hold a list of millions of items (was: all pushed on check_plain's stack)."""
    import mazeplugin as mp

    data = json.loads(mp.formats.jsonio.to_json(mp.generate("kruskal", 4, 3, seed=1)))
    data["options"] = {"x": "@@"}
    text = json.dumps(data).replace('"@@"', "[" + "0," * (side * side) + "0]")
    return "json", text, 9 * 7


def case_json_containers(side: int) -> Tuple[str, str, int]:
    """A level with millions of empty lists (refused by counting before parsing)."""
    import mazeplugin as mp

    data = json.loads(mp.formats.jsonio.to_json(mp.generate("kruskal", 4, 3, seed=1)))
    data["options"] = {"x": "@@"}
    text = json.dumps(data).replace('"@@"', "[" + "[]," * (side * side) + "[]]")
    return "json", text, 9 * 7


def case_npy_large(side: int) -> Tuple[str, bytes, int]:
    """The largest kind of .npy: int8 tiles (a plain all-wall block: refused after reading, as not a maze)."""
    import io

    import numpy as np

    buffer = io.BytesIO()
    np.save(buffer, np.ones((side, side), dtype=np.int8))
    return "npy", buffer.getvalue(), side * side


CASES: Dict[str, Callable[[int], Tuple[str, object, int]]] = {
    "tmx-door": case_tmx_door,
    "tmx-gids": case_tmx_gids,
    "tmx-large": case_tmx_large,
    "tmx-csv": case_tmx_csv,
    "tmx-tile-elements": case_tmx_tile_elements,
    "tmx-elements": case_tmx_elements,
    "tmj-large": case_tmj_large,
    "tmj-containers": case_tmj_containers,
    "tmj-strings": case_tmj_strings,
    "json-options": case_json_options,
    "json-containers": case_json_containers,
    "npy-large": case_npy_large,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", default=ROOT, help="folder holding the mazeplugin package to load with")
    parser.add_argument("--cases", nargs="*", default=list(CASES), choices=list(CASES))
    parser.add_argument("--side", type=int, default=2047, help="map side in tiles (the CSV/list bombs: items = side²)")
    parser.add_argument("--limit", type=float, default=4.0, help="address-space limit of the child, GiB")
    parser.add_argument("--cpu", type=int, default=120, help="CPU-time limit of the child, seconds")
    parser.add_argument("--traced", action="store_true",
                        help="peak allocated memory (tracemalloc, numpy included, slower) instead of the rise in "
                             "peak RSS (which the import's own peak can hide for small loads)")
    args = parser.parse_args()
    sys.path.insert(0, ROOT)
    print(f"code: {args.code}; side {args.side}; limits {args.limit} GiB, {args.cpu} s CPU")
    print(f"{'case':20} {'file MB':>9} {'level MB':>9} {'peak MB':>9} {'÷ file':>8} {'÷ level':>8} {'CPU s':>7}  outcome")
    env = dict(os.environ, PYTHONPATH=args.code, MAZEPLUGIN_NO_PLUGINS="1", OPENBLAS_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as folder:
        for name in args.cases:
            kind, content, tiles = CASES[name](args.side)
            path = os.path.join(folder, f"{name}.{kind}")
            with open(path, "wb") as f:
                f.write(content if isinstance(content, bytes) else str(content).encode())
            size = os.path.getsize(path)
            try:
                done = subprocess.run(
                    [sys.executable, "-c", _CHILD, path, kind, str(int(args.limit * (1 << 30))), str(args.cpu),
                     "traced" if args.traced else "rss"],
                    env=env, capture_output=True, text=True, timeout=args.cpu * 3 + 60, cwd=folder,
                )
                result = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else {
                    "extra": 0, "cpu": float("nan"), "outcome": f"killed ({done.returncode})"}
            except subprocess.TimeoutExpired:
                result = {"extra": 0, "cpu": float("nan"), "outcome": "timed out"}
            extra = result["extra"]
            print(f"{name:20} {size / 1e6:9.2f} {tiles / 1e6:9.2f} {extra / 1e6:9.1f} {extra / size:8.1f} "
                  f"{extra / tiles:8.1f} {result['cpu']:7.2f}  {result['outcome']}", flush=True)
            os.remove(path)


if __name__ == "__main__":
    main()
