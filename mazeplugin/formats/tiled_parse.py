"""Tiled files parsed safely: XML (``.tmx``, ``.tsx``) and JSON (``.tmj``, ``.tsj``), and their custom properties.

The parsers refuse before they amplify. XML with a DOCTYPE or entity
declaration is refused (no entity expansion, no external fetches); the
document may hold at most :data:`MAX_XML_ELEMENTS` elements besides a tile
layer's ``<tile>`` elements, which never become elements: their gids are kept
four bytes each (:attr:`XmlMap.tile_gids`), and a ``<data>`` holding more of
them than the map has tiles is refused while it is parsed. Nesting is
followed without recursion. JSON is scanned before it is parsed: at most
:data:`MAX_JSON_CONTAINERS` lists and objects and :data:`MAX_JSON_STRINGS`
strings (what ``json.loads`` turns into the largest Python objects; numbers,
a layer's tile ids, cost a pointer and at most an int each); nesting too deep for Python and integers too long
to convert are a :class:`~mazeplugin.formats.files.LevelFormatError` naming
the file, like every other fault.

>>> parsed = parse_xml(b'<map width="2" height="1"><layer><data><tile gid="1"/><tile/></data></layer></map>', "m.tmx")
>>> data = parsed.root.find("layer/data")
>>> data.find("tile") is None, parsed.tile_gids[data].tolist()
(True, [1, 0])
>>> parse_json(b'[[[]]]', "m.tmj", containers=2)
Traceback (most recent call last):
...
mazeplugin.errors.LevelFormatError: m.tmj: 3 JSON lists and objects is more than a Tiled file holds (at most 2)
"""

from __future__ import annotations

from array import array
from typing import Any, Dict, List, Optional, Tuple
from xml.etree.ElementTree import Element, TreeBuilder
from xml.parsers import expat

import numpy as np
from numpy.typing import NDArray

from ..limits import MAX_TILES
from .files import LevelFormatError
from .jsontext import MAX_JSON_CONTAINERS, MAX_JSON_STRINGS, count_containers, parse_json  # re-exported

__all__ = [
    "MAX_XML_ELEMENTS", "MAX_JSON_CONTAINERS", "MAX_JSON_STRINGS", "GID_LIMIT", "XmlMap", "parse_xml", "parse_json",
    "count_containers", "xml_properties", "json_properties",
]

MAX_XML_ELEMENTS = 1 << 18
"""Most XML elements a Tiled file may hold, a tile layer's ``<tile>`` elements aside (262,144; each
becomes an ``Element`` and a dict of attributes, about 330 bytes: 85 MB at most)."""

GID_LIMIT = 1 << 32
"""Global tile ids (flip flags included) are below this."""



class XmlMap:
    """A parsed XML document: its ``root`` element and, for each tile layer ``<data>`` holding
    ``<tile>`` elements, their gids (``uint32``, in order) in ``tile_gids``."""

    def __init__(self, root: Element, tile_gids: Dict[Element, NDArray[np.uint32]]) -> None:
        self.root = root
        self.tile_gids = tile_gids


