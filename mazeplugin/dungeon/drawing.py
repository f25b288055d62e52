"""A mission drawn as SVG: rooms as labelled circles in columns by depth, edges styled by kind.

Column ``d`` holds the rooms ``d`` edges from the start (every edge walked
both ways); rooms no edge reaches stand in a last column. Open edges are
plain lines, locked ones red with their key's name, one-way ones end in an
arrow at ``b``, hidden ones are dashed. A room's fill darkens with its
intensity; start, goal, key, lock, boss and treasure rooms have their own colours.

>>> from .model import Edge, MissionGraph, Node
>>> svg = mission_svg(MissionGraph([Node("start", "start"), Node("goal", "goal")], [Edge("start", "goal", "one-way")]))
>>> svg.startswith("<svg") and 'marker-end="url(#arrow)"' in svg
True
"""

from __future__ import annotations

from html import escape
from typing import Dict, Tuple

from .model import MissionGraph, depths

__all__ = ["mission_svg"]

_STEP_X, _STEP_Y, _RADIUS, _MARGIN = 110, 70, 24, 40
_KIND_FILL = {"start": "#7fc97f", "goal": "#fdc086", "key": "#ffff99", "lock": "#beaed4", "boss": "#f0027f",
              "treasure": "#e6ab02"}
_EDGE_STYLE = {"open": 'stroke="#444" stroke-width="2"',
               "locked": 'stroke="#d62728" stroke-width="4"',
               "one-way": 'stroke="#1f77b4" stroke-width="2" marker-end="url(#arrow)"',
               "hidden": 'stroke="#888" stroke-width="2" stroke-dasharray="6 5"'}


def _layers(mission: MissionGraph) -> Dict[str, int]:
    depth = depths((node.id for node in mission.nodes), ((edge.a, edge.b) for edge in mission.edges), mission.start)
    last = max(depth.values()) + 1
    return {node.id: depth.get(node.id, last) for node in mission.nodes}


def _grey(intensity: float) -> str:
    level = int(round(245 - 120 * intensity))
    return f"#{level:02x}{level:02x}{level:02x}"


def mission_svg(mission: MissionGraph) -> str:
    """The SVG text of ``mission``'s drawing (see the module's doc)."""
    depth = _layers(mission)
    rows: Dict[int, int] = {}
    where: Dict[str, Tuple[int, int]] = {}
    for node in mission.nodes:
        row = rows.get(depth[node.id], 0)
        rows[depth[node.id]] = row + 1
        where[node.id] = (_MARGIN + _RADIUS + depth[node.id] * _STEP_X, _MARGIN + _RADIUS + row * _STEP_Y)
    width = 2 * (_MARGIN + _RADIUS) + max(depth.values()) * _STEP_X
    height = 2 * (_MARGIN + _RADIUS) + (max(rows.values()) - 1) * _STEP_Y
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" '
           'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1f77b4"/></marker></defs>',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    for edge in mission.edges:
        (x1, y1), (x2, y2) = where[edge.a], where[edge.b]
        length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
        dx, dy = (x2 - x1) / length * _RADIUS, (y2 - y1) / length * _RADIUS  # end at the circles' rims
        out.append(f'<line class="edge {edge.kind}" x1="{x1 + dx:.1f}" y1="{y1 + dy:.1f}" x2="{x2 - dx:.1f}" '
                   f'y2="{y2 - dy:.1f}" {_EDGE_STYLE[edge.kind]}><title>{escape(edge.name)} ({edge.kind})</title>'
                   f'</line>')
        if edge.key is not None:
            out.append(f'<text x="{(x1 + x2) / 2:.1f}" y="{(y1 + y2) / 2 - 6:.1f}" text-anchor="middle" '
                       f'fill="#d62728">{escape(edge.key)}</text>')
    for node in mission.nodes:
        x, y = where[node.id]
        fill = _KIND_FILL.get(node.kind, _grey(node.intensity))
        label = node.id if node.key is None else f"{node.id} ({node.key})"
        out.append(f'<g class="node {node.kind}"><title>{escape(node.kind)} {escape(node.id)}, intensity '
                   f'{node.intensity:g}</title><circle cx="{x}" cy="{y}" r="{_RADIUS}" fill="{fill}" stroke="#222" '
                   f'stroke-width="1.5"/><text x="{x}" y="{y + 4}" text-anchor="middle">{escape(label)}</text></g>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
