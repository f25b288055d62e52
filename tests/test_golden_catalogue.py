"""Golden digests for every catalogue generator and shaping option: same inputs, same level, forever.

A change here changes levels players have shared: only ever update a digest
deliberately, and say so in the notes. (The founding generators' digests
live in test_seeds.py.)
"""

from __future__ import annotations

import pytest

import mazeplugin as mp
from mazecheck import digest

HEART = [".##...##.", "####.####", "#########", ".#######.", "..#####..", "...###...", "....#...."]
VAULT = mp.Prefab.from_text("""
    ###+#####+###
    #...........#
    #.#.#...#.#.#
    +...........+
    #.#.#...#.#.#
    #...........#
    #######+#####
""", at=(10, 8))

# (algorithm, width, height, seed, markers, options) -> digest; "HEART" stands for the mask above.
GOLDEN = {
    ('aldous-broder', 20, 15, 7, 'border', ()): '88973cdb2e94d658',
    ('aldous-broder', 9, 7, 'castle', 'farthest', (('mask', 'HEART'),)): '4e2396414e59550e',
    ('wilson', 20, 15, 7, 'border', ()): '387fa8ff51c7779e',
    ('wilson', 9, 7, 3, 'border', (('mask', 'HEART'),)): '2c995ba846bf6f4e',
    ('binary-tree', 20, 15, 7, 'border', ()): '9c52a940e15645b8',
    ('binary-tree', 12, 8, 5, 'random', (('bias', 'northwest'),)): '13f3bfcfbde1d193',
    ('binary-tree', 12, 8, 5, 'border', (('bias', 'southeast'),)): '0677ab01bed9db2a',
    ('binary-tree', 12, 8, 5, 'border', (('bias', 'southwest'),)): '6b3b1380499eb2d4',
    ('sidewinder', 20, 15, 7, 'border', ()): 'f0e41200f8e48a51',
    ('sidewinder', 64, 3, 0, 'none', ()): '3fd8f28137f2a183',
    ('hunt-and-kill', 20, 15, 7, 'border', ()): 'bb758b867d15b8bf',
    ('hunt-and-kill', 9, 7, 1099511627776, 'farthest', (('mask', 'HEART'),)): '1e0b487ee9682100',
    ('growing-tree', 20, 15, 7, 'border', ()): '0ad922a7e1d91748',
    ('growing-tree', 16, 10, 1, 'border', (('strategy', 'random'),)): '0a3ddd0946ceeae0',
    ('growing-tree', 16, 10, 1, 'border', (('strategy', 'oldest'),)): '1c13431a6614b058',
    ('growing-tree', 16, 10, 1, 'border', (('strategy', 'middle'),)): 'e2a3c46e9d090e3a',
    ('growing-tree', 16, 10, 1, 'border', (('strategy', 'newest:0.75'),)): 'af0e82485c91ac41',
    ('prim-simplified', 20, 15, 7, 'border', ()): '2d10fd8c29cb0d87',
    ('prim-simplified', 9, 7, 'level-1', 'border', (('mask', 'HEART'),)): 'fb397bd33804df40',
    ('division', 20, 15, 7, 'border', ()): '5bb4b8e70c5bcee9',
    ('division', 31, 3, 1099511627776, 'random', ()): '25ce737b9036a638',
    # rooms: moved deliberately in issue 11 (rooms are open floor, corridors are the backtracker's; CHANGELOG).
    ('rooms', 20, 15, 7, 'border', ()): '0bad4cb3bf4d0d50',
    ('rooms', 30, 20, 'dungeon', 'farthest', (('extra_doors', 0.1), ('prune', 0.5), ('room_size', (3, 7)))): 'c54c4ec2dc76e250',
    ('rooms', 9, 7, 4, 'border', (('attempts', 20), ('mask', 'HEART'), ('prune', 0.0))): '1ea4950abc59bc03',
    ('backtracker', 20, 15, 7, 'border', (('braid', 0.5),)): 'ab0e0ad09c47bc32',
    ('kruskal', 20, 15, 7, 'border', (('braid', 1.0),)): '442970e1ab680bca',
    ('union-find', 20, 15, 7, 'random', (('braid', 1.0),)): 'a90e8bad978fc232',
    ('eller', 20, 15, 7, 'border', (('braid', 0.25),)): '3f8b797f14fc4929',
    ('backtracker', 9, 7, 7, 'border', (('mask', 'HEART'),)): '168edbda780d6c73',
    ('kruskal', 9, 7, 7, 'border', (('braid', 1.0), ('mask', 'HEART'))): '2f5dd8244fb89296',
    ('prim', 9, 7, 7, 'random', (('mask', 'HEART'),)): 'e28416ff787d6b1a',
    ('union-find', 9, 7, 7, 'border', (('mask', 'HEART'),)): 'e6c5ce775cbe7774',
    ('wilson', 10, 6, 7, 'border', (('corridor', 2), ('wall', 1))): 'f3c1a9c2204413c9',
    ('sidewinder', 10, 6, 7, 'random', (('corridor', 3), ('wall', 2))): 'cf8364b86cc550d4',
    ('rooms', 12, 8, 7, 'border', (('braid', 0.5), ('corridor', 2), ('wall', 2))): 'dad426e71d1213c7',
    # rooms= / doors= / room_size= on other generators (issue 11); "VAULT" stands for the prefab above.
    ('wilson', 40, 30, 7, 'border', (('rooms', 5),)): 'ad78f68c467949a2',
    ('kruskal', 40, 30, 7, 'border', (('rooms', ((4, 4, 8, 6), (28, 20, 6, 6))),)): '0bce71ab0cb4a430',
    ('backtracker', 40, 30, 7, 'farthest', (('doors', 2), ('rooms', 'VAULT'))): '375fa37077b59f79',
    ('prim', 24, 16, 3, 'random', (('doors', 0.3), ('room_size', (2, 4)), ('rooms', 4))): '55fb274dbe2558a0',
    ('rooms', 30, 20, 5, 'border', (('rooms', 2),)): '4dc138ca3dbfcdc8',
}

CATALOGUE = {
    "aldous-broder", "wilson", "binary-tree", "sidewinder", "hunt-and-kill",
    "growing-tree", "prim-simplified", "division", "rooms",
}


@pytest.mark.parametrize("key", sorted(GOLDEN, key=repr), ids=repr)
def test_golden_digest(key):
    algorithm, width, height, seed, markers, options = key
    named = {"HEART": HEART, "VAULT": [VAULT]}
    options = {name: named.get(value, value) if isinstance(value, str) else value for name, value in options}
    level = mp.generate(algorithm, width, height, seed=seed, markers=markers, **options)
    assert digest(level) == GOLDEN[key]


def test_golden_covers_every_generator_option_and_shaping_option():
    assert {key[0] for key in GOLDEN} >= CATALOGUE
    used = {name for key in GOLDEN for name, _ in key[5]}
    for name in CATALOGUE:
        assert set(mp.get_generator(name).options) <= used, name
    assert {"braid", "mask", "corridor", "wall", "rooms", "doors"} <= used
    biases = {dict(key[5]).get("bias", "northeast") for key in GOLDEN if key[0] == "binary-tree"}
    assert biases == {"northeast", "northwest", "southeast", "southwest"}
    strategies = {dict(key[5]).get("strategy", "newest") for key in GOLDEN if key[0] == "growing-tree"}
    assert strategies >= {"newest", "random", "oldest", "middle", "newest:0.75"}
