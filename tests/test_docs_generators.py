"""The site's generated pages, made cheaply without building the site (docs/_hooks/).

The strict build (.ci/docs.sh) makes them all; these catch a change that breaks one
in the ordinary suite: the gallery covers every generator on every grid it runs on,
the animations are valid animated PNGs, the reference lists every public name.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

import mazeplugin as mp

HOOKS = Path(__file__).resolve().parent.parent / "docs" / "_hooks"
sys.path.insert(0, str(HOOKS))

import gallery  # noqa: E402
import reference  # noqa: E402


def test_the_gallery_pictures_every_generator_on_every_grid_it_runs_on(monkeypatch):
    monkeypatch.setenv("MAZEPLUGIN_COMPILED", "0")  # small pictures: the plain path, no kernels to load
    files = gallery.pages()
    for grid in gallery.GRIDS:
        for name in mp.algorithms():
            pictured = f"gallery/{name}-{grid}.svg" in files
            try:
                mp.generate(name, 3, 3, grid=grid, seed=0)
                runs = True
            except ValueError:
                runs = False
            assert pictured == runs, (name, grid)
    page = files["gallery/index.md"]
    for option in ("braid=0.5", "mask=", "rooms=3", "keys=2", "weave=True", 'wrap="xy"', "corridor=2"):
        assert option in page, option
    assert all(text.startswith("<svg") or text.lstrip().startswith("<") for n, text in files.items() if n.endswith(".svg"))


def _chunks(data: bytes):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at = 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF, kind
        yield kind, body
        at += 12 + length


def test_an_animation_is_an_animated_png_of_its_frames():
    environments = pytest.importorskip("environments")
    frames = [np.full((4, 6, 3), value, dtype=np.uint8) for value in (0, 128, 255)]
    chunks = list(_chunks(environments.apng(frames)))
    kinds = [kind for kind, _ in chunks]
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND"
    assert struct.unpack(">II", chunks[1][1]) == (3, 0)  # acTL: three frames, looping forever
    assert kinds.count(b"fcTL") == 3 and kinds.count(b"IDAT") == 1 and kinds.count(b"fdAT") == 2
    first = zlib.decompress(chunks[kinds.index(b"IDAT")][1])
    assert first == b"".join(b"\x00" + bytes(18) for _ in range(4))  # filter byte, then the row's pixels


def test_an_environment_animation_walks_to_the_goal(monkeypatch):
    monkeypatch.setenv("MAZEPLUGIN_COMPILED", "0")  # a few steps: the numpy path, no step kernel to build
    pytest.importorskip("gymnasium")
    pytest.importorskip("pygame")
    environments = pytest.importorskip("environments")
    import gymnasium
    import mazeplugin.gym  # noqa: F401

    env = gymnasium.make("mazeplugin/MazeKeys-v0", width=5, height=5, render_mode="rgb_array", tile_size=4,
                         warm_up=False)
    frames, won = environments.play(env, seed=3)
    assert won and 2 <= len(frames) <= environments.FRAMES
    assert frames[0].shape == (11 * 4, 11 * 4, 3)


def test_the_reference_names_every_public_name_once():
    for stack in ("pygame", "gymnasium"):  # the reference imports every public module, mazeplugin.pg and .gym too
        pytest.importorskip(stack, reason=f"the reference imports modules that need {stack}")
    pages = reference.api_pages()
    for page, module, _ in reference.API:
        text = pages[f"reference/api/{page}.md"]
        for name in reference.public_names(module):
            assert f"- {name}\n" in text or f"::: {module}.{name}.{name}" in text, (module, name)


def test_doctests_become_fenced_code():
    griffe_doctests = pytest.importorskip("griffe_doctests", reason="needs griffe (the docs extra)")
    text = griffe_doctests.markdown("Say:\n\n>>> 1 + 1\n2\n\nSee :class:`Level`.")
    assert text == "Say:\n\n```pycon\n>>> 1 + 1\n2\n```\n\nSee `Level`."
