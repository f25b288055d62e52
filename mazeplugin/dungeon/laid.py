"""``level.mission``: a dungeon level's mission graph on its tiles — each room with its tiles, each edge with
its corridor's tiles, its door and its kind.

A dungeon level (:func:`~mazeplugin.dungeon.layout.layout`) records its mission
(``options["mission"]``) and where each room and corridor lies
(``options["layout"]``); :func:`laid_mission` reads them back, with the
level's door and secret things, into a :class:`LaidMission`. ``level.mission``
(:class:`~mazeplugin.level.Level`, through :mod:`mazeplugin.seam`) is that,
or None on a level that is not a dungeon.

>>> import mazeplugin as mp
>>> level = mp.generate("dungeon", 30, 30, seed=7, rooms=12, locks=2, pattern="lock-and-key")
>>> plan = level.mission
>>> plan.graph.pattern, len(plan.nodes), plan.nodes[0].id, plan.nodes[0].kind
('lock-and-key', 12, 'start', 'start')
>>> level.entrance in plan.room("start").tiles, level.exit in plan.room("goal").tiles
(True, True)
>>> sorted(edge.door for edge in plan.edges if edge.door) == sorted((t.x, t.y) for t in level.things if t.kind == "door")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Set, Tuple

import numpy as np

from .missions import Mission
from .model import Edge, Node

__all__ = ["LaidMission", "RoomTiles", "EdgeTiles", "laid_mission"]

Tile = Tuple[int, int]


@dataclass(frozen=True)
class RoomTiles:
    """A room of the mission on the tiles: its :class:`~.model.Node`, its rectangle in tiles (outline
    included: ``x``, ``y``, ``width``, ``height``; the box around a polygon room of ``shapes=``) and ``tiles``,
    its floor tiles inside the outline (a polygon's, or a maze room's cells and passages)."""

    node: Node
    x: int
    y: int
    width: int
    height: int
    tiles: Tuple[Tile, ...]

    @property
    def id(self) -> str:
        return self.node.id

    @property
    def kind(self) -> str:
        return self.node.kind


@dataclass(frozen=True)
class EdgeTiles:
    """An edge of the mission on the tiles: its :class:`~.model.Edge`, ``tiles`` (the corridor's floor tiles in
    order from ``edge.a``'s room to ``edge.b``'s: the passage through ``a``'s outline first, through ``b``'s last,
    the passages between cells included; empty for a one-way edge, which is not carved unless the level was made
    with ``drops=True``), ``door`` (a locked edge's door tile, else None), ``secret`` (a hidden edge's
    secret tile, else None) and ``drop`` (a one-way edge's drop tile, else None)."""

    edge: Edge
    tiles: Tuple[Tile, ...]
    door: Optional[Tile] = None
    secret: Optional[Tile] = None
    drop: Optional[Tile] = None

    @property
    def kind(self) -> str:
        return self.edge.kind

    @property
    def carved(self) -> bool:
        """Whether the tiles carry the edge (a one-way edge only on a level made with ``drops=True``)."""
        return bool(self.tiles)


@dataclass(frozen=True)
class LaidMission:
    """A dungeon level's mission (``graph``, a :class:`~mazeplugin.dungeon.Mission`) with its rooms (``nodes``,
    in the mission's node order) and edges (``edges``, in its edge order) on the tiles."""

    graph: Mission
    nodes: Tuple[RoomTiles, ...]
    edges: Tuple[EdgeTiles, ...]

    def room(self, node_id: str) -> RoomTiles:
        """The room of node ``node_id`` (``KeyError`` naming it when the mission has none)."""
        for room in self.nodes:
            if room.id == node_id:
                return room
        raise KeyError(f"the mission has no room {node_id!r}")

    def room_at(self, tile: Tile) -> Optional[RoomTiles]:
        """The room whose rectangle (outline included) holds ``tile``, or None (a corridor or outside)."""
        x, y = tile
        for room in self.nodes:
            if room.x <= x < room.x + room.width and room.y <= y < room.y + room.height:
                return room
        return None


def _way_in(floor: "np.ndarray[Any, Any]", room: RoomTiles, end: Tile) -> Tile:
    """The passage tile on ``room``'s outline between it and the corridor tile ``end`` beside it."""
    x, y = end
    for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
        on_outline = (nx in (room.x, room.x + room.width - 1) and room.y <= ny < room.y + room.height) or (
            ny in (room.y, room.y + room.height - 1) and room.x <= nx < room.x + room.width)
        if on_outline and floor[ny, nx]:
            return nx, ny
    raise ValueError(f"the level's layout record is not its tiles: no way from {end} into room {room.id!r}")


def _record(record: Any, graph: Mission, shape: Tuple[int, ...]) -> Dict[str, Any]:
    """``options["layout"]`` checked against the mission and the tiles (``shape``: rows, columns) before it is
    read: a ``ValueError`` naming the field and what is allowed, never a ``KeyError`` from deep inside."""
    where = 'options["layout"]'
    if not isinstance(record, dict) or not isinstance(record.get("rooms"), list) or not isinstance(
            record.get("corridors"), list):
        raise ValueError(f"{where} must be an object with lists \"rooms\" and \"corridors\", got {record!r:.80}")
    rows, columns = shape
    ids = {node.id for node in graph.nodes}
    seen: Set[str] = set()
    for n, room in enumerate(record["rooms"]):
        box: Tuple[Any, ...] = tuple(room.get(k) for k in ("x", "y", "width", "height")) if isinstance(room, dict) else ()
        if len(box) != 4 or any(isinstance(v, bool) or not isinstance(v, int) for v in box) or not (
                0 <= box[0] and 0 <= box[1] and 1 <= box[2] <= columns - box[0] and 1 <= box[3] <= rows - box[1]):
            raise ValueError(f"{where}: rooms[{n}] must hold ints x, y, width and height (at least 1) of a "
                             f"rectangle inside the {columns} x {rows} tiles, got {room!r:.80}")
        if not isinstance(room.get("id"), str) or room["id"] not in ids or room["id"] in seen:
            raise ValueError(f"{where}: rooms[{n}]: \"id\" must be a node of the mission named once, "
                             f"got {room.get('id')!r:.40}")
        seen.add(room["id"])
    if seen != ids:
        raise ValueError(f"{where}: no room for the mission's node {sorted(ids - seen)[0]!r}")
    for n, item in enumerate(record["corridors"]):
        tiles = item.get("tiles") if isinstance(item, dict) else None
        if not isinstance(item, dict) or not isinstance(item.get("edge"), str) or not isinstance(tiles, list) or not all(
                isinstance(t, list) and len(t) == 2 and all(type(v) is int for v in t)
                and 0 < t[0] < columns - 1 and 0 < t[1] < rows - 1 for t in tiles):
            raise ValueError(f"{where}: corridors[{n}] must be an object with \"edge\" (an edge's name) and "
                             f"\"tiles\" ([x, y] pairs inside the border of the {columns} x {rows} tiles), got {item!r:.80}")
    return record


def laid_mission(level: Any) -> Optional[LaidMission]:
    """``level.mission``: the :class:`LaidMission` of a dungeon level, or None when ``level`` records no
    mission laid out on its tiles."""
    options = level.options
    if level.algorithm != "dungeon" or "mission" not in options or "layout" not in options:
        return None
    graph = Mission.from_dict(options["mission"])
    floor = np.asarray(level.tiles) == 0
    record = _record(options["layout"], graph, floor.shape)
    rooms: Dict[str, RoomTiles] = {}
    for room in record["rooms"]:
        x, y, w, h = (room[k] for k in ("x", "y", "width", "height"))
        ys, xs = np.nonzero(floor[y + 1 : y + h - 1, x + 1 : x + w - 1])
        inside = tuple((int(a) + x + 1, int(b) + y + 1) for a, b in zip(xs.tolist(), ys.tolist()))
        rooms[room["id"]] = RoomTiles(graph.node(room["id"]), x, y, w, h, inside)
    walks = {item["edge"]: [tuple(t) for t in item["tiles"]] for item in record["corridors"]}
    marked: Dict[Tuple[str, str], Tile] = {}
    for thing in level.things:
        if thing.kind in ("door", "secret", "drop") and isinstance(thing.props.get("edge"), str):
            marked[(thing.kind, thing.props["edge"])] = (thing.x, thing.y)
    edges = []
    for edge in graph.edges:
        walk = [(int(t[0]), int(t[1])) for t in walks.get(edge.name, [])]
        tiles: List[Tile] = []
        if walk:
            tiles.append(_way_in(floor, rooms[edge.a], walk[0]))
            for p, q in zip(walk, walk[1:]):
                tiles += [p, ((p[0] + q[0]) // 2, (p[1] + q[1]) // 2)]
            tiles += [walk[-1], _way_in(floor, rooms[edge.b], walk[-1])]
        edges.append(EdgeTiles(edge, tuple(tiles), marked.get(("door", edge.name)), marked.get(("secret", edge.name)),
                               marked.get(("drop", edge.name))))
    return LaidMission(graph, tuple(rooms[node.id] for node in graph.nodes), tuple(edges))
