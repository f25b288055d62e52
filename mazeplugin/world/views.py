"""What a world looks like from outside: a window as a Level, a chunk's things, and the options a window records.

A window becomes a :class:`~mazeplugin.level.Level` through the tile
rebuilder of :mod:`mazeplugin.formats.rebuild`, reached through
:func:`level_from_tiles` here . Each chunk's content is placed by :func:`mazeplugin.content.furnish`
on the chunk seen as a level of its own. The ``world`` option a window's
level records is checked by :mod:`mazeplugin.formats.recorded` when a level
file is loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Tuple

import numpy as np
from numpy.typing import NDArray

from ..content import Thing, furnish
from ..content.placing import check_request
from ..level import Level
from ..limits import check_int
from ..tiles import FLOOR, WALL
from .geometry import CONTENT, Chunk, check_coordinate, chunk_random

if TYPE_CHECKING:  # pragma: no cover
    from .endless import World

__all__ = ["level_from_tiles", "window_level", "recorded_options", "furnish_chunk"]


def level_from_tiles(tiles: NDArray[np.uint8], **options: Any) -> Level:
    """:func:`mazeplugin.formats.rebuild.level_from_tiles`, the one place the world reaches it."""
    from ..formats.rebuild import level_from_tiles as rebuild  # (formats: the layer below worlds)

    return rebuild(tiles, **options)


def window_level(world: "World", window: Tuple[int, int, int, int], open_edges: bool) -> Level:
    """The whole-cell ``window`` of ``world`` as a Level (see :meth:`World.level <mazeplugin.world.World.level>`)."""
    tiles = world.tiles(*window)
    if not open_edges:
        wall = world.wall
        tiles[:wall, :] = tiles[-wall:, :] = WALL
        tiles[:, :wall] = tiles[:, -wall:] = WALL
    level = level_from_tiles(
        tiles,
        corridor=world.corridor,
        wall=world.wall,
        algorithm=world.algorithm,
        seed=world.seed,
        options=recorded_options(world, window, open_edges),
        source=f"world window {window}",
        unmarked_openings=open_edges,
    )
    if world.treasure or world.place:
        # The window's things, in level tiles, numbered 1, 2, ... in the order things() gives.
        wx, wy = window[0], window[1]
        level.things = tuple(
            Thing(t.kind, t.x - wx, t.y - wy, k, {**t.props, "chunk_id": t.id})
            for k, t in enumerate(world.things(*window), start=1)
        )
    return level


def recorded_options(world: "World", window: Tuple[int, int, int, int], open_edges: bool) -> Dict[str, Any]:
    """The options a window's Level records: what it takes to make it again."""
    recorded_world: Dict[str, Any] = {"chunk": list(world.chunk), "window": list(window)}
    if open_edges:
        recorded_world["open_edges"] = True
    if world.treasure:
        recorded_world["treasure"] = world.treasure
    if world.place:
        recorded_world["place"] = [p.as_dict() for p in world.place]
    if world.perfect:
        recorded_world["perfect"] = True
    else:
        recorded_world["openings"] = list(world.openings)
    recorded: Dict[str, Any] = {"world": recorded_world, **world.options}
    if world.braid > 0:
        recorded["braid"] = world.braid
    if world.corridor != 1:
        recorded["corridor"] = world.corridor
    if world.wall != 1:
        recorded["wall"] = world.wall
    return recorded


def furnish_chunk(world: "World", chunk: Chunk) -> Tuple[Thing, ...]:
    """Place chunk ``(i, j)``'s content with :func:`mazeplugin.content.furnish`, from the chunk's content seed.

    The chunk is seen as a level of its own cells, with every opening
    in its four walls (the east and south ones come from its neighbours'
    borders, drawn without generating them), so its dead ends are the
    world's. The content seed is the first two words of the chunk's
    content stream, ``keyed(seed, (6, 4, *i, *j))``, as one 128-bit int.
    """
    i, j = chunk
    sw, sh = world.chunk_span
    wall, corridor = world.wall, world.corridor
    pitch = corridor + wall
    tiles = np.ones((sh + wall, sw + wall), dtype=np.uint8)
    tiles[:sh, :sw] = world.chunk_tiles((i, j))
    for r in world.recipe.borders(i + 1, j)[0]:
        tiles[r * pitch + wall : r * pitch + wall + corridor, sw:] = FLOOR
    for c in world.recipe.borders(i, j + 1)[1]:
        tiles[sh:, c * pitch + wall : c * pitch + wall + corridor] = FLOOR
    level = level_from_tiles(tiles, corridor=corridor, wall=wall, unmarked_openings=True, source=f"chunk {(i, j)}")
    words = chunk_random(world.seed, CONTENT, i, j).raw(2).tolist()
    try:
        rich = furnish(level, treasure=world.treasure, place=world.place, seed=(words[0] << 64) | words[1])
    except ValueError as error:
        raise ValueError(f"chunk {(i, j)} cannot hold the content asked for: {error}") from None
    x, y = i * sw, j * sh
    return tuple(Thing(t.kind, t.x + x, t.y + y, t.id, {**t.props, "chunk": (i, j)}) for t in rich.things)
