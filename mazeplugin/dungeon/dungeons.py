"""``mp.dungeon_level``: a playable dungeon in one call, from a mission or from the grammar's arguments.

A dungeon is not a registry generator (``mp.generate("dungeon", ...)``): a
generator opens passages in a maze of a size given beforehand, and later
stages choose the markers and the content from generic options. A dungeon's
size follows from its rooms, and its markers, keys and doors come from the
mission, so :func:`dungeon_level` runs the mission's own stages instead:
:func:`~mazeplugin.dungeon.mission` (stream 7) and
:func:`~mazeplugin.dungeon.layout.layout` (stream ``(7, 1)``), and returns the
same :class:`~mazeplugin.level.Level` every generator returns.

>>> import mazeplugin as mp
>>> level = mp.dungeon_level(rooms=12, locks=2, pattern="mixed", seed="castle")
>>> level.check()
>>> level.algorithm, [t.kind for t in level.things].count("door")
('dungeon', 2)
>>> mp.dungeon_level(level.options["mission"], seed="castle").tiles.tobytes() == level.tiles.tobytes()
True
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Sequence, Union

from ..level import Level
from ..rooms.prefab import Prefab
from .grammar import mission as make_mission
from .layout import layout
from .missions import Mission, load_mission
from .model import MissionGraph

__all__ = ["dungeon_level"]


def dungeon_level(mission: Union[MissionGraph, Dict[str, Any], str, "os.PathLike[str]", None] = None, seed: object = None, *,
                  rooms: int = 12, locks: int = 1, pattern: str = "mixed", branching: float = 0.25,
                  prefabs: Optional[Sequence[Prefab]] = None, attempts: int = 32) -> Level:
    """A dungeon level: ``mission`` (a :class:`~mazeplugin.dungeon.Mission`, its ``to_dict()`` form or a JSON
    file's path) laid out from stream ``(7, 1)`` of ``seed``; with no mission, ``mp.mission(rooms, locks,
    pattern, seed, branching=branching)`` first (one seed for both). ``prefabs`` and ``attempts`` as in
    :func:`~mazeplugin.dungeon.layout.layout`. A mission from a dict or file is checked
    (:meth:`~mazeplugin.dungeon.Mission.check`) before it is laid out."""
    if mission is None:
        made: MissionGraph = make_mission(rooms, locks, pattern, seed, branching=branching)
        seed = made.seed
    elif isinstance(mission, MissionGraph):
        made = mission
    elif isinstance(mission, dict):
        made = Mission.from_dict(mission)
    elif isinstance(mission, (str, os.PathLike)):
        made = load_mission(mission)
    else:
        raise TypeError(f"mission must be a mazeplugin.Mission, a dict or a path, not {type(mission).__name__}")
    return layout(made, seed, prefabs=prefabs, attempts=attempts)
