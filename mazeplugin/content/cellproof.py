"""Proving content on a graph of cells: the key-aware solver and the checks behind a grid level's ``check()``.

The counterpart of :mod:`mazeplugin.content.proof` for levels that are
graphs (hex, triangle, polar, wrapping square; see
:mod:`mazeplugin.content.cells`), with the same promises: each door's
passage is shut until its key is held, a key is picked up by walking onto
its cell.

:func:`check_cells` floods from the entrance opening the doors in lock order:
each key is reached with only the earlier doors open and the exit is not; the
exit is reached with every door open; each door is needed on its own (shut,
with every other door open, the exit is not reached); no thing but a door
stands on the entrance or exit cell; every enemy's patrol is a walk along open
passages through no door, and with every patrol cell blocked the keys, the
exit and every treasure and game thing are still reached in order.

:func:`solve_cells` is a shortest-path search over states *(where, keys
held)* — Dijkstra over the entrance and the key cells, each step a
breadth-first search with the doors whose keys are not held shut — bounded by
:data:`~mazeplugin.limits.MAX_SOLVE_STEPS` like the square solver.
"""

from __future__ import annotations

import heapq
from typing import Dict, List, Optional, Sequence, Set, Tuple

from ..limits import MAX_SOLVE_STEPS
from .cells import CellGraph, CellThing
from .proof import ContentError

__all__ = ["check_cells", "solve_cells", "cell_locks"]


def cell_locks(things: Sequence[CellThing]) -> Tuple[Dict[int, CellThing], Dict[int, CellThing]]:
    """``(doors by id, keys by id)``, each door and key linked both ways (``ContentError`` otherwise)."""
    doors = {t.id: t for t in things if t.kind == "door"}
    keys = {t.id: t for t in things if t.kind == "key"}
    for door in doors.values():
        found = keys.get(door.props.get("key", -1))
        if found is None or found.props.get("door") != door.id:
            raise ContentError(f"door {door.id} on passage {door.props.get('edge')} has no key whose "
                               f"props['door'] is {door.id}")
    for key in keys.values():
        opens = doors.get(key.props.get("door", -1))
        if opens is None or opens.props.get("key") != key.id:
            raise ContentError(f"key {key.id} in cell {key.cell} opens no door "
                               f"(props['door'] = {key.props.get('door')!r})")
    return doors, keys


def _in_lock_order(doors: Dict[int, CellThing]) -> List[CellThing]:
    return sorted(doors.values(), key=lambda d: (d.props.get("lock", 0), d.id))


def solve_cells(graph: CellGraph, entrance: int, exit: int, things: Sequence[CellThing]) -> Optional[List[int]]:
    """The shortest walk of cells from ``entrance`` to ``exit`` that holds each door's key before passing it.

    None when there is none. A cell may come twice (a walk to a key and
    back). ``ValueError`` naming :data:`~mazeplugin.limits.MAX_SOLVE_STEPS`
    when the keys can be picked up in too many orders to search.

    >>> from mazeplugin.grids import GridMaze, TriangleGrid
    >>> maze = GridMaze(TriangleGrid(4, 1))
    >>> maze.link(0, 1); maze.link(1, 2); maze.link(2, 3)
    >>> g = CellGraph.of(maze)
    >>> door = CellThing("door", 1, 2, {"edge": g.edge(1, 2), "cells": [1, 2], "key": 1, "lock": 1})
    >>> solve_cells(g, 1, 3, [CellThing("key", 0, 1, {"door": 2, "lock": 1}), door])
    [1, 0, 1, 2, 3]
    """
    doors, keys = cell_locks(things)
    key_ids = sorted(keys)
    door_edges = [int(doors[keys[k].props["door"]].props["edge"]) for k in key_ids]
    points = [entrance] + [keys[k].cell for k in key_ids]
    count = len(key_ids)
    searched: Dict[Tuple[int, int], Tuple[List[int], List[int]]] = {}

    def search(point: int, held: int) -> Tuple[List[int], List[int]]:
        found = searched.get((point, held))
        if found is None:
            if len(searched) * max(count, 1) > MAX_SOLVE_STEPS // max(graph.cells, 1) + count + 1:
                raise ValueError(
                    f"this level's {count} keys can be picked up in too many orders: solving it would take "
                    f"more than {MAX_SOLVE_STEPS:,} steps (mazeplugin.limits.MAX_SOLVE_STEPS)")
            shut = [e for n, e in enumerate(door_edges) if not held >> n & 1]
            found = searched[(point, held)] = graph.search([points[point]], shut=shut)
        return found

    best: Dict[Tuple[int, int], int] = {(0, 0): 0}
    came: Dict[Tuple[int, int], Tuple[int, int]] = {}
    heap: List[Tuple[int, int, int]] = [(0, 0, 0)]
    finish: Optional[Tuple[int, int, int]] = None
    while heap:
        d, point, held = heapq.heappop(heap)
        if best.get((point, held), -1) != d:
            continue
        if finish is not None and d >= finish[0]:
            break
        dist = search(point, held)[0]
        if dist[exit] >= 0 and (finish is None or d + dist[exit] < finish[0]):
            finish = (d + dist[exit], point, held)
        for n in range(count):
            step = dist[points[n + 1]]
            if held >> n & 1 or step < 0:
                continue
            state = (n + 1, held | 1 << n)
            if d + step < best.get(state, 1 << 62):
                best[state], came[state] = d + step, (point, held)
                heapq.heappush(heap, (d + step, n + 1, held | 1 << n))
    if finish is None:
        return None
    legs: List[List[int]] = []
    target, state = exit, (finish[1], finish[2])
    while True:
        legs.append(graph.way(search(*state)[1], target))
        if state == (0, 0):
            break
        target, state = points[state[0]], came[state]
    walk: List[int] = []
    for leg in reversed(legs):
        walk.extend(leg[1:] if walk else leg)
    return walk


