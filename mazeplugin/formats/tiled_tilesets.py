"""Tiled tilesets: which of their tiles are walls and door marks, embedded or external (``.tsx``, ``.tsj``).

A tileset gives :class:`~mazeplugin.formats.tiled_layers.WallTable` its
``(tilecount, {tile id: (wall, door, tunnel)}, name)``. An external tileset is read
as carefully as the map: a regular file of at most :data:`MAX_TILESET_BYTES`,
parsed by :mod:`mazeplugin.formats.tiled_parse`.

>>> from mazeplugin.formats.tiled_parse import parse_xml
>>> tileset = parse_xml(b'<tileset name="t" tilecount="2"><tile id="1"><properties>'
...                     b'<property name="wall" type="bool" value="true"/></properties></tile></tileset>', "t.tsx")
>>> xml_tileset(tileset.root, "t.tsx")
(2, {1: (True, False, 0)}, 't')
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Tuple
from xml.etree.ElementTree import Element

from .files import LevelFormatError, read_limited
from .tiled_common import brief, count, text_of
from .tiled_layers import Flags, tile_flags
from .tiled_parse import json_properties, parse_json, parse_xml, xml_properties

__all__ = ["MAX_TILESET_BYTES", "Tileset", "xml_tileset", "json_tileset", "external_tileset"]

MAX_TILESET_BYTES = 64 << 20
"""Largest external tileset file read (64 MiB)."""

Tileset = Tuple[Optional[int], Flags, str]
"""``(tilecount or None, {tile id: (wall, door)}, name)``."""


def xml_tileset(element: Element, source: str) -> Tileset:
    """An embedded ``<tileset>`` (or a ``.tsx``'s root)."""
    name = element.get("name", "")
    given = element.get("tilecount")
    tilecount = None if given is None else count(given, f"tileset {name!r}'s tilecount", source)
    flags: Flags = {}
    for tile in element.findall("tile"):
        tile_id = count(tile.get("id"), f"a tile id in tileset {name!r}", source)
        props = xml_properties(tile.find("properties"), f"tile {tile_id} of tileset {name!r}", source)
        tile_flags(flags, tile_id, props, name, source)
    return tilecount, flags, name


def json_tileset(tileset: Dict[str, Any], source: str) -> Tileset:
    """A ``.tmj`` tileset object (or a ``.tsj``'s)."""
    name = text_of(tileset.get("name", ""))
    given = tileset.get("tilecount")
    tilecount = None if given is None else count(given, f"tileset {name!r}'s tilecount", source)
    flags: Flags = {}
    tiles = tileset.get("tiles", [])
    if not isinstance(tiles, list):
        raise LevelFormatError(f"{source}: 'tiles' of tileset {name!r} must be a list, got {type(tiles).__name__}")
    for tile in tiles:
        if not isinstance(tile, dict):
            raise LevelFormatError(f"{source}: a tile of tileset {name!r} must be an object")
        tile_id = count(tile.get("id"), f"a tile id in tileset {name!r}", source)
        props = json_properties(tile.get("properties"), f"tile {tile_id} of tileset {name!r}", source)
        tile_flags(flags, tile_id, props, name, source)
    return tilecount, flags, name


def external_tileset(reference: Any, source: str, directory: str) -> Tileset:
    """An external tileset (``.tsx`` XML, ``.tsj``/``.json``) named ``reference`` relative to the map's ``directory``."""
    if not isinstance(reference, str) or not reference:
        raise LevelFormatError(f"{source}: a tileset's source must be a file name, got {brief(reference)}")
    path = os.path.join(directory, reference)
    where = f"{source}: tileset {reference!r:.200}"
    try:
        data = read_limited(path, MAX_TILESET_BYTES, what="a tileset")
    except LevelFormatError as error:
        raise LevelFormatError(f"{where}: {str(error).split(': ', 1)[-1]}") from None
    except (OSError, ValueError) as error:  # ValueError: a name with a NUL byte
        raise LevelFormatError(f"{where}: cannot read it: {getattr(error, 'strerror', None) or error}") from None
    if data.lstrip()[:1] == b"<":
        root = parse_xml(data, where).root
        if root.tag != "tileset":
            raise LevelFormatError(f"{where}: not a Tiled tileset (root <{root.tag:.40}>)")
        return xml_tileset(root, where)
    tileset = parse_json(data, where)
    if not isinstance(tileset, dict):
        raise LevelFormatError(f"{where}: not a Tiled tileset")
    return json_tileset(tileset, where)
