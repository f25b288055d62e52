""":class:`Mission`: the mission graph (:class:`~.model.MissionGraph`) with what can be asked of it as methods.

The graph, its solver, its files and its drawing live in modules of their
own that read a :class:`~.model.MissionGraph`; this subclass gathers them for
users: ``prove()``, ``problems()``, ``check()``, ``distance()``,
``to_dict()``/``from_dict()``, ``to_json()``/``from_json()``, ``save(path)``,
``to_svg()``, ``layout()`` (the mission as a level, :mod:`.layout`), and :func:`load_mission`.

>>> m = Mission.from_dict({"nodes": [{"id": "start", "kind": "start"}, {"id": "k", "kind": "key", "key": "red"},
...                                  {"id": "goal", "kind": "goal"}],
...                        "edges": [{"from": "start", "to": "k"},
...                                  {"from": "start", "to": "goal", "kind": "locked", "key": "red"}]})
>>> m.prove().route, m.problems()
(('start', 'k', 'start', 'goal'), [])
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence

from .drawing import mission_svg
from .files import graph_from_dict, graph_from_json, mission_to_dict, mission_to_json, read_mission_file, save_mission
from .model import MissionError, MissionGraph
from .solver import Proof, graph_distance, problems, prove

__all__ = ["Mission", "load_mission"]


class Mission(MissionGraph):
    """A mission graph of :class:`~.model.Node` and :class:`~.model.Edge` (see :mod:`.model`): ``Mission(nodes,
    edges, seed=None, pattern=None)``, immutable, its structure checked when made."""

    __slots__ = ()

    @classmethod
    def _of(cls, graph: MissionGraph) -> "Mission":
        return cls(graph.nodes, graph.edges, seed=graph.seed, pattern=graph.pattern)

    def prove(self) -> Proof:
        """The solver's proof (:func:`~.solver.prove`): solvable, soft locks, locks that are not necessary."""
        return prove(self)

    def problems(self) -> List[str]:
        """What keeps the mission from being played fairly, one sentence each (empty: none)."""
        return problems(self)

    def check(self) -> "Mission":
        """This mission, or a :class:`~.model.MissionError` naming every problem of :meth:`problems`."""
        found = self.problems()
        if found:
            raise MissionError("the mission cannot be played: " + "; ".join(found))
        return self

    def distance(self, *, hidden: bool = False) -> Optional[int]:
        """Edges on the shortest way from start to goal with every door open (one-way edges walked their way
        only; hidden ones only if ``hidden``), or None if there is none: the graph distance a pattern promises."""
        return graph_distance(self, hidden=hidden)

    def to_dict(self) -> Dict[str, object]:
        """A dict of JSON values (:mod:`.files`), read back by :meth:`from_dict`."""
        return mission_to_dict(self)

    @classmethod
    def from_dict(cls, data: object, *, check: bool = True) -> "Mission":
        """A mission from :meth:`to_dict`'s form, or a designer's; checked (:meth:`check`) unless ``check=False``."""
        made = cls._of(graph_from_dict(data))
        return made.check() if check else made

    def to_json(self) -> str:
        """The mission as JSON text."""
        return mission_to_json(self)

    @classmethod
    def from_json(cls, text: object, *, check: bool = True) -> "Mission":
        """A mission from :meth:`to_json`'s text (str or bytes), read safely (:mod:`.files`); checked unless
        ``check=False``."""
        made = cls._of(graph_from_json(text))
        return made.check() if check else made

    def save(self, path: object) -> None:
        """Write the mission to ``path`` as JSON (``.json``) or as its drawing (``.svg``), atomically."""
        save_mission(self, path)

    def layout(self, seed: object = None, *, prefabs: Optional[Sequence[Any]] = None, attempts: int = 32,
               shapes: object = None, interior: object = None, treasure: int = 0, enemies: int = 0,
               drops: bool = False) -> Any:
        """The mission laid out as a playable square :class:`~mazeplugin.Level` (:func:`~.layout.layout`): rooms
        placed by the graph, corridors for its open, locked and hidden edges (and its one-way edges as drops with
        ``drops=True``), keys and doors where it says, from stream ``(7, 1)`` of ``seed`` (None: the mission's own
        seed); ``shapes``, ``interior``, ``treasure`` and ``enemies`` as there."""
        from .layout import layout  # (on first use: a mission that is only drawn or proven never needs the level)

        return layout(self, seed, prefabs=prefabs, attempts=attempts, shapes=shapes, interior=interior,
                      treasure=treasure, enemies=enemies, drops=drops)

    def to_svg(self) -> str:
        """A layered drawing: rooms as labelled circles by depth from the start, edges styled by kind."""
        return mission_svg(self)


def load_mission(path: object, *, check: bool = True) -> Mission:
    """The mission in JSON file ``path`` (read safely: regular files only, at most
    :data:`~.files.MAX_MISSION_BYTES`); checked (:meth:`Mission.check`) unless ``check=False``.

    >>> import os, tempfile
    >>> made = Mission.from_dict({"nodes": [{"id": "start", "kind": "start"}, {"id": "goal", "kind": "goal"}],
    ...                           "edges": [{"from": "start", "to": "goal"}]})
    >>> target = os.path.join(tempfile.mkdtemp(), "m.json")
    >>> made.save(target)
    >>> load_mission(target) == made
    True
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, not {type(path).__name__}")
    made = Mission._of(read_mission_file(path))
    if check:
        found = made.problems()
        if found:
            raise MissionError(f"{os.fspath(path)}: the mission cannot be played: " + "; ".join(found))
    return made
