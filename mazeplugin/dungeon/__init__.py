"""Dungeons with a story: mission graphs (issue 33's first layer).

A dungeon is planned as a **mission** before any room is laid out: a graph of
rooms (start, goal, keys, the rooms behind locked doors, a boss) and the ways
between them (open, locked by a key, one-way drops, hidden passages).

- :class:`Mission` (:mod:`.mission`), :class:`Node`, :class:`Edge`
  (:mod:`.model`): the graph, immutable, its structure checked when made;
  ``problems()``/``check()`` say whether it can be played.
- :func:`prove` / :class:`Proof` (:mod:`.solver`): a search over (room, keys
  held) proving a mission solvable, free of soft locks, every lock necessary.
- :func:`mission` (``mp.mission``, :mod:`.grammar`): seeded missions from
  Dormans' cycle patterns (:data:`PATTERNS`) with Metazelda's key levels.
- Files (:mod:`.files`, :mod:`.drawing`): ``Mission.to_dict``/``from_dict``,
  ``to_json``/``from_json``, ``save(path)`` (``.json`` or ``.svg``),
  :func:`load_mission`, ``to_svg()``.
- Layout (:mod:`.layout`, :mod:`.dungeons`): ``Mission.layout(seed)`` and
  :func:`dungeon_level` (``mp.dungeon_level``) lay a mission out as a square
  :class:`~mazeplugin.Level`: rooms, corridors, keys and doors the content
  proof checks like every level's; opt-in room shapes (:data:`SHAPES`: L, T,
  plus, U polygons) and maze rooms (:mod:`.shapes`), treasure and enemies
  placed from the mission (:mod:`.stocking`); with ``drops=True`` one-way drops
  (:mod:`mazeplugin.content.drops`), proven free of soft locks.

>>> import mazeplugin as mp
>>> m = mp.mission(rooms=16, locks=2, pattern="mixed", seed="castle")
>>> proof = m.prove()
>>> proof.ok, proof.route[0], proof.route[-1]
(True, 'start', 'goal')
"""

from __future__ import annotations

from .dungeons import dungeon_level
from .grammar import CYCLES, DUNGEON_STREAM, PATTERNS, least_distance, least_rooms, mission
from .missions import Mission, load_mission
from .layout import LAYOUT_STREAM
from .shapes import INTERIOR_STREAM, SHAPES
from .stocking import STOCK_STREAM
from .model import EDGE_KINDS, NODE_KINDS, Edge, MissionError, MissionGraph, Node, depths
from .solver import Proof, prove

__all__ = ["Mission", "MissionGraph", "Node", "Edge", "MissionError", "Proof", "prove", "mission", "load_mission", "PATTERNS",
           "CYCLES", "NODE_KINDS", "EDGE_KINDS", "DUNGEON_STREAM", "least_distance", "least_rooms",
           "dungeon_level", "LAYOUT_STREAM", "depths", "SHAPES", "INTERIOR_STREAM", "STOCK_STREAM"]