def parse_xml(data: bytes, source: str) -> XmlMap:
    """An element tree from XML bytes, refusing DOCTYPE and entity declarations (no expansion, no fetching),
    more than :data:`MAX_XML_ELEMENTS` elements, and more ``<tile>`` elements in a ``<data>`` than the map has tiles."""
    builder = TreeBuilder()
    parser = expat.ParserCreate()
    path: List[Tuple[str, Dict[str, str]]] = []  # the open elements: tag and attributes
    current: List[Optional[Element]] = []
    gids: Dict[Element, "array[int]"] = {}
    budget = [MAX_XML_ELEMENTS, MAX_TILES]  # elements left; tiles a <data> may hold (the map's size, once known)

    def refuse(*_: Any) -> None:
        raise LevelFormatError(f"{source}: the XML declares a DOCTYPE or entities; Tiled maps have none, refusing it")

    def start(tag: str, attrs: Dict[str, str]) -> None:
        if tag == "tile" and path and path[-1][0] == "data":
            data = current[-1]
            assert data is not None  # a <data> is always built
            held = gids.get(data)
            if held is None:
                held = gids[data] = array("I")
            if len(held) >= budget[1]:
                raise LevelFormatError(f"{source}: tile layer {_layer_name(path)!r} has more <tile> elements "
                                       f"than the map's {budget[1]:,} tiles")
            held.append(_tile_gid(attrs.get("gid", "0"), path, source))
            path.append((tag, attrs))
            current.append(None)
            return
        budget[0] -= 1
        if budget[0] < 0:
            raise LevelFormatError(f"{source}: more than {MAX_XML_ELEMENTS:,} XML elements; a Tiled map has far fewer")
        if tag == "map" and not path:
            budget[1] = _declared_tiles(attrs)
        path.append((tag, attrs))
        current.append(builder.start(tag, attrs))

    def end(tag: str) -> None:
        path.pop()
        if current.pop() is not None:
            builder.end(tag)

    def text(chunk: str) -> None:
        if current and current[-1] is None:
            return  # inside a <tile> of a layer: nothing to keep
        if current and current[-1] in gids and chunk.isspace():
            return  # the spacing between a layer's <tile> elements
        builder.data(chunk)

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse  # type: ignore[assignment]
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.buffer_text = True
    try:
        parser.Parse(data, True)
    except expat.ExpatError as error:
        code = getattr(error, "code", None)
        ended = code in (expat.errors.codes.get(expat.errors.XML_ERROR_NO_ELEMENTS),
                         expat.errors.codes.get(expat.errors.XML_ERROR_UNCLOSED_TOKEN))
        what = "truncated" if ended or not data.strip() else "not valid XML"
        raise LevelFormatError(f"{source}: {what}: {expat.ErrorString(code or 0)} "
                               f"at line {error.lineno}, column {error.offset}") from None
    except LookupError as error:  # the XML declaration names an encoding Python does not know
        raise LevelFormatError(f"{source}: not valid XML: {error}") from None
    root: Element = builder.close()
    return XmlMap(root, {element: np.frombuffer(held, dtype=np.uint32) if len(held) else np.zeros(0, np.uint32)
                         for element, held in gids.items()})


def _declared_tiles(attrs: Dict[str, str]) -> int:
    """The tiles a ``<map>`` declares (bounded by ``MAX_TILES``; the map's own checks name a bad size later)."""
    sizes = [attrs.get(key, "") for key in ("width", "height")]
    if all(s.isascii() and s.isdigit() and len(s) <= 12 for s in sizes):
        return min(int(sizes[0]) * int(sizes[1]), MAX_TILES)
    return MAX_TILES


def _layer_name(path: List[Tuple[str, Dict[str, str]]]) -> str:
    return path[-2][1].get("name", "") if len(path) >= 2 else ""


def _tile_gid(text: str, path: List[Tuple[str, Dict[str, str]]], source: str) -> int:
    if text.isascii() and text.isdigit() and len(text) <= 10 and int(text) < GID_LIMIT:
        return int(text)
    raise LevelFormatError(
        f"{source}: tile layer {_layer_name(path)!r} holds tile id {text!r:.20}; ids are ints 0..{GID_LIMIT - 1}")


def xml_properties(element: Optional[Element], owner: str, source: str) -> Dict[str, Any]:
    """A ``<properties>`` element's properties, by name, as their Tiled types."""
    found: Dict[str, Any] = {}
    if element is None:
        return found
    for prop in element.findall("property"):
        name = prop.get("name")
        if name is None:
            raise LevelFormatError(f"{source}: a property of {owner} has no name")
        value = prop.get("value")
        if value is None:  # multi-line strings are the element's text
            value = prop.text or ""
        found[name] = _typed(value, prop.get("type", "string"), name, owner, source)
    return found


def _typed(value: str, kind: str, name: str, owner: str, source: str) -> Any:
    """A TMX property value (text) as its Tiled type."""
    if kind == "bool":
        if value in ("true", "false"):
            return value == "true"
        raise LevelFormatError(f"{source}: bool property {name!r} of {owner} is {value!r:.40}, not true or false")
    if kind == "int":
        try:
            return int(value)
        except ValueError:  # not an int, or more digits than Python converts
            raise LevelFormatError(f"{source}: int property {name!r} of {owner} is {value!r:.40}") from None
    if kind == "float":
        try:
            return float(value)
        except ValueError:
            raise LevelFormatError(f"{source}: float property {name!r} of {owner} is {value!r:.40}") from None
    return value


def json_properties(value: Any, owner: str, source: str) -> Dict[str, Any]:
    """A ``.tmj``/``.tsj`` ``properties`` list as ``{name: value}``."""
    found: Dict[str, Any] = {}
    if value is None:
        return found
    if not isinstance(value, list):
        raise LevelFormatError(f"{source}: the properties of {owner} must be a list of {{name, type, value}}")
    for prop in value:
        if not isinstance(prop, dict) or not isinstance(prop.get("name"), str):
            raise LevelFormatError(f"{source}: a property of {owner} must be an object with a name")
        found[prop["name"]] = prop.get("value")
    return found
