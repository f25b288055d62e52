"""Missions as JSON: the dict form, text, and files (read safely, written atomically).

The form (``"format": "mazeplugin-mission"``, ``"version": 1``)::

    {"format": "mazeplugin-mission", "version": 1, "seed": 7, "pattern": "valve",
     "nodes": [{"id": "start", "kind": "start", "intensity": 0.0}, {"id": "k", "kind": "key", "key": "red"}, ...],
     "edges": [{"from": "start", "to": "k"}, {"from": "k", "to": "goal", "kind": "locked", "key": "red"}, ...]}

A designer's file may leave out ``format``, ``version``, ``seed``, ``pattern``,
a node's ``kind`` (a room) and ``intensity`` (0) and an edge's ``kind`` (open).
Reading goes through :func:`mazeplugin.formats.files.read_limited` (regular
files only, at most :data:`MAX_MISSION_BYTES`) and
:func:`mazeplugin.formats.jsontext.parse_json` (lists and objects counted
before parsing, nesting too deep refused); every fault is a
:class:`~mazeplugin.dungeon.model.MissionError` (a ``ValueError``) naming it.

>>> from .model import Edge, MissionGraph, Node
>>> m = MissionGraph([Node("start", "start"), Node("goal", "goal")], [Edge("start", "goal")])
>>> graph_from_json(mission_to_json(m)) == m
True
>>> graph_from_dict({"nodes": [{"id": "start", "kind": "start"}], "edges": []})
Traceback (most recent call last):
...
mazeplugin.dungeon.model.MissionError: a mission has exactly one goal node; this one has 0
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Set

from ..formats.files import read_limited, write_text
from ..formats.jsontext import parse_json
from .drawing import mission_svg
from .model import MAX_EDGES, MAX_NODES, Edge, MissionError, MissionGraph, Node, sequence_of

__all__ = ["mission_to_dict", "graph_from_dict", "mission_to_json", "graph_from_json", "save_mission",
           "read_mission_file", "FORMAT", "VERSION", "MAX_MISSION_BYTES"]

FORMAT = "mazeplugin-mission"
VERSION = 1
MAX_MISSION_BYTES = 8 << 20
"""Largest mission file read (8 MiB: :data:`~mazeplugin.dungeon.model.MAX_EDGES` edges of a few hundred bytes)."""

_NODE_FIELDS = {"id", "kind", "intensity", "key"}
_EDGE_FIELDS = {"from", "to", "kind", "key"}


def mission_to_dict(mission: MissionGraph) -> Dict[str, object]:
    """The mission as a dict of JSON values (fields at their default left out)."""
    nodes: List[Dict[str, object]] = []
    for node in mission.nodes:
        entry: Dict[str, object] = {"id": node.id, "kind": node.kind, "intensity": node.intensity}
        if node.key is not None:
            entry["key"] = node.key
        nodes.append(entry)
    edges: List[Dict[str, object]] = []
    for edge in mission.edges:
        item: Dict[str, object] = {"from": edge.a, "to": edge.b}
        if edge.kind != "open":
            item["kind"] = edge.kind
        if edge.key is not None:
            item["key"] = edge.key
        edges.append(item)
    out: Dict[str, object] = {"format": FORMAT, "version": VERSION}
    if mission.seed is not None:
        out["seed"] = mission.seed
    if mission.pattern is not None:
        out["pattern"] = mission.pattern
    out["nodes"] = nodes
    out["edges"] = edges
    return out


def _fields(item: object, allowed: Set[str], what: str) -> Dict[str, Any]:
    if not isinstance(item, dict):
        raise MissionError(f"{what} must be an object, got {type(item).__name__}")
    unknown = sorted(str(name) for name in item if name not in allowed)
    if unknown:
        raise MissionError(f"{what} has unknown field(s) {', '.join(map(repr, unknown))}; allowed: "
                           f"{', '.join(sorted(allowed))}")
    return item


def graph_from_dict(data: object) -> MissionGraph:
    """A :class:`MissionGraph` from :func:`mission_to_dict`'s form or a designer's (see the module's doc); its
    structure checked (``Mission(...)``), not yet whether it can be played."""
    top = _fields(data, {"format", "version", "seed", "pattern", "nodes", "edges"}, "a mission")
    if top.get("format", FORMAT) != FORMAT:
        raise MissionError(f"format must be {FORMAT!r}, got {top.get('format')!r}")
    if top.get("version", VERSION) != VERSION:
        raise MissionError(f"version {top.get('version')!r} is not one this mazeplugin reads (it reads {VERSION})")
    seed = top.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
        raise MissionError(f"seed must be an int or a str, got {type(seed).__name__}")
    pattern = top.get("pattern")
    if pattern is not None and not isinstance(pattern, str):
        raise MissionError(f"pattern must be a str, got {type(pattern).__name__}")
    raw_nodes = sequence_of(top.get("nodes"), "nodes")
    raw_edges = sequence_of(top.get("edges", []), "edges")
    if len(raw_nodes) > MAX_NODES or len(raw_edges) > MAX_EDGES:
        raise MissionError(f"a mission holds at most {MAX_NODES:,} nodes and {MAX_EDGES:,} edges; got "
                           f"{len(raw_nodes):,} and {len(raw_edges):,}")
    nodes = []
    for number, item in enumerate(raw_nodes):
        node = _fields(item, _NODE_FIELDS, f"node {number}")
        nodes.append(Node(node.get("id"), node.get("kind", "room"), node.get("intensity", 0.0),  # type: ignore[arg-type]
                          node.get("key")))
    edges = []
    for number, item in enumerate(raw_edges):
        edge = _fields(item, _EDGE_FIELDS, f"edge {number}")
        edges.append(Edge(edge.get("from"), edge.get("to"), edge.get("kind", "open"), edge.get("key")))  # type: ignore[arg-type]
    return MissionGraph(nodes, edges, seed=seed, pattern=pattern)


def mission_to_json(mission: MissionGraph) -> str:
    """The mission as JSON text (two-space indent, one line per node and edge)."""
    data = mission_to_dict(mission)
    lines = ["{"]
    for name in ("format", "version", "seed", "pattern"):
        if name in data:
            lines.append(f"  {json.dumps(name)}: {json.dumps(data[name])},")
    for name in ("nodes", "edges"):
        items = data[name]
        assert isinstance(items, list)
        body = ",\n".join(f"    {json.dumps(item)}" for item in items)
        lines.append(f"  {json.dumps(name)}: [\n{body}\n  ]," if items else f"  {json.dumps(name)}: [],")
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join(lines) + "\n}\n"


def graph_from_json(text: object, source: str = "<mission>") -> MissionGraph:
    """A mission from JSON text or bytes, read safely; structure checked, not yet whether it can be played."""
    if not isinstance(text, (str, bytes)):
        raise TypeError(f"text must be a str or bytes, not {type(text).__name__}")
    data = parse_json(text, source, what="a mission", containers=2 * (MAX_NODES + MAX_EDGES) + 8,
                      error=MissionError)
    try:
        return graph_from_dict(data)
    except MissionError as error:
        raise MissionError(f"{source}: {error}") from None


def save_mission(mission: MissionGraph, path: object) -> None:
    """Write ``mission`` to ``path``: ``.json`` (the mission) or ``.svg`` (its drawing); written atomically."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, not {type(path).__name__}")
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix == ".json":
        write_text(path, mission_to_json(mission))
    elif suffix == ".svg":
        write_text(path, mission_svg(mission))
    else:
        raise ValueError(f"path must end in .json or .svg (a mission file or its drawing), got {suffix or 'none'!r}")


def read_mission_file(path: object) -> MissionGraph:
    """The mission graph in JSON file ``path``, read safely (at most :data:`MAX_MISSION_BYTES`, regular files only);
    its structure checked, not yet whether it can be played."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, not {type(path).__name__}")
    return graph_from_json(read_limited(path, MAX_MISSION_BYTES, what="a mission"), os.fspath(path))