def check_cells(graph: CellGraph, entrance: Optional[int], exit: Optional[int], things: Sequence[CellThing]) -> None:
    """Prove a grid level's things (see the module docstring); ``ContentError`` (a ``ValueError``) says what fails.

    >>> import mazeplugin as mp
    >>> level = mp.generate("backtracker", 8, 6, grid="hex", seed=4, keys=1)
    >>> g = CellGraph.of(level.maze)
    >>> check_cells(g, level.entrance, level.exit, level.things)
    >>> check_cells(g, level.entrance, level.exit, [t for t in level.things if t.kind != "key"])
    Traceback (most recent call last):
    ...
    mazeplugin.content.proof.ContentError: door 2 on passage ... has no key whose props['door'] is 2
    """
    ids = [t.id for t in things]
    if len(set(ids)) != len(ids):
        raise ContentError("two things share an id")
    if ids != sorted(ids):
        raise ContentError("things are not sorted by id")
    markers = {m for m in (entrance, exit) if m is not None}
    for thing in things:
        if not 0 <= thing.cell < graph.cells:
            raise ContentError(f"{thing.kind} {thing.id} is in cell {thing.cell}, which this level does not have")
        if thing.kind != "door" and thing.cell in markers:
            raise ContentError(f"{thing.kind} {thing.id} stands on the entrance or exit cell {thing.cell}")
    doors, keys = cell_locks(things)
    for door in doors.values():
        edge, cells = door.props.get("edge"), tuple(door.props.get("cells", ()))
        if not isinstance(edge, int) or not 0 <= edge < len(graph.edges) or not graph.open[edge]:
            raise ContentError(f"door {door.id}: props['edge'] = {edge!r} is not an open passage of this level")
        if sorted(cells) != graph.edges[edge].tolist() or door.cell != cells[0]:
            raise ContentError(f"door {door.id}: props['cells'] {cells!r} and its cell {door.cell} are not "
                               f"the two cells of passage {edge} ({graph.edges[edge].tolist()}), in order")
    if doors and (entrance is None or exit is None):
        raise ContentError("a level with doors needs an entrance and an exit")
    door_edges = {int(d.props["edge"]) for d in doors.values()}
    if entrance is not None and exit is not None:
        _check_locks(graph, entrance, exit, doors, keys)
        for door in _in_lock_order(doors):
            if graph.reached(entrance, shut=[int(door.props["edge"])])[exit]:
                raise ContentError(f"door {door.id} (lock {door.props.get('lock')}) is not needed: with it shut "
                                   "and every other door open the exit is still reached")
    enemies = [t for t in things if t.kind == "enemy"]
    for enemy in enemies:
        patrol = [int(c) for c in enemy.props.get("patrol", ())]
        if not patrol:
            raise ContentError(f"enemy {enemy.id} has no props['patrol']")
        if enemy.cell not in patrol:
            raise ContentError(f"enemy {enemy.id} in cell {enemy.cell} is not on its patrol")
        for cell in patrol:
            if not 0 <= cell < graph.cells or cell in markers:
                raise ContentError(f"enemy {enemy.id}: patrol cell {cell} is not a free cell of this level")
        for a, b in zip(patrol, patrol[1:]):
            try:
                k = graph.edge(a, b)
            except ValueError:
                raise ContentError(f"enemy {enemy.id}: patrol steps {a} -> {b} through no open passage") from None
            if k in door_edges:
                raise ContentError(f"enemy {enemy.id}: patrol passes the door on passage {k}")
    if enemies and entrance is not None and exit is not None:
        patrols = {int(c) for enemy in enemies for c in enemy.props["patrol"]}
        others = [t for t in things if t.kind not in ("door", "key", "enemy")]
        _check_locks(graph, entrance, exit, doors, keys, blocked=patrols, targets=others)


def _check_locks(graph: CellGraph, entrance: int, exit: int, doors: Dict[int, CellThing],
                 keys: Dict[int, CellThing], *, blocked: Optional[Set[int]] = None,
                 targets: Sequence[CellThing] = ()) -> None:
    """The flood in lock order (with ``blocked`` cells walled, only that keys, exit and targets are reached)."""
    around = " avoiding every enemy patrol" if blocked else ""
    shut = {int(d.props["edge"]) for d in doors.values()}
    reached = graph.reached(entrance, shut=shut, blocked=blocked)
    for n, door in enumerate(_in_lock_order(doors), start=1):
        key = keys[door.props["key"]]
        if not reached[key.cell]:
            raise ContentError(f"key {key.id} in cell {key.cell} cannot be reached with only the doors before "
                               f"door {door.id} (lock {n}) open{around}")
        if not blocked and reached[exit]:
            raise ContentError(f"door {door.id} (lock {n}) is not needed: the exit is reached without opening it")
        shut.discard(int(door.props["edge"]))
        reached = graph.reached(entrance, shut=shut, blocked=blocked)
    if not reached[exit]:
        raise ContentError(f"the exit cannot be reached with every door open{around}")
    for thing in targets:
        if not reached[thing.cell]:
            raise ContentError(f"{thing.kind} {thing.id} in cell {thing.cell} cannot be reached{around}")
